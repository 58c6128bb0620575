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

/// Bound of the absolute error of [`sin4`] for lanes in `[-pi/2, pi/2]` (before `f32`
/// rounding of the evaluation itself, which adds a few ulps).
pub const SIN_ERROR_BOUND: f32 = 5.7e-8;

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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn small_angles_keep_their_relative_accuracy() {
        for x in [1e-6f32, 1e-4, 0.01, 0.0316] {
            let got = sin4(Vec4::splat(x)).x;
            assert!(((got - x.sin()) / x.sin()).abs() < 2e-7, "{x}: {got}");
        }
    }
}
