//! A JS value read as the rules' [`Value`], so that they can judge it
//! without a JS engine of their own.

use wasm_bindgen::prelude::*;

use crate::rules::value::Value;
use crate::transport::fetch::bridge::kind;

/// `kind`'s number for a boolean: the first of the three kinds whose
/// value the rules read (a message quotes it).
pub const BOOLEAN: u8 = 2;
/// `kind`'s number for a number.
pub const NUMBER: u8 = 3;
/// `kind`'s number for a string: the last of the three.
pub const STRING: u8 = 4;
/// `kind`'s number for a plain object.
pub const OBJECT: u8 = 9;
/// `kind`'s number for an array.
pub const ARRAY: u8 = 8;
/// `kind`'s number for an instance of a class: an object as the rules
/// see it, but for a call's params.
pub const INSTANCE: u8 = 11;

impl Value {
    /// The picture of a JS value: what it is, in one call into JS, then
    /// its boolean, number or string (a string is copied).
    pub fn of(value: &JsValue) -> Value {
        Value::of_kind(kind(value).unwrap_or(10), value)
    }

    /// The picture of a call's params: as [`Value::of`], but an instance
    /// of a class is no plain object.
    pub fn of_params(value: &JsValue) -> Value {
        match kind(value).unwrap_or(10) {
            INSTANCE => Value::Other("class instance"),
            kind => Value::of_kind(kind, value),
        }
    }

    /// The picture of a JS value whose kind was read already (as
    /// [`kind`] numbers it): `value` is read only for a boolean, a number
    /// or a string.
    pub fn of_kind(kind: u8, value: &JsValue) -> Value {
        match kind {
            0 => Value::Undefined,
            1 => Value::Null,
            BOOLEAN => Value::Bool(value.is_truthy()),
            NUMBER => Value::Number(value.as_f64().unwrap_or(f64::NAN)),
            STRING => Value::Str(value.as_string().unwrap_or_default()),
            5 => Value::Function,
            6 => Value::Other("symbol"),
            7 => Value::Other("bigint"),
            8 => Value::Array,
            9 | INSTANCE => Value::Object,
            _ => Value::Other("non-plain object"),
        }
    }
}
