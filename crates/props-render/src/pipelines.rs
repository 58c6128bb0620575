//! The renderer's bind group layouts and pipelines: the skinned-mesh pipelines (one per
//! [`PipelineKey`] a model's draw takes: opaque or blended, culled or double-sided, static or
//! animated material, and what its fragments read of the vertex), the shadow and debug-line
//! pipelines, and the vertex layouts they read.

use std::collections::HashMap;

use bytemuck::{Pod, Zeroable};

use crate::draw_lists::Posing;
use crate::entry_points::{Entry, FS_LAMBERT, FS_MAIN, FS_TRANSMISSIVE, Outputs, VS_RIGID, VS_SKINNED, VS_UNSKINNED};
use crate::gpu_model::{GeometryVertex, NODE_LAYOUT, SkinVertex, SurfaceVertex};
use crate::pipeline_key::PipelineKey;
use crate::renderer_config::{RendererConfig, Shading};
use crate::shaders::{self, PaletteAccess};
use crate::shadows::SHADOW_FORMAT;
use crate::slot_bindings::SlotBindings;

/// A debug line vertex.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct LineVertex {
    pub(crate) position: [f32; 3],
    pub(crate) color: [f32; 4],
}

/// The bind group layouts: per frame (globals, palette, window, the sky's light, the point
/// and spot lights), globals alone (lines), per draw (draw uniform, the model's per-vertex
/// tables), per material (its texture slots, as `slots` binds them).
pub(crate) struct Layouts {
    pub(crate) frame: wgpu::BindGroupLayout,
    pub(crate) globals: wgpu::BindGroupLayout,
    pub(crate) draw: wgpu::BindGroupLayout,
    pub(crate) material: wgpu::BindGroupLayout,
    pub(crate) slots: SlotBindings,
}

impl Layouts {
    /// The layouts for palettes and per-vertex tables read as `access` says, and a material's
    /// texture slots as the device has room for ([`SlotBindings::for_device`]).
    pub(crate) fn new(device: &wgpu::Device, access: PaletteAccess) -> Self {
        let uniform = |binding, dynamic| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: dynamic,
                min_binding_size: None,
            },
            count: None,
        };
        // Data the vertex stage (and for the palette, the fragment stage: animated material
        // values) reads per access mode: a storage buffer, or a texture.
        let vertex_data = |binding, dynamic, texels, visibility| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: match access {
                PaletteAccess::StorageBuffer => wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: dynamic,
                    min_binding_size: None,
                },
                PaletteAccess::Texture => wgpu::BindingType::Texture {
                    sample_type: texels,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
            },
            count: None,
        };
        let palette_entry = vertex_data(
            1,
            true,
            wgpu::TextureSampleType::Float { filterable: false },
            wgpu::ShaderStages::VERTEX_FRAGMENT,
        );
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })
        };
        // The model's per-vertex tables: influences past the 8th, morph deltas.
        let influences_entry = vertex_data(1, false, wgpu::TextureSampleType::Uint, wgpu::ShaderStages::VERTEX);
        let deltas_entry =
            vertex_data(2, false, wgpu::TextureSampleType::Float { filterable: false }, wgpu::ShaderStages::VERTEX);
        let texture = |binding, view_dimension| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension,
                multisampled: false,
            },
            count: None,
        };
        let sampler = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
            count: None,
        };
        // A uniform the fragment stage alone reads (lavapipe crashes drawing with a fourth
        // uniform buffer visible to the vertex stage).
        let fragment_uniform = |binding| wgpu::BindGroupLayoutEntry {
            visibility: wgpu::ShaderStages::FRAGMENT,
            ..uniform(binding, false)
        };
        let frame_entries = [
            uniform(0, false),
            palette_entry,
            uniform(2, true),
            texture(3, wgpu::TextureViewDimension::Cube),
            sampler(4),
            // The point and spot lights, and their cluster lists.
            fragment_uniform(5),
            wgpu::BindGroupLayoutEntry {
                binding: 6,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Uint,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            // The sun's shadow maps (one layer per cascade) and their comparison sampler.
            wgpu::BindGroupLayoutEntry {
                binding: 7,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Depth,
                    view_dimension: wgpu::TextureViewDimension::D2Array,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 8,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                count: None,
            },
            // The ground's shadow heights (`ground_shadow.rs`) and their sampler.
            texture(9, wgpu::TextureViewDimension::D2),
            sampler(10),
            // The specular lobe's directional albedo (`ggx.rs`): a table in a uniform, read
            // and filtered by the shader (no texture slot taken from the materials).
            fragment_uniform(11),
        ];
        let draw_entries = [uniform(0, true), influences_entry, deltas_entry];
        let backend = device.adapter_info().backend;
        let slots = SlotBindings::for_device(&device.limits(), backend, &[&frame_entries, &draw_entries]);
        // The uniform, then each slot's texture and its own sampler; the first sharing slot's
        // sampler binding holds the one its slots share.
        let mut material_entries = vec![uniform(0, false)];
        for slot in 0..slots.textures {
            material_entries.push(texture(1 + 2 * slot as u32, wgpu::TextureViewDimension::D2));
            if slot <= slots.samplers {
                material_entries.push(sampler(slots.sampler_binding(slot)));
            }
        }
        Self {
            frame: layout("frame", &frame_entries),
            globals: layout("globals", &[uniform(0, false)]),
            draw: layout("draw", &draw_entries),
            material: layout("material", &material_entries),
            slots,
        }
    }
}

/// The renderer's pipelines.
pub(crate) struct Pipelines {
    /// What mesh pipelines are made of, to make each the first time a model's draw takes it.
    maker: MeshMaker,
    /// Instanced meshes, posed (or in their bind pose, for `skinning: false`), by the
    /// [`PipelineKey`] and posing of the draws that take them: made as models are set
    /// ([`Pipelines::prepare_meshes`]), so that a renderer compiles only the variants its models
    /// draw with (seventeen switches and eighteen texture slots: 2^36 with the posings).
    /// Each is made twice: for frames without point and spot lights, and for frames with some
    /// (`PUNCTUAL_LIGHTS`); and all again when a ground shadow is set or cleared
    /// (`GROUND_SHADOWED`).
    meshes: HashMap<(PipelineKey, Posing), [wgpu::RenderPipeline; 2]>,
    /// The shadow passes' pipelines (`None` without shadows): depth only, from the sun, both
    /// faces; for opaque materials (the position alone), and for alpha-masked ones (cut out
    /// where the mask cuts), rigid then skinned.
    shadow: Option<[[wgpu::RenderPipeline; 2]; 2]>,
    /// Debug lines, drawn over everything.
    pub(crate) lines: wgpu::RenderPipeline,
}

/// What every mesh pipeline is made of: the shader, the bind group layouts, the targets, and
/// the renderer's configuration.
struct MeshMaker {
    device: wgpu::Device,
    module: wgpu::ShaderModule,
    groups: [wgpu::BindGroupLayout; 3],
    color_format: wgpu::TextureFormat,
    depth_format: wgpu::TextureFormat,
    sample_count: u32,
    config: RendererConfig,
    /// Whether a height field shadows the frame (`GROUND_SHADOWED`: the renderer's ground
    /// shadow is set, and it draws shadows).
    ground: bool,
    /// Whether the device blends with two colours (`fs_transmissive`).
    dual_source: bool,
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
    /// The pipeline of draws of `key` posed as `posing` says, in frames with point and spot
    /// lights or without (`lit`).
    fn make(&self, key: PipelineKey, posing: Posing, lit: bool) -> wgpu::RenderPipeline {
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
            topology: wgpu::PrimitiveTopology::TriangleList,
            depth_compare: self.config.depth_compare,
            depth_write: !key.blend,
            cull_mode: (!key.double_sided).then_some(wgpu::Face::Back),
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

/// The vertex entry point of draws posed as `posing` says (all in their bind pose without
/// `skinning`), and the streams it reads (`gpu_model::slots`): geometry, instances, surface,
/// skin, node.
fn shaded(posing: Posing, skinning: bool) -> (Entry, Vec<Option<wgpu::VertexBufferLayout<'static>>>) {
    match (posing, skinning) {
        (Posing::Skinned, true) => (
            VS_SKINNED,
            vec![
                Some(GeometryVertex::LAYOUT),
                Some(INSTANCE_LAYOUT),
                Some(SurfaceVertex::LAYOUT),
                Some(SkinVertex::LAYOUT),
            ],
        ),
        (Posing::Rigid, true) => (
            VS_RIGID,
            vec![
                Some(GeometryVertex::LAYOUT),
                Some(INSTANCE_LAYOUT),
                Some(SurfaceVertex::LAYOUT),
                None,
                Some(NODE_LAYOUT),
            ],
        ),
        (_, false) => {
            (VS_UNSKINNED, vec![Some(GeometryVertex::LAYOUT), Some(INSTANCE_LAYOUT), Some(SurfaceVertex::LAYOUT)])
        }
    }
}

impl Pipelines {
    /// The pipelines for `layouts`, drawing into `color_format` with `sample_count` samples;
    /// `skinning: false` draws bind poses. Mesh pipelines are made as models need them.
    pub(crate) fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        access: PaletteAccess,
        config: &RendererConfig,
    ) -> Self {
        let RendererConfig { skinning, shadows, .. } = *config;
        let factory = PipelineFactory {
            device,
            color_format: config.color_format,
            depth_format: config.depth_format,
            sample_count: config.sample_count,
        };
        // Transmissive materials tint what shows through them by a second blend colour, where
        // the device can blend so.
        let dual_source = device.features().contains(wgpu::Features::DUAL_SOURCE_BLENDING);
        let source = shaders::skinned(access, layouts.slots);
        let source = if dual_source { shaders::with_dual_source_blending(&source) } else { source };
        let module = factory.module("skinned", &source);
        let groups = [&layouts.frame, &layouts.draw, &layouts.material];
        let shadow = shadows.then(|| {
            let shadow_factory = PipelineFactory { sample_count: 1, depth_format: SHADOW_FORMAT, ..factory };
            let state = || DrawState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                depth_compare: wgpu::CompareFunction::Less,
                depth_write: true,
                cull_mode: None,
                blend: None,
                depth_only: true,
            };
            [Posing::Rigid, Posing::Skinned].map(|posing| {
                // Opaque casters: their position alone; masked ones: shaded as drawn, for the mask.
                let opaque = match (posing, skinning) {
                    (Posing::Rigid, true) => (
                        "vs_shadow_rigid",
                        vec![Some(GeometryVertex::LAYOUT), Some(INSTANCE_LAYOUT), None, None, Some(NODE_LAYOUT)],
                    ),
                    (Posing::Skinned, true) => (
                        "vs_shadow_skinned",
                        vec![Some(GeometryVertex::LAYOUT), Some(INSTANCE_LAYOUT), None, Some(SkinVertex::LAYOUT)],
                    ),
                    (_, false) => {
                        let (vertex, buffers) = shaded(posing, skinning);
                        (vertex.of(Outputs::All), buffers)
                    }
                };
                let stages = Stages { module: &module, vertex: opaque.0, fragment: None, constants: &[] };
                let opaque = shadow_factory.create("shadow", stages, &groups, &opaque.1, state());
                let (vertex, buffers) = shaded(posing, skinning);
                let stages = Stages {
                    module: &module,
                    vertex: vertex.of(Outputs::All),
                    fragment: Some("fs_shadow_mask"),
                    constants: &[],
                };
                [opaque, shadow_factory.create("masked shadow", stages, &groups, &buffers, state())]
            })
        });
        let lines = factory.create(
            "debug lines",
            Stages {
                module: &factory.module("debug lines", &shaders::lines()),
                vertex: "vs_main",
                fragment: Some("fs_main"),
                constants: &[],
            },
            &[&layouts.globals],
            &[Some(LINE_LAYOUT)],
            // Skeletons and axes show through the meshes they belong to.
            DrawState {
                topology: wgpu::PrimitiveTopology::LineList,
                depth_compare: wgpu::CompareFunction::Always,
                depth_write: false,
                cull_mode: None,
                blend: None,
                depth_only: false,
            },
        );
        let maker = MeshMaker {
            device: device.clone(),
            module,
            groups: [layouts.frame.clone(), layouts.draw.clone(), layouts.material.clone()],
            color_format: config.color_format,
            depth_format: config.depth_format,
            sample_count: config.sample_count,
            config: *config,
            ground: false,
            dual_source,
        };
        Self { maker, meshes: HashMap::new(), shadow, lines }
    }

    /// Makes the mesh pipelines of draws of these keys and posings that are not made yet;
    /// returns what it made.
    pub(crate) fn prepare_meshes(
        &mut self,
        draws: impl Iterator<Item = (PipelineKey, Posing)>,
    ) -> Vec<(PipelineKey, Posing)> {
        let mut made = Vec::new();
        for draw in draws {
            if !self.meshes.contains_key(&draw) {
                self.meshes.insert(draw, [false, true].map(|lit| self.maker.make(draw.0, draw.1, lit)));
                made.push(draw);
            }
        }
        made
    }

    /// Makes every mesh pipeline again for frames a height field shadows (`on`) or none does,
    /// if that changed: once, when a host sets or clears its ground shadow (never without
    /// shadows, which draw none).
    pub(crate) fn set_ground_shadowed(&mut self, on: bool) {
        let on = on && self.maker.config.shadows;
        if self.maker.ground == on {
            return;
        }
        self.maker.ground = on;
        for (&(key, posing), made) in &mut self.meshes {
            *made = [false, true].map(|lit| self.maker.make(key, posing, lit));
        }
    }

    /// Forgets mesh pipelines (ones the device refused to make).
    pub(crate) fn forget_meshes(&mut self, made: Vec<(PipelineKey, Posing)>) {
        for draw in made {
            self.meshes.remove(&draw);
        }
    }

    /// The mesh pipeline of `key` for draws posed as `posing` says, in a frame with point and
    /// spot lights or without (`lit`), if [`Pipelines::prepare_meshes`] made it.
    pub(crate) fn mesh(&self, key: PipelineKey, posing: Posing, lit: bool) -> Option<&wgpu::RenderPipeline> {
        self.meshes.get(&(key, posing)).map(|made| &made[usize::from(lit)])
    }

    /// Whether the shadow passes are drawn.
    pub(crate) fn shadows(&self) -> bool {
        self.shadow.is_some()
    }

    /// The shadow pipeline of a draw posed as `posing` says, of an alpha-masked material or not.
    pub(crate) fn shadow(&self, posing: Posing, masked: bool) -> Option<&wgpu::RenderPipeline> {
        let pipelines = self.shadow.as_ref()?;
        Some(&pipelines[usize::from(posing == Posing::Skinned)][usize::from(masked)])
    }
}

/// How a pipeline draws: its topology, depth test and write, culling and blending, and
/// whether it writes depth only (no colour target).
struct DrawState {
    topology: wgpu::PrimitiveTopology,
    depth_compare: wgpu::CompareFunction,
    depth_write: bool,
    cull_mode: Option<wgpu::Face>,
    blend: Option<wgpu::BlendState>,
    depth_only: bool,
}

/// Instance buffer layout matching `shaders/skinned.wgsl` locations 7-10 (the transform's rows,
/// then the palette base and the flags, one attribute: all 16 locations are taken) and 13 (the
/// tint).
const INSTANCE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<props_frame::InstanceData>() as u64,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![7 => Float32x4, 8 => Float32x4, 9 => Float32x4, 10 => Uint32x2, 13 => Unorm8x4],
};

/// Debug line vertex layout matching `shaders/lines.wgsl`.
const LINE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<LineVertex>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4],
};

/// A pipeline's shader: its module, entry points and pipeline-overridable constants.
struct Stages<'a> {
    module: &'a wgpu::ShaderModule,
    vertex: &'a str,
    /// `None`: depth only.
    fragment: Option<&'a str>,
    constants: &'a [(&'a str, f64)],
}

/// What every pipeline of the renderer shares: device, target formats, sample count.
#[derive(Clone, Copy)]
struct PipelineFactory<'a> {
    device: &'a wgpu::Device,
    color_format: wgpu::TextureFormat,
    depth_format: wgpu::TextureFormat,
    sample_count: u32,
}

impl PipelineFactory<'_> {
    /// The shader module of WGSL `source`.
    fn module(&self, label: &str, source: &str) -> wgpu::ShaderModule {
        self.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        })
    }

    /// A pipeline drawing with `stages`, as `state` says.
    fn create(
        &self,
        label: &str,
        stages: Stages<'_>,
        groups: &[&wgpu::BindGroupLayout],
        buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
        state: DrawState,
    ) -> wgpu::RenderPipeline {
        let compilation_options =
            wgpu::PipelineCompilationOptions { constants: stages.constants, ..Default::default() };
        let targets = [Some(wgpu::ColorTargetState {
            format: self.color_format,
            blend: state.blend,
            write_mask: wgpu::ColorWrites::ALL,
        })];
        let groups: Vec<Option<&wgpu::BindGroupLayout>> = groups.iter().map(|g| Some(*g)).collect();
        let layout = self.device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &groups,
            immediate_size: 0,
        });
        self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: stages.module,
                entry_point: Some(stages.vertex),
                compilation_options: compilation_options.clone(),
                buffers,
            },
            primitive: wgpu::PrimitiveState {
                topology: state.topology,
                // glTF's front faces are counter-clockwise.
                front_face: wgpu::FrontFace::Ccw,
                cull_mode: state.cull_mode,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: self.depth_format,
                depth_write_enabled: Some(state.depth_write),
                depth_compare: Some(state.depth_compare),
                stencil: wgpu::StencilState::default(),
                // No depth bias, even for the shadow map: its reader offsets along the normal
                // and towards the sun instead (shaders/shadows.wgsl).
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState { count: self.sample_count, ..Default::default() },
            fragment: stages.fragment.map(|entry| wgpu::FragmentState {
                module: stages.module,
                entry_point: Some(entry),
                compilation_options,
                targets: if state.depth_only { &[] } else { &targets },
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

/// Whether the adapter can multisample `config`'s colour and depth formats at its sample count.
pub(crate) fn supports_samples(adapter: &wgpu::Adapter, config: &RendererConfig) -> bool {
    [config.color_format, config.depth_format]
        .iter()
        .all(|f| adapter.get_texture_format_features(*f).flags.sample_count_supported(config.sample_count))
}
