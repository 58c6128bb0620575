//! A model's per-vertex tables on the GPU, read by the vertex shader by index: the influences
//! past the 8th a vertex holds, and the morph targets' deltas. Storage buffers, or textures
//! [`VERTEX_TABLE_WIDTH`] texels wide on adapters without vertex-stage storage buffers.

use bytemuck::Pod;
use props_anim::Primitive;
use wgpu::util::DeviceExt;

use crate::shaders::{PaletteAccess, VERTEX_TABLE_WIDTH};

/// A primitive's morph deltas as the GPU reads them: per target, per vertex, the position
/// delta then the normal delta (zero where the target has none).
pub(crate) fn morph_deltas(primitive: &Primitive) -> impl Iterator<Item = [f32; 4]> + '_ {
    primitive.morph_targets.iter().flat_map(move |target| {
        (0..primitive.vertex_count()).flat_map(move |v| {
            let delta = |list: &[glam::Vec3]| list.get(v).map_or([0.0; 4], |d| d.extend(0.0).to_array());
            [delta(&target.positions), delta(&target.normals)]
        })
    })
}

/// A primitive's influences past the 8th as the GPU reads them: (joint, weight bits) each.
pub(crate) fn extra_influences(primitive: &Primitive) -> impl Iterator<Item = [u32; 2]> + '_ {
    let extra = primitive.influences.iter().flat_map(|influences| &influences.extra);
    extra.map(|&(joint, weight)| [u32::from(joint), weight.to_bits()])
}

/// How a per-vertex table's entries are stored.
#[derive(Clone, Copy)]
pub(crate) enum TableFormat {
    /// Two `u32` per entry (joint and weight bits): an RG32Uint texel.
    Pairs,
    /// Four `f32` per entry: an RGBA32Float texel.
    Floats4,
}

/// One of a model's per-vertex tables on the device, read by the vertex shader by index (at
/// least one entry: wgpu binds nothing empty).
pub(crate) enum VertexTable {
    /// A storage buffer.
    Buffer(wgpu::Buffer),
    /// A texture [`VERTEX_TABLE_WIDTH`] texels wide, one texel per entry.
    Texture(wgpu::TextureView),
}

impl VertexTable {
    pub(crate) fn upload<T: Pod>(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        access: PaletteAccess,
        label: &str,
        format: TableFormat,
        entries: &[T],
    ) -> Self {
        let zero = [T::zeroed()];
        let entries = if entries.is_empty() { &zero[..] } else { entries };
        match access {
            PaletteAccess::StorageBuffer => {
                Self::Buffer(device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(label),
                    contents: bytemuck::cast_slice(entries),
                    usage: wgpu::BufferUsages::STORAGE,
                }))
            }
            PaletteAccess::Texture => {
                let count = entries.len() as u32;
                let (width, height) = (count.min(VERTEX_TABLE_WIDTH), count.div_ceil(VERTEX_TABLE_WIDTH));
                let mut texels = bytemuck::cast_slice::<T, u8>(entries).to_vec();
                texels.resize((width * height) as usize * size_of::<T>(), 0);
                let format = match format {
                    TableFormat::Pairs => wgpu::TextureFormat::Rg32Uint,
                    TableFormat::Floats4 => wgpu::TextureFormat::Rgba32Float,
                };
                let (texture, view) = crate::texture::data_texture(device, label, format, (width, height));
                queue.write_texture(
                    texture.as_image_copy(),
                    &texels,
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(width * size_of::<T>() as u32),
                        rows_per_image: Some(height),
                    },
                    texture.size(),
                );
                Self::Texture(view)
            }
        }
    }

    pub(crate) fn binding(&self) -> wgpu::BindingResource<'_> {
        match self {
            Self::Buffer(buffer) => buffer.as_entire_binding(),
            Self::Texture(view) => wgpu::BindingResource::TextureView(view),
        }
    }
}
