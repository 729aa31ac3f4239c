//! The contract's "Always": no trap, no leaked credential.

use super::*;
use wasm_bindgen_test::*;

const TOKEN: &str = "tok_8f2a9c71e4";

/// Every way the token could reach an error: echoed in a JSON body, in a
/// text body, in the message of a failing fetch.
fn leaky_steps() -> Vec<String> {
    vec![
        format!(
            r#"{{"status":401,"body":"{{\"status\":401,\"result\":{{\"error\":\"bad token Bearer {TOKEN}\"}}}}"}}"#
        ),
        format!(
            r#"{{"status":500,"body":"token={TOKEN}","headers":{{"content-type":"text/plain"}}}}"#
        ),
        format!(r#"{{"body":"not json {TOKEN}"}}"#),
        format!(r#"{{"body":"{{\"status\":403,\"result\":\"{TOKEN}\"}}"}}"#),
        format!(r#"{{"reject":true,"message":"refused while sending Bearer {TOKEN}"}}"#),
        r#"{"hang":true}"#.to_string(),
    ]
}

#[wasm_bindgen_test]
async fn the_token_appears_in_no_error() {
    let fixed = js(&format!(r#"{{"Authorization":"Bearer {TOKEN}"}}"#));
    let provider = counting_provider(&fixed);
    for headers in [&fixed, &provider] {
        for step in leaky_steps() {
            let fake = scripted(&format!("[{step}]"));
            let (retries, timeout) = (JsValue::from(0), JsValue::from(50));
            let r = rejects(fake_count(
                &fake,
                "{}",
                &[
                    ("headers", headers),
                    ("retries", &retries),
                    ("timeoutMs", &timeout),
                ],
            ))
            .await;
            assert!(
                !r.everything.contains(TOKEN),
                "{} error leaks the token: {}",
                r.kind,
                r.everything
            );
            let sent = get(&get(&call(&fake, 0), "headers"), "authorization");
            assert_eq!(
                sent.as_string(),
                Some(format!("Bearer {TOKEN}")),
                "the token was sent"
            );
        }
    }
    // Validation and aborted errors too.
    let bad = js(&format!(r#"{{"Authorization":"Bearer {TOKEN}\n"}}"#));
    let r = rejects(count_users(
        FAKE.into(),
        JsValue::UNDEFINED,
        obj(&[("headers", &bad)]),
    ))
    .await;
    assert_eq!(r.kind, "validation");
    assert!(!r.everything.contains(TOKEN));
    good_call_still_works().await;
}

#[wasm_bindgen_test]
async fn errors_are_users_api_errors_and_the_module_survives_them() {
    // `rejects` checks instanceof Error, the class and the name each time.
    let fake = scripted(r#"[{"reject":true}]"#);
    for _ in 0..20 {
        rejects(fake_count(&fake, r#"{"active":"nope"}"#, &[])).await;
        rejects(fake_count(&fake, "{}", &[("retries", &JsValue::from(0))])).await;
    }
    good_call_still_works().await;
}
