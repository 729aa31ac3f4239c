//! Keeping credentials out of errors (the contract's "Always").
//!
//! The client never puts a header value into a message. But a hostile or
//! careless server can echo a token back in its body, and a caller's own
//! `fetch` can throw an error quoting it; those bodies and causes end up in
//! `UsersApiError`s, and from there in log aggregators. So the values of
//! credential headers are collected per call and cut out of any error text.

use std::borrow::Cow;

/// What a redacted secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Pieces shorter than this are not hunted for: replacing every "a" in a
/// body would destroy it and protect nothing.
const MIN_SECRET_CHARS: usize = 4;

/// Whether a header (lower-case name) carries a credential: the standard
/// ones, and any name that says token, secret, key, auth, session, cookie,
/// password or credential (`X-Api-Key`, `X-Auth-Token`, ...).
pub fn is_credential_header(lower_name: &str) -> bool {
    const WORDS: [&str; 9] = [
        "auth",
        "token",
        "secret",
        "key",
        "session",
        "cookie",
        "password",
        "credential",
        "jwt",
    ];
    WORDS.iter().any(|word| find(lower_name, word).is_some())
}

/// The strings to cut out of error text for these headers: each credential
/// value, and the token after an auth scheme (`Bearer abc` also yields
/// `abc`, since servers echo the bare token).
pub fn secrets<'a>(headers: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (name, value) in headers {
        if !is_credential_header(&name.to_ascii_lowercase()) {
            continue;
        }
        let value = trim_spaces(value);
        let token = value.split_once(' ').map(|(_, token)| trim_spaces(token));
        for piece in [Some(value), token].into_iter().flatten() {
            // In any order: `redact` cuts the longest match at each place.
            if piece.chars().count() >= MIN_SECRET_CHARS && !found.iter().any(|s| s == piece) {
                found.push(piece.to_string());
            }
        }
    }
    found
}

/// Headers as the client shows them (to hooks, in `Debug` output): each
/// credential header's value replaced by [`REDACTED`].
pub fn shown(headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let value = if is_credential_header(&name.to_ascii_lowercase()) {
                REDACTED.to_string()
            } else {
                value.clone()
            };
            (name.clone(), value)
        })
        .collect()
}

/// A response's headers as hooks see them: names in lower case, each
/// credential header's value (`set-cookie` among them) replaced by
/// [`REDACTED`], and any of the call's `secrets` cut out of the others (a
/// server may echo a token in a header too).
pub fn shown_response(headers: &[(String, String)], secrets: &[String]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = name.to_ascii_lowercase();
            let value = if is_credential_header(&name) {
                REDACTED.to_string()
            } else {
                redact(value, secrets).into_owned()
            };
            (name, value)
        })
        .collect()
}

/// `text` with every secret replaced by [`REDACTED`], in each form a
/// server may echo it in: as sent, JSON-escaped (any mix of `\uXXXX`
/// escapes, surrogate pairs, `\/` and the short escapes), percent-encoded
/// (`%2B`, and `+` for a space), and percent-encoded inside a JSON string.
/// The replacement is made on the text as it came, before anything parses,
/// quotes or cuts it: a JSON body stays JSON (the secret sat inside one of
/// its strings) with everything else kept. Borrows `text` when no secret is
/// there, so an answer without one is not copied.
pub fn redact<'t>(text: &'t str, secrets: &[String]) -> Cow<'t, str> {
    let raw = text.as_bytes();
    let mut decodings = Vec::new();
    for decoding in DECODINGS {
        if decoding.applies(raw) {
            decodings.push(decoding);
        }
    }
    // One pass from left to right, as `str::replace` goes: where a reading
    // of a secret starts (the longest, where several do: the full header
    // value before the token in it), the text up to it is kept and the
    // reading replaced, and the search goes on after it.
    let mut out = String::new();
    let mut found = false;
    let (mut kept, mut at) = (0, 0);
    while at < raw.len() {
        let mut end = None;
        for &decoding in &decodings {
            for secret in secrets {
                end = end.max(match_end(raw, at, secret.as_bytes(), decoding));
            }
        }
        match end {
            Some(end) => {
                out.push_str(text.get(kept..at).unwrap_or_default());
                out.push_str(REDACTED);
                found = true;
                (kept, at) = (end, end);
            }
            None => at += 1,
        }
    }
    if !found {
        return Cow::Borrowed(text);
    }
    out.push_str(text.get(kept..).unwrap_or_default());
    Cow::Owned(out)
}

/// [`redact`], as a new text only where a secret was found.
pub fn redacted(text: &str, secrets: &[String]) -> Option<String> {
    match redact(text, secrets) {
        Cow::Owned(text) => Some(text),
        Cow::Borrowed(_) => None,
    }
}

/// How many characters of raw text an echo of the longest secret can
/// take: six per byte (`\u0041` for `A`). A body read up to a cut plus
/// this much shows every echo that starts before the cut whole.
pub fn reach(secrets: &[String]) -> usize {
    6 * secrets.iter().map(String::len).max().unwrap_or(0)
}

/// How an echo may be encoded: which escapes are read as the characters
/// they stand for. Each is tried on its own, so that a secret which itself
/// contains `%41` or a backslash is still found where it was sent as is.
#[derive(Clone, Copy)]
struct Decoding {
    /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX`.
    json: bool,
    /// `%XX` (a UTF-8 byte), and `+` for a space.
    percent: bool,
}

const DECODINGS: [Decoding; 4] = [
    Decoding {
        json: false,
        percent: false,
    },
    Decoding {
        json: true,
        percent: false,
    },
    Decoding {
        json: false,
        percent: true,
    },
    Decoding {
        json: true,
        percent: true,
    },
];

impl Decoding {
    /// Whether `raw` has anything this decoding reads differently.
    fn applies(self, raw: &[u8]) -> bool {
        (!self.json || raw.contains(&b'\\'))
            && (!self.percent || raw.iter().any(|b| matches!(b, b'%' | b'+')))
    }

    /// What the raw text at `at` stands for, and how many raw bytes that
    /// takes: a `+` under percent-decoding, or up to four bytes of UTF-8.
    fn unit(self, raw: &[u8], at: usize) -> Option<(Unit, usize)> {
        let byte = *raw.get(at)?;
        let literal = (Unit::Bytes([byte, 0, 0, 0], 1), 1);
        let decoded = match byte {
            b'\\' if self.json => json_escape(raw, at),
            b'%' if self.percent => raw
                .get(at + 1..at + 3)
                .and_then(hex)
                .map(|byte| (Unit::Bytes([byte as u8, 0, 0, 0], 1), 3)),
            b'+' if self.percent => Some((Unit::Plus, 1)),
            _ => None,
        };
        Some(decoded.unwrap_or(literal))
    }
}

/// One decoded piece of an echo.
enum Unit {
    /// These bytes (the first `.1` of them).
    Bytes([u8; 4], usize),
    /// A `+` in percent-encoded text: a `+` or a space.
    Plus,
}

/// The JSON escape at `at` (a backslash): the character, and its length.
fn json_escape(raw: &[u8], at: usize) -> Option<(Unit, usize)> {
    let short = match raw.get(at + 1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex(raw.get(at + 2..at + 6)?)?;
            let (code, len) = if (0xD800..0xDC00).contains(&high) {
                if raw.get(at + 6..at + 8)? != b"\\u" {
                    return None;
                }
                let low = hex(raw.get(at + 8..at + 12)?)?;
                if !(0xDC00..0xE000).contains(&low) {
                    return None;
                }
                (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00), 12)
            } else {
                (high, 6)
            };
            return Some((Unit::char(char::from_u32(code)?), len));
        }
        _ => return None,
    };
    Some((Unit::char(short), 2))
}

impl Unit {
    fn char(c: char) -> Unit {
        let mut bytes = [0; 4];
        let len = c.encode_utf8(&mut bytes).len();
        Unit::Bytes(bytes, len)
    }
}

/// The value of ASCII hex digits.
fn hex(digits: &[u8]) -> Option<u32> {
    digits
        .iter()
        .try_fold(0, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
}

/// Where a reading of `secret` that starts at `start` ends, if one does.
fn match_end(raw: &[u8], start: usize, secret: &[u8], decoding: Decoding) -> Option<usize> {
    let (mut at, mut matched) = (start, 0);
    while matched < secret.len() {
        let (unit, len) = decoding.unit(raw, at)?;
        matched += match unit {
            Unit::Plus if matches!(secret.get(matched), Some(b'+' | b' ')) => 1,
            Unit::Bytes(bytes, n) if secret.get(matched..matched + n) == bytes.get(..n) => n,
            _ => return None,
        };
        at += len;
    }
    Some(at)
}

/// The byte offset of the first `needle` in `haystack` (an empty needle is
/// never found). A scan of byte windows rather than `str::find`/`contains`/
/// `replace` with a `&str` pattern: those link core's two-way searcher and,
/// through it, the slicing-panic path with `char`'s `Debug` and the
/// printable-character tables, which the download does without.
pub(crate) fn find(haystack: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|window| window == needle.as_bytes())
}

/// `text` without leading and trailing spaces and tabs: what `fetch` itself
/// strips from a header value (HTTP whitespace; CR and LF are refused
/// earlier), so what is left is what goes on the wire.
fn trim_spaces(text: &str) -> &str {
    text.trim_matches([' ', '\t'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_headers_as_hooks_see_them() {
        let secret =
            "tok+en/with=chars-longer-than-sixty-four-characters-0123456789abcdef".to_string();
        let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
        let headers = [
            pair("X-RateLimit-Remaining", "41"),
            pair("set-cookie", "session=abc; HttpOnly"),
            pair("x-echo", &format!("Bearer {secret}")),
            pair("www-authenticate", "Bearer realm=\"api\""),
        ];
        assert_eq!(
            shown_response(&headers, std::slice::from_ref(&secret)),
            [
                pair("x-ratelimit-remaining", "41"),
                pair("set-cookie", REDACTED),
                pair("x-echo", "Bearer [REDACTED]"),
                pair("www-authenticate", REDACTED),
            ]
        );
    }

    #[test]
    fn credential_headers() {
        for name in [
            "authorization",
            "proxy-authorization",
            "x-api-key",
            "cookie",
            "x-auth-token",
        ] {
            assert!(is_credential_header(name), "{name}");
        }
        for name in ["accept", "x-request-id", "content-type"] {
            assert!(!is_credential_header(name), "{name}");
        }
    }

    #[test]
    fn finds_values_and_bare_tokens() {
        let headers = [
            ("Authorization", "Bearer s3cr3t-token"),
            ("X-Request-Id", "visible-id"),
            ("X-Api-Key", "k"),
        ];
        let found = secrets(headers.into_iter());
        assert_eq!(
            found,
            vec![
                "Bearer s3cr3t-token".to_string(),
                "s3cr3t-token".to_string()
            ]
        );
    }

    #[test]
    fn each_value_and_its_token_once() {
        let headers = [
            ("Authorization", "Bearer abcd1234"),
            ("X-Api-Key", "efghijklmnop"),
            ("X-Api-Key", "efghijklmnop"),
        ];
        let found = secrets(headers.into_iter());
        assert_eq!(found, ["Bearer abcd1234", "abcd1234", "efghijklmnop"]);
    }

    #[test]
    fn a_full_value_is_cut_whole_whatever_the_order() {
        let headers = [("Authorization", "Bearer abcd1234")];
        let mut found = secrets(headers.into_iter());
        found.reverse();
        assert_eq!(redact("got Bearer abcd1234.", &found), "got [REDACTED].");
    }

    #[test]
    fn reach_is_six_characters_per_byte_of_the_longest() {
        let found = secrets([("Authorization", "Bearer abcd1234")].into_iter());
        assert_eq!(reach(&found), 6 * "Bearer abcd1234".len());
        assert_eq!(reach(&[]), 0);
    }

    #[test]
    fn a_percent_encoded_space_may_be_a_plus() {
        // Both words are secret: the value, and the token after its space.
        let found = secrets([("X-Api-Key", "abcd efgh")].into_iter());
        assert_eq!(redact("key=abcd+efgh&x=1", &found), "key=[REDACTED]&x=1");
        assert_eq!(redact("key=abcd%20efgh", &found), "key=[REDACTED]");
        // A plus stands for a plus or a space, nothing else.
        let dashed = secrets([("X-Api-Key", "abcd-efgh")].into_iter());
        assert_eq!(redact("key=abcd+efgh", &dashed), "key=abcd+efgh");
    }

    #[test]
    fn every_short_json_escape_is_read() {
        // A header value may hold any control but CR, LF and NUL.
        let found = secrets([("X-Api-Key", "a\"b\\c/d\u{8}e\u{c}f\tg")].into_iter());
        let echo = r#"{"key":"a\"b\\c\/d\be\ff\tg"}"#;
        assert_eq!(redact(echo, &found), r#"{"key":"[REDACTED]"}"#);
    }

    #[test]
    fn shown_headers_hide_credential_values_only() {
        let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
        let headers = [pair("Cookie", "sid=1"), pair("X-Request-Id", "42")];
        assert_eq!(
            shown(&headers),
            vec![pair("Cookie", REDACTED), pair("X-Request-Id", "42")]
        );
    }

    #[test]
    fn redact_cuts_every_secret() {
        let secrets = secrets([("Authorization", "Bearer abcd1234")].into_iter());
        assert_eq!(
            redact("got Bearer abcd1234 and abcd1234", &secrets),
            "got [REDACTED] and [REDACTED]"
        );
        assert_eq!(redact("nothing", &secrets), "nothing");
    }

    #[test]
    fn values_are_taken_as_sent_without_surrounding_spaces_or_tabs() {
        let headers = [("x-auth-token", " \tBasic  abcd1234 \t"), ("Cookie", "   ")];
        let found = secrets(headers.into_iter());
        assert_eq!(
            found,
            vec!["Basic  abcd1234".to_string(), "abcd1234".to_string()]
        );
        // A name that merely contains a word counts; one that does not, not.
        assert!(is_credential_header("x-my-apikey"));
        assert!(!is_credential_header("x-ke"));
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod echoes;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn redaction_replaces_as_str_replace_does(secret in "[ab\u{e9}]{1,3}", text in "[ab\u{e9} ]{0,40}") {
            let expected = text.replace(secret.as_str(), REDACTED);
            prop_assert_eq!(redact(&text, std::slice::from_ref(&secret)), expected);
        }
    }
}
