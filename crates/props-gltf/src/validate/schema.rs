//! The JSON schema's rules that the gltf crate's types do not keep, checked on the raw JSON
//! before it is parsed into them, with Khronos's codes: indices not negative
//! (INVALID_INDEX), fixed-length number arrays (ARRAY_LENGTH_NOT_IN_LIST,
//! ARRAY_TYPE_MISMATCH), value ranges (VALUE_NOT_IN_RANGE), arrays that must not be empty
//! (EMPTY_ENTITY), exactly one of two properties (ONE_OF_MISMATCH), a property that needs
//! another (UNSATISFIED_DEPENDENCY), version strings (PATTERN_MISMATCH) and attribute names
//! (MESH_PRIMITIVE_INVALID_ATTRIBUTE).
//!
//! Every rule is a row of a table: the objects it applies to, by path (`*`: every item of an
//! array, or every value of an object), and the property it checks.

use gltf::json::mesh::Semantic;
use gltf::json::validation::Checked;
use serde_json::Value;

use super::issues::Issues;
use super::report::{Consequence, Issue};
use crate::pointer::escape;

/// Objects by path from the root (`*`: every item or value), and a property of each.
type At = (&'static [&'static str], &'static str);

/// Calls `f` with the pointer and value of `property` in every object at `path` below
/// `value` (whose pointer is `at`); a `*` property visits every item or value.
fn each(value: &Value, at: &str, (path, property): At, f: &mut dyn FnMut(&str, &Value)) {
    let children = |value: &Value, f: &mut dyn FnMut(&str, &Value)| match value {
        Value::Array(items) => items.iter().enumerate().for_each(|(i, item)| f(&format!("{at}/{i}"), item)),
        Value::Object(object) => object.iter().for_each(|(key, item)| f(&format!("{at}/{}", escape(key)), item)),
        _ => {}
    };
    match path {
        [] if property == "*" => children(value, f),
        [] => {
            if let Some(inner) = value.get(property) {
                f(&format!("{at}/{}", escape(property)), inner);
            }
        }
        ["*", rest @ ..] => children(value, &mut |pointer, item| each(item, pointer, (rest, property), f)),
        [key, rest @ ..] => {
            if let Some(inner) = value.get(key) {
                each(inner, &format!("{at}/{key}"), (rest, property), f);
            }
        }
    }
}

/// Properties holding an index, a list of indices or a map of them.
const INDICES: &[At] = &[
    (&[], "scene"),
    (&["scenes", "*"], "nodes"),
    (&["nodes", "*"], "children"),
    (&["nodes", "*"], "mesh"),
    (&["nodes", "*"], "skin"),
    (&["nodes", "*"], "camera"),
    (&["skins", "*"], "joints"),
    (&["skins", "*"], "skeleton"),
    (&["skins", "*"], "inverseBindMatrices"),
    (&["accessors", "*"], "bufferView"),
    (&["accessors", "*", "sparse", "indices"], "bufferView"),
    (&["accessors", "*", "sparse", "values"], "bufferView"),
    (&["bufferViews", "*"], "buffer"),
    (&["meshes", "*", "primitives", "*"], "indices"),
    (&["meshes", "*", "primitives", "*"], "material"),
    (&["meshes", "*", "primitives", "*", "attributes"], "*"),
    (&["meshes", "*", "primitives", "*", "targets", "*"], "*"),
    (&["animations", "*", "channels", "*"], "sampler"),
    (&["animations", "*", "channels", "*", "target"], "node"),
    (&["animations", "*", "samplers", "*"], "input"),
    (&["animations", "*", "samplers", "*"], "output"),
    (&["textures", "*"], "source"),
    (&["textures", "*"], "sampler"),
    (&["images", "*"], "bufferView"),
    (&["materials", "*", "pbrMetallicRoughness", "baseColorTexture"], "index"),
    (&["materials", "*", "pbrMetallicRoughness", "metallicRoughnessTexture"], "index"),
    (&["materials", "*", "normalTexture"], "index"),
    (&["materials", "*", "occlusionTexture"], "index"),
    (&["materials", "*", "emissiveTexture"], "index"),
];

/// Arrays of numbers, with the lengths allowed (none: any).
const NUMBER_ARRAYS: &[(At, &[usize])] = &[
    ((&["nodes", "*"], "translation"), &[3]),
    ((&["nodes", "*"], "rotation"), &[4]),
    ((&["nodes", "*"], "scale"), &[3]),
    ((&["nodes", "*"], "matrix"), &[16]),
    ((&["nodes", "*"], "weights"), &[]),
    ((&["meshes", "*"], "weights"), &[]),
    ((&["materials", "*", "pbrMetallicRoughness"], "baseColorFactor"), &[4]),
    ((&["materials", "*"], "emissiveFactor"), &[3]),
    ((&["accessors", "*"], "min"), &[]),
    ((&["accessors", "*"], "max"), &[]),
];

/// A range of numbers: the lowest (allowed or, when exclusive, not) and the highest.
#[derive(Clone, Copy)]
struct Range {
    min: f64,
    exclusive: bool,
    max: f64,
}

const AT_LEAST_0: Range = Range { min: 0.0, exclusive: false, max: f64::INFINITY };
const AT_LEAST_1: Range = Range { min: 1.0, exclusive: false, max: f64::INFINITY };
const POSITIVE: Range = Range { min: 0.0, exclusive: true, max: f64::INFINITY };
const UNIT: Range = Range { min: 0.0, exclusive: false, max: 1.0 };

/// A material's factors, which must lie in a range but are read as given past it, as three.js
/// reads them (an emissive factor over 1 glows brighter; the shading clamps what must be
/// clamped): one value out of range does not cost the material.
const MATERIAL_RANGES: &[(At, Range)] = &[
    ((&["materials", "*", "pbrMetallicRoughness"], "baseColorFactor"), UNIT),
    ((&["materials", "*", "pbrMetallicRoughness"], "metallicFactor"), UNIT),
    ((&["materials", "*", "pbrMetallicRoughness"], "roughnessFactor"), UNIT),
    ((&["materials", "*"], "emissiveFactor"), UNIT),
    ((&["materials", "*"], "alphaCutoff"), AT_LEAST_0),
    ((&["materials", "*", "occlusionTexture"], "strength"), UNIT),
];

/// Numbers (or every number of an array) that must lie in a range.
const RANGES: &[(At, Range)] = &[
    ((&["buffers", "*"], "byteLength"), AT_LEAST_1),
    ((&["bufferViews", "*"], "byteLength"), AT_LEAST_1),
    ((&["bufferViews", "*"], "byteOffset"), AT_LEAST_0),
    ((&["accessors", "*"], "count"), AT_LEAST_1),
    ((&["accessors", "*"], "byteOffset"), AT_LEAST_0),
    ((&["accessors", "*", "sparse"], "count"), AT_LEAST_1),
    ((&["accessors", "*", "sparse", "indices"], "byteOffset"), AT_LEAST_0),
    ((&["accessors", "*", "sparse", "values"], "byteOffset"), AT_LEAST_0),
    ((&["meshes", "*", "primitives", "*"], "mode"), Range { min: 0.0, exclusive: false, max: 6.0 }),
    ((&["materials", "*", "pbrMetallicRoughness", "baseColorTexture"], "texCoord"), AT_LEAST_0),
    ((&["materials", "*", "pbrMetallicRoughness", "metallicRoughnessTexture"], "texCoord"), AT_LEAST_0),
    ((&["materials", "*", "normalTexture"], "texCoord"), AT_LEAST_0),
    ((&["materials", "*", "occlusionTexture"], "texCoord"), AT_LEAST_0),
    ((&["materials", "*", "emissiveTexture"], "texCoord"), AT_LEAST_0),
    ((&["cameras", "*", "perspective"], "yfov"), POSITIVE),
    ((&["cameras", "*", "perspective"], "aspectRatio"), POSITIVE),
    ((&["cameras", "*", "perspective"], "znear"), POSITIVE),
    ((&["cameras", "*", "perspective"], "zfar"), POSITIVE),
    ((&["cameras", "*", "orthographic"], "znear"), AT_LEAST_0),
    ((&["cameras", "*", "orthographic"], "zfar"), POSITIVE),
];

/// Arrays the schema requires to hold at least one item, reported empty as Khronos does.
/// Skins' `joints` are the skin check's.
const NON_EMPTY: &[At] = &[
    (&[], "accessors"),
    (&[], "animations"),
    (&[], "buffers"),
    (&[], "bufferViews"),
    (&[], "cameras"),
    (&[], "images"),
    (&[], "materials"),
    (&[], "meshes"),
    (&[], "nodes"),
    (&[], "samplers"),
    (&[], "scenes"),
    (&[], "skins"),
    (&[], "textures"),
    (&[], "extensionsUsed"),
    (&[], "extensionsRequired"),
    (&["animations", "*"], "channels"),
    (&["animations", "*"], "samplers"),
    (&["meshes", "*"], "primitives"),
    (&["meshes", "*"], "weights"),
    (&["meshes", "*", "primitives", "*"], "targets"),
    (&["nodes", "*"], "children"),
    (&["nodes", "*"], "weights"),
    (&["scenes", "*"], "nodes"),
];

/// Objects (every item of the array at a path) that must have exactly one of two properties
/// (`both_only`: having neither is another rule's concern, e.g. a camera's `type`).
const ONE_OF: &[(&[&str], [&str; 2], bool)] =
    &[(&["images"], ["bufferView", "uri"], false), (&["cameras"], ["orthographic", "perspective"], true)];

/// Properties of every item of the array at a path that need another property beside them.
const DEPENDENCIES: &[(At, &str)] = &[((&["images"], "bufferView"), "mimeType")];

/// Runs every rule of the tables on the JSON of a file.
pub(super) fn check(root: &Value, issues: &mut Issues) {
    for &at in INDICES {
        each(root, "", at, &mut |pointer, value| {
            let mut index = |pointer: &str, value: &Value| {
                if value.as_i64().is_some_and(|i| i < 0) {
                    issues.push(Issue::error("INVALID_INDEX", pointer, format!("index {value} is negative")));
                }
            };
            match value {
                Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| index(&format!("{pointer}/{i}"), v)),
                _ => index(pointer, value),
            }
        });
    }
    for &(at, lengths) in NUMBER_ARRAYS {
        each(root, "", at, &mut |pointer, value| number_array(root, pointer, value, lengths, issues));
    }
    for (ranges, fatal) in [(RANGES, true), (MATERIAL_RANGES, false)] {
        for &(at, range) in ranges {
            each(root, "", at, &mut |pointer, value| match value {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .for_each(|(i, v)| in_range(&format!("{pointer}/{i}"), v, (range, fatal), issues)),
                _ => in_range(pointer, value, (range, fatal), issues),
            });
        }
    }
    for &(path, property) in NON_EMPTY {
        each(root, "", (path, property), &mut |pointer, value| {
            if value.as_array().is_some_and(Vec::is_empty) {
                let message = format!("`{property}` must not be empty: it is read as absent");
                issues.push(Issue::error("EMPTY_ENTITY", pointer, message));
            }
        });
    }
    for &(path, [a, b], both_only) in ONE_OF {
        each(root, "", (path, "*"), &mut |pointer, object| {
            let count = [a, b].iter().filter(|key| object.get(key).is_some()).count();
            if count == 2 || (count == 0 && !both_only) {
                let message = format!("exactly one of `{a}` and `{b}` must be defined");
                issues.push(Issue::error("ONE_OF_MISMATCH", pointer, message));
            }
        });
    }
    for &((path, property), needed) in DEPENDENCIES {
        each(root, "", (path, "*"), &mut |pointer, object| {
            if object.get(property).is_some() && object.get(needed).is_none() {
                let message = format!("`{property}` needs `{needed}`");
                issues.push(Issue::error("UNSATISFIED_DEPENDENCY", format!("{pointer}/{property}"), message));
            }
        });
    }
    each(root, "", (&["meshes", "*", "primitives", "*"], "attributes"), &mut |pointer, attributes| {
        for name in attributes.as_object().into_iter().flat_map(|a| a.keys()).filter(|n| !is_attribute_name(n)) {
            let message =
                format!("`{name}` is no attribute glTF defines (a custom one begins with `_`); it is not read");
            issues.push(Issue::error(
                "MESH_PRIMITIVE_INVALID_ATTRIBUTE",
                format!("{pointer}/{}", escape(name)),
                message,
            ));
        }
    });
    for property in ["version", "minVersion"] {
        each(root, "", (&["asset"], property), &mut |pointer, value| {
            if value.as_str().is_some_and(|text| !is_version(text)) {
                let message = format!("{value} is not a version such as \"2.0\" (major.minor)");
                issues.push(Issue::error("PATTERN_MISMATCH", pointer, message));
            }
        });
    }
}

/// An array of numbers of one of the allowed lengths (any, when none is listed; accessor
/// bounds: as many as the accessor's type has components).
fn number_array(root: &Value, pointer: &str, value: &Value, lengths: &[usize], issues: &mut Issues) {
    let Value::Array(items) = value else { return };
    if let Some(bad) = items.iter().find(|item| !item.is_number()) {
        issues.push(Issue::error("ARRAY_TYPE_MISMATCH", pointer, format!("element {bad} is not a number")));
    }
    let accessor_bounds = pointer.starts_with("/accessors/");
    let components = accessor_bounds
        .then(|| {
            let object = pointer.rsplit_once('/').map(|(object, _)| object)?;
            components(root.pointer(object)?.get("type")?.as_str()?)
        })
        .flatten();
    let allowed: &[usize] = match components {
        Some(ref n) => std::slice::from_ref(n),
        None if accessor_bounds => &[],
        None => lengths,
    };
    if !allowed.is_empty() && !allowed.contains(&items.len()) {
        let message = format!("{} elements; it must have {allowed:?}", items.len());
        issues.push(Issue::error("ARRAY_LENGTH_NOT_IN_LIST", pointer, message));
    }
}

/// The number of components of an accessor type, as the gltf crate reads it.
fn components(kind: &str) -> Option<usize> {
    use gltf::json::accessor::Type;
    use gltf::json::validation::Checked;
    match serde_json::from_value::<Checked<Type>>(Value::String(kind.to_owned())) {
        Ok(Checked::Valid(ty)) => Some(ty.multiplicity()),
        _ => None,
    }
}

/// Reports a number outside `range` (anything else is the parser's concern): fatal to its part,
/// or read as given.
fn in_range(pointer: &str, value: &Value, (range, fatal): (Range, bool), issues: &mut Issues) {
    let Some(number) = value.as_f64() else { return };
    let low = if range.exclusive { number <= range.min } else { number < range.min };
    if low || number > range.max {
        let (open, close) = (if range.exclusive { "(" } else { "[" }, if range.max.is_finite() { "]" } else { ")" });
        let message = format!("{value} is out of range {open}{}, {}{close}", range.min, range.max);
        match fatal {
            true => issues.push(Issue::error("VALUE_NOT_IN_RANGE", pointer, message)),
            false => issues.push_placed(Issue {
                message: format!("{message}; read as given, as three.js reads it"),
                consequence: Consequence::Loads,
                ..Issue::error("VALUE_NOT_IN_RANGE", pointer, "")
            }),
        }
    }
}

/// Whether `name` is an attribute semantic glTF defines (`POSITION`, `TEXCOORD_n`, ...) or a
/// custom one (`_NAME`), as the gltf crate reads them.
fn is_attribute_name(name: &str) -> bool {
    let semantic: Result<Checked<Semantic>, _> = serde_json::from_value(Value::String(name.to_owned()));
    matches!(semantic, Ok(Checked::Valid(_)))
}

/// Whether `text` is `major.minor`, both decimal numbers.
fn is_version(text: &str) -> bool {
    let number = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    text.split_once('.').is_some_and(|(major, minor)| number(major) && number(minor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(json: &str) -> Vec<(&'static str, String)> {
        let mut issues = Issues::default();
        check(&serde_json::from_str(json).expect("JSON"), &mut issues);
        issues.into_vec().into_iter().map(|i| (i.code, i.json_pointer)).collect()
    }

    #[test]
    fn each_rule_reports_at_its_pointer() {
        let found = codes(
            r#"{"asset": {"version": "2"}, "scene": -1,
                "nodes": [{"children": [0, -2], "translation": [1, 2], "rotation": [0, 0, "a", 1]}],
                "accessors": [{"type": "VEC3", "count": 0, "min": [0], "max": [1, 1, 1]}],
                "meshes": [{"primitives": [{"attributes": {"POSITION": -3, "BATCHID": 0, "_BATCHID": 0},
                                            "mode": 7}]}],
                "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [2, 1, 1, 1]}}],
                "cameras": [{"type": "perspective", "perspective": {"yfov": 0, "znear": 0.1},
                             "orthographic": {"xmag": 1, "ymag": 1, "znear": 0, "zfar": 1}}],
                "images": [{"bufferView": 0}, {"mimeType": "image/png"}], "skins": []}"#,
        );
        let expected = [
            ("INVALID_INDEX", "/scene"),
            ("INVALID_INDEX", "/nodes/0/children/1"),
            ("INVALID_INDEX", "/meshes/0/primitives/0/attributes/POSITION"),
            ("MESH_PRIMITIVE_INVALID_ATTRIBUTE", "/meshes/0/primitives/0/attributes/BATCHID"),
            ("ARRAY_LENGTH_NOT_IN_LIST", "/nodes/0/translation"),
            ("ARRAY_TYPE_MISMATCH", "/nodes/0/rotation"),
            ("ARRAY_LENGTH_NOT_IN_LIST", "/accessors/0/min"),
            ("VALUE_NOT_IN_RANGE", "/accessors/0/count"),
            ("VALUE_NOT_IN_RANGE", "/meshes/0/primitives/0/mode"),
            ("VALUE_NOT_IN_RANGE", "/materials/0/pbrMetallicRoughness/baseColorFactor/0"),
            ("VALUE_NOT_IN_RANGE", "/cameras/0/perspective/yfov"),
            ("EMPTY_ENTITY", "/skins"),
            ("ONE_OF_MISMATCH", "/images/1"),
            ("ONE_OF_MISMATCH", "/cameras/0"),
            ("UNSATISFIED_DEPENDENCY", "/images/0/bufferView"),
            ("PATTERN_MISMATCH", "/asset/version"),
        ];
        for (code, pointer) in expected {
            assert!(found.iter().any(|(c, p)| *c == code && p == pointer), "{code} at {pointer} in {found:?}");
        }
        assert_eq!(found.len(), expected.len(), "{found:?}");
    }

    #[test]
    fn a_valid_file_passes() {
        let found = codes(
            r#"{"asset": {"version": "2.0", "minVersion": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
                "nodes": [{"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], "weights": [0.5]}],
                "accessors": [{"type": "MAT2", "count": 1, "min": [0, 0, 0, 0], "max": [1, 1, 1, 1]}],
                "materials": [{"emissiveFactor": [1, 0, 0], "occlusionTexture": {"index": 0, "strength": 1}}],
                "cameras": [{"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0, "zfar": 1}}],
                "images": [{"uri": "a.png"}]}"#,
        );
        assert!(found.is_empty(), "{found:?}");
    }
}
