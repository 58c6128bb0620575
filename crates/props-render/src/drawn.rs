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

use props_anim::material::Material;
use props_anim::{Model, Primitive};

use crate::facets::{welded, whole_triangles};

/// Each mesh's primitives as the GPU draws them (see the module documentation).
pub(crate) struct DrawnMeshes<'a> {
    meshes: Vec<Vec<Drawn<'a>>>,
}

/// One primitive as drawn: its vertices (welded, or the model's own, not copied), and its
/// index lists where their order is not theirs.
struct Drawn<'a> {
    primitive: Cow<'a, Primitive>,
    /// Its own list, then each level's, in vertex-cache order.
    ordered: Option<Vec<Vec<u32>>>,
}

impl<'a> DrawnMeshes<'a> {
    /// `model`'s primitives as they are drawn.
    pub(crate) fn new(model: &'a Model) -> Self {
        // Blended in its own material or in any variant's: its triangles keep their order.
        let blended = |mesh: usize, p: usize| {
            let variants = std::iter::once(None).chain((0..model.material_variants().len()).map(|v| Some(v as u8)));
            let mut materials =
                variants.filter_map(|v| model.materials().get(model.primitive_material(mesh, p, v)? as usize));
            materials.any(Material::is_see_through)
        };
        let meshes = (model.meshes().iter().enumerate())
            .map(|(m, mesh)| {
                mesh.primitives.iter().enumerate().map(|(p, primitive)| drawn(primitive, blended(m, p))).collect()
            })
            .collect();
        Self { meshes }
    }

    /// Primitive `p` of mesh `mesh` as drawn: its vertices, and index lists of the lengths
    /// drawn, in an order [`DrawnMeshes::level`] may change.
    pub(crate) fn primitive(&self, mesh: usize, p: usize) -> &Primitive {
        &self.meshes[mesh][p].primitive
    }

    /// Mesh `mesh`'s primitives, as [`DrawnMeshes::primitive`] gives each.
    pub(crate) fn mesh(&self, mesh: usize) -> impl ExactSizeIterator<Item = &Primitive> {
        self.meshes[mesh].iter().map(|drawn| &*drawn.primitive)
    }

    /// The indices primitive `p` of mesh `mesh` draws at its level `level`, in the order drawn
    /// (as [`Primitive::lod_indices`]: 0 is its own list; past its last level, its last).
    pub(crate) fn level(&self, mesh: usize, p: usize, level: usize) -> &[u32] {
        let drawn = &self.meshes[mesh][p];
        match &drawn.ordered {
            Some(lists) => lists.get(level).or(lists.last()).map_or(&[], Vec::as_slice),
            None => drawn.primitive.lod_indices(level),
        }
    }
}

/// `primitive` as drawn: welded where faceted, its triangles in vertex-cache order unless
/// `blended`.
fn drawn(primitive: &Primitive, blended: bool) -> Drawn<'_> {
    let primitive = welded(primitive).map_or(Cow::Borrowed(primitive), Cow::Owned);
    let ordered = if blended { None } else { cache_ordered(&primitive) };
    Drawn { primitive, ordered }
}

/// Each of `primitive`'s index lists (its own, then each level's) in vertex-cache order; none
/// where that changes nothing, or where a list is not whole triangles over its vertices
/// ([`whole_triangles`]: the optimizer would abort on such a list).
fn cache_ordered(primitive: &Primitive) -> Option<Vec<Vec<u32>>> {
    if !whole_triangles(primitive) {
        return None;
    }
    let vertices = primitive.vertex_count();
    let lists = || std::iter::once(&primitive.indices).chain(primitive.lods.iter().map(|lod| &lod.indices));
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
        let lists = drawn.ordered.as_ref().expect("reordered");
        for (file, drawn) in [&grid.indices, &grid.lods[0].indices].into_iter().zip(lists) {
            // The same triangles, wound the same way.
            assert_eq!(triangles(drawn), triangles(file));
            let (before, after) = (shaded_per_vertex(file, 625), shaded_per_vertex(drawn, 625));
            // Shuffled, each vertex is shaded 5.4 times (2.8 at the level); in order, 1.5 (1.2).
            assert!(after < 1.6 && 2.0 * after < before, "{before} -> {after}");
        }
        // The vertices are the model's own, not a copy.
        assert!(matches!(drawn.primitive, Cow::Borrowed(p) if std::ptr::eq(p, &grid)));
    }

    #[test]
    fn a_level_is_looked_up_as_the_model_looks_it_up() {
        use props_anim::{Mesh, MeshInstance, ModelParts, NodeId, RestTransform, Rig, SourceNode, Transform};
        let node = SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let model = Model::new(ModelParts {
            rig: Some(Rig::from_source_nodes(&[node]).expect("a rig")),
            meshes: vec![Mesh { name: None, primitives: vec![shuffled_grid()] }],
            instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
            ..ModelParts::default()
        })
        .expect("valid");
        let drawn = DrawnMeshes::new(&model);
        let grid = drawn.primitive(0, 0);
        for level in 0..4 {
            let (file, drawn) = (grid.lod_indices(level), drawn.level(0, 0, level));
            assert_eq!((drawn.len(), triangles(drawn)), (file.len(), triangles(file)), "level {level}");
            assert_ne!(drawn, file);
        }
    }

    #[test]
    fn a_blended_primitive_keeps_the_file_s_order() {
        let grid = shuffled_grid();
        let drawn = drawn(&grid, true);
        assert!(drawn.ordered.is_none());
        assert_eq!(*drawn.primitive, grid);
    }

    #[test]
    fn a_list_past_its_vertices_or_of_broken_triangles_is_drawn_as_it_is() {
        let mut past = shuffled_grid();
        past.lods[0].indices[0] = 625;
        assert!(drawn(&past, false).ordered.is_none());
        let mut broken = shuffled_grid();
        broken.indices.pop();
        assert!(drawn(&broken, false).ordered.is_none());
    }

    #[test]
    fn a_faceted_primitive_is_welded_then_ordered() {
        let cube = crate::facets::tests::faceted_cube();
        let drawn = drawn(&cube, false);
        assert_eq!((drawn.primitive.vertex_count(), drawn.primitive.flat), (8, true));
        // The order is made over the welded vertices: each list drawn, read through them, is
        // the file's triangles, corner for corner.
        let lists = drawn.ordered.as_ref().expect("reordered");
        let corners = |p: &Primitive, list: &[u32]| {
            let mut corners: Vec<[[u32; 3]; 3]> = list
                .chunks_exact(3)
                .map(|t| [0, 1, 2].map(|k| p.positions[t[k] as usize].to_array().map(f32::to_bits)))
                .collect();
            corners.sort_unstable();
            corners
        };
        assert_eq!(corners(&drawn.primitive, &lists[0]), corners(&cube, &cube.indices));
        assert_eq!(corners(&drawn.primitive, &lists[1]), corners(&cube, &cube.lods[0].indices));
    }
}
