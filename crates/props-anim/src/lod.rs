//! What the camera sees, and how often what it sees is posed: frustum culling against
//! conservative spheres ([`View::sees`]), update-rate LOD by distance ([`UpdateRateLod`], like
//! Unreal's update-rate optimization: far instances are re-posed every few frames and keep
//! their last pose in between, staggered by index so the cost stays even), and a CPU budget
//! ([`AnimationBudget`], like Unreal's Animation Budget Allocator) that stretches the far
//! rates while animation takes longer than its budget, never touching near instances. Pure:
//! the caller measures time and passes it in.

use glam::{Mat4, Vec3, Vec4};

use crate::mesh_lod::{LodView, MeshLod};

/// How often visible instances update, by distance. The distances are for a prop at scale 1:
/// a crowd's instance placed at scale `s` changes rate at `s` times them (its stale pose shows
/// as large as one of scale 1 at `1 / s` its distance).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpdateRateLod {
    /// Up to this distance (world units), every frame, always.
    pub near: f32,
    /// Up to this distance, every `mid_rate` frames; beyond, every `far_rate` frames.
    pub far: f32,
    /// Frames between updates between `near` and `far`.
    pub mid_rate: u8,
    /// Frames between updates beyond `far`.
    pub far_rate: u8,
}

impl Default for UpdateRateLod {
    /// Every frame within 50 m, every 2nd to 150 m, every 4th beyond.
    fn default() -> Self {
        Self { near: 50.0, far: 150.0, mid_rate: 2, far_rate: 4 }
    }
}

/// The most the budget stretches far rates: a factor of `2^MAX_PRESSURE`.
pub const MAX_PRESSURE: u8 = 4;

impl UpdateRateLod {
    /// Every instance every frame (LOD off).
    pub const OFF: Self = Self { near: f32::INFINITY, far: f32::INFINITY, mid_rate: 1, far_rate: 1 };

    /// Frames between updates of an instance `distance` away under budget `pressure` (the
    /// far rates times `2^pressure`; near instances always every frame).
    #[must_use]
    pub fn rate(&self, distance: f32, pressure: u8) -> u8 {
        let rate = if distance <= self.near {
            return 1;
        } else if distance <= self.far {
            self.mid_rate
        } else {
            self.far_rate
        };
        rate.max(1).saturating_mul(1 << pressure.min(MAX_PRESSURE))
    }
}

/// Whether instance `index` updating every `rate` frames is due in frame `frame`.
#[must_use]
pub(crate) fn is_due(frame: u64, index: usize, rate: u8) -> bool {
    let turn = frame.wrapping_add(index as u64);
    match rate {
        0 | 1 => true,
        // The usual rates, without a division.
        r if r.is_power_of_two() => turn & u64::from(r - 1) == 0,
        r => turn.is_multiple_of(u64::from(r)),
    }
}

/// The CPU budget of animation and how hard it presses on the far rates: one step more each
/// frame that took longer than the budget, one less each frame under 70% of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimationBudget {
    /// Milliseconds animation may take per frame.
    pub budget_ms: f32,
    pressure: u8,
}

impl AnimationBudget {
    /// A budget of `budget_ms` milliseconds, not pressing yet.
    #[must_use]
    pub fn new(budget_ms: f32) -> Self {
        Self { budget_ms, pressure: 0 }
    }

    /// Takes the time the last frame's animation took.
    pub fn record(&mut self, spent_ms: f32) {
        if spent_ms > self.budget_ms {
            self.pressure = (self.pressure + 1).min(MAX_PRESSURE);
        } else if spent_ms < 0.7 * self.budget_ms {
            self.pressure = self.pressure.saturating_sub(1);
        }
    }

    /// How much far rates are stretched: a factor of `2^pressure`.
    #[must_use]
    pub fn pressure(&self) -> u8 {
        self.pressure
    }
}

/// Where a sphere is relative to a [`View`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Wholly outside: nothing of it can be seen.
    Outside,
    /// Wholly inside.
    Inside,
    /// Across the edge of the view.
    Partial,
}

/// The camera: what is in view, and how far things are from the eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The eye, world space.
    pub eye: Vec3,
    /// The six frustum planes (`n.p + d >= 0` inside, `n` unit), from the view-projection.
    planes: [Vec4; 6],
    /// Update rates by distance.
    pub lod: UpdateRateLod,
    /// Budget pressure ([`AnimationBudget::pressure`]).
    pub pressure: u8,
    /// How far the projection stretches a unit one unit in front of the eye, in halves of the
    /// view's height (its `[1][1]` for a perspective projection).
    focal: f32,
    /// Mesh LOD, where set ([`View::with_mesh_lod`]): each instance at full detail without.
    mesh: Option<LodView>,
}

impl View {
    /// The view of a camera at `eye` whose projection times view is `view_projection` (wgpu's
    /// 0..1 depth), posing with `lod` under budget `pressure`.
    #[must_use]
    pub fn new(eye: Vec3, view_projection: Mat4, lod: UpdateRateLod, pressure: u8) -> Self {
        let m = view_projection.transpose();
        let (r0, r1, r2, r3) = (m.x_axis, m.y_axis, m.z_axis, m.w_axis);
        let planes = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|p| p / p.truncate().length().max(1e-30));
        // The view's rotation keeps lengths: the y row's length is the projection's [1][1].
        let focal = r1.truncate().length();
        Self { eye, planes, lod, pressure, focal, mesh: None }
    }

    /// The view with mesh LOD by `lod`, for a target `height_px` pixels high (picked as for
    /// [`MeshLod::min_view_px`], where more): each instance is drawn at the level of detail
    /// [`MeshLod`] picks.
    #[must_use]
    pub fn with_mesh_lod(self, lod: MeshLod, height_px: f32) -> Self {
        let pixels_per_unit = self.focal * height_px.max(lod.min_view_px) / 2.0;
        let usable = pixels_per_unit.is_finite() && pixels_per_unit > 0.0;
        Self { mesh: usable.then_some(LodView { lod, pixels_per_unit }), ..self }
    }

    /// Mesh LOD as this view sees it, where set.
    pub(crate) fn mesh_lod(&self) -> Option<&LodView> {
        self.mesh.as_ref()
    }

    /// The level of detail this view's mesh LOD draws a prop at (0 without mesh LOD): one
    /// whose culling sphere is at `center` with `radius`, whose levels' errors are `errors`
    /// (world units, level 0's first) and triangles `triangles`, drawn at `current` until
    /// now. What a crowd picks for each of its instances, for a tool showing one.
    #[must_use]
    pub fn mesh_level(&self, (errors, triangles): (&[f32], &[u32]), current: u8, center: Vec3, radius: f32) -> u8 {
        let thresholds = |mesh: &LodView| mesh.thresholds((errors, triangles), radius);
        self.mesh.as_ref().map_or(0, |mesh| thresholds(mesh).pick(current, center.distance(self.eye)))
    }

    /// A view in every direction from `eye` (no culling), for update-rate LOD alone.
    #[must_use]
    pub fn everywhere(eye: Vec3, lod: UpdateRateLod, pressure: u8) -> Self {
        Self { eye, planes: [Vec4::W; 6], lod, pressure, focal: 0.0, mesh: None }
    }

    /// Whether a sphere at `center` of `radius` may be in view (conservative: never false for
    /// a sphere that reaches into the frustum).
    #[must_use]
    pub fn sees(&self, center: Vec3, radius: f32) -> bool {
        self.planes.iter().all(|p| p.truncate().dot(center) + p.w >= -radius)
    }

    /// Where a sphere at `center` of `radius` is: wholly outside the view, wholly inside, or
    /// across its edge (conservative like [`View::sees`]).
    #[must_use]
    pub fn classify(&self, center: Vec3, radius: f32) -> Visibility {
        let mut inside = true;
        for p in &self.planes {
            let d = p.truncate().dot(center) + p.w;
            if d < -radius {
                return Visibility::Outside;
            }
            inside &= d >= radius;
        }
        if inside { Visibility::Inside } else { Visibility::Partial }
    }

    /// Frames between updates of an instance `distance` from the eye, under the budget's
    /// pressure.
    #[must_use]
    pub fn rate(&self, distance: f32) -> u8 {
        self.lod.rate(distance, self.pressure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view shorter than `MeshLod::min_view_px` picks levels as one that tall; a taller one
    /// by its own pixels.
    #[test]
    fn short_views_pick_levels_as_the_least_view_height_would() {
        // A right-handed perspective (wgpu's depth 0..1, near 0.1) of focal length 2.
        let (f, aspect, near) = (2.0, 16.0 / 9.0, 0.1);
        let projection = Mat4::from_cols(
            Vec4::new(f / aspect, 0.0, 0.0, 0.0),
            Vec4::new(0.0, f, 0.0, 0.0),
            Vec4::new(0.0, 0.0, 0.0, -1.0),
            Vec4::new(0.0, 0.0, near, 0.0),
        );
        let view = View::new(Vec3::ZERO, projection, UpdateRateLod::default(), 0);
        let errors = [0.0, 0.01, 0.02, 0.04, 0.08];
        let levels = |lod: MeshLod, height: f32| {
            let view = view.with_mesh_lod(lod, height);
            (1..200)
                .map(|d| view.mesh_level((&errors, &[]), 0, Vec3::new(0.0, 0.0, -(d as f32)), 0.5))
                .collect::<Vec<_>>()
        };
        let lod = MeshLod::default();
        assert_eq!(levels(lod, 360.0), levels(lod, 720.0));
        assert_ne!(levels(lod, 1080.0), levels(lod, 720.0), "a taller view picks by its own pixels");
        let own = MeshLod { min_view_px: 0.0, ..lod };
        assert_ne!(levels(own, 360.0), levels(own, 720.0));
        assert!(levels(own, 360.0).iter().zip(levels(lod, 360.0)).all(|(&a, b)| a >= b), "coarser or the same");
    }

    #[test]
    fn rates_follow_distance_and_pressure() {
        let lod = UpdateRateLod::default();
        assert_eq!(lod.rate(10.0, 0), 1);
        assert_eq!(lod.rate(100.0, 0), 2);
        assert_eq!(lod.rate(1000.0, 0), 4);
        assert_eq!(lod.rate(10.0, MAX_PRESSURE), 1, "near instances never wait");
        assert_eq!(lod.rate(100.0, 2), 8);
        assert_eq!(lod.rate(1000.0, 9), 64, "pressure is capped");
        assert_eq!(UpdateRateLod::OFF.rate(1e9, 3), 1);
    }

    #[test]
    fn every_instance_is_due_once_per_period_and_the_load_is_even() {
        for rate in 1..=8u8 {
            for frame in 0..16u64 {
                let due = (0..64).filter(|&i| is_due(frame, i, rate)).count();
                let share = 64 / usize::from(rate);
                assert!(due == share || due == share + 1, "rate {rate} frame {frame}: {due} due");
            }
            for index in 0..10 {
                assert_eq!((0..u64::from(rate)).filter(|&f| is_due(f, index, rate)).count(), 1);
            }
        }
    }

    #[test]
    fn the_budget_presses_while_over_and_eases_when_well_under() {
        let mut budget = AnimationBudget::new(1.0);
        for _ in 0..10 {
            budget.record(2.0);
        }
        assert_eq!(budget.pressure(), MAX_PRESSURE);
        budget.record(0.8);
        assert_eq!(budget.pressure(), MAX_PRESSURE, "between 70% and 100%: held");
        budget.record(0.5);
        assert_eq!(budget.pressure(), MAX_PRESSURE - 1);
    }

    #[test]
    fn the_frustum_keeps_what_reaches_into_it() {
        let projection = glam::camera::rh::proj::directx::perspective(1.0, 1.5, 0.1, 1000.0);
        let view = glam::camera::rh::view::look_at_mat4(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
        let view = View::new(Vec3::ZERO, projection * view, UpdateRateLod::default(), 0);
        assert!(view.sees(Vec3::new(0.0, 0.0, -10.0), 0.5));
        assert!(!view.sees(Vec3::new(0.0, 0.0, 10.0), 0.5), "behind the eye");
        assert!(!view.sees(Vec3::new(100.0, 0.0, -10.0), 1.0), "far to the side");
        assert!(view.sees(Vec3::new(100.0, 0.0, -10.0), 100.0), "a large sphere reaching in");
        assert!(!view.sees(Vec3::new(0.0, 0.0, -2000.0), 1.0), "beyond the far plane");
        assert_eq!(view.classify(Vec3::new(0.0, 0.0, -10.0), 0.5), Visibility::Inside);
        assert_eq!(view.classify(Vec3::new(0.0, 0.0, 10.0), 0.5), Visibility::Outside);
        assert_eq!(view.classify(Vec3::new(0.0, 0.0, -10.0), 50.0), Visibility::Partial);
    }
}
