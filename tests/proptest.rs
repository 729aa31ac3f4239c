//! Property tests of the pure rules (native `cargo test`): for any input they
//! never panic, and they accept exactly what the contract allows.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use user_management_client::envelope::{check_success, EnvelopeView, MAX_SAFE_INTEGER};
use user_management_client::error::ErrorKind;
use user_management_client::http_date::parse_http_date;
use user_management_client::model::{Operation, ParamsIn};
use user_management_client::options::{check_header_name, check_header_value, join};
use user_management_client::params::{check_param, Outgoing};
use user_management_client::retry::{
    backoff_ms, retry_after_ms, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS,
};
use user_management_client::secrets::{redact, REDACTED};
use user_management_client::value::{quoted, Value, SHOWN_CHARS};

/// An IMF-fixdate, written independently of the parser under test.
fn imf_fixdate(seconds: i64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    // civil_from_days (Howard Hinnant), the inverse of what the parser uses.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
        DAYS[days.rem_euclid(7) as usize],
        day,
        MONTHS[(month - 1) as usize],
        year,
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Undefined),
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<f64>().prop_map(Value::Number),
        ".{0,40}".prop_map(Value::Str),
        Just(Value::Array),
        Just(Value::Object),
        Just(Value::Function),
        Just(Value::Other("symbol")),
    ]
}

proptest! {
    #[test]
    fn active_accepts_exactly_the_allowed_values(value in any_value()) {
        let allowed = match &value {
            Value::Str(s) => ["all", "true", "false"].contains(&s.as_str()),
            Value::Bool(_) | Value::Undefined | Value::Null => true,
            _ => false,
        };
        let checked = check_param(Operation::Count, ParamsIn::Body, "active", &value);
        prop_assert_eq!(checked.is_ok(), allowed);
        if let Err(err) = checked {
            prop_assert_eq!(err.kind(), ErrorKind::Validation);
            prop_assert_eq!(err.param(), Some("active"));
        }
        if let Value::Bool(b) = value {
            let text = if b { "true" } else { "false" };
            prop_assert_eq!(
                check_param(Operation::Count, ParamsIn::Body, "active", &value).ok(),
                Some(Some(Outgoing::Fixed(text)))
            );
        }
    }

    #[test]
    fn count_refuses_every_other_key(key in "[a-zA-Z_]{1,12}", value in any_value()) {
        prop_assume!(key != "query" && key != "active");
        let checked = check_param(Operation::Count, ParamsIn::Body, &key, &value);
        prop_assert_eq!(checked.is_err(), !value.is_missing());
    }

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
    fn http_dates_parse_back_exactly(seconds in 0i64..253_402_300_799) {
        let date = imf_fixdate(seconds);
        prop_assert_eq!(parse_http_date(&date), Some(seconds as f64 * 1_000.0), "{}", date);
    }

    #[test]
    fn http_date_parsing_never_panics(text in "\\PC{0,40}") {
        let _ = parse_http_date(&text);
    }

    #[test]
    fn backoff_stays_within_half_and_all_of_its_cap(retry in 1u32..100, random in 0f64..1.0) {
        let full = (300.0 * 2f64.powi(retry.min(30) as i32 - 1)).min(MAX_BACKOFF_MS);
        let wait = backoff_ms(retry, random);
        prop_assert!(wait >= full / 2.0 && wait <= full, "{} not in [{}, {}]", wait, full / 2.0, full);
    }

    #[test]
    fn join_puts_exactly_one_slash_between(base in "http://h(/[a-z]{0,5}){0,3}/{0,3}", path in "/{0,2}[a-z]{1,5}(/[a-z]{1,5}){0,2}") {
        let joined = join(&base, &path);
        let head = base.trim_end_matches('/');
        let tail = path.trim_start_matches('/');
        prop_assert_eq!(&joined, &format!("{head}/{tail}"));
        prop_assert!(!joined[head.len()..].starts_with("//"));
    }

    #[test]
    fn header_names_are_exactly_tokens(name in "\\PC{0,20}") {
        let token = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        prop_assert_eq!(check_header_name(&name).is_ok(), token);
    }

    #[test]
    fn header_values_are_latin1_without_cr_lf_nul(value in "\\PC{0,20}|[\\x00-\\xff]{0,20}") {
        let ok = value.chars().all(|c| c as u32 <= 0xFF && !['\r', '\n', '\0'].contains(&c));
        let checked = check_header_value("x-a", &value);
        prop_assert_eq!(checked.is_ok(), ok);
        if let Err(err) = checked {
            prop_assert!(value.is_empty() || !err.message().contains(value.as_str()));
        }
    }

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
        prop_assert_eq!(check_success(Operation::Count, &view).is_ok(), safe);
    }

    #[test]
    fn shown_values_are_quoted_and_cut(text in ".{0,200}") {
        let shown = quoted(&text);
        prop_assert!(shown.starts_with('"') && shown.ends_with('"'));
        prop_assert!(shown.chars().count() <= SHOWN_CHARS + 3);
        prop_assert_eq!(shown.contains('…'), text.chars().count() > SHOWN_CHARS);
    }

    #[test]
    fn redaction_replaces_as_str_replace_does(secret in "[ab\u{e9}]{1,3}", text in "[ab\u{e9} ]{0,40}") {
        let expected = text.replace(secret.as_str(), REDACTED);
        prop_assert_eq!(redact(&text, std::slice::from_ref(&secret)), expected);
    }
}
