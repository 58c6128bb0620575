//! The demo town as a `hecs` world: a grid of two-way roads with signalled intersections, cars
//! following lanes with the Intelligent Driver Model, windmills on a ring of hills turning in
//! a wind field, and foxes walking and running in the parks. Each step, systems (plain
//! functions of the world and a fixed `dt`) move everything and pose every prop; extraction
//! turns the poses into [`props_frame::FrameData`] palettes and instances, one batch per model.
//!
//! ```text
//! Scene::new(config, models)  ->  step(dt) x N  ->  extract(&mut frame)  -> renderer
//! ```
//!
//! Props are animated through the animation core: node overrides (windmill nacelle and hub,
//! car wheels and steering pivots), clip sampling (traffic-light lamps), and clip playback with
//! crossfades (fox gaits). The crate knows no GPU, window, file or clock, and never reads the
//! asset files: the game imports the models and passes them in ([`SceneModels`]);
//! [`synthetic`] builds stand-ins with the same node and clip names.
//!
//! Deterministic: the same [`SceneConfig`] (seed included), models and calls give bitwise the
//! same state on the same platform.

mod animals;
mod cars;
mod config;
mod error;
mod extract;
mod factored;
mod models;
mod rng;
mod roads;
mod scene;
mod shared_windmills;
mod signals;
mod step;
pub mod synthetic;
mod terrain;
mod traffic;
mod viewer;
mod wind;

pub use animals::{FADE_TIME, Fox, FoxGait, Gait, RUN_SPEED, WALK_SPEED};
pub use cars::CarWheels;
pub use config::{MAX_WINDMILLS, SceneConfig, WINDMILL_POSE_STEP, WindConfig};
pub use error::SceneError;
pub use extract::SceneCounts;
pub use models::{PropModel, SceneModels};
pub use rng::Rng;
pub use roads::{
    BOX_HALF, DIRECTIONS, Intersection, IntersectionId, LANE_WIDTH, Lane, LaneId, LaneKind, RoadNetwork, Turn,
};
pub use scene::Scene;
pub use signals::{LightState, Phase, Signal, SignalOverride, Signals, TrafficLight};
pub use step::FixedStep;
pub use terrain::{HILL_HEIGHT, Terrain};
pub use traffic::{Car, IdmParams, TrafficStats};
pub use viewer::Viewer;
pub use wind::{Wind, WindField, Windmill, rotor_speed_for};

use glam::{Affine3A, Vec2};

/// A prop's model-to-world transform (translation, yaw, uniform scale), as extracted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement(pub Affine3A);

/// The yaw (rotation about +Y) that turns a model's +Z front towards `direction` (x, z).
#[must_use]
pub fn heading_yaw(direction: Vec2) -> f32 {
    direction.x.atan2(direction.y)
}
