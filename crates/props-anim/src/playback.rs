//! Playback state of one clip on one instance: time, speed, phase and play mode.

/// What happens at the end of a clip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayMode {
    /// Wrap around to the start.
    #[default]
    Loop,
    /// Play once and hold the last pose (clamp).
    Once,
}

/// Where an instance is in its clip. Time is advanced explicitly by the caller (no clocks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    /// Position in clip seconds, kept within `[0, duration]` by [`Playback::advance`].
    pub time: f32,
    /// Playback rate: 1 is normal, 0 paused, negative plays backwards.
    pub speed: f32,
    /// Per-instance offset in clip seconds, so that instances of one clip do not move in step.
    pub phase: f32,
    /// Loop or play once.
    pub mode: PlayMode,
}

impl Default for Playback {
    fn default() -> Self {
        Self { time: 0.0, speed: 1.0, phase: 0.0, mode: PlayMode::Loop }
    }
}

impl Playback {
    /// A looping playback starting at `phase`.
    #[must_use]
    pub fn looping(phase: f32) -> Self {
        Self { phase, ..Self::default() }
    }

    /// Advances by `dt` real seconds times `speed`, wrapping or clamping to `duration`.
    #[inline]
    pub fn advance(&mut self, dt: f32, duration: f32) {
        self.time = self.mode.wrap(self.time + dt * self.speed, duration);
    }

    /// The time at which to sample the clip: `time + phase`, wrapped or clamped to `duration`.
    #[must_use]
    #[inline]
    pub fn clip_time(&self, duration: f32) -> f32 {
        self.mode.wrap(self.time + self.phase, duration)
    }
}

impl PlayMode {
    /// Maps a time onto `[0, duration]`: modulo for [`PlayMode::Loop`] (giving `[0, duration)`),
    /// clamp for [`PlayMode::Once`]. A zero or invalid duration gives 0.
    #[must_use]
    #[inline]
    pub fn wrap(self, time: f32, duration: f32) -> f32 {
        if duration.is_nan() || duration <= 0.0 || !time.is_finite() {
            return 0.0;
        }
        match self {
            // The usual cases without a division, exactly as `rem_euclid` (`time - duration`
            // is exact for a time within twice the duration).
            Self::Loop if (0.0..duration).contains(&time) => time,
            Self::Loop if (duration..2.0 * duration).contains(&time) => time - duration,
            // A tiny negative time rounds up to the duration itself: that is the start.
            Self::Loop => Some(time.rem_euclid(duration)).filter(|&t| t < duration).unwrap_or(0.0),
            Self::Once => time.clamp(0.0, duration),
        }
    }
}
