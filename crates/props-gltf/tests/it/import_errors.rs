//! Broken glTF documents, built in memory: each must fail, or drop the broken part, with the right
//! JSON path and kind.

use std::path::Path;

use base64::Engine;
use props_anim::{RigError, SkinError, Topology, clip::ClipError};
use props_gltf::{ErrorKind, Import, ImportError, Limits, Part, import_slice};
use serde_json::{Value, json};

use crate::real_models::models_dir;

/// A small valid document: a skinned triangle (node 0, skin 0 with joints 1 and 2) whose
/// joint 2 is animated, with everything stored in one buffer that [`Doc::json`] embeds.
pub(crate) struct Doc {
    pub(crate) json: Value,
    bin: Vec<u8>,
}

impl Doc {
    pub(crate) fn new() -> Self {
        let mut doc = Self {
            json: json!({
                "asset": {"version": "2.0"},
                "scene": 0,
                "scenes": [{"nodes": [0, 1]}],
                "nodes": [
                    {"mesh": 0, "skin": 0},
                    {"children": [2], "translation": [0.0, 1.0, 0.0]},
                    {"rotation": [0.0, 0.0, 0.0, 1.0]},
                ],
                "meshes": [{"primitives": [{"attributes": {}}]}],
                "skins": [{"joints": [1, 2]}],
                "animations": [{"samplers": [{}], "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}]}],
                "buffers": [{"byteLength": 0}],
                "bufferViews": [],
                "accessors": [],
            }),
            bin: Vec::new(),
        };
        let positions = doc.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
        doc.json["accessors"][positions]["min"] = json!([0.0, 0.0, 0.0]);
        doc.json["accessors"][positions]["max"] = json!([1.0, 1.0, 0.0]);
        let indices = doc.accessor(&[0, 0, 1, 0, 2, 0], 5123, "SCALAR", 3);
        let joints = doc.accessor(&[0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0], 5121, "VEC4", 3);
        let weights = doc.floats(&[0.5, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0], "VEC4");
        let primitive = &mut doc.json["meshes"][0]["primitives"][0];
        primitive["attributes"] = json!({"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights});
        primitive["indices"] = json!(indices);
        let times = doc.floats(&[0.0, 1.0], "SCALAR");
        let rotations = doc.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0], "VEC4");
        doc.json["animations"][0]["samplers"][0] = json!({"input": times, "output": rotations});
        let identity = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let matrices = doc.floats(&[identity, identity].concat(), "MAT4");
        doc.json["skins"][0]["inverseBindMatrices"] = json!(matrices);
        doc
    }

    /// Appends `bytes` (4-byte aligned) as a new buffer view; returns its index.
    fn view(&mut self, bytes: &[u8]) -> usize {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        push(&mut self.json["bufferViews"], json!({"buffer": 0, "byteOffset": offset, "byteLength": bytes.len()}))
    }

    /// Appends an accessor of `count` elements over a new view holding `bytes`.
    fn accessor(&mut self, bytes: &[u8], component: u32, ty: &str, count: usize) -> usize {
        let view = self.view(bytes);
        let accessor = json!({"bufferView": view, "componentType": component, "type": ty, "count": count});
        push(&mut self.json["accessors"], accessor)
    }

    /// Appends a FLOAT accessor of type `ty` holding `values`.
    pub(crate) fn floats(&mut self, values: &[f32], ty: &str) -> usize {
        let per = match ty {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "VEC4" => 4,
            "MAT4" => 16,
            _ => panic!("type {ty}"),
        };
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.accessor(&bytes, 5126, ty, values.len() / per)
    }

    /// The JSON with the buffer embedded as a data URI.
    pub(crate) fn json(&self) -> Value {
        let mut json = self.json.clone();
        let data = base64::engine::general_purpose::STANDARD.encode(&self.bin);
        json["buffers"][0] =
            json!({"byteLength": self.bin.len(), "uri": format!("data:application/octet-stream;base64,{data}")});
        json
    }

    /// The document as a GLB file with the buffer in its binary chunk.
    fn glb(&self) -> Vec<u8> {
        let mut json = self.json.clone();
        json["buffers"][0] = json!({"byteLength": self.bin.len()});
        crate::support::glb(&json, &self.bin)
    }
}

pub(crate) fn push(list: &mut Value, item: Value) -> usize {
    let list = list.as_array_mut().expect("a list");
    list.push(item);
    list.len() - 1
}

pub(crate) fn import_json(json: &Value) -> Result<Import, ImportError> {
    import_slice(json.to_string().as_bytes(), None, Path::new("broken.gltf"), &Limits::default())
}

/// Imports `json` with `base_dir`, expecting an error at `path`: one that fails the import,
/// or one for which the import left out a part (a clip, a primitive, a material or an image),
/// which is then missing from the model; returns its kind.
fn error_in(json: &Value, base_dir: Option<&Path>, path: &str) -> ErrorKind {
    let bytes = json.to_string().into_bytes();
    let error = match import_slice(&bytes, base_dir, Path::new("broken.gltf"), &Limits::default()) {
        Ok(import) => {
            let clips = import.clip_sources.clone();
            let dropped = import.dropped.into_iter().find(|dropped| dropped.error.json_path == path);
            let Some(dropped) = dropped else {
                panic!("expected an error at {path}, but the import succeeded");
            };
            if let Part::Clip { index, .. } = dropped.part {
                assert!(!clips.contains(&index), "clip {index} is dropped");
            }
            dropped.error
        }
        Err(error) => error,
    };
    assert_eq!(error.file, Path::new("broken.gltf"));
    assert_eq!(error.json_path, path, "{error}");
    let display = error.to_string();
    assert!(display.starts_with(&format!("broken.gltf: {path}: ")), "{display}");
    error.kind
}

fn error_at(json: &Value, path: &str) -> ErrorKind {
    error_in(json, None, path)
}

#[test]
fn the_base_document_is_valid() {
    let doc = Doc::new();
    let import = import_json(&doc.json()).expect("valid");
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    assert_eq!(import.scene_nodes, [0, 1, 2]);
    assert_eq!(import.model.skins()[0].joints().len(), 2);
    let glb = import_slice(&doc.glb(), None, Path::new("ok.glb"), &Limits::default()).expect("valid GLB");
    assert_eq!(glb.model.meshes()[0].primitives[0].indices, [0, 1, 2]);
}

/// An application-specific attribute (`_NAME`) is valid glTF; a misspelled or unprefixed one
/// is not (Khronos: MESH_PRIMITIVE_INVALID_ATTRIBUTE), and is read past as three.js reads it:
/// kept out of the draw, the primitive drawn from the attributes it names right, the error
/// reported by its name, with what to do.
#[test]
fn misspelled_attributes_are_read_past_and_named() {
    let mut json = Doc::new().json();
    let attributes = &mut json["meshes"][0]["primitives"][0]["attributes"];
    attributes["_BATCHID"] = attributes["POSITION"].clone();
    let valid = import_json(&json).expect("`_NAME` attributes are application-specific");
    json["meshes"][0]["primitives"][0]["attributes"]["TEXCORD_0"] = json!(0);
    let misspelled = import_json(&json).expect("read past");
    assert!(misspelled.dropped.is_empty());
    assert_eq!(misspelled.model.meshes()[0].primitives, valid.model.meshes()[0].primitives);
    let admitted =
        props_gltf::gate::admit_slice(json.to_string().as_bytes(), None, Path::new("broken.gltf"), &Limits::default())
            .expect("admitted");
    let invalid: Vec<_> =
        admitted.report.issues.iter().filter(|i| i.code == "MESH_PRIMITIVE_INVALID_ATTRIBUTE").collect();
    assert_eq!(invalid.len(), 1, "{}", admitted.report);
    assert_eq!(invalid[0].json_pointer, "/meshes/0/primitives/0/attributes/TEXCORD_0");
    assert_eq!(invalid[0].consequence, props_gltf::validate::Consequence::Loads);
    assert!(invalid[0].message.contains("`TEXCORD_0`"), "{}", invalid[0].message);
    // Nothing else is said of it (the gltf crate's nameless finding is not reported).
    assert!(admitted.report.issues.iter().all(|i| !i.json_pointer.contains("invalid semantic")), "{}", admitted.report);
}

#[test]
fn buffer_shorter_than_its_byte_length() {
    let mut json = Doc::new().json();
    let length = json["buffers"][0]["byteLength"].as_u64().expect("length");
    json["buffers"][0]["byteLength"] = json!(length + 4);
    assert!(matches!(error_at(&json, "buffers[0]"), ErrorKind::BufferTooShort { .. }));
}

#[test]
fn buffer_view_past_its_buffer() {
    let mut json = Doc::new().json();
    json["bufferViews"][0]["byteLength"] = json!(100_000);
    assert!(matches!(error_at(&json, "bufferViews[0]"), ErrorKind::ViewOutOfBounds { start: 0, end: 100_000, .. }));
}

#[test]
fn accessor_past_its_buffer_view() {
    let mut json = Doc::new().json();
    json["accessors"][0]["count"] = json!(4);
    assert!(matches!(
        error_at(&json, "accessors[0]"),
        ErrorKind::AccessorOutOfBounds { start: 0, end: 48, view_len: 36 }
    ));
}

#[test]
fn stride_smaller_than_an_element() {
    let mut json = Doc::new().json();
    json["bufferViews"][0]["byteStride"] = json!(8);
    assert!(matches!(error_at(&json, "accessors[0]"), ErrorKind::StrideTooSmall { stride: 8, element: 12 }));
}

#[test]
fn sparse_indices_not_increasing() {
    let mut doc = Doc::new();
    let indices = doc.view(&[2, 1]);
    let values = doc.view(&[0; 24]);
    doc.json["accessors"][0]["sparse"] = json!({"count": 2, "indices": {"bufferView": indices, "componentType": 5121}, "values": {"bufferView": values}});
    let kind = error_at(&doc.json(), "accessors[0].sparse.indices");
    assert!(matches!(kind, ErrorKind::SparseIndexNotIncreasing { entry: 1, index: 1, previous: 2 }), "{kind:?}");
}

#[test]
fn sparse_index_past_the_count() {
    let mut doc = Doc::new();
    let indices = doc.view(&[3, 0]);
    let values = doc.view(&[0; 12]);
    doc.json["accessors"][0]["sparse"] = json!({"count": 1, "indices": {"bufferView": indices, "componentType": 5123}, "values": {"bufferView": values}});
    let kind = error_at(&doc.json(), "accessors[0].sparse.indices");
    assert!(matches!(kind, ErrorKind::SparseIndexOutOfRange { entry: 0, index: 3, count: 3 }), "{kind:?}");
}

#[test]
fn key_times_not_increasing() {
    let mut doc = Doc::new();
    let times = doc.floats(&[1.0, 0.5], "SCALAR");
    doc.json["animations"][0]["samplers"][0]["input"] = json!(times);
    let kind = error_at(&doc.json(), "animations[0].samplers[0].input");
    assert!(matches!(kind, ErrorKind::Clip(ClipError::NonIncreasingTime { index: 1, .. })), "{kind:?}");
}

#[test]
fn cubic_spline_output_count() {
    let mut json = Doc::new().json();
    json["animations"][0]["samplers"][0]["interpolation"] = json!("CUBICSPLINE");
    let kind = error_at(&json, "animations[0].samplers[0].output");
    assert!(matches!(kind, ErrorKind::Clip(ClipError::ValueCount { keys: 2, found: 2, expected: 6, .. })), "{kind:?}");
}

#[test]
fn unknown_interpolation() {
    let mut json = Doc::new().json();
    json["animations"][0]["samplers"][0]["interpolation"] = json!("BOUNCY");
    assert!(matches!(error_at(&json, "animations[0].samplers[0].interpolation"), ErrorKind::InvalidValue));
}

#[test]
fn rotation_output_of_the_wrong_type() {
    let mut doc = Doc::new();
    let wrong = doc.floats(&[0.0; 6], "VEC3");
    doc.json["animations"][0]["samplers"][0]["output"] = json!(wrong);
    match error_at(&doc.json(), "animations[0].samplers[0].output") {
        ErrorKind::WrongAccessorFormat { found, expected } => {
            assert_eq!(found, "VEC3 of FLOAT");
            assert!(expected.starts_with("VEC4 of FLOAT, normalized BYTE"), "{expected}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn inverse_bind_matrix_count() {
    let mut doc = Doc::new();
    let identity = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    let one = doc.floats(&identity, "MAT4");
    doc.json["skins"][0]["inverseBindMatrices"] = json!(one);
    let kind = error_at(&doc.json(), "skins[0].inverseBindMatrices");
    assert!(matches!(kind, ErrorKind::Skin(SkinError::InverseBindCount { found: 1, joints: 2 })), "{kind:?}");
}

#[test]
fn projective_inverse_bind_matrix() {
    let mut doc = Doc::new();
    let mut matrices = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0].repeat(2);
    matrices[16 + 3] = 0.5;
    let accessor = doc.floats(&matrices, "MAT4");
    doc.json["skins"][0]["inverseBindMatrices"] = json!(accessor);
    let kind = error_at(&doc.json(), "skins[0].inverseBindMatrices");
    assert!(matches!(kind, ErrorKind::InverseBindNotAffine { joint: 1, row: [0.5, 0.0, 0.0, 1.0] }), "{kind:?}");
}

/// The fuzzer's finding: finite data whose skinning overflows 32-bit floats (an inverse bind
/// matrix with a 1e30 entry and a vertex at 4.9e35; both square past `f32`, and the bound
/// lost the overflow as NaN) is refused, not posed to infinity.
#[test]
fn skinning_that_overflows_is_refused() {
    let mut doc = Doc::new();
    let mut matrices = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0].repeat(2);
    matrices[16 + 6] = 1e30;
    let accessor = doc.floats(&matrices, "MAT4");
    doc.json["skins"][0]["inverseBindMatrices"] = json!(accessor);
    let positions = doc.floats(&[0.0, 0.0, 0.0, 1.0, -4.9e35, 0.0, 0.0, 1.0, 0.0], "VEC3");
    doc.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(positions);
    let kind = error_at(&doc.json(), "meshes[0]");
    assert!(matches!(kind, ErrorKind::PoseOverflow { reach, .. } if reach > 1e60), "{kind:?}");
}

#[test]
fn joint_index_beyond_the_skin() {
    let mut doc = Doc::new();
    let joints = doc.accessor(&[0, 1, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0], 5121, "VEC4", 3);
    doc.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = json!(joints);
    let kind = error_at(&doc.json(), "meshes[0].primitives[0].attributes[\"JOINTS_0\"]");
    assert!(matches!(kind, ErrorKind::JointOutOfRange { vertex: 2, joint: 2, skin: 0, joints: 2 }), "{kind:?}");
}

#[test]
fn joints_without_weights() {
    let mut json = Doc::new().json();
    json["meshes"][0]["primitives"][0]["attributes"].as_object_mut().expect("attributes").remove("WEIGHTS_0");
    let kind = error_at(&json, "meshes[0].primitives[0].attributes[\"JOINTS_0\"]");
    assert!(matches!(kind, ErrorKind::UnpairedInfluences { .. }), "{kind:?}");
}

#[test]
fn more_influences_than_the_limit() {
    let mut json = Doc::new().json();
    let attributes = &mut json["meshes"][0]["primitives"][0]["attributes"];
    for set in 1..=16 {
        attributes[format!("JOINTS_{set}")] = attributes["JOINTS_0"].clone();
        attributes[format!("WEIGHTS_{set}")] = attributes["WEIGHTS_0"].clone();
    }
    let kind = error_at(&json, "meshes[0].primitives[0].attributes[\"JOINTS_16\"]");
    assert!(matches!(kind, ErrorKind::TooManyInfluences { set: 16, limit: 64 }), "{kind:?}");
    assert!(kind.to_string().contains("more than 64 influences"), "{kind}");
    // The import error ends with its code's fix.
    let fix = props_gltf::rules::fix("PROPS_TOO_MANY_INFLUENCES").expect("a fix");
    assert!(fix.contains("Bone Influences"), "says what to do: {fix}");
    let bytes = json.to_string().into_bytes();
    let refused = import_slice(&bytes, None, Path::new("broken.gltf"), &Limits::default()).expect_err("its only mesh");
    let shown = refused.to_string();
    assert!(
        shown.ends_with(&format!("influences per vertex (JOINTS_0.. WEIGHTS_0.., four per set); {fix}")),
        "{shown}"
    );
}

#[test]
fn nan_in_positions() {
    let mut doc = Doc::new();
    doc.bin[16..20].copy_from_slice(&f32::NAN.to_le_bytes());
    let kind = error_at(&doc.json(), "meshes[0].primitives[0].attributes[\"POSITION\"]");
    assert!(matches!(kind, ErrorKind::NonFinite { element: 1 }), "{kind:?}");
}

#[test]
fn vertex_index_out_of_range() {
    let mut doc = Doc::new();
    doc.bin[40..42].copy_from_slice(&3u16.to_le_bytes());
    let kind = error_at(&doc.json(), "meshes[0].primitives[0].indices");
    assert!(matches!(kind, ErrorKind::VertexIndexOutOfRange { position: 2, vertex: 3, vertices: 3 }), "{kind:?}");
}

#[test]
fn node_cycle() {
    let mut json = Doc::new().json();
    json["nodes"][2]["children"] = json!([1]);
    json["scenes"][0]["nodes"] = json!([0]);
    let kind = error_at(&json, "nodes[1].children");
    assert!(matches!(kind, ErrorKind::Rig(RigError::Cycle { node: 1 })), "{kind:?}");
}

#[test]
fn node_with_two_parents() {
    let mut json = Doc::new().json();
    json["nodes"][0]["children"] = json!([2]);
    let kind = error_at(&json, "nodes[1].children");
    assert!(matches!(kind, ErrorKind::Rig(RigError::MultipleParents { child: 2, first: 0, second: 1 })), "{kind:?}");
}

#[test]
fn child_that_does_not_exist() {
    let mut json = Doc::new().json();
    json["nodes"][2]["children"] = json!([9]);
    assert!(matches!(error_at(&json, "nodes[2].children[0]"), ErrorKind::InvalidIndex));
}

/// A node given by a matrix that a clip rotates (invalid glTF, which three.js plays): its
/// matrix is taken apart into translation, rotation and scale, as three.js takes it, and the
/// clip moves it from there; one with a scale of zero cannot be, and its clip is dropped.
#[test]
fn an_animated_matrix_node_is_taken_apart_as_three_js_takes_it() {
    use glam::{Quat, Vec3};
    let mut json = Doc::new().json();
    // Scaled by 2, turned a quarter about Z, moved 3 along X (column-major).
    json["nodes"][2] = json!({"matrix": [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 3, 0, 0, 1]});
    let import = import_json(&json).expect("loads");
    assert!(import.dropped.is_empty(), "{:?}", import.dropped);
    assert_eq!(import.model.clips().len(), 1, "the clip plays");
    let rig = import.model.rig();
    let node = rig.from_source_index(2).expect("node 2");
    let props_anim::RestTransform::Trs(rest) = rig.rest(node) else { panic!("{:?}", rig.rest(node)) };
    assert!(rest.translation.abs_diff_eq(Vec3::X * 3.0, 1e-6), "{rest:?}");
    assert!(rest.scale.abs_diff_eq(Vec3::splat(2.0), 1e-6), "{rest:?}");
    assert!(rest.rotation.abs_diff_eq(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), 1e-6), "{rest:?}");
    json["nodes"][2] = json!({"matrix": [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]});
    assert!(matches!(
        error_at(&json, "animations[0].channels[0].target.node"),
        ErrorKind::AnimatedMatrixNode { node: 2 }
    ));
}

/// A pointer channel the game does not animate (a camera's) is ignored with a warning at its
/// pointer, and the channels after it keep their indices in messages.
#[test]
fn ignored_pointer_channels_keep_paths_true() {
    let mut json = Doc::new().json();
    let pointer = json!({"sampler": 0, "target": {"path": "pointer",
        "extensions": {"KHR_animation_pointer": {"pointer": "/cameras/0/perspective/yfov"}}}});
    let channel = json["animations"][0]["channels"][0].clone();
    json["animations"][0]["channels"] = json!([pointer, channel.clone()]);
    let import = import_json(&json).expect("the camera's channel is ignored");
    assert_eq!(import.warnings.len(), 1);
    assert_eq!(
        import.warnings[0].json_path,
        "animations[0].channels[0].target.extensions.KHR_animation_pointer.pointer"
    );
    assert!(import.warnings[0].message.contains("/cameras/0/perspective/yfov"), "{}", import.warnings[0]);
    assert_eq!(import.model.clips()[0].channels().len(), 1);
    push(&mut json["animations"][0]["channels"], channel);
    let import = import_json(&json).expect("duplicates are mixed");
    let warning = import.warnings.iter().find(|w| w.json_path == "animations[0].channels[2]").expect("warned");
    assert!(warning.message.starts_with("channel 1 animates"), "{warning}");
}

#[test]
fn morph_weight_width_must_match_the_targets() {
    let mut doc = Doc::new();
    let weights = doc.floats(&[0.0, 1.0], "SCALAR");
    let channel = json!({"sampler": 1, "target": {"node": 0, "path": "weights"}});
    push(&mut doc.json["animations"][0]["channels"], channel);
    push(&mut doc.json["animations"][0]["samplers"], json!({"input": 4, "output": weights}));
    let kind = error_at(&doc.json(), "animations[0].channels[1]");
    assert!(matches!(kind, ErrorKind::Clip(ClipError::MorphWidth { found: 1, expected: 0, .. })), "{kind:?}");
}

#[test]
fn unsupported_required_extension() {
    let mut json = Doc::new().json();
    json["extensionsUsed"] = json!(["KHR_gaussian_splatting"]);
    json["extensionsRequired"] = json!(["KHR_gaussian_splatting"]);
    match error_at(&json, "extensionsRequired[0]") {
        ErrorKind::UnsupportedExtension { name, .. } => assert_eq!(name, "KHR_gaussian_splatting"),
        other => panic!("{other:?}"),
    }
    json["extensionsRequired"] = json!(["KHR_mesh_quantization", "EXT_meshopt_compression", "EXT_made_up"]);
    let kind = error_at(&json, "extensionsRequired[2]");
    assert!(kind.to_string().contains("EXT_made_up") && kind.to_string().contains("re-export the model without it"));
    // A material's look the game does not draw is drawn without, as three.js draws it, warned.
    json["extensionsUsed"] = json!(["KHR_materials_dispersion", "EXT_materials_bump"]);
    json["extensionsRequired"] = json!(["KHR_materials_dispersion", "EXT_materials_bump"]);
    let import = import_json(&json).expect("loads without the looks");
    let warned: Vec<&str> = import.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(warned, ["extensionsUsed[0]", "extensionsUsed[1]"], "{:#?}", import.warnings);
}

#[test]
fn hostile_uris() {
    let base = models_dir();
    for uri in
        ["../x.bin", "/etc/passwd", "file:///etc/passwd", "http://example.com/x.bin", "%2e%2e/x.bin", "sub\\..\\..\\x"]
    {
        let mut json = Doc::new().json();
        json["buffers"][0]["uri"] = json!(uri);
        match error_in(&json, Some(&base), "buffers[0].uri") {
            ErrorKind::UriRefused { uri: refused, .. } => assert_eq!(refused, uri),
            other => panic!("{uri}: {other:?}"),
        }
    }
}

#[test]
fn missing_bin_file() {
    let mut json = Doc::new().json();
    json["buffers"][0]["uri"] = json!("missing.bin");
    let kind = error_in(&json, Some(&models_dir()), "buffers[0].uri");
    assert!(matches!(&kind, ErrorKind::MissingFile { uri } if uri == "missing.bin"), "{kind:?}");
}

#[test]
fn external_files_need_a_folder() {
    let mut json = Doc::new().json();
    json["buffers"][0]["uri"] = json!("x.bin");
    assert!(matches!(error_at(&json, "buffers[0].uri"), ErrorKind::UriRefused { .. }));
}

#[test]
fn truncated_glb() {
    let glb = Doc::new().glb();
    let error = import_slice(&glb[..glb.len() - 10], None, Path::new("cut.glb"), &Limits::default())
        .expect_err("truncated GLB");
    assert_eq!(error.json_path, "<file>");
    assert!(matches!(&error.kind, ErrorKind::InvalidGlb { reason } if reason.contains("truncated")), "{error}");
    assert!(error.to_string().starts_with("cut.glb: <file>: not a valid GLB file"));
}

#[test]
fn json_syntax_error() {
    let error = import_slice(b"{\"asset\": ", None, Path::new("x.gltf"), &Limits::default()).expect_err("bad JSON");
    assert_eq!(error.json_path, "<file>");
    assert!(matches!(&error.kind, ErrorKind::Json { message } if message.contains("line 1")), "{error}");
}

#[test]
fn morph_weights_that_do_not_match_the_targets() {
    let mut doc = Doc::new();
    let displacement = doc.floats(&[0.0; 9], "VEC3");
    doc.json["meshes"][0]["primitives"][0]["targets"] = json!([{"POSITION": displacement}]);
    doc.json["meshes"][0]["weights"] = json!([0.5, 0.5]);
    let kind = error_at(&doc.json(), "meshes[0].weights");
    assert!(matches!(kind, ErrorKind::MorphWeightCount { found: 2, expected: 1 }), "{kind:?}");
    doc.json["nodes"][0]["weights"] = json!([0.25]);
    let import = import_json(&doc.json()).expect("node weights override the mesh's");
    assert_eq!(import.model.rig().morph_defaults(), [0.25]);
}

#[test]
fn limits_are_enforced() {
    let json = Doc::new().json();
    let limits = Limits { max_vertices: 2, ..Limits::default() };
    let error = import_slice(json.to_string().as_bytes(), None, Path::new("big.gltf"), &limits).expect_err("limit");
    assert_eq!(error.json_path, "meshes[0].primitives[0].attributes[\"POSITION\"]");
    assert!(matches!(error.kind, ErrorKind::LimitExceeded { value: 3, limit: 2, .. }), "{error}");
}

/// Points and lines load as lists, warned of nothing but a line left half: the game draws them
/// a pixel wide, as three.js does (`tests/gpu`'s `lines_and_points` reference).
#[test]
fn points_and_lines_load_as_lists() {
    for (mode, topology, indices) in [
        (0, Topology::Points, vec![0, 1, 2]),
        (1, Topology::Lines, vec![0, 1]),
        (2, Topology::Lines, vec![0, 1, 1, 2, 2, 0]),
        (3, Topology::Lines, vec![0, 1, 1, 2]),
    ] {
        let mut json = Doc::new().json();
        json["meshes"][0]["primitives"][0]["mode"] = json!(mode);
        let import = import_json(&json).expect("loads");
        let warned: Vec<&str> = import.warnings.iter().map(|w| w.message.as_str()).collect();
        let half = ["1 trailing indices form no complete primitive and are ignored"];
        assert_eq!(warned, if mode == 1 { &half[..] } else { &[] }, "mode {mode}");
        let primitive = &import.model.meshes()[0].primitives[0];
        assert_eq!((primitive.topology, &primitive.indices), (topology, &indices), "mode {mode}");
    }
}
