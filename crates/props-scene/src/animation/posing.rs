//! A frame's poses for every crowd (of every kind of the scene, or of a [`crate::CrowdSet`]):
//! each crowd plans its frame (what it sees, poses and shares), all at once on the worker
//! threads; then each writes its palettes into its own part of the frame's one buffer, in
//! order, the parts also at once.
//! The buffer is laid out as if the crowds had been posed one after another, so results are
//! bitwise the same for any number of threads. Allocation-free.

use props_anim::crowd::CrowdStats;
use props_anim::{JointMatrix, PaletteBuffer, View, Workers};

use crate::animation::crowds::PropCrowd;
use crate::kind::Registered;

/// Crowds posed together: a kind's, or one crowd alone.
pub(crate) trait Crowds: Send {
    /// Its crowds, in order.
    fn crowds(&self) -> &[PropCrowd];
    /// Its crowds, to pose.
    fn crowds_mut(&mut self) -> &mut [PropCrowd];
}

impl Crowds for Registered {
    fn crowds(&self) -> &[PropCrowd] {
        self.props.crowds()
    }

    fn crowds_mut(&mut self) -> &mut [PropCrowd] {
        self.props.crowds_mut()
    }
}

impl Crowds for PropCrowd {
    fn crowds(&self) -> &[PropCrowd] {
        std::slice::from_ref(self)
    }

    fn crowds_mut(&mut self) -> &mut [PropCrowd] {
        std::slice::from_mut(self)
    }
}

/// What the last [`crate::Scene::animate`] (or [`crate::CrowdSet::animate`]) did, over every
/// prop model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimationStats {
    /// Props the camera may see: posed or drawn with their last pose, and extracted.
    pub visible: usize,
    /// Visible props not due this frame (update-rate LOD, stretched by the budget), drawn
    /// with their last pose.
    pub deferred: usize,
    /// Poses evaluated: props posed, or distinct shared states.
    pub posed: usize,
    /// Joints posed: each evaluated pose's palette matrices.
    pub joints_posed: usize,
    /// Palette matrices written into the frame (poses rounded up to the runtime's batches of
    /// four, plus the last poses of deferred props).
    pub palette_matrices: usize,
    /// How hard the CPU budget presses: far rates are stretched by `2^pressure`.
    pub pressure: u8,
}

impl AnimationStats {
    /// Adds one crowd's stats, of poses of `palette_len` matrices.
    pub(crate) fn add(&mut self, crowd: &CrowdStats, palette_len: usize) {
        self.visible += crowd.visible;
        self.deferred += crowd.deferred;
        self.posed += crowd.posed;
        self.joints_posed += crowd.posed * palette_len;
        self.palette_matrices += crowd.palettes * palette_len;
    }
}

/// Palette matrices the groups' crowds planned.
fn planned<G: Crowds>(kinds: &[G]) -> usize {
    kinds.iter().flat_map(G::crowds).map(PropCrowd::planned).sum()
}

/// Writes the planned palettes of `kinds` into `out` (theirs back to back, in order), which
/// the frame's buffer holds from matrix `start` on: halves of the groups at once.
fn write<G: Crowds>(kinds: &mut [G], start: usize, out: &mut [JointMatrix], workers: Option<&Workers>) {
    if let [one] = kinds {
        let mut at = 0;
        for crowd in one.crowds_mut() {
            let len = crowd.planned();
            crowd.write(workers, start + at, &mut out[at..at + len]);
            at += len;
        }
        return;
    }
    let (first, second) = kinds.split_at_mut(kinds.len() / 2);
    if first.is_empty() {
        return;
    }
    let len = planned(first);
    let (head, tail) = out.split_at_mut(len);
    match workers {
        Some(pool) => {
            pool.join(|| write(first, start, head, workers), || write(second, start + len, tail, workers));
        }
        None => {
            write(first, start, head, None);
            write(second, start + len, tail, None);
        }
    }
}

/// Poses every crowd of `kinds` seen from `view` (everything without one) for frame number
/// `frame`, appending their palettes to `palettes` (see the module documentation).
pub(crate) fn pose<G: Crowds>(
    kinds: &mut [G],
    view: Option<&View>,
    frame: u64,
    workers: Option<&Workers>,
    palettes: &mut PaletteBuffer,
) -> AnimationStats {
    let plan = |group: &mut G| {
        for crowd in group.crowds_mut() {
            crowd.plan(view, frame, workers);
        }
    };
    match workers {
        Some(pool) => pool.for_each_mut(kinds, plan),
        None => kinds.iter_mut().for_each(plan),
    }
    let start = palettes.len();
    let out = palettes.grow(planned(kinds));
    write(kinds, start, out, workers);
    let mut stats = AnimationStats::default();
    for crowd in kinds.iter().flat_map(G::crowds) {
        stats.add(&crowd.parts().2.stats(), crowd.palette_len());
    }
    stats
}
