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

#[cfg(test)]
mod tests {
    use super::*;

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
