//! Message building without `core::fmt`.
//!
//! `format!` pulls Rust's formatting machinery into the `.wasm` (several KB
//! gzipped), and messages are the only place this crate writes text. So they
//! are concatenated by hand, and numbers are written by [`number`].

use crate::prelude::*;
/// A string under construction: `Text::new().push("a").push("b").done()`.
#[derive(Default)]
pub struct Text(String);

impl Text {
    /// An empty text.
    pub fn new() -> Text {
        Text(String::new())
    }

    /// Appends `part`.
    pub fn push(mut self, part: &str) -> Text {
        self.0.push_str(part);
        self
    }

    /// Appends `value` in double quotes, cut to [`SHOWN_CHARS`] characters so
    /// that a huge hostile string cannot make a huge message.
    pub fn quoted(self, value: &str) -> Text {
        let shown: String = value.chars().take(SHOWN_CHARS).collect();
        let cut = shown.len() < value.len();
        let text = self.push("\"").push(&shown);
        if cut {
            text.push("…\"")
        } else {
            text.push("\"")
        }
    }

    /// The finished string.
    pub fn done(self) -> String {
        self.0
    }
}

/// How many characters of a rejected value a message shows.
pub const SHOWN_CHARS: usize = 64;

/// Writes a whole number in decimal.
pub fn whole(mut n: u64) -> String {
    let mut digits = [0u8; 20];
    let mut len = 0;
    for slot in digits.iter_mut() {
        *slot = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits
        .iter()
        .take(len)
        .rev()
        .map(|&d| char::from(d))
        .collect()
}

/// Writes a number roughly as JavaScript's `String(n)` would: exactly for
/// whole numbers below 1e19, with up to six decimals below 1e12. Only used in messages.
pub fn number(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    let abs = n.abs();
    if abs >= 1e19 {
        return Text::new()
            .push(sign)
            .push("a number of 1e19 or more")
            .done();
    }
    if abs >= 1e12 {
        // Decimals no longer matter in a message at this size.
        return Text::new().push(sign).push(&whole(abs as u64)).done();
    }
    let scaled = (abs * 1e6 + 0.5) as u64;
    let (int, frac) = (scaled / 1_000_000, scaled % 1_000_000);
    let mut text = Text::new().push(sign).push(&whole(int));
    if frac != 0 {
        let digits = whole(frac + 1_000_000);
        let decimals = digits.get(1..).unwrap_or("").trim_end_matches('0');
        text = text.push(".").push(decimals);
    }
    text.done()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_numbers() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(42.0), "42");
        assert_eq!(number(-7.0), "-7");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::INFINITY), "Infinity");
        assert_eq!(number(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(number(9007199254740992.0), "9007199254740992");
        assert_eq!(number(1e300), "a number of 1e19 or more");
        assert_eq!(number(-1e300), "-a number of 1e19 or more");
        assert_eq!(number(u64::MAX as f64 / 2.0), "9223372036854775808");
    }

    #[test]
    fn quotes_and_cuts() {
        assert_eq!(Text::new().quoted("yes").done(), "\"yes\"");
        let long = "x".repeat(1000);
        let shown = Text::new().quoted(&long).done();
        assert_eq!(shown.chars().count(), SHOWN_CHARS + 3);
        assert!(shown.ends_with("…\""));
    }
}
