//! What hooks see of an attempt and of its response, as the call machine
//! makes them. Each serializes (serde) to the object a JS hook gets.

use std::time::Duration;

use crate::model::Operation;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// What a hook sees of an attempt about to be sent. Serializes to
/// `{ operation, url, attempt, headers }`, headers as a record (`{ name:
/// value }`).
///
/// `#[non_exhaustive]`, as [`ResponseInfo`] and `RetryInfo` are: the
/// client makes them, and a field added later is not a breaking change,
/// so code outside the crate reads them but cannot build one:
///
/// ```compile_fail,E0639
/// use user_management_client::{AttemptInfo, Operation};
///
/// let info = AttemptInfo {
///     operation: Operation::Count,
///     url: "https://api.example.com/api/users/count".into(),
///     attempt: 1,
///     headers: Vec::new(),
/// };
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AttemptInfo {
    /// Count or list.
    pub operation: Operation,
    /// The full request URL (in `query` mode, with its query string).
    pub url: String,
    /// 1 for the first attempt.
    pub attempt: u32,
    /// The headers as sent, credential values replaced by `"[REDACTED]"`.
    pub headers: Vec<(String, String)>,
}

/// The hook infos serialize as maps, not structs: in JSON, and in JS
/// through serde-wasm-bindgen's `Serializer::json_compatible()`, the two
/// are the same object, but serde-wasm-bindgen keeps a hash table of the
/// JS strings of struct field names, which would cost the package's
/// `.wasm` more than it saves.
impl Serialize for AttemptInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut info = serializer.serialize_map(Some(4))?;
        info.serialize_entry("operation", &self.operation)?;
        info.serialize_entry("url", &self.url)?;
        info.serialize_entry("attempt", &self.attempt)?;
        info.serialize_key("headers")?;
        info.serialize_value(&Record(&self.headers))?;
        info.end()
    }
}

/// Header pairs as a record (`{ name: value }`), as JS hooks get them.
struct Record<'a>(&'a [(String, String)]);

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, value)| (name, value)))
    }
}

/// What a hook sees when an attempt's response headers arrived.
/// Serializes to `{ httpStatus, durationMs, responseHeaders }`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ResponseInfo {
    /// The attempt (serialized on its own).
    pub request: AttemptInfo,
    /// The HTTP status.
    pub http_status: u16,
    /// From sending to the response headers, on a monotonic clock (JS:
    /// `durationMs`, whole milliseconds).
    pub duration: Duration,
    /// The response's headers, names in lower case, credential values
    /// (`set-cookie` among them) and any of the call's credentials
    /// replaced by `"[REDACTED]"` (JS: `responseHeaders`, a record).
    pub response_headers: Vec<(String, String)>,
}

impl Serialize for ResponseInfo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut info = serializer.serialize_map(Some(3))?;
        info.serialize_entry("httpStatus", &self.http_status)?;
        info.serialize_entry("durationMs", &self.duration_ms())?;
        info.serialize_key("responseHeaders")?;
        info.serialize_value(&Record(&self.response_headers))?;
        info.end()
    }
}

impl ResponseInfo {
    /// The duration as a JS hook sees it (`durationMs`): whole
    /// milliseconds, cut, not rounded: never longer than the span it
    /// measures.
    pub(crate) fn duration_ms(&self) -> f64 {
        ms(self.duration).floor()
    }
}

/// A duration in milliseconds, to the nanosecond (whole milliseconds come
/// out whole).
pub(crate) fn ms(duration: Duration) -> f64 {
    duration.as_secs() as f64 * 1e3 + f64::from(duration.subsec_nanos()) / 1e6
}

/// What an `after_response` hook may ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResponseAction {
    /// The answer stands (what a hook that returns nothing decides).
    #[default]
    Keep,
    /// Set the answer aside and make the attempt again after the usual
    /// backoff, at most `max(1, limit)` times per call, apart from the
    /// policy's retries: how a token is refreshed after a 401.
    Retry,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_duration_is_whole_milliseconds_cut_not_rounded() {
        let info = |duration| ResponseInfo {
            request: AttemptInfo {
                operation: Operation::Count,
                url: String::new(),
                attempt: 1,
                headers: Vec::new(),
            },
            http_status: 200,
            duration,
            response_headers: Vec::new(),
        };
        assert_eq!(info(Duration::from_micros(1_999)).duration_ms(), 1.0);
        assert_eq!(info(Duration::from_millis(2)).duration_ms(), 2.0);
        assert_eq!(info(Duration::from_secs(3)).duration_ms(), 3000.0);
    }
}
