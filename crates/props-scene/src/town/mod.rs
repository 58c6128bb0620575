//! The town the props move in: its roads, sidewalks and crossings, signals, bus stops, traffic, wind and ground, and [`Town`], the
//! read-only view of them that every kind's systems get. Nothing here knows a prop kind.

pub mod bus_stops;
pub mod crossings;
pub mod daylight;
pub mod roads;
pub mod signals;
pub mod terrain;
pub mod traffic;
pub mod wind;

use hecs::World;

use crate::SceneConfig;
use crate::rng::Rng;
use bus_stops::BusStops;
use daylight::Daylight;
use roads::{LaneId, RoadNetwork};
use signals::Signals;
use terrain::Terrain;
use wind::WindField;

/// The town's shared state as a kind's systems see it (the entities, a [`World`], are passed
/// beside it): read-only while kinds step.
pub struct Town<'a> {
    /// The road network.
    pub roads: &'a RoadNetwork,
    /// The signal controllers.
    pub signals: &'a Signals,
    /// Where buses stop.
    pub bus_stops: &'a BusStops,
    /// The wind.
    pub wind: &'a WindField,
    /// The ground.
    pub terrain: &'a Terrain,
    /// The time of day.
    pub daylight: &'a Daylight,
    /// The scene's configuration (its seed, its driving parameters).
    pub config: &'a SceneConfig,
    /// Simulated seconds, after this step.
    pub time: f64,
    /// Steps taken, this one included.
    pub steps: u64,
}

impl Town<'_> {
    /// Whether a vehicle `length` metres long fits with its centre at `position` along `lane`
    /// (the lane exists, the position is on it, and every other vehicle of `world` is clear of
    /// it by the safety gap).
    #[must_use]
    pub fn has_room(&self, world: &World, lane: LaneId, position: f32, length: f32) -> bool {
        traffic::has_room(world, self.roads, &self.config.driving, lane, position, length)
    }

    /// The random generator of item `index` (say, the n-th prop) of the kind named `kind`:
    /// seeded by the town's seed, the same on every platform and run.
    #[must_use]
    pub fn rng(&self, kind: &str, index: u64) -> Rng {
        // FNV-1a of the name, above the built-in streams' numbers.
        let stream =
            kind.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        Rng::numbered(self.config.seed, stream | 0x100, index)
    }
}
