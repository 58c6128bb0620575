//! Four 3x4 affine matrices at once, one instance per SIMD lane (structure of arrays), for
//! the fast path's four-instance evaluation: every operation is the same arithmetic, in the
//! same order, as [`Rows`]'s on each lane, so the results are bitwise those of four
//! [`Rows`] computations, with no shuffling between lanes.

use glam::{Mat4, Vec4};

use crate::JointMatrix;
use crate::rows::Rows;

/// Element `(row, column)` of four matrices: `self.0[row][column]` holds it for each lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rows4(pub [[Vec4; 4]; 3]);

/// Lane `k` of the result holds component `k` of each input: `[x of all, y of all, ...]`
/// (and back: the transpose is its own inverse).
#[inline]
pub(crate) fn transpose(v: [Vec4; 4]) -> [Vec4; 4] {
    let m = Mat4::from_cols(v[0], v[1], v[2], v[3]).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
}

impl Rows4 {
    /// The same matrix in every lane.
    #[inline]
    pub fn splat(m: &Rows) -> Self {
        let row = |r: Vec4| [Vec4::splat(r.x), Vec4::splat(r.y), Vec4::splat(r.z), Vec4::splat(r.w)];
        Self([row(m.0[0]), row(m.0[1]), row(m.0[2])])
    }

    /// [`Rows::from_trs`] of each lane, from the lanes' components: `translation[0]` holds
    /// the x of each lane's translation, and so on (rotations as x, y, z, w).
    #[inline]
    pub fn from_trs(translation: [Vec4; 4], rotation: [Vec4; 4], scale: [Vec4; 4], scaled: bool) -> Self {
        let [x, y, z, w] = rotation;
        let t = translation;
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let one = Vec4::ONE;
        let mut rows = [
            [one - (yy + zz), xy - wz, xz + wy, t[0]],
            [xy + wz, one - (xx + zz), yz - wx, t[1]],
            [xz - wy, yz + wx, one - (xx + yy), t[2]],
        ];
        if scaled {
            // The translation column's factor is 1 in `Rows::from_trs`: exact, so skipped.
            for row in &mut rows {
                for (element, s) in row[..3].iter_mut().zip(scale) {
                    *element *= s;
                }
            }
        }
        Self(rows)
    }

    /// [`Rows::mul`] of each lane: `self * rhs`.
    #[inline]
    pub fn mul(&self, rhs: &Self) -> Self {
        let [b0, b1, b2] = &rhs.0;
        // (Written out: array `map`s here compile to copies.)
        let row = |a: &[Vec4; 4]| {
            [
                b0[0] * a[0] + b1[0] * a[1] + b2[0] * a[2],
                b0[1] * a[0] + b1[1] * a[1] + b2[1] * a[2],
                b0[2] * a[0] + b1[2] * a[1] + b2[2] * a[2],
                b0[3] * a[0] + b1[3] * a[1] + b2[3] * a[2] + a[3],
            ]
        };
        Self([row(&self.0[0]), row(&self.0[1]), row(&self.0[2])])
    }

    /// Writes lane `k` to `out[at[k]]`.
    #[inline]
    pub fn write(&self, at: [usize; 4], out: &mut [JointMatrix]) {
        let [r0, r1, r2] = [transpose(self.0[0]), transpose(self.0[1]), transpose(self.0[2])];
        for (k, &at) in at.iter().enumerate() {
            out[at] = JointMatrix { rows: [r0[k].to_array(), r1[k].to_array(), r2[k].to_array()] };
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3A};

    use super::*;

    fn lane(k: usize) -> (Vec4, Quat, Vec4) {
        let f = k as f32;
        let rotation = Quat::from_euler(glam::EulerRot::XYZ, 0.3 * f - 0.2, 1.1 - f, 0.7 * f);
        (Vec4::new(f, -2.0 * f, 0.5, 0.0), rotation, Vec4::new(1.0 + f, 0.5, 2.0 - f * 0.3, 0.0))
    }

    #[test]
    fn every_lane_is_bitwise_the_single_computation() {
        for scaled in [false, true] {
            let lanes: [_; 4] = std::array::from_fn(lane);
            let single: [Rows; 4] =
                lanes.map(|(t, r, s)| Rows::from_trs(Vec3A::from_vec4(t), r, Vec3A::from_vec4(s), scaled));
            let four = Rows4::from_trs(
                transpose(lanes.map(|l| l.0)),
                transpose(lanes.map(|l| Vec4::from(l.1))),
                transpose(lanes.map(|l| l.2)),
                scaled,
            );
            let parent = Rows::from_trs(Vec3A::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.4), Vec3A::ONE, false);
            let product = Rows4::splat(&parent).mul(&four).mul(&four);
            let mut out = [JointMatrix::IDENTITY; 8];
            four.write([0, 2, 4, 6], &mut out);
            product.write([1, 3, 5, 7], &mut out);
            let bits = |m: JointMatrix| m.to_array().map(f32::to_bits);
            for (k, rows) in single.iter().enumerate() {
                assert_eq!(bits(out[2 * k]), bits(rows.to_joint()), "lane {k}, scaled {scaled}");
                assert_eq!(bits(out[2 * k + 1]), bits(parent.mul(rows).mul(rows).to_joint()), "lane {k} product");
            }
        }
    }
}
