//! Flat-shaded convex solids (boxes, prisms, frustums) as triangle lists.
//!
//! Every face gets its own vertices carrying the face normal, so lighting shows crisp facets.
//! Faces are oriented automatically: a solid is convex, so a face's outward side is the one facing
//! away from the solid's centre, and its corners are reversed when needed to wind
//! counter-clockwise seen from outside (glTF front faces).

use std::f64::consts::TAU;

use crate::test_models::math::{self, Mat4};

/// Index of the X coordinate (for [`Geometry::mirrored`]).
pub const X: usize = 0;
/// Index of the Z coordinate (for [`Geometry::mirrored`]).
pub const Z: usize = 2;

/// Triangles with per-face (flat) normals, in `f64` until written to a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Geometry {
    /// Vertex positions.
    pub positions: Vec<[f64; 3]>,
    /// Unit vertex normals, one per position.
    pub normals: Vec<[f64; 3]>,
    /// Triangle list, counter-clockwise seen from the front.
    pub indices: Vec<u32>,
}

impl Geometry {
    /// The union of `parts` (one triangle list; the parts keep their own vertices).
    pub fn merge(parts: impl IntoIterator<Item = Self>) -> Self {
        let mut all = Self::default();
        for part in parts {
            all.append(&part);
        }
        all
    }

    /// Appends `other`'s triangles.
    pub fn append(&mut self, other: &Self) {
        let base = self.positions.len() as u32;
        self.positions.extend_from_slice(&other.positions);
        self.normals.extend_from_slice(&other.normals);
        self.indices.extend(other.indices.iter().map(|i| base + i));
    }

    /// Adds a planar convex polygon as a triangle fan, wound counter-clockwise around its normal
    /// (reversed first when its normal would point towards `inside`).
    fn face(&mut self, corners: &[[f64; 3]], inside: [f64; 3]) {
        let normal = newell_normal(corners);
        let centre = centroid(corners);
        let outward = math::dot3(normal, sub(centre, inside)) >= 0.0;
        let (normal, ordered): ([f64; 3], Vec<[f64; 3]>) = if outward {
            (normal, corners.to_vec())
        } else {
            (normal.map(|c| -c), corners.iter().rev().copied().collect())
        };
        let base = self.positions.len() as u32;
        for &corner in &ordered {
            self.positions.push(corner);
            self.normals.push(normal);
        }
        for k in 1..ordered.len().saturating_sub(1) as u32 {
            self.indices.extend([base, base + k, base + k + 1]);
        }
    }

    /// A convex solid from its faces (each a planar convex polygon, in either winding).
    fn solid(faces: &[Vec<[f64; 3]>]) -> Self {
        let corners: Vec<[f64; 3]> = faces.iter().flatten().copied().collect();
        let inside = centroid(&corners);
        let mut geometry = Self::default();
        for face in faces {
            geometry.face(face, inside);
        }
        geometry
    }

    /// The geometry moved by `m`, which must be a rotation and translation (normals are rotated
    /// by it, then renormalized against rounding).
    pub fn transformed(&self, m: &Mat4) -> Self {
        Self {
            positions: self.positions.iter().map(|&p| math::transform_point(m, p)).collect(),
            normals: self.normals.iter().map(|&n| math::normalize3(math::transform_vector(m, n))).collect(),
            indices: self.indices.clone(),
        }
    }

    /// The mirror image through the plane where coordinate `axis` is 0, wound so that faces stay
    /// front-facing.
    pub fn mirrored(&self, axis: usize) -> Self {
        let flip = |mut v: [f64; 3]| {
            v[axis] = -v[axis];
            v
        };
        Self {
            positions: self.positions.iter().map(|&p| flip(p)).collect(),
            normals: self.normals.iter().map(|&n| flip(n)).collect(),
            indices: self.indices.chunks_exact(3).flat_map(|t| [t[0], t[2], t[1]]).collect(),
        }
    }
}

/// `a - b`.
fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    math::add_scaled(a, b, -1.0)
}

/// The average of `points` (the origin for none).
fn centroid(points: &[[f64; 3]]) -> [f64; 3] {
    let sum = points.iter().fold([0.0; 3], |acc, &p| math::add_scaled(acc, p, 1.0));
    sum.map(|c| c / points.len().max(1) as f64)
}

/// Unit normal of a planar polygon by Newell's method (counter-clockwise corners give the
/// right-handed normal), robust to collinear corners.
fn newell_normal(corners: &[[f64; 3]]) -> [f64; 3] {
    let mut n = [0.0; 3];
    for (i, &a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        n = math::add_scaled(n, math::cross(a, b), 1.0);
    }
    math::normalize3(n)
}

/// An axis-aligned box from corner `min` to corner `max`.
pub fn cuboid(min: [f64; 3], max: [f64; 3]) -> Geometry {
    frustum_box(min, max, 1.0)
}

/// A box from `min` to `max` whose top face (at `max[1]`) is shrunk about the vertical centre line
/// by `top_scale` in X and Z: a tapered box (`top_scale` 1 gives a plain box).
pub fn frustum_box(min: [f64; 3], max: [f64; 3], top_scale: f64) -> Geometry {
    let mid = [(min[0] + max[0]) / 2.0, (min[2] + max[2]) / 2.0];
    let half = [(max[0] - min[0]) / 2.0, (max[2] - min[2]) / 2.0];
    let corner =
        |xs: f64, y: f64, zs: f64, scale: f64| [mid[0] + xs * half[0] * scale, y, mid[1] + zs * half[1] * scale];
    let ring = |y: f64, scale: f64| {
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(xs, zs)| corner(xs, y, zs, scale))
    };
    loft(&ring(min[1], 1.0), &ring(max[1], top_scale))
}

/// A regular `sides`-gon frustum along +Y from height `y0` (radius `r0`) to `y1` (radius `r1`),
/// centred on the Y axis, with a flat face towards +Z (and ±X when `sides` is a multiple of 4).
/// Equal radii give a prism.
pub fn frustum(sides: usize, r0: f64, r1: f64, y0: f64, y1: f64) -> Geometry {
    let ring = |r: f64, y: f64| -> Vec<[f64; 3]> {
        (0..sides)
            .map(|k| {
                // Half a step off +Z, so an edge midpoint (a face centre) lies on +Z.
                let angle = TAU * (k as f64 + 0.5) / sides as f64;
                let (s, c) = angle.sin_cos();
                [r * s, y, r * c]
            })
            .collect()
    };
    loft(&ring(r0, y0), &ring(r1, y1))
}

/// A regular `sides`-gon prism of `radius` along +X from `x0` to `x1`, centred on the X axis
/// (a wheel, a lamp lens turned sideways...).
pub fn prism_x(sides: usize, radius: f64, x0: f64, x1: f64) -> Geometry {
    // Rotating -90 degrees about Z takes +Y to +X.
    let to_x = math::trs([0.0; 3], math::quat_axis_angle([0.0, 0.0, 1.0], -90.0), [1.0; 3]);
    frustum(sides, radius, radius, x0, x1).transformed(&to_x)
}

/// A regular `sides`-gon frustum along +Z from `z0` (radius `r0`) to `z1` (radius `r1`), centred on
/// the Z axis (a nose cone, a lamp lens facing +Z).
pub fn frustum_z(sides: usize, r0: f64, r1: f64, z0: f64, z1: f64) -> Geometry {
    // Rotating +90 degrees about X takes +Y to +Z.
    let to_z = math::trs([0.0; 3], math::quat_axis_angle([1.0, 0.0, 0.0], 90.0), [1.0; 3]);
    frustum(sides, r0, r1, z0, z1).transformed(&to_z)
}

/// The convex solid between two rings of the same length (corresponding corners joined by
/// quads), capped at both ends.
fn loft(bottom: &[[f64; 3]], top: &[[f64; 3]]) -> Geometry {
    let n = bottom.len();
    let mut faces: Vec<Vec<[f64; 3]>> = (0..n)
        .map(|k| {
            let next = (k + 1) % n;
            vec![bottom[k], bottom[next], top[next], top[k]]
        })
        .collect();
    faces.push(bottom.to_vec());
    faces.push(top.to_vec());
    Geometry::solid(&faces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle winds counter-clockwise around its vertices' normal, which points away from
    /// the centre of the (convex) geometry; every normal is unit length.
    fn assert_closed_convex_outward(g: &Geometry) {
        let inside = centroid(&g.positions);
        assert_eq!(g.positions.len(), g.normals.len());
        assert_eq!(g.indices.len() % 3, 0);
        for tri in g.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| g.positions[tri[k] as usize]);
            let n = g.normals[tri[0] as usize];
            assert!((math::dot3(n, n) - 1.0).abs() < 1e-12);
            let winding = math::cross(sub(b, a), sub(c, a));
            assert!(math::dot3(winding, n) > 1e-9, "triangle {tri:?} winds against its normal");
            assert!(math::dot3(n, sub(a, inside)) > 0.0, "triangle {tri:?} faces inwards");
        }
    }

    #[test]
    fn shapes_are_outward_facing_with_flat_normals() {
        assert_closed_convex_outward(&cuboid([-1.0, 0.0, -2.0], [1.0, 0.5, 3.0]));
        assert_closed_convex_outward(&frustum_box([-1.0, 0.0, -1.0], [1.0, 4.0, 1.0], 0.5));
        assert_closed_convex_outward(&frustum(8, 1.0, 0.5, 0.0, 10.0));
        assert_closed_convex_outward(&prism_x(10, 0.3, -0.1, 0.1));
        let cone =
            frustum_z(8, 0.4, 0.1, 0.0, 0.8).transformed(&math::trs([1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]));
        assert_closed_convex_outward(&cone);
        assert_closed_convex_outward(&cone.mirrored(X));
        assert_closed_convex_outward(&cone.mirrored(Z));
    }

    #[test]
    fn counts_and_extents() {
        let b = cuboid([0.0; 3], [1.0, 2.0, 3.0]);
        assert_eq!((b.positions.len(), b.indices.len()), (24, 36));
        // 8 sides: 8 quads + 2 octagons.
        let p = frustum(8, 1.0, 1.0, 0.0, 1.0);
        assert_eq!((p.positions.len(), p.indices.len()), (8 * 4 + 2 * 8, (8 * 2 + 2 * 6) * 3));
        // A flat face centred on +Z: its apothem is r cos(pi / 8).
        let max_z = p.positions.iter().map(|q| q[2]).fold(f64::MIN, f64::max);
        assert!((max_z - (std::f64::consts::PI / 8.0).cos()).abs() < 1e-12);
        let w = prism_x(10, 0.3, -0.1, 0.2);
        assert!(w.positions.iter().all(|q| (-0.1 - 1e-12..=0.2 + 1e-12).contains(&q[0])));
        let merged = Geometry::merge([b.clone(), b]);
        assert_eq!(merged.indices[36], 24);
    }
}
