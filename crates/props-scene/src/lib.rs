//! A town of animated props as a `hecs` world: a grid of two-way roads with signalled
//! intersections ([`town`]), and the prop kinds that live in it ([`kinds`]): cars following
//! lanes with the Intelligent Driver Model, buses stopping at their stops, windmills on a ring
//! of hills turning in a wind field, traffic lights, and foxes walking, running and resting in
//! the parks. Every kind, the town's and a game's own, is one implementation of [`PropKind`]:
//! the scene knows none by name. Each step, systems (plain functions of the world and a fixed
//! `dt`, one per kind) move everything and set each prop's animation state; once per frame the
//! animation runtime poses what the camera sees and extraction lists it as
//! [`props_frame::FrameData`] instances, one batch per model and level of detail.
//!
//! ```text
//! Scene::new(config, kinds with their models) -> step(dt) x N -> animate(&mut frame) -> extract(&mut frame) -> renderer
//! ```
//!
//! Every prop is animated through the crowd layer (`props-crowd`), one `ModelCrowd` per model:
//! its drivers turn the windmill's nacelle and hub and the car's wheels and steering pivots,
//! its clip layers play the traffic lights' lamps and the foxes' gaits with their crossfades;
//! `Posing` culls, shares poses, applies update-rate LOD and the CPU budget. The scene keeps
//! states, never poses. The crate knows no GPU, window, file or clock, and never reads the
//! asset files: the game imports each kind's asset ([`KindAsset`]) and passes the models in;
//! [`synthetic`] builds stand-ins with the same node and clip names.
//!
//! A host with its own simulation needs none of the town or of `hecs`: `props_crowd::CrowdSet`
//! is the same posing without them.
//!
//! Deterministic: the same [`SceneConfig`] (seed included), models and calls give bitwise the
//! same state on the same platform.
//!
//! A small town of the synthetic stand-ins, stepped one second and posed for a camera:
//!
//! ```
//! use glam::Vec3;
//! use props_frame::{Camera, FrameData};
//! use props_scene::{Scene, SceneConfig};
//!
//! let config = SceneConfig::default().with_count("windmills", 20).with_count("cars", 10).with_count("foxes", 4);
//! let mut scene = Scene::new(config.clone(), props_scene::synthetic::town()?)?;
//! for _ in 0..60 {
//!     scene.step(1.0 / 60.0);
//! }
//! let camera = Camera::look_at(Vec3::new(0.0, 120.0, 200.0), Vec3::ZERO, 0.9, 16.0 / 9.0, (0.5, 5000.0));
//! scene.set_camera(Some(camera));
//! let mut frame = FrameData::default();
//! scene.animate(&mut frame);
//! scene.extract(&mut frame);
//! assert!(!frame.to_frame(camera, Default::default(), props_frame::SKY).instances.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod access;
mod clock;
mod config;
mod debug_lines;
mod error;
pub mod ground;
mod kind;
pub mod kinds;
pub mod night;
mod placement;
mod rng;
mod scene;
mod stand_in_kit;
mod stepping;
pub mod synthetic;
pub mod town;
pub mod vehicle_lights;

pub use access::StepAccess;
pub use clock::{FixedStep, RateMeter};
pub use config::{MAX_GRID, SceneConfig, WindConfig};
pub use error::SceneError;
pub use kind::{
    KindAsset, KindProps, KindWithModels, ModelPick, PropInfo, PropInstance, PropKind, at_most, only_model, some_models,
};
pub use placement::{Claim, Placement, shown_at};
pub use scene::Scene;

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
