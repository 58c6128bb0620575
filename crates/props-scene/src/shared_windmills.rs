//! Pose sharing for windmills. A windmill's pose is a pure function of two angles, its nacelle
//! yaw and its rotor angle, so windmills whose angles round to the same steps can share one
//! palette: each distinct pair is posed once per frame and every windmill carries only the
//! offset of its pair's palette. With a step of one degree, 100k windmills facing a common
//! wind cost a few thousand palettes instead of 100k, and the upload per windmill shrinks to a
//! few bytes. The price is the rounding: up to half a step of rotation of the nacelle and of
//! the rotor (see [`SceneConfig::windmill_pose_step`](crate::SceneConfig)).

use std::f32::consts::TAU;

use props_anim::JointMatrix;
use props_frame::FrameData;
use rustc_hash::FxHashMap;

/// Angles rounded to a whole number of steps per turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AngleSteps {
    per_turn: u32,
    step: f32,
}

impl AngleSteps {
    /// Steps of at most `step` radians, shrunk so that a turn holds a whole number of them
    /// (at most 65 536, so that a pair of step indices fits a `u32` key).
    pub fn new(step: f32) -> Self {
        let per_turn = (TAU / step).ceil().clamp(1.0, 65_536.0) as u32;
        Self { per_turn, step: TAU / per_turn as f32 }
    }

    /// The nearest step to `angle` (any angle), as an index in `0..per_turn`.
    fn index(self, angle: f32) -> u32 {
        ((angle / self.step).round() as i64).rem_euclid(i64::from(self.per_turn)) as u32
    }

    /// The angle of step `index`, radians in `[0, 2 pi)`.
    fn angle(self, index: u32) -> f32 {
        index as f32 * self.step
    }
}

/// The windmills' shared palettes of one frame, and the map from angle pairs to them (kept
/// between frames so that extraction allocates nothing once it has grown). Fx hashing: with
/// the standard SipHash, extracting 100k settled windmills took 4.1 ms instead of 3.1 (exact
/// poses: 10.2).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SharedWindmills {
    steps: AngleSteps,
    bases: FxHashMap<u32, u32>,
}

impl SharedWindmills {
    /// Sharing with angles rounded to `steps`.
    pub fn new(steps: AngleSteps) -> Self {
        Self { steps, bases: FxHashMap::default() }
    }

    /// Starts a frame: no palette written yet.
    pub fn clear(&mut self) {
        self.bases.clear();
    }

    /// Palettes written since [`SharedWindmills::clear`].
    pub fn palettes(&self) -> usize {
        self.bases.len()
    }

    /// Pushes a windmill at `transform` with angles `(yaw, rotor)` as a shared instance:
    /// the palette of its rounded angles is written into `frame` by `write(yaw, rotor, out)`
    /// the first time the pair is met this frame, and reused afterwards.
    pub fn push(
        &mut self,
        frame: &mut FrameData,
        transform: &glam::Affine3A,
        (yaw, rotor): (f32, f32),
        palette_len: usize,
        write: impl FnOnce(f32, f32, &mut [JointMatrix]),
    ) {
        let (y, r) = (self.steps.index(yaw), self.steps.index(rotor));
        let base = *self.bases.entry(y * self.steps.per_turn + r).or_insert_with(|| {
            let base = frame.palettes.len();
            frame.palettes.resize(base + palette_len, JointMatrix::IDENTITY);
            write(self.steps.angle(y), self.steps.angle(r), &mut frame.palettes[base..]);
            base as u32
        });
        frame.push_shared_instance(transform, base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_divide_a_turn_and_round_to_the_nearest() {
        let steps = AngleSteps::new(1f32.to_radians());
        assert_eq!(steps.per_turn, 360);
        assert_eq!(steps.index(0.4f32.to_radians()), 0);
        assert_eq!(steps.index(0.6f32.to_radians()), 1);
        // Negative angles and angles past a turn land on the same steps.
        assert_eq!(steps.index(-1f32.to_radians()), 359);
        assert_eq!(steps.index(TAU + 2f32.to_radians()), 2);
        let odd = AngleSteps::new(0.7);
        assert_eq!(odd.per_turn, 9);
        assert!(odd.step <= 0.7 && (odd.step * 9.0 - TAU).abs() < 1e-6);
        assert_eq!(AngleSteps::new(0.0).per_turn, 65_536);
        assert_eq!(AngleSteps::new(10.0).per_turn, 1);
    }
}
