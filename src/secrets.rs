//! Keeping credentials out of errors (the contract's "Always").
//!
//! The client never puts a header value into a message. But a hostile or
//! careless server can echo a token back in its body, and a caller's own
//! `fetch` can throw an error quoting it; those bodies and causes end up in
//! `UsersApiError`s, and from there in log aggregators. So the values of
//! credential headers are collected per call and cut out of any error text.

use crate::prelude::*;
/// What a redacted secret is replaced with.
pub const REDACTED: &str = "[REDACTED]";

/// Pieces shorter than this are not hunted for: replacing every "a" in a
/// body would destroy it and protect nothing.
const MIN_SECRET_CHARS: usize = 4;

/// Whether a header (lower-case name) carries a credential: the standard
/// ones, and any name that says token, secret, key, auth, session, cookie,
/// password or credential (`X-Api-Key`, `X-Auth-Token`, ...).
pub fn is_credential_header(lower_name: &str) -> bool {
    const WORDS: [&[u8]; 9] = [
        b"auth",
        b"token",
        b"secret",
        b"key",
        b"session",
        b"cookie",
        b"password",
        b"credential",
        b"jwt",
    ];
    // Byte windows rather than `str::contains`: core's substring searcher
    // costs about 2 KB of wasm for nine short words.
    let name = lower_name.as_bytes();
    WORDS
        .iter()
        .any(|word| name.windows(word.len()).any(|w| w == *word))
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
        let token = value
            .bytes()
            .position(|b| b == b' ')
            .and_then(|at| value.get(at + 1..))
            .map(trim_spaces);
        for piece in [Some(value), token].into_iter().flatten() {
            if piece.chars().count() >= MIN_SECRET_CHARS && !found.iter().any(|s| s == piece) {
                // Longest first, so a full value goes before the token
                // inside it (an insertion: a sort would cost ~4 KB of wasm).
                let at = found
                    .iter()
                    .position(|s| s.len() < piece.len())
                    .unwrap_or(found.len());
                found.insert(at, piece.to_string());
            }
        }
    }
    found
}

/// `text` without leading and trailing spaces and tabs: what `fetch` itself
/// strips from a header value (HTTP whitespace; CR and LF are refused
/// earlier), so what is left is what goes on the wire.
fn trim_spaces(text: &str) -> &str {
    let bytes = text.as_bytes();
    let start = bytes.iter().position(|b| !matches!(b, b' ' | b'\t'));
    let end = bytes.iter().rposition(|b| !matches!(b, b' ' | b'\t'));
    match (start, end) {
        (Some(start), Some(end)) => text.get(start..=end).unwrap_or(""),
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
