//! A vehicle's lights, as clips of its model played on layers of their own: headlights and
//! tail lights with the town's lamps (`night`, as [`crate::night`]), brake lights while it
//! slows down hard or stands (`brake`), and the indicator of the side it turns to, from a
//! little before the turn (`indicate_left`, `indicate_right`, looped). A model without a clip
//! goes without that light.

use glam::Vec2;
use props_anim::{Layer, Model};

use crate::town::roads::{LaneId, RoadNetwork};
use crate::town::traffic::Vehicle;

/// Deceleration from which the brake lights show, m/s².
const BRAKING: f32 = 0.8;
/// How far before the end of its lane a vehicle indicates its turn, metres.
const INDICATE_BEFORE: f32 = 35.0;
/// How far the next lane must turn (the sine of the angle) to be indicated.
const TURNING: f32 = 0.3;

/// Which indicator a vehicle shows for its next turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Indicator {
    /// None: straight on, or not yet near the turn.
    #[default]
    Off,
    /// To its left (its +X).
    Left,
    /// To its right.
    Right,
}

/// The layers a model's lights take, after `first` layers of others: one for the night, one
/// for the brake lights, one for the indicators, each the index of its clip among the spec's
/// (those it has).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct VehicleLights {
    night: Option<u16>,
    brake: Option<u16>,
    left: Option<u16>,
    right: Option<u16>,
    first: usize,
    /// The indicators' clip duration: one blink, looped.
    blink: f32,
}

impl VehicleLights {
    /// Finds `model`'s light clips and appends them to `clips` (a spec's, whose layers take
    /// `layers` before these).
    pub fn find(model: &Model, clips: &mut Vec<usize>, layers: usize) -> Self {
        let mut find = |name: &str| {
            let clip = model.find_clip(name)?;
            clips.push(clip);
            Some((clips.len() - 1) as u16)
        };
        let (night, brake) = (find(crate::night::CLIP), find("brake"));
        let (left, right) = (find("indicate_left"), find("indicate_right"));
        let blink = left.or(right).map_or(0.0, |c| model.clips()[clips[c as usize]].duration());
        Self { night, brake, left, right, first: layers, blink }
    }

    /// The layers they take: none for a model without any light clip, else three.
    #[must_use]
    pub fn layers(&self) -> usize {
        let any = self.night.or(self.brake).or(self.left).or(self.right).is_some();
        if any { 3 } else { 0 }
    }

    /// Sets the lights' layers of one vehicle: the lamp level (0 to 1), whether it brakes,
    /// which way it turns, and the town's time (the indicators' blink).
    pub fn write(&self, layers: &mut [Layer], (lamps, braking, turn): (f32, bool, Indicator), time: f64) {
        if self.layers() == 0 {
            return;
        }
        let Some(slots) = layers.get_mut(self.first..self.first + 3) else { return };
        let on = |clip: Option<u16>, at: f32| clip.map_or(Layer::NONE, |c| Layer::once(c, at));
        // By day the rest pose (lights off): no layer.
        slots[0] = if lamps > 0.0 { on(self.night, lamps.min(1.0)) } else { Layer::NONE };
        slots[1] = if braking { on(self.brake, 0.0) } else { Layer::NONE };
        // The indicators loop, blinking with the town's time.
        let blink = || if self.blink > 0.0 { (time % f64::from(self.blink)) as f32 } else { 0.0 };
        slots[2] = match turn {
            Indicator::Off => Layer::NONE,
            Indicator::Left => on(self.left, blink()),
            Indicator::Right => on(self.right, blink()),
        };
    }
}

/// Whether `vehicle` brakes: slowing down hard, or standing.
#[must_use]
pub fn braking(vehicle: &Vehicle) -> bool {
    vehicle.is_standing() || vehicle.acceleration() < -BRAKING
}

/// Which way `vehicle` turns at the end of its lane, once it is near it.
#[must_use]
pub fn turn_ahead(vehicle: &Vehicle, roads: &RoadNetwork) -> Indicator {
    let lane = vehicle.lane();
    if roads.length(lane) - vehicle.position() > INDICATE_BEFORE {
        return Indicator::Off;
    }
    turn_between(roads, lane, vehicle.next_lane())
}

/// A vehicle's next turn ([`turn_ahead`]), worked out once per lane it enters: looking the
/// lanes up in the road network on every step costs a cache miss per vehicle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TurnAhead {
    /// The lane and the next lane it was worked out for.
    lanes: Option<(LaneId, LaneId)>,
    turn: Indicator,
    /// Where along the lane the indicator comes on.
    from: f32,
}

impl TurnAhead {
    /// As [`turn_ahead`].
    pub fn update(&mut self, vehicle: &Vehicle, roads: &RoadNetwork) -> Indicator {
        let lanes = (vehicle.lane(), vehicle.next_lane());
        if self.lanes != Some(lanes) {
            *self = Self {
                lanes: Some(lanes),
                turn: turn_between(roads, lanes.0, lanes.1),
                from: roads.length(lanes.0) - INDICATE_BEFORE,
            };
        }
        if vehicle.position() >= self.from { self.turn } else { Indicator::Off }
    }
}

/// The turn from the end of `lane` to where `next` leads.
fn turn_between(roads: &RoadNetwork, lane: LaneId, next: LaneId) -> Indicator {
    let heading = roads.end_heading(lane);
    // Where the next lane leads (a connector across an intersection starts straight on).
    let next = roads.end_heading(next);
    // A vehicle's left (+X) when it heads along +Z, turned with it.
    let left = Vec2::new(heading.y, -heading.x);
    match next.dot(left) {
        side if side > TURNING => Indicator::Left,
        side if side < -TURNING => Indicator::Right,
        _ => Indicator::Off,
    }
}
