//! Cars following lanes with the Intelligent Driver Model (Treiber, Hennecke, Helbing 2000).
//!
//! Each step, in three passes with no allocation once the buffers have grown:
//!
//! 1. `observe`: copy every car, sort each lane's cars by position (`Occupancy`); the
//!    signals read demand and box occupancy from this too.
//! 2. `drive`: every car's acceleration from the state at the step's start (so the order in
//!    which cars are visited does not matter): free-road term towards its desired speed, and
//!    the IDM interaction with the nearest obstacle ahead — the car in front along its route
//!    (same lane, else the rearmost car of the next one or two lanes), and the stop line when
//!    the light is red, amber and stoppable, or the exit behind the box has no room.
//! 3. Ballistic integration, then a hard safety net: a car never advances past its leader's
//!    position at the step's start minus one car length and [`IdmParams::safety_gap`] (leaders
//!    never move backwards, so this holds after the step as well), nor past a stop line it
//!    must stop at. A car that would cross a lane end moves onto its next lane, chosen when it
//!    entered the current one (so the lookahead knows the route).
//!
//! A vehicle's position is its centre, in metres along its lane. Every vehicle on the roads is a
//! [`Vehicle`] to the traffic system, whatever its length (a bus is 12 m); a prop kind may hold one
//! at a point of its lane ([`Vehicle::set_hold`]: a bus at its stop), and those behind queue.

use hecs::World;

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::rng::Rng;
use crate::town::roads::{LaneId, RoadNetwork};
use crate::town::signals::{DETECTION_RANGE, Detectors, LightState, Signals};

/// How far ahead a driver looks for a leader, metres.
const LOOKAHEAD: f32 = 120.0;
/// Lanes ahead searched for a leader beyond the current one.
const LOOKAHEAD_LANES: usize = 3;

/// Intelligent Driver Model parameters, shared by all cars. Speeds in m/s, accelerations in
/// m/s², distances in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdmParams {
    /// Desired speed on roads, before each driver's own preference (0.85 to 1.1 times this).
    pub speed_limit: f32,
    /// Lateral acceleration drivers accept in turns: sets each connector's speed limit.
    pub lateral_acceleration: f32,
    /// IDM `a`: maximum acceleration.
    pub max_acceleration: f32,
    /// IDM `b`: comfortable deceleration (also how early drivers slow for a turn).
    pub comfortable_deceleration: f32,
    /// Hardest braking a car can do.
    pub max_deceleration: f32,
    /// IDM `T`: desired time headway, seconds.
    pub time_headway: f32,
    /// IDM `s0`: bumper-to-bumper gap when stopped in a queue (and before a stop line).
    pub min_gap: f32,
    /// IDM `delta`: acceleration exponent.
    pub exponent: f32,
    /// Length of a car, bumper to bumper.
    pub car_length: f32,
    /// Smallest bumper-to-bumper gap the safety net allows.
    pub safety_gap: f32,
    /// At amber, a driver stops if that needs at most this deceleration, else drives on.
    pub amber_deceleration: f32,
}

impl Default for IdmParams {
    fn default() -> Self {
        Self {
            speed_limit: 13.9,
            lateral_acceleration: 2.0,
            max_acceleration: 1.4,
            comfortable_deceleration: 2.0,
            max_deceleration: 8.0,
            time_headway: 1.2,
            min_gap: 2.0,
            exponent: 4.0,
            car_length: 4.6,
            safety_gap: 0.5,
            amber_deceleration: 3.5,
        }
    }
}

impl IdmParams {
    /// Free-road acceleration towards `desired` speed; above it, braking is limited to the
    /// comfortable deceleration (IDM's free term falls steeply there).
    fn free_acceleration(&self, speed: f32, desired: f32) -> f32 {
        let ratio = speed / desired;
        // The usual exponent without a call into the maths library.
        let power = if self.exponent == 4.0 { (ratio * ratio) * (ratio * ratio) } else { ratio.powf(self.exponent) };
        (self.max_acceleration * (1.0 - power)).max(-self.comfortable_deceleration)
    }

    /// IDM interaction term for an obstacle `gap` metres ahead (bumper to bumper) approached
    /// at `closing` m/s.
    fn interaction(&self, speed: f32, closing: f32, gap: f32) -> f32 {
        let dynamic = speed * self.time_headway
            + speed * closing / (2.0 * (self.max_acceleration * self.comfortable_deceleration).sqrt());
        let desired_gap = self.min_gap + dynamic.max(0.0);
        self.max_acceleration * (desired_gap / gap.max(0.01)).powi(2)
    }
}

/// A car on the road network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vehicle {
    lane: LaneId,
    next: LaneId,
    position: f32,
    speed: f32,
    acceleration: f32,
    preference: f32,
    /// Half its length, bumper to bumper.
    half_length: f32,
    /// Where on its lane its front bumper must stop, if somewhere.
    hold: Option<f32>,
    rng: Rng,
}

impl Vehicle {
    /// A vehicle `length` metres long at `position` on `lane` driving at `speed`, with its own
    /// random stream `rng` (speed preference and routing). Spawn it where there is room
    /// ([`crate::town::Town::has_room`]).
    #[must_use]
    pub fn new(roads: &RoadNetwork, lane: LaneId, position: f32, speed: f32, length: f32, mut rng: Rng) -> Self {
        let preference = rng.range(0.85, 1.1);
        let next = roads.choose_next(lane, &mut rng);
        let half_length = length * 0.5;
        Self { lane, next, position, speed, acceleration: 0.0, preference, half_length, hold: None, rng }
    }

    /// Where it stands: on its lane, facing along it, a model drawn `scale` times its size.
    #[must_use]
    pub fn placement(&self, roads: &RoadNetwork, scale: f32) -> glam::Affine3A {
        let (at, direction) = roads.sample(self.lane, self.position);
        crate::facing(direction, scale, glam::Vec3::new(at.x, 0.0, at.y))
    }

    /// Its length, bumper to bumper, metres.
    #[must_use]
    pub fn length(&self) -> f32 {
        self.half_length * 2.0
    }

    /// Where on its lane its front bumper must stop (metres along the lane), if somewhere.
    #[must_use]
    pub fn hold(&self) -> Option<f32> {
        self.hold
    }

    /// Makes it stop with its front bumper at `front` metres along its current lane (it brakes
    /// as for a red light, and the cars behind queue), or with `None` lets it go. A hold ends
    /// by itself when the vehicle leaves the lane.
    pub fn set_hold(&mut self, front: Option<f32>) {
        self.hold = front;
    }

    /// The lane the car's centre is on.
    #[must_use]
    pub fn lane(&self) -> LaneId {
        self.lane
    }

    /// The lane it will take at the end of this one.
    #[must_use]
    pub fn next_lane(&self) -> LaneId {
        self.next
    }

    /// Distance of the car's centre along its lane, metres.
    #[must_use]
    pub fn position(&self) -> f32 {
        self.position
    }

    /// Speed, m/s (never negative).
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Whether it stands still (slower than [`STANDING_BELOW`]): waiting in the traffic
    /// figures, opening its doors after a while.
    #[must_use]
    pub fn is_standing(&self) -> bool {
        self.speed < STANDING_BELOW
    }

    /// Acceleration of the last step, m/s².
    #[must_use]
    pub fn acceleration(&self) -> f32 {
        self.acceleration
    }

    /// The driver's desired speed as a fraction of the limit.
    #[must_use]
    pub fn preference(&self) -> f32 {
        self.preference
    }
}

/// Counters of the traffic system, for a HUD and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrafficStats {
    /// Times the safety net had to hold a car back (the IDM alone would have come closer than
    /// the safety gap or crossed a stop line). Near zero in a healthy simulation.
    pub safety_clamps: u64,
    /// Cars that entered an intersection (a connector lane), in all: the throughput.
    pub intersections_entered: u64,
    /// Cars standing still ([`Vehicle::is_standing`]) after the last step.
    pub waiting: u32,
    /// Mean speed of the cars after the last step, m/s.
    pub mean_speed: f32,
}

/// Below this speed a car stands still, m/s.
pub const STANDING_BELOW: f32 = 0.1;

/// One car in a lane's sorted list.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    position: f32,
    car: u32,
}

/// The nearest car ahead along a route.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Leader {
    /// Bumper-to-bumper distance along the route.
    gap: f32,
    speed: f32,
}

impl Detectors for Occupancy {
    fn demand(&self, roads: &RoadNetwork, lane: LaneId) -> bool {
        let length = roads.length(lane);
        self.lane(lane).last().is_some_and(|s| s.position + self.half_length(s) >= length - DETECTION_RANGE)
    }

    fn box_occupied(&self, intersection: crate::town::roads::IntersectionId) -> bool {
        self.boxes[intersection.index()] > 0
    }
}

/// Every car at the start of a step, sorted per lane.
#[derive(Clone, Debug, Default)]
pub(crate) struct Occupancy {
    cars: Vec<Vehicle>,
    /// Each car's index in its lane's list.
    ranks: Vec<u32>,
    /// Every car, grouped by lane (lane `l`'s are `slots[starts[l]..starts[l + 1]]`), each
    /// lane's by increasing position: one buffer, whatever the lanes hold.
    slots: Vec<Slot>,
    starts: Vec<u32>,
    /// Per intersection, cars whose centre is on one of its connectors.
    boxes: Vec<u32>,
    /// Per lane, cars whose centre is on a connector leading into it (in the box, heading
    /// there).
    entering: Vec<u32>,
}

impl Occupancy {
    /// The cars on `lane`, by increasing position.
    fn lane(&self, lane: LaneId) -> &[Slot] {
        let i = lane.index();
        &self.slots[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Half the length of the car in `slot`.
    fn half_length(&self, slot: &Slot) -> f32 {
        self.cars[slot.car as usize].half_length
    }

    /// The nearest car ahead of car `index` along its route, within [`LOOKAHEAD`].
    fn leader(&self, roads: &RoadNetwork, index: usize) -> Option<Leader> {
        let car = &self.cars[index];
        let to_leader = |slot: &Slot, base: f32| {
            let leader = &self.cars[slot.car as usize];
            Leader { gap: base + slot.position - car.half_length - leader.half_length, speed: leader.speed }
        };
        if let Some(slot) = self.lane(car.lane).get(self.ranks[index] as usize + 1) {
            return Some(to_leader(slot, -car.position));
        }
        let mut base = roads.length(car.lane) - car.position;
        let mut lane = car.next;
        for _ in 0..LOOKAHEAD_LANES {
            if let Some(slot) = self.lane(lane).first() {
                return Some(to_leader(slot, base));
            }
            base += roads.length(lane);
            // Beyond a road lane the route is not chosen yet.
            match roads.first_next(lane) {
                Some(after) if roads.is_connector(lane) && base < LOOKAHEAD => lane = after,
                _ => break,
            }
        }
        None
    }

    /// Whether the exit road behind connector `connector` holds one more car beside those
    /// already in the box heading there ("don't block the box").
    fn exit_has_room(&self, roads: &RoadNetwork, connector: LaneId, params: &IdmParams) -> bool {
        let Some(exit) = roads.first_next(connector) else { return true };
        let free = self.lane(exit).first().map_or(roads.length(exit), |s| s.position - self.half_length(s));
        let in_box = self.entering[exit.index()];
        free >= (in_box + 1) as f32 * (params.car_length + params.min_gap)
    }

    /// For a car that must stop at its hold ([`Vehicle::set_hold`]) or its lane's stop line: the
    /// distance from its front bumper to the nearer. `None` when it may go (or its front is
    /// already past them).
    fn stop_gap(&self, roads: &RoadNetwork, signals: &Signals, params: &IdmParams, index: usize) -> Option<f32> {
        let car = &self.cars[index];
        let hold = car.hold.map(|front| front - car.position - car.half_length).filter(|gap| *gap >= 0.0);
        let line = self.stop_line_gap(roads, signals, params, car);
        match (hold, line) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// For a car that must stop at its lane's stop line: the distance from its front bumper to
    /// the line. `None` when it may go (or its front is already past the line).
    fn stop_line_gap(&self, roads: &RoadNetwork, signals: &Signals, params: &IdmParams, car: &Vehicle) -> Option<f32> {
        let (intersection, approach) = roads.stop_line(car.lane)?;
        let gap = roads.length(car.lane) - car.position - car.half_length;
        if gap < 0.0 {
            return None;
        }
        // Amber, or no room behind the box: stop only if that is still comfortable; a car too
        // close to stop drives on (and clears the box before the next green).
        let can_stop = car.speed * car.speed <= 2.0 * params.amber_deceleration * gap;
        let stop = match signals.state(intersection, approach) {
            LightState::Red => true,
            LightState::Amber => can_stop,
            LightState::Green => can_stop && !self.exit_has_room(roads, car.next, params),
        };
        stop.then_some(gap)
    }
}

/// The traffic system's reusable buffers and counters.
#[derive(Clone, Debug, Default)]
pub(crate) struct TrafficState {
    pub occupancy: Occupancy,
    /// Per lane, the farthest position a car entering it this step may take (merges).
    entry_limit: Vec<f32>,
    pub stats: TrafficStats,
}

/// Pass 1: snapshots every car and sorts the lanes.
pub(crate) fn observe(world: &mut World, roads: &RoadNetwork, state: &mut TrafficState) {
    let occupancy = &mut state.occupancy;
    occupancy.cars.clear();
    occupancy.cars.extend(world.query_mut::<&Vehicle>().into_iter().copied());
    // Counting sort by lane, then each lane by position; the cars in each box and heading
    // into each exit counted on the way.
    let Occupancy { cars, ranks, slots, starts, boxes, entering } = occupancy;
    starts.clear();
    starts.resize(roads.lanes().len() + 1, 0);
    boxes.clear();
    boxes.resize(roads.intersections().len(), 0);
    entering.clear();
    entering.resize(roads.lanes().len(), 0);
    for car in cars.iter() {
        starts[car.lane.index() + 1] += 1;
        if let Some(at) = roads.crosses(car.lane) {
            boxes[at.index()] += 1;
            if let Some(exit) = roads.first_next(car.lane) {
                entering[exit.index()] += 1;
            }
        }
    }
    for l in 1..starts.len() {
        starts[l] += starts[l - 1];
    }
    slots.clear();
    slots.resize(cars.len(), Slot { position: 0.0, car: 0 });
    // Fill each lane from its end backwards, reusing `ranks` as the lanes' fill counters.
    ranks.clear();
    ranks.resize(cars.len(), 0);
    for (index, car) in cars.iter().enumerate().rev() {
        let end = &mut starts[car.lane.index() + 1];
        *end -= 1;
        slots[*end as usize] = Slot { position: car.position, car: index as u32 };
    }
    // Now `starts[l + 1]` is where lane `l` starts: shift back.
    starts.rotate_left(1);
    let lanes = starts.len() - 1;
    starts[lanes] = slots.len() as u32;
    for l in 0..lanes {
        let lane = &mut slots[starts[l] as usize..starts[l + 1] as usize];
        lane.sort_unstable_by(|a, b| a.position.total_cmp(&b.position).then(a.car.cmp(&b.car)));
        for (rank, slot) in lane.iter().enumerate() {
            ranks[slot.car as usize] = rank as u32;
        }
    }
}

/// What [`drive`] touches of the world: the cars (for the groups the kinds step in).
pub(crate) fn access() -> StepAccess {
    StepAccess::nothing().writes::<Vehicle>()
}

/// Passes 2 and 3: accelerates, moves and hands over every car, from the snapshot taken by
/// [`observe`] in the same step (nothing may be spawned or despawned in between).
pub(crate) fn drive(
    world: &World,
    roads: &RoadNetwork,
    signals: &Signals,
    params: &IdmParams,
    state: &mut TrafficState,
    dt: f32,
) {
    let TrafficState { occupancy, entry_limit, stats } = state;
    entry_limit.clear();
    entry_limit.resize(roads.lanes().len(), f32::INFINITY);
    let (mut waiting, mut speeds, mut cars) = (0u32, 0.0f64, 0u32);
    for (index, car) in world.query::<&mut Vehicle>().iter().enumerate() {
        let old = occupancy.cars[index];
        debug_assert!(old.lane == car.lane && old.position == car.position, "car order changed within a step");
        let lane = old.lane;
        let leader = occupancy.leader(roads, index);
        let stop_gap = occupancy.stop_gap(roads, signals, params, index);

        // Desired speed: the lane's, lowered ahead of a slower next lane so that the car
        // arrives at the next lane's speed braking comfortably.
        let front_to_end = (roads.length(lane) - old.position - old.half_length).max(0.0);
        let next_limit = roads.speed_limit(old.next) * old.preference;
        let approach_limit = (next_limit * next_limit + 2.0 * params.comfortable_deceleration * front_to_end).sqrt();
        let desired = (roads.speed_limit(lane) * old.preference).min(approach_limit);

        let mut interaction: f32 = 0.0;
        if let Some(l) = leader {
            interaction = params.interaction(old.speed, old.speed - l.speed, l.gap);
        }
        if let Some(gap) = stop_gap {
            interaction = interaction.max(params.interaction(old.speed, old.speed, gap));
        }
        let acceleration = (params.free_acceleration(old.speed, desired) - interaction).max(-params.max_deceleration);

        // Ballistic update; a car that would reverse stops within the step instead.
        let (mut advance, mut speed) = match old.speed + acceleration * dt {
            v if v < 0.0 => (-old.speed * old.speed / (2.0 * acceleration), 0.0),
            v => (old.speed * dt + 0.5 * acceleration * dt * dt, v),
        };
        advance = advance.max(0.0);

        // Safety net: never closer than the safety gap to the leader's start-of-step position,
        // never past a stop line that holds the car.
        let mut limit = (f32::INFINITY, 0.0);
        if let Some(l) = leader {
            limit = (l.gap - params.safety_gap, l.speed);
        }
        if let Some(gap) = stop_gap
            && gap < limit.0
        {
            limit = (gap, 0.0);
        }
        if advance > limit.0 {
            advance = limit.0.max(0.0);
            speed = speed.min(limit.1);
            stats.safety_clamps += 1;
        }

        let (mut lane_id, mut next, mut position, mut rng) = (old.lane, old.next, old.position + advance, old.rng);
        let mut hold = old.hold;
        loop {
            let length = roads.length(lane_id);
            if position <= length {
                break;
            }
            // Another car merged into the next lane this step: wait behind it (never moving
            // backwards).
            let allowed = entry_limit[next.index()] - old.half_length;
            if position - length > allowed {
                stats.safety_clamps += 1;
                speed = 0.0;
                let floor = if lane_id == old.lane { old.position } else { 0.0 };
                position = (length + allowed).max(floor);
                break;
            }
            position -= length;
            lane_id = next;
            hold = None;
            if roads.is_connector(lane_id) {
                stats.intersections_entered += 1;
            }
            next = roads.choose_next(lane_id, &mut rng);
            let limit = &mut entry_limit[lane_id.index()];
            // Where the rear bumper of the next car to enter may go at most.
            *limit = limit.min(position - old.half_length - params.safety_gap);
        }
        *car = Vehicle { lane: lane_id, next, position, speed, acceleration, hold, rng, ..old };
        waiting += u32::from(car.is_standing());
        speeds += f64::from(speed);
        cars += 1;
    }
    stats.waiting = waiting;
    stats.mean_speed = if cars > 0 { (speeds / f64::from(cars)) as f32 } else { 0.0 };
}

/// Whether a vehicle `length` metres long fits with its centre at `position` along `lane`: the
/// lane exists, the position is on it, and every other vehicle is clear of it (centre to
/// centre, half their lengths plus the safety gap; on the same lane, along it).
pub(crate) fn has_room(
    world: &World,
    roads: &RoadNetwork,
    params: &IdmParams,
    lane: LaneId,
    position: f32,
    length: f32,
) -> bool {
    let Some(on_lane) = roads.lanes().get(lane.index()) else { return false };
    if !(0.0..=on_lane.length()).contains(&position) {
        return false;
    }
    let at = on_lane.sample(position).0;
    !world.query::<&Vehicle>().iter().any(|other| {
        let clearance = (length + other.length()) * 0.5 + params.safety_gap;
        let other_at = roads.lane(other.lane()).sample(other.position()).0;
        let same_lane_gap = if other.lane() == lane { (other.position() - position).abs() } else { f32::INFINITY };
        other_at.distance(at) < clearance || same_lane_gap < clearance
    })
}

/// Distance between the initial cars, centre to centre, metres.
fn spawn_spacing(params: &IdmParams) -> f32 {
    params.car_length + params.min_gap + 6.0
}

/// How many cars the initial placement puts on `roads` at most.
pub(crate) fn capacity(roads: &RoadNetwork, params: &IdmParams) -> usize {
    // Road lanes of a grid are all the same length; the shortest decides to be safe.
    let lanes = roads.road_lanes();
    let shortest = lanes.iter().map(|l| roads.lane(*l).length()).fold(f32::INFINITY, f32::min);
    let per_lane = ((shortest - params.car_length - 1.0) / spawn_spacing(params)).floor().max(-1.0) as usize + 1;
    per_lane * lanes.len()
}

/// Where the initial cars go: lanes shuffled by the seed, filled from their stop lines back,
/// `spacing` metres apart. Returns `(lane, position)` per car, or the capacity if they do not
/// fit.
pub(crate) fn spawn_places(
    roads: &RoadNetwork,
    params: &IdmParams,
    count: usize,
    rng: &mut Rng,
) -> Result<Vec<(LaneId, f32)>, SceneError> {
    let spacing = spawn_spacing(params);
    let half = params.car_length * 0.5;
    let capacity = capacity(roads, params);
    if count > capacity {
        return Err(SceneError::TooManyVehicles { requested: count, capacity });
    }
    let mut lanes: Vec<LaneId> = roads.road_lanes().to_vec();
    for i in (1..lanes.len()).rev() {
        lanes.swap(i, rng.below(i as u32 + 1) as usize);
    }
    Ok((0..count)
        .map(|i| {
            let lane = lanes[i % lanes.len()];
            let slot = (i / lanes.len()) as f32;
            (lane, roads.lane(lane).length() - half - 1.0 - slot * spacing)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idm_is_at_rest_in_a_queue_and_accelerates_on_an_empty_road() {
        let p = IdmParams::default();
        // Stopped at exactly the minimum gap: no acceleration.
        let a = p.free_acceleration(0.0, 13.9) - p.interaction(0.0, 0.0, p.min_gap);
        assert!(a.abs() < 1e-6, "{a}");
        assert!((p.free_acceleration(0.0, 13.9) - p.max_acceleration).abs() < 1e-6);
        assert!(p.free_acceleration(13.9, 13.9).abs() < 1e-6);
        // Far above the desired speed: comfortable braking, not a cliff.
        assert_eq!(p.free_acceleration(30.0, 5.0), -p.comfortable_deceleration);
    }

    #[test]
    fn spawn_places_fill_lanes_and_refuse_too_many() {
        let roads = RoadNetwork::grid(3, 90.0, 13.9, 2.0);
        let p = IdmParams::default();
        let places = spawn_places(&roads, &p, 100, &mut Rng::new(1)).expect("100 cars fit");
        assert_eq!(places.len(), 100);
        for (lane, position) in &places {
            assert!(*position >= p.car_length * 0.5 && *position <= roads.lane(*lane).length());
        }
        let err = spawn_places(&roads, &p, 10_000, &mut Rng::new(1));
        assert!(matches!(err, Err(SceneError::TooManyVehicles { requested: 10_000, .. })));
    }
}
