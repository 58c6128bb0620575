//! The images materials use, each decoded once, in order of first use, to RGBA8 (PNG, JPEG,
//! WebP, KTX2), their sizes checked before decoding and charged to the file's budget. Images
//! that together would pass the budget are loaded smaller ([`crate::image_fit::fit_to_budget`]): a file is
//! refused for its geometry and clips, never for the size of its textures.

use std::io::Cursor;

use gltf::json::Root;
use image::codecs::jpeg::JpegDecoder;
use image::codecs::png::PngDecoder;
use image::codecs::webp::WebPDecoder;
use image::{ColorType, DynamicImage, ImageDecoder, ImageFormat, ImageResult};
use props_anim::material::Image;

use crate::document;
use crate::drops::Drops;
use crate::error::{ErrorKind, ImportError, Warnings, warn};
use crate::image_source::{Fit, ImageSource, image_bytes};
use crate::limits::{self, Budget, Limits};
use crate::parts::Part;
use crate::{index_u32, ktx2};

/// The images decoded so far, and what became of each glTF image.
pub(crate) struct Images {
    list: Vec<Image>,
    slots: Vec<Slot>,
    /// Images made from decoded ones: (from, key) and the made image's index.
    derived: Vec<((u32, u32), u32)>,
    /// The index of the white texel that stands for the images of materials not drawn.
    stand_in: Option<u32>,
}

#[derive(Clone, Copy)]
enum Slot {
    Unread,
    Decoded(u32),
    Dropped,
}

impl Images {
    /// None decoded yet, of `root`'s images.
    pub(crate) fn new(root: &Root) -> Self {
        Self { list: Vec::new(), slots: vec![Slot::Unread; root.images.len()], derived: Vec::new(), stand_in: None }
    }

    /// The decoded images, in order of first use.
    pub(crate) fn into_list(self) -> Vec<Image> {
        self.list
    }

    /// The index in [`Images::into_list`] of the image texture `t` shows (at `path`, the
    /// texture info that names it), decoding it on first use; `None` when the texture or its
    /// image is left out (dropped, or in a format the game does not decode). For a material
    /// not `drawn`, an image not decoded yet is not decoded: one white texel stands for it
    /// (its texture stays, for the pointers that animate it).
    pub(crate) fn of_texture(
        &mut self,
        (root, drawn): (&Root, bool),
        t: usize,
        path: &str,
        source: &ImageSource<'_>,
        warnings: &mut Warnings,
        drops: &mut Drops<'_>,
    ) -> Result<Option<u32>, ImportError> {
        if root.textures.get(t).is_none() {
            return Err(ImportError::at(path, ErrorKind::InvalidIndex));
        }
        let image = document::texture_image(root, t).unwrap_or(usize::MAX);
        Ok(match self.slots.get(image).copied() {
            _ if drops.skip.texture(root, t) => None,
            None => {
                let error = match document::texture_extension_sources(root, t).first() {
                    Some(name) => {
                        let found = format!("named by {name} only, with no PNG or JPEG fallback in `source`");
                        ImportError::at(format!("textures[{t}]"), ErrorKind::UnsupportedImageFormat { found })
                    }
                    None => ImportError::at(format!("textures[{t}].source"), ErrorKind::InvalidIndex),
                };
                drops.drop_or_refuse(Part::Texture { index: index_u32(t) }, error)?;
                None
            }
            Some(Slot::Decoded(index)) => Some(index),
            Some(Slot::Dropped) => None,
            Some(Slot::Unread) if !drawn => Some(self.stand_in()),
            Some(Slot::Unread) => match load_image(root, image, source, warnings) {
                Ok(decoded) => {
                    self.list.push(decoded);
                    let index = index_u32(self.list.len() - 1);
                    self.slots[image] = Slot::Decoded(index);
                    Some(index)
                }
                Err(error) => {
                    self.slots[image] = Slot::Dropped;
                    drops.drop_image(index_u32(image), error)?;
                    None
                }
            },
        })
    }

    /// The index of the white texel standing for the images of materials not drawn, made on
    /// first use.
    fn stand_in(&mut self) -> u32 {
        *self.stand_in.get_or_insert_with(|| {
            let name = Some("a white texel for a material the scene does not draw".to_owned());
            self.list.push(Image { name, width: 1, height: 1, rgba8: vec![255; 4], ktx2: None });
            index_u32(self.list.len() - 1)
        })
    }

    /// The index of the image `make` makes from decoded image `from`, made once per `from`
    /// and `key` (whatever else `make` depends on), its bytes charged to `budget` at `path`.
    pub(crate) fn derived(
        &mut self,
        from: u32,
        key: u32,
        budget: &Budget,
        path: &str,
        make: impl FnOnce(&Image) -> Image,
    ) -> Result<u32, ImportError> {
        if let Some(&(_, index)) = self.derived.iter().find(|(made, _)| *made == (from, key)) {
            return Ok(index);
        }
        let image = self.list.get(from as usize).ok_or_else(|| ImportError::at(path, ErrorKind::InvalidIndex))?;
        budget.charge(image.rgba8.len() as u64, path)?;
        let made = make(image);
        self.list.push(made);
        let index = index_u32(self.list.len() - 1);
        self.derived.push(((from, key), index));
        Ok(index)
    }
}

/// Loads and decodes glTF image `index`, from its URI or buffer view, shrunk (with a
/// warning) to fit [`Limits::max_texture_dimension`] if it is larger, or the side
/// [`fit_to_budget`] gave it ([`ImageSource::sides`]).
fn load_image(
    root: &Root,
    index: usize,
    source: &ImageSource<'_>,
    warnings: &mut Warnings,
) -> Result<Image, ImportError> {
    let path = format!("images[{index}]");
    let image = root.images.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
    let bytes = image_bytes(root, index, source)?;
    let file_name = image.uri.as_ref().filter(|uri| !uri.starts_with("data:"));
    let name = image.name.clone().or_else(|| file_name.cloned());
    let gpu_limit = source.limits.max_texture_dimension.max(1);
    let Fit { load: planned, export } = source.sides.get(index).copied().unwrap_or(Fit::WHOLE);
    let limit = gpu_limit.min(planned).max(1);
    // An image planned smaller is decoded whole, one at a time, within what the budget has
    // left (the memory it takes while it is shrunk), and charged at the size it is kept at.
    let whole = Budget::new(source.budget.remaining());
    let budget = if planned < gpu_limit { &whole } else { source.budget };
    let (width, height, rgba8) = decode(&bytes, source, budget, &path)?;
    if width.max(height) <= limit {
        // A KTX2 file is kept for its levels (a GPU block format), not for a downscaled image,
        // and only when it holds them all (the renderer draws levels made from the pixels
        // otherwise): then it draws without the pixels, once they are released.
        let ktx2 = if ktx2::is_ktx2(&bytes) && ktx2::has_every_level(&bytes) {
            source.budget.charge(bytes.len() as u64, &path)?;
            Some(bytes.into_owned())
        } else {
            None
        };
        return Ok(Image { name, width, height, rgba8, ktx2 });
    }
    let scale = f64::from(limit) / f64::from(width.max(height));
    let fit = |side: u32| ((f64::from(side) * scale).round() as u32).clamp(1, limit);
    let (new_width, new_height) = (fit(width), fit(height));
    source.budget.charge(u64::from(new_width) * u64::from(new_height) * 4, &path)?;
    // Halved or more, each pixel the average of the block it covers (a quarter of the time
    // of a triangle filter's, without its aliasing); less, a triangle filter.
    let shrink = |full: image::RgbaImage| match new_width * 2 <= width && new_height * 2 <= height {
        true => image::imageops::thumbnail(&full, new_width, new_height),
        false => image::imageops::resize(&full, new_width, new_height, image::imageops::FilterType::Triangle),
    };
    let resized = image::RgbaImage::from_raw(width, height, rgba8)
        .map(shrink)
        .ok_or_else(|| ImportError::at(&path, ErrorKind::ImageDecode { reason: "wrong pixel count".to_owned() }))?;
    let message = if limit < gpu_limit {
        format!(
            "the file's images decode to more than the budget for decoded data leaves them: this one \
             ({width}x{height} pixels) was loaded at {new_width}x{new_height}; export smaller textures (at most \
             {} pixels a side here, the others as their warnings say: then they load whole) or fewer of them to \
             keep the file's look",
            export.min(width.max(height))
        )
    } else {
        format!(
            "the image is {width}x{height} pixels, larger than the GPU's {limit} per side: it was downscaled to \
             {new_width}x{new_height}; export it at most {limit} pixels wide and high to keep its detail"
        )
    };
    warn(warnings, &path, message);
    Ok(Image { name, width: new_width, height: new_height, rgba8: resized.into_raw(), ktx2: None })
}

/// Decodes a PNG, JPEG, WebP or KTX2 image to RGBA8, checking its size before decoding it and
/// charging what it decodes to `budget`.
fn decode(
    bytes: &[u8],
    source: &ImageSource<'_>,
    budget: &Budget,
    path: &str,
) -> Result<(u32, u32, Vec<u8>), ImportError> {
    if ktx2::is_ktx2(bytes) {
        return ktx2::decode(bytes, source.limits, budget, path);
    }
    let limits = source.limits;
    match image::guess_format(bytes) {
        Ok(ImageFormat::Png) => {
            decode_with(PngDecoder::new(Cursor::new(bytes)), (limits, budget), png_room(bytes), path)
        }
        Ok(ImageFormat::Jpeg) => {
            // Each 8x8 block of each component takes two bits at the least (a one-bit DC code
            // and a one-bit end of block), and chroma subsampled by 4 each way spreads a block
            // over 32x32 pixels: a byte of a JPEG holds at most about 700 bytes of pixels.
            let room = Some((bytes.len() as u64, 1024));
            decode_with(JpegDecoder::new(Cursor::new(bytes)), (limits, budget), room, path)
        }
        Ok(ImageFormat::WebP) => decode_with(WebPDecoder::new(Cursor::new(bytes)), (limits, budget), None, path),
        Ok(format) => {
            let found = format!("{format:?}");
            Err(ImportError::at(path, ErrorKind::UnsupportedImageFormat { found }))
        }
        Err(_) => {
            let found = "in an unrecognized format".to_owned();
            Err(ImportError::at(path, ErrorKind::UnsupportedImageFormat { found }))
        }
    }
}

/// The compressed bytes of a PNG's pixels (its `IDAT` chunks together) and the most bytes of
/// pixels one of them can inflate to (deflate's limit, 1032 to 1), from its chunk headers.
fn png_room(bytes: &[u8]) -> Option<(u64, u64)> {
    let mut at = 8;
    let mut compressed = 0u64;
    while let Some(header) = bytes.get(at..at + 8) {
        let length = u64::from(u32::from_be_bytes([header[0], header[1], header[2], header[3]]));
        if &header[4..8] == b"IDAT" {
            compressed = compressed.saturating_add(length);
        }
        at = at.saturating_add(12).saturating_add(usize::try_from(length).ok()?);
    }
    Some((compressed, 1032))
}

/// Decodes an image to RGBA8, its size checked against `limits` and charged to `budget` before
/// anything is allocated; `room` (compressed bytes, the most bytes of pixels each can hold)
/// refuses one whose data cannot hold the pixels its header declares (a truncated file, or a
/// lying one) before its pixels are allocated.
fn decode_with(
    decoder: ImageResult<impl ImageDecoder>,
    (limits, budget): (&Limits, &Budget),
    room: Option<(u64, u64)>,
    path: &str,
) -> Result<(u32, u32, Vec<u8>), ImportError> {
    let failed = |e: image::ImageError| ImportError::at(path, ErrorKind::ImageDecode { reason: e.to_string() });
    let decoder = decoder.map_err(failed)?;
    let (width, height) = decoder.dimensions();
    let pixels = u64::from(width) * u64::from(height);
    limits::check(pixels, limits.max_image_pixels, "pixels of an image", path)?;
    if let Some((compressed, ratio)) = room
        && compressed.saturating_mul(ratio) < decoder.total_bytes()
    {
        let reason = format!(
            "its {compressed} bytes of compressed data cannot hold the {width}x{height} pixels its header declares: \
             the file is truncated"
        );
        return Err(ImportError::at(path, ErrorKind::ImageDecode { reason }));
    }
    // Decoded at the file's own bytes per pixel (8 for 16-bit RGBA), then converted to RGBA8
    // (a second buffer, unless it already is RGBA8).
    let converted = if decoder.color_type() == ColorType::Rgba8 { 0 } else { pixels.saturating_mul(4) };
    let decoding = decoder.total_bytes().saturating_add(converted);
    if decoding > budget.remaining() {
        let (room, bytes_per_pixel) = (budget.remaining(), decoding.div_ceil(pixels.max(1)));
        // The largest power-of-two side at the image's aspect whose pixels fit.
        let fits = |side: u64| {
            let scale = side as f64 / f64::from(width.max(height));
            let kept = (f64::from(width) * scale).ceil() * (f64::from(height) * scale).ceil();
            kept * bytes_per_pixel as f64 <= room as f64
        };
        let side = (0..32).rev().map(|k| 1u64 << k).find(|&s| fits(s)).unwrap_or(1) as u32;
        let bytes_per_pixel = bytes_per_pixel as u32;
        return Err(ImportError::at(path, ErrorKind::ImageTooLarge { width, height, bytes_per_pixel, room, side }));
    }
    budget.charge(decoding, path)?;
    let rgba = DynamicImage::from_decoder(decoder).map_err(failed)?.into_rgba8();
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::buffers::Buffers;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        let image = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba([x as u8, y as u8, 7, 255]));
        image.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png).expect("encodes");
        bytes
    }

    fn decode_png(bytes: &[u8], limits: &Limits) -> Result<(u32, u32, Vec<u8>), ImportError> {
        let root: Root = serde_json::from_value(serde_json::json!({"asset": {"version": "2.0"}})).expect("root");
        let buffers = Buffers::load(&root, None, None, limits)?;
        let budget = Budget::new(limits.max_decoded_bytes);
        let source = ImageSource {
            buffers: &buffers,
            base_dir: None,
            limits,
            budget: &budget,
            sides: &[],
            files_read: Cell::new(0),
        };
        decode(bytes, &source, &budget, "images[0]")
    }

    #[test]
    fn png_decodes_to_rgba8() {
        let (width, height, rgba) = decode_png(&png(3, 2), &Limits::default()).expect("decodes");
        assert_eq!((width, height, rgba.len()), (3, 2, 24));
        assert_eq!(&rgba[4 * 5..], &[2, 1, 7, 255]);
    }

    #[test]
    fn images_larger_than_the_gpu_takes_are_downscaled_with_a_warning() {
        use crate::parts::Skip;
        use base64::Engine as _;
        use base64::engine::general_purpose::STANDARD;
        let limits = Limits { max_texture_dimension: 4, ..Limits::default() };
        let root: Root = serde_json::from_value(serde_json::json!({"asset": {"version": "2.0"},
            "images": [{"uri": format!("data:image/png;base64,{}", STANDARD.encode(png(16, 2)))}],
            "textures": [{"source": 0}],
            "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]}))
        .expect("root");
        let buffers = Buffers::load(&root, None, None, &limits).expect("no buffers");
        let budget = Budget::new(limits.max_decoded_bytes);
        let source = ImageSource {
            buffers: &buffers,
            base_dir: None,
            limits: &limits,
            budget: &budget,
            sides: &[],
            files_read: Cell::new(0),
        };
        let mut warnings = Vec::new();
        let mut drops = Drops { skip: &Skip::default(), dropped: Vec::new() };
        let images = crate::material::import_materials(&root, &[true], &source, &mut warnings, &mut drops)
            .expect("imports")
            .images;
        assert!(drops.dropped.is_empty());
        assert_eq!((images[0].width, images[0].height, images[0].rgba8.len()), (4, 1, 16));
        // Each pixel the average of the 4x2 block it covers: red x (1.5 above its first), green
        // y (0.5), blue and alpha kept.
        for (k, pixel) in images[0].rgba8.chunks(4).enumerate() {
            let red = 4.0 * k as f32 + 1.5;
            assert!((f32::from(pixel[0]) - red).abs() <= 0.5 && pixel[1] <= 1 && pixel[2..] == [7, 255], "{pixel:?}");
        }
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].message.contains("16x2") && warnings[0].message.contains("4x1"), "{:?}", warnings[0]);
    }

    #[test]
    fn sixteen_bit_images_are_charged_at_their_real_size() {
        let mut bytes = Vec::new();
        let image = image::ImageBuffer::<image::Rgba<u16>, _>::from_pixel(8, 8, image::Rgba([1, 2, 3, 4]));
        image.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png).expect("encodes");
        // 64 pixels at 8 bytes decoded plus 4 converted: 768 bytes. Short of them, the error
        // gives the side that fits: 4x4 pixels take 192.
        let limits = Limits { max_decoded_bytes: 767, ..Limits::default() };
        let error = decode_png(&bytes, &limits).expect_err("over the budget");
        let fits = matches!(
            error.kind,
            ErrorKind::ImageTooLarge { width: 8, height: 8, bytes_per_pixel: 12, room: 767, side: 4 }
        );
        assert!(fits, "{:?}", error.kind);
        assert!(error.kind.to_string().ends_with("export it at most 4 pixels a side"), "{}", error.kind);
        // An 8192 x 8192 RGB JPEG (3 bytes a pixel and its 4-byte copy) in 256 MiB.
        let jpeg =
            ErrorKind::ImageTooLarge { width: 8192, height: 8192, bytes_per_pixel: 7, room: 1 << 28, side: 4096 };
        let said =
            "the image is 8192x8192 pixels, 7 bytes a pixel while it is decoded (448 MiB), more than the 256 MiB";
        assert!(jpeg.to_string().starts_with(said), "{jpeg}");
        let limits = Limits { max_decoded_bytes: 768, ..Limits::default() };
        assert_eq!(decode_png(&bytes, &limits).expect("within the budget").2.len(), 256);
    }

    /// A PNG or JPEG whose header declares more pixels than its data can hold (truncated, or
    /// lying) is refused before its pixels are allocated, whatever the budget.
    #[test]
    fn images_whose_data_cannot_hold_their_pixels_are_refused_before_decoding() {
        let mut lying = png(16, 16);
        // IHDR's width and height (big-endian, at 16 and 20) raised to 8192, its CRC made again.
        lying[16..24].copy_from_slice(&[0, 0, 0x20, 0, 0, 0, 0x20, 0]);
        let crc = !lying[12..29].iter().fold(!0u32, |crc, &byte| {
            (0..8).fold(crc ^ u32::from(byte), |c, _| if c & 1 == 1 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 })
        });
        lying[29..33].copy_from_slice(&crc.to_be_bytes());
        let error = decode_png(&lying, &Limits::default()).expect_err("cannot hold 8192x8192 pixels");
        assert!(
            matches!(&error.kind, ErrorKind::ImageDecode { reason } if reason.contains("cannot hold the 8192x8192 pixels")),
            "{:?}",
            error.kind
        );
        let mut jpeg = Vec::new();
        image::RgbImage::from_pixel(4096, 4096, image::Rgb([9, 9, 9]))
            .write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg)
            .expect("encodes");
        let whole = decode_png(&jpeg, &Limits::default()).map(|(width, _, _)| width);
        assert_eq!(whole.as_ref().ok(), Some(&4096), "a flat JPEG is small but whole: {:?}", whole.as_ref().err());
        // Cut just past its headers: 2,000 bytes cannot hold 4096x4096 pixels.
        jpeg.truncate(2000);
        let cut = decode_png(&jpeg, &Limits::default()).map(|(width, _, _)| width);
        assert!(
            matches!(&cut, Err(ImportError { kind: ErrorKind::ImageDecode { reason }, .. }) if reason.contains("cannot hold")),
            "{:?}",
            cut
        );
    }

    #[test]
    fn image_size_is_checked_before_decoding() {
        let limits = Limits { max_image_pixels: 5, ..Limits::default() };
        let error = decode_png(&png(3, 2), &limits).expect_err("too many pixels");
        assert!(matches!(error.kind, ErrorKind::LimitExceeded { value: 6, limit: 5, .. }));
        let error = decode_png(b"GIF89a....", &Limits::default()).expect_err("not PNG");
        assert!(matches!(error.kind, ErrorKind::UnsupportedImageFormat { .. }), "{:?}", error.kind);
        let mut truncated = png(3, 2);
        truncated.truncate(40);
        let error = decode_png(&truncated, &Limits::default()).expect_err("truncated");
        assert!(matches!(error.kind, ErrorKind::ImageDecode { .. }), "{:?}", error.kind);
    }
}
