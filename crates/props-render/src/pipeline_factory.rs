//! What every pipeline of the renderer is made with ([`PipelineFactory`]): the device, the
//! targets' formats and sample count, a shader's stages, how it draws, and the vertex streams
//! a mesh pipeline reads ([`shaded`]).

use crate::draw_lists::Posing;
use crate::entry_points::{Entry, VS_RIGID, VS_SKINNED, VS_UNSKINNED};
use crate::gpu_model::{GeometryVertex, NODE_LAYOUT, SkinVertex, SurfaceVertex};

/// The vertex entry point of draws posed as `posing` says (all in their bind pose without
/// `skinning`), and the streams it reads (`gpu_model::slots`): geometry, instances, surface,
/// skin, node.
pub(crate) fn shaded(posing: Posing, skinning: bool) -> (Entry, Vec<Option<wgpu::VertexBufferLayout<'static>>>) {
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

/// How a pipeline draws: its topology, depth test and write, culling, winding and blending, and
/// whether it writes depth only (no colour target).
pub(crate) struct DrawState {
    pub(crate) topology: wgpu::PrimitiveTopology,
    pub(crate) depth_compare: wgpu::CompareFunction,
    pub(crate) depth_write: bool,
    pub(crate) cull_mode: Option<wgpu::Face>,
    /// Its front faces wind clockwise (a mirrored node's), not counter-clockwise as glTF's.
    pub(crate) mirrored: bool,
    pub(crate) blend: Option<wgpu::BlendState>,
    pub(crate) depth_only: bool,
}

/// Instance buffer layout matching `shaders/skinned.wgsl` locations 7-10 (the transform's rows,
/// then the palette base and the flags, one attribute: all 16 locations are taken) and 13 (the
/// tint).
pub(crate) const INSTANCE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<props_frame::InstanceData>() as u64,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![7 => Float32x4, 8 => Float32x4, 9 => Float32x4, 10 => Uint32x2, 13 => Unorm8x4],
};

/// A pipeline's shader: its module, entry points and pipeline-overridable constants.
pub(crate) struct Stages<'a> {
    pub(crate) module: &'a wgpu::ShaderModule,
    pub(crate) vertex: &'a str,
    /// `None`: depth only.
    pub(crate) fragment: Option<&'a str>,
    pub(crate) constants: &'a [(&'a str, f64)],
}

/// What every pipeline of the renderer shares: device, target formats, sample count.
#[derive(Clone, Copy)]
pub(crate) struct PipelineFactory<'a> {
    pub(crate) device: &'a wgpu::Device,
    pub(crate) color_format: wgpu::TextureFormat,
    pub(crate) depth_format: wgpu::TextureFormat,
    pub(crate) sample_count: u32,
}

impl PipelineFactory<'_> {
    /// The shader module of WGSL `source`.
    pub(crate) fn module(&self, label: &str, source: &str) -> wgpu::ShaderModule {
        self.device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        })
    }

    /// A pipeline drawing with `stages`, as `state` says.
    pub(crate) fn create(
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
                // glTF's front faces are counter-clockwise; a mirrored node turns them.
                front_face: if state.mirrored { wgpu::FrontFace::Cw } else { wgpu::FrontFace::Ccw },
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
