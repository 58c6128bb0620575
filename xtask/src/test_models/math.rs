//! Minimal `f64` linear algebra for building the test models.
//!
//! Matrices are 4x4, column-major (the layout of glTF `node.matrix` and of inverse bind matrices);
//! quaternions are `[x, y, z, w]` like glTF rotations.

/// A column-major 4x4 matrix.
pub type Mat4 = [f64; 16];

/// A quaternion `[x, y, z, w]`.
pub type Quat = [f64; 4];

/// The 4x4 identity matrix.
pub const IDENTITY: Mat4 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

/// Unit quaternion rotating by `degrees` about `axis` (normalized here; a zero axis gives identity).
pub fn quat_axis_angle(axis: [f64; 3], degrees: f64) -> Quat {
    let len = dot3(axis, axis).sqrt();
    if len == 0.0 {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let (s, c) = (degrees.to_radians() / 2.0).sin_cos();
    [axis[0] / len * s, axis[1] / len * s, axis[2] / len * s, c]
}

/// Hamilton product `a * b` (apply `b` first, then `a`).
pub fn quat_mul(a: Quat, b: Quat) -> Quat {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

/// The same rotation with every component negated (the other cover of SO(3)).
pub fn quat_neg(q: Quat) -> Quat {
    q.map(|c| -c)
}

/// 3D dot product.
pub fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// 3D cross product.
pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `v` scaled to unit length (returned unchanged when it is zero).
pub fn normalize3(v: [f64; 3]) -> [f64; 3] {
    let len = dot3(v, v).sqrt();
    if len == 0.0 { v } else { v.map(|c| c / len) }
}

/// `a + s * b`.
pub fn add_scaled(a: [f64; 3], b: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]]
}

/// The matrix `T * R * S` of a glTF node's translation, rotation and scale.
pub fn trs(t: [f64; 3], r: Quat, s: [f64; 3]) -> Mat4 {
    let [x, y, z, w] = r;
    let rot = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w)],
        [2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w)],
        [2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let mut m = IDENTITY;
    for (col, axis) in rot.iter().enumerate() {
        for (row, value) in axis.iter().enumerate() {
            m[col * 4 + row] = value * s[col];
        }
    }
    m[12..15].copy_from_slice(&t);
    m
}

/// Matrix product `a * b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut m = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            m[col * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum();
        }
    }
    m
}

/// Transforms a point (w = 1) by `m`.
pub fn transform_point(m: &Mat4, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|row| m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row])
}

/// Transforms a direction (w = 0) by `m`.
pub fn transform_vector(m: &Mat4, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|row| m[row] * v[0] + m[4 + row] * v[1] + m[8 + row] * v[2])
}

/// General 4x4 inverse by 2x2-minor (Laplace) expansion; `None` when `m` is (numerically) singular.
pub fn inverse(m: &Mat4) -> Option<Mat4> {
    // The expansion is written for `a(i, j)` = element i, j of a matrix stored at `m[4 * i + j]`;
    // it is layout-agnostic (inverse and transpose commute) as long as the result is stored alike.
    let a = |i: usize, j: usize| m[4 * i + j];
    let s = [
        a(0, 0) * a(1, 1) - a(1, 0) * a(0, 1),
        a(0, 0) * a(1, 2) - a(1, 0) * a(0, 2),
        a(0, 0) * a(1, 3) - a(1, 0) * a(0, 3),
        a(0, 1) * a(1, 2) - a(1, 1) * a(0, 2),
        a(0, 1) * a(1, 3) - a(1, 1) * a(0, 3),
        a(0, 2) * a(1, 3) - a(1, 2) * a(0, 3),
    ];
    let c = [
        a(2, 0) * a(3, 1) - a(3, 0) * a(2, 1),
        a(2, 0) * a(3, 2) - a(3, 0) * a(2, 2),
        a(2, 0) * a(3, 3) - a(3, 0) * a(2, 3),
        a(2, 1) * a(3, 2) - a(3, 1) * a(2, 2),
        a(2, 1) * a(3, 3) - a(3, 1) * a(2, 3),
        a(2, 2) * a(3, 3) - a(3, 2) * a(2, 3),
    ];
    let det = s[0] * c[5] - s[1] * c[4] + s[2] * c[3] + s[3] * c[2] - s[4] * c[1] + s[5] * c[0];
    if det.abs() < 1e-12 {
        return None;
    }
    let b = [
        a(1, 1) * c[5] - a(1, 2) * c[4] + a(1, 3) * c[3],
        -a(0, 1) * c[5] + a(0, 2) * c[4] - a(0, 3) * c[3],
        a(3, 1) * s[5] - a(3, 2) * s[4] + a(3, 3) * s[3],
        -a(2, 1) * s[5] + a(2, 2) * s[4] - a(2, 3) * s[3],
        -a(1, 0) * c[5] + a(1, 2) * c[2] - a(1, 3) * c[1],
        a(0, 0) * c[5] - a(0, 2) * c[2] + a(0, 3) * c[1],
        -a(3, 0) * s[5] + a(3, 2) * s[2] - a(3, 3) * s[1],
        a(2, 0) * s[5] - a(2, 2) * s[2] + a(2, 3) * s[1],
        a(1, 0) * c[4] - a(1, 1) * c[2] + a(1, 3) * c[0],
        -a(0, 0) * c[4] + a(0, 1) * c[2] - a(0, 3) * c[0],
        a(3, 0) * s[4] - a(3, 1) * s[2] + a(3, 3) * s[0],
        -a(2, 0) * s[4] + a(2, 1) * s[2] - a(2, 3) * s[0],
        -a(1, 0) * c[3] + a(1, 1) * c[1] - a(1, 2) * c[0],
        a(0, 0) * c[3] - a(0, 1) * c[1] + a(0, 2) * c[0],
        -a(3, 0) * s[3] + a(3, 1) * s[1] - a(3, 2) * s[0],
        a(2, 0) * s[3] - a(2, 1) * s[1] + a(2, 2) * s[0],
    ];
    Some(b.map(|x| x / det))
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
        assert_close(&mul(&m, &inv), &IDENTITY);
        assert_close(&mul(&inv, &m), &IDENTITY);
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
