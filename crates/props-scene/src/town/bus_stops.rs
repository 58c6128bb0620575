//! [`BusStops`]: where the town's buses stop: one stop on every other road lane, its front end
//! [`STOP_AT`] of the way along the lane, on the kerb side. Part of the town, not of a kind:
//! the ground marks the stops and any kind may use them.

use super::roads::{LaneId, RoadNetwork};

/// How far along its lane a stop's front end is, as a fraction of the lane's length.
pub const STOP_AT: f32 = 0.6;
/// How long a stop is, metres: a 12 m bus stands in it.
pub const STOP_LENGTH: f32 = 12.0;

/// The bus stops of a road network (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BusStops {
    /// Per lane, where the front end of its stop is (metres along it), if it has one.
    fronts: Vec<Option<f32>>,
}

impl BusStops {
    /// The stops of `roads`: one on every other road lane.
    #[must_use]
    pub fn new(roads: &RoadNetwork) -> Self {
        let mut fronts = vec![None; roads.lanes().len()];
        for lane in roads.road_lanes().iter().step_by(2) {
            fronts[lane.index()] = Some(roads.length(*lane) * STOP_AT);
        }
        Self { fronts }
    }

    /// Every stop: its lane, and where its front end is (metres along the lane).
    pub fn iter(&self) -> impl Iterator<Item = (LaneId, f32)> + '_ {
        self.fronts.iter().enumerate().filter_map(|(lane, front)| Some((LaneId(lane as u32), (*front)?)))
    }

    /// Where the front end of `lane`'s stop is (metres along it), if it has one.
    #[must_use]
    pub fn front(&self, lane: LaneId) -> Option<f32> {
        self.fronts.get(lane.index()).copied().flatten()
    }
}
