//! The animation core of the animated-props subsystem: pure, deterministic, allocation-free
//! per frame once buffers exist.
//!
//! Data flows `Rig` + `Clip` + `Playback` -> [`Pose`] (local TRS, world matrices, morph
//! weights) -> joint palette ([`JointMatrix`], 3x4 rows) per [`Skin`]. [`Model`] bundles what
//! an importer produces. This crate knows no GPU, file format, ECS, window, file system or
//! clock: time is always passed in.
//!
//! Priorities: exactly the glTF 2.0 semantics (checked against an independent reference),
//! then speed; inputs are validated once, at construction, so sampling and posing never fail.

mod baked;
mod bounds;
pub mod clip;
pub mod crowd;
mod extent;
pub mod interpolate;
pub mod keys;
pub mod light;
pub mod lod;
pub mod material;
mod mesh;
mod model;
mod node_id;
pub mod palette;
pub mod placed_light;
mod playback;
mod pose;
pub mod program;
pub mod property;
pub mod reuse_buffer;
mod rig;
mod rows;
mod rows4;
pub mod shared;
mod sift;
mod skin;
pub mod skinning;
mod state;
mod transform;
pub mod trig;
mod visibility;
pub mod workers;

pub use bounds::PoseBounds;
pub use clip::{Channel, Clip, ClipError, Keyframes, PropertyChannel};
pub use crowd::Crowd;
pub use extent::Extent;
pub use interpolate::Interpolation;
pub use lod::{AnimationBudget, UpdateRateLod, View};
pub use material::{AlphaMode, Image, Material, TextureRef};
pub use mesh::{Influences, Mesh, MorphTarget, Primitive, Topology};
pub use model::{MeshInstance, Model, ModelError, ModelParts};
pub use node_id::NodeId;
pub use palette::JointMatrix;
pub use playback::{PlayMode, Playback};
pub use pose::Pose;
pub use program::Program;
pub use reuse_buffer::PaletteBuffer;
pub use rig::{Rig, RigError, SourceNode};
pub use shared::{Quantization, Sharing};
pub use skin::{Skin, SkinError};
pub use state::{Blend, Driver, Layer, Mask, Spec, pose_state};
pub use transform::{RestTransform, Transform};
pub use workers::Workers;

pub use glam;
