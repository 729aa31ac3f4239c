//! Any base URL: the checks never panic, a URL with credentials is refused
//! without echoing them, and joining puts exactly one slash before the path.
#![no_main]
use libfuzzer_sys::fuzz_target;
use user_management_client::__private::options::{base_url_text, check_base_url, join, Naming};
use user_management_client::__private::value::Value;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let value = Value::Str(text.clone());
    let Ok(url) = base_url_text(&value) else {
        return;
    };
    match check_base_url(url, Naming::Rust) {
        Ok(()) => {
            let joined = join(url, "/api/users/count");
            assert!(joined.ends_with("/api/users/count"));
            assert!(!joined.ends_with("//api/users/count"));
        }
        Err(err) => {
            if let Some((_, after_at)) = text.split_once('@') {
                if !after_at.is_empty() && text.starts_with("http") && text.len() > 12 {
                    let secret = text.split_once("://").map(|(_, rest)| rest).unwrap_or("");
                    let secret = secret.split('@').next().unwrap_or("");
                    if secret.len() > 8 && err.message().contains("credentials") {
                        assert!(!err.message().contains(secret));
                    }
                }
            }
        }
    }
});
