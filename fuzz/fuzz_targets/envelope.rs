//! Any status and total: the envelope checks never panic, and a count passes
//! only with status 200 and a safe whole total.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::envelope::{check_success, EnvelopeView};
use user_management_client::__private::value::Value;
use user_management_client::__private::value::MAX_SAFE_INTEGER;
use user_management_client::Operation;

fuzz_target!(|data: &[u8]| {
    if data.len() < 17 {
        return;
    }
    let number =
        |bytes: &[u8]| f64::from_bits(u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8])));
    let status = number(&data[0..8]);
    let total = number(&data[8..16]);
    let view = EnvelopeView {
        body: if data[16] & 1 == 0 {
            Value::Object
        } else {
            Value::Array
        },
        status: Value::Number(status),
        has_result: data[16] & 2 == 0,
        result: if data[16] & 4 == 0 {
            Value::Object
        } else {
            Value::Null
        },
        total_users: Value::Number(total),
    };
    let _ = check_success(Operation::List, &view, &[]);
    if check_success(Operation::Count, &view, &[]).is_ok() {
        assert_eq!(status, 200.0);
        assert!(total.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&total));
    }
});
