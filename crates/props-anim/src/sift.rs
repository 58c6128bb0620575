//! A frame's first pass over a crowd's instances ([`sift`]): which the view may see (culled
//! by blocks of consecutive instances first), which of those are due (update-rate LOD; one
//! coming into view always is), the level of detail of each (mesh LOD), and, when poses are
//! shared, the key of each due one. An
//! instance's outcome depends on it alone, so a large crowd is sifted in parts, at once on
//! the workers, and the parts' lists, taken in order, are what one pass finds. On one thread
//! each instance in view goes straight to the caller, while its key is at hand.

use glam::Vec3;
use rayon::prelude::*;

use crate::lod::{View, Visibility, is_due};
use crate::mesh_lod::Thresholds;
use crate::program::Program;
use crate::shared::{Key, MAX_COARSENING, Quantization, Steps};
use crate::state::Layer;
use crate::workers::Workers;

/// Instances culled together (consecutive ones: the scene spawns neighbours in order). Small
/// enough that a block of a crowd spread thin is still mostly wholly in or out of view: 16
/// consecutive windmills span 640 m of their ring, 64 spanned 2.5 km and nearly every block
/// needed a test per instance (16 instead of 64: planning 100k windmills took 9 % less).
pub(crate) const BLOCK: usize = 16;

/// Fewer instances than this are sifted on the calling thread (each part is a task).
const MIN_PARALLEL_INSTANCES: usize = 8192;

/// The bounding sphere of a [`BLOCK`]'s culling spheres.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    center: Vec3,
    radius: f32,
    /// Whether an instance moved since the bounds were taken.
    stale: bool,
}

impl Block {
    pub(crate) const STALE: Self = Self { center: Vec3::ZERO, radius: 0.0, stale: true };

    /// The bounds of spheres of `radius` times `scales` around `centers`.
    fn around(centers: &[Vec3], scales: &[f32], radius: f32) -> Self {
        let (low, high) =
            centers.iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &c| (lo.min(c), hi.max(c)));
        let largest = scales.iter().fold(0.0_f32, |largest, &s| largest.max(s));
        Self { center: (low + high) * 0.5, radius: (high - low).length() * 0.5 + radius * largest, stale: false }
    }

    /// Marks the bounds out of date (an instance in the block moved).
    pub(crate) fn mark_stale(&mut self) {
        self.stale = true;
    }
}

/// How a due instance's shared-pose key is made.
pub(crate) struct Keying<'a> {
    pub program: &'a Program,
    /// `None`: exact keys.
    pub quantization: Option<Quantization>,
    pub layers: &'a [Layer],
    pub layers_per: usize,
    pub drivers: &'a [f32],
    pub drivers_per: usize,
}

/// What decides each instance's outcome this frame.
pub(crate) struct Sieve<'a> {
    /// `None`: every instance is seen.
    pub view: Option<&'a View>,
    /// The frame's number, for update-rate LOD.
    pub frame: u64,
    /// Update-rate LOD is on (instances may be deferred).
    pub lod: bool,
    /// Every instance's culling radius at scale 1.
    pub radius: f32,
    /// The model's metres per unit ([`crate::runtime::Crowd::set_metres_per_unit`]).
    pub metres_per_unit: f32,
    /// Shared poses: how keys are made (`None`: unshared, no keys).
    pub keying: Option<Keying<'a>>,
    /// Mesh LOD: where instances at scale 1 change level (each instance in view's level is
    /// picked, as its update rate and its pose's steps are, at its distance over its scale:
    /// every threshold grows with the scale).
    pub detail: Option<Thresholds>,
}

/// A crowd's per-instance state that sifting reads and writes, whole or one part of it.
pub(crate) struct Instances<'a> {
    pub centers: &'a [Vec3],
    pub scales: &'a [f32],
    /// Whether each was in view last frame (updated).
    pub shown: &'a mut [bool],
    /// The bounds of each [`BLOCK`] of them (taken again where stale).
    pub blocks: &'a mut [Block],
    /// Each one's key when last posed (set for the due ones when shared).
    pub keys: &'a mut [Key],
    /// Each one's level of detail when last in view (set for those in view, with mesh LOD).
    pub levels: &'a mut [u8],
}

impl Sieve<'_> {
    /// The instance `i`, centred at `center` at `scale`, is in view (`appeared`: it was not
    /// last frame): notes whether it is due, keys it if so, and hands it to `sink`.
    #[inline(always)]
    fn admit(
        &self,
        levels: &[Option<Steps>],
        (i, appeared): (usize, bool),
        (center, scale): (Vec3, f32),
        (key, detail): (&mut Key, &mut u8),
        sink: &mut impl FnMut(u32, bool, &Key, u8),
    ) {
        // Every distance-based choice is made at scale 1: an instance twice as large shows
        // its detail, its pose's staleness and its pose's steps as one of scale 1 at half
        // the distance. Its detail's errors are in the model's units; its staleness and
        // steps are rated in metres, at its size against the model's real one.
        let distance = self.view.map_or(0.0, |v| center.distance(v.eye)) / scale;
        if let Some(thresholds) = &self.detail {
            *detail = thresholds.pick(*detail, distance);
        }
        let metres = distance * self.metres_per_unit;
        let due = !self.lod || appeared || self.view.is_none_or(|v| is_due(self.frame, i, v.rate(metres)));
        if due && let Some(k) = &self.keying {
            let level = k.quantization.map_or(0, |q| q.level(metres));
            let (l, d) = (i * k.layers_per, i * k.drivers_per);
            let (layers, drivers) = (&k.layers[l..l + k.layers_per], &k.drivers[d..d + k.drivers_per]);
            *key = Key::of(levels[usize::from(level)].as_ref(), k.program, layers, drivers);
        }
        sink(i as u32, due, key, *detail);
    }

    /// Sifts `part`, whose first instance is number `first`, handing each instance in view
    /// to `sink`, in order.
    fn part(&self, first: usize, part: Instances<'_>, sink: &mut impl FnMut(u32, bool, &Key, u8)) {
        let levels: [Option<Steps>; MAX_COARSENING as usize + 1] = std::array::from_fn(|level| {
            self.keying.as_ref().and_then(|k| k.quantization).map(|q| q.steps(level as u8))
        });
        let Instances { centers, scales, shown, blocks, keys, levels: detail } = part;
        let sphere = |k: usize| (centers[k], scales[k]);
        let Some(view) = self.view else {
            for (k, shown) in shown.iter_mut().enumerate() {
                let appeared = !std::mem::replace(shown, true);
                self.admit(&levels, (first + k, appeared), sphere(k), (&mut keys[k], &mut detail[k]), sink);
            }
            return;
        };
        for (b, block) in blocks.iter_mut().enumerate() {
            let range = b * BLOCK..((b + 1) * BLOCK).min(centers.len());
            if block.stale {
                *block = Block::around(&centers[range.clone()], &scales[range.clone()], self.radius);
            }
            match view.classify(block.center, block.radius) {
                Visibility::Outside => shown[range].fill(false),
                Visibility::Inside => {
                    for k in range {
                        let appeared = !std::mem::replace(&mut shown[k], true);
                        self.admit(&levels, (first + k, appeared), sphere(k), (&mut keys[k], &mut detail[k]), sink);
                    }
                }
                Visibility::Partial => {
                    for k in range {
                        let sees = view.sees(centers[k], self.radius * scales[k]);
                        if sees {
                            let at = (&mut keys[k], &mut detail[k]);
                            self.admit(&levels, (first + k, !shown[k]), sphere(k), at, sink);
                        }
                        shown[k] = sees;
                    }
                }
            }
        }
    }
}

/// Sifts every one of `instances` (see the module documentation): hands each instance in
/// view to `sink`, in order, with whether it is due, its key (the one it was last posed
/// with, if not due) and its level of detail. `blocks` must cover the instances. On `workers`, a large crowd is
/// sifted in parts at once, each listing what it finds in its own of `parts` (one list per
/// part), and those are handed to `sink` after, in order.
pub(crate) fn sift(
    sieve: &Sieve<'_>,
    instances: Instances<'_>,
    parts: &mut [Vec<(u32, bool)>],
    workers: Option<&Workers>,
    mut sink: impl FnMut(u32, bool, &Key, u8),
) {
    let n = instances.centers.len();
    match workers {
        Some(workers) if parts.len() > 1 && n >= MIN_PARALLEL_INSTANCES => {
            let per = n.div_ceil(parts.len()).next_multiple_of(BLOCK);
            let Instances { centers, scales, shown, blocks, keys, levels } = instances;
            workers.install(|| {
                centers
                    .par_chunks(per)
                    .zip(scales.par_chunks(per))
                    .zip(shown.par_chunks_mut(per))
                    .zip(blocks.par_chunks_mut(per / BLOCK))
                    .zip(keys.par_chunks_mut(per))
                    .zip(levels.par_chunks_mut(per))
                    .zip(parts.par_iter_mut())
                    .enumerate()
                    .for_each(|(p, ((((((centers, scales), shown), blocks), keys), levels), seen))| {
                        seen.clear();
                        let part = Instances { centers, scales, shown, blocks, keys, levels };
                        sieve.part(p * per, part, &mut |i, due, _, _| seen.push((i, due)));
                    });
            });
            let chunks = n.div_ceil(per);
            for &(i, due) in parts[..chunks].iter().flatten() {
                sink(i, due, &keys[i as usize], levels[i as usize]);
            }
        }
        _ => sieve.part(0, instances, &mut sink),
    }
}
