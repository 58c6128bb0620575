//! What the GPU is given of a model's primitives. The model keeps the file's vertices and
//! triangles (poses, bounds, picking and the oracle read them); what is uploaded differs for a
//! faceted primitive, which is drawn flat over welded vertices ([`crate::facets`]), each of
//! its triangle lists, every level of detail, then put in the order that reuses the vertices
//! the GPU has just shaded (meshoptimizer's vertex-cache optimizer). The importer puts every
//! other opaque primitive's triangles in that order (`props-gltf`'s `vertex_cache.rs`, off the
//! thread that draws); a faceted one's corners are each a triangle's own until welded, so its
//! order is made here. A GPU shades the distinct vertices of a batch of consecutive triangles
//! together: the town's fox, welded to 434 vertices, is shaded 1,182 times in the file's order
//! and 525 in this one (by meshoptimizer's model of an NVIDIA GPU). The same triangles, each
//! with its corners in the same order (the same winding), are drawn, only in another order. A
//! blended primitive keeps the file's order, in which three.js draws its overlapping faces.

use std::borrow::Cow;

use props_anim::material::Material;
use props_anim::{Model, Primitive};

use crate::facets::welded;

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

/// `primitive` as drawn: where faceted, welded, its triangles in vertex-cache order unless
/// `blended`; otherwise as it is.
fn drawn(primitive: &Primitive, blended: bool) -> Drawn<'_> {
    match welded(primitive) {
        Some(welded) => {
            let ordered = if blended { None } else { cache_ordered(&welded) };
            Drawn { primitive: Cow::Owned(welded), ordered }
        }
        None => Drawn { primitive: Cow::Borrowed(primitive), ordered: None },
    }
}

/// Each of `primitive`'s index lists (its own, then each level's) in vertex-cache order; none
/// where that changes nothing, or where a list is not whole triangles over its vertices
/// ([`Primitive::is_whole_triangles`]: the optimizer would abort on such a list).
fn cache_ordered(primitive: &Primitive) -> Option<Vec<Vec<u32>>> {
    if !primitive.is_whole_triangles() {
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
    use crate::facets::tests::faceted_cube;

    /// Each of `list`'s triangles as its corners' positions in `primitive`, sorted.
    fn corners(primitive: &Primitive, list: &[u32]) -> Vec<[[u32; 3]; 3]> {
        let mut corners: Vec<[[u32; 3]; 3]> = list
            .chunks_exact(3)
            .map(|t| [0, 1, 2].map(|k| primitive.positions[t[k] as usize].to_array().map(f32::to_bits)))
            .collect();
        corners.sort_unstable();
        corners
    }

    #[test]
    fn a_smooth_primitive_is_drawn_as_the_importer_left_it() {
        // The importer has ordered its triangles; the renderer neither copies nor reorders.
        let mut smooth = faceted_cube();
        smooth.normals.fill(glam::Vec3::Z);
        let drawn = drawn(&smooth, false);
        assert!(drawn.ordered.is_none());
        assert!(matches!(drawn.primitive, Cow::Borrowed(p) if std::ptr::eq(p, &smooth)));
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
            meshes: vec![Mesh { name: None, primitives: vec![faceted_cube()] }],
            instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
            ..ModelParts::default()
        })
        .expect("valid");
        let drawn = DrawnMeshes::new(&model);
        assert!(drawn.meshes[0][0].ordered.is_some(), "welded and reordered");
        let cube = drawn.primitive(0, 0);
        for level in 0..4 {
            let (welded, drawn) = (cube.lod_indices(level), drawn.level(0, 0, level));
            assert_eq!(corners(cube, drawn), corners(cube, welded), "level {level}");
        }
    }

    #[test]
    fn a_blended_faceted_primitive_is_welded_in_the_file_s_order() {
        let cube = faceted_cube();
        let drawn = drawn(&cube, true);
        assert!(drawn.ordered.is_none());
        assert_eq!(corners(&drawn.primitive, &drawn.primitive.indices), corners(&cube, &cube.indices));
        assert_eq!(drawn.primitive.vertex_count(), 8);
    }

    #[test]
    fn a_list_past_its_vertices_or_of_broken_triangles_is_drawn_as_it_is() {
        let mut past = faceted_cube();
        past.lods[0].indices[0] = 24;
        assert!(matches!(drawn(&past, false), Drawn { primitive: Cow::Borrowed(_), ordered: None }));
        let mut broken = faceted_cube();
        broken.indices.pop();
        assert!(matches!(drawn(&broken, false), Drawn { primitive: Cow::Borrowed(_), ordered: None }));
    }

    #[test]
    fn a_faceted_primitive_is_welded_then_ordered() {
        let cube = faceted_cube();
        let drawn = drawn(&cube, false);
        assert_eq!((drawn.primitive.vertex_count(), drawn.primitive.flat), (8, true));
        // The order is made over the welded vertices: each list drawn, read through them, is
        // the file's triangles, corner for corner.
        let lists = drawn.ordered.as_ref().expect("reordered");
        assert_eq!(corners(&drawn.primitive, &lists[0]), corners(&cube, &cube.indices));
        assert_eq!(corners(&drawn.primitive, &lists[1]), corners(&cube, &cube.lods[0].indices));
    }
}
