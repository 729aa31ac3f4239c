//! Any Retry-After value: never a panic, never a negative wait or one over
//! the cap; HTTP-date parsing never panics either.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::http_date::parse_http_date;
use user_management_client::__private::retry::{retry_after_ms, MAX_RETRY_AFTER_MS};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_http_date(&text);
    if let Some(wait) = retry_after_ms(&text, 1_795_345_200_000.0, MAX_RETRY_AFTER_MS) {
        assert!((0.0..=MAX_RETRY_AFTER_MS).contains(&wait));
    }
});
