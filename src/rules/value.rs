//! A plain-Rust picture of a JS value, so that validation and envelope
//! checks run (and unit-test) without a JS engine. The fetch transport
//! draws it from a JS value; serde draws it from any value serde reads.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::platform::number;

/// What a JS value is, with the content the checks need.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (including `NaN` and the infinities).
    Number(f64),
    /// A string. Lone surrogates arrive as U+FFFD; the JS layer catches
    /// them before anything is sent.
    Str(String),
    /// An array.
    Array,
    /// A function.
    Function,
    /// A plain object (`[object Object]`).
    Object,
    /// Anything else: a symbol, a bigint, a `Date`, a `Map`, a class instance...
    Other(&'static str),
}

impl Value {
    /// `undefined` or `null`: "not given".
    pub fn is_missing(&self) -> bool {
        matches!(self, Value::Undefined | Value::Null)
    }

    /// A number that is a whole number (`Number.isInteger`).
    pub fn as_integer(&self) -> Option<f64> {
        match *self {
            Value::Number(n) if is_whole(n) => Some(n),
            _ => None,
        }
    }

    /// How a message shows this value: strings quoted (and cut), numbers
    /// written out, everything else by its type.
    pub fn shown(&self) -> String {
        match self {
            Value::Undefined => "undefined".into(),
            Value::Null => "null".into(),
            Value::Bool(true) => "true".into(),
            Value::Bool(false) => "false".into(),
            Value::Number(n) => number(*n),
            Value::Str(s) => quoted(s),
            Value::Array => "an array".into(),
            Value::Function => "a function".into(),
            Value::Object => "an object".into(),
            Value::Other(what) => format!("a {what}"),
        }
    }
}

/// The largest integer JS numbers hold exactly: 2^53 - 1.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// `Number.isInteger`.
pub fn is_whole(n: f64) -> bool {
    n.is_finite() && n.trunc() == n
}

/// How many characters of a rejected value a message shows.
pub const SHOWN_CHARS: usize = 64;

/// `value` in double quotes, cut to [`SHOWN_CHARS`] characters so that a
/// huge hostile string cannot make a huge message.
pub fn quoted(value: &str) -> String {
    let shown: String = value.chars().take(SHOWN_CHARS).collect();
    let ellipsis = if shown.len() < value.len() { "…" } else { "" };
    format!("\"{shown}{ellipsis}\"")
}

/// A JSON value as the JS value `JSON.parse` would make of it (a Rust
/// caller's `ListParams::extra`).
impl From<&serde_json::Value> for Value {
    fn from(json: &serde_json::Value) -> Value {
        match json {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(text) => Value::Str(text.clone()),
            serde_json::Value::Array(_) => Value::Array,
            serde_json::Value::Object(_) => Value::Object,
        }
    }
}

/// A value read through serde (serde-wasm-bindgen reads JSON-like JS values
/// this way): its kind and its scalar content, nothing of what is inside
/// arrays and objects.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Number(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.into()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Value::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Value::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(Value::Number(3.0).as_integer(), Some(3.0));
        assert_eq!(Value::Number(3.5).as_integer(), None);
        assert_eq!(Value::Number(f64::NAN).as_integer(), None);
        assert_eq!(Value::Number(f64::INFINITY).as_integer(), None);
        assert_eq!(Value::Str("3".into()).as_integer(), None);
        assert_eq!(Value::Number(-0.5).as_integer(), None);
        assert_eq!(Value::Number(1e300).as_integer(), Some(1e300));
        assert_eq!(Value::Number(4_503_599_627_370_495.5).as_integer(), None);
    }

    #[test]
    fn reads_through_serde() {
        use serde::de::value::{Error, F64Deserializer, StrDeserializer, UnitDeserializer};
        let number = F64Deserializer::<Error>::new(1.5);
        assert_eq!(Value::deserialize(number).ok(), Some(Value::Number(1.5)));
        let text = StrDeserializer::<Error>::new("x");
        assert_eq!(Value::deserialize(text).ok(), Some(Value::Str("x".into())));
        let unit = UnitDeserializer::<Error>::new();
        assert_eq!(Value::deserialize(unit).ok(), Some(Value::Null));
    }

    #[test]
    fn a_kind_serde_cannot_name_says_what_was_expected() {
        use serde::de::value::{BytesDeserializer, Error};
        let bytes = BytesDeserializer::<Error>::new(b"x");
        let refused = Value::deserialize(bytes).err().map(|e| e.to_string());
        assert_eq!(
            refused.as_deref(),
            Some("invalid type: byte array, expected any value")
        );
    }

    #[test]
    fn reads_json_as_js_would() {
        use serde_json::json;
        for (json, value) in [
            (json!(null), Value::Null),
            (json!(true), Value::Bool(true)),
            (json!(-2.5), Value::Number(-2.5)),
            (json!(7), Value::Number(7.0)),
            (json!("x"), Value::Str("x".into())),
            (json!([1]), Value::Array),
            (json!({ "a": 1 }), Value::Object),
        ] {
            assert_eq!(Value::from(&json), value, "{json}");
        }
    }

    #[test]
    fn quotes_and_cuts() {
        assert_eq!(quoted("a"), "\"a\"");
        let long = "x".repeat(100);
        assert_eq!(quoted(&long), format!("\"{}…\"", "x".repeat(64)));
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(-1.0), "-1");
        assert_eq!(number(1.5), "1.5");
    }

    #[test]
    fn shows_values() {
        assert_eq!(Value::Str("yes".into()).shown(), "\"yes\"");
        assert_eq!(Value::Number(1.0).shown(), "1");
        assert_eq!(Value::Object.shown(), "an object");
        assert_eq!(Value::Other("symbol").shown(), "a symbol");
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        // Without `…` in the text: the mark of a cut is then the cut's own.
        #[test]
        fn shown_values_are_quoted_and_cut(text in "[^…]{0,200}") {
            let shown = quoted(&text);
            prop_assert!(shown.starts_with('"') && shown.ends_with('"'));
            prop_assert!(shown.chars().count() <= SHOWN_CHARS + 3);
            prop_assert_eq!(shown.contains('…'), text.chars().count() > SHOWN_CHARS);
        }
    }
}
