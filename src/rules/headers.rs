//! The headers a call sends, resolved from the client's, the header
//! provider's and the call's (each over the one before, names compared
//! case-insensitively), then `Accept` and the `Content-Type` of the params
//! mode; and the credentials among them that errors must not show.

use crate::model::ParamsIn;
use crate::rules::secrets;

/// A call's headers, resolved: what goes on the wire, and the secrets to
/// cut out of any error. No `Debug`: the values may be credentials.
#[derive(Clone)]
pub struct Resolved {
    /// The headers, in order.
    pub list: Vec<(String, String)>,
    /// The credential values among them (see [`secrets::secrets`]).
    pub secrets: Vec<String>,
}

impl Resolved {
    /// The client's headers, the provider's over them, the call's over
    /// those, then `Accept` and the `Content-Type` of `params_in`.
    pub fn new(
        client: &[(String, String)],
        provided: &[(String, String)],
        call: &[(String, String)],
        params_in: ParamsIn,
    ) -> Resolved {
        let given = merge_headers(&merge_headers(client, provided), call);
        Resolved::fixed(&given, params_in)
    }

    /// These headers with `attempt`'s over them (a hook's, for one
    /// attempt), then `Accept` and the `Content-Type` of `params_in` again.
    pub fn with(&self, attempt: &[(String, String)], params_in: ParamsIn) -> Resolved {
        Resolved::fixed(&merge_headers(&self.list, attempt), params_in)
    }

    /// `given` with `Accept` and the `Content-Type` of `params_in` over it.
    fn fixed(given: &[(String, String)], params_in: ParamsIn) -> Resolved {
        let mut fixed = vec![("Accept".to_string(), "application/json".to_string())];
        if let Some(content_type) = params_in.content_type() {
            fixed.push(("Content-Type".into(), content_type.into()));
        }
        let list = merge_headers(given, &fixed);
        Resolved {
            secrets: secrets::secrets(list.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
            list,
        }
    }

    /// The headers as hooks see them: credential values replaced by
    /// `"[REDACTED]"`.
    pub fn shown(&self) -> Vec<(String, String)> {
        secrets::shown(&self.list)
    }
}

/// Header pairs as one string, `name\nvalue\nname\nvalue...`: what crosses
/// into JS where a JS host builds a request's headers or a hook's record.
/// The rules refuse a line feed in a request header's name or value, and a
/// JS host lists a response's headers without one.
pub fn lines(pairs: &[(String, String)]) -> String {
    let mut lines = String::new();
    for (name, value) in pairs {
        if !lines.is_empty() {
            lines.push('\n');
        }
        lines.push_str(name);
        lines.push('\n');
        lines.push_str(value);
    }
    lines
}

/// `over` merged over `base`: a name in `over` replaces the same name
/// (case-insensitively) in `base`.
pub fn merge_headers(
    base: &[(String, String)],
    over: &[(String, String)],
) -> Vec<(String, String)> {
    let mut merged: Vec<(String, String)> = base
        .iter()
        .filter(|(name, _)| !over.iter().any(|(o, _)| o.eq_ignore_ascii_case(name)))
        .cloned()
        .collect();
    merged.extend(over.iter().cloned());
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(n: &str, v: &str) -> (String, String) {
        (n.to_string(), v.to_string())
    }

    #[test]
    fn lines_join_names_and_values_with_line_feeds() {
        assert_eq!(lines(&[]), "");
        assert_eq!(lines(&[pair("a", "1")]), "a\n1");
        assert_eq!(lines(&[pair("a", "1"), pair("b", "")]), "a\n1\nb\n");
    }

    #[test]
    fn merges_headers_case_insensitively() {
        let base = [pair("Authorization", "a"), pair("X-Keep", "k")];
        let over = [pair("authorization", "b"), pair("X-New", "n")];
        assert_eq!(
            merge_headers(&base, &over),
            vec![
                pair("X-Keep", "k"),
                pair("authorization", "b"),
                pair("X-New", "n")
            ]
        );
    }

    #[test]
    fn call_over_provider_over_client_then_the_fixed_ones() {
        let resolved = Resolved::new(
            &[
                pair("X-Tenant", "a"),
                pair("Authorization", "Bearer old-token"),
            ],
            &[pair("authorization", "Bearer new-token")],
            &[pair("x-tenant", "b"), pair("accept", "text/plain")],
            ParamsIn::Form,
        );
        assert_eq!(
            resolved.list,
            vec![
                pair("authorization", "Bearer new-token"),
                pair("x-tenant", "b"),
                pair("Accept", "application/json"),
                pair(
                    "Content-Type",
                    "application/x-www-form-urlencoded;charset=UTF-8"
                ),
            ]
        );
        assert_eq!(resolved.secrets, ["Bearer new-token", "new-token"]);
        assert_eq!(
            resolved.shown()[0],
            pair("authorization", secrets::REDACTED)
        );
        assert_eq!(resolved.shown()[1], pair("x-tenant", "b"));
        let query = Resolved::new(&[], &[], &[], ParamsIn::Query);
        assert_eq!(query.list, vec![pair("Accept", "application/json")]);
    }

    #[test]
    fn an_attempts_headers_go_over_the_calls_but_not_over_the_fixed_ones() {
        let call = Resolved::new(
            &[
                pair("Authorization", "Bearer old-token"),
                pair("X-Keep", "k"),
            ],
            &[],
            &[],
            ParamsIn::Body,
        );
        let attempt = call.with(
            &[
                pair("authorization", "Bearer new-token"),
                pair("content-type", "text/plain"),
            ],
            ParamsIn::Body,
        );
        assert_eq!(
            attempt.list,
            vec![
                pair("X-Keep", "k"),
                pair("authorization", "Bearer new-token"),
                pair("Accept", "application/json"),
                pair("Content-Type", "application/json"),
            ]
        );
        assert_eq!(attempt.secrets, ["Bearer new-token", "new-token"]);
    }
}
