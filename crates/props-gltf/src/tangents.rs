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

/// Most triangle corners at one position MikkTSpace is given: it gathers the triangles around a
/// vertex recursively, a stack frame each (thousands round one point: a fan no exporter
/// writes, but a file can, deep enough to overflow a loading thread's stack).
const MAX_CORNERS_AT_A_POSITION: u64 = 4096;

/// Comparisons per corner that MikkTSpace may make (beyond a fixed allowance,
/// [`FREE_COMPARISONS`]) welding the vertices at one position, which it compares with each
/// other in pairs, and finding degenerate triangles' corners among the others'.
const COMPARISONS_PER_CORNER: u64 = 64;

/// Comparisons any triangle list may cost (see [`COMPARISONS_PER_CORNER`]).
const FREE_COMPARISONS: u64 = 1 << 20;

/// What a triangle list would cost MikkTSpace beyond linear time or a shallow stack, said as
/// the warning's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TooCostly {
    /// Too many triangle corners at one position.
    #[error("{0} triangle corners meet at one point (at most {MAX_CORNERS_AT_A_POSITION})")]
    Fan(u64),
    /// Vertices at shared positions that differ otherwise would take quadratic time to weld.
    #[error("its vertices at shared positions would take {0} comparisons to weld")]
    Weld(u64),
}

impl TooCostly {
    /// What the modder does about it.
    pub(crate) fn fix(self) -> &'static str {
        match self {
            Self::Fan(_) => "split the fan into parts, or export TANGENT",
            Self::Weld(_) => "merge the vertices at shared positions (Blender: Merge by Distance), or export TANGENT",
        }
    }
}

/// The triangles of `indices` (into `positions`) to give MikkTSpace: all of them, or those
/// not degenerate (two corners at one position) when so many are that finding their corners
/// among the others' would take quadratic time (invisible, they only lend their vertices'
/// tangents otherwise). Refused when the rest would still cost too much ([`TooCostly`]).
pub(crate) fn triangles_to_give(positions: &[Vec3], indices: &[u32]) -> Result<Vec<u32>, TooCostly> {
    let allowance = COMPARISONS_PER_CORNER.saturating_mul(indices.len() as u64).saturating_add(FREE_COMPARISONS);
    let position = |i: u32| positions.get(i as usize).copied().unwrap_or(Vec3::ZERO);
    let degenerate = |t: &[u32]| {
        let [a, b, c] = [t[0], t[1], t[2]].map(position);
        a == b || b == c || c == a
    };
    let triangles = indices.len() as u64 / 3;
    let bad = indices.chunks_exact(3).filter(|t| degenerate(t)).count() as u64;
    let kept: Vec<u32> = if (3 * bad).saturating_mul(3 * (triangles - bad)) > allowance {
        indices.chunks_exact(3).filter(|t| !degenerate(t)).flatten().copied().collect()
    } else {
        indices.to_vec()
    };
    // Corners per vertex; then vertices grouped by position (-0 as 0, as MikkTSpace compares).
    let mut corners = vec![0u32; positions.len()];
    for &i in &kept {
        if let Some(count) = corners.get_mut(i as usize) {
            *count = count.saturating_add(1);
        }
    }
    let key = |v: u32| (position(v) + Vec3::ZERO).to_array().map(f32::to_bits);
    let mut used: Vec<u32> = (0..corners.len() as u32).filter(|&v| corners[v as usize] > 0).collect();
    used.sort_unstable_by_key(|&v| key(v));
    let mut weld = 0u64;
    for group in used.chunk_by(|&a, &b| key(a) == key(b)) {
        let at: u64 = group.iter().map(|&v| u64::from(corners[v as usize])).sum();
        if at > MAX_CORNERS_AT_A_POSITION {
            return Err(TooCostly::Fan(at));
        }
        weld = weld.saturating_add(at * group.len() as u64);
    }
    if weld > allowance {
        return Err(TooCostly::Weld(weld));
    }
    Ok(kept)
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
        assert_eq!(triangles_to_give(&positions, &indices), Ok(indices.to_vec()), "all given");
    }

    /// A fan of `triangles` round the origin, each with vertices of its own (the centre too).
    fn fan(triangles: u32) -> (Vec<Vec3>, Vec<u32>) {
        let rim = |k: u32| {
            let angle = k as f32 * std::f32::consts::TAU / triangles as f32;
            Vec3::new(angle.cos(), angle.sin(), 0.0)
        };
        let positions = (0..triangles).flat_map(|k| [Vec3::ZERO, rim(k), rim(k + 1)]).collect();
        (positions, (0..3 * triangles).collect())
    }

    /// What would recurse deep or weld in quadratic time is refused before MikkTSpace sees it;
    /// degenerate triangles too many to look up are left out; a fan of ordinary size is given.
    #[test]
    fn what_would_cost_mikktspace_too_much_is_not_given_it() {
        let (positions, indices) = fan(5000);
        assert_eq!(triangles_to_give(&positions, &indices), Err(TooCostly::Fan(5000)));
        let (positions, indices) = fan(3000);
        // The centre's 3,000 vertices, each with all: 9 million comparisons (and the rim's).
        assert!(matches!(triangles_to_give(&positions, &indices), Err(TooCostly::Weld(c)) if c >= 9_000_000));
        let (positions, indices) = fan(64);
        assert_eq!(triangles_to_give(&positions, &indices), Ok(indices.clone()));

        // 2,000 good triangles apart, and 2,000 degenerate ones (a point each): left out.
        let mut positions = Vec::new();
        for k in 0..2000 {
            let at = Vec3::new(k as f32 * 3.0, 0.0, 0.0);
            positions.extend([at, at + Vec3::X, at + Vec3::Y]);
        }
        for k in 0..2000 {
            positions.extend([Vec3::new(k as f32, 5.0, 0.0); 3]);
        }
        let indices: Vec<u32> = (0..positions.len() as u32).collect();
        assert_eq!(triangles_to_give(&positions, &indices), Ok(indices[..6000].to_vec()));
        // A few degenerate ones stay.
        let few: Vec<u32> = (0..6000 + 30).collect();
        assert_eq!(triangles_to_give(&positions, &few), Ok(few.clone()));
    }
}
