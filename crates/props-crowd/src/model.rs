//! The models crowds show: [`PropModel`], a model as the host registered it (its renderer id,
//! its scale to metres, the names a sidecar gives its parts), and [`BoundModel`], a model bound
//! to what is animated on it (the clips its instances play, the nodes driven, the values set
//! directly), which a [`crate::ModelCrowd`] poses.

use std::sync::Arc;

use props_anim::{Model, Spec};
use props_frame::ModelId;

use crate::bindings::Bindings;

/// A model as the host registered it: the imported model, the id the renderer knows it by,
/// its scale to metres and the names a sidecar gives its parts and states.
#[derive(Clone, Debug)]
pub struct PropModel {
    /// The renderer's name for the model.
    pub id: ModelId,
    /// The imported model.
    pub model: Arc<Model>,
    /// Metres per model unit as its props are shown (Fox.glb is in centimetres: 0.01): a
    /// crowd rates its props' update rate, pose steps and near band in metres by it (a
    /// centimetre model placed at 0.01 as a metre model placed at 1), and a scene's kinds place
    /// their props at it. A host placing its instances itself sets the same scale in their
    /// placements.
    pub scale: f32,
    /// The names a sidecar gives the parts and states a scene's kind drives (its naming
    /// conventions where none is given); a [`crate::CrowdSet`] binds by [`crate::Animates`]
    /// instead.
    pub bindings: Bindings,
}

impl PropModel {
    /// A model in metres.
    #[must_use]
    pub fn new(id: ModelId, model: Arc<Model>) -> Self {
        Self { id, model, scale: 1.0, bindings: Bindings::default() }
    }

    /// The same model at `scale` metres per unit ([`PropModel::scale`]).
    #[must_use]
    pub fn with_scale(self, scale: f32) -> Self {
        Self { scale, ..self }
    }

    /// The same model with its parts and clips bound by other names.
    #[must_use]
    pub fn with_bindings(self, bindings: Bindings) -> Self {
        Self { bindings, ..self }
    }
}

/// A model bound to what is animated on it: the clips its instances play, the nodes driven and
/// the values set directly ([`Spec`]), the layers each instance has, and whether its states
/// are discrete. What a [`crate::ModelCrowd`] is made for.
#[derive(Clone, Debug)]
pub struct BoundModel {
    /// The model.
    pub prop: PropModel,
    /// The clips its instances may play and the nodes the simulation turns.
    pub spec: Spec,
    /// Clip layers per instance.
    pub layers: usize,
    /// Whether its states are discrete (a light's phase): shared only when equal, never
    /// quantized.
    pub discrete: bool,
    /// Clip numbers below `spec.clips`' length its model has no clip for (a new version
    /// lacking a clip of an earlier version's, [`crate::Animates`]), in increasing order: no
    /// instance plays them, and another clip stands in for each in `spec.clips`.
    pub missing_clips: Vec<u16>,
}

impl BoundModel {
    /// `prop` animated as `spec` says, with `layers` clip layers per instance, its states
    /// continuous.
    #[must_use]
    pub fn new(prop: PropModel, spec: Spec, layers: usize) -> Self {
        Self { prop, spec, layers, discrete: false, missing_clips: Vec::new() }
    }
}
