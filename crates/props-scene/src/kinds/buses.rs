//! The buses kind, a complete prop kind in one file (see `kind.rs`): 12 m buses driving in
//! traffic, stopping at bus stops and opening their doors there.
//!
//! - **Stops**: one on every other road lane, its front end [`STOP_AT`] of the way along the
//!   lane, on the kerb side (where the bus's doors are).
//! - **Driving**: a bus is a [`Vehicle`] to the traffic system, 12 m long, so cars queue behind
//!   it. Its wheels roll and steer as a car's ([`WheelGeometry`]).
//! - **Dwelling**: on a lane with a stop it has not served, it holds its front bumper at the
//!   stop ([`Vehicle::set_hold`]: it brakes as for a red light, and the cars behind wait). Stopped
//!   there, it opens its doors, dwells [`DWELL`] seconds, closes them, and drives on.
//! - **Doors**: the model's `door_front` and `door_rear` clips play on two layers, each masked
//!   to its door's subtree, over the driving pose (the wheel drivers); forwards to open,
//!   backwards to close.

use hecs::{Entity, World};
use props_anim::{Blend, Layer, Mask, Spec};

use crate::access::Access;
use crate::bindings::Convention;
use crate::error::SceneError;
use crate::kind::{KindAsset, PropInstance, PropKind, Props, only_model};
use crate::kinds::cars::{CarWheels, WheelGeometry, WheelStep};
use crate::models::KindModel;
use crate::models::PropModel;
use crate::town::Town;
use crate::town::roads::LaneId;
use crate::town::traffic::Vehicle;

/// A bus's length, bumper to bumper, metres.
pub const BUS_LENGTH: f32 = 12.0;
/// How far along its lane a stop's front end is, as a fraction of the lane's length.
pub const STOP_AT: f32 = 0.6;
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
    /// Per lane, where the front of a bus stops at its stop (metres along it), if it has one.
    stops: Vec<Option<f32>>,
    geometry: WheelGeometry,
    /// Length of each door clip (`door_front`, `door_rear`), seconds.
    door_times: [f32; 2],
}

impl Buses {
    /// `count` buses (fewer if the roads have no room for them).
    #[must_use]
    pub fn new(count: usize) -> Self {
        Self { count, stops: Vec::new(), geometry: WheelGeometry::default(), door_times: [0.0; 2] }
    }

    /// The bus stops: each lane's with one, and where a bus's front stops on it.
    pub fn stops(&self) -> impl Iterator<Item = (LaneId, f32)> + '_ {
        self.stops.iter().enumerate().filter_map(|(lane, stop)| Some((LaneId(lane as u32), (*stop)?)))
    }

    /// Measures the model and the door clips.
    fn measure(&mut self, props: &Props) {
        let rig = props.crowd(0).kind_model();
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
            drawn_at: 1.0,
            place: "bus routes",
            role: "bus",
            variants: false,
            parts: &[("wheels", None), ("steer", Some(2)), ("door_front", Some(1)), ("door_rear", Some(1))],
            states: &["door_front", "door_rear"],
        }
    }

    fn rig(&self, models: &[PropModel]) -> Result<Vec<KindModel>, SceneError> {
        let bus = only_model(self.name(), models)?;
        let (m, b) = (&*bus.model, &bus.bindings);
        let (_, drivers) = WheelGeometry::measure(m, b, "bus")?;
        let mut spec = Spec { drivers, ..Spec::default() };
        for door in ["door_front", "door_rear"] {
            spec.clips.push(b.clip(m, "bus", door, door)?);
            let [node] = b.nodes(m, "bus", door, Convention::Named(door))?[..] else {
                return Err(SceneError::MissingNode { model: "bus", node: door.to_owned() });
            };
            spec.masks.push(Mask::subtree(m.rig(), node));
        }
        Ok(vec![KindModel::new(bus.clone(), spec, 2)])
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut Props) {
        self.measure(props);
        let roads = town.roads;
        self.stops = vec![None; roads.lanes().len()];
        for lane in roads.road_lanes().iter().step_by(2) {
            self.stops[lane.index()] = Some(roads.length(*lane) * STOP_AT);
        }
        // Each bus behind a stop, the stops taken in a seeded order; a stop with no room is
        // skipped.
        let mut lanes: Vec<(LaneId, f32)> = self.stops().collect();
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
    fn access(&self) -> Access {
        Access::nothing().writes::<Vehicle>().writes::<CarWheels>().writes::<Bus>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut Props, dt: f32) {
        let max_braking = town.config.driving.max_deceleration * STOPPABLE;
        let step = WheelStep::new(dt);
        for (car, wheels, bus, instance) in
            world.query::<(&mut Vehicle, &mut CarWheels, &mut Bus, &PropInstance)>().iter()
        {
            if bus.lane != car.lane() {
                (bus.lane, bus.served) = (car.lane(), false);
            }
            let stop = self.stops[car.lane().index()].filter(|_| !bus.served);
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
                Layer { clip, time, weight: 1.0, blend: Blend::Replace, mask: clip as u8 }
            };
            crowd.layers_mut(instance.index()).copy_from_slice(&[door(0), door(1)]);
        }
    }

    /// The new bus model, measured again (its wheels and door clips may differ).
    fn rebind(&mut self, _world: &mut World, props: &mut Props, rigs: Vec<KindModel>) {
        props.recompile(rigs);
        self.measure(props);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &Props, entity: Entity) -> Option<String> {
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
