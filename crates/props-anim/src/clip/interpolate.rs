//! Interpolation of keyed values: step, linear / shortest-path slerp, cubic Hermite, given
//! the [`Segment`] a time falls in.

use glam::{Quat, Vec3, Vec4};

use crate::keys::Segment;

/// How a sampler interpolates between keys (glTF `sampler.interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Hold the value of the previous key.
    Step,
    /// Linear; spherical linear (shortest path) for rotations.
    Linear,
    /// Cubic Hermite spline; each key stores in-tangent, value, out-tangent.
    CubicSpline,
}

impl Interpolation {
    /// Values stored per key and component: 3 for cubic splines, 1 otherwise.
    #[must_use]
    pub fn values_per_key(self) -> usize {
        match self {
            Self::CubicSpline => 3,
            Self::Step | Self::Linear => 1,
        }
    }
}

/// Above this cosine between two keys, `acos` of their dot product loses precision: the
/// slerp is then taken by [`close_slerp`].
pub(crate) const CLOSE_COSINE: f32 = 0.9995;

/// Spherical linear interpolation along the shortest path (the second quaternion is negated
/// when the dot product is negative), as the glTF specification defines it, at every angle.
///
/// The angle comes from `acos` of the dot product and its sine from `sin(angle)`, never
/// `sqrt(1 - d*d)`, which cancels badly in `f32`; keys closer than cos 0.9995 take the angle
/// from their chord instead and are normalized after interpolation. Inputs are otherwise
/// used as stored; identical inputs are returned unchanged.
#[must_use]
pub fn slerp(a: Quat, b: Quat, u: f32) -> Quat {
    if a == b {
        return a;
    }
    let (a, mut b) = (Vec4::from(a), Vec4::from(b));
    let mut dot = a.dot(b);
    if dot < 0.0 {
        b = -b;
        dot = -dot;
    }
    if dot >= CLOSE_COSINE {
        return Quat::from_vec4(close_slerp(a, b, u));
    }
    let theta = dot.acos();
    let sin = theta.sin();
    let wa = ((1.0 - u) * theta).sin() / sin;
    let wb = (u * theta).sin() / sin;
    Quat::from_vec4(a * wa + b * wb)
}

/// Normalized lerp along the shortest path: `a (1 - w) + b' w`, normalized, where `b'` is
/// `b` or `-b`, whichever is nearer `a`. How layers blend rotations (cheaper than a slerp,
/// and the same at the ends and the midpoint); the fast path does the same arithmetic per
/// lane.
#[must_use]
pub fn nlerp(a: Quat, b: Quat, w: f32) -> Quat {
    let (a, b) = (Vec4::from(a), Vec4::from(b));
    let b = if a.dot(b) < 0.0 { -b } else { b };
    let q = a * (1.0 - w) + b * w;
    Quat::from_vec4(q / q.dot(q).sqrt())
}

/// `s / r` per component, 1 where `r` is 0: the scale change of an additive layer.
#[must_use]
pub fn scale_ratio(s: Vec3, r: Vec3) -> Vec3 {
    Vec3::select(r.cmpeq(Vec3::ZERO), Vec3::ONE, s / r)
}

/// Slerp between keys at most `acos(CLOSE_COSINE)` (0.032 rad) apart, about as cheap as a
/// normalized lerp and on the great circle: with `t = 2 asin(|a - b| / 2)` the angle, the
/// weights `sin((1-u) t) / t` and `sin(u t) / t` by their series in `t^2` (exact to `f32`
/// rounding at these angles, no square root, and `1 - u`, `u` as `t` vanishes), the result
/// normalized. For unit keys that is the slerp; for keys off unit length (quantized) their
/// lengths weigh in as in a normalized lerp.
fn close_slerp(a: Vec4, b: Vec4, u: f32) -> Vec4 {
    // (t/2)^2 = asin(h)^2 = h^2 (1 + h^2/3 + 8 h^4/45 + ...) for h = |a - b| / 2 <= 0.016.
    let h2 = (a - b).length_squared() * 0.25;
    let angle2 = 4.0 * h2 * (1.0 + h2 * (1.0 / 3.0 + h2 * (8.0 / 45.0)));
    // sin(x) / x = 1 - x^2/6 + x^4/120 for x <= 0.032.
    let weight = |f: f32| {
        let x2 = f * f * angle2;
        f * (1.0 - x2 * (1.0 / 6.0 - x2 * (1.0 / 120.0)))
    };
    (a * weight(1.0 - u) + b * weight(u)).normalize()
}

/// Cubic Hermite basis weights `(h00, h10, h01, h11)` at `u`.
fn hermite_basis(u: f32) -> (f32, f32, f32, f32) {
    let u2 = u * u;
    let u3 = u2 * u;
    (2.0 * u3 - 3.0 * u2 + 1.0, u3 - 2.0 * u2 + u, -2.0 * u3 + 3.0 * u2, u3 - u2)
}

/// The glTF cubic spline between value `v0` (out-tangent `b0`) and value `v1` (in-tangent
/// `a1`), with tangents scaled by the key interval `dt`.
fn hermite<T>(v0: T, b0: T, v1: T, a1: T, u: f32, dt: f32) -> T
where
    T: std::ops::Mul<f32, Output = T> + std::ops::Add<Output = T>,
{
    let (h00, h10, h01, h11) = hermite_basis(u);
    v0 * h00 + b0 * (h10 * dt) + v1 * h01 + a1 * (h11 * dt)
}

/// Samples vector keys (translation or scale).
#[must_use]
pub fn vec3(values: &[Vec3], interpolation: Interpolation, segment: Segment, dt: f32) -> Vec3 {
    sample(values, interpolation, segment, dt, Vec3::lerp)
}

/// Samples rotation keys; cubic results are normalized, as the spec asks.
#[must_use]
pub fn quat(values: &[Quat], interpolation: Interpolation, segment: Segment, dt: f32) -> Quat {
    let q = sample(values, interpolation, segment, dt, slerp);
    match (interpolation, segment) {
        // Keys a half-turn apart can meet at zero (the identity then, as three.js gives).
        (Interpolation::CubicSpline, Segment::Between { .. }) => Quat::from_vec4(Vec4::from(q).normalize_or(Vec4::W)),
        _ => q,
    }
}

fn sample<T>(values: &[T], interpolation: Interpolation, segment: Segment, dt: f32, lerp: impl Fn(T, T, f32) -> T) -> T
where
    T: Copy + std::ops::Mul<f32, Output = T> + std::ops::Add<Output = T>,
{
    let stride = interpolation.values_per_key();
    // For cubic splines the value is the middle of (in-tangent, value, out-tangent).
    let value = |key: usize| values[key * stride + stride / 2];
    match segment {
        Segment::Hold { index } => value(index),
        Segment::Between { index, u } => match interpolation {
            Interpolation::Step => value(index),
            Interpolation::Linear => lerp(value(index), value(index + 1), u),
            Interpolation::CubicSpline => {
                let out_tangent = values[index * 3 + 2];
                let in_tangent = values[(index + 1) * 3];
                hermite(value(index), out_tangent, value(index + 1), in_tangent, u, dt)
            }
        },
    }
}

/// Samples morph weight keys (`width` weights per element) into `out`.
pub fn weights(values: &[f32], width: usize, interpolation: Interpolation, segment: Segment, dt: f32, out: &mut [f32]) {
    let stride = interpolation.values_per_key();
    let element = |e: usize| &values[e * width..(e + 1) * width];
    let value = |key: usize| element(key * stride + stride / 2);
    match segment {
        Segment::Hold { index } => out.copy_from_slice(value(index)),
        Segment::Between { index, u } => match interpolation {
            Interpolation::Step => out.copy_from_slice(value(index)),
            Interpolation::Linear => {
                for ((o, &a), &b) in out.iter_mut().zip(value(index)).zip(value(index + 1)) {
                    *o = a + (b - a) * u;
                }
            }
            Interpolation::CubicSpline => {
                let (v0, b0) = (value(index), element(index * 3 + 2));
                let (v1, a1) = (value(index + 1), element((index + 1) * 3));
                for (k, o) in out.iter_mut().enumerate() {
                    *o = hermite(v0[k], b0[k], v1[k], a1[k], u, dt);
                }
            }
        },
    }
}
