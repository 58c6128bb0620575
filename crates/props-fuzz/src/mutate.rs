//! Structure-aware mutations of glTF files: the JSON is edited as JSON (values set to extremes
//! or wrong types, arrays resized, indices shifted, keys removed, data URIs' base64 edited),
//! binary data as numbers (floats made NaN or huge, integers maxed), the GLB container as
//! chunks (lengths and types edited), and the file as bytes (truncated, bytes flipped). The
//! encoded streams in a GLB's binary chunk (Draco and meshopt data, WebP, KTX2, PNG and JPEG
//! images) are damaged on their own, the JSON left intact, so that inputs reach deep into
//! their decoders: bits flipped, runs overwritten, header words made extreme. One to four
//! mutations are stacked per input. Deterministic: the same seed file and generator
//! state give the same bytes.

use std::ops::Range;

use base64::Engine as _;
use props_gltf::glb;
use serde_json::{Value, json};

use rand_core::Rng as _;
use rand_xoshiro::SplitMix64;

use crate::rng::Below;

/// A seed: a `.gltf` or `.glb` file, with its JSON parsed once.
#[derive(Clone, Debug)]
pub struct Seed {
    /// A name for reports (the file's path).
    pub name: String,
    /// The file as it is.
    pub bytes: Vec<u8>,
    /// Its JSON (of the JSON chunk for a GLB), when it parses.
    json: Option<Value>,
    /// The GLB binary chunk, for a GLB.
    bin: Option<Vec<u8>>,
    /// Whether it is a GLB.
    glb: bool,
    /// The byte ranges of `bin` a decoder reads (see [`encoded_ranges`]).
    encoded: Vec<Range<usize>>,
}

impl Seed {
    /// A seed of `bytes`. JSON over [`MAX_STRUCTURED_JSON`] bytes is mutated as bytes only
    /// (re-serializing millions of values per input would make those seeds dominate the run).
    #[must_use]
    pub fn new(name: String, bytes: Vec<u8>) -> Self {
        let parse =
            |json: &[u8]| (json.len() <= MAX_STRUCTURED_JSON).then(|| serde_json::from_slice(json).ok()).flatten();
        let (json, bin, glb) = match glb_chunks(&bytes) {
            Some((json, bin)) => (parse(json), bin.map(<[u8]>::to_vec), true),
            None => (parse(&bytes), None, false),
        };
        let encoded = match (&json, &bin) {
            (Some(json), Some(bin)) => encoded_ranges(json, bin.len()),
            _ => Vec::new(),
        };
        Self { name, bytes, json, bin, glb, encoded }
    }
}

/// The ranges of a binary chunk of `len` bytes (buffer 0 of a GLB) that decoders read: the
/// views of Draco-compressed primitives and of images, and meshopt-compressed data.
fn encoded_ranges(json: &Value, len: usize) -> Vec<Range<usize>> {
    let number = |value: &Value| value.as_u64().and_then(|n| usize::try_from(n).ok());
    let in_bin = |buffer: &Value, offset: &Value, length: &Value| {
        let (start, length) = (number(offset).unwrap_or(0), number(length)?);
        let end = start.checked_add(length)?.min(len);
        (number(buffer) == Some(0) && start < end).then_some(start..end)
    };
    let view = |index: &Value| {
        let view = json["bufferViews"].get(number(index)?)?;
        in_bin(&view["buffer"], &view["byteOffset"], &view["byteLength"])
    };
    let list = |value: &Value| value.as_array().cloned().unwrap_or_default();
    let primitives = list(&json["meshes"]).into_iter().flat_map(|mesh| list(&mesh["primitives"]));
    let draco = primitives.filter_map(|p| view(&p["extensions"]["KHR_draco_mesh_compression"]["bufferView"]));
    let images = list(&json["images"]).into_iter().filter_map(|image| view(&image["bufferView"]));
    let meshopt = list(&json["bufferViews"]).into_iter().filter_map(|view| {
        let extensions = &view["extensions"];
        let compression = ["EXT_meshopt_compression", "KHR_meshopt_compression"]
            .iter()
            .map(|name| &extensions[*name])
            .find(|c| c.is_object())?;
        in_bin(&compression["buffer"], &compression["byteOffset"], &compression["byteLength"])
    });
    draco.chain(images).chain(meshopt).collect()
}

/// Damages one of `ranges` of `bin` as its decoder meets it: bits flipped, a run of bytes
/// overwritten, or a word of its header (sizes, counts, offsets) made extreme.
fn damage_encoded(bin: &mut [u8], ranges: &[Range<usize>], rng: &mut SplitMix64) {
    let Some(range) = ranges.get(rng.below(ranges.len().max(1))).filter(|r| r.end <= bin.len()) else { return };
    let stream = &mut bin[range.clone()];
    match rng.below(3) {
        0 => {
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(stream.len());
                stream[at] ^= 1 << rng.below(8);
            }
        }
        1 => {
            let at = rng.below(stream.len());
            let run = (1 + rng.below(16)).min(stream.len() - at);
            let byte = [0, 0xff, rng.next_u64() as u8][rng.below(3)];
            stream[at..at + run].fill(byte);
        }
        _ => {
            // Headers lie in the first bytes: KTX2's sizes and level index, Draco's and the
            // image formats' counts and dimensions.
            let words = stream.len().min(128) / 4;
            if words > 0 {
                let at = 4 * rng.below(words);
                let word = [0u32, 1, 0xffff, 0x0001_0000, 0x00ff_ffff, 0x7fff_ffff, u32::MAX][rng.below(7)];
                stream[at..at + 4].copy_from_slice(&word.to_le_bytes());
            }
        }
    }
}

/// The largest JSON mutated as JSON, bytes.
pub const MAX_STRUCTURED_JSON: usize = 1 << 20;

/// The most JSON text one mutation that copies array items adds, bytes.
const MAX_GROWTH: usize = 1 << 20;

/// The JSON and BIN chunks of a GLB file; `None` when it is not one (or has no usable JSON
/// chunk).
fn glb_chunks(bytes: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    glb::read(bytes).0.map(|chunks| (chunks.json, chunks.bin))
}

/// A GLB file of `json` (padded with spaces) and `bin` (padded with zeros); empty in the
/// impossible case of 4 GiB or more (seeds are far smaller).
fn glb(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    glb::write(json, bin).unwrap_or_default()
}

/// Keys whose integer values index other glTF objects.
const INDEX_KEYS: &[&str] = &[
    "node",
    "mesh",
    "skin",
    "camera",
    "accessor",
    "bufferView",
    "buffer",
    "sampler",
    "input",
    "output",
    "source",
    "index",
    "material",
    "indices",
    "skeleton",
    "scene",
    "inverseBindMatrices",
    "POSITION",
    "NORMAL",
    "TANGENT",
    "TEXCOORD_0",
    "TEXCOORD_1",
    "COLOR_0",
    "JOINTS_0",
    "JOINTS_1",
    "WEIGHTS_0",
    "WEIGHTS_1",
];

/// Numbers that break code assuming ordinary ones.
fn extreme(rng: &mut SplitMix64) -> Value {
    match rng.below(18) {
        0 => json!(0),
        1 => json!(-1),
        2 => json!(1),
        3 => json!(i32::MAX),
        4 => json!(2_147_483_648u64),
        5 => json!(u32::MAX),
        6 => json!(4_294_967_296u64),
        7 => json!(9_007_199_254_740_993u64),
        8 => json!(-9_007_199_254_740_992i64),
        9 => json!(1.0e38),
        10 => json!(3.5e38),
        11 => json!(-3.5e38),
        12 => json!(1.0e-45),
        13 => json!(-0.0),
        14 => json!(0.5),
        15 => json!(1e300),
        16 => json!(16_777_217),
        _ => json!(65_536),
    }
}

/// An extreme number of the same kind as `value` (an unsigned integer stays one, so that it
/// passes the schema and reaches the checks behind it), or any extreme now and then.
fn extreme_like(value: &Value, rng: &mut SplitMix64) -> Value {
    if rng.below(4) == 0 {
        return extreme(rng);
    }
    if value.is_u64() {
        const INTEGERS: [u64; 9] =
            [0, 1, 255, 65_536, 16_777_217, 2_147_483_647, 2_147_483_648, 4_294_967_295, 1 << 40];
        json!(INTEGERS[rng.below(INTEGERS.len())])
    } else {
        const FLOATS: [f64; 10] = [0.0, -0.0, 1.0e38, 3.5e38, -3.5e38, 1.0e-45, 0.5, -1.0, 1.0e-20, 1.0e20];
        json!(FLOATS[rng.below(FLOATS.len())])
    }
}

/// A value of another type than expected.
fn wrong_type(rng: &mut SplitMix64) -> Value {
    match rng.below(7) {
        0 => json!(""),
        1 => json!("7"),
        2 => json!(true),
        3 => Value::Null,
        4 => json!([]),
        5 => json!({}),
        _ => json!([[[[1]]]]),
    }
}

/// JSON pointers of every value in `value`.
fn pointers(value: &Value, at: &mut String, out: &mut Vec<String>) {
    out.push(at.clone());
    let len = at.len();
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                at.push('/');
                at.push_str(&key.replace('~', "~0").replace('/', "~1"));
                pointers(inner, at, out);
                at.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                at.push('/');
                at.push_str(&i.to_string());
                pointers(inner, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

/// The key a pointer ends in.
fn last_key(pointer: &str) -> &str {
    pointer.rsplit('/').next().unwrap_or("")
}

/// One edit of the JSON at a random place, mostly keeping the JSON's types (so that the
/// file passes the schema and reaches the deeper checks): indices shifted, numbers made
/// extreme, arrays resized, values removed, strings and data URIs edited; sometimes a wrong
/// type or an unknown key.
fn mutate_json(json: &mut Value, rng: &mut SplitMix64) {
    let mut all = Vec::new();
    pointers(json, &mut String::new(), &mut all);
    let of_kind = |keep: &dyn Fn(&str, &Value) -> bool| -> Vec<String> {
        all.iter().filter(|p| json.pointer(p).is_some_and(|v| keep(p, v))).cloned().collect()
    };
    let is_index = |p: &str, v: &Value| {
        v.is_u64()
            && (INDEX_KEYS.contains(&last_key(p))
                || ["/children/", "/joints/", "/nodes/"].iter().any(|k| p.contains(k)))
    };
    let kind = rng.below(10);
    let candidates = match kind {
        0..=2 => of_kind(&is_index),
        3 | 4 | 9 => of_kind(&|_, v| v.is_number()),
        5 | 8 => of_kind(&|_, v| v.is_array()),
        7 => of_kind(&|_, v| v.is_string()),
        _ => all.clone(),
    };
    let pool = if candidates.is_empty() { &all } else { &candidates };
    let pointer = pool[rng.below(pool.len())].clone();
    let parent_pointer = pointer.rsplit_once('/').map(|(parent, _)| parent.to_owned());
    let Some(target) = json.pointer_mut(&pointer) else { return };
    match kind {
        0..=2 => {
            let n = target.as_i64().unwrap_or(0);
            let shifted = match rng.below(6) {
                0 | 1 => n + 1,
                2 => n - 1,
                3 => n * 2 + 1,
                4 => n + 1000,
                _ => i64::from(u32::MAX),
            };
            *target = json!(shifted);
        }
        3 | 4 => *target = extreme_like(target, rng),
        5 => {
            if let Value::Array(items) = target {
                match rng.below(4) {
                    0 => items.clear(),
                    1 => items.truncate(rng.below(items.len() + 1)),
                    2 if !items.is_empty() => {
                        let item = items[rng.below(items.len())].clone();
                        // At most MAX_GROWTH bytes more: stacked copies of copies (a mesh of
                        // 1000 primitives copied 1000 times) once made an 89 MB input whose
                        // parsed form took more memory than the worker has, in the mutator.
                        let room = MAX_GROWTH / item.to_string().len().max(1);
                        let copies = [1, 2, 10, 1000][rng.below(4)].min(room.max(1));
                        items.extend(std::iter::repeat_n(item, copies));
                    }
                    _ => items.reverse(),
                }
            }
        }
        6 => {
            // Remove the value from its object or array.
            if let Some(parent) = parent_pointer.and_then(|p| json.pointer_mut(&p)) {
                let key = last_key(&pointer).replace("~1", "/").replace("~0", "~");
                match parent {
                    Value::Object(map) => {
                        map.remove(&key);
                    }
                    Value::Array(items) => {
                        if let Ok(i) = key.parse::<usize>()
                            && i < items.len()
                        {
                            items.remove(i);
                        }
                    }
                    _ => {}
                }
            }
        }
        7 => {
            if let Value::String(text) = target {
                *text = edit_text(text, rng);
            }
        }
        8 => {
            // Numbers in an array all set to one extreme (a matrix, a quaternion, bounds).
            if let Value::Array(items) = target
                && let Some(first) = items.iter().find(|v| v.is_number())
            {
                let value = extreme_like(first, rng);
                items.iter_mut().filter(|v| v.is_number()).for_each(|v| *v = value.clone());
            }
        }
        _ => match target {
            Value::Object(map) => {
                map.insert(
                    ["extras", "extensions", "unknown", "matrix", "sparse"][rng.below(5)].to_owned(),
                    wrong_type(rng),
                );
            }
            _ => *target = wrong_type(rng),
        },
    }
}

/// An edit of a string: a data URI's base64 payload damaged, cut, or its media type changed;
/// another string made a path out of the folder, emptied or lengthened.
fn edit_text(text: &str, rng: &mut SplitMix64) -> String {
    if let Some((header, payload)) = text.split_once(',') {
        return match rng.below(5) {
            0 => format!("{header},{}", &payload[..payload.len() / 2]),
            1 => format!("{header},{payload}{}", "A".repeat(1 + rng.below(8))),
            2 => format!("data:text/plain;base64,{payload}"),
            3 => {
                let mut bytes = payload.as_bytes().to_vec();
                if !bytes.is_empty() {
                    let at = rng.below(bytes.len());
                    bytes[at] = b"*=A/+"[rng.below(5)];
                }
                format!("{header},{}", String::from_utf8_lossy(&bytes))
            }
            _ => {
                // Decode, damage the data as numbers, encode again.
                let engine = base64::engine::general_purpose::STANDARD;
                let mut data = engine.decode(payload).unwrap_or_default();
                damage_numbers(&mut data, rng);
                format!("{header},{}", engine.encode(&data))
            }
        };
    }
    match rng.below(4) {
        0 => String::new(),
        1 => format!("../{text}"),
        2 => format!("{text}{}", "x".repeat(300)),
        _ => "/dev/zero".to_owned(),
    }
}

/// Damages binary data as numbers: a few 4-byte words made NaN, infinite, huge or all ones.
fn damage_numbers(data: &mut [u8], rng: &mut SplitMix64) {
    if data.len() < 4 {
        return;
    }
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(data.len() / 4) * 4;
        let word: [u8; 4] = match rng.below(6) {
            0 => f32::NAN.to_le_bytes(),
            1 => f32::INFINITY.to_le_bytes(),
            2 => 1.0e30f32.to_le_bytes(),
            3 => u32::MAX.to_le_bytes(),
            4 => 0u32.to_le_bytes(),
            _ => (rng.next_u64() as u32).to_le_bytes(),
        };
        data[at..at + 4].copy_from_slice(&word);
    }
}

/// Edits of the file as bytes: a truncation, flipped bytes, or GLB header and chunk edits.
fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut SplitMix64) {
    if bytes.is_empty() {
        return;
    }
    match rng.below(4) {
        0 => bytes.truncate(rng.below(bytes.len())),
        1 => {
            for _ in 0..1 + rng.below(16) {
                let at = rng.below(bytes.len());
                bytes[at] ^= 1 << rng.below(8);
            }
        }
        2 if bytes.starts_with(b"glTF") && bytes.len() >= 20 => {
            // Header length, chunk length or chunk type.
            let at = [8, 12, 16][rng.below(3)];
            let word = [0u32, 1, 19, u32::MAX, bytes.len() as u32 + 4, 0x004E_4942][rng.below(6)];
            bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
        }
        _ => damage_numbers(bytes, rng),
    }
}

/// A mutated copy of `seed`: mostly one to three edits of its JSON (and of its binary data,
/// now and then); one input in ten, or a seed without usable JSON, edited as bytes.
#[must_use]
pub fn mutate(seed: &Seed, rng: &mut SplitMix64) -> Vec<u8> {
    if let (Some(json), Some(bin)) = (&seed.json, &seed.bin)
        && !seed.encoded.is_empty()
        && rng.below(3) == 0
    {
        let mut bin = bin.clone();
        for _ in 0..1 + rng.below(3) {
            damage_encoded(&mut bin, &seed.encoded, rng);
        }
        return glb(json.to_string().as_bytes(), Some(&bin));
    }
    if let Some(json) = seed.json.as_ref().filter(|_| rng.below(10) != 0) {
        let mut json = json.clone();
        for _ in 0..1 + rng.below(3) {
            mutate_json(&mut json, rng);
        }
        let mut bin = seed.bin.clone();
        if let Some(bin) = bin.as_mut().filter(|_| rng.below(5) == 0) {
            damage_numbers(bin, rng);
        }
        let text = json.to_string();
        return if seed.glb { glb(text.as_bytes(), bin.as_deref()) } else { text.into_bytes() };
    }
    let mut bytes = seed.bytes.clone();
    for _ in 0..1 + rng.below(3) {
        mutate_bytes(&mut bytes, rng);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::seeded;

    #[test]
    fn mutations_are_deterministic_and_change_the_file() {
        let seed =
            Seed::new("t".into(), br#"{"asset":{"version":"2.0"},"nodes":[{"mesh":0},{"children":[0]}]}"#.to_vec());
        let run = |s: u64| {
            let mut rng = seeded(s);
            (0..50).map(|_| mutate(&seed, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert!(run(7).iter().filter(|m| **m != seed.bytes).count() > 40);
    }

    #[test]
    fn encoded_streams_are_found_and_damaged_alone() {
        let json = json!({
            "bufferViews": [
                {"buffer": 0, "byteOffset": 4, "byteLength": 8},
                {"buffer": 0, "byteOffset": 12, "byteLength": 4},
                {"buffer": 1, "byteLength": 4},
                {"buffer": 0, "byteLength": 2, "extensions": {"EXT_meshopt_compression":
                    {"buffer": 0, "byteOffset": 16, "byteLength": 8}}},
            ],
            "meshes": [{"primitives": [{"extensions": {"KHR_draco_mesh_compression": {"bufferView": 0}}}]}],
            "images": [{"bufferView": 1}, {"bufferView": 2}, {"uri": "x.png"}],
        });
        assert_eq!(encoded_ranges(&json, 20), [4..12, 12..16, 16..20]);
        // Damage stays inside the streams, every time.
        let mut rng = seeded(3);
        let mut damaged = 0;
        for _ in 0..200 {
            let mut bin = [7; 20];
            damage_encoded(&mut bin, &encoded_ranges(&json, 20), &mut rng);
            assert!(bin[..4] == [7; 4], "only the streams are damaged: {bin:?}");
            damaged += usize::from(bin != [7; 20]);
        }
        assert!(damaged > 150, "{damaged} of 200 damages changed a stream");
        // And a third of a GLB seed's inputs take that path, the JSON intact.
        let file = glb(json.to_string().as_bytes(), Some(&[7; 20]));
        let seed = Seed::new("t".into(), file);
        let mut streams_only = 0;
        for _ in 0..200 {
            let mutated = mutate(&seed, &mut rng);
            let Some((json_chunk, Some(bin))) = glb_chunks(&mutated) else { continue };
            let parsed: Option<Value> = serde_json::from_slice(json_chunk).ok();
            streams_only += usize::from(parsed.as_ref() == Some(&json) && bin[..4] == [7; 4] && bin != [7; 20]);
        }
        assert!(streams_only > 30, "{streams_only} of 200 inputs damaged the streams alone");
    }
}
