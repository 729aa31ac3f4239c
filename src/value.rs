//! A plain-Rust picture of a JS value, so that validation and envelope
//! checks run (and unit-test) without a JS engine. `js::value_of` builds it.

use crate::prelude::*;
use crate::text::{number, Text};

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
    /// A string. Lone surrogates arrive as U+FFFD; `js::is_well_formed`
    /// catches them before anything is sent.
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
            Value::Str(s) => Text::new().quoted(s).done(),
            Value::Array => "an array".into(),
            Value::Function => "a function".into(),
            Value::Object => "an object".into(),
            Value::Other(what) => Text::new().push("a ").push(what).done(),
        }
    }
}

/// `Number.isInteger`, without `f64::trunc` (which is not in `core`):
/// every finite float of 2^52 or more is whole, and below that the
/// round trip through `i64` is exact.
pub fn is_whole(n: f64) -> bool {
    n.is_finite() && (n.abs() >= 4_503_599_627_370_496.0 || n == (n as i64) as f64)
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
    fn shows_values() {
        assert_eq!(Value::Str("yes".into()).shown(), "\"yes\"");
        assert_eq!(Value::Number(1.0).shown(), "1");
        assert_eq!(Value::Object.shown(), "an object");
        assert_eq!(Value::Other("symbol").shown(), "a symbol");
    }
}
