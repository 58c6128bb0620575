//! The wind: a deterministic sum of slow sines. Its speed gusts in time and varies a little
//! across the map; its direction veers slowly. Sampled per place and time, or frozen at one
//! instant for many places ([`WindField::at_time`]).

use std::f32::consts::{PI, TAU};

use glam::Vec2;

use crate::WindConfig;
use crate::rng::{Rng, Stream};

/// Periods of the gusts, the veering and the drift of the spatial pattern, seconds.
const GUST_PERIODS: [f64; 2] = [47.0, 13.0];
const VEER_PERIODS: [f64; 2] = [97.0, 31.0];
const DRIFT_PERIOD: f64 = 60.0;
/// Wavelength of the spatial variation, metres.
const SPATIAL_WAVELENGTH: f32 = 900.0;

/// The wind at one place and time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wind {
    /// Where it comes from, as a yaw (a windmill facing it has this nacelle yaw).
    pub from: f32,
    /// Speed, m/s, never negative.
    pub speed: f32,
}

impl Wind {
    /// The air's velocity on the ground plane, (x, z), m/s.
    #[must_use]
    pub fn velocity(&self) -> Vec2 {
        -Vec2::new(self.from.sin(), self.from.cos()) * self.speed
    }
}

/// A deterministic wind field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindField {
    config: WindConfig,
    direction: f32,
    spatial_axis: Vec2,
    phases: [f32; 6],
}

/// `sin(2 pi time / period + phase)`, with the time's fraction of a period taken in `f64`
/// so that hours of simulated time keep their precision.
fn wave(time: f64, period: f64, phase: f32) -> f32 {
    ((time / period).fract() as f32 * TAU + phase).sin()
}

impl WindField {
    /// The field for `config`, phases (and the direction, unless fixed) from `seed`.
    #[must_use]
    pub fn new(config: &WindConfig, seed: u64) -> Self {
        let mut rng = Rng::stream(seed, Stream::Wind, 0);
        let seeded_direction = rng.angle() - PI;
        let axis = rng.angle();
        let phases = [rng.angle(), rng.angle(), rng.angle(), rng.angle(), rng.angle(), rng.angle()];
        Self {
            config: *config,
            direction: config.direction.unwrap_or(seeded_direction),
            spatial_axis: Vec2::new(axis.cos(), axis.sin()),
            phases,
        }
    }

    /// The wind at `at` (x, z) at scene time `time` seconds.
    #[must_use]
    pub fn sample(&self, at: Vec2, time: f64) -> Wind {
        self.at_time(time).sample(&self.site(at))
    }

    /// What the field's variation across the map makes of the place `at` (x, z), for sampling
    /// it at any time.
    #[must_use]
    pub fn site(&self, at: Vec2) -> Site {
        let across = at.dot(self.spatial_axis) / SPATIAL_WAVELENGTH * TAU;
        let (sin, cos) = across.sin_cos();
        let spatial = self.config.spatial;
        Site { sin_across: sin, cos_across: cos, veer: spatial * (across * 0.7 + self.phases[5]).sin() }
    }

    /// The field frozen at `time`: the parts that vary only in time evaluated once, for
    /// sampling many places.
    #[must_use]
    pub fn at_time(&self, time: f64) -> WindAtTime {
        let p = &self.phases;
        let gust = 0.6 * wave(time, GUST_PERIODS[0], p[0]) + 0.4 * wave(time, GUST_PERIODS[1], p[1]);
        let veer = 0.7 * wave(time, VEER_PERIODS[0], p[2]) + 0.3 * wave(time, VEER_PERIODS[1], p[3]);
        let c = &self.config;
        let (sin_drift, cos_drift) = ((time / DRIFT_PERIOD).fract() as f32 * TAU + p[4]).sin_cos();
        WindAtTime {
            speed: c.mean_speed * (1.0 + c.gustiness * gust),
            from: wrap_angle(self.direction + c.veer * veer),
            sin_drift: sin_drift * c.spatial,
            cos_drift: cos_drift * c.spatial,
        }
    }
}

/// A place's share of the wind field's variation across the map (see [`WindField::site`]):
/// the speed varies with `sin(drift + across)`, the direction by a constant veer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Site {
    sin_across: f32,
    cos_across: f32,
    veer: f32,
}

/// A [`WindField`] at one instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindAtTime {
    speed: f32,
    from: f32,
    /// `spatial * sin(drift)`, `spatial * cos(drift)`.
    sin_drift: f32,
    cos_drift: f32,
}

impl WindAtTime {
    /// The wind at `site`.
    #[must_use]
    pub fn sample(&self, site: &Site) -> Wind {
        // spatial * sin(drift + across), by the angle-sum identity.
        let variation = self.sin_drift * site.cos_across + self.cos_drift * site.sin_across;
        let speed = self.speed * (1.0 + variation);
        // The veer across the map is under a radian (`spatial` is a fraction).
        let from =
            if site.veer.abs() < PI { wrap_near(self.from + site.veer) } else { wrap_angle(self.from + site.veer) };
        Wind { from, speed: speed.max(0.0) }
    }
}

/// `angle` wrapped into `[-pi, pi)`.
pub(crate) fn wrap_angle(angle: f32) -> f32 {
    (angle + PI).rem_euclid(TAU) - PI
}

/// [`wrap_angle`] of an angle within a turn of `[-pi, pi)` (a difference or sum of two
pub(crate) fn wrap_near(angle: f32) -> f32 {
    if angle >= PI {
        angle - TAU
    } else if angle < -PI {
        angle + TAU
    } else {
        angle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_wind_is_exactly_steady() {
        let field = WindField::new(&WindConfig::steady(9.0, 1.0), 5);
        for (at, t) in [(Vec2::ZERO, 0.0), (Vec2::new(900.0, -300.0), 1234.5)] {
            let wind = field.sample(at, t);
            assert_eq!(wind.speed, 9.0);
            assert!((wind.from - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn gusty_wind_varies_smoothly() {
        let field = WindField::new(&WindConfig::default(), 5);
        let mut previous = field.sample(Vec2::ZERO, 0.0);
        let (mut low, mut high) = (f32::MAX, 0.0_f32);
        for step in 1..6000 {
            let wind = field.sample(Vec2::ZERO, f64::from(step) / 60.0);
            assert!((wind.speed - previous.speed).abs() < 0.05);
            assert!(wrap_angle(wind.from - previous.from).abs() < 0.01);
            (low, high) = (low.min(wind.speed), high.max(wind.speed));
            previous = wind;
        }
        assert!(high - low > 1.0, "gusts vary the speed: {low}..{high}");
    }
}
