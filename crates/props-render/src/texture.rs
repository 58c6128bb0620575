//! Texture uploads: sRGB base color textures with mipmaps.

use props_anim::Image;
use wgpu::util::DeviceExt;

fn srgb_to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

fn linear_to_srgb(c: f32) -> u8 {
    let c = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (c * 255.0).round().clamp(0.0, 255.0) as u8
}

/// The next mip level of an RGBA8 sRGB image: a 2x2 box filter in linear space (alpha
/// averaged as is). Odd edges repeat their last texel.
fn downsample(pixels: &[u8], width: u32, height: u32) -> (Vec<u8>, u32, u32) {
    let (w, h) = ((width / 2).max(1), (height / 2).max(1));
    let texel = |x: u32, y: u32, c: usize| pixels[((y.min(height - 1) * width + x.min(width - 1)) * 4) as usize + c];
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let quad = [(2 * x, 2 * y), (2 * x + 1, 2 * y), (2 * x, 2 * y + 1), (2 * x + 1, 2 * y + 1)];
            for c in 0..3 {
                let sum: f32 = quad.iter().map(|&(qx, qy)| srgb_to_linear(texel(qx, qy, c))).sum();
                out.push(linear_to_srgb(sum / 4.0));
            }
            let alpha: u32 = quad.iter().map(|&(qx, qy)| u32::from(texel(qx, qy, 3))).sum();
            out.push(((alpha + 2) / 4) as u8);
        }
    }
    (out, w, h)
}

/// Uploads an RGBA8 image as an sRGB texture with a full mip chain.
#[must_use]
pub fn upload_srgb(device: &wgpu::Device, queue: &wgpu::Queue, image: &Image) -> wgpu::TextureView {
    let (width, height) = (image.width.max(1), image.height.max(1));
    let mip_level_count = 32 - width.max(height).leading_zeros();
    let mut data = Vec::with_capacity(image.rgba8.len() * 4 / 3 + 4);
    let (mut level, mut w, mut h) = (image.rgba8.clone(), width, height);
    if level.len() != (width * height * 4) as usize {
        level = vec![255; (width * height * 4) as usize];
    }
    for _ in 0..mip_level_count {
        data.extend_from_slice(&level);
        (level, w, h) = downsample(&level, w, h);
    }
    let texture = device.create_texture_with_data(
        queue,
        &wgpu::TextureDescriptor {
            label: image.name.as_deref(),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8UnormSrgb,
            usage: wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        },
        wgpu::util::TextureDataOrder::LayerMajor,
        &data,
    );
    texture.create_view(&wgpu::TextureViewDescriptor::default())
}

/// A 1x1 white sRGB texture: the base color texture of untextured materials.
#[must_use]
pub fn white(device: &wgpu::Device, queue: &wgpu::Queue) -> wgpu::TextureView {
    upload_srgb(device, queue, &Image { name: Some("white".into()), width: 1, height: 1, rgba8: vec![255; 4] })
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

    #[test]
    fn downsampling_averages_in_linear_space() {
        // Black and white average to linear 0.5, which is sRGB 188, not 128.
        let pixels = [0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255];
        let (out, w, h) = downsample(&pixels, 2, 2);
        assert_eq!((w, h), (1, 1));
        assert_eq!(out, vec![188, 188, 188, 255]);
    }
}
