//! What the game chooses about the town: seed, how many props of each kind, sizes, wind,
//! driving, posing.

use std::collections::BTreeMap;

use props_crowd::PosingConfig;

use crate::error::SceneError;
use crate::town::traffic::IdmParams;

/// Most intersections per side of the road grid.
pub const MAX_GRID: usize = 64;

/// The wind's statistics. Speeds in m/s, angles in radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindConfig {
    /// Mean wind speed.
    pub mean_speed: f32,
    /// Gusts: relative amplitude of the slow speed variation in time (0 = steady).
    pub gustiness: f32,
    /// Where the wind comes from on average, as a yaw (rotation about +Y of +Z); `None` picks one
    /// from the seed.
    pub direction: Option<f32>,
    /// Amplitude of the slow veering of the direction in time (0 = fixed).
    pub veer: f32,
    /// Relative variation of speed across the map, and of direction in tenths of a radian
    /// (0 = the same wind everywhere).
    pub spatial: f32,
}

impl Default for WindConfig {
    fn default() -> Self {
        Self { mean_speed: 8.0, gustiness: 0.35, direction: None, veer: 0.6, spatial: 0.15 }
    }
}

impl WindConfig {
    /// A wind of `speed` from `direction`, the same everywhere and always (for tests and
    /// demonstrations).
    #[must_use]
    pub fn steady(speed: f32, direction: f32) -> Self {
        Self { mean_speed: speed, gustiness: 0.0, direction: Some(direction), veer: 0.0, spatial: 0.0 }
    }
}

/// Everything that shapes a [`crate::Scene`]. The same configuration and models give the same
/// scene, step after step.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneConfig {
    /// Seed of every random choice (spawn places, routes, phases, wind).
    pub seed: u64,
    /// How many props of each kind the town starts with, by the kind's name (`cars`: 200), for
    /// kinds whose number the game chooses ([`crate::PropKind::count`]); a kind not named
    /// here spawns its default number ([`SceneConfig::with_count`] names one).
    pub counts: BTreeMap<String, usize>,
    /// Intersections per side of the square road grid (2 to [`MAX_GRID`]); `None` picks the
    /// smallest grid, of at least 3, on which the cars take at most half the room.
    pub grid: Option<usize>,
    /// Distance between neighbouring intersections, metres (at least 40).
    pub block: f32,
    /// Distance between windmills on the hills, metres (at least 10).
    pub windmill_spacing: f32,
    /// The wind.
    pub wind: WindConfig,
    /// Driver model parameters shared by every car.
    pub driving: IdmParams,
    /// How its props are posed: pose sharing, update-rate LOD by distance from the camera
    /// ([`crate::Scene::set_camera`]), the CPU budget (reported with
    /// [`crate::Scene::record_animation_time`]) and the worker threads, which also step the
    /// kinds. Results are bitwise the same for any number of threads.
    pub posing: PosingConfig,
    /// The hour the town starts at, hours since midnight (12: noon).
    pub time_of_day: f64,
    /// Minutes of simulated time a day lasts; 0 holds the hour ([`crate::town::daylight`]).
    pub day_minutes: f64,
}

impl Default for SceneConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            counts: BTreeMap::new(),
            grid: None,
            block: 90.0,
            windmill_spacing: 40.0,
            wind: WindConfig::default(),
            driving: IdmParams::default(),
            posing: PosingConfig::default(),
            time_of_day: 12.0,
            day_minutes: 0.0,
        }
    }
}

impl SceneConfig {
    /// The same configuration with `count` props of the kind named `kind` (`cars`).
    #[must_use]
    pub fn with_count(mut self, kind: &str, count: usize) -> Self {
        self.counts.insert(kind.to_owned(), count);
        self
    }

    /// Checks every value's range.
    pub fn validate(&self) -> Result<(), SceneError> {
        let invalid = |field, reason: &str| Err(SceneError::InvalidConfig { field, reason: reason.to_owned() });
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if self.grid.is_some_and(|grid| !(2..=MAX_GRID).contains(&grid)) {
            return invalid("grid", "must be 2 to 64 intersections per side");
        }
        if !(self.block.is_finite() && self.block >= 40.0) {
            return invalid("block", "must be at least 40 m");
        }
        if !(self.windmill_spacing.is_finite() && self.windmill_spacing >= 10.0) {
            return invalid("windmill_spacing", "must be at least 10 m");
        }
        self.posing.validate()?;
        let wind = &self.wind;
        let non_negative = |x: f32| x.is_finite() && x >= 0.0;
        if ![wind.mean_speed, wind.gustiness, wind.veer, wind.spatial].into_iter().all(non_negative)
            || wind.direction.is_some_and(|d| !d.is_finite())
        {
            return invalid("wind", "values must be finite and not negative");
        }
        let d = &self.driving;
        let driving = [
            d.max_acceleration,
            d.comfortable_deceleration,
            d.max_deceleration,
            d.time_headway,
            d.min_gap,
            d.exponent,
            d.car_length,
            d.safety_gap,
            d.amber_deceleration,
            d.speed_limit,
            d.lateral_acceleration,
        ];
        if !driving.into_iter().all(positive) || d.max_deceleration < d.comfortable_deceleration {
            return invalid(
                "driving",
                "values must be finite and positive, max_deceleration >= comfortable_deceleration",
            );
        }
        Ok(())
    }
}
