//! How a [`crate::Renderer`] is set up, and what a frame cost.

use crate::PaletteMode;
use crate::sky::Sky;

/// How the renderer is set up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RendererConfig {
    /// Format of the colour targets it will draw into.
    pub color_format: wgpu::TextureFormat,
    /// Format of the depth buffer of the passes it draws into (a host's own).
    pub depth_format: wgpu::TextureFormat,
    /// How depth is tested: `Less` (the default) for depth cleared to 1, `Greater` for a
    /// host's reversed depth cleared to 0 (its projection must match). Either way the
    /// projection needs a finite far plane: the shadow cascades are fitted between the view's
    /// near and far planes, so an infinite far plane is not supported.
    pub depth_compare: wgpu::CompareFunction,
    /// Samples per pixel of the passes it draws into: 4 (the default) or 1. Where the adapter
    /// cannot multisample the colour and depth formats 4x, the renderer uses 1: a host whose
    /// pass is multisampled checks [`crate::Renderer::sample_count`].
    pub sample_count: u32,
    /// Palette binding: decided from the adapter, or forced.
    pub palette: PaletteMode,
    /// Largest palette binding, in bytes; `None` = the device's limit. Lower it to exercise
    /// the window splitting that very large frames need.
    pub max_palette_binding_bytes: Option<u64>,
    /// Skin meshes (the default). `false` draws every mesh in its bind pose without reading
    /// palettes: a debug view, and the baseline skinning is benchmarked against.
    pub skinning: bool,
    /// Upload KTX2 textures' own levels in a GPU block format (BC7, ASTC 4x4, ETC2) where the
    /// device takes one (the default); `false` uploads them as RGBA8, as other images.
    pub block_compression: bool,
    /// How meshes are shaded: glTF's material model (the default), or the Lambert baseline.
    pub shading: Shading,
    /// The sky whose light [`props_frame::Lighting::sky`] adds.
    pub sky: Sky,
    /// The sun casts shadows (the default): three cascaded shadow maps fitted to the view out
    /// to 640 m, each drawn by a depth-only pass of every opaque draw.
    pub shadows: bool,
    /// Widen a curved surface's specular lobe by how far its normal turns between pixels (the
    /// default), as three.js and Filament do: a shiny prop a few pixels across shows the mean
    /// of its highlights, not one that crawls from pixel to pixel. `false` shades glTF's BRDF
    /// as written, as Khronos's sample viewer does.
    pub specular_antialiasing: bool,
    /// Time each pass on the GPU ([`FrameStats::pass_times`]) where the device has timestamp
    /// queries (`wgpu::Features::TIMESTAMP_QUERY`, which [`crate::GpuContext`] asks for). Off
    /// by default: a host turning it on submits each frame's encoder before the next frame's
    /// [`crate::Renderer::prepare`].
    pub pass_timing: bool,
}

impl RendererConfig {
    /// Defaults for a target of `color_format`: a `Depth32Float` depth buffer cleared to 1,
    /// 4x MSAA, palette binding from the adapter, shadows and specular anti-aliasing on.
    #[must_use]
    pub fn new(color_format: wgpu::TextureFormat) -> Self {
        Self {
            color_format,
            depth_format: wgpu::TextureFormat::Depth32Float,
            depth_compare: wgpu::CompareFunction::Less,
            sample_count: 4,
            palette: PaletteMode::Auto,
            max_palette_binding_bytes: None,
            skinning: true,
            block_compression: true,
            shading: Shading::Pbr,
            sky: Sky::default(),
            shadows: true,
            specular_antialiasing: true,
            pass_timing: false,
        }
    }
}

/// How meshes are shaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shading {
    /// glTF's material model (the default).
    #[default]
    Pbr,
    /// The base colour under Lambert's law, both faces lit alike, each material culled and
    /// blended as it says: the floor's fragment work on the renderer's own vertex path, what
    /// `cargo xtask bench render` tells the vertex path's cost from the material model's by.
    Lambert,
}

/// What a frame cost, for HUDs and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameStats {
    /// Draw calls issued (skinned draws plus one for debug lines, if any).
    pub draw_calls: u32,
    /// Instances drawn.
    pub instances: u32,
    /// Instances skipped (their palette does not fit any binding window, or the model is gone).
    pub skipped_instances: u32,
    /// Palette bytes uploaded.
    pub palette_bytes: u64,
    /// Instance bytes uploaded (with the nearer shadow cascades' casters).
    pub instance_bytes: u64,
    /// Palette windows bound.
    pub palette_windows: u32,
    /// Point and spot lights shaded (at most [`crate::MAX_LIGHTS`]).
    pub lights: u32,
    /// Lighting and light cluster bytes uploaded.
    pub light_bytes: u64,
    /// Draw calls of the shadow passes, all cascades (0 without shadows, or with the sun
    /// down).
    pub shadow_draw_calls: u32,
    /// What the main pass draws (debug lines aside).
    pub main_pass: PassCount,
    /// What each shadow cascade's pass draws, nearest first.
    pub shadow_passes: [PassCount; crate::shadows::CASCADES],
    /// GPU time of each pass of a frame a few frames back (the latest read), where
    /// [`RendererConfig::pass_timing`] times them.
    pub pass_times: Option<crate::PassTimes>,
}

impl FrameStats {
    /// What every pass draws together: the main pass and the shadow passes.
    #[must_use]
    pub fn all_passes(&self) -> PassCount {
        self.shadow_passes.iter().fold(self.main_pass, |sum, pass| sum + *pass)
    }
}

/// Triangles and vertices one pass submits: each draw's at the level of detail it is drawn
/// at, times its instances. Vertices are the distinct vertices its indices reference (what
/// the vertex shader runs on, at best).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassCount {
    /// Triangles submitted.
    pub triangles: u64,
    /// Vertices submitted.
    pub vertices: u64,
}

impl std::ops::Add for PassCount {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        Self { triangles: self.triangles + other.triangles, vertices: self.vertices + other.vertices }
    }
}

impl std::ops::AddAssign for PassCount {
    fn add_assign(&mut self, other: Self) {
        *self = *self + other;
    }
}
