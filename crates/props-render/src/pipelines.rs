//! The renderer's bind group layouts and pipelines: the skinned-mesh pipelines' cache (one per
//! pipeline key a model's draw takes: opaque or blended, culled or double-sided, static or
//! animated material, and what its fragments read of the vertex; `mesh_pipelines.rs`), the
//! shadow and debug-line pipelines, and the vertex layouts they read.

use std::sync::{Arc, Mutex};

use bytemuck::{Pod, Zeroable};

use crate::draw_lists::Posing;
use crate::entry_points::Outputs;
use crate::gpu_model::{GeometryVertex, NODE_LAYOUT, SkinVertex};
use crate::mesh_pipelines::{MeshMaker, MeshPipelines};
use crate::pipeline_factory::{DrawState, INSTANCE_LAYOUT, PipelineFactory, Stages, shaded};
use crate::renderer_config::RendererConfig;
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
    /// The mesh pipelines, made as models are uploaded, on whichever thread uploads them
    /// (`mesh_pipelines.rs`).
    pub(crate) meshes: Arc<Mutex<MeshPipelines>>,
    /// The shadow passes' pipelines (`None` without shadows): depth only, from the sun, both
    /// faces; for opaque materials (the position alone), and for alpha-masked ones (cut out
    /// where the mask cuts), rigid then skinned.
    shadow: Option<[[wgpu::RenderPipeline; 2]; 2]>,
    /// Debug lines, drawn over everything.
    pub(crate) lines: wgpu::RenderPipeline,
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
                mirrored: false,
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
                mirrored: false,
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
        Self { meshes: Arc::new(Mutex::new(MeshPipelines::new(maker))), shadow, lines }
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

/// Debug line vertex layout matching `shaders/lines.wgsl`.
const LINE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<LineVertex>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4],
};

/// Whether the adapter can multisample `config`'s colour and depth formats at its sample count.
pub(crate) fn supports_samples(adapter: &wgpu::Adapter, config: &RendererConfig) -> bool {
    [config.color_format, config.depth_format]
        .iter()
        .all(|f| adapter.get_texture_format_features(*f).flags.sample_count_supported(config.sample_count))
}
