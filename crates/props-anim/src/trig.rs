//! A polynomial sine for the fast slerp: no libm call, four lanes at once.
//!
//! `sin x` by its Taylor series to the x^11 term. For `|x| <= pi / 2` the series alternates
//! with terms shrinking in magnitude, so the error is at most the first omitted term,
//! `(pi/2)^13 / 13! < 5.7e-8`, below half an `f32` ulp of 1; relative to `sin x` it is at most
//! `x^12 / 13!`, so small angles are as exact as large ones. Slerp along the shortest path
//! only ever needs angles in `[0, pi / 2]` (half the angle between two unit quaternions
//! whose dot product is not negative).

use glam::Vec4;

/// `1 / n!` for the odd `n` from 3 to 11, with alternating signs.
const C3: f32 = -1.0 / 6.0;
const C5: f32 = 1.0 / 120.0;
const C7: f32 = -1.0 / 5040.0;
const C9: f32 = 1.0 / 362_880.0;
const C11: f32 = -1.0 / 39_916_800.0;

/// `c + sin x` in each lane, for `x` in `[-pi/2, pi/2]` (see the module documentation).
/// The sum is taken as `(c + x) + x^3 p(x^2)` with the polynomial by Estrin's scheme, so
/// the slerp weight's critical path is a few operations shorter than `c + sin x`'s; holding
/// slerp records (`x = 0`, `c = 1`) give exactly 1.
#[inline]
#[must_use]
pub fn plus_sin4(c: Vec4, x: Vec4) -> Vec4 {
    (c + x) + odd_terms(x)
}

/// `sin x` in each lane: bitwise [`plus_sin4`] with `c` zero for lanes not `-0` (`0 + x` is
/// `x` exactly there), one addition fewer.
#[inline]
#[must_use]
pub fn sin4(x: Vec4) -> Vec4 {
    x + odd_terms(x)
}

/// `sin x - x`: the series' terms from `x^3` on, by Estrin's scheme.
#[inline]
fn odd_terms(x: Vec4) -> Vec4 {
    let x2 = x * x;
    let x4 = x2 * x2;
    let low = x2 * C5 + Vec4::splat(C3);
    let high = x2 * C9 + Vec4::splat(C7) + x4 * C11;
    x * x2 * (low + x4 * high)
}

/// `pi / 2` split in two for range reduction (Cody-Waite): the first part has only 8
/// significant bits, so `k * HALF_PI_HIGH` is exact for every quarter count `k` below 2^16.
const HALF_PI_HIGH: f32 = 1.570_312_5;
const HALF_PI_LOW: f32 = 4.838_268e-4;

/// `1 / n!` for the even `n` from 2 to 8, with alternating signs (the cosine's series).
const C2: f32 = -0.5;
const C4: f32 = 1.0 / 24.0;
const C6: f32 = -1.0 / 720.0;
const C8: f32 = 1.0 / 40_320.0;

/// `(sin x, cos x)` in each lane, for any finite `x` of moderate size (a procedural angle:
/// radians, in the thousands at most): `x` is reduced to `r` in `[-pi/4, pi/4]` plus a
/// quarter turn count, then both series are taken on `r` (errors below 1e-7 there) and
/// swapped and signed by the quarter. Branch-free; four lanes at once.
#[inline]
#[must_use]
pub fn sin_cos4(x: Vec4) -> (Vec4, Vec4) {
    let k = (x * (2.0 / std::f32::consts::PI)).round();
    let r = (x - k * HALF_PI_HIGH) - k * HALF_PI_LOW;
    let r2 = r * r;
    let sin = r + odd_terms(r);
    let cos = Vec4::ONE + r2 * (Vec4::splat(C2) + r2 * (Vec4::splat(C4) + r2 * (Vec4::splat(C6) + r2 * C8)));
    // Quarter q = k mod 4: q odd swaps sine and cosine; the signs follow the quadrant.
    let q = k - (k * 0.25).floor() * 4.0;
    let swap = (q - 2.0 * (q * 0.5).floor()).cmpeq(Vec4::ONE);
    let (s, c) = (Vec4::select(swap, cos, sin), Vec4::select(swap, sin, cos));
    let sin_negative = q.cmpge(Vec4::splat(2.0));
    let cos_negative = q.cmpeq(Vec4::ONE) | q.cmpeq(Vec4::splat(2.0));
    (Vec4::select(sin_negative, -s, s), Vec4::select(cos_negative, -c, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bound of the absolute error of [`sin4`] for lanes in `[-pi/2, pi/2]` (before `f32`
    /// rounding of the evaluation itself, which adds a few ulps).
    const SIN_ERROR_BOUND: f32 = 5.7e-8;

    #[test]
    fn sine_is_within_its_bound_on_the_slerp_range() {
        let mut worst = 0.0f64;
        for i in 0..=100_000 {
            let x = std::f64::consts::FRAC_PI_2 * f64::from(i) / 100_000.0;
            let got = f64::from(sin4(Vec4::splat(x as f32)).x);
            let exact = (f64::from(x as f32)).sin();
            worst = worst.max((got - exact).abs());
        }
        // The series bound plus the rounding of a few f32 operations near 1.
        assert!(worst < f64::from(SIN_ERROR_BOUND) + 3.0 * f64::from(f32::EPSILON), "worst error {worst}");
    }

    #[test]
    fn sines_and_cosines_of_any_angle() {
        let mut worst = 0.0f64;
        for i in -20_000..=20_000 {
            let x = i as f32 * 0.001_37;
            let (s, c) = sin_cos4(Vec4::splat(x));
            let exact = f64::from(x);
            worst = worst.max((f64::from(s.x) - exact.sin()).abs()).max((f64::from(c.x) - exact.cos()).abs());
        }
        assert!(worst < 4e-7, "worst error {worst}");
        let (s, c) =
            sin_cos4(Vec4::new(0.0, std::f32::consts::FRAC_PI_2, std::f32::consts::PI, -std::f32::consts::FRAC_PI_2));
        assert!((s - Vec4::new(0.0, 1.0, 0.0, -1.0)).abs().max_element() < 1e-6, "{s}");
        assert!((c - Vec4::new(1.0, 0.0, -1.0, 0.0)).abs().max_element() < 1e-6, "{c}");
    }

    #[test]
    fn small_angles_keep_their_relative_accuracy() {
        for x in [1e-6f32, 1e-4, 0.01, 0.0316] {
            let got = sin4(Vec4::splat(x)).x;
            assert!(((got - x.sin()) / x.sin()).abs() < 2e-7, "{x}: {got}");
        }
    }
}
