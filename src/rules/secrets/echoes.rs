//! Property tests of redaction against a server that echoes a token back:
//! generated tokens with the characters encoders change (`+`, `/`, `=`,
//! `"`, `\`, `<`, `%`, non-ASCII), 4 to 300 characters long, echoed in
//! each form a server may use and placed anywhere relative to the body cut
//! and the 64-character quote. No 12-character piece of the token may
//! survive in the text as it is, JSON-unescaped, or percent-decoded.

use proptest::prelude::*;
use serde_json::Value as Json;

use super::*;
use crate::rules::envelope::{error_body, BODY_CUT};
use crate::rules::value::quoted;

/// A token of 4 to 300 characters, with the characters encoders change.
fn token() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::ranges(vec!['a'..='z', 'A'..='Z', '0'..='9'].into()),
            3 => proptest::sample::select(vec!['+', '/', '=', '"', '\\', '<', '%', '_', '-', '.', '~']),
            1 => proptest::sample::select(vec!['é', 'ß', '€', '中', '😀']),
        ],
        4..=300,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// JSON's own escaping (serde_json's: `"`, `\` and controls).
fn json_escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap();
    quoted[1..quoted.len() - 1].to_string()
}

/// JSON-escaped the way PHP and others do it: `/` as `\/`, and non-ASCII
/// and `+` as `\uXXXX`.
fn json_escaped_slashes(text: &str) -> String {
    let mut out = String::new();
    for c in json_escaped(text).chars() {
        match c {
            '/' => out.push_str("\\/"),
            '+' => out.push_str("\\u002B"),
            c if !c.is_ascii() => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Every UTF-16 unit as a `\uXXXX` escape.
fn json_every_char_escaped(text: &str) -> String {
    text.encode_utf16()
        .map(|unit| format!("\\u{unit:04X}"))
        .collect()
}

/// `encodeURIComponent`.
fn percent_encoded(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `application/x-www-form-urlencoded`: a space as `+`.
fn form_encoded(text: &str) -> String {
    percent_encoded(text).replace("%20", "+")
}

/// The bodies a server may send with `echo` in them, each with whether it is JSON.
fn echoes(echo: &str) -> Vec<(String, bool)> {
    let json = |inner: String| {
        (
            format!(r#"{{"status":401,"result":{{"error":"bad token {inner}","code":7}}}}"#),
            true,
        )
    };
    vec![
        (format!("token={echo}; try again"), false),
        json(json_escaped(echo)),
        json(json_escaped_slashes(echo)),
        json(json_every_char_escaped(echo)),
        json(format!(
            "https:\\/\\/id.example\\/?t={}",
            percent_encoded(echo)
        )),
        (
            format!("next=https://id.example/?t={}", percent_encoded(echo)),
            false,
        ),
        (format!("grant=refresh&token={}", form_encoded(echo)), false),
        (
            format!(
                r#"{{"status":401,"result":{{"{}":true}}}}"#,
                json_escaped(echo)
            ),
            true,
        ),
    ]
}

/// `text` with every `%XX` decoded (lossily), and with `+` as a space too.
fn percent_decoded(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let pair = bytes
            .get(at + 1..at + 3)
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (bytes[at], pair) {
            (b'%', Some(byte)) => {
                out.push(byte);
                at += 3;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    let decoded = String::from_utf8_lossy(&out).into_owned();
    vec![decoded.clone(), decoded.replace('+', " ")]
}

/// Every string (keys included) of a JSON text, as JSON.parse reads them.
fn json_strings(text: &str) -> Vec<String> {
    fn walk(value: &Json, out: &mut Vec<String>) {
        match value {
            Json::String(s) => out.push(s.clone()),
            Json::Array(items) => items.iter().for_each(|item| walk(item, out)),
            Json::Object(fields) => {
                for (key, item) in fields {
                    out.push(key.clone());
                    walk(item, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Ok(value) = serde_json::from_str::<Json>(text) {
        walk(&value, &mut out);
    }
    out
}

/// A 12-character piece of `token` (or the whole of a shorter one) found
/// in `text` as it is, in its JSON strings, or percent-decoded.
fn leaked(text: &str, token: &str) -> Option<String> {
    let chars: Vec<char> = token.chars().collect();
    let width = chars.len().min(12);
    let mut views = vec![text.to_string()];
    views.extend(json_strings(text));
    views.extend(percent_decoded(text));
    for view in &views {
        for piece in chars.windows(width) {
            let piece: String = piece.iter().collect();
            if view.contains(&piece) {
                return Some(piece);
            }
        }
    }
    None
}

fn bearer(token: &str) -> Vec<String> {
    let value = format!("Bearer {token}");
    secrets([("Authorization", value.as_str())].into_iter())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_piece_of_an_echoed_token_survives(token in token(), full in any::<bool>()) {
        let secrets = bearer(&token);
        let echo = if full { format!("Bearer {token}") } else { token.clone() };
        for (body, json) in echoes(&echo) {
            let kept = error_body(body.clone(), json, &secrets);
            prop_assert!(leaked(&kept, &token).is_none(), "{:?} leaks {:?} from {}", kept, leaked(&kept, &token), body);
            if json {
                // Still JSON, with what was not secret kept.
                let value: Json = serde_json::from_str(&kept).unwrap();
                prop_assert_eq!(&value["status"], &Json::from(401));
                prop_assert!(kept.contains(REDACTED));
            }
        }
    }

    #[test]
    fn no_prefix_survives_the_body_cut(token in token(), before in 0usize..320, form in 0usize..8) {
        let secrets = bearer(&token);
        let (echoed, _) = echoes(&token).swap_remove(form);
        // The echo starts `before` units ahead of the cut, or right at it.
        let start = (BODY_CUT as usize).saturating_sub(before);
        // A filler that no token has, so that only the echo's end is searched.
        let body = format!("{}{echoed}{}", "#".repeat(start), "#".repeat(100));
        let kept = error_body(body, false, &secrets);
        prop_assert!(kept.encode_utf16().count() <= BODY_CUT as usize);
        let end = kept.trim_start_matches('#');
        prop_assert!(leaked(end, &token).is_none(), "leaks {:?}", leaked(end, &token));
    }

    #[test]
    fn no_prefix_survives_a_quote(token in token(), lead in 0usize..70) {
        let secrets = bearer(&token);
        let value = format!("{}{token}", "v".repeat(lead));
        let shown = quoted(&redact(&value, &secrets));
        prop_assert!(leaked(&shown, &token).is_none(), "{} leaks", shown);
    }

    #[test]
    fn text_without_a_secret_is_borrowed(text in "[a-z %+\\\\/\"]{0,200}", token in token()) {
        // The token has a character the text cannot have.
        let token = format!("{token}7");
        prop_assert!(matches!(redact(&text, &bearer(&token)), Cow::Borrowed(_)));
    }
}

#[test]
fn the_forms_of_the_reviewed_leaks() {
    let token =
        "tk_9Qz+Lm/Wd=R7vKp2Xc8Yb4Nf6Hj1Gs5Dt3Ar0Eq9Wu7Io2Pl4Mk6Nj8Bh0Vg2Cf4Xd6Sz8Aq1Ws3Ed5Rf7";
    let secrets = bearer(token);
    // The whole body kept, the token gone, the rest unchanged.
    let body = format!(
        r#"{{"status":401,"result":{{"echo":"{}","why":"expired"}}}}"#,
        json_every_char_escaped(token)
    );
    assert_eq!(
        error_body(body, true, &secrets),
        r#"{"status":401,"result":{"echo":"[REDACTED]","why":"expired"}}"#
    );
    let body = format!(
        r#"{{"status":401,"result":"Bearer {}"}}"#,
        json_escaped_slashes(token)
    );
    assert_eq!(
        error_body(body, true, &secrets),
        r#"{"status":401,"result":"[REDACTED]"}"#
    );
    // A secret that is itself like an escape is found as sent.
    let odd = super::secrets([("x-api-key", r"a%41\u0042+c")].into_iter());
    assert_eq!(redact(r"key a%41\u0042+c!", &odd), "key [REDACTED]!");
    assert_eq!(redact("key a%2541%5Cu0042%2Bc!", &odd), "key [REDACTED]!");
    // Short or lone escapes are left as they are.
    assert_eq!(redact(r"\u12 %4 \ud800 +", &secrets), r"\u12 %4 \ud800 +");
}
