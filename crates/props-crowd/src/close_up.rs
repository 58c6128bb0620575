//! A crowd's near instances, posed once more on the general path into palettes of their own
//! after the crowd's, for what only a close look shows:
//! - feet held on the ground: two-bone IK on the legs, each foot pinned in the world where it
//!   came down while the host says it is planted ([`props_anim::gait::ik::Planting`]: the hips
//!   come down where a leg would not reach);
//! - spring bones swung (hair, tails: [`props_anim::spring`]), each near instance's tails kept
//!   from frame to frame ([`Tails`]: only while it is near), by the time
//!   [`crate::Posing::advance`] says has passed.
//!
//! Near means within the update-rate LOD's nearest band
//! ([`props_anim::runtime::UpdateRateLod::near`], where instances are posed every frame, at each
//! one's scale), and at most [`MAX_CLOSE_UP_DISTANCE`]; without a camera nothing is near. An
//! instance that comes near starts over: its pins none, its tails where its pose puts them
//! (farther away its hair hangs at rest, as its pose has it, so nothing jumps). So does one
//! that jumps further than its own size in a frame (a host's teleport): its hair would
//! otherwise stream back to where it was. Farther ones, and models with neither feet nor
//! springs, cost nothing.

use std::sync::Arc;

use glam::{Vec2, Vec3};
use props_anim::gait::ik::{Leg, Planting};
use props_anim::runtime::{Crowd, View};
use props_anim::spring::SpringState;
use props_anim::{JointMatrix, NodeId, Pose, pose_state};

use crate::model::BoundModel;
use crate::tails::Tails;

/// Farthest an instance is posed close up from the eye, world units, whatever the update-rate
/// LOD's near band (`UpdateRateLod::OFF` poses everything every frame: posing every visible
/// prop close up would pose each twice).
pub(crate) const MAX_CLOSE_UP_DISTANCE: f32 = 50.0;

/// Most feet a model's instances have held (a bit each in [`CloseUp::set`]'s mask).
pub(crate) const MAX_FEET: usize = 8;

/// The height of the ground under a world (x, z), for feet planted on hills.
pub type Ground = Arc<dyn Fn(Vec2) -> f32 + Send + Sync>;

/// The frame of an instance never held.
const NEVER: u64 = u64::MAX;

/// One crowd's close-up posing: its model's legs and springs, and per instance which feet
/// are planted, where they are pinned and where its spring tails are.
#[derive(Clone, Default)]
pub(crate) struct CloseUp {
    /// The ground feet are planted on, if not flat under each instance.
    ground: Option<Ground>,
    /// The feet (each the lowest joint of a leg) and their legs, in the mask's bit order.
    feet: Vec<(NodeId, Leg)>,
    /// The near instances' spring tails, if the model has springs.
    tails: Option<Tails>,
    /// Per instance (only while there are feet or springs): bit `k` set while `feet[k]` is
    /// planted.
    planted: Vec<u8>,
    /// Per instance: simulated seconds since its feet were last held.
    elapsed: Vec<f32>,
    /// Per instance: its pins.
    plantings: Vec<Planting>,
    /// Per instance: the frame it was last posed close up in, and its palette's base in that
    /// frame.
    held: Vec<(u64, u32)>,
    /// The instances posed close up this frame.
    near: Vec<u32>,
    frame: u64,
    /// Simulated seconds since the last frame.
    dt: f32,
}

impl CloseUp {
    /// Close-up posing of a model without instances, with spring bones whose tails are
    /// `fresh_tails` before an instance is first near, or none.
    pub(crate) fn new(fresh_tails: Option<SpringState>) -> Self {
        Self { tails: fresh_tails.map(|fresh| Tails::new(fresh, 0)), ..Self::default() }
    }

    /// Holds the feet of `feet` (at most [`MAX_FEET`]; none: no IK) on the near ones of
    /// `instances` instances.
    pub(crate) fn set_feet(&mut self, feet: Vec<(NodeId, Leg)>, instances: usize) {
        self.feet = feet;
        self.feet.truncate(MAX_FEET);
        self.resize(instances);
    }

    /// Whether near instances are posed close up at all.
    fn on(&self) -> bool {
        !self.feet.is_empty() || self.tails.is_some()
    }

    /// Every instance's state afresh, for `instances` instances (none while off).
    fn resize(&mut self, instances: usize) {
        let on = if self.on() { instances } else { 0 };
        self.planted = vec![0; on];
        self.elapsed = vec![0.0; on];
        self.plantings = vec![Planting::for_feet(self.feet.len()); on];
        if let Some(tails) = &mut self.tails {
            *tails = Tails::new(tails.fresh().clone(), on);
        }
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
        if self.on() {
            self.planted.push(0);
            self.elapsed.push(0.0);
            self.plantings.push(Planting::for_feet(self.feet.len()));
            self.held.push((NEVER, 0));
        }
        if let Some(tails) = &mut self.tails {
            tails.push();
        }
    }

    /// Forgets the last instance.
    pub(crate) fn pop(&mut self) {
        self.planted.pop();
        self.elapsed.pop();
        self.plantings.pop();
        if let Some(tails) = &mut self.tails {
            tails.pop();
        }
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
        if let Some(tails) = &mut self.tails {
            tails.swap_remove(i);
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

    /// Picks this frame's near instances among `crowd`'s visible ones, placed at `at`, `dt`
    /// seconds after the last frame; returns how many.
    pub(crate) fn plan(&mut self, crowd: &Crowd, at: &[JointMatrix], view: Option<&View>, dt: f32) -> usize {
        self.frame += 1;
        self.dt = dt;
        self.near.clear();
        let Some(view) = view.filter(|_| self.on()) else { return 0 };
        let held = MAX_CLOSE_UP_DISTANCE.powi(2);
        for (i, _) in crowd.visible() {
            let [x, y, z] = at[i].rows.map(|row| row[3]);
            let distance = view.eye.distance_squared(Vec3::new(x, y, z));
            // Posed every frame: within the near band at its size, as the crowd rates it.
            let size = crowd.scale(i) / crowd.metres_per_unit();
            if distance <= held && distance <= (view.lod.near * size).powi(2) {
                self.near.push(i as u32);
            }
        }
        self.near.len()
    }

    /// Instances posed close up this frame.
    pub(crate) fn near_len(&self) -> usize {
        self.near.len()
    }

    /// The feet instance `i` has pinned this frame, and the world points they are pinned at
    /// (none unless it was posed close up).
    pub(crate) fn pinned(&self, i: usize) -> impl Iterator<Item = (NodeId, Vec3)> + '_ {
        let plantings = self.base(i).and_then(|_| self.plantings.get(i)).into_iter();
        let pins = plantings.flat_map(|planting| planting.pins().zip(&self.feet));
        pins.filter_map(|(at, &(foot, _))| Some((foot, at?)))
    }

    /// The palette base of instance `i` this frame, if it was posed close up.
    pub(crate) fn base(&self, i: usize) -> Option<u32> {
        self.held.get(i).filter(|(frame, _)| *frame == self.frame).map(|&(_, base)| base)
    }

    /// Poses this frame's near instances of `crowd` (of `model`, placed at `at`, `radius` in
    /// size at scale 1) on the general path in `poses`, holds their feet, swings their
    /// springs, and writes their palettes into `out`, which the frame's palette buffer holds
    /// from matrix `start` on, one after another.
    pub(crate) fn write(
        &mut self,
        (model, crowd, at, radius): (&BoundModel, &Crowd, &[JointMatrix], f32),
        poses: &mut (Pose, Pose),
        start: usize,
        out: &mut [JointMatrix],
    ) {
        let (imported, spec) = (&*model.prop.model, &model.spec);
        let (rig, len) = (imported.rig(), imported.palette_len());
        let (pose, scratch) = poses;
        if let Some(tails) = &mut self.tails {
            tails.keep(&self.near, self.frame);
        }
        for (k, &i) in self.near.iter().enumerate() {
            let i = i as usize;
            pose_state(imported, spec, crowd.layers(i), crowd.drivers(i), pose, scratch);
            let fresh = self.held[i].0.wrapping_add(1) != self.frame;
            let placement = at[i].to_affine();
            if !self.feet.is_empty() {
                if fresh {
                    self.plantings[i].reset();
                }
                let mut planted = [false; MAX_FEET];
                for (bit, down) in planted.iter_mut().enumerate() {
                    *down = self.planted[i] & (1 << bit) != 0;
                }
                let feet = self.feet.len();
                let ground = self.ground.as_deref().map(|g| g as &dyn Fn(Vec2) -> f32);
                self.plantings[i].apply(pose, rig, &self.feet, &planted[..feet], (placement, self.elapsed[i], ground));
                self.elapsed[i] = 0.0;
            }
            if let Some(tails) = &mut self.tails {
                let (tails, stood, new) = tails.get(i, self.frame);
                let springs = imported.springs();
                let here = Vec3::from(placement.translation);
                if new || here.distance(*stood) > radius * crowd.scale(i) {
                    springs.reset(rig, pose, &placement, tails);
                }
                springs.step(rig, pose, &placement, tails, self.dt);
                *stood = here;
            }
            imported.write_palettes(pose, &mut out[k * len..(k + 1) * len]);
            self.held[i] = (self.frame, (start + k * len) as u32);
        }
    }
}

impl std::fmt::Debug for CloseUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CloseUp")
            .field("feet", &self.feet)
            .field("springs", &self.tails.is_some())
            .field("ground", &self.ground.is_some())
            .field("near", &self.near)
            .finish_non_exhaustive()
    }
}
