//! What the GPU is given of a model's primitives. The model keeps the file's vertices and
//! triangle order (poses, bounds, picking and the oracle read them); what is uploaded differs
//! in two ways:
//! - a faceted primitive is drawn flat over welded vertices ([`crate::facets`]);
//! - each triangle list, every level of detail, is in the order that reuses the vertices the
//!   GPU has just shaded (meshoptimizer's vertex-cache optimizer). A GPU shades the distinct
//!   vertices of a batch of consecutive triangles together, so a vertex whose triangles lie far
//!   apart in the list is shaded once for each batch it is in: the town's fox, welded to 434
//!   vertices, is shaded 1,182 times in the file's order and 525 in this one (by
//!   meshoptimizer's model of an NVIDIA GPU). The same triangles, each with its corners in the
//!   same order (the same winding), are drawn, only in another order. A blended primitive
//!   keeps the file's order, in which three.js draws its overlapping faces.

use std::borrow::Cow;

use props_anim::material::AlphaMode;
use props_anim::{Model, Primitive, Topology};

use crate::facets::welded;

/// Each mesh's primitives as the GPU draws them (see the module documentation).
pub(crate) struct DrawnMeshes<'a> {
    meshes: Vec<Vec<Cow<'a, Primitive>>>,
}

impl<'a> DrawnMeshes<'a> {
    /// `model`'s primitives as they are drawn.
    pub(crate) fn new(model: &'a Model) -> Self {
        let blended = |p: &Primitive| {
            let material = p.material.and_then(|m| model.materials().get(m as usize));
            material.is_some_and(|m| m.alpha_mode == AlphaMode::Blend)
        };
        let meshes =
            model.meshes().iter().map(|mesh| mesh.primitives.iter().map(|p| drawn(p, blended(p))).collect()).collect();
        Self { meshes }
    }

    /// Primitive `p` of mesh `mesh`, as drawn.
    pub(crate) fn primitive(&self, mesh: usize, p: usize) -> &Primitive {
        &self.meshes[mesh][p]
    }

    /// Mesh `mesh`'s primitives, as drawn.
    pub(crate) fn mesh(&self, mesh: usize) -> impl ExactSizeIterator<Item = &Primitive> {
        self.meshes[mesh].iter().map(|p| &**p)
    }
}

/// `primitive` as drawn: welded where faceted, its triangles in vertex-cache order unless
/// `blended`.
fn drawn(primitive: &Primitive, blended: bool) -> Cow<'_, Primitive> {
    let welded = welded(primitive);
    let source = welded.as_ref().unwrap_or(primitive);
    let ordered = if blended { None } else { cache_ordered(source) };
    let Some([indices, lods @ ..]) = ordered.as_deref() else {
        return welded.map_or(Cow::Borrowed(primitive), Cow::Owned);
    };
    let mut drawn = welded.unwrap_or_else(|| primitive.clone());
    drawn.indices.clone_from(indices);
    for (lod, indices) in drawn.lods.iter_mut().zip(lods) {
        lod.indices.clone_from(indices);
    }
    Cow::Owned(drawn)
}

/// Each of `primitive`'s index lists (its own, then each level's) in vertex-cache order; none
/// where that changes nothing, or where a list is not whole triangles over its vertices (the
/// optimizer would abort on such a list; a `Model` has none).
fn cache_ordered(primitive: &Primitive) -> Option<Vec<Vec<u32>>> {
    let vertices = primitive.vertex_count();
    let lists = || std::iter::once(&primitive.indices).chain(primitive.lods.iter().map(|lod| &lod.indices));
    let whole = |list: &Vec<u32>| list.len().is_multiple_of(3) && list.iter().all(|&i| (i as usize) < vertices);
    if primitive.topology != Topology::Triangles || !lists().all(whole) {
        return None;
    }
    let ordered: Vec<Vec<u32>> = lists().map(|list| ::meshopt::optimize_vertex_cache(list, vertices)).collect();
    (!ordered.iter().eq(lists())).then_some(ordered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use props_anim::Lod;

    /// Vertices a GPU like NVIDIA's shades per triangle drawing `indices` (meshoptimizer's
    /// model: a cache of 32, 32 vertices a warp, 32 triangles a group).
    fn shaded_per_vertex(indices: &[u32], vertices: usize) -> f32 {
        ::meshopt::analyze_vertex_cache(indices, vertices, 32, 32, 32).atvr
    }

    /// A smooth 24 x 24 grid of quads, its triangles shuffled (as a careless exporter might
    /// write them), with a coarser level of its first half (shuffled too).
    fn shuffled_grid() -> Primitive {
        const N: u32 = 24;
        let positions = (0..=N).flat_map(|y| (0..=N).map(move |x| Vec3::new(x as f32, y as f32, 0.0))).collect();
        let mut triangles: Vec<[u32; 3]> = (0..N)
            .flat_map(|y| (0..N).map(move |x| y * (N + 1) + x))
            .flat_map(|v| [[v, v + 1, v + N + 2], [v, v + N + 2, v + N + 1]])
            .collect();
        // A fixed shuffle (a linear congruential sequence), so that the test is the same each run.
        let mut state = 12345u64;
        for i in (1..triangles.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            triangles.swap(i, (state >> 33) as usize % (i + 1));
        }
        let indices: Vec<u32> = triangles.concat();
        let mut grid = Primitive::triangles(positions, vec![Vec3::Z; 625], indices, None);
        grid.lods = vec![Lod { indices: grid.indices[..grid.indices.len() / 2].to_vec(), error: 1.0 }];
        grid
    }

    /// `indices`' triangles, each as its corners (rotated to start at its least), sorted.
    fn triangles(indices: &[u32]) -> Vec<[u32; 3]> {
        let mut triangles: Vec<[u32; 3]> = indices
            .chunks_exact(3)
            .map(|t| {
                let least = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
                [t[least], t[(least + 1) % 3], t[(least + 2) % 3]]
            })
            .collect();
        triangles.sort_unstable();
        triangles
    }

    #[test]
    fn every_level_draws_its_triangles_in_an_order_that_reuses_shaded_vertices() {
        let grid = shuffled_grid();
        let drawn = drawn(&grid, false);
        let lists = |p: &Primitive| [p.indices.clone(), p.lods[0].indices.clone()];
        for (file, drawn) in lists(&grid).iter().zip(&lists(&drawn)) {
            // The same triangles, wound the same way.
            assert_eq!(triangles(drawn), triangles(file));
            let (before, after) = (shaded_per_vertex(file, 625), shaded_per_vertex(drawn, 625));
            // Shuffled, each vertex is shaded 5.4 times (2.8 at the level); in order, 1.5 (1.2).
            assert!(after < 1.6 && 2.0 * after < before, "{before} -> {after}");
        }
        // The vertices are the file's, and so is the level's error.
        assert_eq!((&drawn.positions, drawn.lods[0].error), (&grid.positions, 1.0));
    }

    #[test]
    fn a_blended_primitive_keeps_the_file_s_order() {
        let grid = shuffled_grid();
        assert!(matches!(drawn(&grid, true), Cow::Borrowed(p) if *p == grid));
    }

    #[test]
    fn a_list_past_its_vertices_or_of_broken_triangles_is_drawn_as_it_is() {
        let mut past = shuffled_grid();
        past.lods[0].indices[0] = 625;
        assert!(matches!(drawn(&past, false), Cow::Borrowed(_)));
        let mut broken = shuffled_grid();
        broken.indices.pop();
        assert!(matches!(drawn(&broken, false), Cow::Borrowed(_)));
    }

    #[test]
    fn a_faceted_primitive_is_welded_then_ordered() {
        let cube = crate::facets::tests::faceted_cube();
        let drawn = drawn(&cube, false);
        assert_eq!((drawn.vertex_count(), drawn.flat), (8, true));
        let welded = welded(&cube).expect("faceted");
        assert_eq!(triangles(&drawn.indices), triangles(&welded.indices));
    }
}
