//! The hostile corpus: one small file (or folder) per way a mod can try to hurt the game, each
//! with the verdict the gate must reach. Built in memory, deterministically; written to a
//! folder by [`HostileCase::write`] (FIFOs and links made there, on Unix).
//!
//! Used by the fuzzer (as seeds), by this crate's tests (verdicts and peak memory under the
//! mods' limits) and by the game's tests (thrown at the running game).

use std::io::Cursor;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{Value, json};

mod amplifiers;

/// What the gate must do with a hostile case's model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Refuse it with this issue code.
    Refused(&'static str),
    /// Load it, with a warning of this code if any.
    Admitted(Option<&'static str>),
}

/// Something besides plain files that a case needs in its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Special {
    /// A FIFO (named pipe) at this path.
    Fifo(PathBuf),
    /// A symbolic link at the first path to the second (relative to the case's folder).
    Link(PathBuf, PathBuf),
}

/// One hostile case.
#[derive(Clone, Debug)]
pub struct HostileCase {
    /// A name for it, also the model's file stem.
    pub name: &'static str,
    /// What it tries, in words (the issue's wording where it has one).
    pub attack: &'static str,
    /// The model file, relative to the case's folder.
    pub model: PathBuf,
    /// Its files: path relative to the folder, and content.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// FIFOs and links to make (Unix only; the case is skipped elsewhere).
    pub specials: Vec<Special>,
    /// What the gate must say.
    pub verdict: Verdict,
}

impl HostileCase {
    fn new(name: &'static str, attack: &'static str, verdict: Verdict, document: &Value) -> Self {
        let model = PathBuf::from(format!("{name}.gltf"));
        let files = vec![(model.clone(), document.to_string().into_bytes())];
        Self { name, attack, model, files, specials: Vec::new(), verdict }
    }

    fn with_file(mut self, path: &str, bytes: Vec<u8>) -> Self {
        self.files.push((PathBuf::from(path), bytes));
        self
    }

    fn with_special(mut self, special: Special) -> Self {
        self.specials.push(special);
        self
    }

    /// Writes the case into `folder` (created if missing): its files, then its FIFOs and links.
    ///
    /// # Errors
    /// When a file cannot be written or a FIFO or link made.
    pub fn write(&self, folder: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(folder)?;
        for (path, bytes) in &self.files {
            let path = folder.join(path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        for special in &self.specials {
            make_special(folder, special)?;
        }
        Ok(())
    }
}

#[cfg(unix)]
fn make_special(folder: &Path, special: &Special) -> std::io::Result<()> {
    match special {
        Special::Fifo(path) => {
            let status = std::process::Command::new("mkfifo").arg(folder.join(path)).status()?;
            if status.success() { Ok(()) } else { Err(std::io::Error::other(format!("mkfifo failed: {status}"))) }
        }
        Special::Link(path, target) => std::os::unix::fs::symlink(target, folder.join(path)),
    }
}

#[cfg(not(unix))]
fn make_special(_: &Path, _: &Special) -> std::io::Result<()> {
    Err(std::io::Error::other("FIFOs and symbolic links are made on Unix only"))
}

/// A data URI of `bytes`.
fn data_uri(media_type: &str, bytes: &[u8]) -> String {
    format!("data:{media_type};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Appends `item` to the array at `pointer` (which [`triangle`] and its variants have).
fn push(document: &mut Value, pointer: &str, item: Value) {
    if let Some(array) = document.pointer_mut(pointer).and_then(Value::as_array_mut) {
        array.push(item);
    }
}

/// Little-endian bytes of floats.
fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A valid triangle on node 0 with UVs, its one buffer embedded: the base every case edits.
/// Accessors: 0 POSITION, 1 TEXCOORD_0, 2 key times (0, 1), 3 rotation keys (identity twice).
fn triangle() -> Value {
    let mut data = floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    data.extend(floats(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]));
    data.extend(floats(&[0.0, 1.0]));
    data.extend(floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]));
    json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "prop", "mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}}]}],
        "buffers": [{"byteLength": data.len(), "uri": data_uri("application/octet-stream", &data)}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 24},
            {"buffer": 0, "byteOffset": 60, "byteLength": 8},
            {"buffer": 0, "byteOffset": 68, "byteLength": 32}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC4"}
        ]
    })
}

/// [`triangle`] with a base colour texture whose image has `uri`.
fn textured(uri: &str) -> Value {
    let mut document = triangle();
    document["images"] = json!([{"uri": uri}]);
    document["textures"] = json!([{"source": 0}]);
    document["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    document["meshes"][0]["primitives"][0]["material"] = json!(0);
    document
}

/// A PNG of `width` x `height` RGBA8 pixels, all one colour.
fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 40, 40, 255]));
    let mut bytes = Vec::new();
    // Encoding an in-memory image of this size cannot fail.
    let _ = image.write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png);
    bytes
}

/// A lossless WebP (VP8L) whose header declares `width` x `height` pixels (each at most
/// 16384, WebP's largest) followed by a few bytes of no image: what a decoder sees before it
/// allocates.
fn webp_header(width: u32, height: u32) -> Vec<u8> {
    let bits = (width - 1) | ((height - 1) << 14);
    let mut chunk = vec![0x2f];
    chunk.extend_from_slice(&bits.to_le_bytes());
    chunk.extend_from_slice(&[0; 7]);
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(4 + 8 + chunk.len() as u32).to_le_bytes());
    out.extend_from_slice(b"WEBPVP8L");
    out.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
    out.extend_from_slice(&chunk);
    out
}

/// A PNG whose header declares `width` x `height` 16-bit RGBA pixels but whose data is a few
/// bytes: what a decoder sees before it allocates.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let chunk = |kind: &[u8; 4], data: &[u8]| {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let mut crc = crc32fast::Hasher::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(&crc.finalize().to_be_bytes());
        out
    };
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[16, 6, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &header));
    png.extend(chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    png.extend(chunk(b"IEND", &[]));
    png
}

/// [`triangle`] animated: a rotation channel whose second key is `key`.
fn rotating(key: [f32; 4]) -> Value {
    let mut document = triangle();
    let mut data = floats(&[0.0, 0.0, 0.0, 1.0]);
    data.extend(floats(&key));
    push(&mut document, "/buffers", json!({"byteLength": 32, "uri": data_uri("application/octet-stream", &data)}));
    push(&mut document, "/bufferViews", json!({"buffer": 1, "byteLength": 32}));
    document["accessors"][3]["bufferView"] = json!(4);
    document["animations"] = json!([{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}],
        "samplers": [{"input": 2, "output": 3}]}]);
    document
}

/// [`triangle`] with 4,000 nodes under its root in pairs whose `VRMC_node_constraint`s follow
/// each other round, and a chain of 2,000 nodes each aiming at the root's first child.
fn constraint_cycles() -> Value {
    let mut document = triangle();
    let constraint = |kind: &str, source: usize| json!({"VRMC_node_constraint": {"specVersion": "1.0", "constraint": {kind: {"source": source}}}});
    let (pairs, chain) = (2_000, 2_000);
    let first = document["nodes"].as_array().map_or(0, Vec::len);
    let mut nodes = Vec::new();
    for p in 0..pairs {
        let (a, b) = (first + 2 * p, first + 2 * p + 1);
        nodes.push(json!({"extensions": constraint("rotation", b)}));
        nodes.push(json!({"extensions": constraint("roll", a)}));
    }
    let top = first + 2 * pairs;
    for k in 0..chain {
        let mut node = json!({"translation": [0.0, 1.0, 0.0], "extensions": constraint("aim", first)});
        if k + 1 < chain {
            node["children"] = json!([top + k + 1]);
        }
        nodes.push(node);
    }
    let mut children: Vec<usize> = (first..top).collect();
    children.push(top);
    for node in nodes {
        push(&mut document, "/nodes", node);
    }
    document["nodes"][0]["children"] = json!(children);
    document["extensionsUsed"] = json!(["VRMC_node_constraint"]);
    document
}

/// `count` copies of `item` as a JSON array, written straight as text (a `Value` of millions
/// of items would itself take gigabytes).
fn repeated(item: &str, count: usize) -> String {
    let mut out = String::with_capacity(count * (item.len() + 1) + 2);
    out.push('[');
    for i in 0..count {
        if i > 0 {
            out.push(',');
        }
        out.push_str(item);
    }
    out.push(']');
    out
}

/// A case whose model is raw text (too large to build as a `Value`).
fn raw(name: &'static str, attack: &'static str, verdict: Verdict, text: String) -> HostileCase {
    let model = PathBuf::from(format!("{name}.gltf"));
    HostileCase { name, attack, files: vec![(model.clone(), text.into_bytes())], model, specials: Vec::new(), verdict }
}

/// Every hostile case (FIFO and link cases on Unix only).
#[must_use]
pub fn cases() -> Vec<HostileCase> {
    use Verdict::{Admitted, Refused};
    let mut cases = vec![
        HostileCase::new(
            "tiny_texture_wide",
            "a 1.5 KB glTF whose base-colour PNG is 65536 x 1 pixels (more than any GPU's texture width)",
            Admitted(Some("PROPS_IGNORED")),
            &textured(&data_uri("image/png", &png(65_536, 1))),
        ),
        HostileCase::new(
            "webp_huge",
            "a 40-byte WebP declaring 16383 x 16383 pixels (1 GiB decoded): loaded without it, nothing allocated",
            Admitted(Some("PROPS_LIMIT_EXCEEDED")),
            &textured(&data_uri("image/webp", &webp_header(16_383, 16_383))),
        ),
        HostileCase::new(
            "meshopt_huge",
            "a 1 KB meshopt-compressed view declaring 16 777 216 vertices of 256 bytes (4 GiB decompressed)",
            Refused("PROPS_LIMIT_EXCEEDED"),
            &{
                let mut document = triangle();
                document["extensionsUsed"] = json!(["EXT_meshopt_compression"]);
                document["extensionsRequired"] = json!(["EXT_meshopt_compression"]);
                let compression = json!({"buffer": 0, "byteOffset": 0, "byteLength": 36, "byteStride": 256,
                    "count": 16_777_216, "mode": "ATTRIBUTES"});
                document["bufferViews"][0]["extensions"] = json!({"EXT_meshopt_compression": compression});
                document
            },
        ),
        HostileCase::new(
            "scale_overflow",
            "finite scales that multiply to infinity along the hierarchy",
            Refused("PROPS_POSE_OVERFLOW"),
            &{
                let mut document = triangle();
                document["nodes"] = json!([{"name": "big", "scale": [3.0e38, 3.0e38, 3.0e38], "children": [1]},
                    {"name": "prop", "mesh": 0, "scale": [3.0e38, 3.0e38, 3.0e38]}]);
                document
            },
        ),
        HostileCase::new(
            "constraint_cycles",
            "6,000 VRM node constraints: 2,000 pairs following each other round, and aims down a chain of 2,000 \
             nodes each reading all above it (admitted in one pass: each cycle loses one, aims past the cost bound go)",
            Admitted(Some("PROPS_IGNORED")),
            &constraint_cycles(),
        ),
        HostileCase::new("zero_node_rotation", "a zero node rotation", Refused("ROTATION_NON_UNIT"), &{
            let mut document = triangle();
            document["nodes"][0]["rotation"] = json!([0.0, 0.0, 0.0, 0.0]);
            document
        }),
        HostileCase::new(
            "zero_rotation_key",
            "a zero rotation keyframe",
            Admitted(Some("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION")),
            &rotating([0.0; 4]),
        ),
        HostileCase::new(
            "nan_rotation_key",
            "a NaN rotation keyframe",
            Admitted(Some("ACCESSOR_INVALID_FLOAT")),
            &rotating([f32::NAN, 0.0, 0.0, 1.0]),
        ),
        raw(
            "empty_nodes",
            "a JSON of millions of empty nodes",
            Refused("PROPS_LIMIT_EXCEEDED"),
            format!(r#"{{"asset":{{"version":"2.0"}},"nodes":{}}}"#, repeated("{}", 3_000_000)),
        ),
        raw(
            "empty_materials",
            "a JSON of millions of empty materials",
            Refused("PROPS_LIMIT_EXCEEDED"),
            format!(r#"{{"asset":{{"version":"2.0"}},"materials":{}}}"#, repeated("{}", 3_000_000)),
        ),
        raw(
            "deep_json",
            "JSON nested 100 000 levels deep",
            Refused("INVALID_JSON"),
            format!(r#"{{"asset":{{"version":"2.0"}},"extras":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000)),
        ),
        HostileCase::new(
            "sparse_mat4",
            "a sparse accessor of 16M MAT4 elements, unused",
            Refused("PROPS_LIMIT_EXCEEDED"),
            &{
                let mut document = triangle();
                let sparse = json!({"count": 1, "indices": {"bufferView": 2, "componentType": 5125}, "values": {"bufferView": 3}});
                push(
                    &mut document,
                    "/accessors",
                    json!({"componentType": 5126, "count": 16 * 1024 * 1024, "type": "MAT4",
                "sparse": sparse}),
                );
                document
            },
        ),
        HostileCase::new(
            "huge_count",
            "an accessor declaring 4 294 967 295 elements",
            Refused("PROPS_LIMIT_EXCEEDED"),
            &{
                let mut document = triangle();
                document["accessors"][1]["count"] = json!(u32::MAX);
                document
            },
        ),
        {
            let png = png_header(8192, 8192);
            let mut document = textured("a.png");
            document["images"] = json!([{"uri": "a.png"}, {"uri": "b.png"}, {"uri": "c.png"}]);
            document["textures"] = json!([{"source": 0}, {"source": 1}, {"source": 2}]);
            document["materials"] =
                json!([0, 1, 2].map(|t| json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": t}}})));
            let primitive = document["meshes"][0]["primitives"][0].clone();
            document["meshes"][0]["primitives"] = json!([0, 1, 2].map(|m| {
                let mut p = primitive.clone();
                p["material"] = json!(m);
                p
            }));
            HostileCase::new(
                "png16_huge",
                "three 16-bit 8192x8192 PNG headers (8 bytes per pixel decoded, plus an RGBA8 copy) whose data \
                 cannot hold their pixels: each left out before its pixels are allocated",
                Admitted(Some("IMAGE_DATA_INVALID")),
                &document,
            )
            .with_file("a.png", png.clone())
            .with_file("b.png", png.clone())
            .with_file("c.png", png)
        },
        HostileCase::new(
            "normal_map_outside",
            "a normal map whose URI leads out of the model's folder",
            Refused("PROPS_URI_OUTSIDE_FOLDER"),
            &{
                let mut document = textured(&data_uri("image/png", &png(2, 2)));
                push(&mut document, "/images", json!({"uri": "../outside.png"}));
                push(&mut document, "/textures", json!({"source": 1}));
                document["materials"][0]["normalTexture"] = json!({"index": 1});
                document
            },
        ),
        HostileCase::new("sparse_count_zero", "sparse.count 0", Refused("VALUE_NOT_IN_RANGE"), &{
            let mut document = triangle();
            document["accessors"][0]["sparse"] =
                json!({"count": 0, "indices": {"bufferView": 2, "componentType": 5125}, "values": {"bufferView": 3}});
            document
        }),
        HostileCase::new(
            "animation_without_channels",
            "an animation with no channels",
            Admitted(Some("EMPTY_ENTITY")),
            &{
                let mut document = triangle();
                document["animations"] = json!([{"channels": [], "samplers": [{"input": 2, "output": 3}]}]);
                document
            },
        ),
        HostileCase::new(
            "joint_out_of_range",
            "a vertex weighted to a joint the skin does not have",
            Refused("ACCESSOR_JOINTS_INDEX_OOB"),
            &{
                let mut document = triangle();
                let mut data = vec![0u8, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0];
                data.extend(floats(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]));
                push(
                    &mut document,
                    "/buffers",
                    json!({"byteLength": data.len(), "uri": data_uri("application/octet-stream", &data)}),
                );
                push(&mut document, "/bufferViews", json!({"buffer": 1, "byteLength": 12}));
                push(&mut document, "/bufferViews", json!({"buffer": 1, "byteOffset": 12, "byteLength": 48}));
                push(
                    &mut document,
                    "/accessors",
                    json!({"bufferView": 4, "componentType": 5121, "count": 3, "type": "VEC4"}),
                );
                push(
                    &mut document,
                    "/accessors",
                    json!({"bufferView": 5, "componentType": 5126, "count": 3, "type": "VEC4"}),
                );
                let attributes = &mut document["meshes"][0]["primitives"][0]["attributes"];
                attributes["JOINTS_0"] = json!(4);
                attributes["WEIGHTS_0"] = json!(5);
                document["nodes"] = json!([{"name": "prop", "mesh": 0, "skin": 0}, {"name": "bone"}]);
                document["scenes"] = json!([{"nodes": [0, 1]}]);
                document["skins"] = json!([{"joints": [1]}]);
                document
            },
        ),
    ];
    cases.extend(amplifiers::cases());
    if cfg!(unix) {
        let mut fifo_model = raw("fifo_model", "a FIFO named *.gltf", Refused("IO_ERROR"), String::new());
        fifo_model.files.clear();
        fifo_model.specials.push(Special::Fifo(fifo_model.model.clone()));
        cases.push(fifo_model);
        cases.push(
            HostileCase::new(
                "fifo_buffer",
                "a buffer URI that names a FIFO in the model's folder",
                Refused("IO_ERROR"),
                &{
                    let mut document = triangle();
                    document["buffers"][0]["uri"] = json!("pipe.bin");
                    document
                },
            )
            .with_special(Special::Fifo(PathBuf::from("pipe.bin"))),
        );
        cases.push(
            HostileCase::new(
                "link_loop",
                "a folder holding a symbolic link to itself, and a model beside it",
                Admitted(Some("PROPS_IGNORED")),
                &textured(&data_uri("image/png", &png(65_536, 1))),
            )
            .with_special(Special::Link(PathBuf::from("loop"), PathBuf::from("."))),
        );
    }
    cases
}
