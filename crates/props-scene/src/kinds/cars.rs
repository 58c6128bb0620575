//! The cars kind: cars driven by the traffic system, each showing one of the car models
//! (picked per car from the town's seed) in its own paint, placed on its lane, wheels rolling
//! with the car's speed and front wheels steering with the curvature of the lane under the
//! front axle, all by the animation runtime's drivers (the `drive` clip is not used); a model
//! with a `doors` clip opens them once the car has stood still a while.

use std::f32::consts::TAU;

use glam::{Affine3A, Quat, Vec3};
use hecs::{Entity, World};
use props_anim::{Driver, Model, NodeId, Spec, clip::Keyframes, clip::interpolate::Interpolation};
use props_crowd::{Bindings, BoundModel, Convention, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::kind::{KindAsset, KindProps, ModelPick, PropInstance, PropKind, some_models};
use crate::rng::{Rng, Stream};
use crate::stand_in_kit::{SyntheticError, build, node, spin};
use crate::town::Town;
use crate::town::roads::{LaneId, RoadNetwork};
use crate::town::traffic::{self, Vehicle};
use crate::vehicle_lights::{TurnAhead, VehicleLights, braking};

/// Time constant of the steering: how quickly the wheels follow the road's curvature, seconds.
const STEER_TIME: f32 = 0.25;
/// Largest steering angle, radians.
const MAX_STEER: f32 = 0.7;
/// A car standing still this long opens its doors (if its model has a `doors` clip), seconds.
pub const DOORS_AFTER: f32 = 2.0;

/// The wheel state of a car.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CarWheels {
    spin: f32,
    curvature: f32,
    /// How long the car has stood still, seconds.
    still: f32,
    /// Where its `doors` clip is: 0 closed, its length open.
    doors: f32,
    /// Where it was last placed (lane, position, scale): a car standing still is not placed
    /// again (at a red light, many are).
    placed: Option<(LaneId, f32, f32)>,
    /// Its next turn, for the indicators.
    turn: TurnAhead,
}

impl CarWheels {
    /// Roll angle of every wheel about its X axis, radians in `[0, 2 pi)`; positive rolls forward.
    #[must_use]
    pub fn spin(&self) -> f32 {
        self.spin
    }

    /// Curvature the front wheels are steered for (1/m, positive to the left).
    #[must_use]
    pub fn curvature(&self) -> f32 {
        self.curvature
    }

    /// Time into the `doors` clip of a car model that has one: 0 while closed, growing to the
    /// clip's length as they open once the car has stood still [`DOORS_AFTER`] seconds,
    /// going back as they close when it moves.
    #[must_use]
    pub fn doors(&self) -> f32 {
        self.doors
    }
}

/// Steering angle about +Y of a front wheel `offset` metres left of the centreline, for a path
/// of `curvature` and a car of `wheelbase` (Ackermann: the inner wheel turns more).
fn steer_angle(curvature: f32, wheelbase: f32, offset: f32) -> f32 {
    let denominator = (1.0 - curvature * offset).max(0.1);
    (wheelbase * curvature / denominator).atan().clamp(-MAX_STEER, MAX_STEER)
}

/// Car paints, sRGB, picked per car from the town's seed (white, silver, black, red, blue,
/// green, yellow, orange, by how common they are on roads).
const PAINTS: [[u8; 3]; 12] = [
    [236, 236, 232],
    [236, 236, 232],
    [180, 182, 186],
    [180, 182, 186],
    [34, 34, 38],
    [34, 34, 38],
    [170, 24, 30],
    [26, 64, 160],
    [26, 64, 160],
    [40, 110, 60],
    [220, 180, 30],
    [220, 110, 30],
];

/// The paint of a car whose random draw is `pick` (fully painted: alpha 255).
fn paint(pick: u64) -> [u8; 4] {
    let [r, g, b] = PAINTS[(pick % PAINTS.len() as u64) as usize];
    [r, g, b, 255]
}

/// Wheel radius used when the model's wheels sit implausibly low, metres.
const DEFAULT_WHEEL_RADIUS: f32 = 0.33;
/// Wheelbase used when the model's axles cannot be measured, metres.
const DEFAULT_WHEELBASE: f32 = 2.6;

/// A wheeled vehicle's geometry, measured from its model's rest pose (model units), and the
/// drivers of its wheels and steering pivots: the cars' and the buses'.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelGeometry {
    /// Rolling radius: the rear wheel centre's height at rest.
    pub wheel_radius: f32,
    /// Distance from the rear axle to the steering pivots.
    pub wheelbase: f32,
    /// Distance from the model's origin forwards (+Z) to the steering pivots.
    pub front_axle: f32,
    /// Lateral offset (+X, the vehicle's left) of each steering pivot.
    pub pivot_offset: [f32; 2],
}

impl Default for WheelGeometry {
    fn default() -> Self {
        Self {
            wheel_radius: DEFAULT_WHEEL_RADIUS,
            wheelbase: DEFAULT_WHEELBASE,
            front_axle: 0.0,
            pivot_offset: [0.0; 2],
        }
    }
}

impl WheelGeometry {
    /// The wheels (nodes `wheel_*`, or bound as `wheels`) and the two steering pivots
    /// (`steer_*`, or bound as `steer`) of `prop` (`car`, `bus`, for errors): the geometry,
    /// and the drivers of the wheel roll (every wheel about its X) and the left and right
    /// steering (each pivot about its Y), in that order.
    pub fn measure(model: &Model, bindings: &Bindings, prop: &'static str) -> Result<(Self, Vec<Driver>), SceneError> {
        let rest = model.pose_at(None, 0.0);
        let at = |node: NodeId| rest.world_matrix(node).translation;
        let nodes = |part, prefix| bindings.nodes(model, part, Convention::Prefixed(prefix));
        let wheels = nodes("wheels", "wheel_").map_err(SceneError::of_model(prop))?;
        let mut steer = nodes("steer", "steer_").map_err(SceneError::of_model(prop))?;
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
        let geometry = Self {
            wheel_radius: if rear.y > 0.05 { rear.y } else { DEFAULT_WHEEL_RADIUS },
            wheelbase: if front.z - rear.z > 0.5 { front.z - rear.z } else { DEFAULT_WHEELBASE },
            front_axle: front.z,
            pivot_offset: [at(steer[0]).x, at(steer[1]).x],
        };
        let drivers = vec![
            Driver { nodes: wheels, axis: Vec3::X },
            Driver { nodes: vec![steer[0]], axis: Vec3::Y },
            Driver { nodes: vec![steer[1]], axis: Vec3::Y },
        ];
        Ok((geometry, drivers))
    }

    /// Places `car` (drawn `scale` times its model) on its lane and rolls and steers its
    /// `wheels` for one `step`; returns its drivers' values and its placement, if it moved
    /// since the wheels last placed it.
    pub fn drive(
        &self,
        car: &Vehicle,
        roads: &RoadNetwork,
        scale: f32,
        wheels: &mut CarWheels,
        step: WheelStep,
    ) -> ([f32; 3], Option<Affine3A>) {
        let WheelStep { dt, steer_ease } = step;
        let here = Some((car.lane(), car.position(), scale));
        let at = (wheels.placed != here).then(|| {
            wheels.placed = here;
            car.placement(roads, scale)
        });
        let (radius, wheelbase, front_axle) =
            (self.wheel_radius * scale, self.wheelbase * scale, self.front_axle * scale);
        wheels.spin = (wheels.spin + car.speed() * dt / radius).rem_euclid(TAU);
        // The front wheels steer for the lane they are over, which may already be the next one.
        let over = if car.position() + front_axle > roads.length(car.lane()) { car.next_lane() } else { car.lane() };
        wheels.curvature += (roads.curvature(over) - wheels.curvature) * steer_ease;
        let [left, right] = self.pivot_offset.map(|offset| steer_angle(wheels.curvature, wheelbase, offset * scale));
        ([wheels.spin, left, right], at)
    }
}

/// One step of the wheels of every vehicle: its length, and how far the steering follows the
/// road's curvature in it (computed once a step, not per vehicle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelStep {
    dt: f32,
    steer_ease: f32,
}

impl WheelStep {
    /// A step of `dt` seconds.
    #[must_use]
    pub fn new(dt: f32) -> Self {
        Self { dt, steer_ease: 1.0 - (-dt / STEER_TIME).exp() }
    }
}

/// The cars: `count` spawned when registered, more by [`Cars::spawn_at`].
pub struct Cars {
    count: usize,
    /// Cars spawned so far (each car's random streams are numbered by this).
    spawned: u64,
    /// Each model's geometry, the length of its `doors` clip, if it has one, and its lights.
    models: Vec<(WheelGeometry, Option<f32>, VehicleLights)>,
}

/// Cars the town starts with unless the game says otherwise.
pub const DEFAULT_CARS: usize = 40;

impl Default for Cars {
    fn default() -> Self {
        Self::new(DEFAULT_CARS)
    }
}

impl Cars {
    /// `count` cars.
    pub fn new(count: usize) -> Self {
        Self { count, spawned: 0, models: Vec::new() }
    }

    /// Measures each model of `props`.
    fn measure(&mut self, props: &KindProps) {
        self.models = props
            .crowds()
            .iter()
            .map(|crowd| {
                let (prop, spec) = (&crowd.model().prop, &crowd.model().spec);
                // Rigged by `rig`, so the measuring succeeds (the default is never used).
                let geometry = WheelGeometry::measure(&prop.model, &prop.bindings, "car").map(|(g, _)| g);
                let (_, doors, lights) = doors_and_lights(&prop.model, &prop.bindings).unwrap_or_default();
                let doors = doors.then(|| prop.model.clips()[spec.clips[0]].duration());
                (geometry.unwrap_or_default(), doors, lights)
            })
            .collect();
    }

    /// Adds a car at `position` metres (its centre) along `lane`, driving at `speed` m/s (to
    /// call through [`crate::Scene::with_kind`]). Refused when the lane does not exist, the
    /// position is off the lane, or another vehicle is nearer than their half lengths plus the
    /// safety gap.
    pub fn spawn_at(
        &mut self,
        world: &mut World,
        town: &Town<'_>,
        props: &mut KindProps,
        lane: LaneId,
        position: f32,
        speed: f32,
    ) -> Result<Entity, SceneError> {
        let no_room = |reason| SceneError::NoRoomForCar { lane: lane.0, position, reason };
        let on_lane = town.roads.lanes().get(lane.index()).ok_or(no_room("no such lane"))?;
        if !(0.0..=on_lane.length()).contains(&position) || !speed.is_finite() || speed < 0.0 {
            return Err(no_room("position off the lane or speed not a finite non-negative number"));
        }
        if !town.has_room(world, lane, position, town.config.driving.car_length) {
            return Err(no_room("too close to another car"));
        }
        Ok(self.insert((world, props), town, (lane, position, speed)))
    }

    /// Adds a car at `position` metres (its centre) along `lane`, driving at `speed` m/s, with
    /// its own random streams (behaviour, model, paint).
    fn insert(
        &mut self,
        (world, props): (&mut World, &mut KindProps),
        town: &Town<'_>,
        at: (LaneId, f32, f32),
    ) -> Entity {
        let (lane, position, speed) = at;
        let (seed, number) = (town.config.seed, self.spawned);
        self.spawned += 1;
        let rng = Rng::stream(seed, Stream::Car, number);
        let mut draws = Rng::stream(seed, Stream::CarModel, number);
        let pick = (draws.next_u64() >> 32) as u32;
        let paint = paint(draws.next_u64() >> 32);
        let car = Vehicle::new(town.roads, lane, position, speed, town.config.driving.car_length, rng);
        let model = ModelPick::new(number, pick);
        let variant = model.model(props.crowds().len());
        let at = car.placement(town.roads, props.crowd(variant).prop().scale);
        let entity = props.spawn(world, variant, at, (car, CarWheels::default(), model));
        if let Ok(instance) = world.get::<&PropInstance>(entity) {
            props.crowd_mut(variant).set_tint(instance.index(), paint);
        }
        entity
    }
}

impl PropKind for Cars {
    fn name(&self) -> &'static str {
        "cars"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("car"),
            units: 1.0,
            place: "traffic",
            role: "car",
            variants: true,
            parts: &[("wheels", None), ("steer", Some(2))],
            states: &["doors"],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn count(&self) -> Option<usize> {
        Some(self.count)
    }

    /// Any number: the town grows to hold them, up to its largest grid
    /// ([`SceneError::TooManyVehicles`] beyond).
    fn set_count(&mut self, count: usize) -> Result<(), SceneError> {
        self.count = count;
        Ok(())
    }

    /// The town grows to hold its cars.
    fn vehicles(&self) -> usize {
        self.count
    }

    /// Every car model (at least one): cars pick among them.
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        some_models(self.name(), models)?.iter().map(car_rig).collect()
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        self.measure(props);
        let mut rng = Rng::stream(town.config.seed, Stream::CarSpawn, 0);
        // The count was checked against the capacity when the town was sized.
        let places = traffic::spawn_places(town.roads, &town.config.driving, self.count, &mut rng).unwrap_or_default();
        for (lane, position) in places {
            self.insert((world, props), town, (lane, position, 0.0));
        }
        self.step(world, town, props, 0.0);
    }

    /// Reads the cars (and buses), writes their wheels.
    fn access(&self) -> StepAccess {
        StepAccess::nothing().reads::<Vehicle>().writes::<CarWheels>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps, dt: f32) {
        let step = WheelStep::new(dt);
        let lamps = town.daylight.lamps();
        for (car, wheels, instance) in world.query::<(&Vehicle, &mut CarWheels, &PropInstance)>().iter() {
            // The kind's own (a bus has wheels too).
            if !props.owns(instance) {
                continue;
            }
            let (geometry, doors, lights) = self.models[instance.model()];
            let crowd = props.of(instance);
            let (drivers, at) = geometry.drive(car, town.roads, crowd.prop().scale, wheels, step);
            if let Some(at) = at {
                crowd.set_placement(instance.index(), at);
            }
            crowd.drivers_mut(instance.index()).copy_from_slice(&drivers);
            if let Some(length) = doors {
                wheels.still = if car.is_standing() { wheels.still + dt } else { 0.0 };
                let opening = wheels.still >= DOORS_AFTER;
                wheels.doors = (wheels.doors + if opening { dt } else { -dt }).clamp(0.0, length);
                crowd.layers_mut(instance.index())[0] = props_anim::Layer::once(0, wheels.doors);
            }
            let state = (lamps, braking(car), wheels.turn.update(car, town.roads));
            lights.write(crowd.layers_mut(instance.index()), state, town.time);
        }
    }

    /// Every car picks again among the new car models, keeping its placement, wheel state and
    /// paint.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, rigs: Vec<BoundModel>) {
        props.repick(world, rigs);
        self.measure(props);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let car = world.get::<&Vehicle>(entity).ok()?;
        let state = if car.is_standing() { "waiting" } else { "driving" };
        Some(format!("car {state} at {:.0} km/h on lane {}", car.speed() * 3.6, car.lane().0))
    }
}

/// A car model with the drivers of its wheels and steering pivots, and its `doors` clip if
/// it has one (bound by a sidecar, then it must exist).
fn car_rig(car: &PropModel) -> Result<BoundModel, SceneError> {
    let (c, b) = (&*car.model, &car.bindings);
    let (_, drivers) = WheelGeometry::measure(c, b, "car")?;
    let (clips, doors, lights) = doors_and_lights(c, b)?;
    let layers = usize::from(doors) + lights.layers();
    Ok(BoundModel::new(car.clone(), Spec { clips, drivers, ..Spec::default() }, layers))
}

/// A car model's clips: its `doors` clip first (bound by a sidecar, then it must exist),
/// whether it has one, and its lights, whose layers come after the doors'.
fn doors_and_lights(model: &Model, bindings: &Bindings) -> Result<(Vec<usize>, bool, VehicleLights), SceneError> {
    let doors = match bindings.clips.contains_key("doors") {
        true => Some(bindings.clip(model, "doors", "doors").map_err(SceneError::of_model("car"))?),
        false => model.find_clip("doors"),
    };
    let mut clips: Vec<usize> = doors.into_iter().collect();
    let first = clips.len();
    let lights = VehicleLights::find(model, &mut clips, first);
    Ok((clips, doors.is_some(), lights))
}

/// The car: `body` with steering pivots over the front wheels and the rear wheels (radius
/// 0.33 m, axles 1.3 m either side of the centre); clip `drive`.
pub fn stand_in() -> Result<Model, SyntheticError> {
    built(false)
}

/// The car with a door: `body` also carries `door_left` (hinged at its front edge), and a
/// `doors` clip swings it open 70 degrees about Y over one second.
pub fn stand_in_with_doors() -> Result<Model, SyntheticError> {
    built(true)
}

/// The car, with a door and its clip or not.
fn built(door: bool) -> Result<Model, SyntheticError> {
    let (x, y, z) = (0.78, 0.33, 1.3);
    let body_children: &'static [u32] = if door { &[1, 2, 5, 6, 7] } else { &[1, 2, 5, 6] };
    let mut nodes = vec![
        node("body", Vec3::ZERO, body_children, true),
        node("steer_front_left", Vec3::new(x, y, z), &[3], false),
        node("steer_front_right", Vec3::new(-x, y, z), &[4], false),
        node("wheel_front_left", Vec3::ZERO, &[], true),
        node("wheel_front_right", Vec3::ZERO, &[], true),
        node("wheel_rear_left", Vec3::new(x, y, -z), &[], true),
        node("wheel_rear_right", Vec3::new(-x, y, -z), &[], true),
    ];
    let drive = [3, 4, 5, 6].map(|wheel| spin(wheel, Vec3::X, 1.0, 1.0)).to_vec();
    let mut clips = vec![("drive", drive)];
    if door {
        nodes.push(node("door_left", Vec3::new(0.9, 0.7, 0.6), &[], true));
        let open = Keyframes::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_y(70f32.to_radians())]);
        clips.push(("doors", vec![(7, Interpolation::Linear, vec![0.0, 1.0], open)]));
    }
    build(&nodes, clips, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ackermann_inner_wheel_turns_more() {
        // A left turn (positive curvature): the left wheel (positive offset) is inside.
        let (left, right) = (steer_angle(0.1, 2.6, 0.78), steer_angle(0.1, 2.6, -0.78));
        assert!(left > right && right > 0.0);
        assert_eq!(steer_angle(0.0, 2.6, 0.78), 0.0);
        assert!(steer_angle(-0.1, 2.6, 0.78) < 0.0);
    }
}
