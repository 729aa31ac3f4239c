//! The checks on a decoded body (the contract's "Responses"): is it an
//! envelope `{ status, result }`, is `status` 200, and for count, is
//! `result.totalUsers` a safe whole number. `js::EnvelopeView` reads the few
//! fields these need from the parsed JS object; the object itself is never
//! copied into Rust and is handed to the caller as the platform parsed it.

use crate::error::{Error, ErrorKind};
use crate::model::Operation;
use crate::value::Value;

/// The largest integer JS numbers hold exactly: 2^53 - 1.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The parts of a parsed body the checks look at.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvelopeView {
    /// The body itself (only its kind matters).
    pub body: Value,
    /// `body.status`.
    pub status: Value,
    /// Whether `body` has its own `result` key.
    pub has_result: bool,
    /// `body.result` (only its kind matters).
    pub result: Value,
    /// `body.result.totalUsers`, where `result` is an object.
    pub total_users: Value,
}

impl EnvelopeView {
    /// The envelope's `status`, if the body is an envelope: an object with
    /// an integer `status` and a `result` key.
    /// (A status beyond `i64` saturates; JSON numbers are doubles.)
    pub fn envelope_status(&self) -> Option<i64> {
        if self.body == Value::Object && self.has_result {
            self.status.as_integer().map(|status| status as i64)
        } else {
            None
        }
    }
}

/// How much of a body an error keeps when the body is not JSON: its first
/// 65,536 UTF-16 units (a JSON body is kept whole).
pub const BODY_CUT: usize = 65_536;

/// Judges an answer that arrived with `http_status`: `parsed` is its body
/// as the platform parsed it, with its view, where the body is JSON. `Ok`
/// hands back the body for the caller, as it is; the error has no body yet
/// (the transport adds it with [`Error::with_response`]).
pub fn judge<B>(
    operation: Operation,
    http_status: u16,
    parsed: Option<(B, EnvelopeView)>,
) -> Result<B, Error> {
    let ok = (200..300).contains(&http_status);
    match parsed {
        Some((body, view)) if ok => check_success(operation, &view).map(|()| body),
        Some((_, view)) => Err(http_error(http_status).with_status(view.envelope_status())),
        None if ok => Err(Error::new(
            ErrorKind::Decode,
            "the response body is not JSON",
        )),
        None => Err(http_error(http_status)),
    }
}

/// `text` cut to its first [`BODY_CUT`] UTF-16 units, never inside a
/// character (a surrogate pair stays whole or goes).
pub fn cut_body(text: &str) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > BODY_CUT {
            return text.get(..at).unwrap_or(text);
        }
    }
    text
}

fn http_error(http_status: u16) -> Error {
    // Written as an i64, like the API status below: one integer `Display`
    // in the `.wasm`, not one per integer type.
    let http_status = i64::from(http_status);
    Error::new(
        ErrorKind::Http,
        format!("the server answered HTTP {http_status}"),
    )
}

/// Checks a 2xx answer's parsed body for `operation`. `Ok` means the caller
/// gets the body as it is.
pub fn check_success(operation: Operation, view: &EnvelopeView) -> Result<(), Error> {
    let Some(status) = view.envelope_status() else {
        return Err(Error::new(
            ErrorKind::Decode,
            "the response is JSON but not an envelope { status: integer, result }",
        ));
    };
    let with_status = |kind, message: String| Error::new(kind, message).with_status(Some(status));
    if status != 200 {
        let message = format!("the API answered with status {status}");
        return Err(with_status(ErrorKind::Api, message));
    }
    if operation == Operation::List {
        return Ok(());
    }
    if view.result != Value::Object {
        let message = format!(
            "count's result must be an object; got {}",
            view.result.shown()
        );
        return Err(with_status(ErrorKind::Decode, message));
    }
    match view.total_users.as_integer() {
        Some(n) if (0.0..=MAX_SAFE_INTEGER).contains(&n) => Ok(()),
        _ => {
            let message = format!(
                "result.totalUsers must be a whole number from 0 to {}; got {}",
                // As an i64, the type of `status` above: one integer
                // `Display` in the `.wasm`.
                MAX_SAFE_INTEGER as i64,
                view.total_users.shown()
            );
            Err(with_status(ErrorKind::Decode, message))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(status: Value, result: Value, total_users: Value) -> EnvelopeView {
        EnvelopeView {
            body: Value::Object,
            status,
            has_result: true,
            result,
            total_users,
        }
    }

    fn count_ok(total: f64) -> EnvelopeView {
        view(Value::Number(200.0), Value::Object, Value::Number(total))
    }

    #[test]
    fn a_good_count_passes() {
        assert!(check_success(Operation::Count, &count_ok(0.0)).is_ok());
        assert!(check_success(Operation::Count, &count_ok(42.0)).is_ok());
        assert!(check_success(Operation::Count, &count_ok(MAX_SAFE_INTEGER)).is_ok());
    }

    #[test]
    fn bad_totals_are_decode_errors_that_keep_the_status() {
        for bad in [
            Value::Number(-1.0),
            Value::Number(1.5),
            Value::Number(MAX_SAFE_INTEGER + 1.0),
            Value::Number(f64::INFINITY),
            Value::Str("42".into()),
            Value::Null,
            Value::Undefined,
        ] {
            let err = check_success(
                Operation::Count,
                &view(Value::Number(200.0), Value::Object, bad.clone()),
            )
            .unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Decode, "{bad:?}");
            assert_eq!(err.status(), Some(200));
            assert!(err.message().contains(&bad.shown()));
        }
    }

    #[test]
    fn count_result_must_be_an_object() {
        for bad in [
            Value::Null,
            Value::Array,
            Value::Number(3.0),
            Value::Undefined,
        ] {
            let err = check_success(
                Operation::Count,
                &view(Value::Number(200.0), bad, Value::Undefined),
            )
            .unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Decode);
        }
    }

    #[test]
    fn list_result_may_be_anything() {
        for result in [
            Value::Null,
            Value::Array,
            Value::Str("x".into()),
            Value::Object,
        ] {
            assert!(check_success(
                Operation::List,
                &view(Value::Number(200.0), result, Value::Undefined)
            )
            .is_ok());
        }
    }

    #[test]
    fn status_other_than_200_is_an_api_error() {
        let err = check_success(
            Operation::List,
            &view(Value::Number(403.0), Value::Object, Value::Undefined),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Api);
        assert_eq!(err.status(), Some(403));
        assert!(err.message().contains("403"));
    }

    #[test]
    fn answers_are_judged_by_http_status_then_envelope() {
        let parsed = |view: EnvelopeView| Some(("body", view));
        assert_eq!(
            judge(Operation::Count, 200, parsed(count_ok(3.0))).ok(),
            Some("body")
        );
        assert!(judge(Operation::Count, 204, parsed(count_ok(3.0))).is_ok());
        let err = judge::<()>(Operation::Count, 200, None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode);
        let err = judge::<()>(Operation::List, 503, None).unwrap_err();
        assert_eq!((err.kind(), err.http_status()), (ErrorKind::Http, None));
        assert_eq!(err.message(), "the server answered HTTP 503");
        let not_found = || view(Value::Number(404.0), Value::Object, Value::Undefined);
        let err = judge(Operation::List, 404, parsed(not_found())).unwrap_err();
        assert_eq!((err.kind(), err.status()), (ErrorKind::Http, Some(404)));
        let err = judge(Operation::Count, 200, parsed(not_found())).unwrap_err();
        assert_eq!((err.kind(), err.status()), (ErrorKind::Api, Some(404)));
    }

    #[test]
    fn bodies_are_cut_in_utf16_units_between_characters() {
        assert_eq!(cut_body("short"), "short");
        let long = "x".repeat(BODY_CUT + 10);
        assert_eq!(cut_body(&long).len(), BODY_CUT);
        // A pair of surrogates that would straddle the cut goes whole.
        let straddling = format!("{}\u{1F600}", "x".repeat(BODY_CUT - 1));
        assert_eq!(cut_body(&straddling), "x".repeat(BODY_CUT - 1));
        let fitting = format!("{}\u{1F600}y", "x".repeat(BODY_CUT - 2));
        assert_eq!(
            cut_body(&fitting),
            format!("{}\u{1F600}", "x".repeat(BODY_CUT - 2))
        );
    }

    #[test]
    fn what_is_not_an_envelope() {
        let not_envelopes = [
            view(Value::Str("200".into()), Value::Object, Value::Number(1.0)),
            view(Value::Number(200.5), Value::Object, Value::Number(1.0)),
            view(Value::Undefined, Value::Object, Value::Number(1.0)),
            EnvelopeView {
                has_result: false,
                ..count_ok(1.0)
            },
            EnvelopeView {
                body: Value::Array,
                ..count_ok(1.0)
            },
            EnvelopeView {
                body: Value::Null,
                ..count_ok(1.0)
            },
        ];
        for v in not_envelopes {
            assert_eq!(v.envelope_status(), None);
            let err = check_success(Operation::Count, &v).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Decode);
            assert_eq!(err.status(), None);
        }
    }
}
