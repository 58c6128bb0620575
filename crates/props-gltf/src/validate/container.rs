//! The container: GLB framing (header, chunks), the JSON (its schema rules in `schema.rs`),
//! `asset.version`, the declared extensions, and the findings of the gltf crate's reference
//! checks.

use std::borrow::Cow;

use serde_json::Value;

use super::importer::{self, LIMIT_EXCEEDED};
use super::issues::Issues;
use super::report::Issue;
use super::schema;
use crate::document::{self, Document};
use crate::error::{ErrorKind, FILE, ImportError};
use crate::glb;
use crate::json_scan;
use crate::limits::{self, Budget, Limits};
use crate::pointer::{self, escape};

/// A file whose container and JSON could be read as glTF 2.
pub(super) struct Parsed<'a> {
    /// The glTF objects (not yet checked).
    pub document: Document,
    /// The GLB binary chunk, if any.
    pub bin: Option<Cow<'a, [u8]>>,
}

/// Reads the container and the JSON, reporting what is wrong with them; `None` when the rest
/// cannot be checked (the file is too big, the GLB framing or JSON is broken, or it is not
/// glTF 2).
pub(super) fn parse<'a>(bytes: &'a [u8], limits: &Limits, budget: &Budget, issues: &mut Issues) -> Option<Parsed<'a>> {
    if let Err(error) = limits::check(bytes.len() as u64, limits.max_file_bytes, "file size in bytes", FILE) {
        issues.push(importer::issue(&error));
        return None;
    }
    let (json, bin) = if glb::is_glb(bytes) || looks_like_glb(bytes) { glb(bytes, issues)? } else { (bytes, None) };
    if let Err(error) = json_scan::check(json, limits, budget) {
        issues.push(importer::issue(&error));
        return None;
    }
    let value: Value = match serde_json::from_slice(json) {
        Ok(value) => value,
        Err(error) => {
            issues.push(Issue::error("INVALID_JSON", "", format!("not valid JSON: {error}")));
            return None;
        }
    };
    extensions(&value, issues);
    undeclared_extensions(&value, "", &value, issues);
    schema::check(&value, issues);
    min_version(&value, issues);
    if !is_version_2(&value, issues) {
        return None;
    }
    match document::from_value(value, &mut Vec::new()) {
        Ok(document) => {
            // JSON of the wrong type in a part (emptied to read the rest): Khronos's error there.
            for error in &document.mistyped {
                let issue =
                    Issue::error("TYPE_MISMATCH", pointer::from_json_path(&error.json_path), error.kind.to_string());
                if !issues.has_error_within(&issue.json_pointer) {
                    issues.push(issue);
                }
            }
            Some(Parsed { document, bin: bin.map(Cow::Borrowed) })
        }
        Err(error) => {
            // A schema rule may already have said why (a negative index, a short array).
            let issue = schema_issue(&error);
            if !issues.has_error_within(&issue.json_pointer) {
                issues.push(issue);
            }
            None
        }
    }
}

/// Splits a GLB file into its JSON and BIN chunks, reporting framing problems with
/// Khronos's `GLB_*` codes; `None` when there is no usable JSON chunk.
fn glb<'a>(bytes: &'a [u8], issues: &mut Issues) -> Option<(&'a [u8], Option<&'a [u8]>)> {
    let (chunks, problems) = glb::read(bytes);
    for problem in problems {
        let issue = if problem.warning { Issue::warning } else { Issue::error };
        issues.push(issue(problem.code, "", problem.message));
    }
    chunks.map(|chunks| (chunks.json, chunks.bin))
}

/// Extensions a file cannot use without requiring them.
const MUST_BE_REQUIRED: &[&str] = &["KHR_mesh_quantization"];

/// Checks `extensionsRequired`: each one declared in `extensionsUsed` and implemented by the
/// game; and the extensions of [`MUST_BE_REQUIRED`] required when used.
fn extensions(value: &Value, issues: &mut Issues) {
    let used = value.get("extensionsUsed").and_then(Value::as_array);
    let required = value.get("extensionsRequired").and_then(Value::as_array);
    let is_required = |name: &str| required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)));
    for (i, name) in used.into_iter().flatten().enumerate().filter_map(|(i, n)| Some((i, n.as_str()?))) {
        if MUST_BE_REQUIRED.contains(&name) && !is_required(name) {
            let message = format!("{name} changes how the file must be read, so it must be in extensionsRequired too");
            issues.push(Issue::error("NON_REQUIRED_EXTENSION", format!("/extensionsUsed/{i}"), message));
        }
    }
    let Some(required) = required else {
        return;
    };
    if used.is_none() {
        let message = "extensionsRequired needs extensionsUsed";
        issues.push(Issue::error("UNSATISFIED_DEPENDENCY", "/extensionsRequired", message));
    }
    let is_used = |name: &str| used.is_some_and(|used| used.iter().any(|u| u.as_str() == Some(name)));
    for (i, name) in required.iter().enumerate().filter_map(|(i, n)| Some((i, n.as_str()?))) {
        let pointer = format!("/extensionsRequired/{i}");
        if !is_used(name) {
            let message = format!("extension {name} is required but not in extensionsUsed");
            issues.push(Issue::error("UNUSED_EXTENSION_REQUIRED", &pointer, message));
        }
        if !document::may_be_required(name) {
            issues.push(importer::issue(&document::unsupported_extension(format!("extensionsRequired[{i}]"), name)));
        }
    }
}

/// Whether `bytes` has a GLB header but for its magic: version 2 and a length, where JSON
/// would start with `{` or whitespace.
fn looks_like_glb(bytes: &[u8]) -> bool {
    let version = bytes.get(4..8).is_some_and(|v| v == 2u32.to_le_bytes());
    let json = bytes.iter().find(|b| !b.is_ascii_whitespace()).is_none_or(|&b| b == b'{');
    version && !json
}

/// Every `extensions` object in the JSON names only extensions listed in `extensionsUsed`
/// (UNDECLARED_EXTENSION, at `/.../extensions/NAME`); `at` is `value`'s pointer.
fn undeclared_extensions(root: &Value, at: &str, value: &Value, issues: &mut Issues) {
    let used = |name: &str| {
        root.get("extensionsUsed").and_then(Value::as_array).is_some_and(|used| used.iter().any(|u| u == name))
    };
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                let pointer = format!("{at}/{}", escape(key));
                if key == "extensions"
                    && let Value::Object(extensions) = child
                {
                    for name in extensions.keys().filter(|name| !used(name)) {
                        let message = format!("extension {name} is used here but not listed in extensionsUsed");
                        issues.push(Issue::error(
                            "UNDECLARED_EXTENSION",
                            format!("{pointer}/{}", escape(name)),
                            message,
                        ));
                    }
                } else if key != "extras" {
                    undeclared_extensions(root, &pointer, child, issues);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                undeclared_extensions(root, &format!("{at}/{i}"), item, issues);
            }
        }
        _ => {}
    }
}

/// `asset.minVersion` is not above `asset.version` (ASSET_MIN_VERSION_GREATER_THAN_VERSION).
fn min_version(value: &Value, issues: &mut Issues) {
    let version = |pointer| {
        let text = value.pointer(pointer).and_then(Value::as_str)?;
        let (major, minor) = text.split_once('.')?;
        Some((major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?))
    };
    if let (Some(min), Some(version)) = (version("/asset/minVersion"), version("/asset/version"))
        && min > version
    {
        let message =
            format!("asset.minVersion {}.{} is above asset.version {}.{}", min.0, min.1, version.0, version.1);
        issues.push(Issue::error("ASSET_MIN_VERSION_GREATER_THAN_VERSION", "/asset/minVersion", message));
    }
}

/// Whether `asset.version` is 2.x (or absent, which the schema check reports); reports it
/// otherwise.
fn is_version_2(value: &Value, issues: &mut Issues) -> bool {
    let Some(version) = value.pointer("/asset/version").and_then(Value::as_str) else {
        return true;
    };
    if version.split('.').next() == Some("2") {
        return true;
    }
    let error = ImportError::at("asset.version", ErrorKind::UnsupportedVersion { version: version.to_owned() });
    issues.push(importer::issue(&error));
    false
}

/// The issue of JSON that is not glTF: a missing property or a value of the wrong type, at
/// its pointer.
fn schema_issue(error: &serde_path_to_error::Error<serde_json::Error>) -> Issue {
    let json_pointer = pointer::from_segments(error.path());
    let inner = error.inner().to_string();
    let code = if inner.starts_with("missing field") { "UNDEFINED_PROPERTY" } else { "TYPE_MISMATCH" };
    Issue::error(code, json_pointer, format!("not valid glTF: {inner}"))
}

/// The issue of one finding of the gltf crate's reference checks, with Khronos's code for
/// the cases it names differently.
pub(super) fn reference_issue(error: &ImportError) -> Issue {
    let issue = importer::issue(error);
    let path = error.json_path.as_str();
    let parent = |issue: Issue| {
        let json_pointer = issue.json_pointer.rsplit_once('/').map_or(String::new(), |(p, _)| p.to_owned());
        Issue { json_pointer, ..issue }
    };
    match &error.kind {
        ErrorKind::MissingProperty | ErrorKind::InvalidValue
            if path.ends_with("[\"POSITION\"].min") || path.ends_with("[\"POSITION\"].max") =>
        {
            let message = "the POSITION accessor needs min and max".to_owned();
            Issue { code: "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", message, ..parent(issue) }
        }
        ErrorKind::MissingProperty if path.ends_with("[\"POSITION\"]") => {
            let message = "the primitive has no POSITION attribute".to_owned();
            Issue { code: "MESH_PRIMITIVE_NO_POSITION", message, ..parent(issue) }
        }
        // Khronos warns about unknown enum values; the renderer uses its own sampler.
        ErrorKind::InvalidValue if path.starts_with("samplers[") => Issue::warning(
            "VALUE_NOT_IN_LIST",
            issue.json_pointer,
            "invalid value; the game ignores samplers (it uses its own)".to_owned(),
        ),
        // The gltf crate checks a channel's target node as a value.
        ErrorKind::InvalidValue if path.ends_with(".target.node") => Issue { code: "UNRESOLVED_REFERENCE", ..issue },
        ErrorKind::InvalidValue if path.ends_with(".byteStride") || path.ends_with(".mode") => {
            Issue { code: "VALUE_NOT_IN_RANGE", ..issue }
        }
        ErrorKind::ValueTooLarge => Issue { code: LIMIT_EXCEEDED, ..issue },
        _ => issue,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_that_is_not_gltf_is_located() {
        let parse = |json: &[u8], issues: &mut Vec<Issue>| {
            let (limits, mut found) = (Limits::default(), Issues::default());
            let parsed = parse(json, &limits, &Budget::new(limits.max_decoded_bytes), &mut found).is_some();
            *issues = found.into_vec();
            parsed
        };
        let mut issues = Vec::new();
        let json =
            br#"{"asset": {"version": "2.0"}, "accessors": [{"componentType": 5126, "type": "SCALAR", "count": "2"}]}"#;
        assert!(!parse(json, &mut issues));
        assert_eq!((issues[0].code, issues[0].json_pointer.as_str()), ("TYPE_MISMATCH", "/accessors/0/count"));
        issues.clear();
        let json = br#"{"asset": {"version": "2.0"}, "accessors": [{"type": "SCALAR", "count": 2}]}"#;
        assert!(!parse(json, &mut issues));
        assert_eq!((issues[0].code, issues[0].json_pointer.as_str()), ("UNDEFINED_PROPERTY", "/accessors/0"));
        issues.clear();
        assert!(!parse(br#"{"asset": {"version": "3.0"}}"#, &mut issues));
        assert_eq!(
            (issues[0].code, issues[0].json_pointer.as_str()),
            ("UNKNOWN_ASSET_MAJOR_VERSION", "/asset/version")
        );
        issues.clear();
        let json = br#"{"asset": {"version": "2.0"}, "extensionsRequired": ["MSFT_texture_dds"]}"#;
        assert!(parse(json, &mut issues));
        let codes: Vec<_> = issues.iter().map(|i| (i.code, i.json_pointer.as_str())).collect();
        assert_eq!(
            codes,
            [
                ("UNSATISFIED_DEPENDENCY", "/extensionsRequired"),
                ("UNUSED_EXTENSION_REQUIRED", "/extensionsRequired/0"),
                ("PROPS_UNSUPPORTED_EXTENSION", "/extensionsRequired/0")
            ]
        );
    }

    #[test]
    fn reference_findings_use_khronos_codes() {
        let at = |path: &str, kind| reference_issue(&ImportError::at(path, kind));
        let bounds = at("meshes[0].primitives[1].attributes[\"POSITION\"].min", ErrorKind::MissingProperty);
        assert_eq!(bounds.code, "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS");
        assert_eq!(bounds.json_pointer, "/meshes/0/primitives/1/attributes/POSITION");
        let missing = at("meshes[0].primitives[1].attributes[\"POSITION\"]", ErrorKind::MissingProperty);
        assert_eq!(
            (missing.code, missing.json_pointer.as_str()),
            ("MESH_PRIMITIVE_NO_POSITION", "/meshes/0/primitives/1/attributes")
        );
        assert_eq!(at("nodes[2].mesh", ErrorKind::InvalidIndex).code, "UNRESOLVED_REFERENCE");
        assert_eq!(at("bufferViews[0].byteStride", ErrorKind::InvalidValue).code, "VALUE_NOT_IN_RANGE");
    }
}
