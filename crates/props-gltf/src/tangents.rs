//! Tangents for normal maps of primitives that have none: MikkTSpace (`bevy_mikktspace`, a
//! byte-identical port of Morten Mikkelsen's reference code), the tangent space Blender and
//! Substance bake normal maps against, as the glTF specification asks.
//!
//! glTF's V runs down the image, Blender's (and MikkTSpace's, as bakers use it) up: the UVs are
//! given to MikkTSpace with V flipped, so that the bitangent's sign (`w`) is the one Blender's
//! exporter writes for the same mesh (tested against its exports).

use std::panic::{AssertUnwindSafe, catch_unwind};

use bevy_mikktspace::{Geometry, TangentSpace, generate_tangents};
use glam::{Vec2, Vec3, Vec4};

/// What MikkTSpace takes while it works, per triangle, at most (its triangle records, face
/// vertices, groups and tangent spaces; an upper bound from its data structures): what the
/// importer charges to the file's budget before generating.
pub(crate) const WORKING_BYTES_PER_TRIANGLE: u64 = 256;

/// A triangle list as MikkTSpace reads it, and the tangents it writes.
struct Triangles<'a> {
    positions: &'a [Vec3],
    normals: &'a [Vec3],
    uvs: &'a [Vec2],
    indices: &'a [u32],
    tangents: Vec<Vec4>,
}

impl Triangles<'_> {
    fn vertex(&self, face: usize, vert: usize) -> usize {
        self.indices.get(face * 3 + vert).map_or(0, |&i| i as usize)
    }
}

impl Geometry for Triangles<'_> {
    fn num_faces(&self) -> usize {
        self.indices.len() / 3
    }

    fn num_vertices_of_face(&self, _face: usize) -> usize {
        3
    }

    fn position(&self, face: usize, vert: usize) -> [f32; 3] {
        self.positions.get(self.vertex(face, vert)).copied().unwrap_or(Vec3::ZERO).to_array()
    }

    fn normal(&self, face: usize, vert: usize) -> [f32; 3] {
        self.normals.get(self.vertex(face, vert)).copied().unwrap_or(Vec3::Y).to_array()
    }

    fn tex_coord(&self, face: usize, vert: usize) -> [f32; 2] {
        let uv = self.uvs.get(self.vertex(face, vert)).copied().unwrap_or(Vec2::ZERO);
        [uv.x, 1.0 - uv.y]
    }

    fn set_tangent(&mut self, tangent_space: Option<TangentSpace>, face: usize, vert: usize) {
        let vertex = self.vertex(face, vert);
        if let (Some(space), Some(slot)) = (tangent_space, self.tangents.get_mut(vertex)) {
            *slot = Vec4::from_array(space.tangent_encoded());
        }
    }
}

/// MikkTSpace tangents (xyz, w = the bitangent's sign) of a triangle list with `indices` into
/// `positions`, `normals` and `uvs` (one each per vertex). A vertex no triangle gives one gets
/// +X. `None` if the generator panicked (a second line of defence: it asserts its inputs).
#[must_use]
pub(crate) fn mikktspace(positions: &[Vec3], normals: &[Vec3], uvs: &[Vec2], indices: &[u32]) -> Option<Vec<Vec4>> {
    let mut triangles =
        Triangles { positions, normals, uvs, indices, tangents: vec![Vec4::new(1.0, 0.0, 0.0, 1.0); positions.len()] };
    // The error type has no variant: generation does not fail, short of a panic.
    catch_unwind(AssertUnwindSafe(|| generate_tangents(&mut triangles))).ok()?.ok()?;
    Some(triangles.tangents)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A quad in the XY plane, facing +Z, whose U runs along +X and whose image is upright (V,
    /// down the image, runs along -Y): tangent +X, and the image's up (+Y) is normal x tangent
    /// (+Z x +X), so w = 1. Mirrored (U along -X), the tangent is -X and up is -(N x T): w = -1.
    #[test]
    fn a_quad_gets_its_uv_axes() {
        let positions =
            [Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
        let normals = [Vec3::Z; 4];
        let indices = [0, 1, 2, 0, 2, 3];
        let uvs = [Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 0.0)];
        for tangent in mikktspace(&positions, &normals, &uvs, &indices).expect("generated") {
            assert!(tangent.truncate().distance(Vec3::X) < 1e-5 && tangent.w == 1.0, "{tangent}");
        }
        let mirrored = uvs.map(|uv| Vec2::new(1.0 - uv.x, uv.y));
        for tangent in mikktspace(&positions, &normals, &mirrored, &indices).expect("generated") {
            assert!(tangent.truncate().distance(-Vec3::X) < 1e-5 && tangent.w == -1.0, "{tangent}");
        }
    }
}
