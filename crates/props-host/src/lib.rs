//! Animated glTF props in a host's own game: one [`PropHost`] loads models through the gate
//! ([`props_gltf::gate`], each file's report returned), keeps the host's instances (each placed
//! and animated from the host's simulation, by id: clip layers, driven nodes, and morph weights
//! and material values set directly, [`Animates`]), watches a
//! mods folder ([`HostEvent`]s say what loaded, replaced or was refused, with the report; a
//! model's id stays the same across versions), poses what the camera sees with sharing,
//! update-rate LOD and a CPU budget, picks by ray, and lists the frame for
//! [`props_render::Renderer`], which draws into the host's own render pass with the host's
//! depth. No ECS: the demo town's `hecs` scene is one way to drive the same posing code
//! ([`props_crowd::CrowdSet`]), this is the other.
//!
//! ```no_run
//! # fn run(
//! #     renderer: &mut props_render::Renderer,
//! #     encoder: &mut wgpu::CommandEncoder,
//! #     pass: &mut wgpu::RenderPass<'_>,
//! # ) -> Result<(), Box<dyn std::error::Error>> {
//! use glam::{Affine3A, Vec3};
//! use props_host::{Animates, HostConfig, Layer, PropHost};
//! use props_frame::{Camera, Lighting};
//!
//! let mut props = PropHost::new(HostConfig::default())?;
//! // The wheels turn about X with one value per car; the `drive` clip plays on one layer.
//! let wheels = ["wheel_front_left", "wheel_front_right", "wheel_rear_left", "wheel_rear_right"];
//! let animates = Animates::default().clips(["drive"]).driver(wheels, Vec3::X);
//! let car = props.load_file("assets/car.glb".as_ref(), animates, renderer)?;
//! for issue in &car.report.issues {
//!     eprintln!("car.glb: {issue}");
//! }
//! let id = props.add(car.model, Affine3A::from_translation(Vec3::new(0.0, 0.0, -10.0))).expect("loaded");
//!
//! // Each frame: the host's state in; posed, listed and uploaded; drawn into the host's pass.
//! let camera = Camera::look_at(Vec3::new(0.0, 3.0, 5.0), Vec3::ZERO, 0.9, 16.0 / 9.0, (0.1, 500.0));
//! let mut car_instance = props.get_mut(id).expect("added");
//! car_instance.drivers_mut()[0] = 1.5; // radians, from the host's own wheel speed
//! car_instance.set_layer(0, Layer::clip(0, 0.25));
//! props.prepare(renderer, encoder, (&camera, Lighting::default()), (1280, 720));
//! renderer.render(pass);
//! # Ok(())
//! # }
//! ```
//!
//! Hot reload: [`PropHost::watch_mods`] once, then [`PropHost::poll_mods`] at each frame
//! boundary. The workspace's `examples/host_sim.rs` and `examples/mods.rs` run both whole.
//!
//! A game whose instances live elsewhere (its own ECS) keeps the same models and mod rules
//! with a [`Shelf`] and a [`Stage`] of its own: the demo game's `hecs` town does.

mod error;
mod host;
mod ids;
mod mods;
mod shelf;
mod swap;

pub use error::{HostError, LoadError};
pub use host::{HostConfig, Loaded, ModelOptions, PropHost};
pub use mods::HostEvent;
pub use props_anim::Layer;
pub use props_anim::property::{MaterialField, PropertyTarget};
pub use props_crowd::{Animates, AnimationStats, BindError, CrowdSet, InstanceId, InstanceMut, PosingConfig};
pub use props_frame::{Camera, FrameData, Lighting, ModelId, SKY};
pub use props_gltf::gate::Refused;
pub use props_gltf::validate::Report;
pub use props_mods::ModConfig;
pub use shelf::{AddError, Arrival, Shelf, Stage, Version};
