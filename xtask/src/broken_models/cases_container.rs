//! Defects of the container: GLB framing and the JSON itself.

use anyhow::{Context, Result};
use serde_json::json;

use super::{Case, Doc};
use crate::test_models::builder::Container;

/// A GLB file's JSON and BIN chunk data.
fn chunks(bytes: &[u8]) -> Result<(Vec<u8>, Vec<u8>)> {
    let chunks = props_gltf::glb::read(bytes).0.context("not a GLB")?;
    Ok((chunks.json.to_vec(), chunks.bin.context("no BIN chunk")?.to_vec()))
}

/// A GLB file (version 2, correct total length) of the given chunks, each written as given: in
/// any order, repeated, empty or of unknown types (the damage `props_gltf::glb::write` cannot do).
fn assemble(chunks: &[(&[u8; 4], &[u8])]) -> Result<Vec<u8>> {
    let total = 12 + chunks.iter().map(|(_, data)| 8 + data.len()).sum::<usize>();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&u32::try_from(total)?.to_le_bytes());
    for (kind, data) in chunks {
        out.extend_from_slice(&u32::try_from(data.len())?.to_le_bytes());
        out.extend_from_slice(*kind);
        out.extend_from_slice(data);
    }
    Ok(out)
}

/// Why the checker stops at JSON that is not glTF.
const NOT_GLTF: &str = "JSON that is not glTF stops the checks: the importer's typed model of the JSON cannot hold it";

/// Overwrites the little-endian word at `at`.
fn set_word(bytes: &mut [u8], at: usize, value: u32) -> Result<()> {
    bytes.get_mut(at..at + 4).context("short GLB")?.copy_from_slice(&value.to_le_bytes());
    Ok(())
}

/// Damages the serialized file with `damage`.
fn glb(doc: &mut Doc, damage: super::doc::Damage) -> Result<()> {
    doc.damage = Some(damage);
    Ok(())
}

/// A chunk of the undamaged GLB file.
#[derive(Clone, Copy)]
enum Chunk {
    Json,
    Bin,
    /// A JSON chunk of no bytes.
    EmptyJson,
    /// A chunk of a type glTF does not define.
    Unknown,
}

/// Rewrites a GLB file with its chunks in `order` (each may repeat or be left out).
fn rechunk(bytes: &mut Vec<u8>, order: &[Chunk]) -> Result<()> {
    let (json, bin) = chunks(bytes)?;
    let parts: Vec<(&[u8; 4], &[u8])> = order
        .iter()
        .map(|chunk| match chunk {
            Chunk::Json => (b"JSON", &json[..]),
            Chunk::Bin => (b"BIN\0", &bin[..]),
            Chunk::EmptyJson => (b"JSON", &[][..]),
            Chunk::Unknown => (b"XTRA", &b"abcd"[..]),
        })
        .collect();
    *bytes = assemble(&parts)?;
    Ok(())
}

/// The container cases.
pub const CASES: &[Case] = &[
    Case::new("glb_invalid_version", "container", "GLB header version 1", |doc| {
        glb(doc, |bytes| set_word(bytes, 4, 1))
    })
    .in_container(Container::Glb),
    Case::new("glb_length_mismatch", "container", "GLB header declares 4 bytes more than the file has", |doc| {
        glb(doc, |bytes| {
            let length = u32::try_from(bytes.len() + 4)?;
            set_word(bytes, 8, length)
        })
    })
    .in_container(Container::Glb),
    Case::new(
        "glb_length_too_small",
        "container",
        "GLB header declares a length of 8 bytes, less than the header",
        |doc| glb(doc, |bytes| set_word(bytes, 8, 8)),
    )
    .in_container(Container::Glb),
    Case::new("glb_truncated_header", "container", "GLB file cut inside its 12-byte header", |doc| {
        glb(doc, |bytes| {
            bytes.truncate(10);
            Ok(())
        })
    })
    .in_container(Container::Glb),
    Case::new("glb_chunk_too_big", "container", "JSON chunk length reaches past the end of the file", |doc| {
        glb(doc, |bytes| {
            let length = u32::try_from(bytes.len() * 2)?;
            set_word(bytes, 12, length)
        })
    })
    .in_container(Container::Glb)
    .differences(&[(
        "INVALID_JSON",
        "the validator parses the JSON chunk cut at the end of the file; the checker stops at the broken framing",
    )]),
    Case::new("glb_chunk_unaligned", "container", "JSON chunk length not a multiple of 4 (padding removed)", |doc| {
        glb(doc, |bytes| {
            let (mut json, bin) = chunks(bytes)?;
            while json.last() == Some(&b' ') {
                json.pop();
            }
            if json.len().is_multiple_of(4) {
                json.push(b' ');
            }
            *bytes = assemble(&[(b"JSON", &json), (b"BIN\0", &bin)])?;
            Ok(())
        })
    })
    .in_container(Container::Glb),
    Case::new("glb_first_chunk_bin", "container", "BIN chunk before the JSON chunk", |doc| {
        glb(doc, |bytes| rechunk(bytes, &[Chunk::Bin, Chunk::Json]))
    })
    .in_container(Container::Glb),
    Case::new("glb_missing_bin_chunk", "container", "GLB without its BIN chunk, buffer 0 has no uri", |doc| {
        glb(doc, |bytes| rechunk(bytes, &[Chunk::Json]))
    })
    .in_container(Container::Glb),
    Case::new("glb_duplicate_bin_chunk", "container", "two BIN chunks", |doc| {
        glb(doc, |bytes| rechunk(bytes, &[Chunk::Json, Chunk::Bin, Chunk::Bin]))
    })
    .in_container(Container::Glb),
    Case::new("json_syntax_error", "container", "JSON cut in the middle", |doc| {
        glb(doc, |bytes| {
            bytes.truncate(bytes.len() / 2);
            Ok(())
        })
    }),
    Case::new("json_type_mismatch", "container", "an accessor count written as a string", |doc| {
        doc.set("/accessors/0/count", json!("2"))
    })
    .differences(&[("INVALID_IBM_ACCESSOR_COUNT", NOT_GLTF)]),
    Case::new("json_type_mismatch_material", "container", "a material's alphaMode written as a number", |doc| {
        doc.set("/materials", json!([{"alphaMode": 3}]))?;
        doc.set("/meshes/0/primitives/0/material", json!(0))
    }),
    Case::new("json_missing_required", "container", "an accessor without componentType", |doc| {
        doc.remove("/accessors/0/componentType")
    })
    .differences(&[("SKIN_IBM_INVALID_FORMAT", NOT_GLTF)]),
    Case::new("asset_version_major", "container", "asset.version 3.0", |doc| doc.set("/asset/version", json!("3.0"))),
    Case::new("asset_min_version_greater", "container", "asset.minVersion 2.1 above version 2.0", |doc| {
        doc.set("/asset/minVersion", json!("2.1"))
    }),
    Case::new("glb_invalid_magic", "container", "GLB header magic 'glTX'", |doc| {
        glb(doc, |bytes| set_word(bytes, 0, u32::from_le_bytes(*b"glTX")))
    })
    .in_container(Container::Glb),
    Case::new("glb_empty_json_chunk", "container", "a JSON chunk of length 0", |doc| {
        glb(doc, |bytes| rechunk(bytes, &[Chunk::EmptyJson, Chunk::Bin]))
    })
    .in_container(Container::Glb),
    Case::new("glb_bin_chunk_third", "container", "the BIN chunk after an unknown chunk", |doc| {
        glb(doc, |bytes| rechunk(bytes, &[Chunk::Json, Chunk::Unknown, Chunk::Bin]))
    })
    .in_container(Container::Glb),
    Case::new("extension_undeclared", "container", "a node extension not listed in extensionsUsed", |doc| {
        doc.set("/nodes/0/extensions", json!({"EXT_example": {}}))
    }),
];
