//! Keeping credentials out of errors (the contract's "Always").
//!
//! The client never puts a header value into a message. But a hostile or
//! careless server can echo a token back in its body, and a caller's own
//! `fetch` can throw an error quoting it; those bodies and causes end up in
//! `UsersApiError`s, and from there in log aggregators. So the values of
//! credential headers are collected per call and cut out of any error text.

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
            if piece.chars().count() >= MIN_SECRET_CHARS && !found.iter().any(|s| s == piece) {
                // Longest first, so a full value is cut before the token
                // inside it.
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

/// `text` with every secret (longest first, as [`secrets`] orders them)
/// replaced by [`REDACTED`].
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut text = text.to_string();
    for secret in secrets {
        if let Some(cut) = replace_all(&text, secret) {
            text = cut;
        }
    }
    text
}

/// `text` with every occurrence of `secret` (left to right, not
/// overlapping, as `str::replace` does) replaced by [`REDACTED`]; `None`
/// when there is none.
fn replace_all(text: &str, secret: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    let mut cut = false;
    while let Some((before, after)) = find(rest, secret).and_then(|at| rest.split_at_checked(at)) {
        out.push_str(before);
        out.push_str(REDACTED);
        rest = after.get(secret.len()..).unwrap_or_default();
        cut = true;
    }
    out.push_str(rest);
    cut.then_some(out)
}

/// The byte offset of the first `needle` in `haystack` (an empty needle is
/// never found). A scan of byte windows rather than `str::find`/`contains`/
/// `replace` with a `&str` pattern: those link core's two-way searcher and,
/// through it, the slicing-panic path with `char`'s `Debug` and the
/// printable-character tables, which the download does without.
fn find(haystack: &str, needle: &str) -> Option<usize> {
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
