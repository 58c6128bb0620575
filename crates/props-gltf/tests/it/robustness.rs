//! Damaged real models (truncated, bytes flipped) must import or fail, never panic.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use props_gltf::{Limits, import_slice};

use crate::real_models::{MODELS, models_dir};
use crate::rng::XorShift;

/// Truncation lengths tried per model.
const TRUNCATIONS: usize = 20;
/// Byte-flipped variants tried per model.
const FLIPS: u64 = 200;

/// Every how many flipped variants images are decoded too: decoding a texture takes most of
/// an unoptimized import's time, and the decoder is the `image` crate's (fuzzed upstream).
const DECODE_IMAGES_EVERY: u64 = 10;

/// Imports `bytes`; returns a description of the panic, if it panicked.
fn panics(bytes: &[u8], folder: &Path, limits: &Limits, what: &str) -> Option<String> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // Ok or Err are both fine.
        let _ = import_slice(bytes, Some(folder), Path::new(what), limits);
    }));
    result.err().map(|_| what.to_owned())
}

#[test]
fn damaged_models_never_panic() {
    let mut panicked = Vec::new();
    let full = Limits::default();
    let no_images = Limits { max_image_pixels: 0, ..Limits::default() };
    for name in MODELS {
        let path = models_dir().join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let folder = path.parent().unwrap_or(Path::new("."));
        for step in 0..TRUNCATIONS {
            let length = bytes.len() * step / TRUNCATIONS;
            panicked.extend(panics(&bytes[..length], folder, &full, &format!("{name} truncated to {length} bytes")));
        }
        for seed in 1..=FLIPS {
            let mut random = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            let mut damaged = bytes.clone();
            let at = (random.next() % damaged.len() as u64) as usize;
            damaged[at] ^= (random.next() % 255 + 1) as u8;
            let limits = if seed % DECODE_IMAGES_EVERY == 0 { &full } else { &no_images };
            panicked.extend(panics(&damaged, folder, limits, &format!("{name} with byte {at} flipped (seed {seed})")));
        }
    }
    assert!(panicked.is_empty(), "imports panicked:\n{}", panicked.join("\n"));
}
