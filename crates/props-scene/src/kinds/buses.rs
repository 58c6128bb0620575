//! The buses kind, a complete prop kind in one file (see `kind.rs`): 12 m buses driving in
//! traffic, stopping at bus stops and opening their doors there.
//!
//! - **Stops**: the town's ([`crate::town::bus_stops`]), on the kerb side (where the bus's doors
//!   are).
//! - **Driving**: a bus is a [`Vehicle`] to the traffic system, 12 m long, so cars queue behind
//!   it. Its wheels roll and steer as a car's ([`WheelGeometry`]).
//! - **Dwelling**: on a lane with a stop it has not served, it holds its front bumper at the
//!   stop ([`Vehicle::set_hold`]: it brakes as for a red light, and the cars behind wait). Stopped
//!   there, it opens its doors, dwells [`DWELL`] seconds, closes them, and drives on.
//! - **Doors**: the model's `door_front` and `door_rear` clips play on two layers, each masked
//!   to its door's subtree, over the driving pose (the wheel drivers); forwards to open,
//!   backwards to close.

use glam::Vec3;
use hecs::{Entity, World};
use props_anim::{Layer, Mask, Model, Spec, clip::Keyframes, clip::interpolate::Interpolation};
use props_crowd::{BindError, BoundModel, Convention, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::kind::{KindAsset, KindProps, PropInstance, PropKind, at_most, only_model};
use crate::kinds::cars::{CarWheels, WheelGeometry, WheelStep};
use crate::stand_in_kit::{SyntheticError, build, node, spin};
use crate::town::Town;
use crate::town::roads::LaneId;
use crate::town::traffic::Vehicle;

/// A bus's length, bumper to bumper, metres.
pub const BUS_LENGTH: f32 = 12.0;
/// Seconds a bus stands at a stop with its doors open.
pub const DWELL: f32 = 8.0;
/// A bus standing this close to its stop (front bumper to the stop's front end) is at it, metres.
pub const AT_STOP: f32 = 1.0;
/// A bus faster than this when a stop comes up passes it (it could not stop comfortably), as
/// a fraction of the hardest braking.
const STOPPABLE: f32 = 0.5;

/// What a bus is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BusState {
    /// Driving (towards a stop, if its lane has one it has not served).
    Driving,
    /// Standing at a stop, doors opening or open, for this many seconds more.
    Dwelling(f32),
    /// Closing its doors before it drives on.
    Closing,
}

/// A bus: its state, its doors, and whether it has served (or missed) the stop of its lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bus {
    state: BusState,
    /// Time into the door clips: 0 closed, open at their end.
    doors: f32,
    /// The lane it was on at the last step.
    lane: LaneId,
    /// Whether it is done with that lane's stop.
    served: bool,
}

impl Bus {
    /// What it is doing.
    #[must_use]
    pub fn state(&self) -> BusState {
        self.state
    }

    /// Time into its door clips: 0 while closed.
    #[must_use]
    pub fn doors(&self) -> f32 {
        self.doors
    }
}

/// The buses: `count` of them, spawned behind stops where there is room.
pub struct Buses {
    count: usize,
    geometry: WheelGeometry,
    /// Length of each door clip (`door_front`, `door_rear`), seconds.
    door_times: [f32; 2],
}

/// Buses the town starts with unless the game says otherwise.
pub const DEFAULT_BUSES: usize = 4;
/// Most buses the town takes (one per stop at most drive).
pub const MAX_BUSES: usize = 10_000;

impl Default for Buses {
    fn default() -> Self {
        Self::new(DEFAULT_BUSES)
    }
}

impl Buses {
    /// `count` buses (fewer if the roads have no room for them).
    #[must_use]
    pub fn new(count: usize) -> Self {
        Self { count, geometry: WheelGeometry::default(), door_times: [0.0; 2] }
    }

    /// Measures the model and the door clips.
    fn measure(&mut self, props: &KindProps) {
        let rig = props.crowd(0).model();
        let model = &rig.prop.model;
        // Rigged by `rig`, so the measuring succeeds (the default is never used).
        self.geometry = WheelGeometry::measure(model, &rig.prop.bindings, "bus").map(|(g, _)| g).unwrap_or_default();
        self.door_times = [0, 1].map(|door| model.clips()[rig.spec.clips[door]].duration());
    }

    /// How long the doors take to open: the longer door clip, seconds.
    fn door_time(&self) -> f32 {
        self.door_times[0].max(self.door_times[1])
    }
}

impl PropKind for Buses {
    fn name(&self) -> &'static str {
        "buses"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("bus"),
            units: 1.0,
            place: "bus routes",
            role: "bus",
            variants: false,
            parts: &[("wheels", None), ("steer", Some(2)), ("door_front", Some(1)), ("door_rear", Some(1))],
            states: &["door_front", "door_rear"],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn count(&self) -> Option<usize> {
        Some(self.count)
    }

    fn set_count(&mut self, count: usize) -> Result<(), SceneError> {
        self.count = at_most(self.name(), count, MAX_BUSES)?;
        Ok(())
    }

    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let bus = only_model(self.name(), models)?;
        let (m, b) = (&*bus.model, &bus.bindings);
        let (_, drivers) = WheelGeometry::measure(m, b, "bus")?;
        let mut spec = Spec { drivers, ..Spec::default() };
        let bus_error = SceneError::of_model("bus");
        for door in ["door_front", "door_rear"] {
            spec.clips.push(b.clip(m, door, door).map_err(&bus_error)?);
            let [node] = b.nodes(m, door, Convention::Named(door)).map_err(&bus_error)?[..] else {
                return Err(bus_error(BindError::MissingNode(door.to_owned())));
            };
            spec.masks.push(Mask::subtree(m.rig(), node));
        }
        Ok(vec![BoundModel::new(bus.clone(), spec, 2)])
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        self.measure(props);
        let roads = town.roads;
        // Each bus behind a stop, the stops taken in a seeded order; a stop with no room is
        // skipped.
        let mut lanes: Vec<(LaneId, f32)> = town.bus_stops.iter().collect();
        let mut rng = town.rng(self.name(), 0);
        for i in (1..lanes.len()).rev() {
            lanes.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let scale = props.crowd(0).prop().scale;
        let mut spawned = 0;
        for (lane, front) in lanes {
            if spawned == self.count {
                break;
            }
            let position = front - BUS_LENGTH * 0.5 - BUS_LENGTH;
            if !town.has_room(world, lane, position, BUS_LENGTH) {
                continue;
            }
            let car = Vehicle::new(roads, lane, position, 0.0, BUS_LENGTH, town.rng(self.name(), 1 + spawned as u64));
            let bus = Bus { state: BusState::Driving, doors: 0.0, lane, served: false };
            let at = car.placement(roads, scale);
            props.spawn(world, 0, at, (car, CarWheels::default(), bus));
            spawned += 1;
        }
        self.step(world, town, props, 0.0);
    }

    /// Holds its buses at stops (their [`Vehicle`]s), turns their wheels and opens their doors.
    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<Vehicle>().writes::<CarWheels>().writes::<Bus>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps, dt: f32) {
        let max_braking = town.config.driving.max_deceleration * STOPPABLE;
        let step = WheelStep::new(dt);
        for (car, wheels, bus, instance) in
            world.query::<(&mut Vehicle, &mut CarWheels, &mut Bus, &PropInstance)>().iter()
        {
            if bus.lane != car.lane() {
                (bus.lane, bus.served) = (car.lane(), false);
            }
            let stop = town.bus_stops.front(car.lane()).filter(|_| !bus.served);
            bus.state = match (bus.state, stop) {
                (BusState::Driving, Some(front)) => {
                    let gap = front - car.position() - car.length() * 0.5;
                    let stoppable = car.speed() * car.speed() <= 2.0 * max_braking * gap.max(0.0);
                    if gap.abs() <= AT_STOP && car.is_standing() {
                        BusState::Dwelling(DWELL)
                    } else if gap < -AT_STOP || (car.hold().is_none() && !stoppable) {
                        // Past it, or too fast to stop for it: this one is missed.
                        bus.served = true;
                        car.set_hold(None);
                        BusState::Driving
                    } else {
                        // IDM stops the minimum gap short of a hold: hold that far beyond.
                        car.set_hold(Some(front + town.config.driving.min_gap));
                        BusState::Driving
                    }
                }
                (BusState::Dwelling(left), _) if left - dt > 0.0 => BusState::Dwelling(left - dt),
                (BusState::Dwelling(_) | BusState::Closing, _) if bus.doors > 0.0 => BusState::Closing,
                (BusState::Dwelling(_) | BusState::Closing, _) => {
                    bus.served = true;
                    car.set_hold(None);
                    BusState::Driving
                }
                (BusState::Driving, None) => BusState::Driving,
            };
            let opening = matches!(bus.state, BusState::Dwelling(_));
            bus.doors = (bus.doors + if opening { dt } else { -dt }).clamp(0.0, self.door_time());

            let crowd = props.of(instance);
            let (drivers, at) = self.geometry.drive(car, town.roads, crowd.prop().scale, wheels, step);
            if let Some(at) = at {
                crowd.set_placement(instance.index(), at);
            }
            crowd.drivers_mut(instance.index()).copy_from_slice(&drivers);
            // Each door's clip on its own layer, masked to its door.
            let door = |clip: u16| {
                let time = bus.doors.min(self.door_times[usize::from(clip)]);
                Layer { mask: clip as u8, ..Layer::once(clip, time) }
            };
            crowd.layers_mut(instance.index()).copy_from_slice(&[door(0), door(1)]);
        }
    }

    /// The new bus model, measured again (its wheels and door clips may differ).
    fn rebind(&mut self, _world: &mut World, props: &mut KindProps, rigs: Vec<BoundModel>) {
        props.recompile(rigs);
        self.measure(props);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let (car, bus) = (world.get::<&Vehicle>(entity).ok()?, world.get::<&Bus>(entity).ok()?);
        let open = if self.door_time() > 0.0 { bus.doors / self.door_time() } else { 0.0 };
        let state = match bus.state {
            BusState::Driving => "driving",
            BusState::Dwelling(_) => "at its stop",
            BusState::Closing => "leaving its stop",
        };
        let (speed, lane) = (car.speed() * 3.6, car.lane().0);
        let summary = format!("bus {state} at {speed:.0} km/h on lane {lane}, doors {:.0} % open", open * 100.0);
        Some(summary)
    }
}

/// The bus: `body` with steering pivots over the front wheels and the rear wheels (radius
/// 0.5 m, axles at +3.4 m and -3.2 m) and two doors on its right side, `door_front` and
/// `door_rear`; clips `drive`, `door_front` and `door_rear` (each door slides 1 m back over
/// 1.2 s), as `assets/bus.glb`. The `door_front` clip also lifts the body 0.3 m (a stray key, as
/// exporters write when they bake a whole action), which the buses' door mask must keep off.
pub fn stand_in() -> Result<Model, SyntheticError> {
    let (x, y) = (1.05, 0.5);
    let nodes = [
        node("body", Vec3::ZERO, &[1, 2, 5, 6, 7, 8], true),
        node("steer_front_left", Vec3::new(x, y, 3.4), &[3], false),
        node("steer_front_right", Vec3::new(-x, y, 3.4), &[4], false),
        node("wheel_front_left", Vec3::ZERO, &[], true),
        node("wheel_front_right", Vec3::ZERO, &[], true),
        node("wheel_rear_left", Vec3::new(x, y, -3.2), &[], true),
        node("wheel_rear_right", Vec3::new(-x, y, -3.2), &[], true),
        node("door_front", Vec3::new(-1.25, 0.0, 4.7), &[], true),
        node("door_rear", Vec3::new(-1.25, 0.0, 0.3), &[], true),
    ];
    let slide = |door: u32, z: f32| {
        let keys = vec![Vec3::new(-1.25, 0.0, z), Vec3::new(-1.37, 0.0, z), Vec3::new(-1.37, 0.0, z - 1.0)];
        vec![(door, Interpolation::Linear, vec![0.0, 0.36, 1.2], Keyframes::Translation(keys))]
    };
    let drive = [3, 4, 5, 6].map(|wheel| spin(wheel, Vec3::X, 2.0, 1.0)).to_vec();
    let mut front = slide(7, 4.7);
    let lift = Keyframes::Translation(vec![Vec3::ZERO, Vec3::Y * 0.3]);
    front.push((0, Interpolation::Linear, vec![0.0, 1.2], lift));
    build(&nodes, vec![("drive", drive), ("door_front", front), ("door_rear", slide(8, 0.3))], None)
}
