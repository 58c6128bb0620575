//! A model's per-vertex tables on the GPU, read by the vertex shader by index: the influences
//! past the 8th a vertex holds, and the morph targets' deltas. Storage buffers, or textures
//! [`VERTEX_TABLE_WIDTH`] texels wide on adapters without vertex-stage storage buffers.

use bytemuck::Pod;
use props_anim::Primitive;
use wgpu::util::DeviceExt;

use crate::shaders::{PaletteAccess, VERTEX_TABLE_WIDTH};

/// A primitive's morph deltas as the GPU reads them (`shaders/skinned.wgsl`'s `morph`): per
/// target, per vertex, the position delta then the normal delta (zero where the target has
/// none); then, where its targets displace colours ([`Primitive::morphs_colors`]), per target, per
/// vertex, the colour delta, padded to an even count ([`morph_texels`] in all), so that the
/// next primitive's deltas start at an even texel, as its draw counts them.
pub(crate) fn morph_deltas(primitive: &Primitive) -> impl Iterator<Item = [f32; 4]> + '_ {
    let vertices = primitive.vertex_count();
    let positions_and_normals = primitive.morph_targets.iter().flat_map(move |target| {
        (0..vertices).flat_map(move |v| {
            let delta = |list: &[glam::Vec3]| list.get(v).map_or([0.0; 4], |d| d.extend(0.0).to_array());
            [delta(&target.positions), delta(&target.normals)]
        })
    });
    let colored = if primitive.morphs_colors() { &primitive.morph_targets[..] } else { &[] };
    let colors = colored
        .iter()
        .flat_map(move |target| (0..vertices).map(move |v| target.colors.get(v).map_or([0.0; 4], |d| d.to_array())));
    let pad = usize::from(primitive.morphs_colors() && (primitive.morph_targets.len() * vertices) % 2 == 1);
    positions_and_normals.chain(colors).chain(std::iter::repeat_n([0.0; 4], pad))
}

/// How many texels [`morph_deltas`] gives `primitive` (an even count).
pub(crate) fn morph_texels(primitive: &Primitive) -> u64 {
    let entries = (primitive.morph_targets.len() * primitive.vertex_count()) as u64;
    2 * entries + if primitive.morphs_colors() { entries.next_multiple_of(2) } else { 0 }
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

#[cfg(test)]
mod tests {
    use glam::{Vec3, Vec4};
    use props_anim::MorphTarget;

    use super::*;

    /// A primitive of three vertices whose second target of two displaces colours: the colour
    /// deltas follow every position and normal delta (the first target's zero), and an odd
    /// count of them is padded, so the next primitive starts at an even texel.
    #[test]
    fn colour_deltas_follow_the_positions_and_normals_an_even_count() {
        let mut primitive = Primitive::triangles(vec![Vec3::ZERO; 3], vec![Vec3::Y; 3], vec![0, 1, 2], None);
        let lift = MorphTarget { positions: vec![Vec3::Y; 3], ..MorphTarget::default() };
        let red = MorphTarget { colors: vec![Vec4::new(1.0, 0.0, 0.0, 0.0); 3], ..MorphTarget::default() };
        primitive.morph_targets = vec![lift, red];
        // Without colours of its own, its colour targets displace nothing.
        assert!(!primitive.morphs_colors());
        assert_eq!((morph_deltas(&primitive).count(), morph_texels(&primitive)), (12, 12));
        primitive.colors = vec![Vec4::ONE; 3];
        assert!(primitive.morphs_colors());
        let deltas: Vec<[f32; 4]> = morph_deltas(&primitive).collect();
        assert_eq!((deltas.len() as u64, morph_texels(&primitive)), (18, 18));
        assert_eq!(deltas[0], [0.0, 1.0, 0.0, 0.0], "target 0, vertex 0: its position");
        assert_eq!(&deltas[12..15], &[[0.0; 4]; 3], "target 0's colours: none");
        assert_eq!(&deltas[15..18], &[[1.0, 0.0, 0.0, 0.0]; 3], "target 1's");
        primitive.morph_targets.truncate(1);
        primitive.morph_targets[0].colors = vec![Vec4::ONE; 3];
        let deltas: Vec<[f32; 4]> = morph_deltas(&primitive).collect();
        assert_eq!((deltas.len() as u64, morph_texels(&primitive)), (10, 10), "three colours and a pad");
        assert_eq!(deltas[9], [0.0; 4]);
    }
}
