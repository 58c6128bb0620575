//! Where a frame's palettes live on the GPU (joint matrices, node matrices and morph weights,
//! all in palette slots): a storage buffer, or an RGBA32F texture on adapters without
//! vertex-stage storage buffers; written with one write per frame.

use props_anim::JointMatrix;

use crate::growable_buffer::GrowableBuffer;
use crate::shaders::{PALETTE_TEXTURE_WIDTH, PaletteAccess};

/// Bytes of one palette slot.
pub(crate) const MATRIX_BYTES: u64 = size_of::<JointMatrix>() as u64;

/// The palette store.
pub(crate) enum PaletteStore {
    /// A storage buffer, bound a window at a time.
    Buffer {
        buffer: GrowableBuffer,
        /// Bytes of one window binding.
        binding_bytes: u64,
    },
    /// A texture, three texels per slot.
    Texture { texture: wgpu::Texture, view: wgpu::TextureView, generation: u64 },
}

impl PaletteStore {
    /// An empty store read as `access` says.
    pub(crate) fn new(device: &wgpu::Device, access: PaletteAccess) -> Self {
        match access {
            PaletteAccess::StorageBuffer => Self::Buffer {
                buffer: GrowableBuffer::new(device, "palettes", wgpu::BufferUsages::STORAGE),
                binding_bytes: MATRIX_BYTES,
            },
            PaletteAccess::Texture => {
                let (texture, view) = palette_texture(device, 1);
                Self::Texture { texture, view, generation: 0 }
            }
        }
    }

    /// Uploads the frame's palettes with one write (two for a texture's partial last row),
    /// growing the store to `matrices`; `binding` is the window size in matrices.
    pub(crate) fn write(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        palettes: &[JointMatrix],
        matrices: u64,
        binding: u32,
    ) {
        match self {
            Self::Buffer { buffer, binding_bytes } => {
                buffer.reserve(device, matrices * MATRIX_BYTES);
                if !palettes.is_empty() {
                    queue.write_buffer(buffer.buffer(), 0, bytemuck::cast_slice(palettes));
                }
                *binding_bytes = u64::from(binding) * MATRIX_BYTES;
            }
            Self::Texture { texture, view, generation } => {
                let per_row = u64::from(PALETTE_TEXTURE_WIDTH / 3);
                let rows = (palettes.len() as u64).div_ceil(per_row).max(1);
                let max_rows = u64::from(device.limits().max_texture_dimension_2d);
                if rows > u64::from(texture.height()) {
                    let height = rows.max(u64::from(texture.height()) * 2).min(max_rows) as u32;
                    (*texture, *view) = palette_texture(device, height);
                    *generation += 1;
                }
                let fitting = palettes.len().min((per_row * u64::from(texture.height())) as usize);
                let (full, partial) = palettes[..fitting].split_at(fitting - fitting % per_row as usize);
                let row_bytes = PALETTE_TEXTURE_WIDTH * 16;
                let write = |data: &[JointMatrix], row: u32, texels: u32, rows: u32| {
                    if rows > 0 && texels > 0 {
                        queue.write_texture(
                            wgpu::TexelCopyTextureInfo {
                                texture,
                                mip_level: 0,
                                origin: wgpu::Origin3d { x: 0, y: row, z: 0 },
                                aspect: wgpu::TextureAspect::All,
                            },
                            bytemuck::cast_slice(data),
                            wgpu::TexelCopyBufferLayout {
                                offset: 0,
                                bytes_per_row: Some(row_bytes),
                                rows_per_image: None,
                            },
                            wgpu::Extent3d { width: texels, height: rows, depth_or_array_layers: 1 },
                        );
                    }
                };
                let full_rows = (full.len() as u64 / per_row) as u32;
                write(full, 0, PALETTE_TEXTURE_WIDTH, full_rows);
                write(partial, full_rows, partial.len() as u32 * 3, 1);
            }
        }
    }

    /// Changes whenever [`PaletteStore::binding`] would give another resource.
    pub(crate) fn generation(&self) -> u64 {
        match self {
            Self::Buffer { buffer, binding_bytes } => buffer.generation() ^ (binding_bytes << 20),
            Self::Texture { generation, .. } => *generation,
        }
    }

    /// The palette binding of the frame group: a window of the buffer, or the texture.
    pub(crate) fn binding(&self) -> wgpu::BindingResource<'_> {
        match self {
            Self::Buffer { buffer, binding_bytes } => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: buffer.buffer(),
                offset: 0,
                size: wgpu::BufferSize::new((*binding_bytes).max(MATRIX_BYTES)),
            }),
            Self::Texture { view, .. } => wgpu::BindingResource::TextureView(view),
        }
    }
}

/// An RGBA32F palette texture `height` rows of [`PALETTE_TEXTURE_WIDTH`] texels.
fn palette_texture(device: &wgpu::Device, height: u32) -> (wgpu::Texture, wgpu::TextureView) {
    let format = wgpu::TextureFormat::Rgba32Float;
    crate::texture::data_texture(device, "palette texture", format, (PALETTE_TEXTURE_WIDTH, height))
}
