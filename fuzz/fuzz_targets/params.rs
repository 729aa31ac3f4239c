//! Any key and value through the params rules, for both calls and every
//! transport: never a panic, and `active` passes only its five values.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::params::check_param;
use user_management_client::__private::value::Value;
use user_management_client::{Operation, ParamsIn};

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (key, value) = text.split_once('=').unwrap_or(("active", &text));
    let value = match kind % 6 {
        0 => Value::Str(value.to_string()),
        1 => Value::Number(f64::from_bits(u64::from_le_bytes(
            rest.get(..8)
                .and_then(|b| b.try_into().ok())
                .unwrap_or([0; 8]),
        ))),
        2 => Value::Bool(kind & 0x80 != 0),
        3 => Value::Null,
        4 => Value::Object,
        _ => Value::Other("symbol"),
    };
    for operation in [Operation::Count, Operation::List] {
        for mode in [ParamsIn::Body, ParamsIn::Query, ParamsIn::Form] {
            let checked = check_param(operation, mode, key, &value);
            if key == "active" && checked.is_ok() {
                assert!(
                    matches!(&value, Value::Bool(_) | Value::Null)
                        || matches!(&value, Value::Str(s) if ["all", "true", "false"].contains(&s.as_str()))
                );
            }
        }
    }
});
