//! KTX2 images of Basis Universal data (`KHR_texture_basisu`: glTF-Transform's `etc1s` and
//! `uastc`, gltfpack's `-tc`), transcoded to RGBA8 by `basisu`, a pure-Rust port of Binomial's
//! transcoder. What the file would take is checked against the limits and charged to the budget
//! before anything is transcoded: the largest level's pixels, and the bytes each level's
//! supercompressed data says it inflates to (which the transcoder allocates before inflating
//! it). The game keeps the file for its levels, which the renderer may transcode to a GPU
//! block format.

use std::panic::{AssertUnwindSafe, catch_unwind};

use basisu::{DecodeFlags, TargetFormat, Transcoder};

use crate::error::{ErrorKind, ImportError};
use crate::limits::{self, Budget, Limits};

/// The KTX2 file identifier («KTX 20»\r\n\x1A\n).
const IDENTIFIER: [u8; 12] = [0xAB, b'K', b'T', b'X', b' ', b'2', b'0', 0xBB, b'\r', b'\n', 0x1A, b'\n'];

/// Where the level index starts (KTX2 section 3.9.7): per level, its data's offset, length
/// and inflated length, 8 bytes each; level 0, the largest, first.
const LEVEL_INDEX: usize = 80;

/// The most bytes a Basis block of one image takes before supercompression (UASTC: exactly).
const BLOCK_BYTES: u64 = 16;

/// Whether `bytes` is a KTX2 file.
pub(crate) fn is_ktx2(bytes: &[u8]) -> bool {
    bytes.starts_with(&IDENTIFIER)
}

/// The transcoder of KTX2 file `bytes`, or why not. Opening one reads offsets the file gives
/// (its supercompression data, its key/value data) that the transcoder does not always check
/// before it slices: a panic there leaves the image out, as its error does.
fn open(bytes: &[u8]) -> Result<Transcoder<'_>, String> {
    match catch_unwind(AssertUnwindSafe(|| Transcoder::new(bytes))) {
        Ok(Ok(transcoder)) => Ok(transcoder),
        Ok(Err(error)) => Err(format!("{error:?}")),
        Err(_) => Err("its header's offsets lead outside the file".to_owned()),
    }
}

/// Whether the KTX2 file `bytes` holds its image's every mip level, down to 1x1.
pub(crate) fn has_every_level(bytes: &[u8]) -> bool {
    open(bytes).is_ok_and(|transcoder| {
        let (width, height) = transcoder.base_dimensions();
        transcoder.level_count() == 32 - width.max(height).max(1).leading_zeros()
    })
}

/// The largest level of the KTX2 file `bytes` (its first image) as RGBA8, with its width and
/// height.
pub(crate) fn decode(
    bytes: &[u8],
    limits: &Limits,
    budget: &Budget,
    path: &str,
) -> Result<(u32, u32, Vec<u8>), ImportError> {
    let failed = |reason: String| ImportError::at(path, ErrorKind::ImageDecode { reason });
    let transcoder = open(bytes)
        .map_err(|error| failed(format!("it is not a KTX2 file of Basis Universal data the game reads ({error})")))?;
    let (width, height) = transcoder.base_dimensions();
    let pixels = u64::from(width) * u64::from(height);
    limits::check(pixels, limits.max_image_pixels, "pixels of an image", path)?;
    // Every level is checked, not only the largest: a renderer may transcode them all.
    let images = u64::from(transcoder.layer_count().max(1)) * u64::from(transcoder.face_count().max(1));
    let mut inflated = 0u64;
    for level in 0..transcoder.level_count() {
        inflated = inflated.saturating_add(check_level(bytes, &transcoder, level, images).map_err(failed)?);
    }
    budget.charge(inflated.saturating_add(pixels.saturating_mul(4)), path)?;
    // The transcoder reports malformed data as errors; should it still panic on some, that
    // image is left out rather than the game brought down.
    let rgba = match catch_unwind(AssertUnwindSafe(|| transcoder.transcode(0, TargetFormat::Rgba32, DecodeFlags::NONE)))
    {
        Ok(Ok(rgba)) => rgba,
        Ok(Err(error)) => return Err(failed(format!("it cannot be transcoded ({error:?})"))),
        Err(_) => return Err(failed("the Basis Universal transcoder failed on it".to_owned())),
    };
    if rgba.len() as u64 != pixels * 4 {
        return Err(failed(format!("it transcodes to {} bytes, not {width}x{height} pixels", rgba.len())));
    }
    Ok((width, height, rgba))
}

/// Checks level `level`'s entry of the level index: its data lies inside the file, and it does
/// not say it inflates to more than its blocks can take. Returns the bytes it inflates to.
fn check_level(bytes: &[u8], transcoder: &Transcoder<'_>, level: u32, images: u64) -> Result<u64, String> {
    let at = LEVEL_INDEX + 24 * level as usize;
    let word = |at: usize| bytes.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
    let (Some(offset), Some(length), Some(inflated)) = (word(at), word(at + 8), word(at + 16)) else {
        return Err("its level index is cut short".to_owned());
    };
    if offset.checked_add(length).is_none_or(|end| end > bytes.len() as u64) {
        return Err(format!("level {level} (bytes {offset}.. +{length}) lies past the end of the file"));
    }
    let info = transcoder.image_level_info(level).map_err(|error| format!("level {level}: {error:?}"))?;
    let blocks = u64::from(info.num_blocks_x) * u64::from(info.num_blocks_y);
    let most = blocks.saturating_mul(BLOCK_BYTES).saturating_mul(images);
    if inflated > most {
        let (width, height) = (info.width, info.height);
        return Err(format!("level {level} says it inflates to {inflated} bytes; {width}x{height} pixels take {most}"));
    }
    Ok(inflated)
}
