//! Reading what JavaScript passes in: option objects into the library's
//! [`ClientOptions`] and [`CallOptions`], params into its model. Every JS
//! value is looked at once, through catching bindings (a getter may throw,
//! a proxy may trap), and described as a [`Value`] for the library's rules,
//! which decide; this module only reads. Option objects hold functions and
//! signals, which serde cannot carry; the params cross into the model
//! through serde-wasm-bindgen.

use std::time::Duration;

use js_sys::{Array, Function, JsString, Object, Reflect};
use serde::Serialize;
use user_management_client::__private::headers::lines;
use user_management_client::__private::options::{self, CALL_KEYS, CLIENT_KEYS};
use user_management_client::__private::params::{check_param, check_params_value, Param};
use user_management_client::__private::value::{quoted, Value};
use user_management_client::__private::{
    duration_ms, header_provider, invalid, operation_name, params_object, retry_cause, settled,
    validation, Rejection,
};
use user_management_client::{
    AttemptHeaders, AttemptInfo, CallOptions, ClientOptions, CountParams, Error, HeaderList,
    HeaderProvider, HookReturn, Hooks, Operation, ParamsIn, ResponseAction, ResponseInfo,
    RetryInfo,
};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/snippet.js")]
extern "C" {
    /// An iterable of headers as a flat array (name, value, ...), `null`
    /// for an entry that is not a pair, `undefined` for a value that is not
    /// iterable; an error where iterating threw.
    #[wasm_bindgen(js_name = headerPairs, catch)]
    fn header_pairs(value: &JsValue) -> Result<JsValue, JsValue>;

    /// A hook's info: `{ operation, url, attempt, headers }`, and with
    /// `http_status` given `{ httpStatus, durationMs, responseHeaders }`
    /// after those; each set of headers given as `name\nvalue\n...` and
    /// made a record.
    #[wasm_bindgen(js_name = hookInfo)]
    fn hook_info(
        operation: &str,
        url: &str,
        attempt: u32,
        headers: &str,
        http_status: Option<u16>,
        duration_ms: Option<f64>,
        response_headers: Option<&str>,
    ) -> JsValue;
}

#[wasm_bindgen]
extern "C" {
    // `Object.keys`, catching: a proxy's `ownKeys` trap may throw (js-sys
    // declares it without `catch`).
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
}

/// The own enumerable keys of an object and their values, in order; each
/// getter runs once.
fn entries(object: &JsValue) -> Result<Vec<(String, JsValue)>, JsValue> {
    let keys = object_keys(object)?;
    let mut entries = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let value = Reflect::get(object, &key)?;
        entries.push((key.as_string().unwrap_or_default(), value));
    }
    Ok(entries)
}

/// The entries of an options object; `undefined` and `null` have none.
fn option_entries(options: &JsValue) -> Result<Vec<(String, JsValue)>, Rejection> {
    match Value::of(options) {
        Value::Undefined | Value::Null => Ok(Vec::new()),
        Value::Object => entries(options).map_err(|cause| {
            let error = validation("options", "the options object could not be read");
            Rejection::caused(error, cause)
        }),
        other => Err(invalid("options", "an object", &other.shown()).into()),
    }
}

/// `new UsersClient(options)`: an options object, or the base URL alone.
pub fn client_options(options: &JsValue) -> Result<ClientOptions, Rejection> {
    if options.is_string() {
        return base_options(options);
    }
    let entries = option_entries(options)?;
    let base_url = entries
        .iter()
        .find(|(key, _)| key == "baseUrl")
        .map_or(JsValue::UNDEFINED, |(_, value)| value.clone());
    let mut client = base_options(&base_url)?;
    for (key, value) in &entries {
        options::check_option_key(key, &CLIENT_KEYS)?;
        set_client_option(&mut client, key, value)?;
    }
    Ok(client)
}

/// The one-shot functions: a base URL, and one object holding both client
/// options (less `baseUrl`) and call options.
pub fn one_shot_options(
    base_url: &JsValue,
    options: &JsValue,
) -> Result<(ClientOptions, CallOptions), Rejection> {
    let mut client = base_options(base_url)?;
    let mut call = CallOptions::default();
    for (key, value) in option_entries(options)? {
        if key == "baseUrl" || !CLIENT_KEYS.contains(&key.as_str()) {
            options::check_option_key(&key, &options::one_shot_keys())?;
        }
        if key == "signal" {
            call.signal = signal(&value)?;
        } else {
            set_client_option(&mut client, &key, &value)?;
        }
    }
    Ok((client, call))
}

/// A call's options object (`undefined` or `null` for none).
pub fn call_options(options: &JsValue) -> Result<CallOptions, Rejection> {
    let mut call = CallOptions::default();
    for (key, value) in option_entries(options)? {
        options::check_option_key(&key, &CALL_KEYS)?;
        match key.as_str() {
            "signal" => call.signal = signal(&value)?,
            "timeoutMs" => call.timeout = timeout(&value)?,
            "retries" => call.retries = options::retries(&Value::of(&value))?,
            _ => match Value::of(&value) {
                Value::Function => call.header_provider = Some(provider(value.into())),
                _ => call.headers = headers(&value)?,
            },
        }
    }
    Ok(call)
}

/// Options with defaults for everything but the base URL, which must be a
/// string here (`UsersClient::new` checks the rest of it).
fn base_options(base_url: &JsValue) -> Result<ClientOptions, Rejection> {
    let base_url = Value::of(base_url);
    let options = ClientOptions::new(options::base_url_text(&base_url)?);
    Ok(user_management_client::__private::named(
        options,
        options::Naming::Js,
    ))
}

/// `timeoutMs` as a `Duration` (`None` when not given).
fn timeout(value: &JsValue) -> Result<Option<Duration>, Error> {
    options::timeout(&Value::of(value))
}

fn set_client_option(
    client: &mut ClientOptions,
    key: &str,
    value: &JsValue,
) -> Result<(), Rejection> {
    let read = Value::of(value);
    match key {
        "headers" => match read {
            Value::Function => client.header_provider = Some(provider(value.clone().into())),
            _ => client.headers = headers(value)?,
        },
        // Options not given (`undefined`) keep `ClientOptions::new`'s defaults.
        "paramsIn" => {
            if let Some(params_in) = options::params_in(&read)? {
                client.params_in = params_in;
            }
        }
        "timeoutMs" => {
            if let Some(timeout) = timeout(value)? {
                client.timeout = timeout;
            }
        }
        "retries" => {
            if let Some(retries) = options::retries(&read)? {
                client.retries = retries;
            }
        }
        "maxBodyBytes" => {
            if let Some(max_body_bytes) = options::max_body_bytes(&read)? {
                client.max_body_bytes = max_body_bytes;
            }
        }
        "credentials" => client.credentials = options::credentials(&read)?,
        "hooks" => client.hooks = hooks(value)?,
        "fetch" => {
            client.fetch = match read {
                Value::Undefined => None,
                Value::Function => Some(value.clone().into()),
                other => return Err(invalid("fetch", "a function", &other.shown()).into()),
            }
        }
        _ => {}
    }
    Ok(())
}

/// An `AbortSignal`, duck-typed so that signals from other realms and
/// polyfills pass.
fn signal(value: &JsValue) -> Result<Option<AbortSignal>, Error> {
    if value.is_undefined() {
        return Ok(None);
    }
    let member = |key: &str| Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let looks_right = value.is_object()
        && member("aborted").as_bool().is_some()
        && member("addEventListener").is_function()
        && member("removeEventListener").is_function();
    if looks_right {
        Ok(Some(value.clone().unchecked_into()))
    } else {
        Err(invalid(
            "signal",
            "an AbortSignal",
            &Value::of(value).shown(),
        ))
    }
}

/// Headers as `fetch` takes them: an iterable of `[name, value]` pairs
/// (an array of pairs, a `Headers` object, a `Map`), read through its
/// `Symbol.iterator` wherever it has one (`headerPairs` in `snippet.js`),
/// else a record (an object's own enumerable keys). Each name and value is
/// a string, the value without lone surrogates (the library checks names
/// and values, `options::check_headers`, when the client is made and at
/// each call).
pub fn headers(value: &JsValue) -> Result<HeaderList, Rejection> {
    let unreadable = |cause| {
        let error = validation("headers", "the headers could not be read");
        Rejection::caused(error, cause)
    };
    let pairs = header_pairs(value).map_err(unreadable)?;
    let given = match (Value::of(value), pairs.dyn_into::<Array>()) {
        (Value::Undefined, _) => return Ok(Vec::new()),
        (_, Ok(flat)) => {
            let mut given = Vec::with_capacity(flat.length() as usize / 2);
            for at in (0..flat.length()).step_by(2) {
                given.push((flat.get(at).as_string().unwrap_or_default(), flat.get(at + 1)));
            }
            given
        }
        (_, Err(pairs)) if pairs.is_null() => {
            let message = "each entry of the headers must be a [name, value] pair of strings";
            return Err(validation("headers", message).into());
        }
        (Value::Object, _) => entries(value).map_err(unreadable)?,
        (other, _) => {
            return Err(invalid(
                "headers",
                "a record of strings, a Headers object or [name, value] pairs (or a function returning one)",
                &other.shown(),
            )
            .into())
        }
    };
    let mut list = Vec::with_capacity(given.len());
    for (name, value) in given {
        let Value::Str(text) = Value::of(&value) else {
            let message = format!("the value of header {} must be a string", quoted(&name));
            return Err(validation("headers", message).into());
        };
        if !is_well_formed(&value, &text) {
            let message = format!("the value of header {} is not valid Unicode", quoted(&name));
            return Err(validation("headers", message).into());
        }
        list.push((name, text));
    }
    Ok(list)
}

/// A header function (the client's or a call's) as a [`HeaderProvider`]:
/// called before every attempt; what it returns (or its promise resolves with) is read
/// like the `headers` option, in any of its forms.
fn provider(function: Function) -> HeaderProvider {
    header_provider(move || {
        let function = function.clone();
        async move {
            let returned = function.call0(&JsValue::UNDEFINED).map_err(|cause| {
                Rejection::caused(validation("headers", "the headers function threw"), cause)
            })?;
            let given = settled(&returned).await.map_err(|cause| {
                let message = "the headers function's promise rejected";
                Rejection::caused(validation("headers", message), cause)
            })?;
            headers(&given)
        }
    })
}

/// Whether a JS string (read as `text`) has no lone surrogate. Reading
/// replaces a lone surrogate with U+FFFD, so only a text holding U+FFFD
/// needs the exact look.
fn is_well_formed(value: &JsValue, text: &str) -> bool {
    // `chars().any` rather than `contains`: the latter's searcher brings
    // core's string-slicing panic messages into the `.wasm`.
    !text.chars().any(|c| c == '\u{FFFD}') || value.unchecked_ref::<JsString>().is_valid_utf16()
}

/// The params of a call, checked, as the object to send: `query` and
/// `active` through the model (serde-wasm-bindgen both ways), and for a
/// list every other key with the caller's own value, unchanged.
pub fn params(
    operation: Operation,
    params_in: ParamsIn,
    params: &JsValue,
) -> Result<Object, Rejection> {
    let mut typed = CountParams::default();
    let mut others = Vec::new();
    if check_params_value(&Value::of_params(params))? {
        let entries = entries(params).map_err(|cause| {
            let error = validation("params", "the params object could not be read");
            Rejection::caused(error, cause)
        })?;
        for (key, value) in entries {
            let read = Value::of(&value);
            let Some(param) = check_param(operation, params_in, &key, &read)? else {
                continue;
            };
            if let Value::Str(text) = &read {
                if !is_well_formed(&value, text) {
                    let message = format!(
                        "{} has a lone surrogate: it is not valid Unicode and cannot be sent",
                        quoted(&key)
                    );
                    return Err(validation(&key, message).into());
                }
            }
            match param {
                Param::Active(active) => typed.active = Some(active),
                Param::Query(text) => typed.query = Some(text),
                Param::AsGiven => others.push((key, value)),
            }
        }
    }
    let object = params_object(&typed)?;
    if others.is_empty() {
        return Ok(object);
    }
    // A null-prototype object: a `__proto__` key stays a key.
    let all = Object::assign(&Object::create(&JsValue::NULL.unchecked_into()), &object);
    for (key, value) in others {
        // Cannot fail: a plain object this module made.
        let _ = Reflect::set(&all, &key.into(), &value);
    }
    Ok(all)
}

/// The `hooks` option: an object whose keys are among `beforeRequest`,
/// `afterResponse` and `beforeRetry`, each a function (or `undefined`).
fn hooks(value: &JsValue) -> Result<Hooks, Rejection> {
    let entries = match Value::of(value) {
        Value::Undefined => return Ok(Hooks::default()),
        Value::Object => entries(value).map_err(|cause| {
            let error = validation("hooks", "the hooks object could not be read");
            Rejection::caused(error, cause)
        })?,
        other => return Err(invalid("hooks", "an object of functions", &other.shown()).into()),
    };
    let mut hooks = Hooks::default();
    for (key, value) in entries {
        options::check_hook_key(&key)?;
        let function: Function = match Value::of(&value) {
            Value::Undefined => continue,
            Value::Function => value.unchecked_into(),
            other => {
                let message = format!(
                    "hook {} must be a function; got {}",
                    quoted(&key),
                    other.shown()
                );
                return Err(validation("hooks", message).into());
            }
        };
        hooks = match key.as_str() {
            "beforeRequest" => hooks.before_request(move |info| {
                let js = hook_info_js(info, None);
                call_hook(&function, &js, attempt_headers, Ok(HeaderList::new()))
            }),
            "afterResponse" => hooks.after_response(move |info| {
                let js = hook_info_js(&info.request, Some(info));
                call_hook(&function, &js, response_action, ResponseAction::Keep)
            }),
            _ => hooks
                .before_retry(move |info| call_hook(&function, &retry_info(info), |_| Ok(()), ())),
        };
    }
    Ok(hooks)
}

/// An attempt's info as a hook sees it, and where `response` is given the
/// response's (`ResponseInfo extends AttemptInfo`), made in one call.
fn hook_info_js(attempt: &AttemptInfo, response: Option<&ResponseInfo>) -> JsValue {
    let response_lines = response.map(|info| lines(&info.response_headers));
    hook_info(
        operation_name(attempt.operation),
        &attempt.url,
        attempt.attempt,
        &lines(&attempt.headers),
        response.map(|info| info.http_status),
        response.map(duration_ms),
        response_lines.as_deref(),
    )
}

/// A retry's info as JS sees it, through serde-wasm-bindgen: a plain
/// object.
fn to_js(info: &impl Serialize) -> JsValue {
    info.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
}

/// A retry's info as JS sees it: `{ operation, attempt, delayMs, error }`,
/// `error` the `UsersApiError` the attempt failed with.
fn retry_info(info: &RetryInfo) -> JsValue {
    let js = to_js(info);
    let error = Rejection {
        error: info.error.clone(),
        cause: retry_cause(info).cloned(),
    };
    // Cannot fail: a plain object serde-wasm-bindgen made.
    let _ = Reflect::set(&js, &"error".into(), &crate::error::to_js(error));
    js
}

/// What `beforeRequest` returned: `{ headers }` (read as the `headers`
/// option is) gives the attempt headers; anything else gives none.
fn attempt_headers(returned: &JsValue) -> Result<AttemptHeaders, JsValue> {
    if !returned.is_object() {
        return Ok(Ok(HeaderList::new()));
    }
    let given = Reflect::get(returned, &"headers".into())?;
    Ok(headers(&given).map_err(|rejection| rejection.error))
}

/// What `afterResponse` returned: `{ retry: true }` asks for the attempt
/// again; anything else keeps the answer.
fn response_action(returned: &JsValue) -> Result<ResponseAction, JsValue> {
    if !returned.is_object() {
        return Ok(ResponseAction::Keep);
    }
    let retry = Reflect::get(returned, &"retry".into())?;
    Ok(if retry == JsValue::TRUE {
        ResponseAction::Retry
    } else {
        ResponseAction::Keep
    })
}

/// Calls a JS hook and reads what it returned (or what its promise
/// resolved with) with `read`; the attempt waits for a promise. What it
/// throws, the rejection of its promise, or what reading its answer
/// throws is reported (`reportError`, where the platform has it, else
/// `console.error`) and changes nothing: `unchanged` is the decision.
fn call_hook<T: 'static>(
    hook: &Function,
    info: &JsValue,
    read: fn(&JsValue) -> Result<T, JsValue>,
    unchanged: T,
) -> HookReturn<T> {
    let returned = match hook.call1(&JsValue::UNDEFINED, info) {
        Ok(returned) => returned,
        Err(thrown) => {
            reported(&thrown);
            return HookReturn::Now(unchanged);
        }
    };
    let then = (returned.is_object() || returned.is_function())
        .then(|| Reflect::get(&returned, &"then".into()).ok())
        .flatten();
    if !then.is_some_and(|then| then.is_function()) {
        return HookReturn::Now(read(&returned).unwrap_or_else(|thrown| {
            reported(&thrown);
            unchanged
        }));
    }
    HookReturn::Later(Box::pin(async move {
        match settled(&returned).await.and_then(|value| read(&value)) {
            Ok(decided) => decided,
            Err(thrown) => {
                reported(&thrown);
                unchanged
            }
        }
    }))
}

/// Reports what a hook threw or rejected with.
fn reported(thrown: &JsValue) {
    if let Some(report) = report() {
        let _ = report.call1(&JsValue::UNDEFINED, thrown);
    }
}

/// `globalThis.reportError`, else `console.error` (bound to `console`).
fn report() -> Option<Function> {
    let global = js_sys::global();
    let get = |object: &JsValue, key: &str| Reflect::get(object, &key.into()).ok();
    if let Some(report) = get(&global, "reportError").filter(|f| f.is_function()) {
        return Some(report.unchecked_into());
    }
    let console = get(&global, "console")?;
    let error = get(&console, "error")?.dyn_into::<Function>().ok()?;
    Some(error.bind0(&console))
}
