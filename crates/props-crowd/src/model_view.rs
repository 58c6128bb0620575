//! [`ModelView`]: what a host sees of one of its models: the clips its instances' layers play,
//! numbered as the host's [`crate::Animates`] numbers them, with their names and durations;
//! its nodes by name, at rest (a wheel's radius is its rest height); and its size.

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::Model;
use props_frame::ModelId;

use crate::model::BoundModel;

/// Samples per clip [`ModelView::size`] takes the model's box at.
const SIZE_SAMPLES: usize = 8;

/// One of a model's clips as a host plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipInfo {
    /// What a layer gives to play it (`Layer::looping(info.number, seconds)`).
    pub number: u16,
    /// Its name in the file, if it has one.
    pub name: Option<String>,
    /// How long it lasts, seconds.
    pub duration: f32,
}

/// One node of a model at rest: where it stands relative to its parent, and in the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeRest {
    /// Its rest transform relative to its parent.
    pub local: Affine3A,
    /// Its rest transform in the model's frame (a wheel's centre height is
    /// `model.translation.y`).
    pub model: Affine3A,
}

/// A host's model as the host sees it (see the module documentation); from
/// [`crate::CrowdSet::model`].
#[derive(Clone, Copy, Debug)]
pub struct ModelView<'a> {
    bound: &'a BoundModel,
}

impl<'a> ModelView<'a> {
    /// A view of `bound`.
    pub(crate) fn new(bound: &'a BoundModel) -> Self {
        Self { bound }
    }

    /// The renderer's id of the model.
    #[must_use]
    pub fn id(&self) -> ModelId {
        self.bound.prop.id
    }

    /// The clips its instances may play, in the host's numbering.
    pub fn clips(&self) -> impl Iterator<Item = ClipInfo> + 'a {
        let (model, clips) = (&self.bound.prop.model, &self.bound.spec.clips);
        let missing = &self.bound.missing_clips;
        // Numbered below `Layer::OFF`: a crowd plays no more clips.
        let numbered = clips.iter().enumerate().map(|(number, clip)| (number as u16, clip));
        numbered.filter(|(number, _)| missing.binary_search(number).is_err()).map(|(number, &clip)| {
            let clip = &model.clips()[clip];
            ClipInfo { number, name: clip.name().map(str::to_owned), duration: clip.duration() }
        })
    }

    /// The clip named `name`, if its instances may play it.
    #[must_use]
    pub fn clip(&self, name: &str) -> Option<ClipInfo> {
        self.clips().find(|clip| clip.name.as_deref() == Some(name))
    }

    /// The names of its material variants (`KHR_materials_variants`: a car's liveries), which
    /// [`crate::InstanceMut::set_material_variant`] draws an instance in.
    pub fn material_variants(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.bound.prop.model.material_variants().iter().map(|material_variant| material_variant.name.as_str())
    }

    /// The node named `name`, at rest.
    #[must_use]
    pub fn node(&self, name: &str) -> Option<NodeRest> {
        let model = &self.bound.prop.model;
        let node = model.rig().find(name)?;
        let rest = model.pose_at(None, 0.0);
        Some(NodeRest { local: model.rig().rest_matrix(node), model: rest.world_matrix(node) })
    }

    /// Its width, height and depth: the box its vertices fill at rest and through its clips, in
    /// the model's units, which glTF says are metres (a model made in centimetres is a hundred
    /// times too large: its instances' placements scale it down). Zero for a model without
    /// vertices.
    #[must_use]
    pub fn size(&self) -> Vec3 {
        self.bound.prop.model.sampled_extent(SIZE_SAMPLES).map_or(Vec3::ZERO, |e| e.max - e.min)
    }

    /// The imported model itself, for tools.
    #[must_use]
    pub fn model(&self) -> &'a Arc<Model> {
        &self.bound.prop.model
    }
}
