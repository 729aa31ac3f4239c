//! The contract's "Always": no trap, no leaked credential.

use super::*;
use wasm_bindgen_test::*;

/// A token with the characters encoders change (`+`, `/`, `=`), longer
/// than the 64 characters a message quotes.
const TOKEN: &str =
    "tk_9Qz+Lm/Wd=R7vKp2Xc8Yb4Nf6Hj1Gs5Dt3Ar0Eq9Wu7Io2Pl4Mk6Nj8Bh0Vg2Cf4Xd6Sz8Aq1W+s/3";

#[wasm_bindgen(module = "/tests/common/helpers.js")]
extern "C" {
    #[wasm_bindgen(js_name = echoSteps)]
    fn echo_steps(token: &str) -> js_sys::Array;
    #[wasm_bindgen(js_name = leakedPiece)]
    fn leaked_piece(text: &str, token: &str) -> Option<String>;
}

/// `fakeFetch` answering `step`, once.
fn answering(step: &JsValue) -> JsValue {
    fake_fetch(&js_sys::Array::of1(step))
}

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
            assert_eq!(
                leaked_piece(&r.everything, TOKEN),
                None,
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
    assert_eq!(leaked_piece(&r.everything, TOKEN), None);
    good_call_still_works().await;
}

/// Each form a hostile server may echo the token in, through a static
/// `Authorization` header and through a header provider's `X-Api-Key`: no
/// 12-character piece of it in any field of the error, and a JSON body
/// still JSON with what was not secret.
#[wasm_bindgen_test]
async fn a_server_echoing_the_token_in_any_form_gets_no_piece_of_it_back() {
    let fixed = obj(&[("Authorization", &format!("Bearer {TOKEN}").into())]);
    let provided = counting_provider(&obj(&[("X-Api-Key", &TOKEN.into())]));
    for headers in [&fixed, &provided] {
        for step in echo_steps(TOKEN).iter() {
            let name = get(&step, "name").as_string().unwrap_or_default();
            let fake = answering(&step);
            let retries = JsValue::from(0);
            let r = rejects(fake_count(
                &fake,
                "{}",
                &[("headers", headers), ("retries", &retries)],
            ))
            .await;
            assert_eq!(
                Some(r.kind.clone()),
                get(&step, "kind").as_string(),
                "{name}"
            );
            assert_eq!(
                leaked_piece(&r.everything, TOKEN),
                None,
                "{name}: {}",
                r.everything
            );
            if get(&step, "status").as_f64() == Some(401.0) {
                assert_eq!(get(&r.body, "status"), JsValue::from(401), "{name}");
                let why = get(&get(&r.body, "result"), "why");
                assert_eq!(why.as_string().as_deref(), Some("expired"), "{name}");
            }
        }
    }
    good_call_still_works().await;
}

/// The same forms through the Rust API: its `Display`, `Debug`, body and
/// source.
#[wasm_bindgen_test]
async fn the_rust_api_shows_no_piece_of_an_echoed_token() {
    for step in echo_steps(TOKEN).iter() {
        let name = get(&step, "name").as_string().unwrap_or_default();
        let fake = answering(&step);
        let client = super::rust_api::faked(&fake, |options| {
            options
                .header("Authorization", format!("Bearer {TOKEN}"))
                .retries(0)
        });
        let error = match client
            .count_users()
            .params(Default::default())
            .options(Default::default())
            .send()
            .await
        {
            Ok(_) => panic!("{name}: resolved"),
            Err(error) => error,
        };
        assert_eq!(
            Some(error.kind().to_string()),
            get(&step, "kind").as_string(),
            "{name}"
        );
        let source = std::error::Error::source(&error).map(ToString::to_string);
        let everything = format!("{error}\n{error:?}\n{:?}\n{source:?}", error.body());
        assert_eq!(
            leaked_piece(&everything, TOKEN),
            None,
            "{name}: {everything}"
        );
    }
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
