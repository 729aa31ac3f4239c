//! A JS value read as the rules' [`Value`], so that they can judge it
//! without a JS engine of their own.

use wasm_bindgen::prelude::*;

use crate::rules::value::Value;

#[wasm_bindgen]
extern "C" {
    // `Object.prototype.toString.call(value)`: "[object Object]" for plain
    // objects (and class instances), "[object Date]" and so on otherwise.
    // It throws for a revoked proxy, hence `catch`.
    #[wasm_bindgen(js_namespace = ["Object", "prototype", "toString"], js_name = call, catch)]
    fn to_string_tag(value: &JsValue) -> Result<js_sys::JsString, JsValue>;
}

impl Value {
    /// The picture of a JS value. Reading a string copies it.
    pub fn of(value: &JsValue) -> Value {
        if value.is_undefined() {
            Value::Undefined
        } else if value.is_null() {
            Value::Null
        } else if let Some(b) = value.as_bool() {
            Value::Bool(b)
        } else if let Some(n) = value.as_f64() {
            Value::Number(n)
        } else if let Some(s) = value.as_string() {
            Value::Str(s)
        } else if value.is_function() {
            Value::Function
        } else if value.is_symbol() {
            Value::Other("symbol")
        } else if value.is_bigint() {
            Value::Other("bigint")
        } else {
            // One catching call tells arrays, plain objects and the rest
            // apart (`Array.isArray` throws for a revoked proxy too).
            match to_string_tag(value) {
                Ok(tag) if tag == "[object Array]" => Value::Array,
                Ok(tag) if tag == "[object Object]" => Value::Object,
                _ => Value::Other("non-plain object"),
            }
        }
    }
}
