//! A model's impostor ([`Impostor`]): what it is drawn as once it spans a few pixels, in
//! place of every primitive's coarsest level.

use glam::Vec4;

use crate::material::Material;
use crate::mesh::{Primitive, Topology};

/// What a model is drawn as at its coarsest level of detail, in place of all its primitives:
/// a box that covers as much of the view as the model does seen along each of its axes, each
/// face coloured and turned as the surfaces seen from that side are on average (made at
/// import by `props_gltf`).
///
/// Why: below a dozen triangles a simplified mesh cannot keep its area (a two-triangle quad is
/// culled from half of all directions), so a city's props a few pixels tall lose coverage and
/// the distance turns lighter. A box keeps each side's coverage and colour in 12 triangles.
#[derive(Clone, Debug, PartialEq)]
pub struct Impostor {
    /// The box: a rigid triangle list over its own vertices, whose colours (`COLOR_0`) are
    /// its faces': the colour seen from that side in rgb, and in alpha the share of it that
    /// is paint ([`Material::is_paint`]); no influences, morph targets or levels.
    pub primitive: Primitive,
    /// What it is shaded with: the model's mean metalness, roughness and emission, no
    /// textures, and as base colour the paint's as the views see it (white without paint).
    /// Its vertices carry the colour: an instance's tint moves each face's colour by its
    /// share of paint from this colour to the tint's. Named `painted impostor` where the
    /// model shows paint (so it [`Material::is_paint`]), else `impostor`.
    pub material: Material,
    /// The mesh instance whose node places it: the box is in that node's space.
    pub instance: u32,
    /// The material whose animated emission (`KHR_animation_pointer`) the impostor's
    /// follows (a house's windows lit at night), its [`Material::emissive_factor`] and
    /// [`Material::emissive_strength`] then that material's times the share of the views it
    /// covers; `None`: its emission is fixed.
    pub emission_of: Option<u32>,
    /// How far the model's surface strays from the box, in the model's units, at rest and as
    /// far as its morph targets can move it: the error of the level it is drawn at
    /// ([`crate::Model::with_impostor`] keeps it among the levels').
    pub error: f32,
    /// How far the morph targets can move the model's surface from where it is at rest, in
    /// the model's units (0 without them). A box cannot morph, so the level it is drawn at
    /// never has a smaller error, whatever level it stands in for: an animated morph shows
    /// until it spans under a pixel.
    pub morph_reach: f32,
    /// How it looks in each of the model's material variants (`KHR_materials_variants`), in
    /// their order: the box seen in the variant's materials as `primitive` and `material`
    /// see the model in its own, so that a taxi a few pixels tall stays a taxi. Empty: its
    /// own look in every variant. Its shape, emission and error are the same in all.
    pub material_variants: Vec<ImpostorLook>,
}

/// How an [`Impostor`] looks in one of its model's material variants.
#[derive(Clone, Debug, PartialEq)]
pub struct ImpostorLook {
    /// Each of the box's vertices' colours, as its primitive's `COLOR_0`.
    pub colors: Vec<Vec4>,
    /// What it is shaded with, as [`Impostor::material`] in the model's own materials.
    pub material: Material,
}

impl Impostor {
    /// What is wrong with it as an impostor of a model with `instances` mesh instances,
    /// `materials` materials and `variants` material variants, if anything.
    pub(crate) fn problem(&self, instances: usize, materials: usize, variants: usize) -> Option<&'static str> {
        let p = &self.primitive;
        let vertices = p.vertex_count();
        let looks = &self.material_variants;
        if self.instance as usize >= instances {
            Some("it names a mesh instance the model does not have")
        } else if self.emission_of.is_some_and(|m| m as usize >= materials) {
            Some("its emission follows a material the model does not have")
        } else if p.topology != Topology::Triangles
            || !p.indices.len().is_multiple_of(3)
            || p.indices.iter().any(|&i| i as usize >= vertices)
        {
            Some("its indices are not whole triangles over its vertices")
        } else if p.normals.len() != vertices || !(p.colors.is_empty() || p.colors.len() == vertices) {
            Some("its normals or colours are not one a vertex")
        } else if !p.positions.iter().chain(&p.normals).all(|v| v.is_finite()) {
            Some("its positions or normals are not finite")
        } else if p.influences.is_some() || !p.morph_targets.is_empty() || !p.lods.is_empty() {
            Some("it is skinned, morphed or has levels of its own")
        } else if !(looks.is_empty() || looks.len() == variants) {
            Some("it has a look for other material variants than the model's")
        } else if looks.iter().any(|look| look.colors.len() != vertices || !look.colors.iter().all(|c| c.is_finite())) {
            Some("a material variant's colours are not one finite colour a vertex")
        } else if std::iter::once(&self.material)
            .chain(looks.iter().map(|l| &l.material))
            .any(|m| m.textures().next().is_some())
        {
            Some("its material reads textures")
        } else if !(self.error.is_finite() && self.error >= 0.0) {
            Some("its error is not a number at least 0")
        } else if !(self.morph_reach.is_finite() && self.morph_reach >= 0.0) {
            Some("its morph reach is not a number at least 0")
        } else {
            None
        }
    }
}
