//! Affine matrices as three rows of four (the GPU's 3x4 layout) for the fast path: products
//! of rows come out already in the packed form, so palettes need no transpose.

use glam::{Affine3A, Vec4};
#[cfg(test)]
use glam::{Quat, Vec3A};

use crate::JointMatrix;

/// A 3x4 row-major affine matrix in SIMD registers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rows(pub [Vec4; 3]);

impl Rows {
    /// The identity.
    pub const IDENTITY: Self = Self([Vec4::X, Vec4::Y, Vec4::Z]);

    /// From glam's column form.
    pub fn from_affine(m: &Affine3A) -> Self {
        Self(JointMatrix::from_affine(m).rows.map(Vec4::from_array))
    }

    /// `T * R * S`, with glam's quaternion-to-matrix formula (the reference [`crate::rows4::Rows4::from_trs`]
    /// is tested against) (so the same as
    /// `Affine3A::from_scale_rotation_translation` up to rounding); `scaled` false skips the
    /// scale (known to be 1).
    #[cfg(test)]
    pub fn from_trs(translation: Vec3A, rotation: Quat, scale: Vec3A, scaled: bool) -> Self {
        let (x, y, z, w) = (rotation.x, rotation.y, rotation.z, rotation.w);
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let t = translation;
        let mut rows = [
            Vec4::new(1.0 - (yy + zz), xy - wz, xz + wy, t.x),
            Vec4::new(xy + wz, 1.0 - (xx + zz), yz - wx, t.y),
            Vec4::new(xz - wy, yz + wx, 1.0 - (xx + yy), t.z),
        ];
        if scaled {
            let s = scale.extend(1.0);
            for row in &mut rows {
                *row *= s;
            }
        }
        Self(rows)
    }

    /// `self * rhs`. (The implied fourth row adds `a.w` to the translation lane only, and
    /// nothing to the others: [`crate::rows4::Rows4::mul`] does the same sums lane by lane.)
    #[inline]
    pub fn mul(&self, rhs: &Self) -> Self {
        let [b0, b1, b2] = rhs.0;
        Self(self.0.map(|a| {
            let mut row = b0 * a.x + b1 * a.y + b2 * a.z;
            row.w += a.w;
            row
        }))
    }

    /// The packed matrix.
    #[inline]
    pub fn to_joint(self) -> JointMatrix {
        JointMatrix { rows: self.0.map(|row| row.to_array()) }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    #[test]
    fn rows_agree_with_glam() {
        let a = Affine3A::from_scale_rotation_translation(
            Vec3::new(1.0, 2.0, 0.5),
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
            Vec3::new(3.0, -1.0, 2.0),
        );
        let q = Quat::from_rotation_y(0.7);
        let b = Affine3A::from_scale_rotation_translation(Vec3::splat(1.5), q, Vec3::new(0.1, 0.2, 0.3));
        let rows_b = Rows::from_trs(Vec3A::new(0.1, 0.2, 0.3), q, Vec3A::splat(1.5), true);
        assert!(rows_b.to_joint().to_affine().abs_diff_eq(b, 1e-6));
        let product = Rows::from_affine(&a).mul(&rows_b).to_joint().to_affine();
        assert!(product.abs_diff_eq(a * b, 1e-5), "{product:?} vs {:?}", a * b);
        let unscaled = Rows::from_trs(Vec3A::ZERO, q, Vec3A::ONE, false);
        assert_eq!(unscaled, Rows::from_trs(Vec3A::ZERO, q, Vec3A::ONE, true));
        assert_eq!(Rows::from_affine(&Affine3A::IDENTITY), Rows::IDENTITY);
    }
}
