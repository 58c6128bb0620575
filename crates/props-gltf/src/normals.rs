//! Smooth vertex normals for meshes that come without them.

use glam::Vec3;

/// The normal used where none can be computed (no triangle, or only degenerate ones).
pub(crate) const FALLBACK: Vec3 = Vec3::Y;

/// Smooth, area-weighted unit normals: each vertex gets the normalized sum of the (unnormalized,
/// so area-weighted) face normals of the triangles using it, counter-clockwise front faces as
/// glTF specifies. Vertices without a usable triangle get [`FALLBACK`].
pub(crate) fn smooth(positions: &[Vec3], triangles: &[u32]) -> Vec<Vec3> {
    let mut sums = vec![Vec3::ZERO; positions.len()];
    for triangle in triangles.chunks_exact(3) {
        let corners = [0, 1, 2].map(|k| triangle.get(k).map_or(usize::MAX, |&i| i as usize));
        let [Some(a), Some(b), Some(c)] = corners.map(|i| positions.get(i)) else {
            continue;
        };
        let face = (*b - *a).cross(*c - *a);
        for i in corners {
            if let Some(sum) = sums.get_mut(i) {
                *sum += face;
            }
        }
    }
    sums.into_iter().map(|sum| sum.try_normalize().unwrap_or(FALLBACK)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_quad_faces_up() {
        let positions = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, -1.0), Vec3::NEG_Z];
        let normals = smooth(&positions, &[0, 1, 2, 0, 2, 3]);
        assert!(normals.iter().all(|n| n.abs_diff_eq(Vec3::Y, 1e-6)), "{normals:?}");
    }

    #[test]
    fn normals_are_area_weighted_and_unit() {
        // Vertex 0 is shared by a big triangle facing +Z and a small one facing +X.
        let positions =
            [Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 4.0, 0.0), Vec3::new(0.0, 1.0, 0.0), Vec3::Z];
        let normals = smooth(&positions, &[0, 1, 2, 0, 3, 4]);
        let expected = Vec3::new(1.0, 0.0, 16.0).normalize();
        assert!(normals[0].abs_diff_eq(expected, 1e-6), "{:?}", normals[0]);
        assert!(normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-6));
        assert!(normals[3].abs_diff_eq(Vec3::X, 1e-6));
    }

    #[test]
    fn degenerate_and_unused_vertices_fall_back() {
        let positions = [Vec3::ZERO, Vec3::X, Vec3::new(2.0, 0.0, 0.0), Vec3::ONE];
        let normals = smooth(&positions, &[0, 1, 2]);
        assert_eq!(normals, vec![FALLBACK; 4]);
        let huge = [Vec3::ZERO, Vec3::new(f32::MAX, 0.0, 0.0), Vec3::new(0.0, f32::MAX, 0.0)];
        assert_eq!(smooth(&huge, &[0, 1, 2]), vec![FALLBACK; 3]);
    }
}
