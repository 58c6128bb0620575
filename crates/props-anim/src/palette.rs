//! Joint matrices packed for the GPU.

use glam::{Affine3A, Mat3A, Vec3, Vec3A, Vec4};

/// An affine matrix as 3 rows of 4 floats (row-major 3x4; the implied 4th row is 0 0 0 1):
/// 48 bytes, what a WGSL `mat3x4<f32>` read row by row wants.
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct JointMatrix {
    /// Rows `[m00 m01 m02 tx]`, `[m10 m11 m12 ty]`, `[m20 m21 m22 tz]`.
    pub rows: [[f32; 4]; 3],
}

impl JointMatrix {
    /// The identity.
    pub const IDENTITY: Self = Self { rows: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]] };

    /// Packs an affine matrix.
    #[must_use]
    pub fn from_affine(m: &Affine3A) -> Self {
        let (x, y, z, t) = (m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis, m.translation);
        Self { rows: [[x.x, y.x, z.x, t.x], [x.y, y.y, z.y, t.y], [x.z, y.z, z.z, t.z]] }
    }

    /// Unpacks to an affine matrix.
    #[must_use]
    pub fn to_affine(&self) -> Affine3A {
        let [r0, r1, r2] = self.rows.map(Vec4::from_array);
        Affine3A {
            matrix3: Mat3A::from_cols(
                Vec3A::new(r0.x, r1.x, r2.x),
                Vec3A::new(r0.y, r1.y, r2.y),
                Vec3A::new(r0.z, r1.z, r2.z),
            ),
            translation: Vec3A::new(r0.w, r1.w, r2.w),
        }
    }

    /// Transforms a point (w = 1).
    #[must_use]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        let p = p.extend(1.0);
        let [r0, r1, r2] = self.rows.map(Vec4::from_array);
        Vec3::new(r0.dot(p), r1.dot(p), r2.dot(p))
    }

    /// Transforms a direction (w = 0).
    #[must_use]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        let v = v.extend(0.0);
        let [r0, r1, r2] = self.rows.map(Vec4::from_array);
        Vec3::new(r0.dot(v), r1.dot(v), r2.dot(v))
    }

    /// The 12 floats, row after row.
    #[must_use]
    pub fn to_array(&self) -> [f32; 12] {
        let [a, b, c] = self.rows;
        [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], c[0], c[1], c[2], c[3]]
    }
}

/// Morph weights per palette matrix slot.
pub const WEIGHTS_PER_SLOT: usize = 12;

/// Packs morph weights into palette slots, [`WEIGHTS_PER_SLOT`] to a matrix (row after row,
/// as [`JointMatrix::to_array`] reads them), the last slot padded with zeros: how weights
/// travel to the GPU in the same buffer, and the same write, as the joint matrices.
pub(crate) fn write_weights(weights: &[f32], out: &mut [JointMatrix]) {
    for (slot, chunk) in out.iter_mut().zip(weights.chunks(WEIGHTS_PER_SLOT)) {
        let mut floats = [0.0; WEIGHTS_PER_SLOT];
        floats[..chunk.len()].copy_from_slice(chunk);
        for (row, values) in slot.rows.iter_mut().zip(floats.chunks_exact(4)) {
            row.copy_from_slice(values);
        }
    }
}

/// Packs `values` into palette slots as [`write_weights`] packs weights, the last slot padded
/// with zeros.
pub(crate) fn write_values(mut values: impl Iterator<Item = f32>, out: &mut [JointMatrix]) {
    for value in out.iter_mut().flat_map(|slot| slot.rows.iter_mut().flatten()) {
        *value = values.next().unwrap_or(0.0);
    }
}

/// Value `index` of those packed from `slots` on ([`write_values`]' inverse); 0 past them.
pub(crate) fn read_value(slots: &[JointMatrix], index: usize) -> f32 {
    slots.get(index / WEIGHTS_PER_SLOT).map_or(0.0, |slot| slot.rows[(index % WEIGHTS_PER_SLOT) / 4][index % 4])
}

/// Unpacks morph weights from palette slots ([`write_weights`]' inverse) into `out`, as many
/// as it holds.
pub(crate) fn read_weights(slots: &[JointMatrix], out: &mut [f32]) {
    for (slot, chunk) in slots.iter().zip(out.chunks_mut(WEIGHTS_PER_SLOT)) {
        for (value, stored) in chunk.iter_mut().zip(slot.rows.iter().flatten()) {
            *value = *stored;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_come_back_as_written() {
        let weights: Vec<f32> = (0..27).map(|i| i as f32 * 0.5 - 3.0).collect();
        let mut slots = [JointMatrix::IDENTITY; 3];
        write_weights(&weights, &mut slots);
        assert_eq!(slots[2].rows[0], [9.0, 9.5, 10.0, 0.0], "the last slot is padded with zeros");
        let mut back = vec![f32::NAN; weights.len()];
        read_weights(&slots, &mut back);
        assert_eq!(back, weights);
    }
}
