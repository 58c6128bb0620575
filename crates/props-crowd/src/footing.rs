//! Feet held on the ground: two-bone IK on the legs of a crowd's near instances, each foot
//! pinned in the world where it came down while the host says it is planted
//! ([`props_anim::gait::ik::Planting`]: the hips come down where a leg would not reach). Near
//! means within the update-rate LOD's nearest band ([`props_anim::runtime::UpdateRateLod::near`],
//! where instances are posed every frame, at each one's scale), and at most
//! [`MAX_HELD_DISTANCE`]; without a camera nothing is near. Those instances are posed once more
//! on the general path, into palettes of their own after the crowd's; farther ones, and models
//! without feet, cost nothing.

use std::sync::Arc;

use glam::{Vec2, Vec3};
use props_anim::gait::ik::{Leg, Planting};
use props_anim::runtime::{Crowd, View};
use props_anim::{JointMatrix, NodeId, Pose, pose_state};

use crate::model::BoundModel;

/// Farthest an instance's feet are held from the eye, world units, whatever the update-rate
/// LOD's near band (`UpdateRateLod::OFF` poses everything every frame: holding every visible
/// prop's feet would pose each twice).
pub(crate) const MAX_HELD_DISTANCE: f32 = 50.0;

/// Most feet a model's instances have held (a bit each in [`Footing::set`]'s mask).
pub(crate) const MAX_FEET: usize = 8;

/// The height of the ground under a world (x, z), for feet planted on hills.
pub type Ground = Arc<dyn Fn(Vec2) -> f32 + Send + Sync>;

/// The frame of an instance never held.
const NEVER: u64 = u64::MAX;

/// One crowd's feet: its model's legs, and per instance which feet are planted and where they
/// are pinned.
#[derive(Clone, Default)]
pub(crate) struct Footing {
    /// The ground feet are planted on, if not flat under each instance.
    ground: Option<Ground>,
    /// The feet (each the lowest joint of a leg) and their legs, in the mask's bit order.
    feet: Vec<(NodeId, Leg)>,
    /// Per instance (only once feet are set): bit `k` set while `feet[k]` is planted.
    planted: Vec<u8>,
    /// Per instance: simulated seconds since its feet were last held.
    elapsed: Vec<f32>,
    /// Per instance: its pins.
    plantings: Vec<Planting>,
    /// Per instance: the frame it was last held in, and its palette's base in that frame.
    held: Vec<(u64, u32)>,
    /// The instances held this frame.
    near: Vec<u32>,
    frame: u64,
}

impl Footing {
    /// Holds the feet of `feet` (at most [`MAX_FEET`]; none turns it off) on the near ones of
    /// `instances` instances.
    pub(crate) fn set_feet(&mut self, feet: Vec<(NodeId, Leg)>, instances: usize) {
        self.feet = feet;
        self.feet.truncate(MAX_FEET);
        let on = if self.feet.is_empty() { 0 } else { instances };
        self.planted = vec![0; on];
        self.elapsed = vec![0.0; on];
        self.plantings = vec![Planting::for_feet(self.feet.len()); on];
        self.held = vec![(NEVER, 0); on];
        self.near.clear();
    }

    /// Plants feet on `ground` (its height at a world (x, z)) rather than level with where
    /// each instance stands.
    pub(crate) fn set_ground(&mut self, ground: Option<Ground>) {
        self.ground = ground;
    }

    /// The feet held, in the mask's bit order.
    pub(crate) fn feet(&self) -> &[(NodeId, Leg)] {
        &self.feet
    }

    /// Makes room for one more instance.
    pub(crate) fn push(&mut self) {
        if !self.feet.is_empty() {
            self.planted.push(0);
            self.elapsed.push(0.0);
            self.plantings.push(Planting::for_feet(self.feet.len()));
            self.held.push((NEVER, 0));
        }
    }

    /// Forgets the last instance.
    pub(crate) fn pop(&mut self) {
        self.planted.pop();
        self.elapsed.pop();
        self.plantings.pop();
        self.held.pop();
    }

    /// Forgets instance `i`, the last taking its place.
    pub(crate) fn swap_remove(&mut self, i: usize) {
        if i < self.planted.len() {
            self.planted.swap_remove(i);
            self.elapsed.swap_remove(i);
            self.plantings.swap_remove(i);
            self.held.swap_remove(i);
        }
    }

    /// Instance `i` has moved on by `dt` seconds, its feet `planted()` (bit `k`: foot `k`),
    /// asked only if the last frame held them. One not held has no feet planted: the frame that
    /// first holds it pins none (its pins start over there anyway), and the next its own.
    pub(crate) fn set(&mut self, i: usize, dt: f32, planted: impl FnOnce() -> u8) {
        let held = self.held.get(i).is_some_and(|&(frame, _)| frame == self.frame);
        if let (Some(mask), Some(elapsed)) = (self.planted.get_mut(i), self.elapsed.get_mut(i)) {
            *mask = if held { planted() } else { 0 };
            *elapsed += dt;
        }
    }

    /// Picks this frame's near instances among `crowd`'s visible ones, placed at `at`;
    /// returns how many.
    pub(crate) fn plan(&mut self, crowd: &Crowd, at: &[JointMatrix], view: Option<&View>) -> usize {
        self.frame += 1;
        self.near.clear();
        let Some(view) = view.filter(|_| !self.feet.is_empty()) else { return 0 };
        let held = MAX_HELD_DISTANCE.powi(2);
        for (i, _) in crowd.visible() {
            let [x, y, z] = at[i].rows.map(|row| row[3]);
            let distance = view.eye.distance_squared(Vec3::new(x, y, z));
            // Posed every frame: within the near band at its scale, as the crowd rates it.
            if distance <= held && distance <= (view.lod.near * crowd.scale(i)).powi(2) {
                self.near.push(i as u32);
            }
        }
        self.near.len()
    }

    /// Instances held this frame.
    pub(crate) fn near_len(&self) -> usize {
        self.near.len()
    }

    /// The palette base of instance `i` this frame, if its feet were held.
    pub(crate) fn base(&self, i: usize) -> Option<u32> {
        self.held.get(i).filter(|(frame, _)| *frame == self.frame).map(|&(_, base)| base)
    }

    /// Poses this frame's near instances of `crowd` (of `model`, placed at `at`) on the
    /// general path in `poses`, holds their feet, and writes their palettes into `out`, which
    /// the frame's palette buffer holds from matrix `start` on, one after another.
    pub(crate) fn write(
        &mut self,
        (model, crowd, at): (&BoundModel, &Crowd, &[JointMatrix]),
        poses: &mut (Pose, Pose),
        start: usize,
        out: &mut [JointMatrix],
    ) {
        let (imported, spec) = (&*model.prop.model, &model.spec);
        let (rig, len) = (imported.rig(), imported.palette_len());
        let (pose, scratch) = poses;
        for (k, &i) in self.near.iter().enumerate() {
            let i = i as usize;
            pose_state(imported, spec, crowd.layers(i), crowd.drivers(i), pose, scratch);
            if self.held[i].0.wrapping_add(1) != self.frame {
                self.plantings[i].reset();
            }
            let mut planted = [false; MAX_FEET];
            for (bit, down) in planted.iter_mut().enumerate() {
                *down = self.planted[i] & (1 << bit) != 0;
            }
            let feet = self.feet.len();
            let ground = self.ground.as_deref().map(|g| g as &dyn Fn(Vec2) -> f32);
            self.plantings[i].apply(
                pose,
                rig,
                &self.feet,
                &planted[..feet],
                (at[i].to_affine(), self.elapsed[i], ground),
            );
            self.elapsed[i] = 0.0;
            imported.write_palettes(pose, &mut out[k * len..(k + 1) * len]);
            self.held[i] = (self.frame, (start + k * len) as u32);
        }
    }
}

impl std::fmt::Debug for Footing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Footing")
            .field("feet", &self.feet)
            .field("ground", &self.ground.is_some())
            .field("near", &self.near)
            .finish_non_exhaustive()
    }
}
