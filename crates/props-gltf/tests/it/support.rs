//! What the tests share: GLB files written and split by the crate's own GLB reader and writer.

use props_gltf::glb;
use serde_json::Value;

/// The GLB's JSON and binary chunk.
pub fn split_glb(bytes: &[u8]) -> (Value, Vec<u8>) {
    let (chunks, problems) = glb::read(bytes);
    assert!(problems.is_empty(), "{problems:?}");
    let chunks = chunks.expect("a GLB");
    (serde_json::from_slice(chunks.json).expect("JSON chunk"), chunks.bin.expect("a BIN chunk").to_vec())
}

/// A GLB of `json` and `bin`.
pub fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    glb::write(json.to_string().as_bytes(), Some(bin)).expect("small")
}
