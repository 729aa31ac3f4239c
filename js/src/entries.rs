//! An object's own enumerable entries, read in one call into JS
//! (`entries` in the library's `bridge.js`): each getter runs once, and
//! what the rules need of each value (its kind, a boolean's or a number's
//! value, whether its key is one they know) comes back in the same call,
//! written into a view of numbers. A key crosses into Rust only where it
//! is not among the known ones, a value only where it is needed: a
//! string's text, a function, an object or a number to keep.

use js_sys::Array;
use user_management_client::__private::value::Value;
use user_management_client::__private::{entries, BOOLEAN, INSTANCE, NUMBER};
use wasm_bindgen::prelude::*;

/// What the rules need of a JS value: its picture, and the value itself
/// (for `undefined`, `null` and a boolean, the same value made in Rust).
pub struct Item {
    /// What it is.
    pub read: Value,
    /// The value.
    pub value: JsValue,
}

impl Item {
    /// A value not read yet: its picture, in one call into JS.
    pub fn of(value: &JsValue) -> Item {
        Item {
            read: Value::of(value),
            value: value.clone(),
        }
    }
}

/// How many entries one read tells the kinds and keys of; the rest are
/// read one by one.
const FITS: usize = 12;

/// `value`'s picture, and its entries where it is a plain object or of
/// the kind `also` (`INSTANCE`: a class's instance, else the picture of
/// one is not an object; `ARRAY`: an array, its entries its items;
/// `OBJECT`: nothing else), keys
/// among `known` read without crossing. An error where `Object.keys` or a
/// getter threw.
#[inline(never)]
pub fn read(
    value: &JsValue,
    known: &[&str],
    also: u8,
) -> Result<(Value, Vec<(String, Item)>), JsValue> {
    let mut view = [f64::NAN; 2 + 3 * FITS];
    let mut names = String::new();
    for key in known {
        names.push_str(key);
        names.push('\n');
    }
    let flat = entries(value, &names, also, &mut view)?;
    let [kind, count, ..] = view;
    let kind = kind as u8;
    let picture = match kind {
        INSTANCE if also != INSTANCE => Value::Other("class instance"),
        _ => Value::of_kind(kind, value),
    };
    if !count.is_finite() {
        return Ok((picture, Vec::new()));
    }
    let flat: &Array = flat.unchecked_ref();
    // `as` saturates; an object's entries are fewer than 2^32.
    let count = count as u32;
    let mut read = Vec::with_capacity(count as usize);
    for at in 0..count {
        let start = 2 + 3 * at as usize;
        let (index, kind, number) = match view.get(start..start + 3) {
            Some(&[index, kind, number]) => (index, Some(kind as u8), number),
            _ => (-1.0, None, f64::NAN),
        };
        let known = (index >= 0.0).then(|| known.get(index as usize)).flatten();
        let key = match known {
            Some(key) => key.to_string(),
            None => flat.get(2 * at).as_string().unwrap_or_default(),
        };
        let item = match kind {
            Some(kind) => item(kind, number, || flat.get(2 * at + 1)),
            None => Item::of(&flat.get(2 * at + 1)),
        };
        read.push((key, item));
    }
    Ok((picture, read))
}

/// An entry's value of kind `kind` (as `kind()` numbers it), with
/// `number` its value where it is a boolean or a number; `get` reads the
/// value itself, where it is needed.
fn item(kind: u8, number: f64, get: impl FnOnce() -> JsValue) -> Item {
    let (read, value) = match kind {
        0 => (Value::Undefined, JsValue::UNDEFINED),
        1 => (Value::Null, JsValue::NULL),
        BOOLEAN => (
            Value::Bool(number != 0.0),
            JsValue::from_bool(number != 0.0),
        ),
        NUMBER => (Value::Number(number), get()),
        _ => {
            let value = get();
            (Value::of_kind(kind, &value), value)
        }
    };
    Item { read, value }
}
