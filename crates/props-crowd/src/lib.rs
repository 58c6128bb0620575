//! Crowds of animated props without an ECS or a town: the layer between the animation core
//! (`props-anim`) and the frame a renderer draws (`props-frame`).
//!
//! - A [`CrowdSet`] holds a host's instances of any models, each placed and animated by the
//!   host through its [`InstanceId`]: clip layers, driven nodes, morph weights and material
//!   values set directly, all bound by name ([`Animates`]) so that a new version of a model
//!   binds again the same way; its paint, and its material variant, by name (a car's livery:
//!   [`InstanceMut::set_material_variant`]).
//! - Each frame, [`Posing`] poses what the camera sees (culling, pose sharing, update-rate LOD
//!   and a CPU budget, on [`PosingConfig::threads`] worker threads: one, the caller's, by
//!   default), picks each prop's level of detail (mesh LOD, by
//!   the error it shows on screen) and lists it as [`props_frame::FrameData`]: palettes,
//!   instances, one batch per model, level and material variant, the lit lights near the
//!   camera.
//! - People and animals walk ([`Animates::gaits`]): the host moves each along its way and sets
//!   its speed ([`InstanceMut::set_gait`]); its walk and run play at the rates their strides
//!   call for, blended in phase, a standing clip fading in when it stops ([`gaited`]). Near
//!   the camera its planted feet stay where they came down ([`ModelCrowd::set_feet`]: two-bone
//!   IK, the hips lowered where a leg would not reach), and [`CrowdSet::feet_down`] says which
//!   are down, for footsteps.
//! - Underneath, one [`ModelCrowd`] per model ([`BoundModel`]: a [`PropModel`] bound to what is
//!   animated on it) is the one code path from clip to palette. The demo town's `props-scene`
//!   keeps its kinds' props in the same crowds, posed by the same [`Posing`].
//!
//! Knows no ECS, GPU, file format, window or clock: time is passed in. Deterministic: the same
//! calls give bitwise the same palettes for any number of threads.
//!
//! Two windmills of a one-node model, one turned by a driver, posed for a camera:
//!
//! ```
//! # use std::sync::Arc;
//! # use glam::{Vec3, Affine3A};
//! # use props_anim::{Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform};
//! use props_crowd::{Animates, CrowdSet, PosingConfig, PropModel};
//! use props_frame::{Camera, FrameData, ModelId};
//!
//! # let node = SourceNode { name: Some("rotor".into()), children: vec![], rest: RestTransform::Trs(Transform::IDENTITY), morph_weights: vec![] };
//! # let blade = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![Vec3::Z; 3], vec![0, 1, 2], None);
//! # let model = Model::new(ModelParts { rig: Some(Rig::from_source_nodes(&[node])?),
//! #     meshes: vec![Mesh { name: None, primitives: vec![blade] }],
//! #     instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }], ..ModelParts::default() })?;
//! let mut set = CrowdSet::new(PosingConfig::default())?;
//! // One value per instance turns the node `rotor` about Z.
//! let animates = Animates::default().driver(["rotor"], Vec3::Z);
//! set.set_model(PropModel::new(ModelId(0), Arc::new(model)), animates)?;
//! let near = set.add(ModelId(0), Affine3A::from_translation(Vec3::new(-2.0, 0.0, 0.0))).expect("a model");
//! set.add(ModelId(0), Affine3A::from_translation(Vec3::new(2.0, 0.0, 0.0)));
//! set.get_mut(near).expect("live").drivers_mut()[0] = 0.5; // radians, from the host's simulation
//!
//! let camera = Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 0.9, 16.0 / 9.0, (0.1, 100.0));
//! set.set_camera(Some(camera));
//! let mut frame = FrameData::default();
//! set.animate(&mut frame);
//! set.extract(&mut frame);
//! assert_eq!((frame.instances.len(), frame.batches.len()), (2, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod animates;
mod bindings;
mod close_up;
mod crowd_set;
mod error;
mod extract;
pub mod gaited;
mod model;
mod model_crowd;
mod model_view;
mod picking;
mod posing;
mod posing_config;
mod tails;
mod walkers;

pub use animates::Animates;
pub use bindings::{Bindings, Convention};
pub use close_up::Ground;
pub use crowd_set::{CrowdSet, InstanceId, InstanceMut};
pub use error::{BindError, CrowdError};
pub use model::{BoundModel, PropModel};
pub use model_crowd::{CrowdOptions, ModelCrowd};
pub use model_view::{ClipInfo, ModelView, NodeRest};
pub use picking::first_hit;
pub use posing::{AnimationStats, CrowdGroup, Posing};
pub use posing_config::{MAX_THREADS, PosingConfig};
