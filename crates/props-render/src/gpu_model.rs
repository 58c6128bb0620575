//! A model's meshes and materials on the GPU, uploaded once.

use bytemuck::{Pod, Zeroable};
use glam::{Vec3, Vec4};
use props_anim::WEIGHTS_PER_SLOT;
use props_anim::material::{AlphaMode, Material};
use props_anim::{Model, Primitive};
use wgpu::util::DeviceExt;

use crate::draw_lists::{AlonePart, DrawItem, DrawLists, MAX_LEVELS, Posing};
use crate::draw_merge::MergePlan;
use crate::drawn::DrawnMeshes;
use crate::materials::{self, Defaults, Samplers};
use crate::mipmaps::Mipmaps;
use crate::pipeline_key::PipelineKey;
use crate::shaders::PaletteAccess;
use crate::slot_bindings::SlotBindings;
use crate::vertex_tables::{TableFormat, VertexTable, extra_influences, morph_deltas};

/// A vertex's position and normal: the stream every pipeline reads, shadows included (24
/// bytes; `shaders/skinned.wgsl` locations 0 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct GeometryVertex {
    /// Model-space position.
    pub position: [f32; 3],
    /// Model-space normal.
    pub normal: [f32; 3],
}

/// A vertex's attributes the surface is shaded with: the stream only the shaded pipelines
/// read (40 bytes; locations 2, 12, 14 and 15).
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct SurfaceVertex {
    /// First texture coordinate set.
    pub uv: [f32; 2],
    /// Second texture coordinate set (UV channel 1).
    pub uv1: [f32; 2],
    /// Vertex colour, linear RGBA as 16-bit unsigned normalized (white without `COLOR_0`).
    pub color: [u16; 4],
    /// Tangent and bitangent sign (zero without one).
    pub tangent: [f32; 4],
}

/// A skinned vertex's influences: the stream only skinned draws read, uploaded for models
/// with a skinned primitive (56 bytes; locations 3 to 6 and 11).
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct SkinVertex {
    /// Two sets of four joint indices.
    pub joints: [u16; 8],
    /// Their weights.
    pub weights: [f32; 8],
    /// The influences past the 8th: offset in the model's list of them, and count.
    pub extra: [u32; 2],
}

/// The vertex buffer slots the pipelines read: geometry, the instances, surface, skin, node.
pub(crate) mod slots {
    /// [`super::GeometryVertex`].
    pub const GEOMETRY: u32 = 0;
    /// The frame's instances (`props_frame::InstanceData`).
    pub const INSTANCES: u32 = 1;
    /// [`super::SurfaceVertex`].
    pub const SURFACE: u32 = 2;
    /// [`super::SkinVertex`].
    pub const SKIN: u32 = 3;
    /// Each vertex's node slot ([`super::NODE_LAYOUT`]).
    pub const NODE: u32 = 4;
}

/// The node stream: per vertex, the palette slot of the node that places it where its draw
/// merges parts of several nodes (`draw_merge.rs`), else 0 (its draw's node): what rigid
/// pipelines add to the draw's joint offset (`shaders/skinned.wgsl` location 3).
pub(crate) const NODE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: size_of::<u32>() as u64,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![3 => Uint32],
};

impl GeometryVertex {
    /// Vertex buffer layout matching `shaders/skinned.wgsl` locations 0 and 1.
    pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: size_of::<Self>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
    };
}

impl SurfaceVertex {
    /// Vertex buffer layout matching `shaders/skinned.wgsl` locations 2, 14, 12 and 15.
    pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: size_of::<Self>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![2 => Float32x2, 14 => Float32x2, 12 => Unorm16x4, 15 => Float32x4],
    };
}

impl SkinVertex {
    /// Vertex buffer layout matching `shaders/skinned.wgsl` locations 3 to 6 and 11.
    pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: size_of::<Self>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![
            3 => Uint16x4, 4 => Uint16x4, 5 => Float32x4, 6 => Float32x4, 11 => Uint32x2
        ],
    };
}

/// Bytes of the streams every vertex of a model takes: geometry, surface and node, and the
/// skin's when the model has a skinned primitive.
pub(crate) fn vertex_bytes(skinned: bool) -> u64 {
    let skin = if skinned { size_of::<SkinVertex>() } else { 0 };
    (size_of::<GeometryVertex>() + size_of::<SurfaceVertex>() + size_of::<u32>() + skin) as u64
}

/// A model's vertices, stream by stream; the skin's only when it is skinned.
struct Streams {
    geometry: Vec<GeometryVertex>,
    surface: Vec<SurfaceVertex>,
    node: Vec<u32>,
    skin: Vec<SkinVertex>,
}

impl Streams {
    /// Appends `primitive`'s vertices, placed by palette slot `node` (0: its draw's) with
    /// their colours times `color`; rigid ones get no skin entry unless `skinned_model` (every
    /// vertex of a model with a skinned primitive has one, zero for rigid vertices and for a
    /// merged copy, `extra_base` `None`). Its influences past the 8th start at `extra_base` in
    /// the model's list.
    fn push(
        &mut self,
        primitive: &Primitive,
        (extra_base, skinned_model): (Option<u32>, bool),
        (node, color): (u32, Vec4),
    ) {
        for i in 0..primitive.vertex_count() {
            self.geometry.push(GeometryVertex {
                position: primitive.positions[i].to_array(),
                normal: primitive.normals.get(i).map_or([0.0, 1.0, 0.0], |n| n.to_array()),
            });
            let own = primitive.colors.get(i).copied().unwrap_or(Vec4::ONE);
            self.surface.push(SurfaceVertex {
                uv: primitive.uv0.get(i).map_or([0.0; 2], |uv| uv.to_array()),
                uv1: primitive.uv1.get(i).map_or([0.0; 2], |uv| uv.to_array()),
                color: (own * color).to_array().map(|v| (v.clamp(0.0, 1.0) * f32::from(u16::MAX)).round() as u16),
                tangent: primitive.tangents.get(i).map_or([0.0; 4], |t| t.to_array()),
            });
            self.node.push(node);
            if !skinned_model {
                continue;
            }
            self.skin.push(match (&primitive.influences, extra_base) {
                (Some(influences), Some(extra_base)) => {
                    let start = influences.extra_start.get(i).copied().unwrap_or(0);
                    let count = influences.extra_of(i).len() as u32;
                    SkinVertex {
                        joints: influences.joints[i],
                        weights: influences.weights[i],
                        extra: [extra_base + start, count],
                    }
                }
                _ => SkinVertex::zeroed(),
            });
        }
    }
}

/// Per-draw uniform (`Draw` in `shaders/skinned.wgsl`): where in an instance's palette this
/// draw's joints and morph weights are, and where its morph deltas are in the model's table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub struct DrawParams {
    /// Palette offset of the skin's first joint, or of the node's matrix for a rigid draw.
    pub joint_offset: u32,
    /// The primitive's first morph delta entry (a position and a normal delta, one per target
    /// and vertex; its colour deltas follow them all).
    pub morph_first: u32,
    /// Morph targets of the primitive (0: no morph).
    pub morph_targets: u32,
    /// Vertices of the primitive.
    pub morph_vertices: u32,
    /// The node's first morph weight in an instance's palette, in floats.
    pub weight_first: u32,
    /// The draw's base vertex.
    pub vertex_base: u32,
    /// Where the mesh instance's visibility lies in an instance's palette, in floats, plus 1;
    /// 0 when no animation can hide it ([`props_anim::Model::visibility_value`]).
    pub visibility: u32,
}

/// Layouts and defaults shared by every uploaded model.
pub struct ModelLayouts {
    /// Group 1: the per-draw uniform (dynamic offset).
    pub draw: wgpu::BindGroupLayout,
    /// Group 2: the material's uniform, its textures and their samplers, slot by slot.
    pub material: wgpu::BindGroupLayout,
    /// How `material` binds the texture slots (`Layouts::slots`).
    pub slots: SlotBindings,
    /// What materials without a slot's texture bind.
    pub defaults: Defaults,
    /// Stride of [`DrawParams`] entries: the device's uniform offset alignment.
    pub draw_stride: u32,
    /// How the vertex shader reads a model's per-vertex tables (group 1, bindings 1 and 2:
    /// influences past the 8th, morph deltas): as the palette is read.
    pub tables: PaletteAccess,
    /// The device features of the GPU block formats KTX2 textures may be uploaded in.
    pub block_formats: wgpu::Features,
    /// What draws other textures' mip levels.
    pub mipmaps: Mipmaps,
}

/// A model on the GPU: vertex and index buffers, draws, materials. Dropping it frees them.
pub(crate) struct GpuModel {
    /// All primitives' geometry ([`GeometryVertex`]).
    pub geometry: wgpu::Buffer,
    /// All primitives' surface attributes ([`SurfaceVertex`]).
    pub surface: wgpu::Buffer,
    /// Each vertex's node slot ([`NODE_LAYOUT`]).
    pub node: wgpu::Buffer,
    /// All primitives' influences ([`SkinVertex`]), for a model with a skinned primitive.
    pub skin: Option<wgpu::Buffer>,
    /// All primitives' indices (u32).
    pub indices: wgpu::Buffer,
    /// Per-draw uniforms and their bind group.
    pub draw_group: wgpu::BindGroup,
    /// Keeps the draw uniform buffer alive.
    _draw_params: wgpu::Buffer,
    /// Keeps the per-vertex tables alive: influences past the 8th, morph deltas.
    _tables: [VertexTable; 2],
    /// Material bind groups: the model's, the default material's, then each merged draw's.
    pub materials: Vec<wgpu::BindGroup>,
    /// Its draws, one list per material variant.
    pub draws: DrawLists,
    /// Matrices per instance palette (`Model::palette_len`).
    pub palette_len: u32,
    /// How far from its origin its vertices can reach in any pose, metres
    /// ([`props_anim::bounds::PoseBounds::radius`]; `f32::MAX` when unbounded): which shadow cascades
    /// an instance can cast into.
    pub reach: f32,
    /// Whether the pipelines of its draws mirrored (front faces clockwise) were made: once
    /// instances of it are first placed mirrored ([`crate::Renderer::prepare`]).
    pub mirrored_pipelines: bool,
}

impl GpuModel {
    /// Uploads `model`'s primitives as `drawn` has them, materials and textures (with
    /// mipmaps), its samplers made through `samplers`.
    #[must_use]
    pub(crate) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (layouts, samplers): (&ModelLayouts, &mut Samplers),
        (model, drawn): (&Model, &DrawnMeshes<'_>),
    ) -> Self {
        let skinned_model = model.meshes().iter().flat_map(|m| &m.primitives).any(|p| p.influences.is_some());
        let mut streams = Streams { geometry: Vec::new(), surface: Vec::new(), node: Vec::new(), skin: Vec::new() };
        let mut indices: Vec<u32> = Vec::new();
        let mut extra: Vec<[u32; 2]> = Vec::new();
        let mut deltas: Vec<[f32; 4]> = Vec::new();
        let plan = MergePlan::new(model, drawn);
        // Where each (mesh, primitive) some mesh instance draws alone landed.
        let placed: Vec<Vec<Option<Placement>>> = plan
            .drawn_alone
            .iter()
            .enumerate()
            .map(|(mesh, alone)| {
                drawn
                    .mesh(mesh)
                    .zip(alone)
                    .enumerate()
                    .map(|(index, (p, &alone))| {
                        alone.then(|| {
                            let mut placement = Placement {
                                levels: Vec::with_capacity(1 + p.lods.len()),
                                base_vertex: streams.geometry.len() as i32,
                                // In pairs of texels: every primitive's deltas are an even count.
                                morph_first: (deltas.len() / 2) as u32,
                            };
                            streams.push(p, (Some(extra.len() as u32), skinned_model), (0, Vec4::ONE));
                            extra.extend(extra_influences(p));
                            deltas.extend(morph_deltas(p));
                            // Its levels of detail, each after the one before.
                            for list in (0..=p.lods.len()).map(|level| drawn.level(mesh, index, level)) {
                                let range = (indices.len() as u32, list.len() as u32);
                                placement.levels.push((range, distinct(list, p.vertex_count())));
                                indices.extend_from_slice(list);
                            }
                            placement
                        })
                    })
                    .collect()
            })
            .collect();
        let default_material = model.materials().len();
        // Then the impostor's, after the merged draws' (`draw_merge.rs`): its own look's, then
        // each material variant's.
        let impostor_looks: Vec<(&[Vec4], &Material)> = model.impostor().map_or_else(Vec::new, |impostor| {
            let variants = impostor.material_variants.iter().map(|look| (&look.colors[..], &look.material));
            std::iter::once((&impostor.primitive.colors[..], &impostor.material)).chain(variants).collect()
        });
        let merged_materials: Vec<_> = plan
            .groups
            .iter()
            .map(|group| group.material.clone())
            .chain(impostor_looks.iter().map(|&(_, material)| material.clone()))
            .collect();
        let materials = materials::bind_groups(
            device,
            queue,
            (&layouts.material, layouts.slots, &layouts.defaults, samplers),
            (model, &merged_materials),
            (&layouts.mipmaps, layouts.block_formats),
        );
        // The draws of the parts drawn alone, in the model's own materials, each with its mesh
        // and primitive (the variants' lists draw them in theirs), then the other draws.
        let mut draws = Vec::new();
        let mut alone = Vec::new();
        let reach = Some(model.pose_bounds().radius as f32).filter(|r| r.is_finite()).unwrap_or(f32::MAX);
        let mut params_bytes = Vec::new();
        let levels = model.lod_errors().len().min(MAX_LEVELS);
        let merged: std::collections::HashSet<(usize, usize)> =
            plan.groups.iter().flat_map(|group| group.members.iter().copied()).collect();
        for (slot, instance) in model.instances().iter().enumerate() {
            let mesh = drawn.mesh(instance.mesh as usize);
            for (p, (primitive, placement)) in mesh.zip(&placed[instance.mesh as usize]).enumerate() {
                let Some(Placement { levels: own, base_vertex, morph_first }) = placement else {
                    continue;
                };
                if merged.contains(&(slot, p)) {
                    continue;
                }
                let (base_vertex, morph_first) = (*base_vertex, *morph_first);
                // At each of the model's levels, the primitive's own level drawn.
                let (mut ranges, mut level_vertices) = ([(0, 0); MAX_LEVELS], [0; MAX_LEVELS]);
                for k in 0..levels {
                    if let Some(own_level) = model.primitive_level(slot, p, k) {
                        (ranges[k], level_vertices[k]) = own[own_level.min(own.len() - 1)];
                    }
                }
                let (joint_offset, node_matrix, posing) = match instance.skin.filter(|_| primitive.influences.is_some())
                {
                    Some(skin) => (model.palette_range(skin).start, None, Posing::Skinned),
                    None => (model.node_slot(slot), Some(model.node_slot(slot) as u32), Posing::Rigid),
                };
                let weight_first =
                    model.weight_slot() * WEIGHTS_PER_SLOT + model.rig().morph_range(instance.node).start;
                let visibility = model.visibility_value(slot);
                let params_offset = append_params(
                    &mut params_bytes,
                    (draws.len(), layouts.draw_stride),
                    &DrawParams {
                        joint_offset: joint_offset as u32,
                        morph_first,
                        morph_targets: primitive.morph_targets.len() as u32,
                        morph_vertices: primitive.vertex_count() as u32,
                        weight_first: weight_first as u32,
                        vertex_base: base_vertex as u32,
                        visibility: visibility
                            .map_or(0, |value| (model.property_slot() * WEIGHTS_PER_SLOT + value + 1) as u32),
                    },
                );
                let center = box_center(primitive);
                draws.push(DrawItem {
                    ranges,
                    levels: levels as u8,
                    level_vertices,
                    base_vertex,
                    material: default_material,
                    key: PipelineKey::default(),
                    masked: false,
                    params_offset,
                    center,
                    node_matrix,
                    posing,
                });
                alone.push(AlonePart {
                    mesh: instance.mesh as usize,
                    primitive: p,
                    hideable: visibility.is_some(),
                    mirrored: posing == Posing::Rigid && plan.mirrored[slot],
                });
            }
        }
        let alone_count = draws.len();
        // Each merged draw: its members' copies, each placed by its node, one index list per
        // level of the model.
        for (g, group) in plan.groups.iter().enumerate() {
            let base_vertex = streams.geometry.len() as u32;
            let mut member_bases = Vec::with_capacity(group.members.len());
            for &(slot, p) in &group.members {
                let primitive = drawn.primitive(model.instances()[slot].mesh as usize, p);
                member_bases.push(streams.geometry.len() as u32 - base_vertex);
                let color = MergePlan::member_color(model, (slot, p));
                streams.push(primitive, (None, skinned_model), (model.node_slot(slot) as u32, color));
            }
            let (mut ranges, mut level_vertices) = ([(0, 0); MAX_LEVELS], [0; MAX_LEVELS]);
            for k in 0..levels {
                let first = indices.len() as u32;
                for (&(slot, p), &member_base) in group.members.iter().zip(&member_bases) {
                    let mesh = model.instances()[slot].mesh as usize;
                    let list = model.primitive_level(slot, p, k).map_or(&[][..], |own| drawn.level(mesh, p, own));
                    level_vertices[k] += distinct(list, drawn.primitive(mesh, p).vertex_count());
                    indices.extend(list.iter().map(|&i| i + member_base));
                }
                ranges[k] = (first, indices.len() as u32 - first);
            }
            let params = DrawParams { vertex_base: base_vertex, ..DrawParams::default() };
            let params_offset = append_params(&mut params_bytes, (draws.len(), layouts.draw_stride), &params);
            let material = default_material + 1 + g;
            draws.push(DrawItem {
                ranges,
                levels: levels as u8,
                level_vertices,
                base_vertex: base_vertex as i32,
                material,
                // Each member's colour is its vertices'; all are flat, or none.
                key: materials
                    .get(material)
                    .map_or_else(PipelineKey::default, |(_, key)| *key)
                    .colored()
                    .flat(group.flat),
                masked: matches!(group.material.alpha_mode, AlphaMode::Mask { .. }),
                params_offset,
                // Opaque: never ordered by depth.
                center: Vec3::ZERO,
                node_matrix: None,
                posing: Posing::Rigid,
            });
        }
        let shared_count = draws.len() - alone_count;
        // The impostor: one draw a look (its own, then each material variant's), each over its
        // own copy of the box's vertices in its colours and one list of the box's indices.
        let impostor = model.impostor().zip(model.impostor_level().filter(|&at| at < levels));
        let first_index = indices.len() as u32;
        if let Some((impostor, _)) = impostor {
            indices.extend_from_slice(&impostor.primitive.indices);
        }
        let looks =
            impostor.into_iter().flat_map(|(impostor, at)| impostor_looks.iter().map(move |look| (impostor, at, look)));
        for (look, (impostor, at, &(colors, _))) in looks.enumerate() {
            let primitive = Primitive { colors: colors.to_vec(), ..impostor.primitive.clone() };
            let slot = model.node_slot(impostor.instance as usize) as u32;
            let (mut ranges, mut level_vertices) = ([(0, 0); MAX_LEVELS], [0; MAX_LEVELS]);
            ranges[at] = (first_index, primitive.indices.len() as u32);
            level_vertices[at] = primitive.vertex_count() as u32;
            let base_vertex = streams.geometry.len() as u32;
            streams.push(&primitive, (None, skinned_model), (0, Vec4::ONE));
            let params = DrawParams { joint_offset: slot, vertex_base: base_vertex, ..DrawParams::default() };
            let params_offset = append_params(&mut params_bytes, (draws.len(), layouts.draw_stride), &params);
            let material = default_material + 1 + plan.groups.len() + look;
            draws.push(DrawItem {
                ranges,
                levels: levels as u8,
                level_vertices,
                base_vertex: base_vertex as i32,
                material,
                // Each face's colour and share of paint are its vertices'.
                key: materials.get(material).map_or_else(PipelineKey::default, |(_, key)| *key).impostor(),
                masked: false,
                params_offset,
                center: box_center(&primitive),
                node_matrix: Some(slot),
                posing: Posing::Rigid,
            });
        }
        params_bytes.resize(params_bytes.len().max(size_of::<DrawParams>()), 0);
        let buffer = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        // wgpu needs non-empty buffers.
        let stream = |label, bytes: &[u8]| {
            let bytes = if bytes.is_empty() { &[0u8; 64][..] } else { bytes };
            buffer(label, bytes, wgpu::BufferUsages::VERTEX)
        };
        let index_bytes = if indices.is_empty() { &[0u8; 4][..] } else { bytemuck::cast_slice(&indices) };
        let draw_params = buffer("draw params", &params_bytes, wgpu::BufferUsages::UNIFORM);
        let extra = VertexTable::upload(device, queue, layouts.tables, "extra influences", TableFormat::Pairs, &extra);
        let deltas = VertexTable::upload(device, queue, layouts.tables, "morph deltas", TableFormat::Floats4, &deltas);
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
                wgpu::BindGroupEntry { binding: 2, resource: deltas.binding() },
            ],
        });
        let alone = (&draws[..alone_count], &alone[..]);
        let (shared, impostors) = draws[alone_count..].split_at(shared_count);
        let draws = DrawLists::new((model, drawn), alone, (shared, impostors), (&materials, default_material));
        Self {
            geometry: stream("model geometry", bytemuck::cast_slice(&streams.geometry)),
            node: stream("model nodes", bytemuck::cast_slice(&streams.node)),
            surface: stream("model surface", bytemuck::cast_slice(&streams.surface)),
            skin: skinned_model.then(|| stream("model skin", bytemuck::cast_slice(&streams.skin))),
            indices: buffer("model indices", index_bytes, wgpu::BufferUsages::INDEX),
            draw_group,
            _draw_params: draw_params,
            _tables: [extra, deltas],
            materials: materials.into_iter().map(|(group, _)| group).collect(),
            draws,
            palette_len: model.palette_len() as u32,
            reach,
            mirrored_pipelines: false,
        }
    }
}

/// Appends the [`DrawParams`] of draw `draw` to `bytes` at its offset (`draw` x `stride`,
/// the device's uniform offset alignment), and returns that offset.
fn append_params(bytes: &mut Vec<u8>, (draw, stride): (usize, u32), params: &DrawParams) -> u32 {
    let offset = draw as u32 * stride;
    bytes.resize(offset as usize, 0u8);
    bytes.extend_from_slice(bytemuck::bytes_of(params));
    offset
}

/// How many distinct vertices (of `vertices`) `indices` references.
fn distinct(indices: &[u32], vertices: usize) -> u32 {
    let mut seen = vec![false; vertices];
    indices.iter().filter(|&&i| seen.get_mut(i as usize).is_some_and(|seen| !std::mem::replace(seen, true))).count()
        as u32
}

/// The centre of the box `primitive`'s positions fill.
fn box_center(primitive: &Primitive) -> Vec3 {
    let (min, max) = primitive
        .positions
        .iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(min, max), p| (min.min(*p), max.max(*p)));
    if min.is_finite() && max.is_finite() { (min + max) * 0.5 } else { Vec3::ZERO }
}

/// Where a primitive landed in a model's buffers.
#[derive(Clone)]
struct Placement {
    /// Each of its own levels' indices (first, count) and the distinct vertices they
    /// reference.
    levels: Vec<((u32, u32), u32)>,
    base_vertex: i32,
    /// Its first morph entry (a position and a normal delta: two texels) in the model's table.
    morph_first: u32,
}
