//! What the game chooses about the town: seed, how many of each prop, sizes, wind, driving.

use props_anim::{Quantization, UpdateRateLod, Workers};

use crate::error::SceneError;
use crate::town::traffic::IdmParams;

/// Most windmills a scene holds (the `--windmills` flag's ceiling).
pub const MAX_WINDMILLS: usize = 100_000;
/// Most intersections per side of the road grid.
pub const MAX_GRID: usize = 64;
/// Most foxes a scene holds.
pub const MAX_FOXES: usize = 100_000;
/// Most worker threads posing props.
pub const MAX_THREADS: usize = 256;

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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneConfig {
    /// Seed of every random choice (spawn places, routes, phases, wind).
    pub seed: u64,
    /// Windmills on the ring of hills, up to [`MAX_WINDMILLS`].
    pub windmills: usize,
    /// Cars on the roads.
    pub cars: usize,
    /// Foxes walking the park loops.
    pub foxes: usize,
    /// Buses on the roads, at most one per bus stop (none by default; the game runs 4).
    pub buses: usize,
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
    /// Pose sharing: props whose animation states are equal once quantized by these steps
    /// share one palette, posed once per frame (traffic lights share equal states exactly);
    /// see `props_anim::Sharing` for the error bound (a one-degree angle step moves a point
    /// at most `r * 0.0087` from where its exact pose puts it, `r` its distance from the
    /// axis). `None`: every prop is posed for itself, exactly.
    pub sharing: Option<Quantization>,
    /// Update-rate LOD by distance from the camera ([`crate::Scene::set_camera`]); without a
    /// camera every prop is posed every frame. `UpdateRateLod::OFF` turns it off.
    pub lod: UpdateRateLod,
    /// CPU budget of posing, milliseconds per frame: while posing takes longer (as the caller
    /// reports with [`crate::Scene::record_animation_time`]), far props are posed less often,
    /// never near ones. `None`: no budget.
    pub animation_budget_ms: Option<f32>,
    /// Threads posing props (1 to [`MAX_THREADS`]; 0: one per core). Results are bitwise the
    /// same for any number.
    pub threads: usize,
    /// The hour the town starts at, hours since midnight (12: noon).
    pub time_of_day: f64,
    /// Minutes of simulated time a day lasts; 0 holds the hour ([`crate::town::daylight`]).
    pub day_minutes: f64,
}

impl Default for SceneConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            windmills: 300,
            cars: 40,
            foxes: 12,
            buses: 0,
            grid: None,
            block: 90.0,
            windmill_spacing: 40.0,
            wind: WindConfig::default(),
            driving: IdmParams::default(),
            sharing: Some(Quantization::default()),
            lod: UpdateRateLod::default(),
            animation_budget_ms: None,
            threads: 1,
            time_of_day: 12.0,
            day_minutes: 0.0,
        }
    }
}

impl SceneConfig {
    /// How its props are posed.
    #[must_use]
    pub fn posing(&self) -> PosingConfig {
        let Self { sharing, lod, animation_budget_ms, threads, .. } = *self;
        PosingConfig { sharing, lod, animation_budget_ms, threads }
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
        if self.windmills > MAX_WINDMILLS {
            return Err(SceneError::TooManyWindmills { requested: self.windmills, max: MAX_WINDMILLS });
        }
        if self.foxes > MAX_FOXES {
            return invalid("foxes", "must be at most 100000");
        }
        self.posing().validate()?;
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

/// How props are posed each frame: the part of [`SceneConfig`] a [`crate::CrowdSet`] takes
/// (see the fields of the same names there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PosingConfig {
    /// Pose sharing ([`SceneConfig::sharing`]).
    pub sharing: Option<Quantization>,
    /// Update-rate LOD by distance from the camera ([`SceneConfig::lod`]).
    pub lod: UpdateRateLod,
    /// CPU budget of posing, milliseconds per frame ([`SceneConfig::animation_budget_ms`]).
    pub animation_budget_ms: Option<f32>,
    /// Threads posing props ([`SceneConfig::threads`]; 0: one per core).
    pub threads: usize,
}

impl Default for PosingConfig {
    fn default() -> Self {
        SceneConfig::default().posing()
    }
}

/// Parallel runs per worker thread (several, so that uneven runs even out).
const RUNS_PER_THREAD: usize = 4;

impl PosingConfig {
    /// Checks every value's range.
    pub fn validate(&self) -> Result<(), SceneError> {
        let invalid = |field, reason: &str| Err(SceneError::InvalidConfig { field, reason: reason.to_owned() });
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if self.threads > MAX_THREADS {
            return invalid("threads", "must be at most 256 (0: one per core)");
        }
        if let Some(q) = self.sharing
            && !(positive(q.time)
                && positive(q.weight)
                && (1e-4..=std::f32::consts::PI).contains(&q.angle)
                && q.coarsen_beyond > 0.0)
        {
            return invalid(
                "sharing",
                "steps must be positive and finite, the angle 0.0001 to pi radians, coarsen_beyond positive",
            );
        }
        let lod = &self.lod;
        if lod.near.is_nan() || lod.far.is_nan() || lod.near < 0.0 || lod.far < lod.near {
            return invalid("lod", "distances must satisfy 0 <= near <= far");
        }
        if self.animation_budget_ms.is_some_and(|ms| !(positive(ms) && ms <= 1000.0)) {
            return invalid("animation_budget_ms", "must be a positive number of milliseconds, at most 1000");
        }
        Ok(())
    }

    /// The worker threads it asks for (none for one thread), and the parallel runs each crowd
    /// poses in.
    pub(crate) fn workers(&self) -> Result<(Option<Workers>, usize), SceneError> {
        let threads = match self.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        if threads == 1 {
            return Ok((None, 1));
        }
        let workers = Workers::new(threads).map_err(|e| SceneError::Workers(e.to_string()))?;
        Ok((Some(workers), threads * RUNS_PER_THREAD))
    }
}
