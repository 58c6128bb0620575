//! [`Crowd`]: the instances of one [`Program`], as plain data (each instance's layers, driver
//! values and bounding-sphere centre), evaluated once per frame into the caller's palette
//! buffer: culled against the [`View`], posed at their update rate (near ones every frame,
//! far ones every few, a budget stretching those), sharing palettes as [`Sharing`] says,
//! four at a time on the calling thread or on [`Workers`].
//!
//! Per frame, [`Crowd::update`]: (1) decides per instance whether it is visible and whether it is
//! due (an instance coming into view is always due); (2) collects the states to evaluate: every due
//! instance's (unshared), or every distinct key among the visible instances' (shared; an instance
//! not due keeps the key it had when last posed); (3) groups them into batches of four lanes
//! sharing a signature (`batches.rs`); (4) evaluates the batches in runs of whole batches, one run
//! per worker, straight into the palette buffer; (5) lists every visible instance with the offset
//! of its palette ([`Crowd::visible`]), grouped by the level of detail the view's mesh LOD picked
//! for it and then by its material variant and whether its placement mirrors it (finest first,
//! in index order within each group; [`Crowd::batches`]). The results
//! are bitwise the same for any number of threads (a lane's result depends on its state only). No
//! allocation per frame once the buffers have grown.

mod draw_slots;

use std::ops::Range;

use glam::Vec3;

use crate::JointMatrix;
use crate::batches::{Batch, States, evaluate, form_batches};
use crate::crowd_stats::CrowdStats;
use crate::draw_groups::DrawGroups;
use crate::lod::View;
use crate::program::{Program, Scratch};
use crate::reuse_buffer::PaletteBuffer;
use crate::reuse_buffer::reserve_total;
use crate::shared::{Key, KeyTable, Sharing, fits};
use crate::sift::{BLOCK, Block, Instances, Keying, Sieve, sift};
use crate::state::Layer;
use crate::workers::Workers;

/// A visible unshared instance posed this frame (its palette's offset is filled in later).
const DUE: u32 = u32::MAX - 1;
/// A visible unshared instance drawn with its last palette.
const DEFERRED: u32 = u32::MAX;

/// The instances of one program (see the module documentation).
#[derive(Clone, Debug)]
pub struct Crowd {
    layers_per: usize,
    drivers_per: usize,
    palette_len: usize,
    sharing: Sharing,
    radius: f32,
    layers: Vec<Layer>,
    drivers: Vec<f32>,
    centers: Vec<Vec3>,
    /// Each instance's scale: what its culling sphere and its levels' errors are multiplied by.
    scales: Vec<f32>,
    /// The model's metres per unit ([`Crowd::set_metres_per_unit`]).
    metres_per_unit: f32,
    /// Whether each instance was in view last frame.
    shown: Vec<bool>,
    /// Bounds of each [`BLOCK`] of consecutive instances.
    blocks: Vec<Block>,
    /// This frame, when sifted in parts: each part's instances in view, and whether each
    /// is due (one list per run).
    parts: Vec<Vec<(u32, bool)>>,
    /// Shared: each instance's key when last posed.
    keys: Vec<Key>,
    /// Each level of detail's error in world units, level 0's (0) first.
    level_errors: Vec<f32>,
    /// Each level's triangles (`set_levels`).
    level_triangles: Vec<u32>,
    /// Each instance's level of detail when last in view.
    levels: Vec<u8>,
    /// Each instance's draw slot: its material variant, and whether its placement mirrors it
    /// (`draw_slots.rs`).
    slots: Vec<u8>,
    /// The level of each of `visible`, this frame.
    visible_levels: Vec<u8>,
    /// The visible list's groups by level and variant.
    groups: DrawGroups,
    /// Unshared, with update-rate LOD: each instance's last palette.
    store: Vec<JointMatrix>,
    // Per frame, kept for their buffers.
    visible: Vec<(u32, u32)>,
    /// The states to evaluate this frame (instances, or distinct keys).
    todo: Vec<u32>,
    batches: Vec<Batch>,
    open: Vec<(u64, Batch)>,
    unique_layers: Vec<Layer>,
    unique_drivers: Vec<f32>,
    unique_keys: Vec<Key>,
    /// Palette offset of each state evaluated this frame.
    bases: Vec<u32>,
    table: KeyTable,
    scratches: Vec<Scratch>,
    /// What the last [`Crowd::plan`] decided, for [`Crowd::write`].
    plan: Plan,
    stats: CrowdStats,
}

/// A frame's plan, between [`Crowd::plan`] and [`Crowd::write`].
#[derive(Clone, Copy, Debug, Default)]
struct Plan {
    /// Update-rate LOD is on (instances may be deferred).
    lod: bool,
    /// Every batch is of one signature (then the `j`-th state of `todo` is lane `j % 4` of
    /// batch `j / 4`).
    uniform: bool,
    /// Visible instances deferred.
    deferred: usize,
    /// Levels of detail were picked (else every instance is at level 0).
    detailed: bool,
    /// Matrices the frame writes.
    matrices: usize,
}

impl Crowd {
    /// An empty crowd of `program`, each instance with `layers` layers, posing with
    /// `sharing` (`Sharing::None` when a state does not fit a key), culled with spheres of
    /// `radius` (the model's pose bound) times each instance's scale ([`Crowd::place`]), with
    /// scratch for `runs` runs evaluated in parallel (a few per worker thread; 1 for one thread).
    #[must_use]
    pub fn new(program: &Program, layers: usize, sharing: Sharing, radius: f32, runs: usize) -> Self {
        let drivers_per = program.driver_count();
        let sharing = if fits(layers, drivers_per) { sharing } else { Sharing::None };
        Self {
            layers_per: layers,
            drivers_per,
            palette_len: program.palette_len(),
            sharing,
            radius,
            layers: Vec::new(),
            drivers: Vec::new(),
            centers: Vec::new(),
            scales: Vec::new(),
            metres_per_unit: 1.0,
            shown: Vec::new(),
            blocks: Vec::new(),
            parts: vec![Vec::new(); runs.max(1)],
            keys: Vec::new(),
            level_errors: vec![0.0],
            level_triangles: Vec::new(),
            levels: Vec::new(),
            slots: Vec::new(),
            visible_levels: Vec::new(),
            groups: DrawGroups::default(),
            store: Vec::new(),
            visible: Vec::new(),
            todo: Vec::new(),
            batches: Vec::new(),
            open: Vec::new(),
            unique_layers: Vec::new(),
            unique_drivers: Vec::new(),
            unique_keys: Vec::new(),
            bases: Vec::new(),
            table: KeyTable::default(),
            scratches: (0..runs.max(1)).map(|_| program.scratch()).collect(),
            plan: Plan::default(),
            stats: CrowdStats::default(),
        }
    }

    /// Instances.
    #[must_use]
    pub fn len(&self) -> usize {
        self.centers.len()
    }

    /// True for no instances.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.centers.is_empty()
    }

    /// Bytes of state kept per instance between frames (layers, drivers, centre, culling and
    /// sharing bookkeeping; the model, the program and per-thread scratch are shared).
    #[must_use]
    pub fn bytes_per_instance(&self) -> usize {
        let store = if self.store.is_empty() { 0 } else { self.palette_len * size_of::<JointMatrix>() };
        self.layers_per * size_of::<Layer>()
            + self.drivers_per * size_of::<f32>()
            + size_of::<Vec3>()
            + size_of::<bool>()
            + size_of::<Key>()
            + store
    }

    /// How instances share palettes.
    #[must_use]
    pub fn sharing(&self) -> Sharing {
        self.sharing
    }

    /// Clip layers per instance.
    #[must_use]
    pub fn layer_count(&self) -> usize {
        self.layers_per
    }

    /// Runs evaluated in parallel (scratch kept for each).
    #[must_use]
    pub fn runs(&self) -> usize {
        self.scratches.len()
    }

    /// Adds an instance at `center`, scale 1, no layer playing, drivers 0; returns its index.
    pub fn push(&mut self, center: Vec3) -> usize {
        self.layers.extend(std::iter::repeat_n(Layer::NONE, self.layers_per));
        self.drivers.extend(std::iter::repeat_n(0.0, self.drivers_per));
        self.centers.push(center);
        self.scales.push(1.0);
        self.shown.push(false);
        self.keys.push(Key::default());
        self.levels.push(0);
        self.slots.push(0);
        self.mark_stale(self.len() - 1);
        self.len() - 1
    }

    /// Makes room in the per-frame buffers for every instance being visible, posed and
    /// distinct, so that a frame never allocates whatever the camera sees (only adding
    /// instances does). Call on emptied buffers.
    fn reserve(&mut self) {
        let n = self.centers.len();
        reserve_total(&mut self.visible, n);
        self.groups.reserve(n);
        reserve_total(&mut self.visible_levels, n);
        // Sifted in parts (on workers), at most `n / parts` in each.
        if self.parts.len() > 1 {
            let per = n.div_ceil(self.parts.len()).next_multiple_of(BLOCK);
            self.parts.iter_mut().for_each(|part| reserve_total(part, per));
        }
        reserve_total(&mut self.todo, n);
        reserve_total(&mut self.bases, n);
        reserve_total(&mut self.batches, n.div_ceil(4) + self.open.capacity());
        if self.sharing != Sharing::None {
            reserve_total(&mut self.unique_keys, n);
            reserve_total(&mut self.unique_layers, n * self.layers_per);
            reserve_total(&mut self.unique_drivers, n * self.drivers_per);
        }
    }

    /// Notes that the block of instance `i` needs its bounds again.
    fn mark_stale(&mut self, i: usize) {
        if let Some(block) = self.blocks.get_mut(i / BLOCK) {
            block.mark_stale();
        }
    }

    /// Removes the last instance.
    pub fn pop(&mut self) {
        let n = self.len().saturating_sub(1);
        self.layers.truncate(n * self.layers_per);
        self.drivers.truncate(n * self.drivers_per);
        self.centers.truncate(n);
        self.scales.truncate(n);
        self.shown.truncate(n);
        self.keys.truncate(n);
        self.levels.truncate(n);
        self.slots.truncate(n);
        self.store.truncate(n * self.palette_len);
        self.mark_stale(n);
    }

    /// Removes instance `i` in O(1), moving the last instance into its place (as
    /// `Vec::swap_remove`): its state, bound and last pose go with it, and its index becomes
    /// `i`. Returns `false` (and changes nothing) when there is no instance `i`.
    pub fn swap_remove(&mut self, i: usize) -> bool {
        let Some(last) = self.len().checked_sub(1).filter(|&last| i <= last) else { return false };
        if i != last {
            let (l, d, p) = (self.layers_per, self.drivers_per, self.palette_len);
            self.layers.copy_within(last * l..(last + 1) * l, i * l);
            self.drivers.copy_within(last * d..(last + 1) * d, i * d);
            self.centers[i] = self.centers[last];
            self.scales[i] = self.scales[last];
            self.shown[i] = self.shown[last];
            self.keys[i] = self.keys[last];
            self.levels[i] = self.levels[last];
            self.slots[i] = self.slots[last];
            if self.store.len() >= (last + 1) * p {
                self.store.copy_within(last * p..(last + 1) * p, i * p);
            }
            self.mark_stale(i);
        }
        self.pop();
        true
    }

    /// The layers of instance `i`.
    #[must_use]
    #[inline]
    pub fn layers(&self, i: usize) -> &[Layer] {
        &self.layers[i * self.layers_per..(i + 1) * self.layers_per]
    }

    /// The layers of instance `i`, to set.
    #[inline]
    pub fn layers_mut(&mut self, i: usize) -> &mut [Layer] {
        &mut self.layers[i * self.layers_per..(i + 1) * self.layers_per]
    }

    /// The driver values of instance `i`, radians.
    #[must_use]
    #[inline]
    pub fn drivers(&self, i: usize) -> &[f32] {
        &self.drivers[i * self.drivers_per..(i + 1) * self.drivers_per]
    }

    /// The driver values of instance `i`, to set.
    #[inline]
    pub fn drivers_mut(&mut self, i: usize) -> &mut [f32] {
        &mut self.drivers[i * self.drivers_per..(i + 1) * self.drivers_per]
    }

    /// Every instance's driver values back to back ([`Program::driver_count`] each), to set
    /// them all in one pass.
    #[inline]
    pub fn all_drivers_mut(&mut self) -> &mut [f32] {
        &mut self.drivers
    }

    /// Sets where instance `i` stands (the centre of its culling sphere, world space) and its
    /// scale: what the crowd's radius and its levels' errors are multiplied by for it (a
    /// placement's largest axis scale, when they are the model's own).
    #[inline]
    pub fn place(&mut self, i: usize, center: Vec3, scale: f32) {
        (self.centers[i], self.scales[i]) = (center, scale);
        self.mark_stale(i);
    }

    /// Instance `i`'s scale ([`Crowd::place`]).
    #[inline]
    #[must_use]
    pub fn scale(&self, i: usize) -> f32 {
        self.scales[i]
    }

    /// Sets the model's metres per unit (1 until set; a model made in centimetres, such as
    /// `Fox.glb`: 0.01). The view's update-rate bands and pose steps are in metres: each
    /// instance's are picked at its distance over its size against the model's real one
    /// (its scale over this), so a centimetre model placed at 0.01 is rated as a metre model
    /// placed at 1. Its levels of detail, whose errors are in the model's units, are picked at
    /// its distance over its scale.
    pub fn set_metres_per_unit(&mut self, metres_per_unit: f32) {
        self.metres_per_unit = if metres_per_unit.is_finite() && metres_per_unit > 0.0 { metres_per_unit } else { 1.0 };
    }

    /// The model's metres per unit ([`Crowd::set_metres_per_unit`]).
    #[inline]
    #[must_use]
    pub fn metres_per_unit(&self) -> f32 {
        self.metres_per_unit
    }

    /// Sets each level of detail's error, level 0's (0) first, for an instance at scale 1
    /// (in the units of the crowd's radius: the model's [`crate::Model::lod_errors`]), and its
    /// triangles ([`crate::Model::lod_triangles`]; a level without a count has no cap on
    /// them). A view's mesh LOD picks among these levels (one level: every instance at level
    /// 0).
    pub fn set_levels(&mut self, errors: &[f32], triangles: &[u32]) {
        self.level_errors.clear();
        self.level_errors.extend(errors.iter().take(usize::from(u8::MAX) + 1));
        self.level_triangles.clear();
        self.level_triangles.extend(triangles.iter().take(self.level_errors.len()));
        if self.level_errors.is_empty() {
            self.level_errors.push(0.0);
        }
        let last = (self.level_errors.len() - 1) as u8;
        self.levels.iter_mut().for_each(|level| *level = (*level).min(last));
    }

    /// The instances in view after the last [`Crowd::update`], with the offset of each one's
    /// palette in the buffer it was given, grouped by level of detail and material variant
    /// ([`Crowd::batches`]).
    pub fn visible(&self) -> impl ExactSizeIterator<Item = (usize, u32)> + '_ {
        self.visible_in(0..self.visible.len())
    }

    /// Those of [`Crowd::visible`] at positions `range` of its list (to extract in parts).
    pub fn visible_in(&self, range: Range<usize>) -> impl ExactSizeIterator<Item = (usize, u32)> + '_ {
        self.visible[range].iter().map(|&(i, base)| (i as usize, base))
    }

    /// Palette matrices the frame the last [`Crowd::plan`] planned writes.
    #[must_use]
    pub fn planned(&self) -> usize {
        self.plan.matrices
    }

    /// What the last [`Crowd::update`] (or [`Crowd::write`]) did.
    #[must_use]
    pub fn stats(&self) -> CrowdStats {
        self.stats
    }

    /// Poses the frame (see the module documentation): appends the palettes it writes to
    /// `palettes` (the buffer uploaded) and lists the visible instances. `view`: `None` sees
    /// and poses everything every frame; `frame` numbers frames, for update-rate LOD.
    /// [`Crowd::plan`] then [`Crowd::write`].
    pub fn update(
        &mut self,
        program: &Program,
        view: Option<&View>,
        frame: u64,
        workers: Option<&Workers>,
        palettes: &mut PaletteBuffer,
    ) -> CrowdStats {
        let matrices = self.plan(program, view, frame, workers);
        let start = palettes.len();
        self.write(program, workers, start, palettes.grow(matrices))
    }

    /// Steps (1) to (3) of a frame (see the module documentation): decides what is visible,
    /// due and evaluated, and returns how many palette matrices [`Crowd::write`] will write.
    /// Crowds plan independently: a scene plans all its crowds at once, then writes each into
    /// its part of one buffer.
    pub fn plan(&mut self, program: &Program, view: Option<&View>, frame: u64, workers: Option<&Workers>) -> usize {
        assert!(program.palette_len() == self.palette_len && program.driver_count() == self.drivers_per);
        self.visible.clear();
        self.visible_levels.clear();
        self.batches.clear();
        self.todo.clear();
        self.reserve();
        let lod = view.is_some_and(|v| v.lod.far_rate > 1 || v.lod.mid_rate > 1 || v.pressure > 0);
        // (1) visibility, then due-ness (and the due instances' keys).
        let quantization = match self.sharing {
            Sharing::None => None,
            Sharing::Exact => Some(None),
            Sharing::Quantized(q) => Some(Some(q)),
        };
        let keying = quantization.map(|quantization| Keying {
            program,
            quantization,
            layers: &self.layers,
            layers_per: self.layers_per,
            drivers: &self.drivers,
            drivers_per: self.drivers_per,
        });
        // Each visible instance's level of detail, where the view has mesh LOD.
        let detail = view.and_then(View::mesh_lod).filter(|_| self.level_errors.len() > 1);
        let detailed = detail.is_some();
        let detail = detail.map(|lod| lod.thresholds((&self.level_errors, &self.level_triangles), self.radius));
        let metres_per_unit = self.metres_per_unit;
        let sieve = Sieve { view, frame, lod, radius: self.radius, metres_per_unit, keying, detail };
        self.blocks.resize(self.centers.len().div_ceil(BLOCK), Block::STALE);
        let instances = Instances {
            centers: &self.centers,
            scales: &self.scales,
            shown: &mut self.shown,
            blocks: &mut self.blocks,
            keys: &mut self.keys,
            levels: &mut self.levels,
        };
        let mut deferred = 0;
        // (2) the states to evaluate, (3) in batches.
        let (todo, visible, visible_levels) = (&mut self.todo, &mut self.visible, &mut self.visible_levels);
        let uniform = match quantization {
            None => {
                sift(&sieve, instances, &mut self.parts, workers, |i, due, _, level| {
                    visible_levels.push(level);
                    if due {
                        todo.push(i);
                        visible.push((i, DUE));
                    } else {
                        visible.push((i, DEFERRED));
                        deferred += 1;
                    }
                });
                form_batches(todo, &self.layers, self.layers_per, &mut self.open, &mut self.batches)
            }
            Some(quantization) => {
                self.table.clear();
                self.unique_keys.clear();
                let (table, keys) = (&mut self.table, &mut self.unique_keys);
                sift(&sieve, instances, &mut self.parts, workers, |index, due, key, level| {
                    visible_levels.push(level);
                    deferred += usize::from(!due);
                    let unique = table.get_or_insert(key, || {
                        keys.push(*key);
                        (keys.len() - 1) as u32
                    });
                    visible.push((index, unique));
                });
                self.unique_layers.resize(self.unique_keys.len() * self.layers_per, Layer::NONE);
                self.unique_drivers.resize(self.unique_keys.len() * self.drivers_per, 0.0);
                for (u, key) in self.unique_keys.iter().enumerate() {
                    let layers = &mut self.unique_layers[u * self.layers_per..(u + 1) * self.layers_per];
                    let drivers = &mut self.unique_drivers[u * self.drivers_per..(u + 1) * self.drivers_per];
                    key.state(quantization.as_ref(), program, layers, drivers);
                }
                todo.extend(0..self.unique_keys.len() as u32);
                form_batches(todo, &self.unique_layers, self.layers_per, &mut self.open, &mut self.batches)
            }
        };
        let shared = self.sharing != Sharing::None;
        let stored = if shared { 0 } else { deferred };
        let matrices = (self.batches.len() * 4 + stored) * self.palette_len;
        self.plan = Plan { lod, uniform, deferred, detailed, matrices };
        matrices
    }

    /// Steps (4) and (5) of the frame the last [`Crowd::plan`] planned: evaluates into `out`
    /// (the matrices it said, which the buffer uploaded holds from matrix `start` on) and
    /// lists the visible instances with their palettes' offsets in that buffer.
    pub fn write(
        &mut self,
        program: &Program,
        workers: Option<&Workers>,
        start: usize,
        out: &mut [JointMatrix],
    ) -> CrowdStats {
        let Plan { lod, uniform, deferred, detailed, matrices } = self.plan;
        assert!(out.len() == matrices, "write what was planned");
        let p = self.palette_len;
        let evaluated_len = self.batches.len() * 4 * p;
        let shared = self.sharing != Sharing::None;
        let (layers, drivers) =
            if shared { (&self.unique_layers, &self.unique_drivers) } else { (&self.layers, &self.drivers) };
        let states = States { layers, drivers, layers_per: self.layers_per, drivers_per: self.drivers_per };
        evaluate(program, &states, &self.batches, &mut self.scratches, workers, &mut out[..evaluated_len]);
        let posed: usize = self.batches.iter().map(|b| usize::from(b.filled)).sum();
        // (5) where each visible instance's palette is: its state's (an instance's, or a
        // distinct key's); a deferred unshared instance's last palette is copied after the
        // evaluated ones, and an evaluated one's kept as its next last one.
        let evaluated = if shared { self.unique_keys.len() } else { self.centers.len() };
        // The palette of the `j`-th state of `todo`, in `out`.
        let at_of = |j: usize| j * p;
        if !uniform {
            self.bases.resize(evaluated, 0);
            for (b, batch) in self.batches.iter().enumerate() {
                for k in 0..usize::from(batch.filled) {
                    self.bases[batch.states[k] as usize] = at_of(4 * b + k) as u32;
                }
            }
        }
        if lod && !shared {
            self.store.resize(self.centers.len() * p, JointMatrix::IDENTITY);
        }
        // Unshared, due instances are `todo` in order; deferred ones' palettes follow.
        let (mut due, mut copied) = (0, evaluated_len);
        for entry in &mut self.visible {
            let i = entry.0 as usize;
            let at = match entry.1 {
                // Shared: the distinct keys are `todo` in order.
                unique if shared => {
                    if uniform {
                        at_of(unique as usize)
                    } else {
                        self.bases[unique as usize] as usize
                    }
                }
                DEFERRED => {
                    out[copied..copied + p].copy_from_slice(&self.store[i * p..(i + 1) * p]);
                    copied += p;
                    copied - p
                }
                _ => {
                    let at = if uniform { at_of(due) } else { self.bases[i] as usize };
                    due += 1;
                    if lod {
                        self.store[i * p..(i + 1) * p].copy_from_slice(&out[at..at + p]);
                    }
                    at
                }
            };
            entry.1 = (start + at) as u32;
        }
        let last_level = if detailed { self.level_errors.len() - 1 } else { 0 };
        self.groups.group(&mut self.visible, &self.visible_levels, &self.slots, last_level);
        self.stats = CrowdStats {
            instances: self.centers.len(),
            visible: self.visible.len(),
            deferred,
            posed,
            palettes: matrices / p.max(1),
        };
        self.stats
    }
}
