//! Any header name and value: never a panic, and a value is accepted only
//! without CR, LF, NUL or characters beyond Latin-1, never shown in the error.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::options::{check_header_name, check_header_value};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (name, value) = text.split_once(':').unwrap_or((&text, ""));
    let _ = check_header_name(name);
    match check_header_value(name, value) {
        Ok(()) => assert!(value.chars().all(|c| (c as u32) <= 0xFF && !"\r\n\0".contains(c))),
        Err(err) => assert!(value.len() < 12 || !err.message.contains(value)),
    }
});
