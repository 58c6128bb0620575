//! How long each phase of a frame takes, smoothed for display.

use std::time::{Duration, Instant};

/// The phases of a frame, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Mod events and simulation steps (props move, their animation states advance).
    Simulate,
    /// Posing: the animation runtime evaluates the palettes of what the camera sees.
    Animate,
    /// Extraction: the visible instances, the ground and debug lines into the frame data.
    Extract,
    /// Renderer uploads and command recording.
    Upload,
    /// Submission, presentation or readback (waits for the GPU).
    Draw,
}

/// The phases with their display names, in order.
pub const PHASES: [(Phase, &str); 5] = [
    (Phase::Simulate, "simulate"),
    (Phase::Animate, "animate"),
    (Phase::Extract, "extract"),
    (Phase::Upload, "upload"),
    (Phase::Draw, "draw"),
];

/// Exponentially smoothed durations per phase, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimings {
    /// Smoothed milliseconds of each [`Phase`], in order.
    pub ms: [f64; 5],
    /// The latest milliseconds of each [`Phase`], unsmoothed.
    pub last_ms: [f64; 5],
    /// Smoothed milliseconds between frames.
    pub frame_ms: f64,
    /// Smoothed GPU milliseconds of the main pass, then of each shadow cascade's (0 until
    /// timed; a pass that stops being drawn, as the cascades at night, eases back to 0).
    pub pass_ms: [f64; 4],
}

/// Weight of the newest sample.
const SMOOTHING: f64 = 0.1;

impl PhaseTimings {
    /// Records that `phase` took `duration`.
    pub fn record(&mut self, phase: Phase, duration: Duration) {
        self.last_ms[phase as usize] = duration.as_secs_f64() * 1000.0;
        smooth(&mut self.ms[phase as usize], duration);
    }

    /// Runs `f`, inside a tracing span named after `phase`, and records its duration.
    pub fn measure<R>(&mut self, phase: Phase, f: impl FnOnce() -> R) -> R {
        let span = match phase {
            Phase::Simulate => tracing::debug_span!("simulate"),
            Phase::Animate => tracing::debug_span!("animate"),
            Phase::Extract => tracing::debug_span!("extract"),
            Phase::Upload => tracing::debug_span!("upload"),
            Phase::Draw => tracing::debug_span!("draw"),
        };
        let _entered = span.enter();
        let start = Instant::now();
        let result = f();
        self.record(phase, start.elapsed());
        result
    }

    /// Records the time between two frames.
    pub fn record_frame(&mut self, duration: Duration) {
        smooth(&mut self.frame_ms, duration);
    }

    /// Records the GPU times of a frame's passes (the renderer's, a few frames late).
    pub fn record_passes(&mut self, times: &props_render::PassTimes) {
        let passes = std::iter::once(times.main_ns).chain(times.shadow_ns);
        for (value, ns) in self.pass_ms.iter_mut().zip(passes) {
            smooth(value, Duration::from_nanos(ns.unwrap_or(0)));
        }
    }

    /// The smoothed GPU pass times, `main/near/mid/far cascade` in milliseconds, or `-` where
    /// the adapter times no pass.
    pub fn pass_summary(&self) -> String {
        if self.pass_ms == [0.0; 4] {
            return "-".to_owned();
        }
        let [main, near, mid, far] = self.pass_ms;
        format!("{main:.2}/{near:.2}/{mid:.2}/{far:.2}")
    }

    /// Frames per second from the smoothed frame time.
    pub fn fps(&self) -> f64 {
        if self.frame_ms > 0.0 { 1000.0 / self.frame_ms } else { 0.0 }
    }
}

fn smooth(value: &mut f64, duration: Duration) {
    let ms = duration.as_secs_f64() * 1000.0;
    *value = if *value == 0.0 { ms } else { *value + (ms - *value) * SMOOTHING };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sample_is_taken_then_smoothed() {
        let mut timings = PhaseTimings::default();
        timings.record(Phase::Upload, Duration::from_millis(10));
        assert_eq!(timings.ms[Phase::Upload as usize], 10.0);
        timings.record(Phase::Upload, Duration::from_millis(20));
        assert!((timings.ms[Phase::Upload as usize] - 11.0).abs() < 1e-9);
        timings.record_frame(Duration::from_millis(20));
        assert!((timings.fps() - 50.0).abs() < 1e-9);
    }

    #[test]
    fn pass_times_are_smoothed_where_timed() {
        let mut timings = PhaseTimings::default();
        assert_eq!(timings.pass_summary(), "-");
        let times = |main, near| props_render::PassTimes { main_ns: main, shadow_ns: [near, None, None] };
        timings.record_passes(&times(Some(2_000_000), Some(500_000)));
        timings.record_passes(&times(Some(3_000_000), None));
        assert_eq!(timings.pass_summary(), "2.10/0.45/0.00/0.00", "a cascade no longer drawn eases to 0");
    }
}
