//! GPU-skinning renderer on wgpu: thousands of animated props for the price of one palette
//! upload and one instanced draw per mesh primitive.
//!
//! Takes plain data: `props_anim::Model` meshes once ([`Renderer::set_model`]), then per
//! frame a [`props_frame::Frame`]: every instance's palette back to back (3x4 rows, as
//! `props_anim::Model::write_palettes` packs them), every instance (transform, palette base
//! and what may be skipped, such as morphing at rest) and which instances belong to which
//! model. Knows nothing of ECS, glTF, files or windows.
//!
//! It draws into the host's own pass, with the host's depth (`examples/embed.rs` in the
//! repository runs this, and its test checks the host's wall hides a prop behind it):
//!
//! ```no_run
//! # fn host(adapter: &wgpu::Adapter, device: &wgpu::Device, queue: &wgpu::Queue, model: &props_anim::Model,
//! #     frame: &props_frame::Frame<'_>, color: &wgpu::TextureView, depth: &wgpu::TextureView)
//! #     -> Result<(), props_render::ModelRefused> {
//! use props_frame::ModelId;
//! use props_render::{Renderer, RendererConfig};
//!
//! // Once: the host's formats and sample count; each model under an id.
//! let config = RendererConfig {
//!     depth_format: wgpu::TextureFormat::Depth32Float,
//!     sample_count: 1,
//!     ..RendererConfig::new(wgpu::TextureFormat::Rgba8UnormSrgb)
//! };
//! let mut props = Renderer::new(adapter, device, queue, config);
//! props.set_model(ModelId(0), model)?;
//!
//! // Each frame: upload (and record the shadow passes), then draw into the host's pass.
//! let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
//! props.prepare(&mut encoder, frame, (1280, 720));
//! let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
//!     color_attachments: &[Some(wgpu::RenderPassColorAttachment {
//!         view: color,
//!         depth_slice: None,
//!         resolve_target: None,
//!         ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
//!     })],
//!     depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
//!         view: depth,
//!         depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
//!         stencil_ops: None,
//!     }),
//!     ..Default::default()
//! });
//! // ... the host's own draws ...
//! props.render(&mut pass);
//! drop(pass);
//! queue.submit([encoder.finish()]);
//! # Ok(()) }
//! ```
//!
//! A model that arrives while the game runs (a mod, a streamed district) uploads on another
//! thread: [`Renderer::uploader`] hands out a [`ModelUploader`], whose
//! [`ModelUploader::upload`] makes its buffers, textures and the pipelines its draws take,
//! and [`Renderer::put_model`] then puts it under an id between two frames at no cost.
//!
//! Palettes are read from a storage buffer in the vertex stage, or, on adapters that cannot
//! (WebGL2 class), from an RGBA32F texture; frames larger than one binding are drawn in
//! several windows. Both are tested on Vulkan and on wgpu's OpenGL backend, whose 16 textures
//! hold a pipeline's in every stage: there a material beside palette textures binds nine
//! texture slots. Morph targets apply before skinning, in the vertex shader; KTX2 textures
//! upload in the device's block format. The renderer uses what the host's device has of
//! these features: a host requests [`optional_features`] of its adapter's (the texture block
//! formats, `TIMESTAMP_QUERY` for pass times and `DUAL_SOURCE_BLENDING` for tinted glass).
//!
//! # Shading
//!
//! glTF's material model (`shaders/shading.wgsl`): metallic-roughness PBR with IOR, specular,
//! transmission (thin-walled, or coloured by its volume's depth), a clear coat, a fabric's
//! sheen, brushed metal's anisotropy, a thin film's iridescence and a rough diffuse, eighteen
//! texture slots (base colour, metallic-roughness, normal, occlusion, emissive, specular
//! strength, specular colour, transmission, sheen colour, sheen roughness, anisotropy; the clear
//! coat's factor, roughness and normal map, the film's factor and thickness, the volume's
//! thickness, the diffuse roughness) with their samplers, UV channels and transforms, alpha
//! modes, double-sided and unlit materials; each material is one uniform and one bind group.
//! Points and lines are drawn a pixel wide, unlit in their material's base colour, texture,
//! alpha and vertex colours, as three.js draws them; they cast no shadow.
//! The last seven slots are bound where the device's limits have room for their textures
//! beside the frame's (more than wgpu's default 16 sampled textures a fragment stage: a host
//! requests its adapter's limits); elsewhere they are not drawn, with a warning. Where the
//! textures fit and their samplers do not (Metal allows 16 samplers a stage), the last slots
//! share one sampler, the first they fill's ([`shaders::SlotBindings`]). See-through
//! materials (blended, transmissive) are drawn after the opaque ones, farthest first, over what
//! the host's pass holds. The light:
//!
//! - the sun, shadowed by three cascaded shadow maps fitted to the view out to 640 m
//!   (`RendererConfig::shadows`): depth-only passes through the same vertex shader, so skinned
//!   props cast posed shadows; a host's own shader reads the same sun and maps
//!   ([`Renderer::sun_bind_group`], [`shaders::sun`]), and by the host's ground, a height
//!   field whose hills shadow everything at one lookup a pixel ([`Renderer::set_ground_shadow`]);
//! - the frame's point and spot lights, clustered forward: at most [`MAX_LIGHTS`], the
//!   nearest win and the rest fade;
//! - an ambient term and a procedural sky's image-based light ([`Sky`]).
//!
//! What the specular lobe reflects of light from every direction (its directional albedo,
//! integrated for glTF's BRDF once a process and read from a 16 KiB uniform) scales the sky's
//! specular, the diffuse layer's share under it, and the energy single scattering loses,
//! given back, as three.js and Filament share them. As theirs, a curved surface's lobe is
//! widened by how far its normal turns between pixels, which keeps a small shiny highlight
//! from crawling between pixels ([`RendererConfig::specular_antialiasing`]).
//!
//! Opaque draws go first, then blended ones back to front. [`conventions`] defines the
//! reference render that `cargo xtask render` and the three.js references share.
//!
//! # What a frame costs
//!
//! [`Renderer::prepare`] returns [`FrameStats`]: draw calls, bytes uploaded, and the triangles
//! and vertices each pass submits. With [`RendererConfig::pass_timing`] it also carries each
//! pass's GPU time ([`PassTimes`], from timestamp queries where the device has them), read
//! back a few frames late without waiting; a host that begins its own pass puts
//! [`Renderer::main_pass_timestamps`] in it and calls [`Renderer::resolve_pass_times`] once
//! it has ended.

mod admission;
mod blend_order;
mod context;
pub mod conventions;
mod debug_lines;
mod draw_lists;
mod draw_merge;
mod drawn;
mod entry_points;
mod facets;
mod frame_groups;
mod ggx;
mod globals;
mod gpu_model;
mod ground_shadow;
mod growable_buffer;
mod host_sun;
mod influence_heat;
mod light_clusters;
mod materials;
mod mesh_pipelines;
mod mipmaps;
mod offscreen;
mod palette_store;
mod palette_windows;
mod pass_timer;
mod pipeline_factory;
mod pipeline_key;
mod pipelines;
mod renderer;
mod renderer_config;
pub mod shaders;
mod shadow_casters;
mod shadow_footprint;
mod shadows;
mod sky;
mod slot_bindings;
mod standalone;
mod still;
mod texture;
mod uploader;
mod vertex_tables;

pub use admission::{GpuFootprint, ModelRefused};
pub use context::{ContextError, DeviceHealth, GpuContext, PaletteMode, optional_features, preferred_palette_access};
pub use debug_lines::{box_lines, skeleton_lines, world_axes};
pub use ground_shadow::GroundShadowError;
pub use influence_heat::{heat, influence_heat_map};
pub use light_clusters::MAX_LIGHTS;
pub use offscreen::{OFFSCREEN_FORMAT, OffscreenTarget, ReadbackError, read_texture_rgba8};
pub use pass_timer::PassTimes;
pub use renderer::Renderer;
pub use renderer_config::{FrameStats, PassCount, RendererConfig, Shading};
pub use sky::Sky;
pub use standalone::{Clear, StandalonePass};
pub use still::{StillError, StillRenderer, framing_camera};
pub use uploader::{ModelUploader, UploadedModel};
