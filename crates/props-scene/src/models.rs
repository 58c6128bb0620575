//! The four prop models the game hands in, and the nodes and clips the scene drives, looked up
//! by name once.

use std::sync::Arc;

use props_anim::{Model, NodeId, Pose, Transform};
use props_frame::ModelId;

use crate::error::SceneError;
use crate::factored::FactoredPalette;

/// One prop model as the game registered it: the renderer knows it as `id`.
#[derive(Clone, Debug)]
pub struct PropModel {
    /// The renderer's name for the model.
    pub id: ModelId,
    /// The imported model.
    pub model: Arc<Model>,
    /// Uniform scale from model units to metres (Fox.glb is in centimetres: 0.01).
    pub scale: f32,
}

impl PropModel {
    /// A model in metres.
    #[must_use]
    pub fn new(id: ModelId, model: Arc<Model>) -> Self {
        Self { id, model, scale: 1.0 }
    }

    /// The same model drawn `scale` times larger.
    #[must_use]
    pub fn with_scale(self, scale: f32) -> Self {
        Self { scale, ..self }
    }
}

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
    /// Traffic lights at the intersections.
    pub traffic_light: PropModel,
    /// Foxes in the parks.
    pub fox: PropModel,
}

/// A node the scene overrides, with its rest transform (kept apart from the rotation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DrivenNode {
    pub id: NodeId,
    pub rest: Transform,
}

impl DrivenNode {
    fn find(model: &Model, prop: &'static str, name: &'static str) -> Result<Self, SceneError> {
        let rig = model.rig();
        let id = rig.find(name).ok_or(SceneError::MissingNode { model: prop, node: name })?;
        let rest = *rig.rest(id).as_trs().ok_or(SceneError::MatrixNode { model: prop, node: name })?;
        Ok(Self { id, rest })
    }

    /// The rest transform turned by `rotation` about the node's own axes.
    pub fn rotated(&self, rotation: glam::Quat) -> Transform {
        Transform { rotation: self.rest.rotation * rotation, ..self.rest }
    }
}

fn clip(model: &Model, prop: &'static str, name: &'static str) -> Result<usize, SceneError> {
    model.find_clip(name).ok_or(SceneError::MissingClip { model: prop, clip: name })
}

/// The windmill's driven nodes, and its palette factored around them.
#[derive(Clone, Debug)]
pub(crate) struct WindmillRig {
    pub prop: PropModel,
    pub nacelle: DrivenNode,
    pub hub: DrivenNode,
    /// Palette as a function of the nacelle's and the hub's local matrices, in that order.
    pub palette: FactoredPalette<2>,
}

/// Wheel radius used when the model's wheels sit implausibly low, metres.
const DEFAULT_WHEEL_RADIUS: f32 = 0.33;
/// Wheelbase used when the model's axles cannot be measured, metres.
const DEFAULT_WHEELBASE: f32 = 2.6;

/// The car's driven nodes and the geometry measured from its rest pose.
#[derive(Clone, Debug)]
pub(crate) struct CarRig {
    pub prop: PropModel,
    /// Left, right steering pivots.
    pub steer: [DrivenNode; 2],
    /// Front left, front right, rear left, rear right wheels.
    pub wheels: [DrivenNode; 4],
    /// Rolling radius: the rear wheel centre's height at rest.
    pub wheel_radius: f32,
    /// Distance from the rear axle to the steering pivots.
    pub wheelbase: f32,
    /// Distance from the model's origin forwards (+Z) to the steering pivots.
    pub front_axle: f32,
    /// Lateral offset (+X, the car's left) of each steering pivot.
    pub pivot_offset: [f32; 2],
}

/// The traffic light's phase poses.
#[derive(Clone, Debug)]
pub(crate) struct LightRig {
    pub prop: PropModel,
    /// The pose of each phase (`green`, `amber`, `red`): its clip at time 0. A light's pose
    /// is a pure function of its phase, so every light showing a phase shares it.
    pub phase_poses: [Pose; 3],
}

/// The fox's gait clips.
#[derive(Clone, Debug)]
pub(crate) struct FoxRig {
    pub prop: PropModel,
    /// Clip indices of `Walk`, `Run`.
    pub clips: [usize; 2],
}

/// Every model with its looked-up nodes and clips.
#[derive(Clone, Debug)]
pub(crate) struct Rigs {
    pub windmill: WindmillRig,
    pub car: CarRig,
    pub light: LightRig,
    pub fox: FoxRig,
}

impl Rigs {
    /// Looks up every node and clip the scene needs; the first one missing is the error.
    pub fn resolve(models: SceneModels) -> Result<Self, SceneError> {
        let SceneModels { windmill, car, traffic_light, fox } = models;
        let (w, c) = (&*windmill.model, &*car.model);
        let (nacelle, hub) = (DrivenNode::find(w, "windmill", "nacelle")?, DrivenNode::find(w, "windmill", "hub")?);
        let palette = FactoredPalette::new(w, [nacelle.id, hub.id]);
        let windmill = WindmillRig { nacelle, hub, palette, prop: windmill };
        let node = |name| DrivenNode::find(c, "car", name);
        let steer = [node("steer_front_left")?, node("steer_front_right")?];
        let wheels = [
            node("wheel_front_left")?,
            node("wheel_front_right")?,
            node("wheel_rear_left")?,
            node("wheel_rear_right")?,
        ];
        let rest = Pose::from_rest(c.rig());
        let at = |n: &DrivenNode| rest.world_matrix(n.id).translation;
        let (rear, front) = (at(&wheels[2]), at(&steer[0]));
        let wheel_radius = if rear.y > 0.05 { rear.y } else { DEFAULT_WHEEL_RADIUS };
        let wheelbase = if front.z - rear.z > 0.5 { front.z - rear.z } else { DEFAULT_WHEELBASE };
        let car = CarRig {
            pivot_offset: [at(&steer[0]).x, at(&steer[1]).x],
            steer,
            wheels,
            wheel_radius,
            wheelbase,
            front_axle: front.z,
            prop: car,
        };
        let l = &*traffic_light.model;
        let clips =
            [clip(l, "traffic light", "green")?, clip(l, "traffic light", "amber")?, clip(l, "traffic light", "red")?];
        let phase_poses = clips.map(|index| {
            let mut pose = Pose::from_rest(l.rig());
            l.clips()[index].sample(0.0, &mut pose);
            pose.compute_world(l.rig());
            pose
        });
        let light = LightRig { phase_poses, prop: traffic_light };
        let fox = FoxRig { clips: [clip(&fox.model, "fox", "Walk")?, clip(&fox.model, "fox", "Run")?], prop: fox };
        Ok(Self { windmill, car, light, fox })
    }
}
