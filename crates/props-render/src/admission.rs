//! What a model asks of the device, checked against the device's limits before anything is
//! uploaded, and why the device may refuse it.
//!
//! [`Renderer::set_model`](crate::Renderer::set_model) calls [`footprint`] first and refuses
//! a model the limits cannot take; what the checks cannot foresee (a validation error, the
//! device out of memory) is caught by error scopes around the upload. Either way the model
//! that was there stays.

use props_anim::Model;

use crate::draw_merge::MergePlan;
use crate::drawn::DrawnMeshes;
use crate::gpu_model::{ModelLayouts, vertex_bytes as stream_bytes};
use crate::materials::{MaterialUniform, texture_uses};
use crate::shaders::{PaletteAccess, VERTEX_TABLE_WIDTH};
use crate::slot_bindings::SlotBindings;
use crate::texture::Ktx2Levels;

/// Bytes of one influence past the 8th on the device: joint and weight, 32 bits each.
const INFLUENCE_BYTES: u64 = 8;

/// The device memory a model takes once uploaded, by kind, in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuFootprint {
    /// The vertex buffer (every triangle primitive's vertices).
    pub vertex_bytes: u64,
    /// The index buffer.
    pub index_bytes: u64,
    /// Textures with their mip chains.
    pub texture_bytes: u64,
    /// Per-draw and per-material uniforms.
    pub uniform_bytes: u64,
    /// The influences past the 8th of every vertex (8 bytes each).
    pub influence_bytes: u64,
    /// The morph targets' position and normal deltas (32 bytes per target and vertex), and
    /// colour deltas where they displace colours (16 more).
    pub morph_bytes: u64,
}

/// Bytes in MiB, for messages.
fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

impl GpuFootprint {
    /// What `model` would take on a GPU, without one at hand (a tool that checks a mod): on a
    /// device with WebGPU's default limits (which every GPU gives at least) and a 256-byte
    /// uniform alignment, every texture slot bound and uploaded uncompressed, as PNG and JPEG
    /// textures always are (a KTX2 texture takes less where the device has its block format:
    /// [`Renderer::footprint`] says).
    ///
    /// [`Renderer::footprint`]: crate::Renderer::footprint
    ///
    /// # Errors
    /// What such a device would refuse ([`ModelRefused`]).
    pub fn estimate(model: &Model) -> Result<Self, ModelRefused> {
        let limits = wgpu::Limits::default();
        let bindable = Bindable {
            palette_matrices: usize::MAX,
            table_texels: u64::MAX,
            table_bytes: limits.max_storage_buffer_binding_size,
            draw_stride: limits.min_uniform_buffer_offset_alignment,
            block_formats: wgpu::Features::empty(),
            slots: SlotBindings::ALL.textures,
        };
        footprint((model, &DrawnMeshes::new(model)), &limits, &bindable)
    }

    /// All of it.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.vertex_bytes
            + self.index_bytes
            + self.texture_bytes
            + self.uniform_bytes
            + self.influence_bytes
            + self.morph_bytes
    }
}

/// Why the device cannot take a model. Each names what in the model is too large (a glTF
/// mesh as a JSON pointer, an image by its name) and what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelRefused {
    /// A texture is larger than the device's largest 2D texture.
    #[error(
        "image {image} is {width}x{height} pixels, larger than this GPU's {max} per side; export it at most {max} \
         pixels wide and high"
    )]
    TextureTooLarge {
        /// The image's name (its file name or glTF name), or its index.
        image: String,
        /// Width, pixels.
        width: u32,
        /// Height, pixels.
        height: u32,
        /// The device's `max_texture_dimension_2d`.
        max: u32,
    },
    /// The model's vertices or indices together exceed the device's largest buffer.
    #[error(
        "the model's {what} take {bytes} bytes, more than this GPU's largest buffer ({max} bytes); the largest part \
         is /meshes/{mesh}; split the model or reduce its {what}"
    )]
    BufferTooLarge {
        /// "vertices" or "indices".
        what: &'static str,
        /// Bytes needed.
        bytes: u64,
        /// The device's `max_buffer_size`.
        max: u64,
        /// The glTF mesh with the most of them.
        mesh: usize,
    },
    /// The model has more parts than a prop may (each planned, uploaded and, where parts do
    /// not merge, drawn on its own per pass).
    #[error(
        "the model has {draws} parts (each mesh's primitives on each node that places it), more than the {max} a \
         prop may: join the objects that share a material (Blender: Object > Join) or give them one material"
    )]
    TooManyDraws {
        /// Its parts.
        draws: u64,
        /// The most a prop may draw (65,536).
        max: u64,
    },
    /// One instance's palette does not fit one palette binding.
    #[error(
        "the model needs {matrices} joint matrices per instance, more than this GPU binds at once ({max}); use \
         fewer joints and skins"
    )]
    PaletteTooLarge {
        /// Matrices per instance palette.
        matrices: usize,
        /// The most one palette window holds.
        max: usize,
    },
    /// The model would take the models counted against a budget past it.
    #[error(
        "the model takes {:.1} MiB of GPU memory and the other mods {:.1} MiB, over the {:.0} MiB of GPU memory the \
         mods may take together; remove a mod, make this one smaller (a 2048 x 2048 texture takes 21.3 MiB with its \
         mipmaps), or raise the budget ({setting})",
        mib(*.bytes), mib(*.used), mib(*.budget)
    )]
    OverBudget {
        /// This model's footprint.
        bytes: u64,
        /// What the others already take.
        used: u64,
        /// The budget.
        budget: u64,
        /// Where the host's players raise it, in the host's words.
        setting: String,
    },
    /// The device reported an error while the model was uploaded (validation, out of memory).
    #[error("the GPU refused the model: {message}")]
    Device {
        /// The device's message.
        message: String,
    },
}

/// Parts a model may have (each mesh's primitives on each node that places it), before those
/// alike are merged: each is planned and uploaded, and a million tiny see-through parts,
/// which never merge, would be a million draw calls a pass, every frame. Far above any prop
/// (a detailed car has a few hundred).
pub(crate) const MAX_DRAWS: u64 = 65_536;

/// Bytes of a texture of `width` x `height` RGBA8 texels with its full mip chain.
fn texture_bytes(width: u32, height: u32) -> u64 {
    let (mut w, mut h, mut bytes) = (u64::from(width.max(1)), u64::from(height.max(1)), 0);
    loop {
        bytes += w * h * 4;
        if w == 1 && h == 1 {
            return bytes;
        }
        (w, h) = ((w / 2).max(1), (h / 2).max(1));
    }
}

/// What the renderer can bind for one model, besides the device's limits.
pub(crate) struct Bindable {
    /// Matrices one palette window holds.
    pub palette_matrices: usize,
    /// Texels of one per-vertex table (textures: its width times the largest height; storage
    /// buffers: no limit).
    pub table_texels: u64,
    /// Bytes of one per-vertex table (storage buffers: the largest binding; textures: no
    /// limit).
    pub table_bytes: u64,
    /// Bytes between draw uniforms.
    pub draw_stride: u32,
    /// The device features of the GPU block formats KTX2 textures may be uploaded in.
    pub block_formats: wgpu::Features,
    /// How many of a material's texture slots are bound (the textures of the rest are not
    /// uploaded).
    pub slots: usize,
}

impl Bindable {
    /// What a renderer on a device with `limits` binds: palette windows of `palette_matrices`,
    /// per-vertex tables read through `access`, `layouts`' draw stride and block formats.
    pub(crate) fn of(
        limits: &wgpu::Limits,
        access: PaletteAccess,
        palette_matrices: u32,
        layouts: &ModelLayouts,
    ) -> Self {
        let (table_texels, table_bytes) = match access {
            PaletteAccess::StorageBuffer => (u64::MAX, limits.max_storage_buffer_binding_size),
            PaletteAccess::Texture => {
                (u64::from(VERTEX_TABLE_WIDTH) * u64::from(limits.max_texture_dimension_2d), u64::MAX)
            }
        };
        Self {
            palette_matrices: palette_matrices as usize,
            table_texels,
            table_bytes,
            draw_stride: layouts.draw_stride,
            block_formats: layouts.block_formats,
            slots: layouts.slots.textures,
        }
    }
}

/// What `model`, its primitives drawn as `drawn`, takes on a device with `limits` and what the
/// renderer can bind; or why the device cannot take it.
pub(crate) fn footprint(
    (model, drawn): (&Model, &DrawnMeshes<'_>),
    limits: &wgpu::Limits,
    bindable: &Bindable,
) -> Result<GpuFootprint, ModelRefused> {
    let Bindable {
        palette_matrices: max_palette_matrices,
        table_texels,
        table_bytes,
        draw_stride,
        block_formats,
        slots,
    } = *bindable;
    for (i, image) in model.images().iter().enumerate() {
        if image.width.max(image.height) > limits.max_texture_dimension_2d {
            return Err(ModelRefused::TextureTooLarge {
                image: image.name.clone().unwrap_or_else(|| i.to_string()),
                width: image.width,
                height: image.height,
                max: limits.max_texture_dimension_2d,
            });
        }
    }
    if model.palette_len() > max_palette_matrices {
        return Err(ModelRefused::PaletteTooLarge { matrices: model.palette_len(), max: max_palette_matrices });
    }
    // Vertices, indices, influences past the 8th and morph delta texels of each mesh's
    // primitives (of triangles, points or lines), as `GpuModel` uploads them.
    let per_mesh: Vec<(u64, u64, u64, u64)> = (0..model.meshes().len())
        .map(|mesh| {
            let listed = drawn.mesh(mesh).filter(|p| !p.indices.is_empty());
            listed.fold((0, 0, 0, 0), |(v, i, e, m), p| {
                let extra = p.influences.as_ref().map_or(0, |influences| influences.extra.len() as u64);
                let morph = crate::vertex_tables::morph_texels(p);
                {
                    // Every level's indices: the full list, then the coarser ones after it.
                    let lods: usize = p.lods.iter().map(|lod| lod.indices.len()).sum();
                    (v + p.positions.len() as u64, i + (p.indices.len() + lods) as u64, e + extra, m + morph)
                }
            })
        })
        .collect();
    let largest = |pick: fn(&(u64, u64, u64, u64)) -> u64| {
        per_mesh.iter().enumerate().max_by_key(|(_, counts)| pick(counts)).map_or(0, |(mesh, _)| mesh)
    };
    // Every primitive's draw and the impostor's looks', checked before the merge is planned
    // (which walks every part).
    let impostor = model.impostor().map_or(0, |i| 1 + i.material_variants.len() as u64);
    let draws: u64 = model
        .instances()
        .iter()
        .map(|instance| model.meshes()[instance.mesh as usize].primitives.len() as u64)
        .sum::<u64>()
        + impostor;
    if draws > MAX_DRAWS {
        return Err(ModelRefused::TooManyDraws { draws, max: MAX_DRAWS });
    }
    let skinned = model.meshes().iter().flat_map(|m| &m.primitives).any(|p| p.influences.is_some());
    // What is uploaded: the parts drawn alone, and the copies of merged ones.
    let (vertices, indices) = MergePlan::new(model, drawn).uploaded(model, drawn);
    let vertex_bytes = vertices * stream_bytes(skinned);
    let index_bytes = indices * 4;
    let extra = per_mesh.iter().map(|c| c.2).sum::<u64>().max(1);
    let influence_bytes = extra * INFLUENCE_BYTES;
    // Texels of 16 bytes: a position and a normal delta per target and vertex, and a colour
    // delta where the targets displace colours (at least one texel: wgpu binds nothing empty).
    let deltas = per_mesh.iter().map(|c| c.3).sum::<u64>().max(1);
    let morph_bytes = deltas * 16;
    for (what, bytes, mesh) in
        [("vertices", vertex_bytes, largest(|c| c.0)), ("indices", index_bytes, largest(|c| c.1))]
    {
        if bytes > limits.max_buffer_size {
            return Err(ModelRefused::BufferTooLarge { what, bytes, max: limits.max_buffer_size, mesh });
        }
    }
    let max_bytes = table_bytes.min(limits.max_buffer_size);
    for (what, texels, bytes, texel_bytes, mesh) in [
        ("bone influences past the 8th per vertex", extra, influence_bytes, INFLUENCE_BYTES, largest(|c| c.2)),
        ("morph target deltas", deltas, morph_bytes, 16, largest(|c| c.3)),
    ] {
        if texels > table_texels || bytes > max_bytes {
            let max = max_bytes.min(table_texels.saturating_mul(texel_bytes));
            return Err(ModelRefused::BufferTooLarge { what, bytes, max, mesh });
        }
    }
    // The materials, the default and the impostor's looks' (its own and each material
    // variant's).
    let material_bytes = (model.materials().len() as u64 + 1 + impostor) * size_of::<MaterialUniform>() as u64;
    let uniform_bytes = (draws.max(1) * u64::from(draw_stride)).max(16) + material_bytes;
    if uniform_bytes > limits.max_buffer_size {
        let mesh = largest(|c| c.1);
        return Err(ModelRefused::BufferTooLarge {
            what: "draws",
            bytes: uniform_bytes,
            max: limits.max_buffer_size,
            mesh,
        });
    }
    // Each image once per colour space its materials sample it in.
    let texture_bytes = texture_uses(model, slots)
        .into_iter()
        .filter_map(|(image, srgb)| model.images().get(image as usize).map(|image| (image, srgb)))
        .map(|(image, srgb)| {
            Ktx2Levels::of(image, block_formats, srgb)
                .map_or_else(|| texture_bytes(image.width, image.height), |l| l.bytes())
        })
        .sum();
    Ok(GpuFootprint { vertex_bytes, index_bytes, texture_bytes, uniform_bytes, influence_bytes, morph_bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every primitive's morph deltas are counted as they are uploaded: a position and a normal
    /// delta per target and vertex, a colour delta more where the targets displace colours
    /// (an odd count padded), and a line's as a triangle's.
    #[test]
    fn morph_deltas_are_counted_as_uploaded() {
        use glam::{Vec3, Vec4};
        use props_anim::{
            Mesh, MeshInstance, ModelParts, MorphTarget, NodeId, Primitive, RestTransform, Rig, SourceNode, Topology,
        };
        let target = |colors: Vec<Vec4>| MorphTarget {
            positions: vec![Vec3::X; colors.len().max(2)],
            normals: Vec::new(),
            colors,
        };
        let mut triangle =
            Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![Vec3::Z; 3], vec![0, 1, 2], None);
        triangle.colors = vec![Vec4::ONE; 3];
        triangle.morph_targets = vec![target(vec![Vec4::X; 3])];
        let mut line = Primitive::triangles(vec![Vec3::ZERO, Vec3::X], vec![Vec3::Z; 2], vec![0, 1], None);
        line.topology = Topology::Lines;
        line.morph_targets = vec![target(Vec::new())];
        let node = SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(props_anim::Transform::IDENTITY),
            morph_weights: vec![0.0],
        };
        let model = Model::new(ModelParts {
            rig: Some(Rig::from_source_nodes(&[node]).expect("a rig")),
            meshes: vec![Mesh { name: None, primitives: vec![triangle, line] }],
            instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
            ..ModelParts::default()
        })
        .expect("valid");
        let footprint = GpuFootprint::estimate(&model).expect("fits");
        // The triangle: 2 x 3 texels, and 3 colours padded to 4; the line: 2 x 2.
        assert_eq!(footprint.morph_bytes, (6 + 4 + 4) * 16);
    }

    #[test]
    fn mip_chains_add_a_third() {
        assert_eq!(texture_bytes(1, 1), 4);
        assert_eq!(texture_bytes(4, 1), (4 + 2 + 1) * 4);
        assert_eq!(texture_bytes(4, 4), (16 + 4 + 1) * 4);
    }
}
