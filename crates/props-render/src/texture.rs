//! Texture uploads with mipmaps: colour textures (base colour, emissive) in sRGB, data ones
//! (metallic-roughness, normal, occlusion) linear, their levels drawn on the GPU; KTX2 ones in
//! a GPU block format (BC7, ASTC, ETC2) with their own levels where the device takes one.

use std::panic::{AssertUnwindSafe, catch_unwind};

use basisu::{DecodeFlags, TargetFormat, Transcoder};
use props_anim::material::Image;
use wgpu::util::DeviceExt;

use crate::mipmaps::{self, Mipmaps};

/// The GPU block formats a KTX2 image's levels are transcoded to, in the order tried, each with
/// the device feature it needs and its Basis Universal target.
const BLOCK_FORMATS: [(wgpu::Features, TargetFormat, wgpu::TextureFormat); 3] = [
    (wgpu::Features::TEXTURE_COMPRESSION_BC, TargetFormat::Bc7Rgba, wgpu::TextureFormat::Bc7RgbaUnormSrgb),
    (
        wgpu::Features::TEXTURE_COMPRESSION_ASTC,
        TargetFormat::Astc4x4Rgba,
        wgpu::TextureFormat::Astc { block: wgpu::AstcBlock::B4x4, channel: wgpu::AstcChannel::UnormSrgb },
    ),
    (wgpu::Features::TEXTURE_COMPRESSION_ETC2, TargetFormat::Etc2Rgba, wgpu::TextureFormat::Etc2Rgba8UnormSrgb),
];

/// The device features block-compressed textures use, of those in `available` (what a device
/// is asked for).
#[must_use]
pub(crate) fn block_features(available: wgpu::Features) -> wgpu::Features {
    BLOCK_FORMATS.iter().map(|(feature, ..)| *feature).fold(wgpu::Features::empty(), |all, f| all | f) & available
}

/// A KTX2 image's own mip levels, as they go to the GPU: in a block format, or RGBA8.
pub(crate) struct Ktx2Levels<'a> {
    transcoder: Transcoder<'a>,
    target: TargetFormat,
    format: wgpu::TextureFormat,
    levels: u32,
}

impl<'a> Ktx2Levels<'a> {
    /// `image`'s levels on a device with `features` (the block formats it may use), as colour
    /// (`srgb`) or data: in the first block format it allows that the file's data transcodes
    /// to, when the image is whole 4x4 blocks, else RGBA8. `None` when it is not a KTX2 image,
    /// the file does not hold its full mip chain (then levels made from `rgba8` draw better
    /// than the few the file has) or its data transcodes to neither.
    pub(crate) fn of(image: &'a Image, features: wgpu::Features, srgb: bool) -> Option<Self> {
        let transcoder = Transcoder::new(image.ktx2.as_deref()?).ok()?;
        let (width, height) = transcoder.base_dimensions();
        let levels = transcoder.level_count();
        if (width, height) != (image.width, image.height) || levels != 32 - width.max(height).leading_zeros() {
            return None;
        }
        let whole = width.is_multiple_of(4) && height.is_multiple_of(4);
        let takes =
            |feature: wgpu::Features, target| whole && features.contains(feature) && transcoder.supports(target);
        let block = BLOCK_FORMATS.into_iter().find(|&(feature, target, _)| takes(feature, target));
        let (target, format) =
            block.map_or((TargetFormat::Rgba32, wgpu::TextureFormat::Rgba8UnormSrgb), |(_, t, f)| (t, f));
        let format = if srgb { format } else { format.remove_srgb_suffix() };
        transcoder.supports(target).then_some(Self { transcoder, target, format, levels })
    }

    /// Bytes on the GPU, every level.
    pub(crate) fn bytes(&self) -> u64 {
        (0..self.levels)
            .filter_map(|level| self.transcoder.output_size(level, self.target).ok())
            .map(|b| b as u64)
            .sum()
    }

    /// Every level transcoded, largest first; `None` when one does not transcode.
    fn transcode(&self) -> Option<Vec<u8>> {
        let mut data = Vec::with_capacity(usize::try_from(self.bytes()).ok()?);
        for level in 0..self.levels {
            // The importer checked the level index; a level that still fails (or panics the
            // transcoder) sends the image to the path of other images.
            let level =
                catch_unwind(AssertUnwindSafe(|| self.transcoder.transcode(level, self.target, DecodeFlags::NONE)));
            data.extend_from_slice(&level.ok()?.ok()?);
        }
        Some(data)
    }
}

/// Uploads an image as a colour (`srgb`) or data texture with a full mip chain: a KTX2 image's
/// own levels, in the first GPU block format `features` allow (BC7, ASTC 4x4, ETC2) or else as
/// RGBA8; any other image's RGBA8 pixels, the levels below them drawn by `mipmaps` in
/// `encoder` (a 2x2 box filter, in linear space for colour).
#[must_use]
pub(crate) fn upload(
    (device, queue, encoder): (&wgpu::Device, &wgpu::Queue, &mut wgpu::CommandEncoder),
    (mipmaps, features): (&Mipmaps, wgpu::Features),
    image: &Image,
    srgb: bool,
) -> wgpu::TextureView {
    let (width, height) = (image.width.max(1), image.height.max(1));
    let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
    let own = Ktx2Levels::of(image, features, srgb)
        .and_then(|levels| Some((levels.format, levels.levels, levels.transcode()?)));
    let texture = match own {
        Some((format, mip_level_count, data)) => device.create_texture_with_data(
            queue,
            &descriptor(image, (size, mip_level_count), format, wgpu::TextureUsages::TEXTURE_BINDING),
            wgpu::util::TextureDataOrder::LayerMajor,
            &data,
        ),
        None => {
            let mip_level_count = 32 - width.max(height).leading_zeros();
            let texture = rgba8(device, queue, image, srgb, (mip_level_count, mipmaps::USAGES));
            mipmaps.draw(device, encoder, &texture);
            texture
        }
    };
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

/// A 2D texture of `image`'s name, `size` and `mip_level_count` levels.
fn descriptor<'a>(
    image: &'a Image,
    (size, mip_level_count): (wgpu::Extent3d, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'a> {
    wgpu::TextureDescriptor {
        label: image.name.as_deref(),
        size,
        mip_level_count,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    }
}

/// An RGBA8 texture, sRGB or not, of `levels` levels and `usage` (with `COPY_DST`), holding
/// `image`'s pixels in its largest (white where they are not the image's size).
fn rgba8(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    image: &Image,
    srgb: bool,
    (levels, usage): (u32, wgpu::TextureUsages),
) -> wgpu::Texture {
    let (width, height) = (image.width.max(1), image.height.max(1));
    let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
    let format = if srgb { wgpu::TextureFormat::Rgba8UnormSrgb } else { wgpu::TextureFormat::Rgba8Unorm };
    let texture =
        device.create_texture(&descriptor(image, (size, levels), format, usage | wgpu::TextureUsages::COPY_DST));
    let white;
    let pixels = if image.rgba8.len() == (width * height * 4) as usize {
        &image.rgba8[..]
    } else {
        white = vec![255; (width * height * 4) as usize];
        &white[..]
    };
    queue.write_texture(
        texture.as_image_copy(),
        pixels,
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * width), rows_per_image: Some(height) },
        size,
    );
    texture
}

/// A texture of data the CPU writes (`Queue::write_texture`) and shaders read, `width` x
/// `height` texels of `format`, one level, and its view: palettes, light clusters, a model's
/// vertex tables, the ground's shadow heights.
pub(crate) fn data_texture(
    device: &wgpu::Device,
    label: &str,
    format: wgpu::TextureFormat,
    (width, height): (u32, u32),
) -> (wgpu::Texture, wgpu::TextureView) {
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
    (texture, view)
}

/// A 1x1 white texture, colour (`srgb`) or data: what a material without a slot's texture
/// samples.
#[must_use]
pub(crate) fn white(device: &wgpu::Device, queue: &wgpu::Queue, srgb: bool) -> wgpu::TextureView {
    let white = Image { name: Some("white".into()), width: 1, height: 1, rgba8: vec![255; 4], ktx2: None };
    rgba8(device, queue, &white, srgb, (1, wgpu::TextureUsages::TEXTURE_BINDING)).create_view(&Default::default())
}
