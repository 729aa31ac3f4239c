//! What the host writes for the rules: a number as JavaScript writes it.
//!
//! In a JS host (wasm32-unknown-unknown) the host writes it (`String(n)`),
//! which keeps Rust's float formatting out of the `.wasm`; on every other
//! target a whole number by Rust's integer `Display` and any other by
//! `ryu` (serde_json's number writer), whose shortest round-trip digits
//! are JavaScript's; only where ryu and JavaScript choose differently
//! between digits and an exponent (whole numbers from 9e18 to 1e21, numbers
//! from 1e-6 to 1e-5) do they differ. Core's float `Display`, its only use
//! in the component, would be a large part of it. This is the one JS call
//! below the transport.

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
        } else if n.trunc() == n && n.abs() < 9e18 {
            // Whole, and within an i64 (`-0` is written `0`, as in JS).
            (n as i64).to_string()
        } else {
            // ryu writes `1e21` and `1.5e-7`; JavaScript `1e+21` and
            // `1.5e-7`.
            let text = ryu::Buffer::new().format_finite(n).to_string();
            match text.split_once('e') {
                Some((digits, exp)) if !exp.starts_with('-') => format!("{digits}e+{exp}"),
                _ => text,
            }
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
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(0.1), "0.1");
        assert_eq!(number(9_007_199_254_740_993.0), "9007199254740992");
        assert_eq!(number(1e21), "1e+21");
        assert_eq!(number(1.5e-7), "1.5e-7");
        assert_eq!(number(123_456.789), "123456.789");
    }
}
