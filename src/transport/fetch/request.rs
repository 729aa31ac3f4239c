//! What the attempts of a call send: the URL and the body, built once per
//! call and encoded by the platform's `JSON`, `URL` and `URLSearchParams`
//! (never by hand), and the headers each attempt gives, which each
//! attempt puts together in JS as a `RequestInit` with its own
//! `AbortSignal`.

use js_sys::{Array, JsString, Object, JSON};
use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Url, UrlSearchParams};

use crate::error::{Cause, Error};
use crate::host::{failure_detail, Rejection};
use crate::model::{Credentials, ParamsIn};
use crate::platform::number;
use crate::rules::headers::{lines, Resolved};
use crate::wire::Wire;

/// A call's resolved headers, and the same as an attempt sends them.
#[derive(Clone)]
pub struct Headers {
    /// `name\nvalue\nname\nvalue...`: one string crosses into JS. The
    /// rules refuse a line feed in a name or a value.
    pub lines: String,
    /// What the rules resolved.
    pub resolved: Resolved,
}

impl Headers {
    /// The resolved headers as an attempt sends them.
    pub fn new(resolved: Resolved) -> Headers {
        Headers {
            lines: lines(&resolved.list),
            resolved,
        }
    }
}

/// A base URL (checked by the rules) as the platform's `URL` normalises it;
/// a URL it cannot parse is a `validation` error. Outside a JS host, the
/// URL as given.
pub fn base_href(url: &str, param: &str) -> Result<String, Error> {
    if cfg!(not(target_arch = "wasm32")) {
        return Ok(url.to_string());
    }
    Url::new(url).map(|parsed| parsed.href()).map_err(|cause| {
        let shown = crate::rules::value::quoted(url);
        Error::invalid(param, "a valid absolute URL", &shown)
            .with_cause(Cause::new(failure_detail(&cause)))
    })
}

/// A call's request, ready for its attempts.
pub struct Request {
    /// The full URL (with the query string in `query` mode).
    pub url: String,
    /// The same, as the JS string each attempt sends.
    pub href: JsString,
    /// The body (`undefined` in `query` mode).
    pub body: JsValue,
    /// `fetch`'s credentials mode, where given.
    pub credentials: Option<&'static str>,
}

/// Model params (`CountParams`, `ListParams`) as the object of values to
/// send, through serde-wasm-bindgen (`json_compatible`: plain objects, not
/// `Map`s). Both APIs make their params object here.
pub fn params_object<T: Serialize>(params: &T) -> Result<Object, Error> {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    params
        .serialize(&serializer)
        .map(JsCast::unchecked_into)
        .map_err(|error| Error::validation("params", error.to_string()))
}

/// Builds the request for `params` (an object of checked params, each
/// value as it is to be sent).
pub fn build(
    url: &str,
    params_in: ParamsIn,
    params: &Object,
    credentials: Option<Credentials>,
) -> Result<Request, Rejection> {
    let (url, body) = match params_in {
        ParamsIn::Body => {
            let body = JSON::stringify(params).map_err(|cause| {
                let error = Error::validation("params", "the params could not be encoded as JSON");
                Rejection::caused(error, cause)
            })?;
            (url.to_string(), body.into())
        }
        ParamsIn::Query => {
            let entries = Object::entries(params);
            let url = if entries.length() == 0 {
                url.to_string()
            } else {
                let parsed = Url::new(url).map_err(|cause| {
                    let error = Error::validation("baseUrl", "the request URL is invalid");
                    Rejection::caused(error, cause)
                })?;
                append_all(&parsed.search_params(), &entries);
                parsed.href()
            };
            (url, JsValue::UNDEFINED)
        }
        ParamsIn::Form => {
            let form = UrlSearchParams::new().map_err(|cause| {
                Rejection::caused(Error::validation("params", "URLSearchParams failed"), cause)
            })?;
            append_all(&form, &Object::entries(params));
            (url.to_string(), JsValue::from(form.to_string()))
        }
    };
    Ok(Request {
        href: JsString::from(url.as_str()),
        url,
        body,
        credentials: credentials.map(Wire::name),
    })
}

/// Appends `[key, value]` pairs whose values are strings, numbers or
/// booleans (the rules allow no other in `query` and `form` mode), each
/// written as `String(value)` would.
fn append_all(search: &UrlSearchParams, entries: &Array) {
    for entry in entries.iter() {
        let pair: Array = entry.unchecked_into();
        let value = pair.get(1);
        let text = match value.as_string() {
            Some(text) => text,
            None => match value.as_bool() {
                Some(b) => b.to_string(),
                None => number(value.as_f64().unwrap_or(f64::NAN)),
            },
        };
        search.append(&pair.get(0).as_string().unwrap_or_default(), &text);
    }
}
