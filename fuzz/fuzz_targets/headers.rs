//! Any header name and value: never a panic, and a value is accepted only
//! without CR, LF, NUL or characters beyond Latin-1, and the error shows
//! only the header's name.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::options::{check_header_name, check_header_value};
use user_management_client::__private::value::quoted;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (name, value) = text.split_once(':').unwrap_or((&text, ""));
    let _ = check_header_name(name);
    match check_header_value(name, value) {
        Ok(()) => assert!(value.chars().all(|c| (c as u32) <= 0xFF && !"\r\n\0".contains(c))),
        // The message is made of the (cut) name alone: never the value.
        Err(err) => {
            let expected = format!(
                "the value of header {} has CR, LF, NUL or a character beyond Latin-1",
                quoted(name)
            );
            assert_eq!(err.message(), expected);
        }
    }
});
