//! JSON of another type than glTF's schema asks for (`"emissiveStrength": "5"`, `"name": 7`, a
//! `baseColorFactor` holding a string): the typed parse stops at the first one. Each is put
//! right or set aside at the finest grain, and the parse runs again:
//!
//! - integers written as floats (`"count": 24.0`) are read as integers ([`float_integers`]);
//! - an extension's object is ignored, with a warning (as those read from the JSON are);
//! - a `name` is ignored, with a warning (every one that is no string, at once);
//! - inside a clip, a primitive, a material, a texture or an image, the property that holds
//!   it is removed (the element emptied, where that does not parse either) and the mismatch
//!   kept as a finding: the import leaves that part out, as for a broken reference, and the
//!   checker reports it there (Khronos's `TYPE_MISMATCH`);
//! - inside a sampler, that property is removed, with a warning: its default (repeat, linear)
//!   is used, as three.js uses it for a value it does not know; a camera (the game uses none
//!   of the file's) is replaced by a plain one, with a warning;
//! - anywhere else (a node, an accessor, a skin), the file is refused at the mismatch's path.
//!
//! Each mend costs a parse of the whole file: at most [`MOST_MENDED`] are mended, fewer in a
//! large file (together at most [`MENDING_WORK`] JSON values parsed again, a fraction of a
//! second); a file with more is refused at the next.

use gltf::json::Root;
use serde_json::{Value, json};
use serde_path_to_error::{Error, Segment};

use crate::error::{ErrorKind, ImportError, Warnings, warn};
use crate::{float_integers, pointer};

/// The most mismatches mended in one file.
const MOST_MENDED: usize = 64;

/// The most JSON values parsed again to mend one file.
const MENDING_WORK: usize = 8 << 20;

/// The typed objects of `value`, each mismatch mended as the module says, and the mismatches
/// inside parts (for the import to leave out); the error of the first one that cannot
/// be mended.
pub(crate) fn deserialize(
    mut value: Value,
    warnings: &mut Warnings,
) -> Result<(Root, Vec<ImportError>), Error<serde_json::Error>> {
    let mut findings = Vec::new();
    let mut integers_read = false;
    // How many may be mended: counted at the first mismatch (most files have none).
    let (mut most, mut mended) = (None, 0);
    loop {
        let error = match serde_path_to_error::deserialize::<_, Root>(&value) {
            Ok(root) => return Ok((root, findings)),
            Err(error) => error,
        };
        if mended >= *most.get_or_insert_with(|| MOST_MENDED.min(MENDING_WORK / count_values(&value)).max(1)) {
            return Err(error);
        }
        mended += 1;
        let segments: Vec<&Segment> = error.path().iter().collect();
        let at = pointer::from_segments(error.path());
        if !integers_read && value.pointer(&at).is_some_and(float_integers::is_float_integer) {
            let message = format!(
                "integers written with a decimal point (`{}` here), here and on in the file, are read as the \
                 integers they are, as three.js reads them; export with integers to silence this",
                value.pointer(&at).unwrap_or(&Value::Null)
            );
            float_integers::read_as_integers(&mut value);
            warn(warnings, json_path_of(&segments), message);
            integers_read = true;
        } else if let Some(k) = segments.iter().rposition(|s| matches!(s, Segment::Map { key } if key == "extensions"))
            && let Some(Segment::Map { key: name }) = segments.get(k + 1)
            && let Some(holder) = value.pointer_mut(&pointer_of(&segments[..=k])).and_then(Value::as_object_mut)
        {
            holder.remove(name);
            let message = format!("extension {name} is ignored: {}", error.inner());
            warn(warnings, json_path_of(&segments[..k + 2]), message);
        } else if matches!(segments[..], [.., Segment::Map { key }] if key == "name") {
            let count = remove_names(&mut value);
            let message = format!("{count} names that are no text are ignored (this one: {})", error.inner());
            warn(warnings, json_path_of(&segments), message);
        } else if let Some(Holder { depth, empty, whole, dropped }) = holder_of(&segments) {
            // The deepest property inside the element that holds the mismatch, else the element.
            let property = (depth..segments.len()).rev().find(|&k| matches!(segments[k], Segment::Map { .. }));
            let removed = !whole
                && property.is_some_and(|k| {
                    let Segment::Map { key } = segments[k] else { return false };
                    let holder = value.pointer_mut(&pointer_of(&segments[..k])).and_then(Value::as_object_mut);
                    holder.is_some_and(|holder| holder.remove(key).is_some())
                });
            if !removed {
                let Some(element) = value.pointer_mut(&pointer_of(&segments[..depth])) else { return Err(error) };
                *element = empty;
            }
            if dropped {
                let kind = ErrorKind::Json { message: error.inner().to_string() };
                findings.push(ImportError::at(json_path_of(&segments), kind));
            } else {
                let read_past =
                    if whole { "a plain camera in its place (the game uses none)" } else { "its default used" };
                warn(warnings, json_path_of(&segments), format!("ignored: {}; {read_past}", error.inner()));
            }
        } else {
            return Err(error);
        }
    }
}

/// How many JSON values `value` holds, itself included.
fn count_values(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count_values).sum(),
        Value::Object(members) => members.values().map(count_values).sum(),
        _ => 0,
    }
}

/// Removes every `name` of `value` that is not a string (but in `extras`, the host's own
/// data); returns how many.
fn remove_names(value: &mut Value) -> usize {
    match value {
        Value::Array(items) => items.iter_mut().map(remove_names).sum(),
        Value::Object(members) => {
            let named = members.get("name").is_some_and(|name| !name.is_string());
            if named {
                members.remove("name");
            }
            let inner: usize =
                members.iter_mut().filter(|(key, _)| *key != "extras").map(|(_, member)| remove_names(member)).sum();
            usize::from(named) + inner
        }
        _ => 0,
    }
}

/// The element a mismatch lies in, where it can be mended there.
struct Holder {
    /// How many segments of the mismatch's path lead to it.
    depth: usize,
    /// What is put in its place, where removing the property does not do.
    empty: Value,
    /// Whether it is replaced whole rather than losing the property.
    whole: bool,
    /// Whether it is a part the import leaves out (a clip, a primitive, a material, a texture
    /// or an image); else it is read past, with a warning.
    dropped: bool,
}

/// The element a mismatch at `segments` lies in: a droppable part, a sampler or a camera.
fn holder_of(segments: &[&Segment]) -> Option<Holder> {
    let key = |i: usize| match segments.get(i) {
        Some(Segment::Map { key }) => Some(key.as_str()),
        _ => None,
    };
    let is_index = |i: usize| matches!(segments.get(i), Some(Segment::Seq { .. }));
    let element = |depth: usize, empty: Value| Holder { depth, empty, whole: false, dropped: true };
    match key(0)? {
        "animations" if is_index(1) => Some(element(2, json!({"channels": [], "samplers": []}))),
        "materials" | "textures" | "images" if is_index(1) => Some(element(2, json!({}))),
        "meshes" if is_index(1) && key(2) == Some("primitives") && is_index(3) => {
            Some(element(4, json!({"attributes": {}})))
        }
        "samplers" if is_index(1) => Some(Holder { dropped: false, ..element(2, json!({})) }),
        "cameras" if is_index(1) => {
            let plain = json!({"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}});
            Some(Holder { depth: 2, empty: plain, whole: true, dropped: false })
        }
        _ => None,
    }
}

/// The JSON pointer of the first segments of a parse path.
fn pointer_of(segments: &[&Segment]) -> String {
    pointer::from_segments(segments.iter().copied())
}

/// The importer's JSON path (`materials[0].extensions.NAME`) of the first segments.
fn json_path_of(segments: &[&Segment]) -> String {
    let mut path = String::new();
    for segment in segments {
        match segment {
            Segment::Seq { index } => path.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Segment::Unknown => {}
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn file(materials: Value, nodes: Value) -> Value {
        json!({"asset": {"version": "2.0"}, "materials": materials, "nodes": nodes,
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": "x"}]}]})
    }

    #[test]
    fn extensions_and_names_of_the_wrong_type_are_ignored() {
        let materials = json!([{"name": 7, "emissiveFactor": [1, 1, 1],
            "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": "5"}}}, {"name": ["b"]}]);
        let mut warnings = Vec::new();
        let (root, findings) = deserialize(file(materials, json!([{"name": 3}])), &mut warnings).expect("mended");
        assert_eq!(root.materials.len(), 2);
        assert!(root.materials[0].extensions.as_ref().is_none_or(|e| e.emissive_strength.is_none()));
        assert_eq!(root.materials[0].emissive_factor.0, [1.0; 3], "the rest of the material is read");
        assert!(root.materials.iter().all(|m| m.name.is_none()) && root.nodes[0].name.is_none());
        let told: Vec<&str> = warnings.iter().map(|w| w.json_path.as_str()).collect();
        assert_eq!(told, ["materials[0].extensions.KHR_materials_emissive_strength", "materials[0].name"]);
        assert!(warnings[1].message.starts_with("3 names"), "{}", warnings[1].message);
        // The primitive's `mode`: removed, the primitive kept for the import to leave out.
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].json_path, "meshes[0].primitives[0].mode");
        assert_eq!(root.meshes[0].primitives[0].attributes.len(), 1);
    }

    #[test]
    fn a_part_holding_the_wrong_type_is_kept_for_the_import_to_leave_out() {
        let materials = json!([{"pbrMetallicRoughness": {"baseColorFactor": [1, 1, "x", 1]}}, 5]);
        let (root, findings) = deserialize(file(materials, json!([])), &mut Vec::new()).expect("mended");
        let at: Vec<&str> = findings.iter().map(|f| f.json_path.as_str()).collect();
        assert_eq!(
            at,
            ["materials[0].pbrMetallicRoughness.baseColorFactor[2]", "materials[1]", "meshes[0].primitives[0].mode"]
        );
        assert!(findings.iter().all(|f| matches!(f.kind, ErrorKind::Json { .. })));
        assert_eq!(root.materials.len(), 2, "the materials keep their indices");
    }

    /// A sampler's property of the wrong type falls back to its default; a camera (unused) is
    /// replaced by a plain one; both with a warning, nothing left out.
    #[test]
    fn samplers_and_cameras_of_the_wrong_type_are_read_past() {
        let mut value = file(json!([]), json!([{"camera": 0}]));
        value["samplers"] = json!([{"wrapS": "x", "magFilter": 9729}]);
        value["cameras"] = json!([{"type": "perspective", "perspective": {"yfov": "wide", "znear": 0.1}}]);
        let mut warnings = Vec::new();
        let (root, findings) = deserialize(value, &mut warnings).expect("mended");
        assert_eq!(root.samplers.len(), 1);
        assert_eq!(
            root.samplers[0].wrap_s,
            gltf::json::validation::Checked::Valid(gltf::json::texture::WrappingMode::Repeat)
        );
        assert!(root.samplers[0].mag_filter.is_some(), "the rest of the sampler is read");
        assert_eq!(root.cameras.len(), 1, "the node's camera still names one");
        let told: Vec<&str> = warnings.iter().map(|w| w.json_path.as_str()).collect();
        assert_eq!(told, ["cameras[0].perspective.yfov", "samplers[0].wrapS"]);
        assert_eq!(findings.len(), 1, "only the primitive's mode: {findings:?}");
    }

    #[test]
    fn the_wrong_type_outside_a_part_refuses_at_its_path() {
        let error = deserialize(file(json!([]), json!([{"mesh": "x"}])), &mut Vec::new()).expect_err("a node");
        assert_eq!(error.path().to_string(), "nodes[0].mesh");
        let too_many: Vec<Value> = (0..=MOST_MENDED).map(|_| json!({"alphaMode": 3})).collect();
        let error = deserialize(file(Value::from(too_many), json!([])), &mut Vec::new()).expect_err("too many");
        assert!(error.path().to_string().starts_with("materials["), "{error}");
    }
}
