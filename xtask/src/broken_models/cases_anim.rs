//! Defects of animations (samplers, channels, keyframe data) and of extensions (their
//! declarations, a material variant's mapping).

use anyhow::Result;
use serde_json::json;

use super::doc::{node, sampler};
use super::{Case, Doc};

/// Replaces the input of the rotation sampler by new key times (with `min`/`max` when
/// `bounds`).
fn rotation_input(doc: &mut Doc, times: &[f32], bounds: bool) -> Result<()> {
    let input = doc.floats(times, "SCALAR", bounds)?;
    doc.set(&format!("/animations/0/samplers/{}/input", sampler::ROTATION), json!(input))
}

/// Replaces the output of the rotation sampler.
fn rotation_output(doc: &mut Doc, values: &[f32], ty: &str) -> Result<()> {
    let output = doc.floats(values, ty, false)?;
    doc.set(&format!("/animations/0/samplers/{}/output", sampler::ROTATION), json!(output))
}

/// Sets `field` of channel `channel`.
fn edit_channel(doc: &mut Doc, channel: usize, field: &str, value: serde_json::Value) -> Result<()> {
    doc.set(&format!("/animations/0/channels/{channel}/{field}"), value)
}

/// The animation and extension cases.
pub const CASES: &[Case] = &[
    Case::new("input_non_increasing", "animations", "key times 0, 0.5, 0.25", |doc| {
        rotation_input(doc, &[0.0, 0.5, 0.25], true)
    }),
    Case::new("input_negative", "animations", "key times -0.5, 0.5, 1", |doc| {
        rotation_input(doc, &[-0.5, 0.5, 1.0], true)
    }),
    Case::new("input_without_bounds", "animations", "key times accessor without min/max", |doc| {
        rotation_input(doc, &[0.0, 0.5, 1.0], false)
    }),
    Case::new("input_invalid_format", "animations", "key times as UNSIGNED_BYTE", |doc| {
        let input = doc.accessor(&[0, 1, 2], 5121, "SCALAR", 3)?;
        doc.set(&format!("/accessors/{input}/min"), json!([0]))?;
        doc.set(&format!("/accessors/{input}/max"), json!([2]))?;
        doc.set(&format!("/animations/0/samplers/{}/input", sampler::ROTATION), json!(input))
    }),
    Case::new("output_count_linear", "animations", "two rotation keyframes for three key times", |doc| {
        rotation_output(doc, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "VEC4")
    }),
    Case::new(
        "output_count_cubic",
        "animations",
        "CUBICSPLINE sampler with one output per key instead of three",
        |doc| {
            let path = format!("/animations/0/samplers/{}/interpolation", sampler::TRANSLATION);
            doc.set(&path, json!("CUBICSPLINE"))
        },
    ),
    Case::new("output_invalid_format", "animations", "rotation keyframes as VEC3", |doc| {
        rotation_output(doc, &[0.0; 9], "VEC3")
    }),
    Case::new("output_rotation_non_unit", "animations", "a rotation keyframe of length 2", |doc| {
        let output = doc.sampler_accessor(sampler::ROTATION, "output")?;
        doc.write_bytes(output, 1, &[0.0f32, 0.0, 0.0, 2.0].map(f32::to_le_bytes).concat())
    }),
    Case::new("output_rotation_zero", "animations", "a rotation keyframe of length 0", |doc| {
        let output = doc.sampler_accessor(sampler::ROTATION, "output")?;
        doc.write_bytes(output, 1, &[0.0f32; 4].map(f32::to_le_bytes).concat())
    }),
    Case::new("animation_without_channels", "animations", "an animation with no channels and no samplers", |doc| {
        doc.set("/animations/0/channels", json!([]))?;
        doc.set("/animations/0/samplers", json!([]))
    }),
    Case::new("output_nan", "animations", "NaN in a translation keyframe", |doc| {
        let output = doc.sampler_accessor(sampler::TRANSLATION, "output")?;
        doc.write_f32(output, 1, 1, f32::NAN)
    }),
    Case::new("channel_node_unresolved", "animations", "a channel targeting node 99", |doc| {
        edit_channel(doc, 0, "target/node", json!(99))
    }),
    Case::new("channel_sampler_unresolved", "animations", "a channel naming sampler 9", |doc| {
        edit_channel(doc, 0, "sampler", json!(9))
    }),
    Case::new("channel_duplicate_target", "animations", "two channels animating the rotation of one node", |doc| {
        edit_channel(doc, sampler::SCALE, "target/path", json!("rotation"))
    }),
    Case::new("channel_target_matrix_node", "animations", "rotation animation of a node given by a matrix", |doc| {
        let path = format!("/nodes/{}", node::JOINT1);
        doc.remove(&format!("{path}/translation"))?;
        let matrix = json!([1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0]);
        doc.set(&format!("{path}/matrix"), matrix)
    }),
    Case::new(
        "channel_weights_without_morphs",
        "animations",
        "morph weights animation of a node whose mesh has no morph targets",
        |doc| edit_channel(doc, sampler::WEIGHTS, "target/node", json!(node::SKINNED)),
    ),
    Case::new("sampler_accessor_with_stride", "animations", "byteStride on the buffer view of key times", |doc| {
        let input = doc.sampler_accessor(sampler::ROTATION, "input")?;
        let view = doc.index(&format!("/accessors/{input}/bufferView"))?;
        doc.set(&format!("/bufferViews/{view}/byteStride"), json!(4))
    }),
    Case::new("sampler_cubic_one_key", "animations", "CUBICSPLINE sampler with a single key", |doc| {
        let input = doc.floats(&[0.0], "SCALAR", true)?;
        let output = doc.floats(&[0.0; 6], "SCALAR", false)?;
        let path = format!("/animations/0/samplers/{}", sampler::WEIGHTS);
        doc.set(&format!("{path}/input"), json!(input))?;
        doc.set(&format!("{path}/output"), json!(output))
    }),
    Case::new("sampler_unknown_interpolation", "animations", "interpolation BOUNCY", |doc| {
        let path = format!("/animations/0/samplers/{}/interpolation", sampler::ROTATION);
        doc.set(&path, json!("BOUNCY"))
    })
    .game(&["VALUE_NOT_IN_LIST /animations/0/samplers/1/interpolation"]),
    Case::new("extension_required_unsupported", "extensions", "KHR_gaussian_splatting required", |doc| {
        doc.set("/extensionsUsed", json!(["KHR_gaussian_splatting"]))?;
        doc.set("/extensionsRequired", json!(["KHR_gaussian_splatting"]))
    })
    .game(&["PROPS_UNSUPPORTED_EXTENSION /extensionsRequired/0"]),
    Case::new(
        "extension_required_not_used",
        "extensions",
        "an extension in extensionsRequired but not in extensionsUsed",
        |doc| doc.set("/extensionsRequired", json!(["KHR_materials_unlit"])),
    ),
    Case::new(
        "variant_mapping_unresolved",
        "extensions",
        "a KHR_materials_variants mapping naming material 5 of 1 and variant 3 of 1",
        |doc| {
            doc.set("/extensionsUsed", json!(["KHR_materials_variants"]))?;
            doc.set("/extensions", json!({"KHR_materials_variants": {"variants": [{"name": "taxi"}]}}))?;
            doc.set("/materials", json!([{"name": "paint"}]))?;
            doc.set("/meshes/0/primitives/0/material", json!(0))?;
            let mappings = json!({"KHR_materials_variants": {"mappings": [{"variants": [0, 3], "material": 5}]}});
            doc.set("/meshes/0/primitives/0/extensions", mappings)
        },
    ),
];
