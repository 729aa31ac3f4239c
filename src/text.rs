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
        let decimals = trim_end_byte(digits.get(1..).unwrap_or(""), b'0');
        text = text.push(".").push(decimals);
    }
    text.done()
}

// Byte-wise string helpers for ASCII separators. `str::split`, `trim_*` and
// `contains` with char patterns pull core's generic pattern searchers and
// UTF-8 decoding into the wasm (a few KB); with an ASCII byte every piece
// still ends on a char boundary, so `get` never fails.

/// The pieces of `text` between each `sep` (an ASCII byte).
pub fn split_byte(text: &str, sep: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    core::iter::from_fn(move || {
        let current = rest?;
        match current.bytes().position(|b| b == sep) {
            Some(at) => {
                rest = current.get(at + 1..);
                current.get(..at)
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// `text` split at the first byte that `is_sep` accepts (ASCII only).
pub fn split_once_byte(text: &str, is_sep: impl Fn(u8) -> bool) -> Option<(&str, &str)> {
    let at = text.bytes().position(is_sep)?;
    Some((text.get(..at)?, text.get(at + 1..)?))
}

/// Whether `text` holds the ASCII byte `b`.
pub fn has_byte(text: &str, b: u8) -> bool {
    text.bytes().any(|x| x == b)
}

/// `text` without trailing `b`s (an ASCII byte).
pub fn trim_end_byte(text: &str, b: u8) -> &str {
    let end = text.bytes().rposition(|x| x != b).map_or(0, |at| at + 1);
    text.get(..end).unwrap_or("")
}

/// `text` without leading `b`s (an ASCII byte).
pub fn trim_start_byte(text: &str, b: u8) -> &str {
    let start = text.bytes().position(|x| x != b).unwrap_or(text.len());
    text.get(start..).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_helpers_match_the_str_methods() {
        for text in ["", "a", "/", "a//b/", "//x", "é/ü//", "08:49:37", "0.500"] {
            for sep in [b'/', b':', b'0'] {
                let ours: Vec<&str> = split_byte(text, sep).collect();
                let std: Vec<&str> = text.split(char::from(sep)).collect();
                assert_eq!(ours, std, "{text:?} {sep}");
                let c = char::from(sep);
                assert_eq!(trim_end_byte(text, sep), text.trim_end_matches(c));
                assert_eq!(trim_start_byte(text, sep), text.trim_start_matches(c));
                assert_eq!(has_byte(text, sep), text.contains(c));
                assert_eq!(split_once_byte(text, |b| b == sep), text.split_once(c));
            }
        }
    }

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
