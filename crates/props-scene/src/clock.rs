//! Fixed-timestep bookkeeping: turns elapsed real time into a whole number of simulation steps.
//! Pure: the caller measures time and passes it in.

/// An accumulator of elapsed time, drained in fixed steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedStep {
    dt: f32,
    max_steps: u32,
    accumulator: f32,
}

impl FixedStep {
    /// Steps of `dt` seconds, at most `max_steps` per call to [`FixedStep::advance`] (the rest
    /// is dropped, so that a slow frame does not snowball).
    #[must_use]
    pub fn new(dt: f32, max_steps: u32) -> Self {
        Self { dt, max_steps, accumulator: 0.0 }
    }

    /// Changes how many steps one call may return at most (for a faster time scale).
    pub fn set_max_steps(&mut self, max_steps: u32) {
        self.max_steps = max_steps;
    }

    /// The step length, seconds.
    #[must_use]
    pub fn dt(&self) -> f32 {
        self.dt
    }

    /// Adds `elapsed` seconds (scaled by the game's time scale if it has one) and returns how
    /// many steps to run now.
    pub fn advance(&mut self, elapsed: f32) -> u32 {
        if self.dt.is_nan() || self.dt <= 0.0 || !elapsed.is_finite() {
            return 0;
        }
        self.accumulator += elapsed.max(0.0);
        let steps = (self.accumulator / self.dt).floor();
        if steps > self.max_steps as f32 {
            self.accumulator = 0.0;
            return self.max_steps;
        }
        self.accumulator -= steps * self.dt;
        // Rounding can leave a hair below zero.
        self.accumulator = self.accumulator.max(0.0);
        steps as u32
    }

    /// How far into the next step the accumulated time is, in `[0, 1)`: for interpolating
    /// between the last two states when drawing.
    #[must_use]
    pub fn alpha(&self) -> f32 {
        if self.dt > 0.0 { (self.accumulator / self.dt).clamp(0.0, 1.0) } else { 0.0 }
    }
}

/// The rate of simulated time to real time reached lately (over about
/// [`RateMeter::WINDOW`] seconds): what the game reports beside the rate it was asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RateMeter {
    real: f64,
    simulated: f64,
}

impl RateMeter {
    /// Seconds of real time the rate is averaged over (exponentially).
    pub const WINDOW: f64 = 1.0;

    /// Adds a frame: `real` seconds passed, `simulated` seconds were simulated.
    pub fn record(&mut self, real: f64, simulated: f64) {
        if !real.is_finite() || !simulated.is_finite() || real < 0.0 {
            return;
        }
        let keep = (-real / Self::WINDOW).exp();
        self.real = self.real * keep + real;
        self.simulated = self.simulated * keep + simulated;
    }

    /// Simulated seconds per real second lately; `None` before any real time passed.
    #[must_use]
    pub fn rate(&self) -> Option<f64> {
        (self.real > 0.0).then(|| self.simulated / self.real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mock clock: 10 s of 60 Hz frames at x16. With room for the steps, the simulation
    /// advances 16 times the real time and the meter says x16; with at most 8 steps a frame,
    /// it advances only 8 times, and the meter says so.
    #[test]
    fn the_reached_rate_is_the_simulated_rate() {
        for (max_steps, expected) in [(8 * 16, 16.0), (8, 8.0)] {
            let (mut fixed, mut meter) = (FixedStep::new(1.0 / 60.0, max_steps), RateMeter::default());
            let mut simulated = 0.0;
            for _ in 0..600 {
                let steps = fixed.advance(16.0 / 60.0);
                simulated += f64::from(steps) / 60.0;
                meter.record(1.0 / 60.0, f64::from(steps) / 60.0);
            }
            assert!((simulated - 10.0 * expected).abs() < 0.1, "{max_steps}: simulated {simulated} s");
            let rate = meter.rate().expect("time passed");
            assert!((rate - expected).abs() < 0.05, "{max_steps}: reached x{rate}");
        }
        assert_eq!(RateMeter::default().rate(), None);
    }

    #[test]
    fn counts_whole_steps_and_keeps_the_remainder() {
        let mut fixed = FixedStep::new(0.01, 10);
        assert_eq!(fixed.advance(0.025), 2);
        assert!((fixed.alpha() - 0.5).abs() < 1e-3);
        assert_eq!(fixed.advance(0.006), 1);
        assert_eq!(fixed.advance(0.0), 0);
    }

    #[test]
    fn caps_a_slow_frame_and_ignores_nonsense() {
        let mut fixed = FixedStep::new(1.0 / 60.0, 4);
        assert_eq!(fixed.advance(1.0), 4);
        assert_eq!(fixed.alpha(), 0.0);
        assert_eq!(fixed.advance(f32::NAN), 0);
        assert_eq!(fixed.advance(-1.0), 0);
        assert_eq!(FixedStep::new(0.0, 4).advance(1.0), 0);
    }
}
