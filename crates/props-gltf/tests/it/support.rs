//! What the tests share: the one way they write and split GLB files.

use serde_json::Value;

/// The GLB's JSON and binary chunk.
pub fn split_glb(bytes: &[u8]) -> (Value, Vec<u8>) {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
    let json_len = word(12);
    let json = serde_json::from_slice(&bytes[20..20 + json_len]).expect("JSON chunk");
    let bin_at = 20 + json_len;
    (json, bytes[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec())
}

/// A GLB of `json` and `bin`.
pub fn glb(json: &Value, bin: &[u8]) -> Vec<u8> {
    let mut text = json.to_string().into_bytes();
    text.resize(text.len().next_multiple_of(4), b' ');
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    for word in [0x4654_6c67, 2, total as u32, text.len() as u32, 0x4E4F_534A] {
        out.extend_from_slice(&u32::to_le_bytes(word));
    }
    out.extend_from_slice(&text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}
