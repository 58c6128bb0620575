//! The renderer: models on the GPU, each frame's uploads (globals, palettes, instances,
//! windows, lines) and its draws: every opaque draw, then the blended ones back to front
//! (`blend_order.rs`). Pipelines are in `pipelines.rs`, the palette store in
//! `palette_store.rs`, materials in `materials.rs`, the sky's light in `sky.rs`, the
//! configuration in `renderer_config.rs`, the frame's bind groups in `frame_groups.rs`, the
//! ground's shadow in `ground_shadow.rs`.

use std::ops::Range;

use glam::Vec3;
use props_anim::Model;

use crate::admission::{GpuFootprint, ModelRefused};
use crate::blend_order;
use crate::context::{PaletteMode, preferred_palette_access};
use crate::draw_lists::{DrawItem, Posing};
use crate::frame_groups::{FrameGroups, FrameResources};
use crate::globals::Globals;
use crate::gpu_model::{GpuModel, ModelLayouts, slots};
use crate::ground_shadow::{GroundShadow, GroundShadowError};
use crate::growable_buffer::GrowableBuffer;
use crate::host_sun::HostSun;
use crate::light_clusters::LightClusters;
use crate::materials::{Defaults, Samplers};
use crate::mesh_pipelines::{self, MeshPipelines};
use crate::mipmaps::Mipmaps;
use crate::palette_store::{MATRIX_BYTES, PaletteStore};
use crate::palette_windows::{self, Run, Windows};
use crate::pass_timer::PassTimer;
use crate::pipelines::{Layouts, LineVertex, Pipelines, supports_samples};
use crate::renderer_config::{FrameStats, RendererConfig};
use crate::shaders::{PALETTE_TEXTURE_WIDTH, PaletteAccess};
use crate::shadow_casters::ShadowCasters;
use crate::shadows::{self, CASCADES, Cascade, ShadowMap};
use crate::sky::SkyLight;
use crate::texture;
use crate::uploader::ModelUploader;
use props_frame::{DebugLine, Frame, HeightField, ModelId};

mod mirrored;
mod model_slots;
mod shadow_passes;

/// Draws `draw` of `model` at level of detail `level` for `instances` (of the bound instance
/// buffer) with the pipeline bound: its draw uniform, its material, its indices. Nothing is drawn where the level leaves the primitive out. Returns whether it drew.
fn draw_item(
    pass: &mut wgpu::RenderPass<'_>,
    model: &GpuModel,
    (draw, level): (&DrawItem, u8),
    instances: Range<u32>,
) -> bool {
    let indices = draw.indices(level);
    if indices.is_empty() {
        return false;
    }
    pass.set_bind_group(1, &model.draw_group, &[draw.params_offset]);
    pass.set_bind_group(2, &model.materials[draw.material], &[]);
    pass.draw_indexed(indices, draw.base_vertex, instances);
    true
}

/// Draws instanced, GPU-skinned models. Uploads every frame's palettes with one write and its
/// instances with one write, then issues one instanced draw per mesh primitive per palette
/// window (one window unless a frame's palettes exceed the largest binding).
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    access: PaletteAccess,
    max_window_matrices: u32,
    window_stride: u32,
    globals: wgpu::Buffer,
    /// The globals of each cascade's shadow pass: the sun's view-projection onto its map in
    /// place of the camera's.
    shadow_globals: [wgpu::Buffer; CASCADES],
    frame_layout: wgpu::BindGroupLayout,
    /// The group-0 bind groups of the main pass and the shadow passes, and the generations of
    /// the buffers they were made with.
    frame_groups: Option<([u64; 4], FrameGroups)>,
    lines_group: wgpu::BindGroup,
    /// Uploads its models (on any thread), into its slots and its mesh pipelines.
    uploader: ModelUploader,
    pipelines: Pipelines,
    palette: PaletteStore,
    windows: GrowableBuffer,
    instances: GrowableBuffer,
    line_vertices: GrowableBuffer,
    line_scratch: Vec<LineVertex>,
    window_scratch: Vec<u8>,
    /// This frame's runs, each of one model's instances at one level of detail within one
    /// palette window.
    runs: Vec<(ModelId, Run)>,
    run_scratch: Vec<Run>,
    /// Runs with blended draws, farthest first, and one run's blended draws, farthest first.
    blend_order: Vec<(f32, usize)>,
    draw_order: Vec<(f32, usize)>,
    /// This frame's blended draws in the order they are drawn: (run, draw of its model).
    blended: Vec<(usize, usize)>,
    /// This frame's debug lines.
    line_count: u32,
    /// Whether this frame has point and spot lights: its draws take the pipelines that shade
    /// them ([`Pipelines::mesh`]).
    lit: bool,
    models: Vec<Option<(GpuModel, GpuFootprint)>>,
    /// The ids whose models cast no shadow ([`Renderer::set_casts_shadows`]).
    shadowless: Vec<ModelId>,
    sky: SkyLight,
    lights: LightClusters,
    shadows: ShadowMap,
    ground: GroundShadow,
    /// The sun and the shadow maps for a host's own shader.
    host_sun: HostSun,
    /// This frame's shadow cascades, when the sun casts shadows, and the casters of the
    /// nearer ones.
    cascades: Option<[Cascade; CASCADES]>,
    casters: ShadowCasters,
    /// Timestamps around each pass, when the config asks and the device has them.
    timer: Option<PassTimer>,
    config: RendererConfig,
}

impl Renderer {
    /// Creates pipelines and buffers for drawing into targets of `config.color_format`.
    #[must_use]
    pub fn new(adapter: &wgpu::Adapter, device: &wgpu::Device, queue: &wgpu::Queue, config: RendererConfig) -> Self {
        let access = match config.palette {
            PaletteMode::Auto => preferred_palette_access(adapter, device),
            PaletteMode::Force(access) => access,
        };
        let sample_count = if config.sample_count > 1 && !supports_samples(adapter, &config) {
            tracing::warn!(
                config.sample_count,
                "the adapter cannot multisample these formats: drawing 1 sample per pixel"
            );
            1
        } else {
            config.sample_count
        };
        let config = RendererConfig { sample_count, ..config };
        let limits = device.limits();
        let max_binding = config
            .max_palette_binding_bytes
            .unwrap_or(limits.max_storage_buffer_binding_size)
            .min(limits.max_storage_buffer_binding_size);
        let max_window_matrices = match access {
            PaletteAccess::StorageBuffer => (max_binding / MATRIX_BYTES) as u32,
            PaletteAccess::Texture => (PALETTE_TEXTURE_WIDTH / 3) * limits.max_texture_dimension_2d,
        };
        tracing::info!(?access, sample_count, max_window_matrices, "renderer configured");
        let window_stride = limits.min_uniform_buffer_offset_alignment;

        let layouts = Layouts::new(device, access);
        let pipelines = Pipelines::new(device, &layouts, access, &config);
        let globals_buffer = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size_of::<Globals>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let (globals, shadow_globals) =
            (globals_buffer("globals"), std::array::from_fn(|_| globals_buffer("shadow globals")));
        let lines_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("lines globals"),
            layout: &layouts.globals,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
        });
        let shadows = ShadowMap::new(device, config.shadows);
        let ground = GroundShadow::new(device);
        let host_sun = HostSun::new(device, &globals, &shadows, &ground);
        let mut samplers = Samplers::default();
        let defaults = Defaults {
            white_srgb: texture::white(device, queue, true),
            white_linear: texture::white(device, queue, false),
            sampler: samplers.get(device, props_anim::material::Sampler::default()),
        };
        let Layouts { frame: frame_layout, draw, material, slots, .. } = layouts;
        let compression = if config.block_compression { device.features() } else { wgpu::Features::empty() };
        let layouts = ModelLayouts {
            draw,
            material,
            slots,
            defaults,
            draw_stride: limits.min_uniform_buffer_offset_alignment,
            tables: access,
            block_formats: texture::block_features(compression),
            mipmaps: Mipmaps::new(device),
        };
        let uploader = ModelUploader::new(
            (device, queue),
            (access, max_window_matrices),
            (layouts, samplers),
            pipelines.meshes.clone(),
        );
        Self {
            device: device.clone(),
            queue: queue.clone(),
            access,
            max_window_matrices,
            window_stride,
            globals,
            shadow_globals,
            frame_layout,
            frame_groups: None,
            lines_group,
            uploader,
            pipelines,
            palette: PaletteStore::new(device, access),
            windows: GrowableBuffer::new(device, "palette windows", wgpu::BufferUsages::UNIFORM),
            instances: GrowableBuffer::new(device, "instances", wgpu::BufferUsages::VERTEX),
            line_vertices: GrowableBuffer::new(device, "debug lines", wgpu::BufferUsages::VERTEX),
            line_scratch: Vec::new(),
            window_scratch: Vec::new(),
            runs: Vec::new(),
            run_scratch: Vec::new(),
            blend_order: Vec::new(),
            draw_order: Vec::new(),
            blended: Vec::new(),
            line_count: 0,
            lit: false,
            models: Vec::new(),
            shadowless: Vec::new(),
            sky: SkyLight::new(device, queue, &config.sky),
            lights: LightClusters::new(device),
            host_sun,
            shadows,
            ground,
            cascades: None,
            casters: ShadowCasters::new(device),
            timer: if config.pass_timing { PassTimer::new(device, queue) } else { None },
            config,
        }
    }

    /// The bind group a host's own shader reads the sun, the ambient light and the props'
    /// shadow maps from ([`crate::shaders::sun`]), as [`Renderer::prepare`] left them for
    /// this frame: the host's terrain lit like the props and darkened by their shadows.
    #[must_use]
    pub fn sun_bind_group(&self) -> &wgpu::BindGroup {
        &self.host_sun.group
    }

    /// The layout of [`Renderer::sun_bind_group`], for the host's pipeline layout.
    #[must_use]
    pub fn sun_bind_group_layout(&self) -> &wgpu::BindGroupLayout {
        &self.host_sun.layout
    }

    /// How palettes are read on this adapter (or as forced by the config).
    #[must_use]
    pub fn palette_access(&self) -> PaletteAccess {
        self.access
    }

    /// The configuration in use: as given, but for a sample count the adapter cannot take.
    #[must_use]
    pub fn config(&self) -> &RendererConfig {
        &self.config
    }

    /// The device it draws with.
    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// Samples per pixel of the passes it draws into (1 or 4).
    #[must_use]
    pub fn sample_count(&self) -> u32 {
        self.config.sample_count
    }

    /// What `model` would take on this device, or why the device cannot take it (checked
    /// against its limits: texture sizes, buffer sizes, the palette binding); uploads nothing.
    pub fn footprint(&self, model: &Model) -> Result<GpuFootprint, ModelRefused> {
        self.uploader.footprint(model)
    }

    /// What uploads models for this renderer on another thread (a host's loading thread), to
    /// be put under an id here ([`Renderer::put_model`]) without a hitch in the frames.
    #[must_use]
    pub fn uploader(&self) -> ModelUploader {
        self.uploader.clone()
    }

    /// Uploads a model's meshes, materials and textures under `id`, replacing (and freeing)
    /// whatever was there: how a hot-reloaded model swaps in. The model is checked against
    /// the device's limits first ([`Renderer::footprint`]) and the upload runs inside error
    /// scopes, so a model the device refuses is an error, never a panic, and the model that
    /// was under `id` stays. [`ModelUploader::upload`] then [`Renderer::put_model`], on this
    /// thread.
    pub fn set_model(&mut self, id: ModelId, model: &Model) -> Result<GpuFootprint, ModelRefused> {
        let uploaded = self.uploader.upload(model)?;
        let footprint = uploaded.footprint();
        self.put_model(id, uploaded);
        Ok(footprint)
    }

    /// Whether the model under `id` (now and after any [`Renderer::set_model`]) casts shadows:
    /// all do by default. A host turns it off for what lies flat on what it would shadow
    /// (road paving, decals), whose shadow passes would draw it for nothing.
    pub fn set_casts_shadows(&mut self, id: ModelId, casts: bool) {
        self.shadowless.retain(|&other| other != id);
        if !casts {
            self.shadowless.push(id);
        }
    }

    /// Shades everything under the sun with the shadow of the ground's hills, `field` (none:
    /// no ground shadow), at one lookup a pixel; the host then turns its ground's own casting
    /// off ([`Renderer::set_casts_shadows`]). Turning it on or off makes the mesh pipelines
    /// again (once).
    ///
    /// # Errors
    /// [`GroundShadowError::TooLarge`] (the ground shadow is then none).
    pub fn set_ground_shadow(&mut self, field: Option<HeightField>) -> Result<(), GroundShadowError> {
        let set = self.ground.set(&self.device, field);
        mesh_pipelines::lock(&self.pipelines.meshes).set_ground_shadowed(self.ground.is_set());
        self.host_sun.rebind(&self.device, &self.globals, &self.shadows, &self.ground);
        set
    }

    fn model(&self, id: ModelId) -> Option<&GpuModel> {
        self.models.get(id.0 as usize)?.as_ref().map(|(model, _)| model)
    }

    /// Uploads `frame` for a target of `size` pixels (the pass [`Renderer::render`] will draw
    /// into covers all of it) and records the sun's shadow passes into `encoder`, which must
    /// be submitted before, or be, the encoder of that pass. Returns what the frame costs.
    /// One view per submission: the upload goes through the queue, so a second `prepare`
    /// before that pass's encoder is submitted overwrites what the first view draws.
    pub fn prepare(&mut self, encoder: &mut wgpu::CommandEncoder, frame: &Frame<'_>, size: (u32, u32)) -> FrameStats {
        let mut stats = self.upload(frame, size);
        stats.pass_times = self.timer.as_mut().and_then(PassTimer::begin_frame);
        blend_order::order_runs(frame, &self.runs, &self.models, &mut self.blend_order);
        self.blended.clear();
        let mut draw_order = std::mem::take(&mut self.draw_order);
        for &(_, window) in &self.blend_order {
            let (id, run) = &self.runs[window];
            let Some(model) = self.model(*id) else { continue };
            blend_order::order_draws(frame, run, model, &mut draw_order);
            self.blended.extend(draw_order.iter().map(|&(_, draw)| (window, draw)));
        }
        self.draw_order = draw_order;
        // Every draw of every run, but those its level leaves out; then the lines.
        let mut calls = u32::from(self.line_count > 0);
        for (id, run) in &self.runs {
            let Some(model) = self.model(*id) else { continue };
            let instances = run.instances.len() as u32;
            for draw in model.draws.of(run.material_variant).iter().filter(|draw| !draw.indices(run.level).is_empty()) {
                // Twice for what is drawn back faces first.
                for _ in 0..1 + u32::from(mesh_pipelines::draws_back_faces_first(draw.key)) {
                    calls += 1;
                    stats.main_pass += draw.count(run.level, instances);
                }
            }
        }
        stats.draw_calls = calls;
        let groups = self.frame_groups();
        if self.cascades.is_some() {
            (stats.shadow_draw_calls, stats.shadow_passes) = self.draw_shadows(encoder, &groups.shadow);
        }
        stats
    }

    /// The timestamp writes of the pass [`Renderer::render`] draws into, when
    /// [`RendererConfig::pass_timing`] times passes: a host beginning its own pass puts them in
    /// its descriptor, then calls [`Renderer::resolve_pass_times`] once that pass has ended.
    #[must_use]
    pub fn main_pass_timestamps(&self) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        self.timer.as_ref().map(PassTimer::main_writes)
    }

    /// Records into `encoder`, after the pass drawn with [`Renderer::main_pass_timestamps`]
    /// has ended in it, the copy of this frame's pass times, read back (without waiting) in
    /// [`FrameStats::pass_times`] a few frames later. Each frame's encoder must be submitted
    /// before the next [`Renderer::prepare`]. `main_drawn`: whether that pass had the writes.
    pub fn resolve_pass_times(&mut self, encoder: &mut wgpu::CommandEncoder, main_drawn: bool) {
        if let Some(timer) = &mut self.timer {
            timer.finish_frame(encoder, main_drawn);
        }
    }

    /// Records the prepared frame's draws into `pass`, a pass the caller began on a target of
    /// the configured colour format, depth format and sample count, of the size given to
    /// [`Renderer::prepare`]. Clears nothing: props are depth-tested against what the pass
    /// already holds. Every opaque draw, each model's grouped by pipeline; then the blended
    /// ones, farthest first; then the debug lines. A model set or removed between the two
    /// calls is drawn as it is now, or not at all.
    pub fn render(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some((_, groups)) = &self.frame_groups else { return };
        pass.set_vertex_buffer(slots::INSTANCES, self.instances.buffer().slice(..));
        // Held while recording (an upload on another thread takes it only to look up and
        // to add what it made).
        let meshes = mesh_pipelines::lock(&self.pipelines.meshes);
        for (window, (id, run)) in self.runs.iter().enumerate() {
            let Some(model) = self.model(*id) else { continue };
            self.bind_run(pass, &groups.main, window, run, model);
            let mut bound = None;
            for draw in model.draws.of(run.material_variant).opaque {
                self.draw(pass, (&meshes, model), draw, run, &mut bound);
            }
        }
        let mut bound_window = None;
        let mut bound = None;
        for &(window, draw) in &self.blended {
            let (id, run) = &self.runs[window];
            // A model replaced since `prepare` may have fewer draws: those are skipped.
            let Some((model, item)) = self.model(*id).and_then(|m| Some((m, m.draws.get(draw)?))) else { continue };
            if bound_window != Some(window) {
                self.bind_run(pass, &groups.main, window, run, model);
                (bound_window, bound) = (Some(window), None);
            }
            // A double-sided one's back faces first, then its front faces.
            if mesh_pipelines::draws_back_faces_first(item.key)
                && let Some(back) = meshes.get_back(item.key.placed(run.mirrored), item.posing, self.lit)
            {
                pass.set_pipeline(back);
                bound = None;
                let _drawn = draw_item(pass, model, (item, run.level), run.instances.clone());
            }
            self.draw(pass, (&meshes, model), item, run, &mut bound);
        }
        if self.line_count > 0 {
            pass.set_pipeline(&self.pipelines.lines);
            pass.set_bind_group(0, &self.lines_group, &[]);
            pass.set_vertex_buffer(0, self.line_vertices.buffer().slice(..));
            pass.draw(0..self.line_count * 2, 0..1);
        }
    }

    /// Binds run `window` (`run`, of `model`): its palette window, `model`'s buffers.
    fn bind_run(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        frame_group: &wgpu::BindGroup,
        window: usize,
        run: &Run,
        model: &GpuModel,
    ) {
        let window_offset = window as u32 * self.window_stride;
        match self.access {
            PaletteAccess::StorageBuffer => {
                let palette_offset = (u64::from(run.window_start) * MATRIX_BYTES) as u32;
                pass.set_bind_group(0, frame_group, &[palette_offset, window_offset]);
            }
            PaletteAccess::Texture => pass.set_bind_group(0, frame_group, &[window_offset]),
        }
        pass.set_vertex_buffer(slots::GEOMETRY, model.geometry.slice(..));
        pass.set_vertex_buffer(slots::SURFACE, model.surface.slice(..));
        pass.set_vertex_buffer(slots::NODE, model.node.slice(..));
        if let Some(skin) = &model.skin {
            pass.set_vertex_buffer(slots::SKIN, skin.slice(..));
        }
        pass.set_index_buffer(model.indices.slice(..), wgpu::IndexFormat::Uint32);
    }

    /// Draws `draw` of `model` for `run`'s instances, setting its pipeline unless `bound`.
    fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        (meshes, model): (&MeshPipelines, &GpuModel),
        draw: &DrawItem,
        run: &Run,
        bound: &mut Option<(crate::pipeline_key::PipelineKey, Posing)>,
    ) {
        let key = draw.key.placed(run.mirrored);
        if *bound != Some((key, draw.posing)) {
            // Its upload made every pipeline its draws take; `prepare`, those mirrored (else
            // drawn unmirrored: the device refused them).
            let made = meshes.get(key, draw.posing, self.lit);
            let Some(pipeline) = made.or_else(|| meshes.get(draw.key, draw.posing, self.lit)) else { return };
            pass.set_pipeline(pipeline);
            *bound = Some((key, draw.posing));
        }
        let _drawn = draw_item(pass, model, (draw, run.level), run.instances.clone());
    }

    /// Writes globals, lights, palettes, instances, palette windows and lines for a target of
    /// `size`; plans the runs.
    fn upload(&mut self, frame: &Frame<'_>, size: (u32, u32)) -> FrameStats {
        let mut stats = FrameStats::default();
        let (light, view_proj) = (frame.lighting, frame.camera.view_projection);
        let lights =
            self.lights.prepare((&self.device, &self.queue), frame.lights, (view_proj, frame.camera.eye), size);
        (stats.lights, stats.light_bytes) = (lights.count, lights.bytes);
        self.lit = lights.count > 0;
        let sun_up = self.pipelines.shadows() && light.color.max_element() > 0.0;
        self.cascades = if sun_up { shadows::fit(view_proj, light.direction) } else { None };
        let ground = if self.cascades.is_some() {
            self.ground.prepare(&self.queue, light.direction.normalize_or_zero());
            self.ground.uniform()
        } else {
            [0.0; 4]
        };
        let mut globals = Globals::new(frame, self.sky.harmonics, &lights, (self.cascades.as_ref(), ground));

        // Plan: runs of instances, each within one palette window.
        let total = frame.palettes.len() as u64;
        let windows = match self.access {
            // Bind no more than the frame needs (rounded), and no more than the device allows.
            PaletteAccess::StorageBuffer => {
                let aligned = total.next_multiple_of(u64::from(palette_windows::WINDOW_ALIGNMENT));
                (aligned.clamp(16, u64::from(self.max_window_matrices)) as u32, Windows::Sliding)
            }
            PaletteAccess::Texture => (self.max_window_matrices, Windows::Fixed),
        };
        self.runs.clear();
        for batch in frame.batches {
            let range = batch.instances.start..batch.instances.end.min(frame.instances.len() as u32);
            if batch.mirrored {
                self.make_mirrored_pipelines(batch.model);
            }
            let Some(model) = self.model(batch.model) else {
                stats.skipped_instances += range.len() as u32;
                continue;
            };
            let palette_len = model.palette_len;
            stats.skipped_instances +=
                palette_windows::split(frame.instances, range, palette_len, windows, &mut self.run_scratch);
            for run in self.run_scratch.drain(..) {
                stats.instances += run.instances.len() as u32;
                let (level, material_variant, mirrored) = (batch.level, batch.material_variant, batch.mirrored);
                self.runs.push((batch.model, Run { level, material_variant, mirrored, ..run }));
            }
        }
        stats.palette_windows = self.runs.len() as u32;
        stats.palette_bytes = total * MATRIX_BYTES;
        stats.instance_bytes = size_of_val(frame.instances) as u64;

        let binding_end = self.runs.iter().map(|(_, r)| u64::from(r.window_start) + u64::from(windows.0)).max();
        let matrices = binding_end.unwrap_or(0).max(total);
        self.palette.write(&self.device, &self.queue, frame.palettes, matrices, windows.0);
        self.instances.write(&self.device, &self.queue, bytemuck::cast_slice(frame.instances));
        if let Some(cascades) = &self.cascades {
            let (models, shadowless) = (&self.models, &self.shadowless);
            let reach = |id: ModelId| {
                let casts = !shadowless.contains(&id);
                models.get(id.0 as usize)?.as_ref().filter(|_| casts).map(|(model, _)| model.reach)
            };
            let gpu = (&self.device, &self.queue);
            stats.instance_bytes += self.casters.prepare(gpu, cascades, (frame.instances, &self.runs), reach);
            globals.set_drawn_cascades(self.casters.reached());
        }
        self.queue.write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));
        for (cascade, buffer) in self.cascades.iter().flatten().zip(&self.shadow_globals) {
            globals.view_proj = cascade.view_proj.to_cols_array_2d();
            self.queue.write_buffer(buffer, 0, bytemuck::bytes_of(&globals));
        }

        // One `Window` uniform per run, at the uniform offset alignment.
        let stride = self.window_stride as usize;
        self.window_scratch.clear();
        self.window_scratch.resize(self.runs.len().max(1) * stride, 0);
        for (slot, (_, run)) in self.window_scratch.chunks_exact_mut(stride).zip(&self.runs) {
            let first_matrix = if windows.1 == Windows::Fixed { 0 } else { run.window_start };
            slot[..4].copy_from_slice(&first_matrix.to_le_bytes());
        }
        self.windows.write(&self.device, &self.queue, &self.window_scratch);

        self.line_scratch.clear();
        self.line_scratch.extend(frame.lines.iter().flat_map(|l: &DebugLine| {
            let vertex = |p: Vec3| LineVertex { position: p.to_array(), color: l.color };
            [vertex(l.from), vertex(l.to)]
        }));
        self.line_vertices.write(&self.device, &self.queue, bytemuck::cast_slice(&self.line_scratch));
        self.line_count = frame.lines.len() as u32;
        stats
    }

    /// The group-0 bind groups (globals, palette, windows, sky, lights, shadow maps) of the main
    /// pass and of each shadow pass (its globals, and the stand-in for the maps it draws),
    /// rebuilt when a buffer was reallocated or the binding size changed.
    fn frame_groups(&mut self) -> FrameGroups {
        let key =
            [self.palette.generation(), self.windows.generation(), self.lights.generation(), self.ground.generation()];
        if let Some((built, groups)) = &self.frame_groups
            && *built == key
        {
            return groups.clone();
        }
        let resources = FrameResources {
            layout: &self.frame_layout,
            palette: &self.palette,
            windows: &self.windows,
            sky: &self.sky,
            lights: &self.lights,
            shadows: &self.shadows,
            ground: &self.ground,
        };
        let groups = FrameGroups::new(&self.device, &resources, (&self.globals, &self.shadow_globals));
        self.frame_groups = Some((key, groups.clone()));
        groups
    }
}
