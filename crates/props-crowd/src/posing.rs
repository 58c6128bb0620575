//! [`Posing`]: a frame's poses for crowds of any models (a [`crate::CrowdSet`]'s, or every
//! kind's of a scene): each crowd plans its frame (what it sees, poses and shares), all at once
//! on the worker threads; then each writes its palettes into its own part of the frame's one
//! buffer, in order, the parts also at once; then extraction lists what was posed.
//! The buffer is laid out as if the crowds had been posed one after another, so results are
//! bitwise the same for any number of threads. Allocation-free once buffers have grown.

use props_anim::runtime::CrowdStats;
use props_anim::{
    JointMatrix,
    runtime::PaletteBuffer,
    runtime::Workers,
    runtime::{AnimationBudget, View},
};
use props_frame::{Camera, FrameData};

use crate::error::CrowdError;
use crate::extract;
use crate::model_crowd::{CrowdOptions, ModelCrowd};
use crate::posing_config::PosingConfig;

/// The target height mesh LOD assumes until told ([`Posing::set_view_height`]).
const DEFAULT_VIEW_HEIGHT: u32 = 1080;

/// Crowds posed side by side as one group (a scene's kind, or one crowd alone): groups plan
/// and write at the same time on the worker threads.
pub trait CrowdGroup: Send {
    /// Its crowds, in order.
    fn crowds(&self) -> &[ModelCrowd];
    /// Its crowds, to pose.
    fn crowds_mut(&mut self) -> &mut [ModelCrowd];
}

impl CrowdGroup for ModelCrowd {
    fn crowds(&self) -> &[ModelCrowd] {
        std::slice::from_ref(self)
    }

    fn crowds_mut(&mut self) -> &mut [ModelCrowd] {
        std::slice::from_mut(self)
    }
}

/// What the last [`Posing::animate`] did, over every model.
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
    /// Near visible props of models with held feet or spring bones, posed once more close up,
    /// each into a palette of its own: their feet held on the ground by IK
    /// ([`crate::ModelCrowd::set_feet`]) and their spring bones swung
    /// ([`props_anim::Model::springs`]). Not counted in `posed`; their palettes are counted in
    /// `palette_matrices`.
    pub close_ups: usize,
    /// How hard the CPU budget presses: far rates are stretched by `2^pressure`.
    pub pressure: u8,
}

impl AnimationStats {
    /// Adds one crowd's stats, of poses of `palette_len` matrices, `held` of them posed once
    /// more close up.
    fn add(&mut self, crowd: &CrowdStats, palette_len: usize, held: usize) {
        self.visible += crowd.visible;
        self.deferred += crowd.deferred;
        self.posed += crowd.posed;
        self.close_ups += held;
        self.joints_posed += crowd.posed * palette_len;
        self.palette_matrices += (crowd.palettes + held) * palette_len;
    }
}

/// How crowds are posed each frame, and the state that spans frames: the camera they are seen
/// from, the worker threads, the CPU budget, the frame count update-rate LOD staggers by, and
/// what the last frame did. A [`crate::CrowdSet`] has one; so has a scene, for all its kinds.
#[derive(Debug)]
pub struct Posing {
    config: PosingConfig,
    workers: Option<Workers>,
    /// Parallel runs each crowd poses in.
    runs: usize,
    camera: Option<Camera>,
    /// Pixels the camera's target is high, for mesh LOD.
    view_height: u32,
    budget: Option<AnimationBudget>,
    /// Frames posed so far (update-rate LOD staggers by it).
    frames: u64,
    /// Simulated seconds since the last frame ([`Posing::advance`]).
    elapsed: f32,
    stats: AnimationStats,
}

impl Posing {
    /// Posing as `config` says (checked first), its worker threads started.
    pub fn new(config: PosingConfig) -> Result<Self, CrowdError> {
        config.validate()?;
        let (workers, runs) = config.workers()?;
        Ok(Self {
            budget: config.animation_budget_ms.map(AnimationBudget::new),
            config,
            workers,
            runs,
            camera: None,
            view_height: DEFAULT_VIEW_HEIGHT,
            frames: 0,
            elapsed: 0.0,
            stats: AnimationStats::default(),
        })
    }

    /// The configuration it was made with.
    #[must_use]
    pub fn config(&self) -> &PosingConfig {
        &self.config
    }

    /// The worker threads (none for one thread), for other work of the frame.
    #[must_use]
    pub fn workers(&self) -> Option<&Workers> {
        self.workers.as_ref()
    }

    /// How every crowd it poses shares poses and splits its work ([`ModelCrowd::new`]).
    #[must_use]
    pub fn crowd_options(&self) -> CrowdOptions {
        CrowdOptions { sharing: self.config.sharing, runs: self.runs }
    }

    /// Sets the camera of the next frames: what is outside its view is not posed or drawn,
    /// and far props are posed less often ([`PosingConfig::lod`]). `None` (the default):
    /// every prop, every frame.
    pub fn set_camera(&mut self, camera: Option<Camera>) {
        self.camera = camera;
    }

    /// The camera of the next frames.
    #[must_use]
    pub fn camera(&self) -> Option<&Camera> {
        self.camera.as_ref()
    }

    /// Sets how many pixels high the camera's target is (1080 until set): mesh LOD keeps
    /// each prop's error within [`props_anim::runtime::MeshLod::max_error_px`] of them.
    pub fn set_view_height(&mut self, pixels: u32) {
        self.view_height = pixels.max(1);
    }

    /// `seconds` of simulated time have passed, for what moves by itself between frames: the
    /// spring bones (hair, tails) of near props swing through the time passed since the last
    /// [`Posing::animate`] (calls add up; at most a tenth of a second a frame is used; not
    /// finite or not positive: ignored). Without it no time passes for them: each keeps the
    /// shape it last had on the body. Near is within 50 world units of the camera and within
    /// [`crate::PosingConfig::lod`]'s nearest band at the prop's scale; farther, or without a
    /// camera, springs hang as the pose has them, and a prop coming near starts from there.
    pub fn advance(&mut self, seconds: f32) {
        if seconds.is_finite() && seconds > 0.0 {
            self.elapsed += seconds;
        }
    }

    /// What culling, update-rate LOD and mesh LOD measure from: the camera, with the
    /// budget's pressure and the target's height.
    #[must_use]
    pub fn view(&self) -> Option<View> {
        let pressure = self.budget.map_or(0, |b| b.pressure());
        let view = self.camera.map(|c| View::new(c.eye, c.view_projection, self.config.lod, pressure))?;
        Some(match self.config.mesh_lod {
            Some(mesh_lod) => view.with_mesh_lod(mesh_lod, self.view_height as f32),
            None => view,
        })
    }

    /// Poses every crowd of `groups` the camera may see into `frame.palettes`, sharing
    /// palettes as [`PosingConfig::sharing`] says, far ones every few frames
    /// ([`PosingConfig::lod`], stretched by the budget), on the worker threads. Then call
    /// [`Posing::extract`] with the same crowds and frame. Allocation-free once buffers have
    /// grown.
    pub fn animate<G: CrowdGroup>(&mut self, groups: &mut [G], frame: &mut FrameData) -> AnimationStats {
        self.frames += 1;
        let (view, number) = (self.view(), (self.frames, std::mem::take(&mut self.elapsed)));
        let (workers, palettes) = (self.workers.as_ref(), &mut frame.palettes);
        // One hand-over to the pool per frame: the parallel work inside stays on it.
        let mut stats = match workers {
            Some(pool) => pool.install(|| pose(groups, view.as_ref(), number, workers, palettes)),
            None => pose(groups, view.as_ref(), number, None, palettes),
        };
        stats.pressure = view.map_or(0, |v| v.pressure);
        self.stats = stats;
        stats
    }

    /// Appends what the last [`Posing::animate`] posed of `crowds` (the same crowds, in the
    /// same order) into `frame`: one batch per crowd and level of detail, and the lit lights
    /// near the camera.
    pub fn extract<'a, I>(&self, crowds: impl Fn() -> I + Sync, frame: &mut FrameData)
    where
        I: Iterator<Item = &'a ModelCrowd>,
    {
        extract::extract(crowds, self.workers.as_ref(), self.camera.map(|c| c.eye), frame);
    }

    /// Takes how long the last [`Posing::animate`] took, for the CPU budget
    /// ([`PosingConfig::animation_budget_ms`]; nothing without one).
    pub fn record_animation_time(&mut self, milliseconds: f32) {
        if let Some(budget) = &mut self.budget {
            budget.record(milliseconds);
        }
    }

    /// What the last [`Posing::animate`] did.
    #[must_use]
    pub fn stats(&self) -> AnimationStats {
        self.stats
    }
}

/// Palette matrices the groups' crowds planned.
fn planned<G: CrowdGroup>(groups: &[G]) -> usize {
    groups.iter().flat_map(G::crowds).map(ModelCrowd::planned).sum()
}

/// Writes the planned palettes of `groups` into `out` (theirs back to back, in order), which
/// the frame's buffer holds from matrix `start` on: halves of the groups at once.
fn write<G: CrowdGroup>(groups: &mut [G], start: usize, out: &mut [JointMatrix], workers: Option<&Workers>) {
    if let [one] = groups {
        let mut at = 0;
        for crowd in one.crowds_mut() {
            let len = crowd.planned();
            crowd.write(workers, start + at, &mut out[at..at + len]);
            at += len;
        }
        return;
    }
    let (first, second) = groups.split_at_mut(groups.len() / 2);
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

/// Poses every crowd of `groups` seen from `view` (everything without one) for frame number
/// `frame.0`, `frame.1` seconds after the last, appending their palettes to `palettes` (see the
/// module documentation).
fn pose<G: CrowdGroup>(
    groups: &mut [G],
    view: Option<&View>,
    frame: (u64, f32),
    workers: Option<&Workers>,
    palettes: &mut PaletteBuffer,
) -> AnimationStats {
    let plan = |group: &mut G| {
        for crowd in group.crowds_mut() {
            crowd.plan(view, frame, workers);
        }
    };
    match workers {
        Some(pool) => pool.for_each_mut(groups, plan),
        None => groups.iter_mut().for_each(plan),
    }
    let start = palettes.len();
    let out = palettes.grow(planned(groups));
    write(groups, start, out, workers);
    let mut stats = AnimationStats::default();
    for crowd in groups.iter().flat_map(G::crowds) {
        stats.add(&crowd.parts().2.stats(), crowd.palette_len(), crowd.close_ups());
    }
    stats
}
