//! What every attempt of a call sends, built once per call: the URL, the
//! headers and the body, encoded by the platform's `JSON`, `URL` and
//! `URLSearchParams`. The headers of a client without a header function are
//! built once per client ([`Headers`]), since most calls add none.

use crate::prelude::*;
use js_sys::Object;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::Error;
use crate::js::{self, Url};
use crate::options::{merge_headers, ParamsIn};
use crate::secrets;

/// The headers a request sends, as `fetch` takes them, and the credentials
/// among them that errors must not show.
#[derive(Clone)]
pub struct Headers {
    /// `[[name, value], ...]`.
    pub list: JsValue,
    /// What `Error::into_js` has the snippet cut out of errors.
    pub secrets: Vec<String>,
}

impl Headers {
    /// The client's headers, the call's over them, then `Accept` and the
    /// `Content-Type` of `params_in`.
    pub fn new(
        client: &[(String, String)],
        call: &[(String, String)],
        params_in: ParamsIn,
    ) -> Headers {
        let mut fixed: Vec<(String, String)> = Vec::with_capacity(2);
        fixed.push(("Accept".into(), "application/json".into()));
        if let Some(content_type) = params_in.content_type() {
            fixed.push(("Content-Type".into(), content_type.into()));
        }
        let merged = merge_headers(&merge_headers(client, call), &fixed);
        let mut lines = String::new();
        for (name, value) in &merged {
            if !lines.is_empty() {
                lines.push('\n');
            }
            lines.push_str(name);
            lines.push('\n');
            lines.push_str(value);
        }
        Headers {
            list: js::header_list(&lines),
            secrets: secrets::secrets(merged.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
        }
    }
}

/// The URL and body of a call, for the checked params.
pub fn encode(
    url: &JsValue,
    params_in: ParamsIn,
    plan: &[(JsValue, JsValue)],
) -> Result<(JsValue, JsValue), Error> {
    match params_in {
        ParamsIn::Body => {
            // A null-prototype object: a `__proto__` key stays a key.
            let object = Object::create(&JsValue::NULL.unchecked_into());
            for (key, value) in plan {
                js::set(&object, key, value);
            }
            let body = js::json_stringify(&object).map_err(|cause| {
                Error::validation("params", "the params could not be encoded as JSON")
                    .with_cause(cause)
            })?;
            Ok((url.clone(), body))
        }
        ParamsIn::Query if plan.is_empty() => Ok((url.clone(), JsValue::UNDEFINED)),
        ParamsIn::Query => {
            let parsed = Url::new(&url.as_string().unwrap_or_default()).map_err(|cause| {
                Error::validation("baseUrl", "the request URL is invalid").with_cause(cause)
            })?;
            let search = parsed.search_params();
            for (key, value) in plan {
                search.append(key, value);
            }
            Ok((parsed.href().into(), JsValue::UNDEFINED))
        }
        ParamsIn::Form => {
            let form = js::UrlSearchParams::new();
            for (key, value) in plan {
                form.append(key, value);
            }
            Ok((url.clone(), form.serialize().into()))
        }
    }
}
