//! What each attempt sends through WASI or natively: its headers (each
//! attempt's own), and the call's URL and body, built once per call from
//! the params as serde_json writes them (the JSON, query and form
//! encodings of the fetch transport's request).

use serde::Serialize;
use serde_json::Value as Json;

use crate::error::{Cause, Error};
use crate::model::{Credentials, ParamsIn};
use crate::platform::number;
use crate::rules::headers::Resolved;
use crate::rules::value::quoted;

/// The params of a call, as JSON.
pub type Params = Json;

/// A call's resolved headers.
#[derive(Clone)]
pub struct Headers {
    /// The headers and the secrets among them.
    pub resolved: Resolved,
}

impl Headers {
    /// The resolved headers, as these transports send them.
    pub fn new(resolved: Resolved) -> Headers {
        Headers { resolved }
    }
}

/// A call's request, ready for its attempts.
pub struct Request {
    /// The full URL (with the query string in `query` mode).
    pub url: String,
    /// The body (empty in `query` mode).
    pub body: Vec<u8>,
}

/// The base URL as the URL standard writes it (as `new URL(base).href` in
/// a JS host), or a `validation` error.
///
/// A host name is mapped by `idna`, whose Unicode tables are the
/// `idna_adapter` version the build's `Cargo.lock` picks. This repository
/// pins the one without tables, which keeps them out of the component; a
/// host it cannot map (any non-ASCII one) gets a message that says to
/// write it in ASCII.
pub fn base_href(url: &str, param: &str) -> Result<String, Error> {
    url::Url::parse(url).map(String::from).map_err(|cause| {
        let expected = match cause {
            url::ParseError::IdnaError => {
                "a host name in ASCII (an internationalized one in its Punycode form, xn--)"
            }
            _ => "a valid absolute URL",
        };
        Error::invalid(param, expected, &quoted(url)).with_cause(Cause::new(cause.to_string()))
    })
}

/// Model params (`CountParams`, `ListParams`) as JSON.
pub fn params_object<T: Serialize>(params: &T) -> Result<Params, Error> {
    serde_json::to_value(params).map_err(|cause| {
        Error::validation("params", "the params could not be encoded as JSON")
            .with_cause(Cause::new(cause.to_string()))
    })
}

/// The request of a call to `url`. `credentials` is a browser's option
/// (which cookies `fetch` sends): outside a JS host there are no cookies to send.
pub fn build(
    url: &str,
    params_in: ParamsIn,
    params: &Params,
    _credentials: Option<Credentials>,
) -> Result<Request, Error> {
    let entries = || match params {
        Json::Object(fields) => fields
            .iter()
            .map(|(key, value)| (key.as_str(), text(value)))
            .collect(),
        _ => Vec::new(),
    };
    let (url, body) = match params_in {
        ParamsIn::Body => {
            let body = serde_json::to_vec(params).map_err(|cause| {
                Error::validation("params", "the params could not be encoded as JSON")
                    .with_cause(Cause::new(cause.to_string()))
            })?;
            (url.to_string(), body)
        }
        ParamsIn::Query => {
            let entries: Vec<(&str, String)> = entries();
            if entries.is_empty() {
                (url.to_string(), Vec::new())
            } else {
                let mut parsed = url::Url::parse(url).map_err(|cause| {
                    Error::validation("baseUrl", "the request URL is invalid")
                        .with_cause(Cause::new(cause.to_string()))
                })?;
                parsed.query_pairs_mut().extend_pairs(entries);
                (String::from(parsed), Vec::new())
            }
        }
        ParamsIn::Form => {
            let form = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(entries())
                .finish();
            (url.to_string(), form.into_bytes())
        }
    };
    Ok(Request { url, body })
}

/// A param's value as `String(value)` writes it (the rules allow only
/// strings, numbers and booleans in `query` and `form` mode).
fn text(value: &Json) -> String {
    match value {
        Json::String(text) => text.clone(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => number(n.as_f64().unwrap_or(f64::NAN)),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::base_href;

    #[test]
    fn a_host_name_in_ascii_is_written_as_the_url_standard_writes_it() {
        assert_eq!(
            base_href("HTTP://Example.COM:80/api", "baseUrl").unwrap(),
            "http://example.com/api"
        );
        assert_eq!(
            base_href("https://xn--bcher-kva.example/", "baseUrl").unwrap(),
            "https://xn--bcher-kva.example/"
        );
    }

    #[test]
    fn a_host_name_without_an_ascii_form_here_says_how_to_write_it() {
        let err = base_href("https://bücher.example/", "baseUrl").unwrap_err();
        assert_eq!(err.param(), Some("baseUrl"));
        assert_eq!(
            err.to_string(),
            "baseUrl must be a host name in ASCII (an internationalized one in its \
             Punycode form, xn--); got \"https://bücher.example/\""
        );
    }

    #[test]
    fn a_url_that_does_not_parse_says_so() {
        let err = base_href("http://[::1/", "baseUrl").unwrap_err();
        assert_eq!(
            err.to_string(),
            "baseUrl must be a valid absolute URL; got \"http://[::1/\""
        );
    }
}
