//! Whether an integer literal is how a double is written, decided without Rust's float
//! formatting (`format!("{f}")`, `format!("{f:.0}")`), whose code is a large part of a small
//! module (docs/performance.md § wasm size): the shortest digits come from the writer
//! the numbers already use (`zmij`), the exact value from the double's bits. The answers are
//! the formatting's, byte for byte (a property test compares them on random integers).
//!
//! The arithmetic is on a double's 53-bit mantissa, its exponent (at most 1,023) and limbs
//! below 10^9 multiplied by at most 2^30: no sum or product here can overflow its type.
#![allow(clippy::arithmetic_side_effects)]

/// The text `format!("{f}")` writes for a finite, whole double `f` (no exponent, no
/// fraction: `1152921504606847000` for 2^60), or `None` when `f` is not finite or not whole.
pub fn shortest_whole(f: f64) -> Option<String> {
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    let mut buffer = zmij::Buffer::new();
    let written = buffer.format_finite(f);
    let (negative, written) = match written.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, written),
    };
    let (mantissa, exponent) = match written.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().ok()?),
        None => (written, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The value is 0.DIGITS × 10^point.
    let all: String = whole.chars().chain(fraction.chars()).collect();
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_matches('0');
    if digits.is_empty() {
        return Some(if negative { "-0" } else { "0" }.to_owned());
    }
    let point = i64::try_from(whole.len()).ok()? - i64::try_from(leading).ok()? + exponent;
    let zeros = usize::try_from(point).ok()?.checked_sub(digits.len())?;
    let mut out = String::with_capacity(digits.len() + zeros + 1);
    if negative {
        out.push('-');
    }
    out.push_str(digits);
    out.extend(std::iter::repeat_n('0', zeros));
    Some(out)
}

/// The text `format!("{f:.0}")` writes for a finite, whole double `f`: its exact value in
/// decimal (`1152921504606846976` for 2^60), or `None` when `f` is not finite or not whole.
pub fn exact_whole(f: f64) -> Option<String> {
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    let bits = f.to_bits();
    let biased = i64::try_from((bits >> 52) & 0x7ff).ok()?;
    let fraction = bits & ((1 << 52) - 1);
    let (mut mantissa, mut shift) = match biased {
        0 => (fraction, -1074),
        _ => (fraction | (1 << 52), biased - 1075),
    };
    if shift < 0 {
        // Whole: the bits below the point are zeros.
        mantissa >>= u32::try_from(-shift).ok()?.min(63);
        shift = 0;
    }
    // Little-endian limbs of nine decimal digits.
    const LIMB: u64 = 1_000_000_000;
    let mut limbs = vec![
        mantissa % LIMB,
        mantissa / LIMB % LIMB,
        mantissa / LIMB / LIMB,
    ];
    while shift > 0 {
        let step = shift.min(30);
        shift -= step;
        let mut carry = 0u64;
        for limb in &mut limbs {
            let product = (*limb << step) + carry;
            *limb = product % LIMB;
            carry = product / LIMB;
        }
        while carry > 0 {
            limbs.push(carry % LIMB);
            carry /= LIMB;
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut out = String::with_capacity(limbs.len() * 9 + 1);
    if f.is_sign_negative() {
        out.push('-');
    }
    let mut first = true;
    for limb in limbs.iter().rev() {
        let text = limb.to_string();
        if !first {
            out.extend(std::iter::repeat_n('0', 9 - text.len()));
        }
        out.push_str(&text);
        first = false;
    }
    Some(out)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::{exact_whole, shortest_whole};
    use proptest::prelude::*;

    /// Both writers against Rust's formatting of the same double.
    fn same_as_format(f: f64) -> Result<(), TestCaseError> {
        let whole = f.is_finite() && f.fract() == 0.0;
        prop_assert_eq!(shortest_whole(f), whole.then(|| format!("{f}")), "{:e}", f);
        prop_assert_eq!(exact_whole(f), whole.then(|| format!("{f:.0}")), "{:e}", f);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        #[test]
        fn any_double_writes_as_format_writes_it(bits in any::<u64>()) {
            same_as_format(f64::from_bits(bits))?;
        }

        #[test]
        fn integer_texts_read_as_doubles_write_as_format_writes_them(
            negative in any::<bool>(),
            digits in "[1-9][0-9]{0,30}",
            zeros in 0usize..320,
        ) {
            let text = format!("{}{digits}{}", if negative { "-" } else { "" }, "0".repeat(zeros));
            let f = text.parse::<f64>().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            same_as_format(f)?;
        }

        #[test]
        fn powers_of_two_write_as_format_writes_them(power in 0i32..1100, scale in 1u32..64) {
            same_as_format(2f64.powi(power) * f64::from(scale))?;
        }
    }

    #[test]
    fn the_edges_write_as_format_writes_them() -> Result<(), TestCaseError> {
        for f in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            5e-324,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            9_007_199_254_740_993.0,
            1e15,
            1e16,
            1e21,
            1e22,
            1e23,
            2f64.powi(53),
            2f64.powi(60),
            2f64.powi(63),
            2f64.powi(64),
        ] {
            same_as_format(f)?;
        }
        Ok(())
    }
}
