//! Parsing of HTTP dates (RFC 9110 §5.6.7), for `Retry-After`.
//!
//! All three forms a recipient must accept: IMF-fixdate
//! (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form
//! (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`).
//! A hand-written parser: a date crate would cost more than the whole client.

use crate::wire;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Milliseconds since the Unix epoch of an HTTP date, or `None` if `text`
/// is not one.
pub fn parse_http_date(text: &str) -> Option<f64> {
    let text = text.trim_ascii();
    let (weekday, rest) = text.split_once([',', ' '])?;
    if !weekday.bytes().all(|b| b.is_ascii_alphabetic()) || weekday.len() < 3 {
        return None;
    }
    let words: Vec<&str> = rest.split(' ').filter(|w| !w.is_empty()).collect();
    let comma = text.contains(',');
    let (day, month, year, time) = match words.as_slice() {
        // IMF-fixdate: 06 Nov 1994 08:49:37 GMT
        [day, month, year, time, "GMT"] if comma => {
            (number(day)?, month_index(month)?, number(year)?, *time)
        }
        // RFC 850: 06-Nov-94 08:49:37 GMT (two-digit years: RFC 9110 says a
        // year more than 50 years ahead is in the past, so 70-99 -> 19xx).
        [date, time, "GMT"] if comma => {
            let mut parts = date.split('-');
            let day = number(parts.next()?)?;
            let month = month_index(parts.next()?)?;
            let year = number(parts.next()?)?;
            if parts.next().is_some() {
                return None;
            }
            let year = if year < 70 {
                2000 + year
            } else if year < 100 {
                1900 + year
            } else {
                year
            };
            (day, month, year, *time)
        }
        // asctime: Nov  6 08:49:37 1994
        [month, day, time, year] if !comma => {
            (number(day)?, month_index(month)?, number(year)?, *time)
        }
        _ => return None,
    };
    let mut clock = time.split(':');
    let hour = number(clock.next()?)?;
    let minute = number(clock.next()?)?;
    let second = number(clock.next()?)?;
    if clock.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    if !(1..=31).contains(&day) || !(1..=9999).contains(&year) {
        return None;
    }
    let days = days_from_civil(year, month + 1, day);
    Some(((days * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000) as f64)
}

fn number(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.bytes()
        .try_fold(0i64, |n, b| Some(n * 10 + i64::from(b - b'0')))
}

fn month_index(text: &str) -> Option<i64> {
    wire::position(&MONTHS, text).map(|i| i as i64)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`, <https://howardhinnant.github.io/date_algorithms.html>).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOV_6_1994: f64 = 784_111_777_000.0;

    #[test]
    fn the_three_forms_agree() {
        assert_eq!(
            parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(NOV_6_1994)
        );
        assert_eq!(
            parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"),
            Some(NOV_6_1994)
        );
        assert_eq!(
            parse_http_date("Sun Nov  6 08:49:37 1994"),
            Some(NOV_6_1994)
        );
    }

    #[test]
    fn epoch_and_leap_days() {
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0.0));
        assert_eq!(
            parse_http_date("Thu, 29 Feb 2024 00:00:00 GMT"),
            Some(1_709_164_800_000.0)
        );
        assert_eq!(
            parse_http_date("Sun, 22 Nov 2026 11:00:00 GMT"),
            Some(1_795_345_200_000.0)
        );
    }

    #[test]
    fn rejects_what_is_not_a_date() {
        for bad in [
            "",
            "120",
            "tomorrow",
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:49:37 GMT",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 19945 08:49:37 GMT",
            "Sun, -6 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn each_form_only_where_it_belongs() {
        for bad in [
            // A weekday of letters, at least three.
            "Su, 06 Nov 1994 08:49:37 GMT",
            "Sx1, 06 Nov 1994 08:49:37 GMT",
            // IMF-fixdate and RFC 850 have a comma, asctime has none.
            "Sun 06 Nov 1994 08:49:37 GMT",
            "Sunday 06-Nov-94 08:49:37 GMT",
            "Sun, Nov  6 08:49:37 1994",
            // Hours, minutes and seconds in range (60: a leap second).
            "Sun, 06 Nov 1994 08:60:37 GMT",
            "Sun, 06 Nov 1994 08:49:61 GMT",
            "Sun, 06 Nov 1994 08:49:37:00 GMT",
            "Sun, 06 Nov 1994 08::37 GMT",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad:?}");
        }
        assert_eq!(
            parse_http_date("Sun, 06 Nov 1994 08:49:60 GMT"),
            Some(NOV_6_1994 + 23_000.0)
        );
        assert_eq!(
            parse_http_date("Sun, 06 Nov 1994 23:59:59 GMT"),
            Some(NOV_6_1994 + ((23 - 8) * 3_600 + (59 - 49) * 60 + (59 - 37)) as f64 * 1_000.0)
        );
    }

    #[test]
    fn rfc_850_two_digit_years() {
        // 00-69 are 20xx, 70-99 are 19xx; three digits and more are as written.
        for (short, full) in [
            (
                "Thursday, 01-Jan-70 00:00:00 GMT",
                "Thu, 01 Jan 1970 00:00:00 GMT",
            ),
            (
                "Friday, 31-Dec-99 00:00:00 GMT",
                "Fri, 31 Dec 1999 00:00:00 GMT",
            ),
            (
                "Tuesday, 01-Jan-69 00:00:00 GMT",
                "Tue, 01 Jan 2069 00:00:00 GMT",
            ),
            (
                "Saturday, 01-Jan-00 00:00:00 GMT",
                "Sat, 01 Jan 2000 00:00:00 GMT",
            ),
            (
                "Friday, 01-Jan-100 00:00:00 GMT",
                "Fri, 01 Jan 0100 00:00:00 GMT",
            ),
        ] {
            let got = parse_http_date(short);
            assert!(got.is_some(), "{short:?}");
            assert_eq!(got, parse_http_date(full), "{short:?}");
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

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

    proptest! {
        #[test]
        fn http_dates_parse_back_exactly(seconds in 0i64..253_402_300_799) {
            let date = imf_fixdate(seconds);
            prop_assert_eq!(parse_http_date(&date), Some(seconds as f64 * 1_000.0), "{}", date);
        }

        #[test]
        fn http_date_parsing_never_panics(text in "\\PC{0,40}") {
            let _ = parse_http_date(&text);
        }
    }
}
