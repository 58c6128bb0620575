//! Tiny test models: a triangle on one named node, embedded, external or binary, and broken
//! variants. The node name tells which write a loaded model came from.

use base64::Engine as _;

/// The triangle's positions: 3 x VEC3 of FLOAT, little-endian.
fn positions() -> Vec<u8> {
    [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|f| f.to_le_bytes()).collect()
}

/// glTF JSON for the triangle on node `node`; the buffer has `uri` (none: GLB chunk).
fn json(node: &str, uri: Option<&str>) -> String {
    let uri = uri.map(|u| format!(r#","uri":"{u}""#)).unwrap_or_default();
    format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
"nodes":[{{"name":"{node}","mesh":0}}],
"meshes":[{{"primitives":[{{"attributes":{{"POSITION":0}}}}]}}],
"accessors":[{{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}}],
"bufferViews":[{{"buffer":0,"byteLength":36}}],
"buffers":[{{"byteLength":36{uri}}}]}}"#
    )
}

/// A valid `.gltf` with its buffer embedded as a `data:` URI.
pub fn gltf(node: &str) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(positions());
    json(node, Some(&format!("data:application/octet-stream;base64,{data}")))
}

/// A `.gltf` whose buffer is the external file `uri`; [`bin`] is that file's content.
pub fn gltf_external(node: &str, uri: &str) -> String {
    json(node, Some(uri))
}

/// The external buffer of [`gltf_external`].
pub fn bin() -> Vec<u8> {
    positions()
}

/// A valid binary glTF (`.glb`).
pub fn glb(node: &str) -> Vec<u8> {
    props_gltf::glb::write(json(node, None).as_bytes(), Some(&positions())).expect("small")
}

/// Not JSON at all (a file saved half-way, say).
pub const BROKEN_JSON: &str = r#"{"asset":{"version":"2.0"},"nodes":[{"name":"#;
