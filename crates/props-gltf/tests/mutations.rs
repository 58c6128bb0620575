//! Bounded mutation test of the checker and the importer: sample models truncated, with bits
//! flipped, and with JSON fields edited (numbers set to -1, 0, huge values or a "NaN" string,
//! required fields removed, types swapped). Neither may panic, and the heap may never grow
//! beyond what the limits allow.
//!
//! Its own test binary (not part of `it`), because it installs a counting global allocator
//! and measures the peak heap of one case at a time, which tests running in parallel threads
//! of the same binary would disturb.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

use peak_alloc::PeakAlloc;
use props_gltf::validate::check_slice;
use props_gltf::{Limits, import_slice};
use serde_json::{Value, json};

#[path = "it/rng.rs"]
mod rng;

use rng::XorShift;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// Sample models (their folders hold their external files).
const MODELS: &[&str] = &[
    "SimpleSkin.gltf",
    "AnimatedTriangle.gltf",
    "BoxAnimated.gltf",
    "RiggedSimple.glb",
    "SimpleMorph/SimpleMorph.gltf",
    "AnimatedMorphCube/AnimatedMorphCube.gltf",
    "Fox.glb",
    "generated/cubic_spline.gltf",
    "generated/sparse.gltf",
    "generated/shuffled_joints.gltf",
    "generated/eight_influences_u8_unorm8.gltf",
    "generated/many_joints.glb",
];
/// Truncated lengths tried per model.
const TRUNCATIONS: usize = 12;
/// Bit-flipped variants per model.
const FLIPS: u64 = 60;
/// JSON values edited per model (each with every edit).
const EDITED_VALUES: usize = 20;

/// Tight limits, so that the allowed heap is small enough to measure against: a hostile file
/// may make the importer allocate up to these, never more.
fn limits() -> Limits {
    const MIB: u64 = 1024 * 1024;
    Limits {
        max_buffer_bytes: 4 * MIB,
        max_total_buffer_bytes: 8 * MIB,
        max_accessor_elements: MIB,
        max_image_pixels: 64 * 64,
        max_decoded_bytes: 16 * MIB,
        ..Limits::default()
    }
}

/// The most heap one check (semantic pass, then import) may use above what was in use before:
/// its buffers and decoded data (the checker's and then the importer's, not at once) plus
/// parsed JSON and bookkeeping, proportional to the file.
fn heap_bound(limits: &Limits, file_len: usize) -> usize {
    let data = limits.max_total_buffer_bytes + limits.max_decoded_bytes;
    usize::try_from(data).unwrap_or(usize::MAX) + 64 * file_len + 8 * 1024 * 1024
}

/// The JSON and BIN chunks of a GLB file (`None` for `.gltf`).
fn glb_chunks(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let word = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize);
    if !bytes.starts_with(b"glTF") {
        return None;
    }
    let json_len = word(12)?;
    let json = bytes.get(20..20 + json_len)?.to_vec();
    let bin = word(20 + json_len).and_then(|len| bytes.get(28 + json_len..28 + json_len + len)).unwrap_or_default();
    Some((json, bin.to_vec()))
}

/// A GLB file of `json` (padded) and `bin`.
fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    json.resize(json.len().next_multiple_of(4), b' ');
    let total = 12 + 8 + json.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let mut out = Vec::with_capacity(total);
    for word in [0x4654_6c67, 2, total as u32, json.len() as u32, 0x4E4F_534A] {
        out.extend_from_slice(&u32::to_le_bytes(word));
    }
    out.extend_from_slice(&json);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(bin);
    }
    out
}

/// JSON pointers of every value under `value` (data URIs excepted: editing them only breaks
/// base64), in document order.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| pointers(v, format!("{at}/{k}"), out)),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
        Value::String(s) if s.starts_with("data:") => {}
        _ => {}
    }
    out.push(at);
}

/// The edits tried on each chosen value.
fn edits(value: &Value) -> Vec<Option<Value>> {
    let swapped = match value {
        Value::Number(n) => json!(n.to_string()),
        Value::String(_) => json!(7),
        Value::Array(_) => json!({}),
        Value::Object(_) => json!([]),
        _ => json!(null),
    };
    vec![
        Some(json!(-1)),
        Some(json!(0)),
        Some(json!(4_294_967_295u64)),
        Some(json!(1e300)),
        Some(json!("NaN")),
        Some(swapped),
        None, // removed
    ]
}

/// `root` with the value at `pointer` replaced (or removed, for `None`).
fn edited(root: &Value, pointer: &str, edit: Option<Value>) -> Value {
    let mut root = root.clone();
    let Some((parent, key)) = pointer.rsplit_once('/') else {
        return root;
    };
    match (root.pointer_mut(parent), edit) {
        (Some(Value::Object(map)), Some(value)) => {
            map.insert(key.to_owned(), value);
        }
        (Some(Value::Object(map)), None) => {
            map.remove(key);
        }
        (Some(Value::Array(items)), edit) => {
            if let Some(index) = key.parse::<usize>().ok().filter(|&i| i < items.len()) {
                match edit {
                    Some(value) => items[index] = value,
                    None => {
                        items.remove(index);
                    }
                }
            }
        }
        _ => {}
    }
    root
}

/// Every mutated variant of a model, with a description.
fn variants(bytes: &[u8], seed: u64) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for step in 0..TRUNCATIONS {
        let length = bytes.len() * step / TRUNCATIONS;
        out.push((format!("truncated to {length} bytes"), bytes[..length].to_vec()));
    }
    let mut random = XorShift(seed | 1);
    for _ in 0..FLIPS {
        let mut damaged = bytes.to_vec();
        let at = (random.next() % damaged.len() as u64) as usize;
        damaged[at] ^= 1 << (random.next() % 8);
        out.push((format!("bit flipped in byte {at}"), damaged));
    }
    let (json, bin) = glb_chunks(bytes).unwrap_or_else(|| (bytes.to_vec(), Vec::new()));
    let Ok(root) = serde_json::from_slice::<Value>(&json) else {
        return out;
    };
    let mut all = Vec::new();
    pointers(&root, String::new(), &mut all);
    let step = (all.len() / EDITED_VALUES).max(1);
    for (k, pointer) in all.iter().skip(random.next() as usize % step).step_by(step).enumerate() {
        let Some(value) = root.pointer(pointer) else { continue };
        for (e, edit) in edits(value).into_iter().enumerate() {
            let text = edited(&root, pointer, edit).to_string().into_bytes();
            let file = if bin.is_empty() && !bytes.starts_with(b"glTF") { text } else { glb(&text, &bin) };
            out.push((format!("{pointer} edited (value {k}, edit {e})"), file));
        }
    }
    out
}

#[test]
fn mutated_models_never_panic_nor_outgrow_the_limits() {
    let models_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models");
    let limits = limits();
    let start = Instant::now();
    let (mut cases, mut worst) = (0usize, (0usize, String::new()));
    let mut failures = Vec::new();
    for (m, name) in MODELS.iter().enumerate() {
        let path = models_dir.join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let folder: PathBuf = path.parent().map_or_else(|| PathBuf::from("."), Path::to_owned);
        for (what, file) in variants(&bytes, 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(m as u64 + 1)) {
            cases += 1;
            let before = HEAP.current_usage();
            HEAP.reset_peak_usage();
            let ran = catch_unwind(AssertUnwindSafe(|| {
                let report = check_slice(&file, Some(&folder), Path::new(name), &limits);
                let imported = import_slice(&file, Some(&folder), Path::new(name), &limits);
                // The invariant: what the checker passes imports.
                (report.has_errors() || imported.is_ok(), report.to_string())
            }));
            let peak = HEAP.peak_usage().saturating_sub(before);
            if peak > worst.0 {
                worst = (peak, format!("{name} {what}"));
            }
            match ran {
                Err(_) => failures.push(format!("{name} {what}: panicked")),
                Ok((false, report)) => {
                    failures.push(format!("{name} {what}: passed the checker but not the importer\n{report}"))
                }
                Ok(_) => {}
            }
            if peak > heap_bound(&limits, file.len()) {
                failures.push(format!("{name} {what}: {peak} bytes of heap"));
            }
        }
    }
    println!(
        "{cases} mutated files in {:.1} s; peak heap {} KiB ({})",
        start.elapsed().as_secs_f64(),
        worst.0 / 1024,
        worst.1
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
