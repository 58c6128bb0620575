//! The four prop models the game hands in, and what the scene animates on each (the clips
//! and the procedurally turned nodes, as a [`Spec`] of the animation runtime), looked up by
//! name once.

use std::sync::Arc;

use glam::Vec3;
use props_anim::{Driver, Model, NodeId, Spec};
use props_frame::ModelId;

use crate::bindings::{Bindings, Convention};
use crate::error::SceneError;

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

/// The base asset of each prop (windmill, car, traffic light, fox, in [`SceneModels`]
/// order): its file stem (`assets/<stem>.glb`, and the name of a mod that overrides it) and
/// its scale from model units to metres (Fox.glb is in centimetres).
pub const PROP_ASSETS: [(&str, f32); 4] = [("windmill", 1.0), ("car", 1.0), ("traffic_light", 1.0), ("Fox", 0.01)];

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

/// A prop model with what the scene animates on it: the clips its instances play and the
/// nodes the simulation turns, as the animation runtime takes them.
#[derive(Clone, Debug)]
pub(crate) struct Animated {
    pub prop: PropModel,
    pub spec: Spec,
}

/// Wheel radius used when the model's wheels sit implausibly low, metres.
const DEFAULT_WHEEL_RADIUS: f32 = 0.33;
/// Wheelbase used when the model's axles cannot be measured, metres.
const DEFAULT_WHEELBASE: f32 = 2.6;

/// The car's geometry, measured from its rest pose (model units).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CarGeometry {
    /// Rolling radius: the rear wheel centre's height at rest.
    pub wheel_radius: f32,
    /// Distance from the rear axle to the steering pivots.
    pub wheelbase: f32,
    /// Distance from the model's origin forwards (+Z) to the steering pivots.
    pub front_axle: f32,
    /// Lateral offset (+X, the car's left) of each steering pivot.
    pub pivot_offset: [f32; 2],
    /// Length of its `doors` clip (opened as the car stops, closed as it goes), if it has one.
    pub doors: Option<f32>,
}

/// Every model with its looked-up nodes and clips. Drivers, in [`Spec::drivers`] order:
/// windmill nacelle yaw (about the nacelle's Y) and rotor angle (the hub turned clockwise seen
/// from the front: about -Z, as the `spin` clip); car wheel roll (every wheel about its X),
/// left and right steering (each pivot about its Y). Clips, in [`Spec::clips`] order: traffic
/// light `green`, `amber`, `red` (a [`crate::LightState`]'s phase index); fox `Walk`, `Run`
/// (a [`crate::Gait`]'s index).
#[derive(Clone, Debug)]
pub(crate) struct Rigs {
    pub windmill: Animated,
    /// Every car model (the base one first) with its geometry.
    pub cars: Vec<(Animated, CarGeometry)>,
    pub light: Animated,
    pub fox: Animated,
    /// Durations of the fox's `Walk` and `Run` clips, seconds.
    pub fox_durations: [f32; 2],
}

impl Rigs {
    /// Looks up every node and clip the scene needs; the first one missing is the error.
    pub fn resolve(models: SceneModels) -> Result<Self, SceneError> {
        let SceneModels { windmill, car, extra_cars, traffic_light, fox } = models;
        let (w, b) = (&*windmill.model, &windmill.bindings);
        let windmill_spec = Spec {
            drivers: vec![
                Driver { nodes: b.nodes(w, "windmill", "nacelle", Convention::Named("nacelle"))?, axis: Vec3::Y },
                Driver { nodes: b.nodes(w, "windmill", "rotor", Convention::Named("hub"))?, axis: Vec3::NEG_Z },
            ],
            ..Spec::default()
        };
        let cars = std::iter::once(car).chain(extra_cars).map(car_rig).collect::<Result<Vec<_>, _>>()?;
        let (l, b) = (&*traffic_light.model, &traffic_light.bindings);
        let light_clips = vec![
            b.clip(l, "traffic light", "green", "green")?,
            b.clip(l, "traffic light", "amber", "amber")?,
            b.clip(l, "traffic light", "red", "red")?,
        ];
        let (f, b) = (&*fox.model, &fox.bindings);
        let fox_clips = [b.clip(f, "fox", "walk", "Walk")?, b.clip(f, "fox", "run", "Run")?];
        Ok(Self {
            windmill: Animated { prop: windmill, spec: windmill_spec },
            cars,
            light: Animated { spec: Spec { clips: light_clips, ..Spec::default() }, prop: traffic_light },
            fox_durations: fox_clips.map(|k| f.clips()[k].duration()),
            fox: Animated { spec: Spec { clips: fox_clips.to_vec(), ..Spec::default() }, prop: fox },
        })
    }
}

/// A car model with the drivers of its wheels and steering pivots, and its geometry.
fn car_rig(car: PropModel) -> Result<(Animated, CarGeometry), SceneError> {
    let (c, b) = (&*car.model, &car.bindings);
    let rest = c.pose_at(None, 0.0);
    let at = |node: NodeId| rest.world_matrix(node).translation;
    let wheels = b.nodes(c, "car", "wheels", Convention::Prefixed("wheel_"))?;
    let mut steer = b.nodes(c, "car", "steer", Convention::Prefixed("steer_"))?;
    let [left, right] = steer[..] else {
        return Err(SceneError::SteerPivots { found: steer.len() });
    };
    // Left (+X) first.
    if at(left).x < at(right).x {
        steer.swap(0, 1);
    }
    let rear = wheels.iter().map(|&w| at(w)).fold(None, |r: Option<glam::Vec3A>, p| match r {
        Some(r) if r.z <= p.z => Some(r),
        _ => Some(p),
    });
    let (rear, front) = (rear.unwrap_or_default(), at(steer[0]));
    // Doors are optional: bound by a sidecar (then they must exist), else a clip `doors`.
    let doors = match b.clips.contains_key("doors") {
        true => Some(b.clip(c, "car", "doors", "doors")?),
        false => c.find_clip("doors"),
    };
    let car_geometry = CarGeometry {
        wheel_radius: if rear.y > 0.05 { rear.y } else { DEFAULT_WHEEL_RADIUS },
        wheelbase: if front.z - rear.z > 0.5 { front.z - rear.z } else { DEFAULT_WHEELBASE },
        front_axle: front.z,
        pivot_offset: [at(steer[0]).x, at(steer[1]).x],
        doors: doors.map(|d| c.clips()[d].duration()),
    };
    let car_spec = Spec {
        clips: doors.into_iter().collect(),
        drivers: vec![
            Driver { nodes: wheels, axis: Vec3::X },
            Driver { nodes: vec![steer[0]], axis: Vec3::Y },
            Driver { nodes: vec![steer[1]], axis: Vec3::Y },
        ],
        ..Spec::default()
    };
    Ok((Animated { prop: car, spec: car_spec }, car_geometry))
}
