//! Defects of buffers, buffer views, accessors and mesh primitives.

use anyhow::{Context, Result};
use base64::Engine as _;
use serde_json::json;

use super::{Case, Doc};

/// The inverse bind matrices accessor.
const IBM: &str = "/skins/0/inverseBindMatrices";
/// Morph target 0 (POSITION) of the quad: four VEC3, `[0,0,0] [0,0,0] [0,.5,0] [0,.5,0]`.
const TARGET: &str = "/meshes/1/primitives/0/targets/0/POSITION";

/// Adds `field` = `value` to the accessor whose index is at `pointer`.
fn edit_accessor(doc: &mut Doc, pointer: &str, field: &str, value: serde_json::Value) -> Result<()> {
    let accessor = doc.index(pointer)?;
    doc.set(&format!("/accessors/{accessor}/{field}"), value)
}

/// Adds `field` = `value` to the buffer view of the accessor whose index is at `pointer`.
fn edit_view(doc: &mut Doc, pointer: &str, field: &str, value: serde_json::Value) -> Result<()> {
    let accessor = doc.index(pointer)?;
    let view = doc.index(&format!("/accessors/{accessor}/bufferView"))?;
    doc.set(&format!("/bufferViews/{view}/{field}"), value)
}

/// Makes morph target 0 sparse: `indices` (UNSIGNED_BYTE) substituted by the target's own
/// values (`[0, 0.5, 0]` past its end), so `min`/`max` stay true.
fn sparse(doc: &mut Doc, indices: &[u8], count: usize) -> Result<()> {
    let target = doc.index(TARGET)?;
    let values: Vec<u8> = indices
        .iter()
        .flat_map(|&i| if i < 2 { [0.0f32, 0.0, 0.0] } else { [0.0, 0.5, 0.0] })
        .flat_map(f32::to_le_bytes)
        .collect();
    let indices_view = doc.view(indices)?;
    let values_view = doc.view(&values)?;
    doc.set(
        &format!("/accessors/{target}/sparse"),
        json!({"count": count, "indices": {"bufferView": indices_view, "componentType": 5121},
               "values": {"bufferView": values_view}}),
    )
}

/// The POSITION accessor of the skinned tube.
fn position(doc: &Doc) -> Result<usize> {
    doc.attribute(0, "POSITION")
}

/// The buffer, buffer view, accessor and primitive cases.
pub const CASES: &[Case] = &[
    Case::new("buffer_byte_length_mismatch", "buffers", "buffer byteLength 16 bytes longer than its data", |doc| {
        let length = doc.bin.len() + 16;
        doc.set("/buffers/0/byteLength", json!(length))
    }),
    Case::new("buffer_view_too_long", "buffers", "a buffer view reaching 1000 bytes past its buffer", |doc| {
        let accessor = doc.attribute(0, "NORMAL")?;
        let view = doc.index(&format!("/accessors/{accessor}/bufferView"))?;
        let length = doc.index(&format!("/bufferViews/{view}/byteLength"))? + 1000;
        doc.set(&format!("/bufferViews/{view}/byteLength"), json!(length))
    }),
    Case::new("buffer_view_stride_too_big", "buffers", "byteStride 252 on a 192-byte vertex buffer view", |doc| {
        edit_view(doc, "/meshes/0/primitives/0/attributes/NORMAL", "byteStride", json!(252))
    }),
    Case::new("buffer_view_stride_unaligned", "buffers", "byteStride 14, not a multiple of 4", |doc| {
        edit_view(doc, "/meshes/0/primitives/0/attributes/NORMAL", "byteStride", json!(14))
    }),
    Case::new("buffer_data_uri_mime", "buffers", "buffer data URI of media type text/plain", |doc| {
        let data = base64::engine::general_purpose::STANDARD.encode(&doc.bin);
        doc.set("/buffers/0/uri", json!(format!("data:text/plain;base64,{data}")))
    }),
    Case::new("buffer_without_data", "buffers", "a .gltf buffer without uri", |doc| {
        doc.no_uri = true;
        Ok(())
    })
    .game(&["BUFFER_MISSING_GLB_DATA /buffers/0"]),
    Case::new(
        "accessor_too_long",
        "accessors",
        "inverse bind matrices accessor count 3 over a view of 2 matrices",
        |doc| edit_accessor(doc, IBM, "count", json!(3)),
    ),
    Case::new("accessor_offset_unaligned", "accessors", "a FLOAT accessor at byteOffset 2", |doc| {
        let view = doc.view(&[0; 16])?;
        let accessor =
            json!({"bufferView": view, "byteOffset": 2, "componentType": 5126, "type": "SCALAR", "count": 3});
        doc.push("/accessors", accessor).map(drop)
    }),
    Case::new("accessor_small_stride", "accessors", "byteStride 8 under a VEC3 FLOAT accessor (12 bytes)", |doc| {
        edit_view(doc, "/meshes/0/primitives/0/attributes/POSITION", "byteStride", json!(8))
    }),
    Case::new("accessor_nan", "accessors", "NaN in a POSITION element", |doc| {
        let accessor = position(doc)?;
        doc.write_f32(accessor, 1, 0, f32::NAN)
    }),
    Case::new("accessor_max_mismatch", "accessors", "POSITION max[1] larger than the data's maximum", |doc| {
        let accessor = position(doc)?;
        let max = doc.get(&format!("/accessors/{accessor}/max/1"))?.as_f64().context("max")?;
        doc.set(&format!("/accessors/{accessor}/max/1"), json!(max + 1.0))
    }),
    Case::new("position_without_bounds", "accessors", "a POSITION accessor without min/max", |doc| {
        let accessor = position(doc)?;
        doc.remove(&format!("/accessors/{accessor}/min"))?;
        doc.remove(&format!("/accessors/{accessor}/max"))
    }),
    Case::new("accessor_component_type_invalid", "accessors", "componentType 5127", |doc| {
        edit_accessor(doc, IBM, "componentType", json!(5127))
    }),
    Case::new("accessor_normalized_float", "accessors", "a FLOAT accessor marked normalized", |doc| {
        edit_accessor(doc, IBM, "normalized", json!(true))
    }),
    Case::new("accessor_buffer_view_unresolved", "accessors", "an accessor naming bufferView 99", |doc| {
        edit_accessor(doc, IBM, "bufferView", json!(99))
    }),
    Case::new("sparse_indices_non_increasing", "accessors", "sparse indices 3, 2", |doc| sparse(doc, &[3, 2], 2)),
    Case::new("sparse_index_out_of_range", "accessors", "sparse index 9 in an accessor of 4 elements", |doc| {
        sparse(doc, &[2, 9], 2)
    }),
    Case::new("sparse_count_out_of_range", "accessors", "sparse count 6 for an accessor of 4 elements", |doc| {
        sparse(doc, &[0, 1, 2, 3, 4, 5], 6)
    }),
    Case::new("sparse_count_zero", "accessors", "a sparse substitution of 0 elements", |doc| sparse(doc, &[2], 0)),
    Case::new("index_out_of_range", "meshes", "vertex index 99 in a primitive of 16 vertices", |doc| {
        let indices = doc.index("/meshes/0/primitives/0/indices")?;
        doc.write_bytes(indices, 0, &99u16.to_le_bytes())
    }),
    Case::new("attribute_count_mismatch", "meshes", "NORMAL with one element fewer than POSITION", |doc| {
        edit_accessor(doc, "/meshes/0/primitives/0/attributes/NORMAL", "count", json!(15))
    }),
    Case::new("attribute_invalid_format", "meshes", "WEIGHTS_0 as non-normalized UNSIGNED_BYTE", |doc| {
        edit_accessor(doc, "/meshes/0/primitives/0/attributes/WEIGHTS_0", "componentType", json!(5121))
    }),
    Case::new("joints_without_weights", "meshes", "JOINTS_0 without WEIGHTS_0", |doc| {
        doc.remove("/meshes/0/primitives/0/attributes/WEIGHTS_0")
    }),
    Case::new("morph_targets_unequal", "meshes", "a second primitive without the morph targets of the first", |doc| {
        let mut primitive = doc.get("/meshes/1/primitives/0")?.clone();
        primitive.as_object_mut().context("primitive")?.remove("targets");
        doc.push("/meshes/1/primitives", primitive).map(drop)
    }),
    Case::new("mesh_weights_count", "meshes", "one default morph weight for two morph targets", |doc| {
        doc.set("/meshes/1/weights", json!([0.0]))
    }),
    Case::new("accessor_element_above_max", "accessors", "a POSITION element above the declared max", |doc| {
        let positions = position(doc)?;
        doc.write_f32(positions, 2, 1, 1000.0)
    }),
    Case::new("accessor_element_below_min", "accessors", "a POSITION element below the declared min", |doc| {
        let positions = position(doc)?;
        doc.write_f32(positions, 2, 1, -1000.0)
    }),
    Case::new("attribute_unsigned_int", "meshes", "TEXCOORD_0 of UNSIGNED_INT components", |doc| {
        let vertices = doc.index(&format!("/accessors/{}/count", position(doc)?))?;
        let accessor = doc.accessor(&vec![0u8; 8 * vertices], 5125, "VEC2", vertices)?;
        doc.set("/meshes/0/primitives/0/attributes/TEXCOORD_0", json!(accessor))
    }),
    Case::new("camera_zero_xmag", "nodes", "an orthographic camera with xmag 0", |doc| {
        doc.set(
            "/cameras",
            json!([{"type": "orthographic", "orthographic": {"xmag": 0.0, "ymag": 1.0, "zfar": 10.0, "znear": 0.1}}]),
        )
    }),
    Case::new("camera_zfar_below_znear", "nodes", "a perspective camera with zfar 1 below znear 10", |doc| {
        doc.set("/cameras", json!([{"type": "perspective", "perspective": {"yfov": 1.0, "zfar": 1.0, "znear": 10.0}}]))
    }),
    Case::new("normal_zero_length", "meshes", "NORMAL element 3 of length 0", |doc| {
        let normals = doc.attribute(0, "NORMAL")?;
        (0..3).try_for_each(|k| doc.write_f32(normals, 3, k, 0.0))
    }),
    Case::new("normal_non_unit", "meshes", "NORMAL elements 5 and 6 of length 2", |doc| {
        let normals = doc.attribute(0, "NORMAL")?;
        for element in [5, 6] {
            doc.write_f32(normals, element, 0, 2.0)?;
            (1..3).try_for_each(|k| doc.write_f32(normals, element, k, 0.0))?;
        }
        Ok(())
    }),
    Case::new("tangent_invalid_sign", "meshes", "TANGENT with w = 0.5 on element 2 (w must be 1 or -1)", |doc| {
        tangents(doc, |element| if element == 2 { [1.0, 0.0, 0.0, 0.5] } else { [1.0, 0.0, 0.0, 1.0] })
    }),
    Case::new("tangent_non_unit", "meshes", "TANGENT element 7 of length 1.5", |doc| {
        tangents(doc, |element| if element == 7 { [0.0, 1.5, 0.0, -1.0] } else { [0.0, 1.0, 0.0, -1.0] })
    }),
];

/// Gives the skinned tube a TANGENT attribute of `tangent(element)` per vertex.
fn tangents(doc: &mut Doc, tangent: impl Fn(usize) -> [f32; 4]) -> Result<()> {
    let vertices = doc.index(&format!("/accessors/{}/count", position(doc)?))?;
    let values: Vec<f32> = (0..vertices).flat_map(&tangent).collect();
    let accessor = doc.floats(&values, "VEC4", false)?;
    doc.set("/meshes/0/primitives/0/attributes/TANGENT", json!(accessor))
}
