//! Rendering into a texture and reading it back as RGBA8 (tests, screenshots, headless runs).

/// The color format of offscreen targets: 8-bit sRGB, what PNG files hold.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// Why a readback failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadbackError {
    /// Waiting for the GPU failed.
    #[error("waiting for the GPU failed: {0}")]
    Poll(#[from] wgpu::PollError),
    /// Mapping the readback buffer failed.
    #[error("mapping the readback buffer failed: {0}")]
    Map(#[from] wgpu::BufferAsyncError),
    /// Reading the mapped range failed.
    #[error("reading the mapped readback buffer failed: {0}")]
    Range(#[from] wgpu::MapRangeError),
}

/// A color texture to render into, with a buffer to copy it back through.
pub struct OffscreenTarget {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    readback: wgpu::Buffer,
    width: u32,
    height: u32,
    padded_row: u32,
}

impl OffscreenTarget {
    /// A target of `(width, height)` pixels in [`OFFSCREEN_FORMAT`], single-sampled: a renderer
    /// of 4x MSAA draws into a multisampled target resolved into it (as
    /// [`crate::StandalonePass`] does), one of `sample_count: 1` into it directly.
    #[must_use]
    pub fn new(device: &wgpu::Device, (width, height): (u32, u32)) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen target"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: OFFSCREEN_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let padded_row = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self { texture, view, readback, width, height, padded_row }
    }

    /// The view to render into.
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Width and height in pixels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Copies the texture back and returns tightly packed RGBA8 rows, top row first. Waits
    /// for the GPU.
    pub fn read_rgba8(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Vec<u8>, ReadbackError> {
        read_texture(device, queue, &self.texture, &self.readback, self.padded_row)
    }
}

/// Reads back `texture` (a 2D texture with `COPY_SRC`, in an RGBA8 or BGRA8 format) as tightly
/// packed RGBA8 rows, top row first: a window's frame for a screenshot. Waits for the GPU.
///
/// # Errors
/// When waiting for the GPU or mapping the buffer fails.
pub fn read_texture_rgba8(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Vec<u8>, ReadbackError> {
    let padded_row = (texture.width() * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("texture readback"),
        size: u64::from(padded_row) * u64::from(texture.height()),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut pixels = read_texture(device, queue, texture, &readback, padded_row)?;
    if matches!(texture.format(), wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
        pixels.chunks_exact_mut(4).for_each(|pixel| pixel.swap(0, 2));
    }
    Ok(pixels)
}

/// Copies `texture` into `readback` (rows `padded_row` bytes apart) and returns its rows
/// tightly packed, 4 bytes a pixel as stored.
fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    readback: &wgpu::Buffer,
    padded_row: u32,
) -> Result<Vec<u8>, ReadbackError> {
    let (width, height) = (texture.width(), texture.height());
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback") });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: readback,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_row),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
    queue.submit([encoder.finish()]);
    let slice = readback.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    device.poll(wgpu::PollType::wait_indefinitely())?;
    receiver.recv().unwrap_or(Err(wgpu::BufferAsyncError))?;
    let mut pixels = Vec::with_capacity((width * height * 4) as usize);
    {
        let mapped = slice.get_mapped_range()?;
        for row in mapped.chunks_exact(padded_row as usize) {
            pixels.extend_from_slice(&row[..(width * 4) as usize]);
        }
    }
    readback.unmap();
    Ok(pixels)
}
