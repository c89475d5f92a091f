//! A JSON number's text read as the nearest double (round half to even), as `str::parse::<f64>`
//! reads it, in the browser's modules without the standard library's reader: its table of 651
//! powers of five (10 KB that gzip cannot shrink) and its decimal slow path weighed about
//! 13 KB gzipped in each module (docs/performance.md § wasm size). Numbers of at most 15
//! significant digits and a power of ten up to 22 are one exact multiplication or division
//! (correctly rounded by the hardware); the others are divided exactly in big integers, which
//! is slower but seldom needed by a page. Node's module, Python and the command line keep the
//! standard reader (built with the core's `full` feature), which a test holds this one to.

/// The nearest double to the JSON number `text` (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
/// infinite when it is beyond the largest double, as `text.parse::<f64>()`; `None` for text
/// that is not a JSON number.
pub fn parse_f64(text: &str) -> Option<f64> {
    #[cfg(feature = "full")]
    {
        text.parse::<f64>().ok()
    }
    #[cfg(not(feature = "full"))]
    {
        read(text)
    }
}

/// The sign and digits of a number and its power of ten: `digits × 10^exponent`.
struct Decimal {
    negative: bool,
    /// The significant digits (ASCII, no leading or trailing zero; empty for zero).
    digits: Vec<u8>,
    exponent: i64,
}

/// The significant digits read exactly; the rest only count as non-zero or not.
const KEPT_DIGITS: usize = 800;

/// The largest exponent kept exactly (beyond it the value is 0 or infinite anyway).
const EXPONENT_CAP: i64 = 1_000_000;

/// Reads the JSON number grammar into a [`Decimal`] (`None`: not a JSON number).
fn decimal(text: &str) -> Option<Decimal> {
    let bytes = text.as_bytes();
    let (negative, rest) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    let int_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (int, rest) = rest.split_at(int_len);
    if int.is_empty() || (int.len() > 1 && int.first() == Some(&b'0')) {
        return None;
    }
    let (frac, rest) = match rest.split_first() {
        Some((b'.', after)) => {
            let len = after.iter().take_while(|b| b.is_ascii_digit()).count();
            if len == 0 {
                return None;
            }
            after.split_at(len)
        }
        _ => (&[][..], rest),
    };
    let mut exponent: i64 = 0;
    if let Some((b'e' | b'E', after)) = rest.split_first() {
        let (minus, after) = match after.split_first() {
            Some((b'-', more)) => (true, more),
            Some((b'+', more)) => (false, more),
            _ => (false, after),
        };
        if after.is_empty() || !after.iter().all(u8::is_ascii_digit) {
            return None;
        }
        for &b in after {
            let digit = i64::from(b.wrapping_sub(b'0'));
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(digit)
                .min(EXPONENT_CAP);
        }
        if minus {
            exponent = exponent.saturating_neg();
        }
    } else if !rest.is_empty() {
        return None;
    }
    let frac_len = i64::try_from(frac.len()).ok()?;
    exponent = exponent.saturating_sub(frac_len);
    let mut digits: Vec<u8> = int
        .iter()
        .chain(frac)
        .copied()
        .skip_while(|&b| b == b'0')
        .collect();
    while digits.last() == Some(&b'0') {
        digits.pop();
        exponent = exponent.saturating_add(1);
    }
    // Beyond KEPT_DIGITS only whether a dropped digit is non-zero can matter (a double and
    // every halfway point between two has at most 767 significant digits): they become one
    // sticky digit, so a number of a million digits costs no more than one of 800.
    if let Some(rest) = digits.get(KEPT_DIGITS..) {
        let sticky = rest.iter().any(|&b| b != b'0');
        let dropped = i64::try_from(rest.len()).unwrap_or(i64::MAX);
        exponent = exponent.saturating_add(dropped);
        digits.truncate(KEPT_DIGITS);
        if sticky {
            digits.push(b'1');
            exponent = exponent.saturating_sub(1);
        }
    }
    Some(Decimal {
        negative,
        digits,
        exponent,
    })
}

/// The exact powers of ten a double holds (10^0 ..= 10^22).
const EXACT_POWERS: usize = 23;

/// The reader without the standard library's (see the module's comment).
#[cfg_attr(feature = "full", allow(dead_code))]
pub(crate) fn read(text: &str) -> Option<f64> {
    let Decimal {
        negative,
        digits,
        exponent,
    } = decimal(text)?;
    let magnitude = magnitude(&digits, exponent);
    Some(if negative { -magnitude } else { magnitude })
}

/// The nearest double to `digits × 10^exponent` (`digits` without leading or trailing zeros).
fn magnitude(digits: &[u8], exponent: i64) -> f64 {
    if digits.is_empty() {
        return 0.0;
    }
    let count = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    // the value is within [10^(scale-1), 10^scale)
    let scale = count.saturating_add(exponent);
    if scale > 310 {
        return f64::INFINITY;
    }
    if scale < -324 {
        return 0.0;
    }
    if digits.len() <= 15 {
        let small = digits.iter().fold(0u64, |n, &d| {
            n.wrapping_mul(10).wrapping_add(digit(d).into())
        });
        if let Ok(power) = usize::try_from(exponent.unsigned_abs()) {
            if power < EXACT_POWERS {
                let ten = (0..power).fold(1.0f64, |p, _| p * 10.0); // exact up to 10^22
                                                                    // both exact: one correctly rounded operation
                return if exponent >= 0 {
                    small as f64 * ten
                } else {
                    small as f64 / ten
                };
            }
        }
    }
    let mut numerator = Big::from_digits(digits);
    let mut denominator = Big::one();
    let power = u32::try_from(exponent.unsigned_abs()).unwrap_or(u32::MAX);
    if exponent >= 0 {
        numerator.mul_pow10(power);
    } else {
        denominator.mul_pow10(power);
    }
    // a quotient of 63 or 64 bits: value = (quotient + remainder) × 2^-shift
    let shift = 63i64
        .saturating_sub(i64::from(numerator.bits()))
        .saturating_add(i64::from(denominator.bits()));
    if shift >= 0 {
        numerator.shl(u32::try_from(shift).unwrap_or(u32::MAX));
    } else {
        denominator.shl(u32::try_from(shift.unsigned_abs()).unwrap_or(u32::MAX));
    }
    let (quotient, inexact) = numerator.divide(&denominator);
    round(quotient, shift.saturating_neg(), inexact)
}

/// The nearest double to `(m + f) × 2^exp` where `0 ≤ f < 1` and `f > 0` exactly when
/// `inexact` (ties to even).
fn round(m: u64, exp: i64, inexact: bool) -> f64 {
    if m == 0 {
        return 0.0;
    }
    let bits = i64::from(64u32.saturating_sub(m.leading_zeros()));
    let top = bits.saturating_sub(1).saturating_add(exp);
    let ulp = top.saturating_sub(52).max(-1074);
    let drop = ulp.saturating_sub(exp);
    let kept = match u32::try_from(drop) {
        Err(_) if drop <= 0 => {
            u128::from(m).wrapping_shl(u32::try_from(drop.unsigned_abs()).unwrap_or(0))
        }
        Ok(0) => u128::from(m),
        Ok(drop @ 1..=64) => {
            let wide = u128::from(m);
            let kept = wide.wrapping_shr(drop);
            let half_at = drop.wrapping_sub(1);
            let half = wide.wrapping_shr(half_at) & 1 == 1;
            let below = wide & 1u128.wrapping_shl(half_at).wrapping_sub(1) != 0 || inexact;
            if half && (below || kept & 1 == 1) {
                kept.wrapping_add(1)
            } else {
                kept
            }
        }
        _ => 0,
    };
    // kept < 2^54: exact as a double; the scaling by a power of two is exact or overflows
    #[allow(clippy::cast_precision_loss)]
    let kept = kept as f64;
    kept * power_of_two(ulp)
}

/// 2^exp as a double (`exp` ≥ −1074; infinite past 2^1023).
fn power_of_two(exp: i64) -> f64 {
    if exp > 1023 {
        f64::INFINITY
    } else if exp >= -1022 {
        f64::from_bits(
            u64::try_from(exp.wrapping_add(1023))
                .unwrap_or(0)
                .wrapping_shl(52),
        )
    } else {
        let at = u32::try_from(exp.wrapping_add(1074)).unwrap_or(0).min(51);
        f64::from_bits(1u64.wrapping_shl(at))
    }
}

/// The value of an ASCII digit.
fn digit(d: u8) -> u32 {
    u32::from(d.wrapping_sub(b'0'))
}

/// The low 32 bits.
fn low(n: u64) -> u32 {
    u32::try_from(n & 0xffff_ffff).unwrap_or(0)
}

/// An unsigned big integer, little-endian 32-bit limbs.
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut big = Big(vec![0]);
        for chunk in digits.chunks(9) {
            let value = chunk
                .iter()
                .fold(0u32, |n, &d| n.wrapping_mul(10).wrapping_add(digit(d)));
            let scale = (0..chunk.len()).fold(1u32, |p, _| p.wrapping_mul(10));
            big.mul_add(scale, value);
        }
        big
    }

    /// self = self × factor + add.
    fn mul_add(&mut self, factor: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            // below 2^64: (2^32 − 1)^2 + 2^32
            let product = u64::from(*limb)
                .wrapping_mul(u64::from(factor))
                .wrapping_add(carry);
            *limb = low(product);
            carry = product.wrapping_shr(32);
        }
        if carry > 0 {
            self.0.push(low(carry));
        }
    }

    fn mul_pow10(&mut self, mut power: u32) {
        while power >= 9 {
            self.mul_add(1_000_000_000, 0);
            power = power.wrapping_sub(9);
        }
        self.mul_add((0..power).fold(1u32, |p, _| p.wrapping_mul(10)), 0);
    }

    /// The number of bits (0 for zero).
    fn bits(&self) -> u32 {
        match self.0.iter().rposition(|&l| l != 0) {
            Some(top) => {
                let above = u32::try_from(top).unwrap_or(u32::MAX).wrapping_add(1);
                let zeros = self.0.get(top).map_or(32, |l| l.leading_zeros());
                above.wrapping_mul(32).wrapping_sub(zeros)
            }
            None => 0,
        }
    }

    fn shl(&mut self, by: u32) {
        let limbs = usize::try_from(by.wrapping_shr(5)).unwrap_or(0);
        let bits = by & 31;
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let next = limb.wrapping_shr(32u32.wrapping_sub(bits));
                *limb = limb.wrapping_shl(bits) | carry;
                carry = next;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    fn shr1(&mut self) {
        let mut carry = 0u32;
        for limb in self.0.iter_mut().rev() {
            let next = limb.wrapping_shl(31);
            *limb = limb.wrapping_shr(1) | carry;
            carry = next;
        }
    }

    fn at_least(&self, other: &Big) -> bool {
        let len = self.0.len().max(other.0.len());
        for i in (0..len).rev() {
            let a = self.0.get(i).copied().unwrap_or(0);
            let b = other.0.get(i).copied().unwrap_or(0);
            if a != b {
                return a > b;
            }
        }
        true
    }

    fn sub(&mut self, other: &Big) {
        let mut borrow = false;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let b = other.0.get(i).copied().unwrap_or(0);
            let (d, o1) = limb.overflowing_sub(b);
            let (d, o2) = d.overflowing_sub(u32::from(borrow));
            *limb = d;
            borrow = o1 || o2;
        }
    }

    /// The quotient (below 2^64 by the caller's scaling) and whether a remainder is left.
    fn divide(mut self, divisor: &Big) -> (u64, bool) {
        let mut shifted = Big(divisor.0.clone());
        shifted.shl(63);
        let mut quotient = 0u64;
        for bit in (0..64).rev() {
            if self.at_least(&shifted) {
                self.sub(&shifted);
                quotient |= 1u64.wrapping_shl(bit);
            }
            shifted.shr1();
        }
        (quotient, self.0.iter().any(|&l| l != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same(text: &str) {
        let want = text.parse::<f64>().ok();
        let got = read(text);
        assert_eq!(
            got.map(f64::to_bits),
            want.map(f64::to_bits),
            "{text}: {got:?} against {want:?}"
        );
    }

    #[test]
    fn reads_the_edges_as_the_standard_reader() {
        for text in [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "1",
            "-1",
            "1.5",
            "0.1",
            "0.3",
            "0.30000000000000004",
            "123456789012345",
            "1234567890123456",
            "12345678901234567",
            "9007199254740993",
            "9007199254740995",
            "4503599627370497.5",
            "4503599627370498.5",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000033306690738754696212708950042724609375",
            "9007199254740992",
            "9007199254740991",
            "18446744073709551615",
            "18446744073709551616",
            "1e22",
            "1e23",
            "1e-22",
            "1e-23",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e308",
            "1e309",
            "1e310",
            "1e311",
            "2e-323",
            "5e-324",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "2.225073858507201136057409796709131975934819546351645648e-308",
            "1e-324",
            "1e-400",
            "1e-1000000000000",
            "1e1000000000000",
            "0e99999",
            "123e-45",
            "8.98846567431158e307",
            "4.5035996273704985e15",
            "0.1e1",
            "100e-2",
            "7.038531e-26",
            "9.999999999999999e22",
            "2.00000000000000011102230246251565404236316680908203125",
            "2.00000000000000011102230246251565404236316680908203124",
            "2.00000000000000011102230246251565404236316680908203126",
        ] {
            same(text);
        }
        for text in [
            "", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1x", "inf", "NaN", " 1",
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    #[test]
    fn reads_a_number_of_many_digits_as_the_standard_reader_at_once() {
        // 200,000 significant digits: without the sticky digit, minutes of big-integer work.
        let long = "7".repeat(200_000);
        for text in [
            format!("{long}e-200000"),
            format!("0.{long}"),
            long.clone(),
            format!("1.{}1e-300", "0".repeat(200_000)),
            format!("2.2250738585072011{}e-308", "0".repeat(5_000)),
            format!("2.2250738585072011{}1e-308", "0".repeat(5_000)),
        ] {
            same(&text);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

        #[test]
        fn reads_a_halfway_point_given_with_many_digits_and_just_above_it(
            m in (1u128 << 52)..(1u128 << 53),
            k in 0u32..60,
            zeros in 780usize..1200,
        ) {
            // (2m + 1) × 2^k is halfway between the consecutive doubles 2m × 2^k and
            // (2m + 2) × 2^k: read as is it ties to even; with a 1 far behind it, it rounds up.
            let tie = m.wrapping_mul(2).wrapping_add(1).wrapping_shl(k);
            same(&format!("{tie}.{}", "0".repeat(zeros)));
            same(&format!("{tie}.{}1", "0".repeat(zeros)));
            same(&format!("{tie}{}e-{zeros}", "0".repeat(zeros)));
            same(&format!("{tie}{}1e-{}", "0".repeat(zeros), zeros.wrapping_add(1)));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

        #[test]
        fn reads_any_double_written_as_the_standard_reader(bits in any::<u64>()) {
            let f = f64::from_bits(bits);
            if f.is_finite() {
                same(&format!("{f:?}"));
                same(&format!("{f:e}"));
                same(&format!("{f:.20e}"));
            }
        }

        #[test]
        fn reads_any_number_text_as_the_standard_reader(
            text in "-?(0|[1-9][0-9]{0,30})(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,3})?",
        ) {
            same(&text);
        }
    }
}
