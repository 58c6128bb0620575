//! A model's meshes and materials on the GPU, uploaded once.

use bytemuck::{Pod, Zeroable};
use props_anim::{Model, Primitive, Topology};

use crate::admission::GpuFootprint;
use crate::shaders::{INFLUENCE_TEXTURE_WIDTH, PaletteAccess};
use wgpu::util::DeviceExt;

/// One vertex as the skinned pipeline reads it: 96 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct GpuVertex {
    /// Model-space position.
    pub position: [f32; 3],
    /// Model-space normal.
    pub normal: [f32; 3],
    /// First texture coordinate set.
    pub uv: [f32; 2],
    /// Two sets of four joint indices.
    pub joints: [u16; 8],
    /// Their weights.
    pub weights: [f32; 8],
    /// The influences past the 8th: offset in the model's list of them, and count.
    pub extra: [u32; 2],
    /// Vertex colour, linear RGBA as 16-bit unsigned normalized (white without `COLOR_0`).
    pub color: [u16; 4],
}

impl GpuVertex {
    /// Vertex buffer layout matching `shaders/skinned.wgsl` locations 0-6, 11 and 12.
    pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: size_of::<Self>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![
            0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Uint16x4, 4 => Uint16x4, 5 => Float32x4, 6 => Float32x4,
            11 => Uint32x2, 12 => Unorm16x4
        ],
    };

    /// The vertices of a primitive whose influences past the 8th start at `extra_base` in the
    /// model's list. Rigid primitives get joint 0 with weight 1 (the draw's joint offset then
    /// points at their node's matrix).
    #[must_use]
    pub fn from_primitive(primitive: &Primitive, extra_base: u32) -> Vec<Self> {
        (0..primitive.vertex_count())
            .map(|i| {
                let (joints, weights, extra) = match &primitive.influences {
                    Some(influences) => {
                        let start = influences.extra_start.get(i).copied().unwrap_or(0);
                        let count = influences.extra_of(i).len() as u32;
                        (influences.joints[i], influences.weights[i], [extra_base + start, count])
                    }
                    None => ([0; 8], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0; 2]),
                };
                Self {
                    position: primitive.positions[i].to_array(),
                    normal: primitive.normals.get(i).map_or([0.0, 1.0, 0.0], |n| n.to_array()),
                    uv: primitive.uv0.get(i).map_or([0.0; 2], |uv| uv.to_array()),
                    joints,
                    weights,
                    extra,
                    color: primitive.colors.get(i).map_or([u16::MAX; 4], |c| {
                        c.to_array().map(|v| (v.clamp(0.0, 1.0) * f32::from(u16::MAX)).round() as u16)
                    }),
                }
            })
            .collect()
    }
}

/// A primitive's influences past the 8th as the GPU reads them: (joint, weight bits) each.
fn extra_influences(primitive: &Primitive) -> impl Iterator<Item = [u32; 2]> + '_ {
    let extra = primitive.influences.iter().flat_map(|influences| &influences.extra);
    extra.map(|&(joint, weight)| [u32::from(joint), weight.to_bits()])
}

/// One draw of a model: a primitive placed by one mesh instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawItem {
    /// Range in the model's index buffer.
    pub first_index: u32,
    /// Number of indices.
    pub index_count: u32,
    /// Added to every index.
    pub base_vertex: i32,
    /// Index of the material bind group.
    pub material: usize,
    /// Byte offset of this draw's [`DrawParams`] in the model's draw buffer.
    pub params_offset: u32,
}

/// Per-draw uniform: where in an instance's palette this draw's joints start.
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DrawParams {
    /// Palette offset of the skin's first joint, or of the node's matrix for a rigid draw.
    pub joint_offset: u32,
    /// Padding to 16 bytes.
    pub padding: [u32; 3],
}

/// Layouts and defaults shared by every uploaded model.
pub struct ModelLayouts {
    /// Group 1: the per-draw uniform (dynamic offset).
    pub draw: wgpu::BindGroupLayout,
    /// Group 2: material factor, base color texture, sampler.
    pub material: wgpu::BindGroupLayout,
    /// Sampler for base color textures (repeat, linear, mipmapped).
    pub sampler: wgpu::Sampler,
    /// 1x1 white texture for materials without one.
    pub white: wgpu::TextureView,
    /// Stride of [`DrawParams`] entries: the device's uniform offset alignment.
    pub draw_stride: u32,
    /// How the vertex shader reads a model's influences past the 8th (group 1, binding 1):
    /// as the palette is read.
    pub influences: PaletteAccess,
}

/// A model on the GPU: vertex and index buffers, draws, materials. Dropping it frees them.
pub struct GpuModel {
    /// All primitives' vertices.
    pub vertices: wgpu::Buffer,
    /// All primitives' indices (u32).
    pub indices: wgpu::Buffer,
    /// Per-draw uniforms and their bind group.
    pub draw_group: wgpu::BindGroup,
    /// Keeps the draw uniform buffer alive.
    _draw_params: wgpu::Buffer,
    /// Keeps the influences past the 8th alive.
    _extra_influences: ExtraInfluences,
    /// Material bind groups, the last one being the default material.
    pub materials: Vec<wgpu::BindGroup>,
    /// Draws, in mesh-instance then primitive order.
    pub draws: Vec<DrawItem>,
    /// Matrices per instance palette (`Model::palette_len`).
    pub palette_len: u32,
    /// What it takes on the device.
    pub footprint: GpuFootprint,
}

impl GpuModel {
    /// Uploads `model`'s triangle primitives (lines and points are skipped), materials and
    /// textures (sRGB, with mipmaps generated on the CPU).
    #[must_use]
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layouts: &ModelLayouts,
        model: &Model,
        footprint: GpuFootprint,
    ) -> Self {
        let mut vertices: Vec<GpuVertex> = Vec::new();
        let mut indices: Vec<u32> = Vec::new();
        let mut extra: Vec<[u32; 2]> = Vec::new();
        // Where each (mesh, primitive) landed: (first index, count, base vertex).
        let placed: Vec<Vec<Option<(u32, u32, i32)>>> = model
            .meshes()
            .iter()
            .map(|mesh| {
                mesh.primitives
                    .iter()
                    .map(|p| {
                        (p.topology == Topology::Triangles && !p.indices.is_empty()).then(|| {
                            let placement = (indices.len() as u32, p.indices.len() as u32, vertices.len() as i32);
                            vertices.extend(GpuVertex::from_primitive(p, extra.len() as u32));
                            extra.extend(extra_influences(p));
                            indices.extend_from_slice(&p.indices);
                            placement
                        })
                    })
                    .collect()
            })
            .collect();
        let default_material = model.materials().len();
        let mut draws = Vec::new();
        let mut params = Vec::new();
        for (slot, instance) in model.instances().iter().enumerate() {
            let mesh = &model.meshes()[instance.mesh as usize];
            for (primitive, placement) in mesh.primitives.iter().zip(&placed[instance.mesh as usize]) {
                let Some((first_index, index_count, base_vertex)) = *placement else { continue };
                let joint_offset = match instance.skin.filter(|_| primitive.influences.is_some()) {
                    Some(skin) => model.palette_range(skin).start,
                    None => model.node_slot(slot),
                };
                let params_offset = (draws.len() as u32) * layouts.draw_stride;
                params.resize(params_offset as usize, 0u8);
                params.extend_from_slice(bytemuck::bytes_of(&DrawParams {
                    joint_offset: joint_offset as u32,
                    padding: [0; 3],
                }));
                let material = primitive.material.map_or(default_material, |m| m as usize);
                draws.push(DrawItem { first_index, index_count, base_vertex, material, params_offset });
            }
        }
        params.resize(params.len().max(16), 0);
        let buffer = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        // wgpu needs non-empty buffers.
        let vertex_bytes =
            if vertices.is_empty() { &[0u8; size_of::<GpuVertex>()][..] } else { bytemuck::cast_slice(&vertices) };
        let index_bytes = if indices.is_empty() { &[0u8; 4][..] } else { bytemuck::cast_slice(&indices) };
        let draw_params = buffer("draw params", &params, wgpu::BufferUsages::UNIFORM);
        if extra.is_empty() {
            extra.push([0; 2]);
        }
        let extra = ExtraInfluences::upload(device, queue, layouts.influences, &extra);
        let draw_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("draw params"),
            layout: &layouts.draw,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &draw_params,
                        offset: 0,
                        size: wgpu::BufferSize::new(size_of::<DrawParams>() as u64),
                    }),
                },
                wgpu::BindGroupEntry { binding: 1, resource: extra.binding() },
            ],
        });
        let textures: Vec<wgpu::TextureView> =
            model.images().iter().map(|image| crate::texture::upload_srgb(device, queue, image)).collect();
        let mut materials: Vec<wgpu::BindGroup> = model
            .materials()
            .iter()
            .map(|m| {
                let texture = m.base_color_texture.map_or(&layouts.white, |t| &textures[t as usize]);
                material_group(device, layouts, m.base_color_factor, texture)
            })
            .collect();
        materials.push(material_group(device, layouts, [0.8, 0.8, 0.8, 1.0], &layouts.white));
        Self {
            vertices: buffer("model vertices", vertex_bytes, wgpu::BufferUsages::VERTEX),
            indices: buffer("model indices", index_bytes, wgpu::BufferUsages::INDEX),
            draw_group,
            _draw_params: draw_params,
            _extra_influences: extra,
            materials,
            draws,
            palette_len: model.palette_len() as u32,
            footprint,
        }
    }
}

fn material_group(
    device: &wgpu::Device,
    layouts: &ModelLayouts,
    base_color: [f32; 4],
    texture: &wgpu::TextureView,
) -> wgpu::BindGroup {
    let factor = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("material"),
        contents: bytemuck::cast_slice(&base_color),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("material"),
        layout: &layouts.material,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: factor.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(texture) },
            wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&layouts.sampler) },
        ],
    })
}

/// A model's influences past the 8th on the device (at least one entry: wgpu binds nothing
/// empty).
enum ExtraInfluences {
    /// A storage buffer of (joint, weight bits) pairs.
    Buffer(wgpu::Buffer),
    /// An RG32Uint texture, one texel per influence, [`INFLUENCE_TEXTURE_WIDTH`] wide.
    Texture(wgpu::TextureView),
}

impl ExtraInfluences {
    fn upload(device: &wgpu::Device, queue: &wgpu::Queue, access: PaletteAccess, extra: &[[u32; 2]]) -> Self {
        match access {
            PaletteAccess::StorageBuffer => {
                Self::Buffer(device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("extra influences"),
                    contents: bytemuck::cast_slice(extra),
                    usage: wgpu::BufferUsages::STORAGE,
                }))
            }
            PaletteAccess::Texture => {
                let width = (extra.len() as u32).min(INFLUENCE_TEXTURE_WIDTH);
                let height = (extra.len() as u32).div_ceil(INFLUENCE_TEXTURE_WIDTH);
                let mut texels = extra.to_vec();
                texels.resize((width * height) as usize, [0; 2]);
                let texture = device.create_texture_with_data(
                    queue,
                    &wgpu::TextureDescriptor {
                        label: Some("extra influences"),
                        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format: wgpu::TextureFormat::Rg32Uint,
                        usage: wgpu::TextureUsages::TEXTURE_BINDING,
                        view_formats: &[],
                    },
                    wgpu::util::TextureDataOrder::LayerMajor,
                    bytemuck::cast_slice(&texels),
                );
                Self::Texture(texture.create_view(&wgpu::TextureViewDescriptor::default()))
            }
        }
    }

    fn binding(&self) -> wgpu::BindingResource<'_> {
        match self {
            Self::Buffer(buffer) => buffer.as_entire_binding(),
            Self::Texture(view) => wgpu::BindingResource::TextureView(view),
        }
    }
}
