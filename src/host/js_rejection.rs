//! A JS host's rejection: an [`Error`] with the JS value that caused it,
//! and the words that describe a JS failure. It uses only the error type,
//! the secrets rule and the values.
//!
//! An [`Error`] holds Rust data only, so that it is `Send + Sync`; a
//! [`Rejection`] pairs it with the JS value that caused it, which stays on
//! the JS side: the JS layer gives it to a `UsersApiError` as its `cause`.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::{Cause, Error};
use crate::rules::secrets::redacted;
use crate::rules::value::Value;

/// An [`Error`] and the JS value behind it, where there was one (the
/// exception `fetch` threw, the signal's abort reason, ...).
#[derive(Clone, Debug)]
pub struct Rejection {
    /// The error.
    pub error: Error,
    /// The JS value behind it.
    pub cause: Option<JsValue>,
}

impl Rejection {
    /// `error`, caused by the JS value `cause`, which also becomes the
    /// error's [`source`](std::error::Error::source) as text.
    pub fn caused(error: Error, cause: JsValue) -> Rejection {
        let text = failure_detail(&cause);
        Rejection {
            error: error.with_cause(Cause::new(text)),
            cause: Some(cause),
        }
    }

    /// The same rejection with every `secret` cut out of the error and of
    /// the cause.
    pub(crate) fn redact(self, secrets: &[String]) -> Rejection {
        if secrets.is_empty() {
            return self;
        }
        Rejection {
            error: self.error.cut(|text| redacted(text, secrets)),
            cause: self.cause.map(|cause| redact_cause(cause, secrets)),
        }
    }
}

impl From<Error> for Rejection {
    fn from(error: Error) -> Rejection {
        Rejection { error, cause: None }
    }
}

/// A cause that quotes a secret anywhere we can see (its message, its
/// stack, its own properties as JSON, its `cause` chain) becomes a fresh
/// `Error` with the cleaned message (its stack then quotes only that).
fn redact_cause(cause: JsValue, secrets: &[String]) -> JsValue {
    let mut seen = String::new();
    let mut link = cause.clone();
    // The chain, a few links deep (a cycle stops there too).
    for _ in 0..4 {
        seen.push_str(&describe(&link));
        match Reflect::get(&link, &"cause".into()) {
            Ok(next) if next.is_object() || next.is_string() => link = next,
            _ => break,
        }
    }
    if redacted(&seen, secrets).is_none() {
        return cause;
    }
    let shown = match cause.dyn_ref::<js_sys::Error>() {
        Some(error) => read(error, "message"),
        None => cause.as_string().unwrap_or_default(),
    };
    let shown = redacted(&shown, secrets).unwrap_or(shown);
    wasm_bindgen::JsError::new(&shown).into()
}

/// All the text of a value that might quote a secret.
fn describe(value: &JsValue) -> String {
    if let Some(text) = value.as_string() {
        return text;
    }
    let json = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    let mut text = read(value, "message");
    for more in [read(value, "stack"), json] {
        text.push('\n');
        text.push_str(&more);
    }
    text
}

/// A string property, read without letting a throwing getter through.
fn read(value: &JsValue, key: &str) -> String {
    Reflect::get(value, &key.into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Why `fetch` failed, in a few words: the error's name and message, and
/// the code or message of its cause (Node's undici hides ECONNREFUSED
/// there). At most 300 characters.
pub fn failure_detail(cause: &JsValue) -> String {
    let read = |object: &JsValue, key: &str| {
        Reflect::get(object, &key.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    let mut text = match cause.dyn_ref::<js_sys::Error>() {
        Some(error) => format!(
            "{}: {}",
            read(error, "name").unwrap_or_default(),
            read(error, "message").unwrap_or_default()
        ),
        None => match cause.as_string() {
            Some(text) => text,
            None => Value::of(cause).shown(),
        },
    };
    if cause.is_object() {
        let inner = Reflect::get(cause, &"cause".into()).unwrap_or(JsValue::UNDEFINED);
        if inner.is_truthy() {
            let detail = read(&inner, "code")
                .or_else(|| read(&inner, "message"))
                .or_else(|| inner.as_string());
            if let Some(detail) = detail {
                text = format!("{text} ({detail})");
            }
        }
    }
    text.chars().take(300).collect()
}
