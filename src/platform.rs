//! What the host writes for the rules: a number as JavaScript writes it.
//!
//! In a JS host (wasm32-unknown-unknown) the host writes it (`String(n)`),
//! which keeps Rust's float formatting out of the `.wasm`; on every other
//! target `ryu` (serde_json's number writer) finds the shortest round-trip
//! digits, which are JavaScript's, and they are laid out as JavaScript lays
//! them out. Core's float `Display`, its only use in the component, would
//! be a large part of it. This is the one JS call below the transport.

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
        } else if n == f64::INFINITY {
            "Infinity".into()
        } else if n == f64::NEG_INFINITY {
            "-Infinity".into()
        } else {
            laid_out(n)
        }
    }
}

/// A finite number's shortest round-trip digits (ryu's, as serde_json
/// writes numbers) laid out as JavaScript's `Number::toString` lays them
/// out: every digit below 1e21 (padded with zeros), decimals down to
/// 1e-6, an exponent (`1e+21`, `1.5e-7`) beyond.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn laid_out(n: f64) -> String {
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(n);
    // ryu writes `-`, then `d.ddd`, `ddd.d`, `0.000ddd` or `d.ddde±x`.
    let (sign, text) = text
        .strip_prefix('-')
        .map_or(("", text), |rest| ("-", rest));
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let significant = all.trim_start_matches('0');
    let leading_zeros = (all.len() - significant.len()) as i32;
    let digits = significant.trim_end_matches('0');
    if digits.is_empty() {
        // Zero, and `-0` too, as in JS.
        return "0".into();
    }
    // The value is 0.DIGITS × 10^point.
    let point = whole.len() as i32 + exponent.parse::<i32>().unwrap_or(0) - leading_zeros;
    let count = digits.len() as i32;
    let zeros = |n: i32| "0".repeat(n as usize);
    if count <= point && point <= 21 {
        format!("{sign}{digits}{}", zeros(point - count))
    } else if 0 < point && point <= 21 {
        let (int, decimals) = digits.split_at(point as usize);
        format!("{sign}{int}.{decimals}")
    } else if -6 < point && point <= 0 {
        format!("{sign}0.{}{digits}", zeros(-point))
    } else {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        format!("{sign}{first}{dot}{rest}e{:+}", point - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_numbers_as_javascript_does() {
        // Each value and what Node's `String(value)` writes.
        let cases: [(f64, &str); 30] = [
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (0e0, "0"),
            (-0.0, "0"),
            (1e0, "1"),
            (-1e0, "-1"),
            (1.5e0, "1.5"),
            (1e-1, "0.1"),
            (1e2, "100"),
            (1.23456789e5, "123456.789"),
            (1e21, "1e+21"),
            (-1e21, "-1e+21"),
            (1e20, "100000000000000000000"),
            (9e18, "9000000000000000000"),
            (9.007199254740992e15, "9007199254740992"),
            (9.007199254740994e15, "9007199254740994"),
            (1.152921504606847e18, "1152921504606847000"),
            (-4.611686018427388e18, "-4611686018427388000"),
            (1.2345678901234568e17, "123456789012345680"),
            (1e16, "10000000000000000"),
            (1e-6, "0.000001"),
            (1.5e-6, "0.0000015"),
            (-1e-7, "-1e-7"),
            (1.5e-7, "1.5e-7"),
            (1.23e-4, "0.000123"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (1.2345e-10, "1.2345e-10"),
            (9.999999999999999e20, "999999999999999900000"),
        ];
        for (n, js) in cases {
            assert_eq!(number(n), js, "{n:e}");
        }
    }
}
