//! Reading what JavaScript passes in: option objects into the library's
//! [`ClientOptions`] and [`CallOptions`], params into its model. Every JS
//! value is looked at once, through catching bindings (a getter may throw,
//! a proxy may trap), and described as a [`Value`] for the library's rules,
//! which decide; this module only reads. Option objects hold functions and
//! signals, which serde cannot carry; the params cross into the model
//! through serde-wasm-bindgen.

use js_sys::{Array, Function, JsString, Object, Reflect};
use serde::Serialize;
use user_management_client::__private::headers::lines;
use user_management_client::__private::options::{self, CALL_KEYS, CLIENT_KEYS};
use user_management_client::__private::params::{check_param, check_params_value, Param};
use user_management_client::__private::retry::{self, POLICY_KEYS};
use user_management_client::__private::value::{quoted, Value};
use user_management_client::__private::{
    duration_ms, invalid, operation_name, params_object, retry_cause, validation, Rejection, ARRAY,
    INSTANCE, OBJECT,
};
use user_management_client::{
    AttemptHeaders, AttemptInfo, CallOptions, ClientOptions, CountParams, Error, HeaderList,
    Operation, ParamsIn, ResponseAction, ResponseInfo, RetryInfo, RetryPolicy,
};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

use crate::entries::{self, Item};

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

/// The entries of an options object, keys among `known` read without
/// crossing; `undefined` and `null` have none.
fn option_entries(options: &JsValue, known: &[&str]) -> Result<Vec<(String, Item)>, Rejection> {
    match entries_of(options, known, INSTANCE, "options", "options object")? {
        (Value::Undefined | Value::Null, _) => Ok(Vec::new()),
        (Value::Object, entries) => Ok(entries),
        (other, _) => Err(invalid("options", "an object", &other.shown()).into()),
    }
}

/// `value`'s picture and entries, as [`entries::read`] reads them; what
/// reading threw is a `validation` error (`param`) saying that the `what`
/// could not be read, with what was thrown as its cause.
fn entries_of(
    value: &JsValue,
    known: &[&str],
    also: u8,
    param: &str,
    what: &str,
) -> Result<(Value, Vec<(String, Item)>), Rejection> {
    entries::read(value, known, also).map_err(|cause| unreadable(param, what, cause))
}

/// The error for a `what` that could not be read (a getter or a proxy
/// threw `cause`).
fn unreadable(param: &str, what: &str, cause: JsValue) -> Rejection {
    let error = validation(param, format!("the {what} could not be read"));
    Rejection::caused(error, cause)
}

/// What a client keeps of its JS functions, which its calls' driver
/// calls: the header function and the hooks.
#[derive(Default)]
pub struct Functions {
    /// The `headers` option, where it is a function.
    pub headers: Option<Function>,
    /// `hooks.beforeRequest`.
    pub before_request: Option<Function>,
    /// `hooks.afterResponse`.
    pub after_response: Option<Function>,
    /// `hooks.beforeRetry`.
    pub before_retry: Option<Function>,
}

/// A client's options: the library's, and its JS functions.
pub type Client = (ClientOptions, Functions);

/// `new UsersClient(options)`: an options object, or the base URL alone.
pub fn client_options(options: &JsValue) -> Result<Client, Rejection> {
    let mut functions = Functions::default();
    if options.is_string() {
        return Ok((base_options(options)?, functions));
    }
    let entries = option_entries(options, &CLIENT_KEYS)?;
    let base_url = entries.iter().find(|(key, _)| key == "baseUrl");
    let mut client = match base_url {
        Some((_, item)) => base_options_of(&item.read)?,
        None => base_options_of(&Value::Undefined)?,
    };
    for (key, item) in &entries {
        options::check_option_key(key, &CLIENT_KEYS)?;
        set_client_option(&mut client, &mut functions, key, item)?;
    }
    Ok((client, functions))
}

/// The one-shot functions: a base URL, and one object holding both client
/// options (less `baseUrl`) and call options.
pub fn one_shot_options(
    base_url: &JsValue,
    options: &JsValue,
) -> Result<(Client, CallOptions), Rejection> {
    let mut client = base_options(base_url)?;
    let mut functions = Functions::default();
    let mut call = CallOptions::default();
    let keys = options::one_shot_keys();
    for (key, item) in option_entries(options, &keys)? {
        options::check_option_key(&key, &keys)?;
        if key == "signal" {
            call.signal = signal(&item)?;
        } else {
            set_client_option(&mut client, &mut functions, &key, &item)?;
        }
    }
    Ok(((client, functions), call))
}

/// A call's options object (`undefined` or `null` for none): the
/// library's, and the call's header function.
pub fn call_options(options: &JsValue) -> Result<(CallOptions, Option<Function>), Rejection> {
    let mut call = CallOptions::default();
    let mut function = None;
    for (key, item) in option_entries(options, &CALL_KEYS)? {
        options::check_option_key(&key, &CALL_KEYS)?;
        match key.as_str() {
            "signal" => call.signal = signal(&item)?,
            "timeoutMs" => call.timeout = options::timeout(&item.read)?,
            "retries" => call.retry_policy = retry_policy(&item)?,
            _ => match item.read {
                Value::Function => function = Some(item.value.unchecked_into()),
                _ => call.headers = headers(&item)?,
            },
        }
    }
    Ok((call, function))
}

/// Options with defaults for everything but the base URL, which must be a
/// string here (`UsersClient::new` checks the rest of it).
fn base_options(base_url: &JsValue) -> Result<ClientOptions, Rejection> {
    base_options_of(&Value::of(base_url))
}

/// [`base_options`] of a base URL read already.
fn base_options_of(base_url: &Value) -> Result<ClientOptions, Rejection> {
    let options = ClientOptions::new(options::base_url_text(base_url)?);
    Ok(user_management_client::__private::named(
        options,
        options::Naming::Js,
    ))
}

fn set_client_option(
    client: &mut ClientOptions,
    functions: &mut Functions,
    key: &str,
    item: &Item,
) -> Result<(), Rejection> {
    let (read, value) = (&item.read, &item.value);
    match key {
        "headers" => match read {
            Value::Function => functions.headers = Some(value.clone().unchecked_into()),
            _ => client.headers = headers(item)?,
        },
        // Options not given (`undefined`) keep `ClientOptions::new`'s defaults.
        "paramsIn" => {
            if let Some(params_in) = options::params_in(read)? {
                client.params_in = params_in;
            }
        }
        "timeoutMs" => {
            if let Some(timeout) = options::timeout(read)? {
                client.timeout = timeout;
            }
        }
        "retries" => client.retry_policy = retry_policy(item)?,
        "maxBodyBytes" => {
            if let Some(max_body_bytes) = options::max_body_bytes(read)? {
                client.max_body_bytes = max_body_bytes;
            }
        }
        "credentials" => client.credentials = options::credentials(read)?,
        "hooks" => hooks(functions, item)?,
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

/// The `retries` option: a number (the policy's `limit`) or a
/// `RetryPolicy` object, its `statusCodes` an array; `undefined` sets
/// nothing (every field the default, or for a call the client's).
fn retry_policy(item: &Item) -> Result<RetryPolicy, Rejection> {
    let mut policy = RetryPolicy::default();
    if !matches!(item.read, Value::Object) {
        policy.limit = options::retries(&item.read)?;
        return Ok(policy);
    }
    let what = "retries object";
    let (_, fields) = entries_of(&item.value, &POLICY_KEYS, INSTANCE, "retries", what)?;
    for (key, field) in fields {
        let items = match field.read {
            Value::Array => entries_of(&field.value, &[], ARRAY, "retries", what)?.1,
            _ => Vec::new(),
        };
        let items = items.iter().map(|(_, item)| &item.read);
        retry::policy_field(&mut policy, &key, &field.read, items)?;
    }
    Ok(policy)
}

/// An `AbortSignal`, duck-typed so that signals from other realms and
/// polyfills pass.
fn signal(item: &Item) -> Result<Option<AbortSignal>, Error> {
    let value = &item.value;
    match item.read {
        Value::Undefined => return Ok(None),
        Value::Object | Value::Other(_) => {}
        ref other => return Err(invalid("signal", "an AbortSignal", &other.shown())),
    }
    let member = |key: &str| Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let looks_right = member("aborted").as_bool().is_some()
        && member("addEventListener").is_function()
        && member("removeEventListener").is_function();
    if looks_right {
        Ok(Some(value.clone().unchecked_into()))
    } else {
        Err(invalid("signal", "an AbortSignal", &item.read.shown()))
    }
}

/// Headers as `fetch` takes them: an iterable of `[name, value]` pairs
/// (an array of pairs, a `Headers` object, a `Map`), read through its
/// `Symbol.iterator` wherever it has one (`headerPairs` in `snippet.js`),
/// else a record (an object's own enumerable keys). Each name and value is
/// a string, the value without lone surrogates (the library checks names
/// and values, `options::check_headers`, when the client is made and at
/// each call).
pub fn headers(item: &Item) -> Result<HeaderList, Rejection> {
    let value = &item.value;
    if item.read == Value::Undefined {
        return Ok(Vec::new());
    }
    let pairs = header_pairs(value).map_err(|cause| unreadable("headers", "headers", cause))?;
    let given = match (&item.read, pairs.dyn_into::<Array>()) {
        (_, Ok(flat)) => {
            let mut given = Vec::with_capacity(flat.length() as usize / 2);
            for at in (0..flat.length()).step_by(2) {
                let name = flat.get(at).as_string().unwrap_or_default();
                given.push((name, Item::of(&flat.get(at + 1))));
            }
            given
        }
        (_, Err(pairs)) if pairs.is_null() => {
            let message = "each entry of the headers must be a [name, value] pair of strings";
            return Err(validation("headers", message).into());
        }
        (Value::Object, _) => entries_of(value, &[], INSTANCE, "headers", "headers")?.1,
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
    for (name, Item { read, value }) in given {
        let Value::Str(text) = read else {
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

/// Whether a JS string (read as `text`) has no lone surrogate. Reading
/// replaces a lone surrogate with U+FFFD, so only a text holding U+FFFD
/// needs the exact look.
fn is_well_formed(value: &JsValue, text: &str) -> bool {
    // `chars().any` rather than `contains`: the latter's searcher brings
    // core's string-slicing panic messages into the `.wasm`.
    !text.chars().any(|c| c == '\u{FFFD}') || value.unchecked_ref::<JsString>().is_valid_utf16()
}

/// The params' keys the model names, read without crossing.
const PARAM_KEYS: [&str; 4] = ["active", "query", "page", "pageSize"];

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
    let (read, entries) = entries_of(params, &PARAM_KEYS, OBJECT, "params", "params object")?;
    if check_params_value(&read)? {
        for (key, Item { read, value }) in entries {
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

/// The hooks' keys.
const HOOK_KEYS: [&str; 3] = ["beforeRequest", "afterResponse", "beforeRetry"];

/// The `hooks` option: an object whose keys are among `beforeRequest`,
/// `afterResponse` and `beforeRetry`, each a function (or `undefined`).
fn hooks(functions: &mut Functions, item: &Item) -> Result<(), Rejection> {
    let entries = match &item.read {
        Value::Undefined => Vec::new(),
        Value::Object => entries_of(&item.value, &HOOK_KEYS, INSTANCE, "hooks", "hooks object")?.1,
        other => return Err(invalid("hooks", "an object of functions", &other.shown()).into()),
    };
    functions.before_request = None;
    functions.after_response = None;
    functions.before_retry = None;
    for (key, Item { read, value }) in entries {
        options::check_hook_key(&key)?;
        let function: Function = match read {
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
        let slot = match key.as_str() {
            "beforeRequest" => &mut functions.before_request,
            "afterResponse" => &mut functions.after_response,
            _ => &mut functions.before_retry,
        };
        *slot = Some(function);
    }
    Ok(())
}

/// An attempt's info as a hook sees it, and where `response` is given the
/// response's (`ResponseInfo extends AttemptInfo`), made in one call.
pub fn hook_info_js(attempt: &AttemptInfo, response: Option<&ResponseInfo>) -> JsValue {
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
/// `error` the `UsersApiError` the attempt failed with; and that error.
pub fn retry_info(info: &RetryInfo) -> (JsValue, JsValue) {
    let js = to_js(info);
    let error = Rejection {
        error: info.error.clone(),
        cause: retry_cause(info).cloned(),
    };
    let error = crate::error::to_js(error);
    // Cannot fail: a plain object serde-wasm-bindgen made.
    let _ = Reflect::set(&js, &"error".into(), &error);
    (js, error)
}

/// What `beforeRequest` returned: `{ headers }` (read as the `headers`
/// option is) gives the attempt headers; anything else gives none.
pub fn attempt_headers(returned: &JsValue) -> Result<AttemptHeaders, JsValue> {
    if !returned.is_object() {
        return Ok(Ok(HeaderList::new()));
    }
    let given = Reflect::get(returned, &"headers".into())?;
    Ok(headers(&Item::of(&given)).map_err(|rejection| rejection.error))
}

/// What `afterResponse` returned: `{ retry: true }` asks for the attempt
/// again; anything else keeps the answer.
pub fn response_action(returned: &JsValue) -> Result<ResponseAction, JsValue> {
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

/// Whether what `beforeRetry` returned stops the retry: `false`.
pub fn stops_retry(returned: &JsValue) -> bool {
    *returned == JsValue::FALSE
}

/// Reports what a hook threw or rejected with.
pub fn reported(thrown: &JsValue) {
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
