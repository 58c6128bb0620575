//! How large each image of a file is loaded so that those its materials read fit the
//! decoded-data budget ([`fit_to_budget`]), sized from their headers alone.

use std::collections::BinaryHeap;
use std::io::Cursor;

use gltf::json::Root;
use image::codecs::jpeg::JpegDecoder;
use image::codecs::png::PngDecoder;
use image::codecs::webp::WebPDecoder;
use image::{ColorType, ImageDecoder, ImageFormat, ImageResult};

use crate::image_source::{Fit, ImageSource, image_start};
use crate::ktx2;

/// How large each glTF image is loaded so that the images the materials read (`read`, by
/// glTF index) fit in `available` bytes of the budget: while they do not, the largest is
/// halved (its sides, a quarter of its pixels). Sized from the images' headers, at what
/// decoding each charges: whole, its decoded bytes and RGBA8 copy (and a KTX2 file, kept for
/// its levels); smaller, its RGBA8 pixels, plus room to decode the largest image shrunk whole
/// while the others are held (the memory it takes until it is shrunk). An image whose header
/// cannot be read, or that cannot be decoded whole in `available` bytes, is left to fail when
/// it is loaded, and the others are sized without it.
///
/// Each also gets the side it would be exported at for all to load whole: halved likewise, each
/// charged what decoding it whole at that size takes. That room to shrink is what costs: five
/// 4096 x 4096 JPEGs in a mod's 256 MiB load at 2048 and 1024 a side, where exported at 2048
/// they all load at 2048.
pub(crate) fn fit_to_budget(root: &Root, read: &[usize], source: &ImageSource<'_>, available: u64) -> Vec<Fit> {
    let gpu_limit = source.limits.max_texture_dimension.max(1);
    // Per image read: its index, its (clamped) size, and what it costs loaded whole.
    let mut sized: Vec<(usize, (u32, u32), u64)> = Vec::new();
    for &index in read {
        let Ok((bytes, length)) = image_start(root, index, source) else { continue };
        if let Some((width, height, whole)) = header(&bytes, length) {
            if whole > available {
                // Too large to decode at all: it is left out when loaded (`Drops::drop_image`).
                continue;
            }
            let scale = f64::from(gpu_limit) / f64::from(width.max(height).max(1));
            let fit = |side: u32| if scale < 1.0 { ((f64::from(side) * scale).round() as u32).max(1) } else { side };
            let whole = if scale < 1.0 { u64::from(fit(width)) * u64::from(fit(height)) * 4 } else { whole };
            sized.push((index, (fit(width), fit(height)), whole));
        }
    }
    let mut sides = vec![Fit::WHOLE; root.images.len()];
    // As exported: each charged its whole decoding's bytes per pixel.
    let pixels = |(width, height): (u32, u32)| u64::from(width) * u64::from(height);
    let mut exported: Vec<(u32, u32)> = sized.iter().map(|&(_, size, _)| size).collect();
    let whole_at = |k: usize, size: (u32, u32)| {
        let (_, full, whole) = sized[k];
        (whole as f64 * pixels(size) as f64 / pixels(full).max(1) as f64) as u64
    };
    // The largest first (the last of equals), each halving a heap's step and the sums kept
    // running: thousands of images halved a dozen times each take no more than sorting them.
    let halve = |(width, height): (u32, u32)| ((width / 2).max(1), (height / 2).max(1));
    let mut total: u64 = (0..exported.len()).map(|k| whole_at(k, exported[k])).fold(0, u64::saturating_add);
    let mut largest: BinaryHeap<(u64, usize)> = (0..exported.len()).map(|k| (pixels(exported[k]), k)).collect();
    while total > available {
        let Some((_, k)) = largest.pop().filter(|&(_, k)| exported[k].0.max(exported[k].1) > 1) else { break };
        let before = whole_at(k, exported[k]);
        exported[k] = halve(exported[k]);
        total = total - before + whole_at(k, exported[k]);
        sides[sized[k].0].export = exported[k].0.max(exported[k].1);
        largest.push((pixels(exported[k]), k));
    }
    let mut costs: Vec<u64> = sized.iter().map(|&(_, _, whole)| whole).collect();
    let mut sizes: Vec<(u32, u32)> = sized.iter().map(|&(_, size, _)| size).collect();
    let mut total: u64 = costs.iter().fold(0, |sum, &cost| sum.saturating_add(cost));
    let mut largest: BinaryHeap<(u64, usize)> = (0..sizes.len()).map(|k| (pixels(sizes[k]), k)).collect();
    // The most decoding an image that is shrunk takes before it is.
    let mut transient = 0;
    while total.saturating_add(transient) > available {
        let Some((_, k)) = largest.pop().filter(|&(_, k)| sizes[k].0.max(sizes[k].1) > 1) else { break };
        sizes[k] = halve(sizes[k]);
        let cost = pixels(sizes[k]) * 4;
        total = total - costs[k] + cost;
        costs[k] = cost;
        sides[sized[k].0].load = sizes[k].0.max(sizes[k].1);
        transient = transient.max(sized[k].2);
        largest.push((pixels(sizes[k]), k));
    }
    sides
}

/// An encoded image's size and what decoding it whole charges, from its header only (`bytes`,
/// the start of its `length` bytes).
fn header(bytes: &[u8], length: u64) -> Option<(u32, u32, u64)> {
    if ktx2::is_ktx2(bytes) {
        let side = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let (width, height) = (side(20)?, side(24)?.max(1));
        return Some((width, height, (u64::from(width) * u64::from(height)).saturating_mul(4).saturating_add(length)));
    }
    fn of(decoder: ImageResult<impl ImageDecoder>) -> Option<(u32, u32, u64)> {
        let decoder = decoder.ok()?;
        let (width, height) = decoder.dimensions();
        let converted = match decoder.color_type() {
            ColorType::Rgba8 => 0,
            _ => (u64::from(width) * u64::from(height)).saturating_mul(4),
        };
        Some((width, height, decoder.total_bytes().saturating_add(converted)))
    }
    match image::guess_format(bytes).ok()? {
        ImageFormat::Png => of(PngDecoder::new(Cursor::new(bytes))),
        ImageFormat::Jpeg => of(JpegDecoder::new(Cursor::new(bytes))),
        ImageFormat::WebP => of(WebPDecoder::new(Cursor::new(bytes))),
        _ => None,
    }
}
