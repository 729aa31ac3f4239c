//! Any header name and value: never a panic, and a value is accepted only
//! when it is visible ASCII, space and tab, and the error shows only the
//! header's name.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::options::{check_header_name, check_header_value};
use user_management_client::__private::value::quoted;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (name, value) = text.split_once(':').unwrap_or((&text, ""));
    let _ = check_header_name(name);
    match check_header_value(name, value) {
        Ok(()) => assert!(value
            .bytes()
            .all(|b| b == b'\t' || (0x20..0x7F).contains(&b))),
        // The message is made of the (cut) name alone: never the value.
        Err(err) => {
            let expected = format!(
                "the value of header {} has a character other than visible ASCII, space and tab \
                 (a control character, or one beyond ASCII: percent-encode such a value)",
                quoted(name)
            );
            assert_eq!(err.message(), expected);
        }
    }
});
