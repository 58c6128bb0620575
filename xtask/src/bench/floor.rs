//! The floor of `cargo xtask bench render`: the simplest pipeline that draws the same instanced
//! triangles, what the hardware does at best with them. One mesh (the model's triangles at
//! rest, merged), one indexed draw of every instance, each placed by a 3x4 matrix read from a
//! storage buffer by instance index; a Lambert fragment; 4x MSAA and Depth32Float, as the
//! renderer draws by default. Every row of the render table is given as a ratio to it.
//!
//! It does the least vertex work those triangles need: a vertex is a position alone (welded
//! wherever two are at the same place, by meshoptimizer's remap), its triangles in
//! vertex-cache order, each pixel lit by its triangle's normal (from the position's slope on
//! screen). The renderer, which draws a faceted part flat over welded vertices in that order
//! too (`props-render`'s `drawn.rs`), still carries more than a position where a part's
//! vertices differ in texture coordinates, colour or influences, or its normals are smooth.

use anyhow::{Result, ensure};
use glam::{Affine3A, Vec3};
use props_anim::{Model, Topology};
use props_frame::{Camera, FrameData};
use props_render::{OffscreenTarget, PassCount};
use wgpu::util::DeviceExt;

/// Samples per pixel, as the renderer's default.
const SAMPLES: u32 = 4;

const SHADER: &str = "
struct Camera { view_proj: mat4x4<f32>, light: vec4<f32> };
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> placements: array<mat3x4<f32>>;

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs(@builtin(instance_index) instance: u32, @location(0) p: vec3<f32>) -> Out {
    var out: Out;
    out.world = vec4<f32>(p, 1.0) * placements[instance];
    out.clip = camera.view_proj * vec4<f32>(out.world, 1.0);
    return out;
}

@fragment
fn fs(in: Out) -> @location(0) vec4<f32> {
    // The triangle's normal, facing the camera (only front faces are drawn).
    let normal = normalize(cross(dpdy(in.world), dpdx(in.world)));
    let lit = max(dot(normal, camera.light.xyz), 0.0);
    return vec4<f32>(vec3<f32>(0.8) * (0.2 + 0.8 * lit), 1.0);
}
";

/// The floor's GPU objects for one model and one frame's instances.
pub struct Floor {
    pipeline: wgpu::RenderPipeline,
    camera: wgpu::Buffer,
    group: wgpu::BindGroup,
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    vertex_count: u32,
    instance_count: u32,
    msaa: wgpu::TextureView,
    depth: wgpu::TextureView,
}

/// `model`'s triangles at rest, in its own space, over the fewest vertices (a position each,
/// welded where equal), in vertex-cache order.
fn merged_mesh(model: &Model) -> (Vec<[f32; 3]>, Vec<u32>) {
    let rest = model.pose_at(None, 0.0);
    let (mut positions, mut indices) = (Vec::new(), Vec::new());
    for instance in model.instances() {
        // Rigid primitives by their node's rest matrix; skinned ones are in the model's space.
        let place: Affine3A =
            if instance.skin.is_some() { Affine3A::IDENTITY } else { rest.world_matrix(instance.node) };
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            if primitive.topology != Topology::Triangles {
                continue;
            }
            let base = positions.len() as u32;
            positions.extend(primitive.positions.iter().map(|p| place.transform_point3(*p).to_array()));
            indices.extend(primitive.indices.iter().map(|i| base + i));
        }
    }
    let (count, remap) = meshopt::generate_vertex_remap(&positions, Some(&indices));
    let positions = meshopt::remap_vertex_buffer(&positions, count, &remap);
    let indices = meshopt::optimize_vertex_cache(&meshopt::remap_index_buffer(Some(&indices), count, &remap), count);
    (positions, indices)
}

impl Floor {
    /// The floor drawing `model` at every instance of `frame` into targets of `target`'s
    /// size and format.
    pub fn new(device: &wgpu::Device, target: &OffscreenTarget, model: &Model, frame: &FrameData) -> Result<Self> {
        let (vertices, indices) = merged_mesh(model);
        ensure!(!indices.is_empty(), "the model has no triangles");
        let placements: Vec<[[f32; 4]; 3]> = frame.instances.iter().map(|i| i.transform.rows).collect();
        let buffer = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        let camera = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("floor camera"),
            size: 80,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let placements = buffer("floor placements", bytemuck::cast_slice(&placements), wgpu::BufferUsages::STORAGE);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("floor"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("floor"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 12,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x3],
                })],
            },
            primitive: wgpu::PrimitiveState { cull_mode: Some(wgpu::Face::Back), ..Default::default() },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: wgpu::TextureFormat::Depth32Float,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState { count: SAMPLES, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(props_render::OFFSCREEN_FORMAT.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("floor"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: camera.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: placements.as_entire_binding() },
            ],
        });
        let (w, h) = target.size();
        let attachment = |label, format| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: SAMPLES,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        Ok(Self {
            pipeline,
            group,
            vertices: buffer("floor vertices", bytemuck::cast_slice(&vertices), wgpu::BufferUsages::VERTEX),
            indices: buffer("floor indices", bytemuck::cast_slice(&indices), wgpu::BufferUsages::INDEX),
            index_count: indices.len() as u32,
            vertex_count: vertices.len() as u32,
            instance_count: frame.instances.len() as u32,
            msaa: attachment("floor msaa", props_render::OFFSCREEN_FORMAT),
            depth: attachment("floor depth", wgpu::TextureFormat::Depth32Float),
            camera,
        })
    }

    /// Instances one frame draws.
    pub fn instances(&self) -> u32 {
        self.instance_count
    }

    /// Triangles and vertices one frame submits.
    pub fn submitted(&self) -> PassCount {
        let instances = u64::from(self.instance_count);
        PassCount {
            triangles: u64::from(self.index_count / 3) * instances,
            vertices: u64::from(self.vertex_count) * instances,
        }
    }

    /// Records one frame seen by `camera` into `encoder`, resolved into `target`.
    pub fn draw(
        &self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &OffscreenTarget,
        camera: &Camera,
    ) {
        let light = Vec3::new(0.4, 0.8, 0.45).normalize();
        let mut uniform = camera.view_projection.to_cols_array().to_vec();
        uniform.extend([light.x, light.y, light.z, 0.0]);
        queue.write_buffer(&self.camera, 0, bytemuck::cast_slice(&uniform));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("floor"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.msaa,
                depth_slice: None,
                resolve_target: Some(target.view()),
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, 0..self.instance_count);
    }
}
