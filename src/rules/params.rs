//! Validation of the `params` of `countUsers` / `listUsers`
//! (the contract's "Validation" section), before anything is sent.
//!
//! Each param checked says what it is: `query` and `active` go into the
//! model ([`CountParams`](crate::CountParams)'s fields, serialized by serde,
//! so a boolean `active` goes out as `"true"` / `"false"`), every other
//! list param is sent as the caller gave it. Encoding is left to the
//! platform's `JSON`, `URLSearchParams` and `URL`, never done by hand.

use crate::error::Error;
use crate::model::{active_expected, Active, ListParams, Operation, ParamsIn};
use crate::rules::options::Naming;
use crate::rules::value::MAX_SAFE_INTEGER;
use crate::rules::value::{quoted, Value};
use crate::wire;

/// A param that passed its checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    /// `query`: this text.
    Query(String),
    /// `active`: this value (from one of its names or a boolean).
    Active(Active),
    /// Any other list param: sent as the caller gave it.
    AsGiven,
}

/// Checks the `params` argument itself: a plain object, `undefined` or `null`.
/// Returns `false` where there are no params at all.
pub fn check_params_value(params: &Value) -> Result<bool, Error> {
    match params {
        Value::Undefined | Value::Null => Ok(false),
        Value::Object => Ok(true),
        other => Err(Error::invalid(
            "params",
            "a plain object, undefined or null",
            &other.shown(),
        )),
    }
}

/// Checks one param and says what it is; `None` means "not sent"
/// (`undefined` and `null`).
pub fn check_param(
    operation: Operation,
    params_in: ParamsIn,
    key: &str,
    value: &Value,
) -> Result<Option<Param>, Error> {
    if value.is_missing() {
        return Ok(None);
    }
    match key {
        "active" => check_active(value).map(|active| Some(Param::Active(active))),
        "query" => match value {
            Value::Str(text) => Ok(Some(Param::Query(text.clone()))),
            other => Err(Error::invalid("query", "a string", &other.shown())),
        },
        _ if operation == Operation::Count => Err(Error::validation(
            key,
            format!(
                "countUsers takes only \"query\" and \"active\"; got unknown param {}",
                quoted(key)
            ),
        )),
        _ => check_passed_through(params_in, key, value).map(Some),
    }
}

/// The checks a [`ListParams`] from Rust needs beyond its types: `extra`
/// is for the params the model does not name (the named ones go through
/// their typed fields and their rules), `__proto__` would not reach the
/// request as a key, each extra value meets the rule a JS caller's value
/// meets in `params_in` mode, and `page` / `pageSize` must fit a JS number.
pub fn check_list_params(
    params: &ListParams,
    params_in: ParamsIn,
    naming: Naming,
) -> Result<(), Error> {
    for (key, value) in &params.extra {
        if ["query", "active", "page", "pageSize"].contains(&key.as_str()) {
            return Err(Error::validation(
                key,
                format!("{key} is not an extra param: set its own field of ListParams"),
            ));
        }
        if key == "__proto__" {
            return Err(Error::validation(
                key,
                "__proto__ cannot be sent: it would not reach the request as a key",
            ));
        }
        check_param(Operation::List, params_in, key, &Value::from(value))?;
    }
    for (param, value) in [
        ("page", params.page),
        (naming.page_size(), params.page_size),
    ] {
        if value.is_some_and(|n| n as f64 > MAX_SAFE_INTEGER) {
            return Err(Error::validation(
                param,
                format!("{param} must be at most 2^53 - 1 (a JavaScript number holds no more)"),
            ));
        }
    }
    Ok(())
}

/// `active`: one of its names, or a boolean.
fn check_active(value: &Value) -> Result<Active, Error> {
    let active = match value {
        Value::Str(name) => wire::parse::<Active>(name),
        Value::Bool(b) => Some(Active::from(*b)),
        _ => None,
    };
    active.ok_or_else(|| Error::invalid("active", &active_expected(), &value.shown()))
}

/// A list param other than `query` / `active`. In a query string or a form
/// only scalars have a meaning; in a JSON body anything JSON can carry
/// passes. Non-finite numbers are refused everywhere: JSON would turn them
/// into `null` and a query string into `"NaN"`, silently.
fn check_passed_through(params_in: ParamsIn, key: &str, value: &Value) -> Result<Param, Error> {
    let ok = match value {
        Value::Str(_) | Value::Bool(_) => true,
        Value::Number(n) => n.is_finite(),
        Value::Array | Value::Object => params_in == ParamsIn::Body,
        Value::Other(what) => params_in == ParamsIn::Body && *what != "symbol" && *what != "bigint",
        Value::Function | Value::Undefined | Value::Null => false,
    };
    if ok {
        return Ok(Param::AsGiven);
    }
    let expected = match params_in {
        ParamsIn::Body => "a JSON value (not a function, symbol, bigint, NaN or Infinity)",
        ParamsIn::Query | ParamsIn::Form => {
            "a string, a finite number or a boolean when paramsIn is \"query\" or \"form\""
        }
    };
    Err(Error::invalid(key, expected, &value.shown()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn check(op: Operation, key: &str, value: Value) -> Result<Option<Param>, Error> {
        check_param(op, ParamsIn::Body, key, &value)
    }

    #[test]
    fn active_accepts_the_three_strings_and_booleans() {
        for (s, active) in [
            ("all", Active::All),
            ("true", Active::True),
            ("false", Active::False),
        ] {
            assert_eq!(
                check(Operation::Count, "active", Value::Str(s.into())).ok(),
                Some(Some(Param::Active(active)))
            );
        }
        assert_eq!(
            check(Operation::Count, "active", Value::Bool(true)).ok(),
            Some(Some(Param::Active(Active::True)))
        );
        assert_eq!(
            check(Operation::List, "active", Value::Bool(false)).ok(),
            Some(Some(Param::Active(Active::False)))
        );
    }

    #[test]
    fn active_rejects_everything_else_naming_value_and_allowed_ones() {
        let bad = [
            Value::Str("TRUE".into()),
            Value::Str("yes".into()),
            Value::Str("".into()),
            Value::Str(" true".into()),
            Value::Number(1.0),
            Value::Number(f64::NAN),
            Value::Object,
            Value::Array,
            Value::Function,
            Value::Other("symbol"),
        ];
        for value in bad {
            let err = check(Operation::Count, "active", value.clone()).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::Validation);
            assert_eq!(err.param(), Some("active"));
            assert!(err.message().contains(&value.shown()), "{}", err.message());
            assert!(
                err.message().contains(&active_expected()),
                "{}",
                err.message()
            );
        }
    }

    #[test]
    fn missing_values_are_not_sent() {
        assert_eq!(
            check(Operation::Count, "active", Value::Null).ok(),
            Some(None)
        );
        assert_eq!(
            check(Operation::Count, "query", Value::Undefined).ok(),
            Some(None)
        );
        assert_eq!(
            check(Operation::Count, "activ", Value::Undefined).ok(),
            Some(None)
        );
    }

    #[test]
    fn query_must_be_a_string() {
        assert_eq!(
            check(Operation::Count, "query", Value::Str("a&b".into())).ok(),
            Some(Some(Param::Query("a&b".into())))
        );
        let err = check(Operation::List, "query", Value::Number(5.0)).unwrap_err();
        assert_eq!(err.param(), Some("query"));
        assert!(err.message().contains("got 5"));
    }

    #[test]
    fn count_rejects_unknown_keys_by_name() {
        let err = check(Operation::Count, "activ", Value::Str("true".into())).unwrap_err();
        assert_eq!(err.param(), Some("activ"));
        assert!(err.message().contains("\"activ\""));
        let err = check(Operation::Count, "__proto__", Value::Object).unwrap_err();
        assert_eq!(err.param(), Some("__proto__"));
    }

    #[test]
    fn list_passes_other_keys_through() {
        assert_eq!(
            check(Operation::List, "page", Value::Number(2.0)).ok(),
            Some(Some(Param::AsGiven))
        );
        assert!(check(Operation::List, "filter", Value::Object).is_ok());
        assert!(check(Operation::List, "when", Value::Other("Date")).is_ok());
    }

    #[test]
    fn list_scalars_only_in_query_and_form() {
        for mode in [ParamsIn::Query, ParamsIn::Form] {
            assert!(check_param(Operation::List, mode, "page", &Value::Number(2.0)).is_ok());
            assert!(check_param(Operation::List, mode, "x", &Value::Bool(true)).is_ok());
            for bad in [Value::Object, Value::Array, Value::Other("Date")] {
                let err = check_param(Operation::List, mode, "page", &bad).unwrap_err();
                assert_eq!(err.param(), Some("page"));
            }
        }
    }

    #[test]
    fn what_json_cannot_carry_is_refused() {
        for bad in [
            Value::Number(f64::NAN),
            Value::Number(f64::INFINITY),
            Value::Function,
            Value::Other("bigint"),
            Value::Other("symbol"),
        ] {
            assert!(check(Operation::List, "page", bad).is_err());
        }
    }

    #[test]
    fn rust_list_params_beyond_their_types() {
        assert!(check_list_params(&ListParams::default(), ParamsIn::Body, Naming::Rust).is_ok());
        let mut params = ListParams {
            page: Some(MAX_SAFE_INTEGER as u64),
            page_size: Some(50),
            ..Default::default()
        };
        params.extra.insert("sort".into(), "name".into());
        assert!(check_list_params(&params, ParamsIn::Body, Naming::Rust).is_ok());
        for named in ["query", "active", "page", "pageSize", "__proto__"] {
            let mut params = ListParams::default();
            params.extra.insert(named.into(), "x".into());
            let err = check_list_params(&params, ParamsIn::Body, Naming::Rust).unwrap_err();
            assert_eq!(err.param(), Some(named));
        }
        for (page, page_size, param) in [
            (Some(1 << 53), None, "page"),
            (None, Some(u64::MAX), "page_size"),
        ] {
            let params = ListParams {
                page,
                page_size,
                ..Default::default()
            };
            let err = check_list_params(&params, ParamsIn::Body, Naming::Rust).unwrap_err();
            assert_eq!(
                (err.kind(), err.param()),
                (ErrorKind::Validation, Some(param))
            );
        }
    }

    #[test]
    fn rust_extra_values_meet_the_js_rule_of_each_mode() {
        use serde_json::json;
        let with = |value: serde_json::Value| {
            let mut params = ListParams::default();
            params.extra.insert("x".into(), value);
            params
        };
        let scalars = [json!("a"), json!(1.5), json!(true), json!(null)];
        for mode in [ParamsIn::Body, ParamsIn::Query, ParamsIn::Form] {
            for value in scalars.clone() {
                assert!(
                    check_list_params(&with(value), mode, Naming::Rust).is_ok(),
                    "{mode:?}"
                );
            }
        }
        for value in [json!([1, 2]), json!({ "role": "admin" })] {
            assert!(check_list_params(&with(value.clone()), ParamsIn::Body, Naming::Rust).is_ok());
            for mode in [ParamsIn::Query, ParamsIn::Form] {
                let err = check_list_params(&with(value.clone()), mode, Naming::Rust).unwrap_err();
                assert_eq!(
                    (err.kind(), err.param()),
                    (ErrorKind::Validation, Some("x"))
                );
                let js = check_param(Operation::List, mode, "x", &Value::from(&value));
                assert_eq!(Some(err), js.err(), "the JS API's rule");
            }
        }
    }

    #[test]
    fn params_itself_must_be_a_plain_object() {
        assert_eq!(check_params_value(&Value::Undefined).ok(), Some(false));
        assert_eq!(check_params_value(&Value::Null).ok(), Some(false));
        assert_eq!(check_params_value(&Value::Object).ok(), Some(true));
        for bad in [
            Value::Array,
            Value::Str("active=true".into()),
            Value::Number(1.0),
            Value::Other("Map"),
        ] {
            let err = check_params_value(&bad).unwrap_err();
            assert_eq!(err.param(), Some("params"));
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;
    use crate::error::ErrorKind;

    fn any_value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Undefined),
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<f64>().prop_map(Value::Number),
            ".{0,40}".prop_map(Value::Str),
            Just(Value::Array),
            Just(Value::Object),
            Just(Value::Function),
            Just(Value::Other("symbol")),
        ]
    }

    proptest! {
        #[test]
        fn active_accepts_exactly_the_allowed_values(value in any_value()) {
            let allowed = match &value {
                Value::Str(s) => ["all", "true", "false"].contains(&s.as_str()),
                Value::Bool(_) | Value::Undefined | Value::Null => true,
                _ => false,
            };
            let checked = check_param(Operation::Count, ParamsIn::Body, "active", &value);
            prop_assert_eq!(checked.is_ok(), allowed);
            if let Err(err) = checked {
                prop_assert_eq!(err.kind(), ErrorKind::Validation);
                prop_assert_eq!(err.param(), Some("active"));
            }
            if let Value::Bool(b) = value {
                let text = if b { "true" } else { "false" };
                prop_assert_eq!(
                    check_param(Operation::Count, ParamsIn::Body, "active", &value).ok(),
                    Some(wire::parse::<Active>(text).map(Param::Active))
                );
            }
        }

        #[test]
        fn count_refuses_every_other_key(key in "[a-zA-Z_]{1,12}", value in any_value()) {
            prop_assume!(key != "query" && key != "active");
            let checked = check_param(Operation::Count, ParamsIn::Body, &key, &value);
            prop_assert_eq!(checked.is_err(), !value.is_missing());
        }
    }
}
