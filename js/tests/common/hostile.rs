//! Hostile input: the table in `helpers.js` (`hostileCases`) puts
//! every validation rule against wrong types, NaN and the infinities,
//! negative numbers, 1 MB strings, prototype keys, NUL, CR/LF and lone
//! surrogates. Each must be refused as `validation` with the right `param`,
//! before any request, and the module must keep working.

use super::*;
use js_sys::Object;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn every_hostile_case_is_refused_before_any_request() {
    let cases = hostile_cases();
    assert!(
        cases.length() > 150,
        "the table has {} cases",
        cases.length()
    );
    let mut failures = Vec::new();
    for case in cases.iter() {
        let name = get(&case, "name").as_string().unwrap_or_default();
        let expected = get(&case, "param").as_string();
        let fake = scripted(r#"[{"body":"{\"status\":200,\"result\":{\"totalUsers\":1}}"}]"#);
        // The case's own options object (Object.assign would drop an own
        // "__proto__" key), with the fake fetch unless the case sets fetch.
        let options = get(&case, "options");
        let options = if options.is_undefined() {
            Object::new().into()
        } else {
            options
        };
        if !Reflect::has(&options, &"fetch".into()).unwrap() {
            Reflect::set(&options, &"fetch".into(), &get(&fake, "fetch")).unwrap();
        }
        let has_base = Reflect::has(&case, &"baseUrl".into()).unwrap();
        let base = if has_base {
            get(&case, "baseUrl")
        } else {
            JsValue::from("http://fake.invalid")
        };
        let params = get(&case, "params");
        let promise = if get(&case, "list").is_truthy() {
            list_users(base, params, options)
        } else {
            count_users(base, params, options)
        };
        match JsFuture::from(promise).await {
            Ok(_) => failures.push(format!("{name}: resolved")),
            Err(err) => {
                let kind = get(&err, "kind").as_string();
                let param = get(&err, "param").as_string();
                if kind.as_deref() != Some("validation") || param != expected {
                    failures.push(format!(
                        "{name}: got {kind:?} {param:?}, expected {expected:?}"
                    ));
                }
            }
        }
        if call_count(&fake) != 0 {
            failures.push(format!("{name}: a request was sent"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.length(),
        failures.join("\n")
    );
    good_call_still_works().await;
}
