//! Animated properties beyond a node's transform and morph weights (glTF's
//! `KHR_animation_pointer`): material factors, texture transforms, light parameters and node
//! visibility (`KHR_node_visibility`).
//!
//! A model lists the properties its clips animate once ([`Properties`], held by the
//! [`crate::Rig`]), each with its rest value; a [`crate::Pose`] holds their current values, flat,
//! beside its morph weights, and a palette carries them to the GPU after the weights
//! ([`crate::Model::property_slot`]). A model whose clips animate none pays nothing.

use crate::material::{Material, TextureRef};
use crate::node_id::NodeId;
use crate::punctual::{Light, LightKind};

/// Index of an animated property in a rig's [`Properties`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PropertyId(pub u32);

/// A texture slot of a material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureSlot {
    /// `pbrMetallicRoughness.baseColorTexture`.
    BaseColor,
    /// `pbrMetallicRoughness.metallicRoughnessTexture`.
    MetallicRoughness,
    /// `normalTexture`.
    Normal,
    /// `occlusionTexture`.
    Occlusion,
    /// `emissiveTexture`.
    Emissive,
}

impl TextureSlot {
    /// Every slot, in the order [`Material::textures`] lists them.
    pub const ALL: [Self; 5] =
        [Self::BaseColor, Self::MetallicRoughness, Self::Normal, Self::Occlusion, Self::Emissive];

    /// The material's texture in this slot.
    #[must_use]
    pub fn of(self, material: &Material) -> Option<&TextureRef> {
        match self {
            Self::BaseColor => material.base_color_texture.as_ref(),
            Self::MetallicRoughness => material.metallic_roughness_texture.as_ref(),
            Self::Normal => material.normal_texture.as_ref(),
            Self::Occlusion => material.occlusion_texture.as_ref(),
            Self::Emissive => material.emissive_texture.as_ref(),
        }
    }

    /// The slot's place in the material's JSON (`pbrMetallicRoughness/baseColorTexture`).
    #[must_use]
    pub fn json_path(self) -> &'static str {
        match self {
            Self::BaseColor => "pbrMetallicRoughness/baseColorTexture",
            Self::MetallicRoughness => "pbrMetallicRoughness/metallicRoughnessTexture",
            Self::Normal => "normalTexture",
            Self::Occlusion => "occlusionTexture",
            Self::Emissive => "emissiveTexture",
        }
    }
}

/// An animatable field of a material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaterialField {
    /// `baseColorFactor` (4 values).
    BaseColor,
    /// `metallicFactor`.
    Metallic,
    /// `roughnessFactor`.
    Roughness,
    /// `emissiveFactor` (3 values).
    Emissive,
    /// `KHR_materials_emissive_strength.emissiveStrength`.
    EmissiveStrength,
    /// `alphaCutoff`.
    AlphaCutoff,
    /// `normalTexture.scale`.
    NormalScale,
    /// `occlusionTexture.strength`.
    OcclusionStrength,
    /// A texture's `KHR_texture_transform.offset` (2 values).
    TextureOffset(TextureSlot),
    /// A texture's `KHR_texture_transform.rotation`, radians.
    TextureRotation(TextureSlot),
    /// A texture's `KHR_texture_transform.scale` (2 values).
    TextureScale(TextureSlot),
}

/// An animatable field of a punctual light.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LightField {
    /// `color` (3 values).
    Color,
    /// `intensity`.
    Intensity,
    /// `range` (0 for none).
    Range,
    /// `spot.innerConeAngle`, radians.
    InnerConeAngle,
    /// `spot.outerConeAngle`, radians.
    OuterConeAngle,
}

/// What an animated property sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropertyTarget {
    /// A field of material `material` (an index into [`crate::Model::materials`]).
    Material {
        /// The material.
        material: u32,
        /// The field.
        field: MaterialField,
    },
    /// A field of light `light` (an index into [`crate::Model::lights`]).
    Light {
        /// The light.
        light: u32,
        /// The field.
        field: LightField,
    },
    /// Whether a node and what is below it are shown (`KHR_node_visibility.visible`): 1 or 0.
    NodeVisible(NodeId),
}

impl PropertyTarget {
    /// Values the property holds.
    #[must_use]
    pub fn width(self) -> usize {
        match self {
            Self::Material { field, .. } => match field {
                MaterialField::BaseColor => 4,
                MaterialField::Emissive => 3,
                MaterialField::TextureOffset(_) | MaterialField::TextureScale(_) => 2,
                _ => 1,
            },
            Self::Light { field: LightField::Color, .. } => 3,
            Self::Light { .. } | Self::NodeVisible(_) => 1,
        }
    }

    /// Whether the property is a boolean: it is keyed with steps and blends by switching at
    /// half weight, never in between.
    #[must_use]
    pub fn is_boolean(self) -> bool {
        matches!(self, Self::NodeVisible(_))
    }

    /// Its value in `materials` and `lights` as imported, `None` when it names something they
    /// do not have (a material or light out of range, a texture slot without a texture, a
    /// cone angle of a light that is no spot).
    #[must_use]
    pub fn rest_value(self, materials: &[Material], lights: &[Light]) -> Option<Vec<f32>> {
        Some(match self {
            Self::Material { material, field } => {
                let m = materials.get(material as usize)?;
                match field {
                    MaterialField::BaseColor => m.base_color_factor.to_vec(),
                    MaterialField::Metallic => vec![m.metallic_factor],
                    MaterialField::Roughness => vec![m.roughness_factor],
                    MaterialField::Emissive => m.emissive_factor.to_vec(),
                    MaterialField::EmissiveStrength => vec![m.emissive_strength],
                    MaterialField::AlphaCutoff => match m.alpha_mode {
                        crate::material::AlphaMode::Mask { cutoff } => vec![cutoff],
                        _ => vec![0.5],
                    },
                    MaterialField::NormalScale => vec![m.normal_scale],
                    MaterialField::OcclusionStrength => vec![m.occlusion_strength],
                    MaterialField::TextureOffset(slot) => slot.of(m)?.transform.offset.to_vec(),
                    MaterialField::TextureRotation(slot) => vec![slot.of(m)?.transform.rotation],
                    MaterialField::TextureScale(slot) => slot.of(m)?.transform.scale.to_vec(),
                }
            }
            Self::Light { light, field } => {
                let l = lights.get(light as usize)?;
                match (field, l.kind) {
                    (LightField::Color, _) => l.color.to_vec(),
                    (LightField::Intensity, _) => vec![l.intensity],
                    (LightField::Range, _) => vec![l.range.unwrap_or(0.0)],
                    (LightField::InnerConeAngle, LightKind::Spot { inner_cone_angle, .. }) => vec![inner_cone_angle],
                    (LightField::OuterConeAngle, LightKind::Spot { outer_cone_angle, .. }) => vec![outer_cone_angle],
                    _ => return None,
                }
            }
            Self::NodeVisible(_) => vec![1.0],
        })
    }
}

/// The properties a rig's clips animate: each one's target and rest value, values flat.
#[derive(Clone, Debug, PartialEq)]
pub struct Properties {
    targets: Vec<PropertyTarget>,
    offsets: Vec<u32>,
    defaults: Vec<f32>,
}

impl Properties {
    /// Heap bytes of its tables.
    pub(crate) fn heap_bytes(&self) -> u64 {
        (size_of_val(&*self.targets) + size_of_val(&*self.offsets) + size_of_val(&*self.defaults)) as u64
    }

    /// No properties.
    #[must_use]
    pub fn new() -> Self {
        Self { targets: Vec::new(), offsets: vec![0], defaults: Vec::new() }
    }

    /// Adds `target` with rest value `rest` (of [`PropertyTarget::width`] values; a boolean's
    /// is 1 or 0) and returns its id; a target added before keeps its id and rest value.
    ///
    /// # Panics
    /// If `rest` does not have the target's width.
    pub fn add(&mut self, target: PropertyTarget, rest: &[f32]) -> PropertyId {
        assert_eq!(rest.len(), target.width(), "a property's rest value has its width");
        if let Some(id) = self.find(target) {
            return id;
        }
        self.targets.push(target);
        self.defaults.extend_from_slice(rest);
        self.offsets.push(self.defaults.len() as u32);
        PropertyId(self.targets.len() as u32 - 1)
    }

    /// The id of `target`, if it is listed.
    #[must_use]
    pub fn find(&self, target: PropertyTarget) -> Option<PropertyId> {
        self.targets.iter().position(|&t| t == target).map(|i| PropertyId(i as u32))
    }

    /// Number of properties.
    #[must_use]
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The targets, by id.
    #[must_use]
    pub fn targets(&self) -> &[PropertyTarget] {
        &self.targets
    }

    /// Where property `id`'s values lie among [`Properties::defaults`] (and a pose's values).
    ///
    /// # Panics
    /// If `id` is out of range.
    #[must_use]
    pub fn range(&self, id: PropertyId) -> std::ops::Range<usize> {
        let i = id.0 as usize;
        self.offsets[i] as usize..self.offsets[i + 1] as usize
    }

    /// Every property's rest value, flat, by id.
    #[must_use]
    pub fn defaults(&self) -> &[f32] {
        &self.defaults
    }

    /// The properties of node visibility, with their node.
    pub fn visibility(&self) -> impl Iterator<Item = (PropertyId, NodeId)> + '_ {
        (0u32..).zip(&self.targets).filter_map(|(i, t)| match t {
            PropertyTarget::NodeVisible(node) => Some((PropertyId(i), *node)),
            _ => None,
        })
    }

    /// Checks every target against the model's parts: nodes among `nodes`, materials,
    /// texture slots and lights that exist.
    pub(crate) fn check(&self, nodes: usize, materials: &[Material], lights: &[Light]) -> Result<(), PropertyTarget> {
        for &target in &self.targets {
            let exists = match target {
                PropertyTarget::NodeVisible(node) => node.index() < nodes,
                _ => target.rest_value(materials, lights).is_some(),
            };
            if !exists {
                return Err(target);
            }
        }
        Ok(())
    }
}

impl Default for Properties {
    fn default() -> Self {
        Self::new()
    }
}

/// Blends `sample` into `values` (one property's) by `weight`: numbers move part of the way,
/// booleans switch at half weight.
pub(crate) fn blend(values: &mut [f32], sample: &[f32], weight: f32, boolean: bool) {
    for (value, &target) in values.iter_mut().zip(sample) {
        *value = match boolean {
            true if weight >= 0.5 => target,
            true => *value,
            false => *value + (target - *value) * weight,
        };
    }
}

/// Adds `weight` times the change from `reference` to `sample` to `values`; booleans are not
/// additive and are left as they are.
pub(crate) fn add(values: &mut [f32], sample: &[f32], reference: &[f32], weight: f32, boolean: bool) {
    if boolean {
        return;
    }
    for ((value, &s), &r) in values.iter_mut().zip(sample).zip(reference) {
        *value += (s - r) * weight;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_listed_once_with_their_rest_values() {
        let mut table = Properties::new();
        let emissive = PropertyTarget::Material { material: 0, field: MaterialField::Emissive };
        let visible = PropertyTarget::NodeVisible(NodeId(1));
        assert_eq!(table.add(emissive, &[0.1, 0.2, 0.3]), PropertyId(0));
        assert_eq!(table.add(visible, &[0.0]), PropertyId(1));
        assert_eq!(table.add(emissive, &[9.0; 3]), PropertyId(0), "added before: same id, same rest");
        assert_eq!(table.defaults(), [0.1, 0.2, 0.3, 0.0]);
        assert_eq!(table.range(PropertyId(1)), 3..4);
        assert_eq!(table.visibility().collect::<Vec<_>>(), [(PropertyId(1), NodeId(1))]);
        assert_eq!(Properties::default(), Properties::new());
    }

    #[test]
    fn numbers_blend_and_booleans_switch_at_half_weight() {
        let mut values = [0.0, 1.0];
        blend(&mut values, &[1.0, 0.0], 0.25, false);
        assert_eq!(values, [0.25, 0.75]);
        let mut shown = [1.0];
        blend(&mut shown, &[0.0], 0.49, true);
        assert_eq!(shown, [1.0]);
        blend(&mut shown, &[0.0], 0.5, true);
        assert_eq!(shown, [0.0]);
        let mut added = [1.0];
        add(&mut added, &[3.0], &[2.0], 0.5, false);
        assert_eq!(added, [1.5]);
        add(&mut shown, &[1.0], &[0.0], 1.0, true);
        assert_eq!(shown, [0.0], "booleans are not additive");
    }
}
