//! The floor of `cargo xtask bench render`: the simplest pipeline that draws the same instanced
//! geometry, what the hardware does at best with it. One mesh (the model's triangles at rest,
//! merged), one indexed draw of every instance, each placed by a 3x4 matrix read from a
//! storage buffer by instance index; a Lambert fragment; 4x MSAA and Depth32Float, as the
//! renderer draws by default. Every row of the render table is given as a ratio to it.
//!
//! It draws the file's vertices with their normals, as the issue that asked for it defined
//! it. The renderer draws a faceted part flat over welded vertices (`props-render`'s
//! `facets.rs`: a windmill's 312 are 104), so on such a model the floor is no longer the
//! least vertex work its triangles need, and a ratio under 1 says so.

use anyhow::{Result, ensure};
use glam::{Affine3A, Vec3};
use props_anim::{Model, Topology};
use props_frame::{Camera, FrameData};
use props_render::OffscreenTarget;
use wgpu::util::DeviceExt;

/// Samples per pixel, as the renderer's default.
const SAMPLES: u32 = 4;

const SHADER: &str = "
struct Camera { view_proj: mat4x4<f32>, light: vec4<f32> };
@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> placements: array<mat3x4<f32>>;

struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
};

@vertex
fn vs(@builtin(instance_index) instance: u32, @location(0) p: vec3<f32>, @location(1) n: vec3<f32>) -> Out {
    let m = placements[instance];
    var out: Out;
    out.clip = camera.view_proj * vec4<f32>(vec4<f32>(p, 1.0) * m, 1.0);
    out.normal = vec4<f32>(n, 0.0) * m;
    return out;
}

@fragment
fn fs(in: Out) -> @location(0) vec4<f32> {
    let lit = max(dot(normalize(in.normal), camera.light.xyz), 0.0);
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
    instance_count: u32,
    msaa: wgpu::TextureView,
    depth: wgpu::TextureView,
}

/// `model`'s triangles at rest, in its own space: positions and normals, one index list.
fn merged_mesh(model: &Model) -> (Vec<[f32; 6]>, Vec<u32>) {
    let rest = model.pose_at(None, 0.0);
    let (mut vertices, mut indices) = (Vec::new(), Vec::new());
    for instance in model.instances() {
        // Rigid primitives by their node's rest matrix; skinned ones are in the model's space.
        let place: Affine3A =
            if instance.skin.is_some() { Affine3A::IDENTITY } else { rest.world_matrix(instance.node) };
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            if primitive.topology != Topology::Triangles {
                continue;
            }
            let base = vertices.len() as u32;
            for (k, p) in primitive.positions.iter().enumerate() {
                let n = primitive.normals.get(k).copied().unwrap_or(Vec3::Y);
                let (p, n) = (place.transform_point3(*p), place.transform_vector3(n).normalize_or_zero());
                vertices.push([p.x, p.y, p.z, n.x, n.y, n.z]);
            }
            indices.extend(primitive.indices.iter().map(|i| base + i));
        }
    }
    (vertices, indices)
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
                    array_stride: 24,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
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
            instance_count: frame.instances.len() as u32,
            msaa: attachment("floor msaa", props_render::OFFSCREEN_FORMAT),
            depth: attachment("floor depth", wgpu::TextureFormat::Depth32Float),
            camera,
        })
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
