//! What the host writes for the rules: a number as JavaScript writes it.
//!
//! In a JS host (wasm32-unknown-unknown) the host writes it
//! (`Number.prototype.toString`), which keeps Rust's float formatting out of
//! the `.wasm`; on every other target Rust's `Display`, which agrees for the
//! values messages show. This is the one JS call below the transport.

/// A number as JavaScript writes it (`NaN`, `Infinity`, `1.5`, `-1`).
pub(crate) fn number(n: f64) -> String {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        #[wasm_bindgen::prelude::wasm_bindgen]
        extern "C" {
            #[wasm_bindgen(js_name = String)]
            fn to_string(value: &wasm_bindgen::JsValue) -> String;
        }
        to_string(&n.into())
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        if n.is_nan() {
            "NaN".into()
        } else if n.is_infinite() {
            (if n > 0.0 { "Infinity" } else { "-Infinity" }).into()
        } else {
            format!("{n}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_numbers_as_javascript_does() {
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(number(-1.0), "-1");
        assert_eq!(number(1.5), "1.5");
    }
}
