//! Reading the JS option objects into checked Rust values, once: a client's
//! options when it is constructed, a call's options at each call.

use crate::prelude::*;
use js_sys::Function;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::Error;
use crate::js::{self, Url};
use crate::options::{self, ParamsIn, CALL_KEYS, CLIENT_KEYS, DEFAULT_TIMEOUT_MS};
use crate::params::Operation;
use crate::request::Headers;
use crate::value::Value;

/// Header name/value pairs, names as given; merged case-insensitively.
pub type HeaderList = Vec<(String, String)>;

/// Where a client's headers come from.
#[derive(Clone)]
pub enum HeaderSource {
    /// A fixed object, checked once.
    Fixed(HeaderList),
    /// A function called once per call (token refresh).
    Provider(Function),
}

/// A client's checked options.
#[derive(Clone)]
pub struct Config {
    count_url: JsValue,
    list_url: JsValue,
    /// `headers`.
    pub headers: HeaderSource,
    /// `paramsIn`.
    pub params_in: ParamsIn,
    /// `timeoutMs` per attempt; `None` for no timeout.
    pub timeout_ms: Option<f64>,
    /// `retries`.
    pub retries: u32,
    /// `credentials`, where given.
    pub credentials: Option<&'static str>,
    /// `fetch`, where given; the global one otherwise.
    pub fetch: Option<Function>,
    /// The headers of every call that adds none, built once (fixed
    /// headers only).
    pub prepared: Option<Headers>,
}

/// A call's checked options.
#[derive(Default)]
pub struct CallOptions {
    /// The caller's `AbortSignal`.
    pub signal: Option<JsValue>,
    /// `timeoutMs` for this call, where given.
    pub timeout_ms: Option<Option<f64>>,
    /// Headers merged over the client's.
    pub headers: HeaderList,
}

impl Config {
    /// `new UsersClient(options)`: an options object, or the base URL alone.
    pub fn from_client_options(options: &JsValue) -> Result<Config, Error> {
        if options.is_string() {
            return Config::new(&js::value_of(options)).map(Config::finish);
        }
        let entries = option_entries(options)?;
        let base_url = entries
            .iter()
            .find(|(key, _)| key == "baseUrl")
            .map(|(_, value)| js::value_of(value))
            .unwrap_or(Value::Undefined);
        let mut config = Config::new(&base_url)?;
        for (key, value) in &entries {
            options::check_option_key(key, &CLIENT_KEYS)?;
            config.set(key, value)?;
        }
        Ok(config.finish())
    }

    /// The one-shot functions: a base URL, and one object holding both
    /// client options (less `baseUrl`) and call options.
    pub fn from_one_shot(
        base_url: &JsValue,
        options: &JsValue,
    ) -> Result<(Config, CallOptions), Error> {
        let mut config = Config::new(&js::value_of(base_url))?;
        let mut call = CallOptions::default();
        for (key, value) in option_entries(options)? {
            if key == "baseUrl" || !CLIENT_KEYS.contains(&key.as_str()) {
                let allowed: Vec<&str> = CLIENT_KEYS
                    .iter()
                    .chain(CALL_KEYS.iter())
                    .copied()
                    .filter(|k| *k != "baseUrl")
                    .collect();
                options::check_option_key(&key, &allowed)?;
            }
            if key == "signal" {
                call.signal = read_signal(&value)?;
            } else {
                config.set(&key, &value)?;
            }
        }
        Ok((config.finish(), call))
    }

    /// A config with defaults for everything but the base URL.
    fn new(base_url: &Value) -> Result<Config, Error> {
        let text = options::check_base_url(base_url)?;
        let url = Url::new(text).map_err(|cause| {
            Error::invalid("baseUrl", "a valid absolute URL", &base_url.shown()).with_cause(cause)
        })?;
        let href = url.href();
        Ok(Config {
            count_url: JsValue::from(options::join(&href, Operation::Count.path())),
            list_url: JsValue::from(options::join(&href, Operation::List.path())),
            headers: HeaderSource::Fixed(Vec::new()),
            params_in: ParamsIn::default(),
            timeout_ms: Some(DEFAULT_TIMEOUT_MS),
            retries: options::DEFAULT_RETRIES,
            credentials: None,
            fetch: None,
            prepared: None,
        })
    }

    /// Builds what every call can share, once the options are all read.
    fn finish(mut self) -> Config {
        if let HeaderSource::Fixed(list) = &self.headers {
            self.prepared = Some(Headers::new(list, &[], self.params_in));
        }
        self
    }

    fn set(&mut self, key: &str, value: &JsValue) -> Result<(), Error> {
        let read = js::value_of(value);
        match key {
            "headers" => {
                self.headers = match read {
                    Value::Function => HeaderSource::Provider(value.clone().unchecked_into()),
                    _ => HeaderSource::Fixed(read_headers(value)?),
                }
            }
            "paramsIn" => self.params_in = options::params_in(&read)?,
            "timeoutMs" => self.timeout_ms = options::timeout_ms(&read, DEFAULT_TIMEOUT_MS)?,
            "retries" => self.retries = options::retries(&read)?,
            "credentials" => self.credentials = options::credentials(&read)?,
            "fetch" => {
                self.fetch = match read {
                    Value::Undefined => None,
                    Value::Function => Some(value.clone().unchecked_into()),
                    other => return Err(Error::invalid("fetch", "a function", &other.shown())),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The full URL of an operation.
    pub fn url(&self, operation: Operation) -> &JsValue {
        match operation {
            Operation::Count => &self.count_url,
            Operation::List => &self.list_url,
        }
    }
}

impl CallOptions {
    /// A call's options object (`undefined` or `null` for none).
    pub fn read(options: &JsValue) -> Result<CallOptions, Error> {
        let mut call = CallOptions::default();
        for (key, value) in option_entries(options)? {
            options::check_option_key(&key, &CALL_KEYS)?;
            match key.as_str() {
                "signal" => call.signal = read_signal(&value)?,
                "timeoutMs" => {
                    let read = js::value_of(&value);
                    if read != Value::Undefined {
                        call.timeout_ms = Some(options::timeout_ms(&read, DEFAULT_TIMEOUT_MS)?);
                    }
                }
                _ => call.headers = read_headers(&value)?,
            }
        }
        Ok(call)
    }
}

/// The entries of an options object; `undefined` and `null` have none.
fn option_entries(options: &JsValue) -> Result<Vec<(String, JsValue)>, Error> {
    match js::value_of(options) {
        Value::Undefined | Value::Null => Ok(Vec::new()),
        Value::Object => js::entries(options).map_err(|cause| {
            Error::validation("options", "the options object could not be read").with_cause(cause)
        }),
        other => Err(Error::invalid("options", "an object", &other.shown())),
    }
}

fn read_signal(value: &JsValue) -> Result<Option<JsValue>, Error> {
    if value.is_undefined() {
        return Ok(None);
    }
    match js::is_abort_signal(value) {
        Ok(true) => Ok(Some(value.clone())),
        _ => Err(Error::invalid(
            "signal",
            "an AbortSignal",
            &js::value_of(value).shown(),
        )),
    }
}

/// A headers object: each name an HTTP token, each value a string without
/// CR, LF, NUL or anything beyond Latin-1.
pub fn read_headers(value: &JsValue) -> Result<HeaderList, Error> {
    match js::value_of(value) {
        Value::Undefined => return Ok(Vec::new()),
        Value::Object => {}
        other => {
            return Err(Error::invalid(
                "headers",
                "an object of strings (or, as a client option, a function returning one)",
                &other.shown(),
            ))
        }
    }
    let entries = js::entries(value).map_err(|cause| {
        Error::validation("headers", "the headers object could not be read").with_cause(cause)
    })?;
    let mut list = Vec::with_capacity(entries.len());
    for (name, value) in entries {
        options::check_header_name(&name)?;
        let Value::Str(text) = js::value_of(&value) else {
            return Err(Error::validation(
                "headers",
                crate::text::Text::new()
                    .push("the value of header ")
                    .quoted(&name)
                    .push(" must be a string")
                    .done(),
            ));
        };
        options::check_header_value(&name, &text)?;
        list.push((name, text));
    }
    Ok(list)
}
