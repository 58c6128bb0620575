//! A model's draws, one list per material variant (`KHR_materials_variants`): the parts drawn
//! alone, each in the material the variant gives it (its own where the variant gives none),
//! then the draws every variant shares (merged parts), then the impostor in the variant's look
//! (its colours as seen in the variant's materials, where it has them). Each list holds its opaque
//! draws first, each pipeline's together, then its blended ones; in mesh-instance then
//! primitive order within each. The lists index one upload of the model's vertices and
//! textures: a variant costs its draws, not its geometry. Each draw ([`DrawItem`]) is a primitive
//! placed by one mesh instance (`gpu_model.rs` uploads them), with its index ranges per level.

use glam::Vec3;
use props_anim::Model;
use props_anim::material::AlphaMode;

use crate::drawn::DrawnMeshes;
use crate::pipeline_key::PipelineKey;
use crate::renderer_config::PassCount;

/// Whether a draw's vertices are posed by one node's matrix or by a skin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Posing {
    /// By its node's matrix: every vertex the same.
    Rigid,
    /// By a skin's joints, per vertex.
    Skinned,
}

/// Levels of detail a draw holds index ranges for: a model's most.
pub const MAX_LEVELS: usize = Model::MAX_LOD_LEVELS;

/// One draw of a model: a primitive placed by one mesh instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawItem {
    /// At each of the model's levels of detail, its primitive's indices: their range in the
    /// model's index buffer (first, count; no count: not drawn), the full primitive's first;
    /// `levels` of them are set.
    pub ranges: [(u32, u32); MAX_LEVELS],
    /// The model's levels of detail (1: the full primitives alone).
    pub levels: u8,
    /// Distinct vertices each level's indices reference.
    pub level_vertices: [u32; MAX_LEVELS],
    /// Added to every index.
    pub base_vertex: i32,
    /// Index of the material bind group.
    pub material: usize,
    /// The pipeline it takes (its material's, and what its vertices carry).
    pub key: PipelineKey,
    /// Its material is alpha-masked: its shadow is cut out where the mask cuts.
    pub masked: bool,
    /// Byte offset of this draw's `DrawParams` in the model's draw buffer.
    pub params_offset: u32,
    /// The centre of its primitive's box, in its node's space (a rigid draw) or the model's
    /// (a skinned one, in its bind pose): where it is, for ordering blended draws.
    pub center: Vec3,
    /// Its palette offset (see `DrawParams::joint_offset`), and whether that is its node's
    /// matrix (a rigid draw) rather than its skin's first joint.
    pub node_matrix: Option<u32>,
    /// How its vertices are posed: the pipelines it takes.
    pub posing: Posing,
}

impl DrawItem {
    /// Its indices at level of detail `level` (past its last level, its last's).
    #[must_use]
    pub fn indices(&self, level: u8) -> std::ops::Range<u32> {
        let (first, count) = self.ranges[usize::from(level.min(self.levels - 1))];
        first..first + count
    }

    /// What drawing it at `level` for `instances` instances submits (points and lines: their
    /// vertices alone).
    #[must_use]
    pub fn count(&self, level: u8, instances: u32) -> PassCount {
        let at = usize::from(level.min(self.levels - 1));
        let instances = u64::from(instances);
        let triangles = if self.key.faces() { self.ranges[at].1 / 3 } else { 0 };
        PassCount {
            triangles: u64::from(triangles) * instances,
            vertices: u64::from(self.level_vertices[at]) * instances,
        }
    }
}

/// A model's draws in each of its material variants, its own materials' first.
pub(crate) struct DrawLists {
    /// Every list, back to back.
    draws: Vec<DrawItem>,
    /// Each list's start, first blended draw and end in `draws`.
    lists: Vec<[usize; 3]>,
}

/// The draws of a model in one material variant ([`DrawLists::of`]).
pub(crate) struct DrawList<'a> {
    /// The opaque ones, each pipeline's together.
    pub opaque: &'a [DrawItem],
    /// The blended ones.
    pub blended: &'a [DrawItem],
    /// The index of the first blended one in [`DrawLists::get`]'s numbering.
    pub first_blended: usize,
}

impl DrawList<'_> {
    /// Every one: the opaque ones, then the blended ones.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &DrawItem> {
        self.opaque.iter().chain(self.blended)
    }
}

/// A part drawn alone: which primitive of which mesh, and how its mesh instance draws it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AlonePart {
    pub(crate) mesh: usize,
    pub(crate) primitive: usize,
    /// An animation can hide its mesh instance.
    pub(crate) hideable: bool,
    /// Its node mirrors it ([`crate::draw_merge::MergePlan::mirrored`]).
    pub(crate) mirrored: bool,
}

impl DrawLists {
    /// The lists of `model`, whose primitives are drawn as `drawn`: `alone`, the draws of the
    /// parts drawn alone with each one's mesh, primitive, whether an animation can hide it and
    /// whether its node mirrors it;
    /// `shared`, the draws every variant shares, then the impostor's (none, its own look's
    /// alone, or its own look's then each variant's); `materials`, each material's bind group
    /// and pipeline key, the default material's at `default_material`.
    pub(crate) fn new(
        (model, drawn): (&Model, &DrawnMeshes<'_>),
        alone: (&[DrawItem], &[AlonePart]),
        (shared, impostors): (&[DrawItem], &[DrawItem]),
        (materials, default_material): (&[(wgpu::BindGroup, PipelineKey)], usize),
    ) -> Self {
        let variants = std::iter::once(None).chain((0..model.material_variants().len()).map(|v| Some(v as u8)));
        let mut lists = Vec::new();
        let mut draws = Vec::with_capacity((alone.0.len() + shared.len() + 1) * (1 + model.material_variants().len()));
        for material_variant in variants {
            let start = draws.len();
            for (draw, &AlonePart { mesh, primitive: p, hideable, mirrored }) in alone.0.iter().zip(alone.1) {
                let material =
                    model.primitive_material(mesh, p, material_variant).map_or(default_material, |m| m as usize);
                let key = materials.get(material).map_or_else(PipelineKey::default, |(_, key)| *key);
                let masked =
                    model.materials().get(material).is_some_and(|m| matches!(m.alpha_mode, AlphaMode::Mask { .. }));
                let key = key.of_draw(drawn.primitive(mesh, p), (hideable, mirrored));
                draws.push(DrawItem { material, key, masked, ..*draw });
            }
            draws.extend_from_slice(shared);
            let look = material_variant.map_or(0, |v| usize::from(v) + 1);
            draws.extend(impostors.get(look).or(impostors.first()));
            // Opaque draws first, grouped by pipeline (the sort is stable: file order within each).
            let list = &mut draws[start..];
            list.sort_by_key(|draw| (draw.key.index(), draw.posing == Posing::Skinned));
            let opaque = list.iter().filter(|draw| !draw.key.blend).count();
            lists.push([start, start + opaque, draws.len()]);
        }
        Self { draws, lists }
    }

    /// The draws in material variant `material_variant` (`None`, or one the model does not
    /// have: its own materials').
    pub(crate) fn of(&self, material_variant: Option<u8>) -> DrawList<'_> {
        let list = material_variant.and_then(|v| self.lists.get(usize::from(v) + 1)).unwrap_or(&self.lists[0]);
        let [start, blended, end] = *list;
        DrawList { opaque: &self.draws[start..blended], blended: &self.draws[blended..end], first_blended: blended }
    }

    /// Every list's draws, back to back (each draw a pipeline is made for).
    pub(crate) fn all(&self) -> &[DrawItem] {
        &self.draws
    }

    /// Draw number `index` of [`DrawLists::all`], if there is one.
    pub(crate) fn get(&self, index: usize) -> Option<&DrawItem> {
        self.draws.get(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use props_anim::Topology;

    /// A draw of triangles submits a third of its indices as triangles; one of points or lines
    /// submits its vertices alone (the counters are of faces drawn).
    #[test]
    fn points_and_lines_submit_vertices_and_no_triangles() {
        let draw = |topology| DrawItem {
            ranges: [(0, 36); MAX_LEVELS],
            levels: 1,
            level_vertices: [24; MAX_LEVELS],
            base_vertex: 0,
            material: 0,
            key: PipelineKey { topology, ..PipelineKey::default() },
            masked: false,
            params_offset: 0,
            center: Vec3::ZERO,
            node_matrix: None,
            posing: Posing::Rigid,
        };
        assert_eq!(draw(Topology::Triangles).count(0, 10), PassCount { triangles: 120, vertices: 240 });
        for stroke in [Topology::Lines, Topology::Points] {
            assert_eq!(draw(stroke).count(0, 10), PassCount { triangles: 0, vertices: 240 }, "{stroke:?}");
        }
    }
}
