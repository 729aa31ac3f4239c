//! The floor of the download: a client on the package's stack (wasm-bindgen,
//! js-sys and web-sys, wasm-bindgen-futures, serde and serde-wasm-bindgen,
//! talc) with the same exports and one request path, and none of the
//! client's rules: no validation beyond `active`, no retries, hooks, header
//! functions, redaction, timeouts of the caller's or checks of the answer
//! beyond its `status`. `bench/floor/measure.sh` builds it the way the
//! package is built and prints what a page would download; the difference
//! to the package is what the client's rules and features cost.

use js_sys::{Function, Promise, Reflect, JSON};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{AbortController, Headers, Request, RequestCredentials, RequestInit, Response};

#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

// The package's own UsersApiError lives in its snippet, which the
// measurement counts from pkg/web; here a stand-in of the same shape.
#[wasm_bindgen(
    inline_js = "export class UsersApiError extends Error { constructor(kind, message, fields) { super(message); Object.assign(this, fields, { kind }); } }"
)]
extern "C" {
    type UsersApiError;
    #[wasm_bindgen(constructor)]
    fn new(kind: &str, message: &str, fields: &JsValue) -> UsersApiError;
}

// The global timers, declared as src/transport/fetch/wait.rs declares them:
// the floor depends on none of the client's crates, so it repeats them.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &Function, ms: u32) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
}

#[derive(Serialize)]
struct Params {
    active: Option<bool>,
}

fn fail(url: &str, reason: &str) -> JsValue {
    let fields = js_sys::Object::new();
    UsersApiError::new(
        "network",
        &format!("the call to {} failed: {}", url, reason),
        &fields,
    )
    .into()
}

fn reason(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "unknown".into())
}

async fn run(
    base: String,
    path: &'static str,
    params: JsValue,
    _options: JsValue,
) -> Result<JsValue, JsValue> {
    let url = format!("{}{}", base, path);
    let active = if params.is_object() {
        let v = Reflect::get(&params, &"active".into()).map_err(|e| fail(&url, &reason(&e)))?;
        if v.is_undefined() {
            None
        } else {
            Some(
                v.as_bool()
                    .ok_or_else(|| fail(&url, "active is not a boolean"))?,
            )
        }
    } else {
        None
    };
    let p = Params { active };
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    let value = p.serialize(&ser).map_err(|e| fail(&url, &e.to_string()))?;
    let body = JSON::stringify(&value).map_err(|e| fail(&url, &reason(&e)))?;

    let controller = AbortController::new().map_err(|e| fail(&url, &reason(&e)))?;
    let headers = Headers::new().map_err(|e| fail(&url, &reason(&e)))?;
    headers
        .set("content-type", "application/json")
        .map_err(|e| fail(&url, &reason(&e)))?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&body);
    init.set_signal(Some(&controller.signal()));
    init.set_credentials(RequestCredentials::SameOrigin);
    let request =
        Request::new_with_str_and_init(&url, &init).map_err(|e| fail(&url, &reason(&e)))?;

    let fetch: Function = Reflect::get(&js_sys::global(), &"fetch".into())
        .map_err(|e| fail(&url, &reason(&e)))?
        .dyn_into()
        .map_err(|_| fail(&url, "no fetch"))?;
    let c2 = controller.clone();
    let closure = Closure::once(move || c2.abort());
    let timer = set_timeout(closure.as_ref().unchecked_ref(), 10_000);
    let promise: Promise = fetch
        .call1(&JsValue::UNDEFINED, &request)
        .map_err(|e| fail(&url, &reason(&e)))?
        .unchecked_into();
    let result = JsFuture::from(promise).await;
    clear_timeout(&timer);
    drop(closure);
    let response: Response = result
        .map_err(|e| fail(&url, &reason(&e)))?
        .unchecked_into();
    let text = JsFuture::from(response.text().map_err(|e| fail(&url, &reason(&e)))?)
        .await
        .map_err(|e| fail(&url, &reason(&e)))?;
    let text = text
        .as_string()
        .ok_or_else(|| fail(&url, "body is not text"))?;
    let parsed = JSON::parse(&text).map_err(|e| fail(&url, &reason(&e)))?;
    let status = Reflect::get(&parsed, &"status".into()).map_err(|e| fail(&url, &reason(&e)))?;
    if status.as_f64().is_none() {
        return Err(fail(&url, "status is not a number"));
    }
    Ok(parsed)
}

fn go(base: String, path: &'static str, params: JsValue, options: JsValue) -> Promise {
    future_to_promise(run(base, path, params, options))
}

#[wasm_bindgen]
pub struct UsersClient {
    base: String,
}

#[wasm_bindgen]
impl UsersClient {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<UsersClient, JsValue> {
        let base = Reflect::get(&options, &"baseUrl".into())?
            .as_string()
            .ok_or_else(|| {
                JsValue::from(UsersApiError::new(
                    "validation",
                    "baseUrl must be a string",
                    &js_sys::Object::new(),
                ))
            })?;
        Ok(UsersClient { base })
    }

    #[wasm_bindgen(js_name = countUsers)]
    pub fn count_users(&self, params: JsValue, options: JsValue) -> Promise {
        go(self.base.clone(), "/api/users/count", params, options)
    }

    #[wasm_bindgen(js_name = listUsers)]
    pub fn list_users(&self, params: JsValue, options: JsValue) -> Promise {
        go(self.base.clone(), "/api/users", params, options)
    }
}

#[wasm_bindgen(js_name = countUsers)]
pub fn count_users(base_url: String, params: JsValue, options: JsValue) -> Promise {
    go(base_url, "/api/users/count", params, options)
}

#[wasm_bindgen(js_name = listUsers)]
pub fn list_users(base_url: String, params: JsValue, options: JsValue) -> Promise {
    go(base_url, "/api/users", params, options)
}
