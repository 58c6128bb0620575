//! The demo town as a `hecs` world: a grid of two-way roads with signalled intersections, cars
//! following lanes with the Intelligent Driver Model, windmills on a ring of hills turning in
//! a wind field, and foxes walking, running and resting in the parks; a game adds its own prop
//! kinds ([`PropKind`], registered with [`Scene::register`]), such as the [`Buses`]. Each
//! step, systems (plain functions of the world and a fixed `dt`, one per kind) move everything
//! and set each prop's animation state; once per frame the animation runtime poses what the
//! camera sees and extraction lists it as [`props_frame::FrameData`] instances, one batch per
//! model.
//!
//! ```text
//! Scene::new(config, models) -> step(dt) x N -> animate(&mut frame) -> extract(&mut frame) -> renderer
//! ```
//!
//! Every prop is animated by the animation runtime (`props_anim::Crowd`), one per model: its
//! drivers turn the windmill's nacelle and hub and the car's wheels and steering pivots, its
//! clip layers play the traffic lights' lamps and the foxes' gaits with their crossfades; it
//! culls, shares poses, applies update-rate LOD and the CPU budget. The scene keeps states,
//! never poses. The crate knows no GPU, window, file or clock, and never reads the asset
//! files: the game imports the models and passes them in ([`SceneModels`]); [`synthetic`]
//! builds stand-ins with the same node and clip names.
//!
//! Deterministic: the same [`SceneConfig`] (seed included), models and calls give bitwise the
//! same state on the same platform.

mod access;
mod animals;
mod bindings;
mod buses;
mod camera;
mod cars;
mod config;
mod crowds;
mod error;
mod extract;
mod kind;
mod models;
mod picking;
mod posing;
mod rng;
mod roads;
mod scene;
mod signals;
mod step;
mod stepping;
pub mod synthetic;
mod terrain;
mod traffic;
mod wind;

pub use access::Access;
pub use animals::{FADE_TIME, Fox, FoxGait, Gait, RUN_SPEED, WALK_SPEED};
pub use bindings::{Bindings, Convention};
pub use buses::{AT_STOP, BUS_LENGTH, Bus, BusState, Buses, DWELL, STOP_AT};
pub use camera::SceneCamera;
pub use cars::{CarWheels, DOORS_AFTER, WheelGeometry, WheelStep};
pub use config::{MAX_FOXES, MAX_GRID, MAX_THREADS, MAX_WINDMILLS, SceneConfig, WindConfig};
pub use crowds::PropCrowd;
pub use error::SceneError;
pub use extract::AnimationStats;
pub use kind::{ModelPick, PropInstance, PropKind, Props, Rig, Town, only_model, some_models};
pub use models::{PROP_ASSETS, PropModel, SceneModels};
pub use picking::PropInfo;
pub use rng::Rng;
pub use roads::{
    BOX_HALF, DIRECTIONS, Intersection, IntersectionId, LANE_WIDTH, Lane, LaneId, LaneKind, RoadNetwork, Turn,
};
pub use scene::Scene;
pub use signals::{
    AMBER, LightState, MAX_ALL_RED, MIN_GREEN, Phase, RECALL_AFTER, Signal, SignalOverride, Signals, TrafficLight,
};
pub use step::{FixedStep, RateMeter};
pub use terrain::{HILL_HEIGHT, Terrain};
pub use traffic::{Car, IdmParams, STANDING_BELOW, TrafficStats};
pub use wind::{Site, Wind, WindAtTime, WindField, Windmill, WindmillState, rotor_speed_for};

use glam::{Affine3A, Vec2, Vec3, Vec3A};

/// The yaw (rotation about +Y) that turns a model's +Z front towards `direction` (x, z).
#[must_use]
pub fn heading_yaw(direction: Vec2) -> f32 {
    direction.x.atan2(direction.y)
}

/// A prop's placement: `scale` times the model, turned about +Y so that its +Z front faces
/// the unit `direction` (x, z), standing at `at`. The same transform as a scale, then
/// `Quat::from_rotation_y(heading_yaw(direction))`, then the translation, without the
/// trigonometry (what props moving every step need).
#[must_use]
pub(crate) fn facing(direction: Vec2, scale: f32, at: Vec3) -> Affine3A {
    let (x, z) = (direction.x * scale, direction.y * scale);
    Affine3A {
        matrix3: glam::Mat3A::from_cols(Vec3A::new(z, 0.0, -x), Vec3A::new(0.0, scale, 0.0), Vec3A::new(x, 0.0, z)),
        translation: at.into(),
    }
}
