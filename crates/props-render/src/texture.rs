//! Texture uploads with mipmaps: colour textures (base colour, emissive) in sRGB, data ones
//! (metallic-roughness, normal, occlusion) linear; KTX2 ones in a GPU block format (BC7, ASTC,
//! ETC2) with their own levels where the device takes one.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::LazyLock;

use basisu::{DecodeFlags, TargetFormat, Transcoder};
use props_anim::material::Image;
use wgpu::util::DeviceExt;

fn srgb_to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// [`srgb_to_linear`] of every byte: a level's four texels a texel of the next are read from
/// it (a 2048 x 2048 texture's mip chain, made while the frame waits, took four times as long
/// with the power computed for each).
static SRGB_TO_LINEAR: LazyLock<[f32; 256]> = LazyLock::new(|| std::array::from_fn(|c| srgb_to_linear(c as u8)));

/// For each byte from 1 to 255, the least linear value [`linear_to_srgb`] encodes to it or
/// above (found by bisection over the floats from 0 to 1, whose bits are in their order): a
/// level's texels are encoded by a search of them, to the byte the power gives.
static SRGB_STEPS: LazyLock<[f32; 255]> = LazyLock::new(|| {
    std::array::from_fn(|k| {
        let (mut low, mut high) = (0u32, 1f32.to_bits());
        while low < high {
            let mid = low + (high - low) / 2;
            if usize::from(linear_to_srgb(f32::from_bits(mid))) > k { high = mid } else { low = mid + 1 }
        }
        f32::from_bits(low)
    })
});

/// [`linear_to_srgb`] of a linear value from 0 to 1, by [`SRGB_STEPS`].
fn encode_srgb(c: f32) -> u8 {
    SRGB_STEPS.partition_point(|&step| step <= c) as u8
}

fn linear_to_srgb(c: f32) -> u8 {
    let c = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (c * 255.0).round().clamp(0.0, 255.0) as u8
}

/// The next mip level of an RGBA8 image: a 2x2 box filter, in linear space for an sRGB one
/// (`srgb`; alpha averaged as is), on the stored values for data. Odd edges repeat their last
/// texel.
fn downsample(pixels: &[u8], width: u32, height: u32, srgb: bool) -> (Vec<u8>, u32, u32) {
    let (w, h) = ((width / 2).max(1), (height / 2).max(1));
    let (width, height) = (width as usize, height as usize);
    let row = |y: usize| &pixels[y.min(height - 1) * width * 4..][..width * 4];
    let linear = &*SRGB_TO_LINEAR;
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h as usize {
        let (top, bottom) = (row(2 * y), row(2 * y + 1));
        for x in 0..w as usize {
            let (left, right) = ((2 * x).min(width - 1) * 4, (2 * x + 1).min(width - 1) * 4);
            for c in 0..4 {
                let quad = [top[left + c], top[right + c], bottom[left + c], bottom[right + c]];
                if srgb && c < 3 {
                    let sum: f32 = quad.iter().map(|&v| linear[usize::from(v)]).sum();
                    out.push(encode_srgb(sum / 4.0));
                } else {
                    let sum: u32 = quad.iter().map(|&v| u32::from(v)).sum();
                    out.push(((sum + 2) / 4) as u8);
                }
            }
        }
    }
    (out, w, h)
}

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
/// RGBA8; any other image's RGBA8 pixels with levels made by a box filter (in linear space for
/// colour).
#[must_use]
pub(crate) fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    image: &Image,
    srgb: bool,
    features: wgpu::Features,
) -> wgpu::TextureView {
    let (width, height) = (image.width.max(1), image.height.max(1));
    let size = wgpu::Extent3d { width, height, depth_or_array_layers: 1 };
    let own = Ktx2Levels::of(image, features, srgb)
        .and_then(|levels| Some((levels.format, levels.levels, levels.transcode()?)));
    let (format, mip_level_count, data) = match own {
        Some(own) => own,
        None => {
            let mip_level_count = 32 - width.max(height).leading_zeros();
            let format = if srgb { wgpu::TextureFormat::Rgba8UnormSrgb } else { wgpu::TextureFormat::Rgba8Unorm };
            (format, mip_level_count, rgba8_mips(image, mip_level_count, srgb))
        }
    };
    let texture = device.create_texture_with_data(
        queue,
        &wgpu::TextureDescriptor {
            label: image.name.as_deref(),
            size,
            mip_level_count,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        },
        wgpu::util::TextureDataOrder::LayerMajor,
        &data,
    );
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

/// `image`'s RGBA8 pixels and `mip_level_count - 1` levels below them (colour ones averaged
/// in linear space, `srgb`).
fn rgba8_mips(image: &Image, mip_level_count: u32, srgb: bool) -> Vec<u8> {
    let (width, height) = (image.width.max(1), image.height.max(1));
    let mut data = Vec::with_capacity(image.rgba8.len() * 4 / 3 + 4);
    let (mut level, mut w, mut h) = (image.rgba8.clone(), width, height);
    if level.len() != (width * height * 4) as usize {
        level = vec![255; (width * height * 4) as usize];
    }
    for _ in 0..mip_level_count {
        data.extend_from_slice(&level);
        (level, w, h) = downsample(&level, w, h, srgb);
    }
    data
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
    upload(device, queue, &white, srgb, wgpu::Features::empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_round_trips() {
        for c in 0..=255u8 {
            assert_eq!(linear_to_srgb(srgb_to_linear(c)), c);
        }
    }

    /// The tables give the bytes the powers give: every step and the floats beside it, and a
    /// sweep of the rest.
    #[test]
    fn the_srgb_tables_encode_as_the_powers_do() {
        for &step in SRGB_STEPS.iter() {
            for c in [f32::from_bits(step.to_bits() - 1), step, f32::from_bits(step.to_bits() + 1)] {
                assert_eq!(encode_srgb(c), linear_to_srgb(c), "{c}");
            }
        }
        for k in 0..=100_000 {
            let c = k as f32 / 100_000.0;
            assert_eq!(encode_srgb(c), linear_to_srgb(c), "{c}");
        }
        assert!((0..=255u8).all(|c| SRGB_TO_LINEAR[usize::from(c)] == srgb_to_linear(c)));
    }

    #[test]
    fn downsampling_averages_in_linear_space() {
        // Black and white average to linear 0.5, which is sRGB 188, not 128.
        let pixels = [0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255];
        let (out, w, h) = downsample(&pixels, 2, 2, true);
        assert_eq!((w, h), (1, 1));
        assert_eq!(out, vec![188, 188, 188, 255]);
        // Data (a normal map's, say) averages the stored values.
        assert_eq!(downsample(&pixels, 2, 2, false).0, vec![128, 128, 128, 255]);
    }
}
