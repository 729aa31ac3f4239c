//! When to try again, and how long to wait (the contract's "Retries"):
//! the retry rule, which reads a [`RetryPolicy`] as data.
//!
//! Retried: a `network` error, a `timeout`, and an HTTP status among the
//! policy's `status_codes` (by default 408, 429, 500, 502, 503, 504).
//! Never: `validation`, `aborted`, `api`, `decode`, other statuses, nor
//! the `timeout` of the caller's own deadline (in a JS host, its signal's
//! `TimeoutError`), which ends the call. At most `limit` such retries; a
//! hook asking for the attempt again is counted apart, at most
//! `max(1, limit)` times.
//! The wait is exponential backoff with "equal jitter" (half fixed, half
//! random: <https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/>),
//! capped at the policy's backoff limit, unless the answer carried a
//! `Retry-After`, which wins, cut to the policy's longest.

use std::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::rules::http_date::parse_http_date;
use crate::rules::options::{
    is_status_code, policy_error, whole, Naming, DEFAULT_RETRIES, STATUS_CODES,
};
use crate::rules::value::{quoted, Value};
use crate::wire;

/// The first retry waits about this long (between half and all of it).
pub const BASE_DELAY_MS: f64 = 300.0;
/// Backoff never grows past this, by default.
pub const MAX_BACKOFF_MS: f64 = 10_000.0;
/// A `Retry-After` longer than this is cut to it, by default.
pub const MAX_RETRY_AFTER_MS: f64 = 60_000.0;
/// The HTTP statuses retried by default.
pub const DEFAULT_STATUS_CODES: [u16; 6] = [408, 429, 500, 502, 503, 504];

/// A retry policy as given (the contract's `RetryPolicy`): each field not
/// set is the one of the policy under it (a call's, its client's; a
/// client's, the default). Built with chainable setters.
///
/// ```
/// use std::time::Duration;
/// use user_management_client::RetryPolicy;
///
/// let policy = RetryPolicy::default()
///     .limit(3)
///     .status_codes([503])
///     .max_retry_after(Duration::from_secs(1));
/// assert_eq!(policy.limit, Some(3));
/// assert_eq!(policy.backoff_limit, None); // the client's, else 10 s
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Extra attempts after a retryable failure. Default: 2.
    pub limit: Option<u32>,
    /// The HTTP statuses retried, each from 100 to 599. Default: 408,
    /// 429, 500, 502, 503, 504.
    pub status_codes: Option<Vec<u16>>,
    /// The longest `Retry-After` honoured: a longer one is cut to it.
    /// Default: 60 s.
    pub max_retry_after: Option<Duration>,
    /// The longest pause the backoff makes without a `Retry-After`.
    /// Default: 10 s.
    pub backoff_limit: Option<Duration>,
}

impl RetryPolicy {
    /// Sets how many extra attempts a retryable failure may have.
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Sets the HTTP statuses retried.
    pub fn status_codes(mut self, status_codes: impl IntoIterator<Item = u16>) -> Self {
        self.status_codes = Some(status_codes.into_iter().collect());
        self
    }

    /// Sets the longest `Retry-After` honoured.
    pub fn max_retry_after(mut self, max_retry_after: Duration) -> Self {
        self.max_retry_after = Some(max_retry_after);
        self
    }

    /// Sets the longest pause the backoff makes.
    pub fn backoff_limit(mut self, backoff_limit: Duration) -> Self {
        self.backoff_limit = Some(backoff_limit);
        self
    }

    /// An error where a status code is not from 100 to 599 (the option
    /// named as `naming` names it).
    pub(crate) fn check(&self, naming: Naming) -> Result<(), Error> {
        let codes = self.status_codes.as_deref().unwrap_or_default();
        match codes.iter().find(|&&code| !is_status_code(f64::from(code))) {
            Some(&code) => {
                let (param, field) = naming.retries();
                let got = Value::Number(f64::from(code));
                Err(policy_error(param, field, STATUS_CODES, &got))
            }
            None => Ok(()),
        }
    }
}

/// A policy that sets no field: every field the default.
pub const UNSET: RetryPolicy = RetryPolicy {
    limit: None,
    status_codes: None,
    max_retry_after: None,
    backoff_limit: None,
};

/// The policy a call's retry rule reads: each field the call's, where it
/// sets it, else the client's, else the default.
#[derive(Clone, Copy, Debug)]
pub struct Policy<'a> {
    /// The call's policy.
    pub call: &'a RetryPolicy,
    /// The client's.
    pub client: &'a RetryPolicy,
}

impl<'a> Policy<'a> {
    /// Extra attempts after a retryable failure.
    pub fn limit(self) -> u32 {
        self.call
            .limit
            .or(self.client.limit)
            .unwrap_or(DEFAULT_RETRIES)
    }

    /// The HTTP statuses retried (`None`: the default ones).
    fn status_codes(self) -> Option<&'a [u16]> {
        let codes = |policy: &'a RetryPolicy| policy.status_codes.as_deref();
        codes(self.call).or(codes(self.client))
    }

    /// A field of milliseconds (`field` reads it of a policy), else
    /// `default`.
    fn ms(self, field: fn(&RetryPolicy) -> Option<Duration>, default: f64) -> f64 {
        let given = field(self.call).or(field(self.client));
        given.map_or(default, |limit| limit.as_secs_f64() * 1_000.0)
    }

    /// The longest `Retry-After` honoured, in milliseconds.
    pub fn max_retry_after_ms(self) -> f64 {
        self.ms(|policy| policy.max_retry_after, MAX_RETRY_AFTER_MS)
    }

    /// The longest pause of the backoff, in milliseconds.
    pub fn backoff_limit_ms(self) -> f64 {
        self.ms(|policy| policy.backoff_limit, MAX_BACKOFF_MS)
    }

    /// Whether a failed attempt of this kind (with this HTTP status, for
    /// `http`) may be tried again under this policy.
    pub fn retries(self, judged: Judged) -> bool {
        match (judged.kind, self.status_codes()) {
            (ErrorKind::Http, Some(codes)) => judged
                .http_status
                .is_some_and(|status| codes.contains(&status)),
            _ => is_retryable(judged.kind, judged.http_status),
        }
    }
}

/// The HTTP statuses worth another attempt by default.
pub fn is_retryable_status(status: u16) -> bool {
    DEFAULT_STATUS_CODES.contains(&status)
}

/// Whether an answer with this HTTP status may be a failure a policy
/// retries, so that its `Retry-After` is read: any status but a 2xx.
pub fn reads_retry_after(status: u16) -> bool {
    !(200..300).contains(&status)
}

/// Whether a failed attempt of this kind (with this HTTP status, for
/// `http`) may be tried again by default.
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
    /// Whether the client's default retry rule retries a failure like
    /// this one: a `network` error or a `timeout`, or HTTP 408, 429, 500,
    /// 502, 503 or 504; never a failure no attempt is made again for
    /// whatever its kind (a setup error, a body over its limit, in a JS
    /// host the caller's own deadline). The JS layer's `isRetryable` is the
    /// same rule ([`is_retryable_failure`]).
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
/// `BASE_DELAY_MS * 2^(retry - 1)`, capped at `limit_ms`.
pub fn backoff_ms(retry: u32, random: f64, limit_ms: f64) -> f64 {
    let doublings = retry.saturating_sub(1).min(30);
    let full = (BASE_DELAY_MS * f64::from(1u32 << doublings)).min(limit_ms);
    let random = if (0.0..1.0).contains(&random) {
        random
    } else {
        0.5
    };
    full / 2.0 + full / 2.0 * random
}

/// The wait a `Retry-After` value asks for, in milliseconds from `now_ms`
/// (Unix epoch): delay-seconds or an HTTP date, cut to `max_ms`; a date in
/// the past means no wait. `None` when the value is neither.
pub fn retry_after_ms(value: &str, now_ms: f64, max_ms: f64) -> Option<f64> {
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
    Some(wait.min(max_ms))
}

/// The wait before retry number `retry` under `policy`: the server's
/// `Retry-After` if it sent a valid one, else the backoff.
pub fn delay_ms(
    policy: Policy<'_>,
    retry: u32,
    random: f64,
    retry_after: Option<&str>,
    now_ms: f64,
) -> f64 {
    retry_after
        .and_then(|value| retry_after_ms(value, now_ms, policy.max_retry_after_ms()))
        .unwrap_or_else(|| backoff_ms(retry, random, policy.backoff_limit_ms()))
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

/// How many retries a call has had: those the retry rule decided, and
/// those a hook asked for (counted apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tried {
    /// Decided by the rule.
    pub by_rule: u32,
    /// Asked for by a hook.
    pub by_hook: u32,
}

impl Tried {
    /// Every retry so far.
    pub fn total(self) -> u32 {
        self.by_rule.saturating_add(self.by_hook)
    }
}

/// The decision after a failed attempt under `policy`: `Some(wait)` to
/// try again after `wait` milliseconds, `None` to give up. `judged` is
/// `None` where a hook asked for the attempt again: whatever the answer,
/// it is retried while the hook's retries are left (`max(1, limit)`).
/// `tried` is how many retries came before; `random` is in `[0, 1)`;
/// `retry_after` is the answer's `Retry-After`; `now_ms` is the time since
/// the Unix epoch.
pub fn next_delay(
    policy: Policy<'_>,
    judged: Option<Judged>,
    tried: Tried,
    random: f64,
    retry_after: Option<&str>,
    now_ms: f64,
) -> Option<f64> {
    let go_on = match judged {
        None => tried.by_hook < policy.limit().max(1),
        Some(judged) => tried.by_rule < policy.limit() && policy.retries(judged),
    };
    go_on.then(|| delay_ms(policy, tried.total() + 1, random, retry_after, now_ms))
}

/// The fields of a `RetryPolicy` object.
pub const POLICY_KEYS: [&str; 4] = ["limit", "statusCodes", "maxRetryAfterMs", "backoffLimitMs"];

/// Sets field `key` of a `RetryPolicy` object to `value` (`undefined`
/// leaves it unset); `items` are the values of `statusCodes` where it is an
/// array. Errors have `param` `"retries"`.
pub fn policy_field<'v>(
    policy: &mut RetryPolicy,
    key: &str,
    value: &'v Value,
    items: impl ExactSizeIterator<Item = &'v Value>,
) -> Result<(), Error> {
    let mut got = value;
    let expected = match (key, value) {
        (_, Value::Undefined) => return Ok(()),
        ("limit", _) => match whole(value) {
            Some(limit) => {
                policy.limit = limit;
                return Ok(());
            }
            None => "a whole number >= 0",
        },
        ("statusCodes", _) => {
            let count = items.len();
            let mut codes = Vec::with_capacity(count);
            for item in items {
                match item {
                    Value::Number(code) if is_status_code(*code) => codes.push(*code as u16),
                    other => got = other,
                }
            }
            if matches!(value, Value::Array) && codes.len() == count {
                policy.status_codes = Some(codes);
                return Ok(());
            }
            STATUS_CODES
        }
        ("maxRetryAfterMs" | "backoffLimitMs", &Value::Number(ms))
            if ms.is_finite() && ms >= 0.0 =>
        {
            // `as` saturates: a huge value is no limit at all.
            let limit = Some(Duration::from_nanos((ms * 1e6).ceil() as u64));
            match key {
                "maxRetryAfterMs" => policy.max_retry_after = limit,
                _ => policy.backoff_limit = limit,
            }
            return Ok(());
        }
        ("maxRetryAfterMs" | "backoffLimitMs", _) => "a finite number >= 0",
        _ => {
            let message = format!(
                "unknown field {} of retries; a RetryPolicy has {}",
                quoted(key),
                wire::one_of(&POLICY_KEYS, None)
            );
            return Err(Error::validation("retries", message));
        }
    };
    Err(policy_error(
        "retries",
        &format!("retries.{key}"),
        expected,
        got,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_policys_fields() {
        let mut policy = RetryPolicy::default();
        let n = Value::Number;
        policy_field(&mut policy, "limit", &n(3.0), std::iter::empty()).unwrap();
        policy_field(
            &mut policy,
            "statusCodes",
            &Value::Array,
            [n(503.0), n(418.0)].iter(),
        )
        .unwrap();
        policy_field(
            &mut policy,
            "maxRetryAfterMs",
            &n(1000.0),
            std::iter::empty(),
        )
        .unwrap();
        policy_field(&mut policy, "backoffLimitMs", &n(0.5), std::iter::empty()).unwrap();
        assert_eq!(policy.limit, Some(3));
        assert_eq!(policy.status_codes, Some(vec![503, 418]));
        assert_eq!(policy.max_retry_after, Some(Duration::from_secs(1)));
        assert_eq!(policy.backoff_limit, Some(Duration::from_micros(500)));
        // `undefined` leaves a field unset.
        let mut unset = RetryPolicy::default();
        for key in POLICY_KEYS {
            policy_field(&mut unset, key, &Value::Undefined, std::iter::empty()).unwrap();
        }
        assert_eq!(unset, RetryPolicy::default());
        policy_field(&mut unset, "statusCodes", &Value::Array, std::iter::empty()).unwrap();
        assert_eq!(unset.status_codes, Some(Vec::new()));
        let bad = |key: &str, value: Value, items: &[Value]| {
            let error =
                policy_field(&mut RetryPolicy::default(), key, &value, items.iter()).unwrap_err();
            assert_eq!(error.param(), Some("retries"), "{key}");
            error.message().to_string()
        };
        assert_eq!(
            bad("limit", n(-1.0), &[]),
            "retries.limit must be a whole number >= 0; got -1"
        );
        assert_eq!(
            bad("limit", n(1.5), &[]),
            "retries.limit must be a whole number >= 0; got 1.5"
        );
        assert_eq!(
            bad("statusCodes", n(503.0), &[]),
            "retries.statusCodes must be an array of whole numbers from 100 to 599; got 503"
        );
        assert_eq!(
            bad("statusCodes", Value::Array, &[n(503.0), n(600.0)]),
            "retries.statusCodes must be an array of whole numbers from 100 to 599; got 600"
        );
        assert_eq!(
            bad("statusCodes", Value::Array, &[Value::Str("503".into())]),
            "retries.statusCodes must be an array of whole numbers from 100 to 599; got \"503\""
        );
        assert_eq!(
            bad("maxRetryAfterMs", n(-1.0), &[]),
            "retries.maxRetryAfterMs must be a finite number >= 0; got -1"
        );
        assert_eq!(
            bad("backoffLimitMs", n(f64::INFINITY), &[]),
            "retries.backoffLimitMs must be a finite number >= 0; got Infinity"
        );
        assert_eq!(
            bad("backoffLimitMs", Value::Str("1".into()), &[]),
            "retries.backoffLimitMs must be a finite number >= 0; got \"1\""
        );
        assert_eq!(
            bad("retryOn", n(1.0), &[]),
            "unknown field \"retryOn\" of retries; a RetryPolicy has \"limit\", \"statusCodes\", \"maxRetryAfterMs\" or \"backoffLimitMs\""
        );
    }

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
        assert_eq!(backoff_ms(1, 0.0, MAX_BACKOFF_MS), 150.0);
        assert_eq!(
            backoff_ms(1, 0.999_999, MAX_BACKOFF_MS),
            150.0 + 150.0 * 0.999_999
        );
        assert_eq!(backoff_ms(2, 0.0, MAX_BACKOFF_MS), 300.0);
        assert_eq!(backoff_ms(3, 0.5, MAX_BACKOFF_MS), 900.0);
        assert_eq!(backoff_ms(40, 0.0, MAX_BACKOFF_MS), MAX_BACKOFF_MS / 2.0);
        assert!(backoff_ms(u32::MAX, 0.99, MAX_BACKOFF_MS) <= MAX_BACKOFF_MS);
        assert_eq!(backoff_ms(1, f64::NAN, MAX_BACKOFF_MS), 225.0);
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = 784_111_777_000.0; // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(retry_after_ms("0", now, MAX_RETRY_AFTER_MS), Some(0.0));
        assert_eq!(
            retry_after_ms(" 2 ", now, MAX_RETRY_AFTER_MS),
            Some(2_000.0)
        );
        assert_eq!(
            retry_after_ms("3600", now, MAX_RETRY_AFTER_MS),
            Some(MAX_RETRY_AFTER_MS)
        );
        assert_eq!(
            retry_after_ms("99999999999999999999999", now, MAX_RETRY_AFTER_MS),
            Some(MAX_RETRY_AFTER_MS)
        );
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:49:40 GMT", now, MAX_RETRY_AFTER_MS),
            Some(3_000.0)
        );
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:00:00 GMT", now, MAX_RETRY_AFTER_MS),
            Some(0.0)
        );
        assert_eq!(
            retry_after_ms("Mon, 07 Nov 1994 08:49:37 GMT", now, MAX_RETRY_AFTER_MS),
            Some(MAX_RETRY_AFTER_MS)
        );
        for bad in ["", "-1", "1.5", "soon", "0x10"] {
            assert_eq!(
                retry_after_ms(bad, now, MAX_RETRY_AFTER_MS),
                None,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn retry_after_wins_over_backoff() {
        assert_eq!(delay_ms(of(UNSET), 1, 0.0, Some("1"), 0.0), 1_000.0);
        assert_eq!(delay_ms(of(UNSET), 1, 0.0, Some("garbage"), 0.0), 150.0);
        assert_eq!(delay_ms(of(UNSET), 2, 0.0, None, 0.0), 300.0);
    }

    #[test]
    fn the_decision_after_a_failure() {
        let busy = Error::new(ErrorKind::Http, "busy").with_response(503, String::new(), false);
        // Two retries allowed: the first two failures wait, the third gives up.
        assert_eq!(
            next_delay(
                limit(2),
                Some(Judged::of(&busy)),
                tried(0, 0),
                0.0,
                None,
                0.0
            ),
            Some(150.0)
        );
        assert_eq!(
            next_delay(
                limit(2),
                Some(Judged::of(&busy)),
                tried(1, 0),
                0.0,
                None,
                0.0
            ),
            Some(300.0)
        );
        assert_eq!(
            next_delay(
                limit(2),
                Some(Judged::of(&busy)),
                tried(2, 0),
                0.0,
                None,
                0.0
            ),
            None
        );
        assert_eq!(
            next_delay(
                limit(0),
                Some(Judged::of(&busy)),
                tried(0, 0),
                0.0,
                None,
                0.0
            ),
            None
        );
        // Retry-After wins over the backoff.
        assert_eq!(
            next_delay(
                limit(2),
                Some(Judged::of(&busy)),
                tried(0, 0),
                0.0,
                Some("2"),
                0.0
            ),
            Some(2_000.0)
        );
        // Never after what retrying cannot mend.
        let not_found =
            Error::new(ErrorKind::Http, "gone").with_response(404, String::new(), false);
        assert_eq!(
            next_delay(
                limit(5),
                Some(Judged::of(&not_found)),
                tried(0, 0),
                0.0,
                Some("1"),
                0.0
            ),
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
                    limit(5),
                    Some(Judged::of(&Error::new(kind, "x"))),
                    tried(0, 0),
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
                    limit(5),
                    Some(Judged::of(&Error::new(kind, "x"))),
                    tried(0, 0),
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
        assert_eq!(
            next_delay(limit(2), None, tried(0, 0), 0.0, None, 0.0),
            Some(150.0)
        );
        assert_eq!(
            next_delay(limit(2), None, tried(0, 1), 0.0, Some("1"), 0.0),
            Some(1_000.0)
        );
        assert_eq!(
            next_delay(limit(2), None, tried(0, 2), 0.0, None, 0.0),
            None
        );
        // Counted apart from the rule's, at least once: `limit: 0` still
        // lets a token refresh happen.
        assert_eq!(
            next_delay(limit(0), None, tried(0, 0), 0.0, None, 0.0),
            Some(150.0)
        );
        assert_eq!(
            next_delay(limit(0), None, tried(0, 1), 0.0, None, 0.0),
            None
        );
        assert_eq!(
            next_delay(limit(1), None, tried(5, 0), 0.0, None, 0.0),
            Some(150.0 * 2f64.powi(5))
        );
        // The rule's own retries do not count the hook's.
        let busy = Judged {
            kind: ErrorKind::Http,
            http_status: Some(503),
        };
        assert_eq!(
            next_delay(limit(1), Some(busy), tried(0, 1), 0.0, None, 0.0),
            Some(300.0)
        );
        assert_eq!(
            next_delay(limit(1), Some(busy), tried(1, 0), 0.0, None, 0.0),
            None
        );
    }

    #[test]
    fn a_policy_names_the_statuses_retried() {
        let policy = of(RetryPolicy::default().status_codes([503, 418]));
        let http = |status| Judged {
            kind: ErrorKind::Http,
            http_status: Some(status),
        };
        assert!(policy.retries(http(503)));
        assert!(policy.retries(http(418)));
        assert!(!policy.retries(http(500)));
        assert!(policy.retries(Judged {
            kind: ErrorKind::Network,
            http_status: None
        }));
        assert!(!policy.retries(Judged {
            kind: ErrorKind::Api,
            http_status: Some(503)
        }));
        let default = of(UNSET);
        assert!(default.retries(http(500)));
        assert!(!default.retries(http(418)));
        assert!(!of(RetryPolicy::default().status_codes([])).retries(http(503)));
    }

    #[test]
    fn a_policy_cuts_the_waits() {
        let policy = of(RetryPolicy::default()
            .max_retry_after(Duration::from_secs(1))
            .backoff_limit(Duration::from_millis(200)));
        assert_eq!(policy.max_retry_after_ms(), 1_000.0);
        assert_eq!(delay_ms(policy, 1, 0.0, Some("5"), 0.0), 1_000.0);
        assert_eq!(delay_ms(policy, 1, 0.0, None, 0.0), 100.0);
        assert_eq!(delay_ms(policy, 9, 0.999, None, 0.0), 100.0 + 100.0 * 0.999);
        let zero = of(RetryPolicy::default().max_retry_after(Duration::ZERO));
        assert_eq!(delay_ms(zero, 1, 0.0, Some("5"), 0.0), 0.0);
        assert_eq!(of(UNSET).max_retry_after_ms(), MAX_RETRY_AFTER_MS);
        assert_eq!(of(UNSET).backoff_limit_ms(), MAX_BACKOFF_MS);
        assert_eq!(of(UNSET).limit(), DEFAULT_RETRIES);
    }

    #[test]
    fn a_calls_policy_overrides_its_clients_field_by_field() {
        let client = RetryPolicy::default()
            .limit(3)
            .status_codes([503])
            .max_retry_after(Duration::from_secs(2));
        let call = RetryPolicy::default().backoff_limit(Duration::from_secs(1));
        let policy = Policy {
            call: &call,
            client: &client,
        };
        let http = |status| Judged {
            kind: ErrorKind::Http,
            http_status: Some(status),
        };
        assert_eq!(policy.limit(), 3);
        assert!(policy.retries(http(503)) && !policy.retries(http(500)));
        assert_eq!(policy.max_retry_after_ms(), 2_000.0);
        assert_eq!(policy.backoff_limit_ms(), 1_000.0);
        let call = RetryPolicy::default()
            .limit(0)
            .status_codes([500])
            .max_retry_after(Duration::from_secs(1));
        let policy = Policy {
            call: &call,
            client: &client,
        };
        assert_eq!(policy.limit(), 0);
        assert!(!policy.retries(http(503)) && policy.retries(http(500)));
        assert_eq!(policy.max_retry_after_ms(), 1_000.0);
        assert_eq!(policy.backoff_limit_ms(), MAX_BACKOFF_MS);
    }

    #[test]
    fn a_status_code_is_from_100_to_599() {
        assert!(is_status_code(100.0) && is_status_code(599.0));
        for bad in [99.0, 600.0, 503.5, f64::NAN, -503.0, f64::INFINITY] {
            assert!(!is_status_code(bad), "{bad}");
        }
        let error = RetryPolicy::default()
            .status_codes([503, 99])
            .check(Naming::Rust)
            .unwrap_err();
        assert_eq!(error.param(), Some("retry_policy"));
        assert_eq!(
            error.message(),
            "retry_policy.status_codes must be an array of whole numbers from 100 to 599; got 99"
        );
        let error = RetryPolicy::default()
            .status_codes([600])
            .check(Naming::Wit)
            .unwrap_err();
        assert_eq!(error.param(), Some("retries"));
        assert!(RetryPolicy::default()
            .status_codes([100, 599])
            .check(Naming::Rust)
            .is_ok());
        assert!(UNSET.check(Naming::Rust).is_ok());
    }

    #[test]
    fn retry_after_is_read_of_every_answer_but_a_good_one() {
        assert!(reads_retry_after(503));
        assert!(reads_retry_after(418));
        assert!(reads_retry_after(302));
        assert!(!reads_retry_after(200));
        assert!(!reads_retry_after(299));
    }

    /// A call's `policy` over a client's of defaults.
    fn of(policy: RetryPolicy) -> Policy<'static> {
        Policy {
            call: Box::leak(Box::new(policy)),
            client: &UNSET,
        }
    }

    fn limit(limit: u32) -> Policy<'static> {
        of(RetryPolicy::default().limit(limit))
    }

    fn tried(by_rule: u32, by_hook: u32) -> Tried {
        Tried { by_rule, by_hook }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn retry_after_is_never_negative_nor_over_the_cap(text in ".{0,40}", now in 0f64..4e12) {
            if let Some(wait) = retry_after_ms(&text, now, MAX_RETRY_AFTER_MS) {
                prop_assert!((0.0..=MAX_RETRY_AFTER_MS).contains(&wait));
            }
        }

        #[test]
        fn retry_after_seconds_round_trip(seconds in 0u64..10_000_000) {
            let expected = (seconds as f64 * 1_000.0).min(MAX_RETRY_AFTER_MS);
            prop_assert_eq!(retry_after_ms(&seconds.to_string(), 0.0, MAX_RETRY_AFTER_MS), Some(expected));
        }

        #[test]
        fn backoff_stays_within_half_and_all_of_its_cap(retry in 1u32..100, random in 0f64..1.0) {
            let full = (300.0 * 2f64.powi(retry.min(30) as i32 - 1)).min(MAX_BACKOFF_MS);
            let wait = backoff_ms(retry, random, MAX_BACKOFF_MS);
            prop_assert!(wait >= full / 2.0 && wait <= full, "{} not in [{}, {}]", wait, full / 2.0, full);
        }
    }
}
