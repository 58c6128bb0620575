//! The prop models a game hands in ([`PropModel`]: each with its renderer id, its scale and its
//! bindings), and what a kind makes of one ([`KindModel`]: the model with the clips and nodes
//! the kind animates, from `PropKind::rig`).

use std::sync::Arc;

use props_anim::{Model, Spec};
use props_frame::ModelId;

use crate::bindings::Bindings;

/// One prop model as the game registered it: the renderer knows it as `id`.
#[derive(Clone, Debug)]
pub struct PropModel {
    /// The renderer's name for the model.
    pub id: ModelId,
    /// The imported model.
    pub model: Arc<Model>,
    /// Uniform scale from model units to metres (Fox.glb is in centimetres: 0.01).
    pub scale: f32,
    /// Which of its nodes and clips the scene drives (the conventions where not bound).
    pub bindings: Bindings,
}

impl PropModel {
    /// A model in metres.
    #[must_use]
    pub fn new(id: ModelId, model: Arc<Model>) -> Self {
        Self { id, model, scale: 1.0, bindings: Bindings::default() }
    }

    /// The same model drawn `scale` times larger.
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

/// One model of a kind, compiled for what the kind animates on it.
#[derive(Clone, Debug)]
pub struct KindModel {
    /// The model.
    pub prop: PropModel,
    /// The clips its instances may play and the nodes the simulation turns.
    pub spec: Spec,
    /// Clip layers per instance.
    pub layers: usize,
    /// Largest scale of an instance relative to the model's (for culling bounds).
    pub max_scale: f32,
    /// Whether its states are discrete (a light's phase): shared only when equal, never
    /// quantized.
    pub discrete: bool,
}

impl KindModel {
    /// `prop` animated as `spec` says, with `layers` clip layers per instance, drawn at its
    /// scale, its states continuous.
    #[must_use]
    pub fn new(prop: PropModel, spec: Spec, layers: usize) -> Self {
        Self { prop, spec, layers, max_scale: 1.0, discrete: false }
    }
}
