//! An answer that arrived (through WASI or natively), judged by the
//! envelope rules (`rules::envelope`): the body parsed by serde_json and
//! read into the [`EnvelopeView`] those rules look at.

use serde::de::DeserializeOwned;
use serde_json::Value as Json;

use crate::error::{Error, ErrorKind};
use crate::model::{Envelope, Operation};
use crate::rules::envelope::{error_body, judge as judge_envelope, EnvelopeView};
use crate::rules::options::Bounds;
use crate::rules::value::Value;

/// A response that arrived, with its whole body.
pub struct Answer {
    /// The HTTP status.
    pub http_status: u16,
    /// The body, decoded as `fetch`'s `text()` decodes it ([`body_text`]).
    pub text: String,
    /// `Retry-After`, read only where the status is one that is retried.
    pub retry_after: Option<String>,
}

/// A body as it arrives, held only while it is within the attempt's
/// limit: each chunk is checked before it is kept, so no more than the
/// limit and the chunk in hand is ever held.
pub struct Collected<'a> {
    bytes: Vec<u8>,
    bounds: Bounds,
    http_status: u16,
    url: &'a str,
}

impl<'a> Collected<'a> {
    /// An empty body of an answer with `http_status` to `url`, whose
    /// `Content-Length` (if it sent one) is `length`: one over the limit is
    /// refused before anything is read.
    pub fn new(
        bounds: Bounds,
        http_status: u16,
        url: &'a str,
        length: Option<u64>,
    ) -> Result<Collected<'a>, Error> {
        if let Some(length) = length {
            if !bounds.allows(length) {
                return Err(bounds.too_large(http_status, url));
            }
        }
        Ok(Collected {
            bytes: Vec::new(),
            bounds,
            http_status,
            url,
        })
    }

    /// Keeps `chunk`, or fails if the body would grow past the limit. The
    /// buffer grows by doubling, but never past the limit: its capacity,
    /// not only what it holds, stays within it.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Error> {
        let total = (self.bytes.len() as u64).saturating_add(chunk.len() as u64);
        if !self.bounds.allows(total) {
            return Err(self.bounds.too_large(self.http_status, self.url));
        }
        let needed = self.bytes.len() + chunk.len();
        if needed > self.bytes.capacity() {
            let doubled = (self.bytes.capacity() * 2).max(needed);
            let limit = usize::try_from(self.bounds.max_body_bytes).unwrap_or(usize::MAX);
            let room = if limit == 0 {
                doubled
            } else {
                doubled.min(limit)
            };
            self.bytes.reserve_exact(room - self.bytes.len());
        }
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    /// The whole body, as `fetch`'s `text()` decodes it.
    pub fn text(self) -> String {
        body_text(self.bytes)
    }
}

/// A body's bytes as `fetch`'s `text()` decodes them: UTF-8 without a
/// leading byte order mark, invalid bytes as U+FFFD.
pub fn body_text(bytes: Vec<u8>) -> String {
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    match text.strip_prefix('\u{FEFF}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// A good answer (a checked 200 envelope), before [`decode`] reads it as
/// the caller's type.
#[derive(Clone)]
pub struct Good {
    /// The HTTP status (a 2xx).
    pub http_status: u16,
    /// The body's text.
    pub text: String,
}

/// A good answer, which [`decode`] reads as the caller's type, or the
/// error, which keeps the body as [`error_body`] keeps it (the call's
/// `secrets` cut out, then cut unless it is JSON).
pub fn judge(answer: Answer, operation: Operation, secrets: &[String]) -> Result<Good, Error> {
    let Answer {
        http_status, text, ..
    } = answer;
    let parsed = serde_json::from_str::<Json>(&text).ok();
    let view = parsed.as_ref().map(envelope_view);
    let json = parsed.is_some();
    match judge_envelope(operation, http_status, view.as_ref(), secrets) {
        Ok(()) => Ok(Good { http_status, text }),
        Err(failed) => {
            let text = error_body(text, json, secrets);
            Err(failed.with_response(http_status, text, json))
        }
    }
}

/// A good answer as the caller's type, read from its text (so a
/// `serde_json::value::RawValue` result keeps the server's text). An
/// error carries the envelope's status, the HTTP status and the body (the
/// call cuts its credentials out).
pub fn decode<T: DeserializeOwned>(good: Good) -> Result<Envelope<T>, Error> {
    serde_json::from_str(&good.text).map_err(|error| {
        Error::new(
            ErrorKind::Decode,
            format!("the result does not fit the requested type: {error}"),
        )
        .with_status(Some(200))
        .with_response(good.http_status, good.text, true)
    })
}

/// What a JSON value is, as the rules see values.
fn value(json: &Json) -> Value {
    match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
        Json::String(s) => Value::Str(s.clone()),
        Json::Array(_) => Value::Array,
        Json::Object(_) => Value::Object,
    }
}

/// Reads the few fields the envelope rules need: `status`, whether
/// `result` is there, what it is, and a count's `result.totalUsers`.
fn envelope_view(body: &Json) -> EnvelopeView {
    let missing = || Value::Undefined;
    let Json::Object(fields) = body else {
        return EnvelopeView {
            body: value(body),
            status: missing(),
            has_result: false,
            result: missing(),
            total_users: missing(),
        };
    };
    let result = fields.get("result");
    EnvelopeView {
        body: Value::Object,
        status: fields.get("status").map_or_else(missing, value),
        has_result: result.is_some(),
        result: result.map_or_else(missing, value),
        total_users: match result {
            Some(Json::Object(result)) => result.get("totalUsers").map_or_else(missing, value),
            _ => missing(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::options::Naming;

    fn collected(max_body_bytes: u64) -> Collected<'static> {
        let bounds = Bounds::new(0, max_body_bytes, Naming::Rust);
        Collected::new(bounds, 200, "http://example.com", None).expect("no length")
    }

    /// Without a limit the buffer doubles: a thousand one-byte chunks
    /// reallocate it no more than 11 times (1, 2, 4 ... 1,024 bytes).
    #[test]
    fn the_buffer_doubles() {
        let mut body = collected(0);
        let mut capacities = vec![body.bytes.capacity()];
        for _ in 0..1_000 {
            body.push(b"x").expect("no limit");
            if capacities.last() != Some(&body.bytes.capacity()) {
                capacities.push(body.bytes.capacity());
            }
        }
        assert_eq!(
            capacities,
            [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_024]
        );
        assert_eq!(body.text().len(), 1_000);
    }

    /// With a limit, the buffer's capacity never passes it, and a chunk that
    /// adds nothing allocates nothing.
    #[test]
    fn the_buffer_never_grows_past_the_limit() {
        let mut body = collected(100);
        for _ in 0..3 {
            body.push(&[b'x'; 30]).expect("within the limit");
            assert!(body.bytes.capacity() <= 100, "{}", body.bytes.capacity());
        }
        body.push(&[b'x'; 10]).expect("exactly the limit");
        assert_eq!(body.bytes.capacity(), 100);
        let full = body.bytes.capacity();
        body.push(b"").expect("nothing more");
        assert_eq!(body.bytes.capacity(), full);
        let error = body.push(b"x").unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Decode);
    }

    /// A good answer that does not fit the caller's type: `decode` with
    /// the HTTP status, the envelope's status and the body (natively and
    /// on WASI alike: both decode here).
    #[test]
    fn a_decode_failure_keeps_the_statuses_and_the_body() {
        let text = r#"{"status":200,"result":{"totalUsers":"seven"}}"#;
        let good = Good {
            http_status: 203,
            text: text.to_string(),
        };
        let error = decode::<crate::model::Count>(good).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Decode);
        assert_eq!(error.http_status(), Some(203));
        assert_eq!(error.api_status(), Some(200));
        assert_eq!(error.body(), Some(text));
        let good = Good {
            http_status: 200,
            text: r#"{"status":200,"result":{"totalUsers":7}}"#.to_string(),
        };
        assert_eq!(
            decode::<crate::model::Count>(good)
                .unwrap()
                .result
                .total_users,
            7
        );
    }

    #[test]
    fn an_empty_chunk_allocates_nothing() {
        let mut body = collected(0);
        body.push(b"abcd").expect("no limit");
        let capacity = body.bytes.capacity();
        body.push(b"").expect("no limit");
        assert_eq!(body.bytes.capacity(), capacity);
    }
}
