//! The mesh pipelines: one per [`PipelineKey`] and posing a model's draws take, made as
//! models are uploaded, from any thread ([`prepare`]), into one cache the renderer draws
//! from. Each is compiled outside the cache's lock, so that a frame drawn meanwhile never
//! waits for a compile, and joins the cache only once the device has checked it.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use props_anim::Topology;

use crate::draw_lists::Posing;
use crate::entry_points::{FS_LAMBERT, FS_MAIN, FS_TRANSMISSIVE};
use crate::pipeline_factory::{DrawState, PipelineFactory, Stages, shaded};
use crate::pipeline_key::PipelineKey;
use crate::renderer_config::{RendererConfig, Shading};

/// Instanced meshes, posed (or in their bind pose, for `skinning: false`), by the
/// [`PipelineKey`] and posing of the draws that take them: made as models are uploaded
/// ([`prepare`]), so that a renderer compiles only the variants its models draw with
/// (eighteen switches and as many texture slots: 2^37 with the posings). Each is made
/// twice: for frames without point and spot lights, and for frames with some
/// (`PUNCTUAL_LIGHTS`); and all again when a ground shadow is set or cleared
/// (`GROUND_SHADOWED`). A double-sided see-through material's are made for its front faces,
/// and again for its back faces, drawn first ([`draws_back_faces_first`]).
pub(crate) struct MeshPipelines {
    /// What they are made of.
    maker: MeshMaker,
    /// Unlit and lit; then, for a key drawn back faces first, its back faces' unlit and lit.
    made: HashMap<(PipelineKey, Posing), Vec<wgpu::RenderPipeline>>,
}

/// Whether draws of `key` are drawn in two passes, back faces first, then front faces: a
/// double-sided see-through material's triangles, as three.js draws them, so that its far side
/// shows through its near one whatever order the file lists its triangles in.
pub(crate) fn draws_back_faces_first(key: PipelineKey) -> bool {
    key.blend && key.double_sided && key.faces()
}

impl MeshPipelines {
    /// None made yet; each made by `maker` when a model's draw first takes it.
    pub(crate) fn new(maker: MeshMaker) -> Self {
        Self { maker, made: HashMap::new() }
    }

    /// The pipeline of `key` for draws posed as `posing` says, in a frame with point and spot
    /// lights or without (`lit`), if [`prepare`] made it.
    pub(crate) fn get(&self, key: PipelineKey, posing: Posing, lit: bool) -> Option<&wgpu::RenderPipeline> {
        self.made.get(&(key, posing)).and_then(|made| made.get(usize::from(lit)))
    }

    /// The pipeline of `key`'s back faces, for a key drawn back faces first
    /// ([`draws_back_faces_first`]), as [`MeshPipelines::get`] says.
    pub(crate) fn get_back(&self, key: PipelineKey, posing: Posing, lit: bool) -> Option<&wgpu::RenderPipeline> {
        self.made.get(&(key, posing)).and_then(|made| made.get(2 + usize::from(lit)))
    }

    /// Makes every pipeline again for frames a height field shadows (`on`) or none does, if
    /// that changed: once, when a host sets or clears its ground shadow (never without
    /// shadows, which draw none). A compile under way for the other setting is made again
    /// ([`prepare`]).
    pub(crate) fn set_ground_shadowed(&mut self, on: bool) {
        let on = on && self.maker.config.shadows;
        if self.maker.ground == on {
            return;
        }
        self.maker.ground = on;
        for (&(key, posing), made) in &mut self.made {
            *made = self.maker.make_all(key, posing);
        }
    }
}

/// The cache locked; a thread that panicked holding it left no half-made entry (entries
/// go in whole), so its poisoning is ignored.
pub(crate) fn lock(meshes: &Mutex<MeshPipelines>) -> MutexGuard<'_, MeshPipelines> {
    meshes.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Makes the pipelines of `draws` (keys and posings) that `meshes` does not have yet: each
/// compiled outside the lock, checked by the device, then kept. Returns the device's error
/// if it refuses one; none of them is kept then.
pub(crate) fn prepare(meshes: &Mutex<MeshPipelines>, draws: &[(PipelineKey, Posing)]) -> Result<(), String> {
    loop {
        let (maker, missing) = {
            let cache = lock(meshes);
            let mut missing: Vec<(PipelineKey, Posing)> = Vec::new();
            for draw in draws.iter().filter(|draw| !cache.made.contains_key(draw)) {
                if !missing.contains(draw) {
                    missing.push(*draw);
                }
            }
            (cache.maker.clone(), missing)
        };
        if missing.is_empty() {
            return Ok(());
        }
        let validation = maker.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let memory = maker.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let made: Vec<_> = missing.iter().map(|&(key, posing)| ((key, posing), maker.make_all(key, posing))).collect();
        // Native error scopes resolve at once; the futures only hand the result over.
        let errors = [pollster::block_on(memory.pop()), pollster::block_on(validation.pop())];
        if let Some(error) = errors.into_iter().flatten().next() {
            return Err(error.to_string());
        }
        let mut cache = lock(meshes);
        // Made for the ground shadow as it is (else made again for the new one).
        if cache.maker.ground == maker.ground {
            for (draw, pipelines) in made {
                cache.made.entry(draw).or_insert(pipelines);
            }
            return Ok(());
        }
    }
}

/// What every mesh pipeline is made of: the shader, the bind group layouts, the targets, and
/// the renderer's configuration.
#[derive(Clone)]
pub(crate) struct MeshMaker {
    pub(crate) device: wgpu::Device,
    pub(crate) module: wgpu::ShaderModule,
    pub(crate) groups: [wgpu::BindGroupLayout; 3],
    pub(crate) color_format: wgpu::TextureFormat,
    pub(crate) depth_format: wgpu::TextureFormat,
    pub(crate) sample_count: u32,
    pub(crate) config: RendererConfig,
    /// Whether a height field shadows the frame (`GROUND_SHADOWED`: the renderer's ground
    /// shadow is set, and it draws shadows).
    pub(crate) ground: bool,
    /// Whether the device blends with two colours (`fs_transmissive`).
    pub(crate) dual_source: bool,
}

/// Dual-source blending's: the fragment's first colour (premultiplied) over what is behind,
/// kept by its second, channel by channel.
const KEEP_BY_SECOND_COLOR: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::Src1,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent::OVER,
};

impl MeshMaker {
    /// Every pipeline of draws of `key` posed as `posing` says, as [`MeshPipelines`] keeps
    /// them: unlit and lit, then the back faces' where it has them.
    fn make_all(&self, key: PipelineKey, posing: Posing) -> Vec<wgpu::RenderPipeline> {
        let faces: &[bool] = if draws_back_faces_first(key) { &[false, true] } else { &[false] };
        faces.iter().flat_map(|&back| [false, true].map(|lit| self.make(key, posing, lit, back))).collect()
    }

    /// The pipeline of draws of `key` posed as `posing` says, in frames with point and spot
    /// lights or without (`lit`), of its back faces alone (`back`) where it is drawn back faces
    /// first.
    fn make(&self, key: PipelineKey, posing: Posing, lit: bool, back: bool) -> wgpu::RenderPipeline {
        let RendererConfig { skinning, shading, shadows, specular_antialiasing, .. } = self.config;
        let factory = PipelineFactory {
            device: &self.device,
            color_format: self.color_format,
            depth_format: self.depth_format,
            sample_count: self.sample_count,
        };
        // A transmissive material's fragments are premultiplied by what they cover, and say
        // what of what is behind them is kept: by a second colour where the device blends with
        // two (`fs_transmissive`), else by their alpha (`fs_main`).
        let transmissive = key.transmissive && shading == Shading::Pbr;
        let outputs = key.outputs();
        let (fragment, blend) = match shading {
            Shading::Pbr if transmissive && self.dual_source => (FS_TRANSMISSIVE, KEEP_BY_SECOND_COLOR),
            Shading::Pbr if transmissive => (FS_MAIN, wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
            Shading::Pbr => (FS_MAIN, wgpu::BlendState::ALPHA_BLENDING),
            Shading::Lambert => (FS_LAMBERT, wgpu::BlendState::ALPHA_BLENDING),
        };
        let state = DrawState {
            topology: match key.topology {
                Topology::Triangles => wgpu::PrimitiveTopology::TriangleList,
                Topology::Lines => wgpu::PrimitiveTopology::LineList,
                Topology::Points => wgpu::PrimitiveTopology::PointList,
            },
            depth_compare: self.config.depth_compare,
            depth_write: !key.blend,
            cull_mode: match (key.double_sided || !key.faces(), draws_back_faces_first(key), back) {
                (true, false, _) => None,
                (_, true, true) => Some(wgpu::Face::Front),
                _ => Some(wgpu::Face::Back),
            },
            mirrored: key.mirrored,
            blend: key.blend.then_some(blend),
            depth_only: false,
        };
        let (vertex, buffers) = shaded(posing, skinning);
        let flag = |on: bool| f64::from(u8::from(on));
        let mut constants = key.constants().to_vec();
        constants.extend([
            ("SHADOWED", flag(shadows)),
            ("PUNCTUAL_LIGHTS", flag(lit)),
            ("SPECULAR_ANTIALIASING", flag(specular_antialiasing)),
            ("GROUND_SHADOWED", flag(self.ground)),
        ]);
        let stages = Stages {
            module: &self.module,
            vertex: vertex.of(outputs),
            fragment: Some(fragment.of(outputs)),
            constants: &constants,
        };
        let groups = [&self.groups[0], &self.groups[1], &self.groups[2]];
        factory.create(if skinning { "posed" } else { "unposed" }, stages, &groups, &buffers, state)
    }
}
