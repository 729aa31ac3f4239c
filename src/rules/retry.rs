//! When to try again, and how long to wait (the contract's "Retries").
//!
//! Retried: a `network` error, a `timeout`, and HTTP 408, 429, 500, 502,
//! 503, 504. Never: `validation`, `aborted`, `api`, `decode`, other
//! statuses, nor the `timeout` of the caller's own deadline (in a JS host,
//! its signal's `TimeoutError`), which ends the call.
//! The wait is exponential backoff with "equal jitter" (half fixed, half
//! random: <https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/>),
//! unless the answer carried a `Retry-After`, which wins, capped at
//! [`MAX_RETRY_AFTER_MS`].

use crate::error::{Error, ErrorKind};
use crate::rules::http_date::parse_http_date;

/// The first retry waits about this long (between half and all of it).
pub const BASE_DELAY_MS: f64 = 300.0;
/// Backoff never grows past this.
pub const MAX_BACKOFF_MS: f64 = 10_000.0;
/// A `Retry-After` longer than this is cut to it.
pub const MAX_RETRY_AFTER_MS: f64 = 60_000.0;

/// The HTTP statuses worth another attempt.
pub fn is_retryable_status(status: u16) -> bool {
    matches!(status, 408 | 429 | 500 | 502 | 503 | 504)
}

/// Whether a failed attempt of this kind (with this HTTP status, for
/// `http`) may be tried again.
pub fn is_retryable(kind: ErrorKind, http_status: Option<u16>) -> bool {
    match kind {
        ErrorKind::Network | ErrorKind::Timeout => true,
        ErrorKind::Http => http_status.is_some_and(is_retryable_status),
        ErrorKind::Validation | ErrorKind::Aborted | ErrorKind::Api | ErrorKind::Decode => false,
    }
}

/// [`is_retryable`] for a failure as the caller is given it: `never`
/// says that it is one no attempt is made again for whatever its kind (a
/// setup error, a body over its limit, or the caller's own deadline: a
/// `timeout` whose cause is the caller's signal's `TimeoutError`).
/// [`Error::is_retryable`] and the JS layer's `isRetryable` both ask it.
pub fn is_retryable_failure(kind: ErrorKind, http_status: Option<u16>, never: bool) -> bool {
    !never && is_retryable(kind, http_status)
}

impl Error {
    /// Whether the client's own retry rule retries a failure like this
    /// one: a `network` error or a `timeout`, or HTTP 408, 429, 500, 502,
    /// 503 or 504; never a failure no attempt is made again for whatever
    /// its kind (a setup error, a body over its limit, in a JS host the
    /// caller's own deadline). The JS layer's `isRetryable` is the same
    /// rule ([`is_retryable_failure`]).
    ///
    /// ```
    /// use user_management_client::{Error, ErrorKind};
    ///
    /// assert!(Error::new(ErrorKind::Network, "refused").is_retryable());
    /// assert!(!Error::new(ErrorKind::Api, "status 404").is_retryable());
    /// ```
    pub fn is_retryable(&self) -> bool {
        is_retryable_failure(self.kind(), self.http_status(), self.is_never_retried())
    }
}

/// The backoff before retry number `retry` (1 for the first), given a
/// random number in `[0, 1)`: between half and all of
/// `BASE_DELAY_MS * 2^(retry - 1)`, capped at [`MAX_BACKOFF_MS`].
pub fn backoff_ms(retry: u32, random: f64) -> f64 {
    let doublings = retry.saturating_sub(1).min(30);
    let full = (BASE_DELAY_MS * f64::from(1u32 << doublings)).min(MAX_BACKOFF_MS);
    let random = if (0.0..1.0).contains(&random) {
        random
    } else {
        0.5
    };
    full / 2.0 + full / 2.0 * random
}

/// The wait a `Retry-After` value asks for, in milliseconds from `now_ms`
/// (Unix epoch): delay-seconds or an HTTP date, capped at
/// [`MAX_RETRY_AFTER_MS`]; a date in the past means no wait. `None` when the
/// value is neither.
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<f64> {
    let value = value.trim_ascii();
    let wait = if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // Saturate rather than overflow: "99999999999999999999" is a long wait.
        value
            .bytes()
            .fold(0f64, |n, b| n * 10.0 + f64::from(b - b'0'))
            * 1_000.0
    } else {
        (parse_http_date(value)? - now_ms).max(0.0)
    };
    Some(wait.min(MAX_RETRY_AFTER_MS))
}

/// The wait before retry number `retry`: the server's `Retry-After` if it
/// sent a valid one, else the backoff.
pub fn delay_ms(retry: u32, random: f64, retry_after: Option<&str>, now_ms: f64) -> f64 {
    retry_after
        .and_then(|value| retry_after_ms(value, now_ms))
        .unwrap_or_else(|| backoff_ms(retry, random))
}

/// What the retry rule judges of a failed attempt: its kind, and its HTTP
/// status where it had one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The error's kind.
    pub kind: ErrorKind,
    /// Its HTTP status, for `http`.
    pub http_status: Option<u16>,
}

impl Judged {
    /// What the rule judges of `error`.
    pub fn of(error: &Error) -> Judged {
        Judged {
            kind: error.kind(),
            http_status: error.http_status(),
        }
    }
}

/// The decision after a failed attempt: `Some(wait)` to try again after
/// `wait` milliseconds, `None` to give up. `judged` is `None`
/// where a hook asked for the attempt again: whatever the answer, it is
/// retried while retries are left. `retries_done` is
/// how many retries came before; `retries` how many the options allow;
/// `random` is in `[0, 1)`; `retry_after` is the answer's `Retry-After`;
/// `now_ms` is the time since the Unix epoch.
pub fn next_delay(
    judged: Option<Judged>,
    retries_done: u32,
    retries: u32,
    random: f64,
    retry_after: Option<&str>,
    now_ms: f64,
) -> Option<f64> {
    let retryable = judged.is_none_or(|judged| is_retryable(judged.kind, judged.http_status));
    if retries_done >= retries || !retryable {
        return None;
    }
    Some(delay_ms(retries_done + 1, random, retry_after, now_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error says what the rule says of it: its kind and HTTP status,
    /// unless no attempt is made again after it whatever its kind.
    #[test]
    fn an_error_says_whether_the_rule_retries_it() {
        assert!(Error::new(ErrorKind::Network, "refused").is_retryable());
        assert!(Error::new(ErrorKind::Timeout, "late").is_retryable());
        let busy = Error::new(ErrorKind::Http, "HTTP 503").with_http_status(503);
        assert!(busy.is_retryable());
        let missing = Error::new(ErrorKind::Http, "HTTP 404").with_http_status(404);
        assert!(!missing.is_retryable());
        assert!(!Error::new(ErrorKind::Decode, "over max_body_bytes")
            .never_retried()
            .is_retryable());
        assert!(!Error::validation("active", "bad").is_retryable());
    }

    #[test]
    fn which_failures_are_retried() {
        assert!(is_retryable(ErrorKind::Network, None));
        assert!(is_retryable(ErrorKind::Timeout, None));
        for status in [408, 429, 500, 502, 503, 504] {
            assert!(is_retryable(ErrorKind::Http, Some(status)), "{status}");
        }
        for status in [400, 401, 403, 404, 405, 409, 422, 501, 505] {
            assert!(!is_retryable(ErrorKind::Http, Some(status)), "{status}");
        }
        for kind in [
            ErrorKind::Validation,
            ErrorKind::Aborted,
            ErrorKind::Api,
            ErrorKind::Decode,
        ] {
            assert!(!is_retryable(kind, Some(503)));
        }
        assert!(is_retryable_failure(ErrorKind::Timeout, None, false));
        assert!(!is_retryable_failure(ErrorKind::Timeout, None, true));
        assert!(is_retryable_failure(ErrorKind::Http, Some(503), false));
        assert!(!is_retryable_failure(ErrorKind::Http, Some(404), false));
    }

    #[test]
    fn backoff_doubles_with_jitter_and_a_cap() {
        assert_eq!(backoff_ms(1, 0.0), 150.0);
        assert_eq!(backoff_ms(1, 0.999_999), 150.0 + 150.0 * 0.999_999);
        assert_eq!(backoff_ms(2, 0.0), 300.0);
        assert_eq!(backoff_ms(3, 0.5), 900.0);
        assert_eq!(backoff_ms(40, 0.0), MAX_BACKOFF_MS / 2.0);
        assert!(backoff_ms(u32::MAX, 0.99) <= MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(1, f64::NAN), 225.0);
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = 784_111_777_000.0; // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(retry_after_ms("0", now), Some(0.0));
        assert_eq!(retry_after_ms(" 2 ", now), Some(2_000.0));
        assert_eq!(retry_after_ms("3600", now), Some(MAX_RETRY_AFTER_MS));
        assert_eq!(
            retry_after_ms("99999999999999999999999", now),
            Some(MAX_RETRY_AFTER_MS)
        );
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:49:40 GMT", now),
            Some(3_000.0)
        );
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(0.0)
        );
        assert_eq!(
            retry_after_ms("Mon, 07 Nov 1994 08:49:37 GMT", now),
            Some(MAX_RETRY_AFTER_MS)
        );
        for bad in ["", "-1", "1.5", "soon", "0x10"] {
            assert_eq!(retry_after_ms(bad, now), None, "{bad:?}");
        }
    }

    #[test]
    fn retry_after_wins_over_backoff() {
        assert_eq!(delay_ms(1, 0.0, Some("1"), 0.0), 1_000.0);
        assert_eq!(delay_ms(1, 0.0, Some("garbage"), 0.0), 150.0);
        assert_eq!(delay_ms(2, 0.0, None, 0.0), 300.0);
    }

    #[test]
    fn the_decision_after_a_failure() {
        let busy = Error::new(ErrorKind::Http, "busy").with_response(503, String::new(), false);
        // Two retries allowed: the first two failures wait, the third gives up.
        assert_eq!(
            next_delay(Some(Judged::of(&busy)), 0, 2, 0.0, None, 0.0),
            Some(150.0)
        );
        assert_eq!(
            next_delay(Some(Judged::of(&busy)), 1, 2, 0.0, None, 0.0),
            Some(300.0)
        );
        assert_eq!(
            next_delay(Some(Judged::of(&busy)), 2, 2, 0.0, None, 0.0),
            None
        );
        assert_eq!(
            next_delay(Some(Judged::of(&busy)), 0, 0, 0.0, None, 0.0),
            None
        );
        // Retry-After wins over the backoff.
        assert_eq!(
            next_delay(Some(Judged::of(&busy)), 0, 2, 0.0, Some("2"), 0.0),
            Some(2_000.0)
        );
        // Never after what retrying cannot mend.
        let not_found =
            Error::new(ErrorKind::Http, "gone").with_response(404, String::new(), false);
        assert_eq!(
            next_delay(Some(Judged::of(&not_found)), 0, 5, 0.0, Some("1"), 0.0),
            None
        );
        for kind in [
            ErrorKind::Validation,
            ErrorKind::Aborted,
            ErrorKind::Api,
            ErrorKind::Decode,
        ] {
            assert_eq!(
                next_delay(
                    Some(Judged::of(&Error::new(kind, "x"))),
                    0,
                    5,
                    0.0,
                    None,
                    0.0
                ),
                None
            );
        }
        for kind in [ErrorKind::Network, ErrorKind::Timeout] {
            assert_eq!(
                next_delay(
                    Some(Judged::of(&Error::new(kind, "x"))),
                    0,
                    5,
                    0.5,
                    None,
                    0.0
                ),
                Some(225.0)
            );
        }
    }

    #[test]
    fn an_attempt_a_hook_asked_for_again_is_retried_while_retries_are_left() {
        // Whatever the answer: no error, or one the rule would not retry.
        assert_eq!(next_delay(None, 0, 2, 0.0, None, 0.0), Some(150.0));
        assert_eq!(next_delay(None, 1, 2, 0.0, Some("1"), 0.0), Some(1_000.0));
        assert_eq!(next_delay(None, 2, 2, 0.0, None, 0.0), None);
        assert_eq!(next_delay(None, 0, 0, 0.0, None, 0.0), None);
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn retry_after_is_never_negative_nor_over_the_cap(text in ".{0,40}", now in 0f64..4e12) {
            if let Some(wait) = retry_after_ms(&text, now) {
                prop_assert!((0.0..=MAX_RETRY_AFTER_MS).contains(&wait));
            }
        }

        #[test]
        fn retry_after_seconds_round_trip(seconds in 0u64..10_000_000) {
            let expected = (seconds as f64 * 1_000.0).min(MAX_RETRY_AFTER_MS);
            prop_assert_eq!(retry_after_ms(&seconds.to_string(), 0.0), Some(expected));
        }

        #[test]
        fn backoff_stays_within_half_and_all_of_its_cap(retry in 1u32..100, random in 0f64..1.0) {
            let full = (300.0 * 2f64.powi(retry.min(30) as i32 - 1)).min(MAX_BACKOFF_MS);
            let wait = backoff_ms(retry, random);
            prop_assert!(wait >= full / 2.0 && wait <= full, "{} not in [{}, {}]", wait, full / 2.0, full);
        }
    }
}
