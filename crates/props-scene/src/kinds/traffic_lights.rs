//! The traffic lights: one prop per approach of every intersection, showing its approach's
//! signal state by playing the model's `green`, `amber` or `red` clip (scale keys on the lit
//! lenses), not by swapping geometry.

use glam::{Affine3A, Quat, Vec3};
use hecs::{Entity, World};
use props_anim::{Layer, Model, Spec};
use props_crowd::{BoundModel, ModelCrowd, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::heading_yaw;
use crate::kind::{KindAsset, KindProps, PropInstance, PropKind, only_model};
use crate::stand_in_kit::{Glow, SyntheticError, build, node, with_glow};
use crate::town::Town;
use crate::town::roads::{IntersectionId, LANE_WIDTH, RoadNetwork};
use crate::town::signals::{LightState, Signals};

/// How much larger than life the lights are drawn, so that a player reads them from the
/// town's overview (their models' metres per unit times this).
const DRAWN_AT: f32 = 2.0;
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
fn spawn_lights(world: &mut World, roads: &RoadNetwork, lights: &mut KindProps) {
    let scale = Vec3::splat(lights.crowd(0).prop().scale * DRAWN_AT);
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
fn animate_lights(world: &World, signals: &Signals, lights: &mut ModelCrowd) {
    for (light, instance) in world.query::<(&mut TrafficLight, &PropInstance)>().iter() {
        light.state = signals.state(light.intersection, light.approach);
        lights.layers_mut(instance.index())[0] = Layer::once(light.state.phase_index() as u16, 0.0);
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
            place: "intersections",
            role: "traffic_light",
            variants: false,
            parts: &[],
            states: &["green", "amber", "red"],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let light = only_model(self.name(), models)?;
        let (l, b) = (&*light.model, &light.bindings);
        let clip = |state| b.clip(l, state, state).map_err(SceneError::of_model("traffic light"));
        let clips = vec![clip("green")?, clip("amber")?, clip("red")?];
        Ok(vec![BoundModel { discrete: true, ..BoundModel::new(light.clone(), Spec { clips, ..Spec::default() }, 1) }])
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        spawn_lights(world, town.roads, props);
        animate_lights(world, town.signals, props.crowd_mut(0));
    }

    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<TrafficLight>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps, _dt: f32) {
        animate_lights(world, town.signals, props.crowd_mut(0));
    }

    /// Shows a forced signal at once.
    fn refresh(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps) {
        animate_lights(world, town.signals, props.crowd_mut(0));
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let light = world.get::<&TrafficLight>(entity).ok()?;
        Some(format!("traffic light: {:?}", light.state()))
    }
}

/// The traffic light: `pole` → `housing` → `lamp_red` / `lamp_amber` / `lamp_green`, each lens
/// of its own material, dark at rest; clips `cycle` (10 s), `green`, `amber`, `red` light the
/// lamps by animating their emissive factor.
pub fn stand_in() -> Result<Model, SyntheticError> {
    let nodes = [
        node("pole", Vec3::ZERO, &[1], true),
        node("housing", Vec3::new(0.0, 3.1, 0.0), &[2, 3, 4], true),
        node("lamp_red", Vec3::new(0.0, 0.3, 0.13), &[], true),
        node("lamp_amber", Vec3::new(0.0, 0.0, 0.13), &[], true),
        node("lamp_green", Vec3::new(0.0, -0.3, 0.13), &[], true),
    ];
    let (red, amber, green) = (0, 1, 2);
    let lamps = [(2, [1.0, 0.06, 0.03]), (3, [1.0, 0.5, 0.0]), (4, [0.1, 1.0, 0.3])];
    let hold = |lit: usize| (vec![0.0], vec![lit]);
    let clips = vec![
        ("cycle", vec![0.0, 4.0, 5.0, 10.0], vec![green, amber, red, red]),
        ("green", hold(green).0, hold(green).1),
        ("amber", hold(amber).0, hold(amber).1),
        ("red", hold(red).0, hold(red).1),
    ];
    with_glow(build(&nodes, Vec::new(), None)?, &Glow { lamps: &lamps, clips })
}
