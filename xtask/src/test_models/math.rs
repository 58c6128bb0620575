//! glam's `f64` types at the glTF boundary: the test models and assets keep vectors,
//! quaternions and matrices as the arrays glTF writes (matrices column-major, quaternions
//! `[x, y, z, w]`), and compute with `DVec3`, `DQuat` and `DMat4`.

use glam::{DMat4, DQuat, DVec3};

/// A column-major 4x4 matrix, as glTF's `node.matrix` and inverse bind matrices.
pub type Mat4 = [f64; 16];

/// A quaternion `[x, y, z, w]`, as glTF's rotations.
pub type Quat = [f64; 4];

/// Unit quaternion rotating by `degrees` about `axis` (normalized here; a zero axis gives identity).
pub fn quat_axis_angle(axis: [f64; 3], degrees: f64) -> Quat {
    let axis = DVec3::from(axis).normalize_or_zero();
    if axis == DVec3::ZERO {
        return DQuat::IDENTITY.to_array();
    }
    DQuat::from_axis_angle(axis, degrees.to_radians()).to_array()
}

/// Hamilton product `a * b` (apply `b` first, then `a`).
pub fn quat_mul(a: Quat, b: Quat) -> Quat {
    (DQuat::from_array(a) * DQuat::from_array(b)).to_array()
}

/// The same rotation with every component negated (the other cover of SO(3)).
pub fn quat_neg(q: Quat) -> Quat {
    (-DQuat::from_array(q)).to_array()
}

/// 3D dot product.
pub fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    DVec3::from(a).dot(DVec3::from(b))
}

/// 3D cross product.
pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    DVec3::from(a).cross(DVec3::from(b)).to_array()
}

/// `v` scaled to unit length (zero when it is zero).
pub fn normalize3(v: [f64; 3]) -> [f64; 3] {
    DVec3::from(v).normalize_or_zero().to_array()
}

/// `a + s * b`.
pub fn add_scaled(a: [f64; 3], b: [f64; 3], s: f64) -> [f64; 3] {
    (DVec3::from(a) + s * DVec3::from(b)).to_array()
}

/// The matrix `T * R * S` of a glTF node's translation, rotation and scale.
pub fn trs(t: [f64; 3], r: Quat, s: [f64; 3]) -> Mat4 {
    DMat4::from_scale_rotation_translation(s.into(), DQuat::from_array(r), t.into()).to_cols_array()
}

/// Matrix product `a * b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    (DMat4::from_cols_array(a) * DMat4::from_cols_array(b)).to_cols_array()
}

/// Transforms a point (w = 1) by `m`.
pub fn transform_point(m: &Mat4, p: [f64; 3]) -> [f64; 3] {
    DMat4::from_cols_array(m).transform_point3(p.into()).to_array()
}

/// Transforms a direction (w = 0) by `m`.
pub fn transform_vector(m: &Mat4, v: [f64; 3]) -> [f64; 3] {
    DMat4::from_cols_array(m).transform_vector3(v.into()).to_array()
}

/// The inverse of `m`, its zeros positive (as glTF exporters write them); `None` when `m` is
/// (numerically) singular.
pub fn inverse(m: &Mat4) -> Option<Mat4> {
    let m = DMat4::from_cols_array(m);
    (m.determinant().abs() >= 1e-12).then(|| m.inverse().to_cols_array().map(|x| x + 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(a: &Mat4, b: &Mat4) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-12, "{a:?} != {b:?}");
        }
    }

    #[test]
    fn inverse_of_trs_round_trips() {
        let m = trs([1.0, -2.0, 0.5], quat_axis_angle([1.0, 2.0, -0.5], 37.0), [1.5, 0.5, 2.0]);
        let inv = inverse(&m).expect("invertible");
        let identity = DMat4::IDENTITY.to_cols_array();
        assert_close(&mul(&m, &inv), &identity);
        assert_close(&mul(&inv, &m), &identity);
        assert!(inverse(&trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 1.0])).is_none(), "a flat scale is singular");
    }

    #[test]
    fn trs_rotates_like_quaternion() {
        let m = trs([0.0; 3], quat_axis_angle([0.0, 0.0, 1.0], 90.0), [1.0; 3]);
        let p = transform_point(&m, [1.0, 0.0, 0.0]);
        assert!((p[0]).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12);
        let q = quat_mul(quat_axis_angle([0.0, 0.0, 1.0], 30.0), quat_axis_angle([0.0, 0.0, 1.0], 60.0));
        for (a, b) in q.iter().zip(quat_axis_angle([0.0, 0.0, 1.0], 90.0)) {
            assert!((a - b).abs() < 1e-12);
        }
    }
}
