//! Defects of the JSON schema (array lengths and element types, ranges, negative indices,
//! one-of and dependent properties, version strings) and of how buffer views and accessors
//! are used (a view's target overridden, strides, vertex alignment).

use serde_json::json;

use super::{Case, Doc};

/// The IBM accessor's index.
fn ibm(doc: &Doc) -> anyhow::Result<usize> {
    doc.index("/skins/0/inverseBindMatrices")
}

/// The schema and usage cases.
pub const CASES: &[Case] = &[
    Case::new("node_translation_two_elements", "nodes", "node translation [1, 2]", |doc| {
        doc.set("/nodes/0/translation", json!([1.0, 2.0]))
    }),
    Case::new("node_rotation_string_element", "nodes", "node rotation [0, 0, \"a\", 1]", |doc| {
        doc.set("/nodes/3/rotation", json!([0.0, 0.0, "a", 1.0]))
    }),
    Case::new("scene_node_index_negative", "nodes", "scene lists node -1", |doc| {
        doc.set("/scenes/0/nodes/2", json!(-1))
    }),
    Case::new("buffer_view_offset_negative", "buffers", "bufferView byteOffset -4", |doc| {
        doc.set("/bufferViews/0/byteOffset", json!(-4))
    }),
    Case::new("primitive_mode_nine", "meshes", "primitive mode 9", |doc| {
        doc.set("/meshes/0/primitives/0/mode", json!(9))
    }),
    Case::new("material_base_color_above_one", "meshes", "baseColorFactor red 2", |doc| {
        doc.set("/materials", json!([{"pbrMetallicRoughness": {"baseColorFactor": [2.0, 1.0, 1.0, 1.0]}}]))?;
        doc.set("/meshes/0/primitives/0/material", json!(0))
    }),
    Case::new("camera_both_projections", "nodes", "a camera with both perspective and orthographic", |doc| {
        doc.set(
            "/cameras",
            json!([{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1},
                    "orthographic": {"xmag": 1.0, "ymag": 1.0, "zfar": 10.0, "znear": 0.1}}]),
        )
    }),
    Case::new("image_without_source", "meshes", "an image with neither uri nor bufferView", |doc| {
        doc.set("/images", json!([{"mimeType": "image/png"}]))
    }),
    Case::new("image_view_without_mime_type", "meshes", "an image in a buffer view with no mimeType", |doc| {
        let view = doc.view(b"\x89PNG\r\n\x1a\n")?;
        doc.set("/images", json!([{"bufferView": view}]))
    }),
    Case::new("texture_image_gif", "meshes", "a texture whose image is image/gif", |doc| {
        let view = doc.view(b"GIF89a\0\0")?;
        doc.set("/images", json!([{"bufferView": view, "mimeType": "image/gif"}]))?;
        doc.set("/textures", json!([{"source": 0}]))
    }),
    Case::new("asset_version_one_number", "container", "asset.version \"2\"", |doc| {
        doc.set("/asset/version", json!("2"))
    }),
    Case::new("accessor_min_one_element", "accessors", "POSITION min with 1 element for a VEC3", |doc| {
        let position = doc.attribute(0, "POSITION")?;
        doc.set(&format!("/accessors/{position}/min"), json!([-0.1]))
    }),
    Case::new(
        "morph_target_without_base",
        "meshes",
        "a morph target moves TANGENT, which the primitive lacks",
        |doc| {
            let tangents = doc.floats(&[0.0; 16], "VEC4", false)?;
            doc.set("/meshes/1/primitives/0/targets/0/TANGENT", json!(tangents))
        },
    ),
    Case::new("vertex_attribute_unaligned", "meshes", "TEXCOORD_0 of 2-byte elements packed without a stride", |doc| {
        let texcoords = doc.accessor(&[0; 32], 5121, "VEC2", 16)?;
        doc.set(&format!("/accessors/{texcoords}/normalized"), json!(true))?;
        doc.set("/meshes/0/primitives/0/attributes/TEXCOORD_0", json!(texcoords))
    }),
    Case::new(
        "vertex_view_shared_without_stride",
        "meshes",
        "COLOR_0 reads POSITION's view, which has no stride",
        |doc| {
            let position = doc.attribute(0, "POSITION")?;
            let view = doc.index(&format!("/accessors/{position}/bufferView"))?;
            let colors = doc
                .push("/accessors", json!({"bufferView": view, "componentType": 5126, "count": 16, "type": "VEC3"}))?;
            doc.set("/meshes/0/primitives/0/attributes/COLOR_0", json!(colors))
        },
    ),
    Case::new("index_view_targets_vertices", "buffers", "the indices' buffer view declares ARRAY_BUFFER", |doc| {
        doc.set("/bufferViews/3/target", json!(34962))
    }),
    Case::new("index_view_with_stride", "buffers", "a buffer view of indices with byteStride 4", |doc| {
        doc.set("/bufferViews/7/byteStride", json!(4))
    }),
    Case::new("ibm_as_animation_output", "animations", "an animation sampler's output is the IBM accessor", |doc| {
        let ibm = ibm(doc)?;
        doc.set("/animations/0/samplers/0/output", json!(ibm))
    }),
    Case::new("quantization_not_required", "extensions", "KHR_mesh_quantization used but not required", |doc| {
        doc.set("/extensionsUsed", json!(["KHR_mesh_quantization"]))
    }),
];
