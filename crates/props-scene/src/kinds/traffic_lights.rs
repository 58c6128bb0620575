//! The traffic lights: one prop per approach of every intersection, showing its approach's
//! signal state by playing the model's `green`, `amber` or `red` clip (scale keys on the lit
//! lenses), not by swapping geometry.

use glam::{Affine3A, Quat, Vec3};
use hecs::{Entity, World};
use props_anim::{Layer, Spec};

use crate::access::Access;
use crate::animation::crowds::PropCrowd;
use crate::error::SceneError;
use crate::heading_yaw;
use crate::kind::{KindAsset, PropInstance, PropKind, Props, only_model};
use crate::models::KindModel;
use crate::models::PropModel;
use crate::town::Town;
use crate::town::roads::{IntersectionId, LANE_WIDTH, RoadNetwork};
use crate::town::signals::{LightState, Signals};

/// Distance of a light's pole to the right of its lane's centre, metres.
const POLE_OFFSET: f32 = LANE_WIDTH * 0.5 + 1.2;

/// A traffic-light prop: the signal head of one approach of one intersection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrafficLight {
    intersection: IntersectionId,
    approach: usize,
    state: LightState,
}

impl TrafficLight {
    /// The intersection.
    #[must_use]
    pub fn intersection(&self) -> IntersectionId {
        self.intersection
    }

    /// The approach it faces (an index into [`crate::town::roads::DIRECTIONS`]).
    #[must_use]
    pub fn approach(&self) -> usize {
        self.approach
    }

    /// What it showed at the last step.
    #[must_use]
    pub fn state(&self) -> LightState {
        self.state
    }
}

/// Spawns one light per approach, on the right of the lane at its stop line, facing the
/// oncoming cars.
fn spawn_lights(world: &mut World, roads: &RoadNetwork, lights: &mut Props) {
    let scale = Vec3::splat(lights.crowd(0).prop().scale);
    for (index, intersection) in roads.intersections().iter().enumerate() {
        for (approach, lane) in intersection.approaches().iter().enumerate() {
            let Some(lane) = lane else { continue };
            let lane = roads.lane(*lane);
            let (end, d) = lane.sample(lane.length());
            let right = glam::Vec2::new(-d.y, d.x);
            let at = end + right * POLE_OFFSET;
            let transform = Affine3A::from_scale_rotation_translation(
                scale,
                Quat::from_rotation_y(heading_yaw(-d)),
                Vec3::new(at.x, 0.0, at.y),
            );
            let light = TrafficLight { intersection: IntersectionId(index as u32), approach, state: LightState::Red };
            lights.spawn(world, 0, transform, (light,));
        }
    }
}

/// Sets every light's state from its approach's and plays the state's clip (at time 0: the
/// clips hold one pose each).
fn animate_lights(world: &World, signals: &Signals, lights: &mut PropCrowd) {
    for (light, instance) in world.query::<(&mut TrafficLight, &PropInstance)>().iter() {
        light.state = signals.state(light.intersection, light.approach);
        lights.layers_mut(instance.index())[0] = Layer::clip(light.state.phase_index() as u16, 0.0);
    }
}

/// The traffic lights: one per approach, playing the clip of its state. Clips, in
/// [`Spec::clips`] order: `green`, `amber`, `red` (a [`LightState`]'s phase index).
pub struct TrafficLights;

impl PropKind for TrafficLights {
    fn name(&self) -> &'static str {
        "traffic_lights"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("traffic_light"),
            units: 1.0,
            drawn_at: 2.0,
            place: "intersections",
            role: "traffic_light",
            variants: false,
            parts: &[],
            states: &["green", "amber", "red"],
        }
    }

    fn rig(&self, models: &[PropModel]) -> Result<Vec<KindModel>, SceneError> {
        let light = only_model(self.name(), models)?;
        let (l, b) = (&*light.model, &light.bindings);
        let clips = vec![
            b.clip(l, "traffic light", "green", "green")?,
            b.clip(l, "traffic light", "amber", "amber")?,
            b.clip(l, "traffic light", "red", "red")?,
        ];
        Ok(vec![KindModel { discrete: true, ..KindModel::new(light.clone(), Spec { clips, ..Spec::default() }, 1) }])
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut Props) {
        spawn_lights(world, town.roads, props);
        animate_lights(world, town.signals, props.crowd_mut(0));
    }

    fn access(&self) -> Access {
        Access::nothing().writes::<TrafficLight>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut Props, _dt: f32) {
        animate_lights(world, town.signals, props.crowd_mut(0));
    }

    /// Shows a forced signal at once.
    fn refresh(&mut self, world: &World, town: &Town<'_>, props: &mut Props) {
        animate_lights(world, town.signals, props.crowd_mut(0));
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &Props, entity: Entity) -> Option<String> {
        let light = world.get::<&TrafficLight>(entity).ok()?;
        Some(format!("traffic light: {:?}", light.state()))
    }
}
