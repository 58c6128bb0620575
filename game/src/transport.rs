//! The previewer's transport: which clip plays, where in it, how fast, and whether it loops
//! (`preview.rs`'s play, pause, scrub and speed).

/// The previewer's transport: the clip playing, where, how fast, and whether it loops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transport {
    /// The clip playing (`None`: the rest pose).
    pub clip: Option<usize>,
    /// Clip time, seconds.
    pub time: f32,
    /// Whether time runs.
    pub playing: bool,
    /// Clip seconds per second.
    pub speed: f32,
    /// Whether it starts again at the end (else it stops there).
    pub looping: bool,
}

impl Transport {
    /// Advances by `elapsed` seconds in a clip of `duration` seconds.
    pub fn advance(&mut self, elapsed: f32, duration: f32) {
        if !self.playing || duration <= 0.0 {
            self.time = self.time.clamp(0.0, duration.max(0.0));
            return;
        }
        let time = self.time + elapsed * self.speed;
        if self.looping {
            self.time = time.rem_euclid(duration);
        } else {
            self.time = time.clamp(0.0, duration);
            self.playing = time < duration && time > 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playback_loops_or_stops_at_the_end() {
        let mut p = Transport { clip: Some(0), time: 0.8, playing: true, speed: 1.0, looping: true };
        p.advance(0.5, 1.0);
        assert!((p.time - 0.3).abs() < 1e-6 && p.playing);
        p = Transport { looping: false, time: 0.8, ..p };
        p.advance(0.5, 1.0);
        assert_eq!((p.time, p.playing), (1.0, false));
        p = Transport { playing: true, speed: -2.0, time: 0.5, ..p };
        p.advance(0.5, 1.0);
        assert_eq!((p.time, p.playing), (0.0, false), "backwards to the start");
        // Paused: scrubbing past the end is held at it; a rest pose has no time.
        p = Transport { playing: false, time: 3.0, ..p };
        p.advance(0.5, 1.0);
        assert_eq!(p.time, 1.0);
        p.advance(0.5, 0.0);
        assert_eq!(p.time, 0.0);
    }
}
