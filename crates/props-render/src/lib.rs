//! GPU-skinning renderer on wgpu: thousands of animated props for the price of one palette
//! upload and one instanced draw per mesh primitive.
//!
//! Takes plain data: `props_anim::Model` meshes once ([`Renderer::set_model`]), then per
//! frame a [`Frame`] (from `props-frame`): every instance's palette back to back (3x4 rows, as
//! `props_anim::Model::write_palettes` packs them), every instance (transform + palette base)
//! and which instances belong to which model. Knows nothing of ECS, glTF, files or windows.
//!
//! Palettes are read from a storage buffer in the vertex stage, or, on adapters that cannot
//! (WebGL2 class), from an RGBA32F texture; frames larger than one binding are drawn in
//! several windows. The frame's point and spot lights are shaded clustered (at most
//! [`MAX_LIGHTS`], the nearest win), and the sun casts shadows from three cascaded maps
//! fitted to the view (`RendererConfig::shadows`).

mod admission;
mod blend_order;
mod context;
pub mod conventions;
mod debug_lines;
mod globals;
mod gpu_model;
mod growable_buffer;
mod influence_heat;
mod light_clusters;
mod materials;
mod offscreen;
mod palette_store;
mod palette_windows;
mod pipelines;
mod renderer;
mod renderer_config;
pub mod shaders;
mod shadows;
mod sky;
mod still;
mod texture;
mod vertex_tables;

pub use admission::{GpuFootprint, ModelRefused};
pub use context::{ContextError, GpuContext, PaletteMode, preferred_palette_access};
pub use debug_lines::{box_lines, skeleton_lines, world_axes};
pub use influence_heat::{heat, influence_heat_map};
pub use light_clusters::MAX_LIGHTS;
pub use offscreen::{OFFSCREEN_FORMAT, OffscreenTarget, ReadbackError, read_texture_rgba8};
pub use pipelines::Shading;
pub use props_frame::{Camera, DebugLine, Frame, FrameData, InstanceData, Light, ModelBatch, ModelId, NO_TINT, SKY};
pub use renderer::{FrameStats, Renderer, RendererConfig};
pub use shaders::PaletteAccess;
pub use sky::Sky;
pub use still::{StillError, StillRenderer, framing_camera};
