//! The judgement of an answer (the contract's "Responses"): an HTTP status
//! outside 2xx is an `http` error; a 2xx body must be JSON and an envelope
//! `{ status, result }` with `status` 200, and for count, `result.totalUsers`
//! a safe whole number. A transport reads the few fields these need into an
//! [`EnvelopeView`]; the body itself stays where the transport parsed it.

use crate::error::{Error, ErrorKind};
use crate::model::Operation;
use crate::platform::number;
#[cfg(doc)]
use crate::rules::secrets::reach;
use crate::rules::secrets::{redact, redacted};
use crate::rules::value::{quoted, Value, MAX_SAFE_INTEGER};

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

/// Judges an answer: its HTTP status, and the view of its body, `None`
/// when the body is not JSON. `Ok` means the caller gets the body as it
/// is; the error has no response attached yet (the transport adds the
/// body, through [`error_body`]). `secrets` are the call's credentials,
/// cut out of anything the error quotes.
pub fn judge(
    operation: Operation,
    http_status: u16,
    view: Option<&EnvelopeView>,
    secrets: &[String],
) -> Result<(), Error> {
    let ok = (200..300).contains(&http_status);
    match view {
        Some(view) if ok => check_success(operation, view, secrets),
        Some(view) => Err(http_error(http_status).with_status(view.envelope_status())),
        None if ok => Err(Error::new(
            ErrorKind::Decode,
            "the response body is not JSON",
        )),
        None => Err(http_error(http_status)),
    }
}

/// How much of a body an error keeps when the body is not JSON: its first
/// 65,536 UTF-16 units (a JSON body is kept whole).
pub const BODY_CUT: u32 = 65_536;

/// What an error keeps of a body's `text` (`json`: it parsed as JSON):
/// first the call's `secrets` cut out, in every form the secrets rule
/// knows, then, unless it is JSON, the rest cut by [`cut_body`]. A
/// transport that holds a long body outside Rust hands over its first
/// [`BODY_CUT`] units and [`reach`] more: enough to see an echo that
/// straddles the cut.
pub fn error_body(mut text: String, json: bool, secrets: &[String]) -> String {
    if let Some(redacted) = redacted(&text, secrets) {
        text = redacted;
    }
    if !json {
        let end = cut_body(&text).len();
        text.truncate(end);
    }
    text
}

/// `text` cut to its first [`BODY_CUT`] UTF-16 units, never inside a
/// character (a surrogate pair stays whole or goes).
pub fn cut_body(text: &str) -> &str {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > BODY_CUT as usize {
            return text.get(..at).unwrap_or(text);
        }
    }
    text
}

fn http_error(http_status: u16) -> Error {
    // Numbers in messages are written by the host's number writer, like
    // every number a message shows.
    let http_status = number(f64::from(http_status));
    Error::new(
        ErrorKind::Http,
        format!("the server answered HTTP {http_status}"),
    )
}

/// Checks a 2xx answer's parsed body for `operation`. `Ok` means the caller
/// gets the body as it is. A message that quotes a text of the body quotes
/// it with `secrets` cut out, before the quote is cut.
pub fn check_success(
    operation: Operation,
    view: &EnvelopeView,
    secrets: &[String],
) -> Result<(), Error> {
    let Some(status) = view.envelope_status() else {
        return Err(Error::new(
            ErrorKind::Decode,
            "the response is JSON but not an envelope { status: integer, result }",
        ));
    };
    let with_status = |kind, message: String| Error::new(kind, message).with_status(Some(status));
    if status != 200 {
        let message = format!("the API answered with status {}", number(status as f64));
        return Err(with_status(ErrorKind::Api, message));
    }
    if operation == Operation::List {
        return Ok(());
    }
    if view.result != Value::Object {
        let message = format!(
            "count's result must be an object; got {}",
            shown(&view.result, secrets)
        );
        return Err(with_status(ErrorKind::Decode, message));
    }
    match view.total_users.as_integer() {
        Some(n) if (0.0..=MAX_SAFE_INTEGER).contains(&n) => Ok(()),
        _ => {
            let message = format!(
                "result.totalUsers must be a whole number from 0 to {}; got {}",
                number(MAX_SAFE_INTEGER),
                shown(&view.total_users, secrets),
            );
            Err(with_status(ErrorKind::Decode, message))
        }
    }
}

/// A value of the body as a message shows it: a text with `secrets` cut
/// out before it is quoted (and so cut), so that no piece of one survives.
fn shown(value: &Value, secrets: &[String]) -> String {
    match value {
        Value::Str(text) => quoted(&redact(text, secrets)),
        other => other.shown(),
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
        assert!(check_success(Operation::Count, &count_ok(0.0), &[]).is_ok());
        assert!(check_success(Operation::Count, &count_ok(42.0), &[]).is_ok());
        assert!(check_success(Operation::Count, &count_ok(MAX_SAFE_INTEGER), &[]).is_ok());
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
                &[],
            )
            .unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Decode, "{bad:?}");
            assert_eq!(err.api_status(), Some(200));
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
                &[],
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
                &view(Value::Number(200.0), result, Value::Undefined),
                &[]
            )
            .is_ok());
        }
    }

    #[test]
    fn status_other_than_200_is_an_api_error() {
        let err = check_success(
            Operation::List,
            &view(Value::Number(403.0), Value::Object, Value::Undefined),
            &[],
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Api);
        assert_eq!(err.api_status(), Some(403));
        assert!(err.message().contains("403"));
    }

    #[test]
    fn bodies_are_cut_in_utf16_units_between_characters() {
        let cut = BODY_CUT as usize;
        assert_eq!(cut_body("short"), "short");
        let long = "x".repeat(cut + 10);
        assert_eq!(cut_body(&long).len(), cut);
        // A pair of surrogates that would straddle the cut goes whole.
        let straddling = format!("{}\u{1F600}", "x".repeat(cut - 1));
        assert_eq!(cut_body(&straddling), "x".repeat(cut - 1));
        let fitting = format!("{}\u{1F600}y", "x".repeat(cut - 2));
        assert_eq!(
            cut_body(&fitting),
            format!("{}\u{1F600}", "x".repeat(cut - 2))
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
            let err = check_success(Operation::Count, &v, &[]).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Decode);
            assert_eq!(err.api_status(), None);
        }
    }

    #[test]
    fn a_quoted_total_quotes_no_piece_of_a_secret() {
        let token = "tk_9Qz+Lm/Wd=R7vKp2Xc8Yb4Nf6Hj1Gs5Dt3Ar0Eq9Wu7Io2Pl4Mk6Nj8Bh0Vg2Cf4Xd6Sz8";
        let secrets = vec![token.to_string()];
        let echoed = view(
            Value::Number(200.0),
            Value::Object,
            Value::Str(format!("{token}!")),
        );
        let err = judge(Operation::Count, 200, Some(&echoed), &secrets).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert!(
            err.message().ends_with("got \"[REDACTED]!\""),
            "{}",
            err.message()
        );
    }

    #[test]
    fn a_quoted_result_quotes_no_piece_of_a_secret() {
        // The token starts 50 characters in: a quote of the first 64 made
        // before the secret is cut out would keep its first 14.
        let token = "tk_9Qz+Lm/Wd=R7vKp2Xc8Yb4Nf6Hj1Gs5Dt3Ar0Eq9Wu7Io2Pl4Mk6Nj8Bh0Vg2Cf4Xd6Sz8";
        let secrets = vec![token.to_string()];
        let lead = "x".repeat(50);
        let echoed = view(
            Value::Number(200.0),
            Value::Str(format!("{lead}{token}")),
            Value::Undefined,
        );
        let err = judge(Operation::Count, 200, Some(&echoed), &secrets).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Decode);
        assert_eq!(
            err.message(),
            format!("count's result must be an object; got \"{lead}[REDACTED]\"")
        );
    }

    #[test]
    fn judging_answers() {
        let good = count_ok(3.0);
        assert!(judge(Operation::Count, 200, Some(&good), &[]).is_ok());
        assert!(judge(Operation::Count, 204, Some(&good), &[]).is_ok());
        let err = judge(Operation::Count, 200, None, &[]).unwrap_err();
        assert_eq!(
            (err.kind(), err.message()),
            (ErrorKind::Decode, "the response body is not JSON")
        );
        let err = judge(Operation::List, 503, None, &[]).unwrap_err();
        assert_eq!((err.kind(), err.api_status()), (ErrorKind::Http, None));
        assert_eq!(err.message(), "the server answered HTTP 503");
        // An error answer that is an envelope keeps its status.
        let refused = view(Value::Number(429.0), Value::Null, Value::Undefined);
        let err = judge(Operation::List, 429, Some(&refused), &[]).unwrap_err();
        assert_eq!((err.kind(), err.api_status()), (ErrorKind::Http, Some(429)));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn count_totals_pass_exactly_when_safe_whole_numbers(total in prop_oneof![any::<f64>(), (0u64..1 << 54).prop_map(|n| n as f64), -5f64..5.0]) {
            let view = EnvelopeView {
                body: Value::Object,
                status: Value::Number(200.0),
                has_result: true,
                result: Value::Object,
                total_users: Value::Number(total),
            };
            let safe = total.is_finite() && total.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&total);
            prop_assert_eq!(check_success(Operation::Count, &view, &[]).is_ok(), safe);
        }
    }
}
