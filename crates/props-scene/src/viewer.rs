//! Update-rate LOD for the scene's skeletal props: where the camera is, and how often a prop
//! at some distance from it, in view or not, is posed ([`props_anim::UpdateRateLod`]). Only
//! poses are skipped: every prop still moves, and its clips still advance, every step, so
//! the simulation is the same with or without a viewer.

use glam::{Mat4, Vec3};
use props_anim::{UpdateRateLod, is_due};

/// The camera update-rate LOD measures from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewer {
    /// The eye, world space.
    pub eye: Vec3,
    /// Projection times view (wgpu's 0..1 depth), to tell what is in view.
    pub view_projection: Mat4,
    /// The rates by distance and visibility.
    pub lod: UpdateRateLod,
}

/// How far outside the image, as a fraction of its half-size, a prop's origin still counts
/// as in view (props have some size).
const VIEW_MARGIN: f32 = 0.2;

impl Viewer {
    /// Whether a prop standing at `at` is in view.
    #[must_use]
    pub fn sees(&self, at: Vec3) -> bool {
        let clip = self.view_projection * at.extend(1.0);
        let reach = clip.w * (1.0 + VIEW_MARGIN);
        clip.w > 0.0 && clip.x.abs() <= reach && clip.y.abs() <= reach && clip.z <= clip.w
    }

    /// Whether prop number `index`, standing at `at`, is posed in step `step`.
    #[must_use]
    pub fn is_due(&self, step: u64, index: usize, at: Vec3) -> bool {
        is_due(step, index, self.lod.rate(at.distance(self.eye), self.sees(at)))
    }
}

/// Whether prop number `index` at `at` is posed in step `step`: always without a viewer.
pub(crate) fn due(viewer: Option<&Viewer>, step: u64, index: usize, at: Vec3) -> bool {
    viewer.is_none_or(|v| v.is_due(step, index, at))
}
