//! Hostile and oversized files: URIs reaching out of the model's folder, and the game's own
//! rules (at most 64 influences, size limits, finite numbers). The symbolic-link escape cannot be
//! committed portably: the corpus test builds it in a temporary folder.

use anyhow::Result;
use serde_json::json;

use super::doc::node;
use super::{Case, Doc};

/// Why the checker reports no IO_ERROR for a refused URI.
const REFUSED: (&str, &str) =
    ("IO_ERROR", "the validator tried to read the file and failed; the game refuses the URI without reading it");

/// Points buffer 0 at `uri`.
fn buffer_uri(doc: &mut Doc, uri: &str) -> Result<()> {
    doc.set("/buffers/0/uri", json!(uri))
}

/// The hostile and game-rule cases.
pub const CASES: &[Case] = &[
    Case::new("uri_parent_folder", "uris", "buffer uri ../outside.bin", |doc| buffer_uri(doc, "../outside.bin"))
        .game(&["PROPS_URI_OUTSIDE_FOLDER /buffers/0/uri"])
        .differences(&[REFUSED]),
    Case::new("uri_absolute_path", "uris", "buffer uri /nonexistent/props-broken.bin", |doc| {
        buffer_uri(doc, "/nonexistent/props-broken.bin")
    })
    .game(&["PROPS_URI_OUTSIDE_FOLDER /buffers/0/uri"])
    .differences(&[REFUSED]),
    Case::new("uri_file_scheme", "uris", "buffer uri file:///nonexistent/props-broken.bin", |doc| {
        buffer_uri(doc, "file:///nonexistent/props-broken.bin")
    })
    .game(&["PROPS_URI_OUTSIDE_FOLDER /buffers/0/uri"])
    .differences(&[REFUSED]),
    Case::new("uri_http", "uris", "buffer uri http://example.com/props-broken.bin", |doc| {
        buffer_uri(doc, "http://example.com/props-broken.bin")
    })
    .game(&["PROPS_URI_OUTSIDE_FOLDER /buffers/0/uri"])
    .differences(&[REFUSED]),
    Case::new("uri_percent_encoded_parent", "uris", "buffer uri %2e%2e/outside.bin", |doc| {
        buffer_uri(doc, "%2e%2e/outside.bin")
    })
    .game(&["PROPS_URI_OUTSIDE_FOLDER /buffers/0/uri"])
    .differences(&[REFUSED]),
    Case::new("uri_backslashes", "uris", "buffer uri sub\\..\\..\\outside.bin", |doc| {
        buffer_uri(doc, "sub\\..\\..\\outside.bin")
    })
    .game(&["PROPS_URI_OUTSIDE_FOLDER /buffers/0/uri"])
    .differences(&[REFUSED]),
    Case::new("uri_normal_texture_outside", "uris", "a normal map image at ../outside.png", |doc| {
        let image = doc.push("/images", json!({"uri": "../outside.png"}))?;
        let texture = doc.push("/textures", json!({"source": image}))?;
        let material = doc.push("/materials", json!({"normalTexture": {"index": texture}}))?;
        doc.set("/meshes/1/primitives/0/material", json!(material))
    })
    .game(&["PROPS_URI_OUTSIDE_FOLDER /images/0/uri"])
    .differences(&[REFUSED]),
    Case::new("uri_missing_file", "uris", "buffer uri naming a file that does not exist", |doc| {
        buffer_uri(doc, "missing.bin")
    }),
    Case::new("data_uri_invalid_base64", "uris", "buffer data URI whose payload is not base64", |doc| {
        buffer_uri(doc, "data:application/octet-stream;base64,@@@@")
    }),
    Case::new("too_many_influences", "limits", "JOINTS_0..16 and WEIGHTS_0..16: 68 influences, over 64", |doc| {
        let count = 16;
        for set in 1..=16 {
            let joints = doc.accessor(&vec![0; 4 * count], 5121, "VEC4", count)?;
            let weights = doc.accessor(&vec![0; 16 * count], 5126, "VEC4", count)?;
            let attributes = "/meshes/0/primitives/0/attributes";
            doc.set(&format!("{attributes}/JOINTS_{set}"), json!(joints))?;
            doc.set(&format!("{attributes}/WEIGHTS_{set}"), json!(weights))?;
        }
        Ok(())
    })
    .game(&["PROPS_TOO_MANY_INFLUENCES /meshes/0/primitives/0/attributes/JOINTS_16"]),
    Case::new("node_translation_overflow", "limits", "node translation 1e39, infinite as a 32-bit float", |doc| {
        doc.set(&format!("/nodes/{}/translation", node::MORPH), json!([1e39, 0.0, 0.0]))
    })
    .game(&["PROPS_NON_FINITE /nodes/3/translation"]),
    Case::new(
        "limit_buffer_bytes",
        "limits",
        "buffer byteLength of 300 MiB over 1336 bytes of data (over the size limit, and no such buffer: the data \
         and the JSON disagree, as the checker says before the limit)",
        |doc| doc.set("/buffers/0/byteLength", json!(300 * 1024 * 1024)),
    ),
    Case::new(
        "limit_vertices",
        "limits",
        "a primitive of 2 000 001 vertices (all zero but one sparse element)",
        |doc| {
            let indices = doc.view(&[0])?;
            let values = doc.view(&[0; 12])?;
            let position = json!({"componentType": 5126, "type": "VEC3", "count": 2_000_001,
                              "min": [0.0, 0.0, 0.0], "max": [0.0, 0.0, 0.0],
                              "sparse": {"count": 1, "indices": {"bufferView": indices, "componentType": 5121},
                                         "values": {"bufferView": values}}});
            let position = doc.push("/accessors", position)?;
            let mesh = doc.push("/meshes", json!({"primitives": [{"attributes": {"POSITION": position}}]}))?;
            let big = doc.push("/nodes", json!({"mesh": mesh}))?;
            doc.push("/scenes/0/nodes", json!(big)).map(drop)
        },
    )
    .game(&["PROPS_LIMIT_EXCEEDED /meshes/2/primitives/0/attributes/POSITION"]),
    Case::new("limit_joints", "limits", "a skin of 1025 joints", |doc| {
        let first = doc.get("/nodes")?.as_array().map_or(0, Vec::len);
        let joints: Vec<usize> = (first..first + 1025).collect();
        for _ in &joints {
            doc.push("/nodes", json!({"translation": [0.0, 0.1, 0.0]}))?;
        }
        doc.set(&format!("/nodes/{}/children", node::JOINT1), json!(joints))?;
        doc.push("/skins", json!({"joints": joints})).map(drop)
    })
    .game(&["PROPS_LIMIT_EXCEEDED /skins/1/joints"]),
];
