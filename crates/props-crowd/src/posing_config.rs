//! [`PosingConfig`]: how crowds are posed each frame (pose sharing, update-rate LOD, mesh LOD,
//! the CPU budget, worker threads), checked once, when crowds are made.

use props_anim::{runtime::MeshLod, runtime::Quantization, runtime::UpdateRateLod, runtime::Workers};

use crate::error::CrowdError;

/// Most worker threads posing props.
pub const MAX_THREADS: usize = 256;

/// Parallel runs per worker thread (several, so that uneven runs even out).
const RUNS_PER_THREAD: usize = 4;

/// How props are posed each frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PosingConfig {
    /// Pose sharing: props whose animation states are equal once quantized by these steps
    /// share one palette, posed once per frame (a model whose states are discrete, a traffic
    /// light's, shares equal states exactly); see `props_anim::runtime::Sharing` for the error bound (a
    /// one-degree angle step moves a point at most `r * 0.0087` from where its exact pose puts
    /// it, `r` its distance from the axis). `None`: every prop is posed for itself, exactly.
    pub sharing: Option<Quantization>,
    /// Update-rate LOD by distance from the camera over each prop's scale; without a camera
    /// every prop is posed every frame. `UpdateRateLod::OFF` turns it off.
    pub lod: UpdateRateLod,
    /// Mesh LOD: each prop drawn at the coarsest of its model's levels of detail whose error
    /// spans at most a pixel or so from the camera (with hysteresis). `None`: every prop in
    /// full detail.
    pub mesh_lod: Option<MeshLod>,
    /// CPU budget of posing, milliseconds per frame: while posing takes longer (as the caller
    /// reports it), far props are posed less often, never near ones. `None`: no budget.
    pub animation_budget_ms: Option<f32>,
    /// Threads posing props (1 to [`MAX_THREADS`]; 0: one per core). Results are bitwise the
    /// same for any number.
    pub threads: usize,
}

impl Default for PosingConfig {
    fn default() -> Self {
        Self {
            sharing: Some(Quantization::default()),
            lod: UpdateRateLod::default(),
            mesh_lod: Some(MeshLod::default()),
            animation_budget_ms: None,
            threads: 1,
        }
    }
}

impl PosingConfig {
    /// Checks every value's range.
    pub fn validate(&self) -> Result<(), CrowdError> {
        let invalid = |field, reason: &str| Err(CrowdError::InvalidConfig { field, reason: reason.to_owned() });
        let positive = |x: f32| x.is_finite() && x > 0.0;
        if self.threads > MAX_THREADS {
            return invalid("threads", "must be at most 256 (0: one per core)");
        }
        if let Some(q) = self.sharing
            && !(positive(q.time)
                && positive(q.weight)
                && (1e-4..=std::f32::consts::PI).contains(&q.angle)
                && q.coarsen_beyond > 0.0)
        {
            return invalid(
                "sharing",
                "steps must be positive and finite, the angle 0.0001 to pi radians, coarsen_beyond positive",
            );
        }
        let lod = &self.lod;
        if lod.near.is_nan() || lod.far.is_nan() || lod.near < 0.0 || lod.far < lod.near {
            return invalid("lod", "distances must satisfy 0 <= near <= far");
        }
        if let Some(mesh) = self.mesh_lod
            && !(positive(mesh.max_error_px)
                && (0.0..=1.0).contains(&mesh.hysteresis)
                && mesh.smallest_px >= 0.0
                && (0.0..f32::INFINITY).contains(&mesh.min_view_px))
        {
            return invalid(
                "mesh_lod",
                "the pixel error must be positive and finite, the hysteresis 0 to 1, the smallest size and the \
                 least view height at least 0 and finite",
            );
        }
        if self.animation_budget_ms.is_some_and(|ms| !(positive(ms) && ms <= 1000.0)) {
            return invalid("animation_budget_ms", "must be a positive number of milliseconds, at most 1000");
        }
        Ok(())
    }

    /// The worker threads it asks for (none for one thread), and the parallel runs each crowd
    /// poses in.
    pub(crate) fn workers(&self) -> Result<(Option<Workers>, usize), CrowdError> {
        let threads = match self.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        if threads == 1 {
            return Ok((None, 1));
        }
        let workers = Workers::new(threads).map_err(|e| CrowdError::Workers(e.to_string()))?;
        Ok((Some(workers), threads * RUNS_PER_THREAD))
    }
}
