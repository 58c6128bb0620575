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
//!
//! Each type has one path. The model and its posing are at the root (the types below); the
//! rest is in public modules: [`bounds`] (the boxes a model's poses stay within), [`clip`]
//! (clips, their channels and key search), [`gait`] (strides measured from clips, gaits
//! played by speed; [`gait::ik`]: two-bone legs, planted feet), [`spring`] (spring bones: hair
//! and tails swinging after the body, VRM's), [`clip::interpolate`], [`material`], [`light`] (punctual lights, and where a posed instance's
//! stand) and [`property`] (what `KHR_animation_pointer` animates), [`skinning`] (the CPU
//! reference), and [`runtime`], which poses crowds fast and holds the frame's palette buffer.
//!
//! A rotor turned a quarter about Y over one second, posed half-way, and the palette a GPU
//! skins it with (models usually come from the `props-gltf` importer):
//!
//! ```
//! use glam::{Quat, Vec3};
//! use props_anim::clip::{Channel, Clip, Keyframes};
//! use props_anim::clip::interpolate::Interpolation;
//! use props_anim::{
//!     JointMatrix, Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform,
//! };
//!
//! let node = SourceNode {
//!     name: Some("rotor".into()),
//!     children: Vec::new(),
//!     rest: RestTransform::Trs(Transform::IDENTITY),
//!     morph_weights: Vec::new(),
//! };
//! let rig = Rig::from_source_nodes(&[node])?;
//! let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
//! let turn = Channel::new(NodeId(0), Interpolation::Linear, vec![0.0, 1.0], Keyframes::Rotation(vec![Quat::IDENTITY, quarter]))?;
//! let spin = Clip::new(Some("spin".into()), vec![turn], &rig).map_err(|(_, error)| error)?;
//! let blade = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![Vec3::Z; 3], vec![0, 1, 2], None);
//! let model = Model::new(ModelParts {
//!     rig: Some(rig),
//!     clips: vec![spin],
//!     meshes: vec![Mesh { name: None, primitives: vec![blade] }],
//!     instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
//!     ..ModelParts::default()
//! })?;
//!
//! let pose = model.pose_at(model.find_clip("spin"), 0.5);
//! let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
//! model.write_palettes(&pose, &mut palette);
//! let tip = palette[model.node_slot(0)].to_affine().transform_point3(Vec3::X);
//! assert!(tip.distance(Vec3::new(0.5f32.sqrt(), 0.0, -(0.5f32.sqrt()))) < 1e-5, "turned 45 degrees: {tip}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod baked;
mod batches;
pub mod bounds;
pub mod clip;
pub mod constraint;
mod crowd;
mod crowd_stats;
mod draw_groups;
mod extent;
pub mod gait;
pub mod humanoid;
pub mod impostor;
mod keys;
pub mod light;
mod lod;
pub mod material;
mod material_variant;
mod mesh;
mod mesh_lod;
mod model;
mod model_error;
mod model_lods;
mod node_id;
mod palette;
mod placed_light;
mod playback;
mod pose;
mod program;
pub mod property;
mod punctual;
mod reuse_buffer;
mod rig;
mod rows;
mod rows4;
pub mod runtime;
mod shared;
mod sift;
mod skin;
pub mod skinning;
pub mod spring;
mod state;
mod transform;
mod trig;
mod visibility;
mod workers;

pub use mesh::{Influences, Lod, Mesh, MeshInstance, MorphTarget, Primitive, Topology};
pub use model::{Model, ModelParts};
pub use model_error::ModelError;
pub use node_id::NodeId;
pub use palette::{JointMatrix, WEIGHTS_PER_SLOT};
pub use pose::Pose;
pub use rig::{Rig, RigError, SourceNode};
pub use skin::{Skin, SkinError};
pub use state::{Blend, Driver, Layer, Mask, Spec, ValueTarget, pose_state};
pub use transform::{RestTransform, Transform};
