//! KTX2 images of Basis Universal data (`KHR_texture_basisu`: glTF-Transform's `etc1s` and
//! `uastc`, gltfpack's `-tc`), transcoded to RGBA8 by `basisu`, a pure-Rust port of Binomial's
//! transcoder. What the largest level would take is checked against the limits and charged to
//! the budget before anything is transcoded: its pixels, and the bytes its supercompressed data
//! says it inflates to (which the transcoder allocates before inflating it).

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

/// The largest level of the KTX2 file `bytes` (its first image) as RGBA8, with its width and
/// height.
pub(crate) fn decode(
    bytes: &[u8],
    limits: &Limits,
    budget: &Budget,
    path: &str,
) -> Result<(u32, u32, Vec<u8>), ImportError> {
    let failed = |reason: String| ImportError::at(path, ErrorKind::ImageDecode { reason });
    let transcoder = Transcoder::new(bytes)
        .map_err(|error| failed(format!("it is not a KTX2 file of Basis Universal data the game reads ({error:?})")))?;
    let (width, height) = transcoder.base_dimensions();
    let pixels = u64::from(width) * u64::from(height);
    limits::check(pixels, limits.max_image_pixels, "pixels of an image", path)?;
    let word = |at: usize| bytes.get(at..at + 8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
    let (Some(offset), Some(length), Some(inflated)) =
        (word(LEVEL_INDEX), word(LEVEL_INDEX + 8), word(LEVEL_INDEX + 16))
    else {
        return Err(failed("its level index is cut short".to_owned()));
    };
    if offset.checked_add(length).is_none_or(|end| end > bytes.len() as u64) {
        return Err(failed(format!("its largest level (bytes {offset}.. +{length}) lies past the end of the file")));
    }
    let info = transcoder.image_level_info(0).map_err(|error| failed(format!("{error:?}")))?;
    let blocks = u64::from(info.num_blocks_x) * u64::from(info.num_blocks_y);
    let images = u64::from(transcoder.layer_count().max(1)) * u64::from(transcoder.face_count().max(1));
    let most = blocks.saturating_mul(BLOCK_BYTES).saturating_mul(images);
    if inflated > most {
        let reason =
            format!("its largest level says it inflates to {inflated} bytes; {width}x{height} pixels take {most}");
        return Err(failed(reason));
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
