//! The request every attempt of a call sends, built once: the URL, and the
//! `RequestInit` with method, headers and body, encoded by the platform's
//! `JSON`, `URL` and `URLSearchParams`.

use crate::prelude::*;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use crate::config::Config;
use crate::error::Error;
use crate::js::{self, Url};
use crate::options::{merge_headers, ParamsIn};
use crate::params::Operation;

/// What every attempt sends: built once per call.
pub struct Request {
    /// The full URL, with the query string in `query` mode.
    pub url: String,
    /// The `RequestInit`; each attempt sets its own `signal` on it.
    pub init: Object,
}

impl Request {
    /// Encodes the checked params and headers for `operation`.
    pub fn build(
        config: &Config,
        operation: Operation,
        plan: &[(String, JsValue)],
        headers: &[(String, String)],
    ) -> Result<Request, Error> {
        let mut url = config.url(operation).to_string();
        let (content_type, body) = match config.params_in {
            ParamsIn::Body => {
                // A null-prototype object: a `__proto__` key stays a key.
                let object = Object::create(&JsValue::NULL.unchecked_into());
                for (key, value) in plan {
                    set(&object, key, value);
                }
                let body = js::json_stringify(&object).map_err(|cause| {
                    Error::validation("params", "the params could not be encoded as JSON")
                        .with_cause(cause)
                })?;
                (Some("application/json"), Some(body))
            }
            ParamsIn::Query => {
                if !plan.is_empty() {
                    let parsed = Url::new(&url).map_err(|cause| {
                        Error::validation("baseUrl", "the request URL is invalid").with_cause(cause)
                    })?;
                    let search = parsed.search_params();
                    for (key, value) in plan {
                        search.append(key, value);
                    }
                    url = parsed.href();
                }
                (None, None)
            }
            ParamsIn::Form => {
                let form = js::UrlSearchParams::new();
                for (key, value) in plan {
                    form.append(key, value);
                }
                (
                    Some("application/x-www-form-urlencoded;charset=UTF-8"),
                    Some(JsValue::from(form.serialize())),
                )
            }
        };
        let mut headers = headers.to_vec();
        if let Some(content_type) = content_type {
            headers = merge_headers(&headers, &[("Content-Type".into(), content_type.into())]);
        }
        let pairs = Array::new();
        for (name, value) in &headers {
            pairs.push(&Array::of2(
                &JsValue::from_str(name),
                &JsValue::from_str(value),
            ));
        }
        let init = Object::new();
        set(&init, "method", &JsValue::from_str("POST"));
        set(&init, "headers", &pairs);
        if let Some(body) = body {
            set(&init, "body", &body);
        }
        if let Some(credentials) = config.credentials {
            set(&init, "credentials", &JsValue::from_str(credentials));
        }
        Ok(Request { url, init })
    }
}

/// Sets a property on an object this module made.
pub fn set(object: &Object, key: &str, value: &JsValue) {
    // Setting a plain data property on an object this module made cannot
    // throw; the result is ignored for that reason.
    let _ = Reflect::set(object, &JsValue::from_str(key), value);
}
