//! The town's clock of day and night: the hour, advanced by simulated time at a configurable
//! day length, and what it lights: the sun's direction, colour and strength, the sky's light,
//! the night's ambient and the sky's colour, and how far the lamps are lit.
//!
//! The sun turns about a tilted polar axis, one turn a day, as on an equinox at 37 degrees of
//! latitude: at noon it stands where the town's fixed sun stood ([`Lighting::default`]), it rises
//! at 06:00 and sets at 18:00, and at midnight it is 53 degrees below the horizon. Everything
//! it lights follows its elevation.

use glam::{Quat, Vec3};
use props_frame::{Lighting, SKY};

/// Hours in a day.
const DAY_HOURS: f64 = 24.0;

/// The axis the sun turns about: perpendicular to the noon sun (an equinox's day, 12 hours
/// long) and level with it from east to west (so that it rises at 06:00 and sets at 18:00),
/// 37 degrees above the horizon (the town's latitude).
const POLAR_AXIS: Vec3 = Vec3::new(-0.530_828, 0.601_329, -0.597_181);

/// The sky's colour at dusk and at night, linear.
const DUSK: Vec3 = Vec3::new(0.62, 0.36, 0.24);
const NIGHT: Vec3 = Vec3::new(0.006, 0.009, 0.025);

/// The sun at a low elevation: warm and weaker.
const LOW_SUN: Vec3 = Vec3::new(3.0, 1.5, 0.7);

/// Moonlight and starlight: the faint blue ambient of a clear night, linear.
const MOONLIGHT: Vec3 = Vec3::new(0.05, 0.07, 0.13);

/// The sky's light at night, against its day strength of 1.
const NIGHT_SKY: f32 = 0.04;

/// The town's time of day.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Daylight {
    /// Hours since midnight, in `[0, 24)`.
    hours: f64,
    /// Real (simulated) seconds a whole day lasts; 0 holds the hour.
    day_seconds: f64,
}

impl Daylight {
    /// `hours` since midnight, the day lasting `day_minutes` minutes of simulated time (0: the
    /// hour holds).
    #[must_use]
    pub fn new(hours: f64, day_minutes: f64) -> Self {
        let mut daylight = Self { hours: 12.0, day_seconds: 0.0 };
        daylight.set_hours(hours);
        daylight.set_day_minutes(day_minutes);
        daylight
    }

    /// Hours since midnight, in `[0, 24)`.
    #[must_use]
    pub fn hours(&self) -> f64 {
        self.hours
    }

    /// Sets the hour (wrapped into `[0, 24)`; a value that is not finite is ignored).
    pub fn set_hours(&mut self, hours: f64) {
        if hours.is_finite() {
            self.hours = hours.rem_euclid(DAY_HOURS);
        }
    }

    /// Minutes of simulated time a day lasts (0: the hour holds).
    #[must_use]
    pub fn day_minutes(&self) -> f64 {
        self.day_seconds / 60.0
    }

    /// Sets how many minutes of simulated time a day lasts (0, negative or not finite: the
    /// hour holds).
    pub fn set_day_minutes(&mut self, minutes: f64) {
        self.day_seconds = if minutes.is_finite() && minutes > 0.0 { minutes * 60.0 } else { 0.0 };
    }

    /// Advances the clock by `dt` seconds of simulated time.
    pub fn advance(&mut self, dt: f64) {
        if self.day_seconds > 0.0 && dt.is_finite() {
            self.hours = (self.hours + dt / self.day_seconds * DAY_HOURS).rem_euclid(DAY_HOURS);
        }
    }

    /// The unit direction towards the sun (below the horizon at night).
    #[must_use]
    pub fn sun_direction(&self) -> Vec3 {
        let noon = Lighting::default().direction;
        let angle = ((self.hours - 12.0) / DAY_HOURS * std::f64::consts::TAU) as f32;
        (Quat::from_axis_angle(POLAR_AXIS.normalize(), angle) * noon).normalize()
    }

    /// How high the sun stands: the sine of its elevation (negative below the horizon).
    #[must_use]
    pub fn sun_height(&self) -> f32 {
        self.sun_direction().y
    }

    /// How far the town's lamps are lit, 0 (day) to 1 (night): they come on while the sun
    /// sets, before dark, and go off after sunrise.
    #[must_use]
    pub fn lamps(&self) -> f32 {
        1.0 - smoothstep(-0.05, 0.12, self.sun_height())
    }

    /// The light of this hour: the sun, the sky's light, the night's ambient.
    #[must_use]
    pub fn lighting(&self) -> Lighting {
        let day = Lighting::default();
        let height = self.sun_height();
        let strength = smoothstep(-0.02, 0.25, height);
        let colour = LOW_SUN.lerp(day.color, smoothstep(0.0, 0.5, height));
        let night = 1.0 - smoothstep(-0.15, 0.05, height);
        Lighting {
            direction: self.sun_direction(),
            color: colour * strength,
            ambient: MOONLIGHT * night,
            sky: NIGHT_SKY + (day.sky - NIGHT_SKY) * smoothstep(-0.15, 0.2, height),
        }
    }

    /// The sky's colour, linear RGBA: blue by day, red at dusk, dark blue at night.
    #[must_use]
    pub fn sky_color(&self) -> [f64; 4] {
        let height = self.sun_height();
        if height >= 0.35 {
            return SKY;
        }
        let day = Vec3::new(SKY[0] as f32, SKY[1] as f32, SKY[2] as f32);
        let evening = DUSK.lerp(day, smoothstep(0.05, 0.35, height));
        let c = NIGHT.lerp(evening, smoothstep(-0.15, 0.05, height));
        [f64::from(c.x), f64::from(c.y), f64::from(c.z), 1.0]
    }
}

impl Default for Daylight {
    /// Noon, held.
    fn default() -> Self {
        Self::new(12.0, 0.0)
    }
}

/// 0 below `low`, 1 above `high`, smooth between.
fn smoothstep(low: f32, high: f32, x: f32) -> f32 {
    let t = ((x - low) / (high - low)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// `HH:MM` as hours since midnight (`22:30` is 22.5): what `--time-of-day` takes.
///
/// # Errors
/// A message saying what is wrong, for text that is not two numbers `00`-`23` and `00`-`59`
/// joined by a colon.
pub fn parse_hours(text: &str) -> Result<f64, String> {
    let wrong = || format!("`{text}` is not a time of day: write HH:MM, 00:00 to 23:59");
    let (h, m) = text.trim().split_once(':').ok_or_else(wrong)?;
    let (h, m): (u32, u32) = (h.parse().map_err(|_| wrong())?, m.parse().map_err(|_| wrong())?);
    if h >= 24 || m >= 60 {
        return Err(wrong());
    }
    Ok(f64::from(h) + f64::from(m) / 60.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noon_is_the_town_s_fixed_day() {
        let noon = Daylight::default();
        let light = noon.lighting();
        let day = Lighting::default();
        assert!(light.direction.distance(day.direction) < 1e-6);
        assert!(light.color.distance(day.color) < 1e-5);
        assert_eq!(light.ambient, Vec3::ZERO);
        assert!((light.sky - day.sky).abs() < 1e-6);
        assert_eq!(noon.sky_color(), SKY);
        assert_eq!(noon.lamps(), 0.0);
    }

    #[test]
    fn the_sun_rises_sets_and_the_night_is_dark() {
        let at = |hours| Daylight::new(hours, 0.0);
        let height = |hours| at(hours).sun_height();
        assert!(height(6.0).abs() < 1e-5 && height(18.0).abs() < 1e-5, "sunrise at 06:00, sunset at 18:00");
        assert!(height(5.5) < 0.0 && height(6.5) > 0.0 && height(17.5) > 0.0 && height(18.5) < 0.0);
        assert!((height(0.0) + 0.8).abs() < 0.01, "midnight 53 degrees down: {}", height(0.0));
        assert!(at(16.0).lamps() == 0.0 && at(18.0).lamps() > 0.5 && at(19.0).lamps() == 1.0, "lamps at dusk");
        let midnight = at(0.0).lighting();
        assert_eq!(midnight.color, Vec3::ZERO);
        assert!(midnight.ambient.length() > 0.0 && midnight.sky < 0.1);
        assert_eq!(at(0.0).lamps(), 1.0);
        assert!(at(22.0).sky_color()[2] < 0.05);
        // The sun is warmer low than high.
        let dusk = at(17.3).lighting().color;
        assert!(dusk.z / dusk.x < Lighting::default().color.z / Lighting::default().color.x);
    }

    #[test]
    fn the_clock_runs_at_the_day_length_and_wraps() {
        let mut day = Daylight::new(23.0, 24.0);
        day.advance(120.0);
        assert!((day.hours() - 1.0).abs() < 1e-9, "two minutes of a 24-minute day are two hours");
        let mut held = Daylight::new(9.5, 0.0);
        held.advance(1e6);
        assert_eq!(held.hours(), 9.5);
        day.set_hours(-1.0);
        assert_eq!(day.hours(), 23.0);
        day.set_hours(f64::NAN);
        assert_eq!(day.hours(), 23.0);
    }

    #[test]
    fn times_of_day_parse_as_hours() {
        assert_eq!(parse_hours("22:00"), Ok(22.0));
        assert_eq!(parse_hours("06:45"), Ok(6.75));
        for bad in ["24:00", "12:60", "noon", "12", "-1:00", "12:3x"] {
            assert!(parse_hours(bad).is_err(), "{bad}");
        }
    }
}
