//! The sidewalks and the crossings between them. Every block is ringed by a raised sidewalk
//! [`SIDEWALK_WIDTH`] wide beyond the kerb, its corners paved across the box's corner; people
//! walk along its [`WALKING_LINE`], beyond the street lamps and signal poles that stand near
//! the kerb. At each intersection a crossing joins the corners of neighbouring blocks across
//! each road, inside the box (so cars waiting at the stop lines leave it clear), its kerbs
//! dropped. People cross on the signals' walk phase
//! ([`crate::town::signals::SignalPhase::Walk`]), when every car approach is red and the box
//! is empty: no car and no walker are ever on a crossing together.
//!
//! A walker of any kind carries a [`CrossingUse`]; at each step's start the scene counts, per
//! intersection, who waits and who is on a crossing ([`Crossings`]), and the signals read it.

use glam::Vec2;
use hecs::World;

use crate::town::roads::{BOX_HALF, IntersectionId, LANE_WIDTH, RoadNetwork};

/// Width of a sidewalk, from the kerb (a lane's width from the road's centre line), metres.
pub const SIDEWALK_WIDTH: f32 = 3.0;
/// Height of a sidewalk's top above the ground, metres.
pub const KERB: f32 = 0.12;
/// Height of the asphalt above the ground, metres.
pub const ROAD_LIFT: f32 = 0.03;
/// Distance from a road's centre line to the line people walk along on the sidewalk beside it,
/// metres: 2.4 m past the kerb, beyond the street lamps (1.5 m past it) and the signal poles.
pub const WALKING_LINE: f32 = LANE_WIDTH + 2.4;
/// Where a sidewalk's corner ends inside the box, from the intersection's centre, metres:
/// short of the path of the cars turning right.
pub const CORNER_PAVED_FROM: f32 = 5.0;
/// Length of a dropped kerb's slope at each end of a crossing, metres.
const RAMP: f32 = 0.6;

const _: () = assert!(WALKING_LINE < BOX_HALF, "a crossing lies inside the box, clear of the stop lines");
const _: () = assert!(CORNER_PAVED_FROM < WALKING_LINE && WALKING_LINE < LANE_WIDTH + SIDEWALK_WIDTH);

/// The height above the ground of a walker `across` metres from the centre line of the road
/// it crosses: the asphalt's, rising to the kerb's over a dropped kerb at the road's edge.
#[must_use]
pub fn crossing_height(across: f32) -> f32 {
    let t = ((across - LANE_WIDTH) / RAMP + 0.5).clamp(0.0, 1.0);
    ROAD_LIFT + (KERB - ROAD_LIFT) * t * t * (3.0 - 2.0 * t)
}

/// Where a walker is with respect to the crossings: the component every walker carries, of
/// whatever kind, so that the signals see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CrossingUse {
    /// On a sidewalk.
    #[default]
    Away,
    /// At a corner of the intersection, waiting to cross.
    Waiting(IntersectionId),
    /// On one of the intersection's crossings.
    Crossing(IntersectionId),
}

/// A block's corner on its sidewalk, and the intersection it touches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Corner {
    /// Where it is, (x, z).
    pub at: Vec2,
    /// The intersection it is a corner of.
    pub intersection: IntersectionId,
}

/// The sidewalk's corners of the block centred at `centre` (a [`RoadNetwork::block_centres`]
/// item) in counter-clockwise order seen from above (+Y), starting at (+x, +z), each with the
/// intersection it touches.
#[must_use]
pub fn corners(roads: &RoadNetwork, centre: Vec2) -> [Corner; 4] {
    let half = roads.block() * 0.5;
    [Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0), Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0)].map(|sign| {
        let intersection = centre + sign * half;
        Corner { at: intersection - sign * WALKING_LINE, intersection: nearest_intersection(roads, intersection) }
    })
}

/// The intersection nearest `at`, from the grid's layout ([`RoadNetwork::grid`]: `grid` x
/// `grid` intersections `block` apart, centred on the origin).
fn nearest_intersection(roads: &RoadNetwork, at: Vec2) -> IntersectionId {
    let grid = roads.intersections().len().isqrt();
    let cell = (at / roads.block() + Vec2::splat((grid as f32 - 1.0) * 0.5)).round();
    let clamp = |v: f32| (v.max(0.0) as usize).min(grid.saturating_sub(1));
    IntersectionId((clamp(cell.y) * grid + clamp(cell.x)) as u32)
}

/// What the signals see of the walkers, per intersection: counted at each step's start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Crossings {
    waiting: Vec<u32>,
    crossing: Vec<u32>,
}

impl Crossings {
    /// Whether someone waits at a corner of `intersection` to cross.
    #[must_use]
    pub fn waiting(&self, intersection: IntersectionId) -> bool {
        self.waiting.get(intersection.index()).is_some_and(|&n| n > 0)
    }

    /// Whether someone is on one of `intersection`'s crossings.
    #[must_use]
    pub fn occupied(&self, intersection: IntersectionId) -> bool {
        self.crossing.get(intersection.index()).is_some_and(|&n| n > 0)
    }

    /// Counts every walker of `world` by intersection. Allocation-free once grown.
    pub(crate) fn observe(&mut self, world: &mut World, roads: &RoadNetwork) {
        let count = roads.intersections().len();
        for list in [&mut self.waiting, &mut self.crossing] {
            list.clear();
            list.resize(count, 0);
        }
        for walker in world.query_mut::<&CrossingUse>() {
            let (list, at) = match *walker {
                CrossingUse::Away => continue,
                CrossingUse::Waiting(at) => (&mut self.waiting, at),
                CrossingUse::Crossing(at) => (&mut self.crossing, at),
            };
            if let Some(n) = list.get_mut(at.index()) {
                *n += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_corner_lies_on_the_sidewalks_of_its_intersection() {
        let roads = RoadNetwork::grid(3, 60.0, 13.9, 2.0);
        for centre in roads.block_centres() {
            for corner in corners(&roads, centre) {
                let box_centre = roads.intersections()[corner.intersection.index()].centre();
                let off = (corner.at - box_centre).abs();
                assert!(off.abs_diff_eq(Vec2::splat(WALKING_LINE), 1e-4), "{centre} {corner:?}");
            }
        }
    }

    #[test]
    fn walkers_are_counted_where_they_wait_and_cross() {
        let roads = RoadNetwork::grid(2, 60.0, 13.9, 2.0);
        let mut world = World::new();
        world.spawn((CrossingUse::Waiting(IntersectionId(1)),));
        world.spawn((CrossingUse::Crossing(IntersectionId(2)),));
        world.spawn((CrossingUse::Away,));
        let mut crossings = Crossings::default();
        crossings.observe(&mut world, &roads);
        let at = |i| IntersectionId(i);
        assert_eq!((0..4).map(|i| crossings.waiting(at(i))).collect::<Vec<_>>(), [false, true, false, false]);
        assert_eq!((0..4).map(|i| crossings.occupied(at(i))).collect::<Vec<_>>(), [false, false, true, false]);
    }
}
