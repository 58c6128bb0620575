//! The prop models the game hands in: each with its renderer id, its scale and its
//! bindings; the built-in kinds' models as [`SceneModels`]. What a kind animates on each is
//! its own (`PropKind::rig`).

use std::sync::Arc;

use props_anim::Model;
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

/// The base asset of each prop kind the game ships (windmill, car, traffic light, fox, in
/// [`SceneModels`] order, then the bus of [`crate::Buses`]): its file stem (`assets/<stem>.glb`,
/// and the name of a mod that overrides it) and its scale from model units to metres (Fox.glb
/// is in centimetres).
pub const PROP_ASSETS: [(&str, f32); 5] =
    [("windmill", 1.0), ("car", 1.0), ("traffic_light", 1.0), ("Fox", 0.01), ("bus", 1.0)];

/// The models of the scene's props. Node and clip names are those of `assets/README.md`:
///
/// - windmill: nodes `nacelle` (yawed about local Y) and `hub` (turned about local Z);
/// - car: nodes `steer_front_left`, `steer_front_right` (about Y), `wheel_front_left`,
///   `wheel_front_right`, `wheel_rear_left`, `wheel_rear_right` (about X);
/// - traffic light: clips `green`, `amber`, `red`;
/// - fox: clips `Walk`, `Run`.
#[derive(Clone, Debug)]
pub struct SceneModels {
    /// Windmills on the hills.
    pub windmill: PropModel,
    /// Cars on the roads.
    pub car: PropModel,
    /// More car models: each car shows one of `car` and these, picked per car from the
    /// town's seed (mods add variety this way).
    pub extra_cars: Vec<PropModel>,
    /// Traffic lights at the intersections.
    pub traffic_light: PropModel,
    /// Foxes in the parks.
    pub fox: PropModel,
}
