//! The checker (`props_gltf::validate`) against the Khronos glTF-Validator.
//!
//! `tests/models/broken/` holds one file per defect, written by `cargo xtask gen-broken-models`
//! with a manifest (`cases.json`: category, defect, the game's own codes expected, and the
//! Khronos errors the checker does not report, each with why). `tests/oracle/broken/` holds what
//! the Khronos validator reported for each (see `regenerate.sh` there). For every file, every
//! Khronos error must be reported by the checker with the same code at the same JSON pointer,
//! except the documented differences, plus the game's own codes; and every error the checker
//! reports must be one of those or one of Khronos's warnings.
//!
//! The other way round: every valid model of the project (the real samples, the generated test
//! models and the demo's assets) draws no error from the checker, and the validator found no
//! error in them either.

use std::path::{Path, PathBuf};

use props_gltf::validate::{Consequence, Report, Severity, check_file, check_slice};
use props_gltf::{Limits, import_file};
use serde_json::{Value, json};

use crate::real_models::{MODELS, models_dir};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn strings(value: &Value) -> impl Iterator<Item = &str> {
    value.as_array().into_iter().flatten().filter_map(Value::as_str)
}

/// `(code, pointer)` of every issue of a validator fixture, or only of its errors.
fn khronos_issues(fixture: &Value, errors_only: bool) -> Vec<(String, String)> {
    let messages = fixture["messages"].as_array().into_iter().flatten();
    messages
        .filter(|m| !errors_only || m["severity"] == "Error")
        .map(|m| {
            let code = m["code"].as_str().unwrap_or_default().to_owned();
            (code, m["pointer"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

/// What is missing from `report`: `(code, pointer)` pairs not reported, as text.
fn missing(report: &Report, expected: &[(String, String)]) -> Vec<String> {
    let mut missing: Vec<String> = expected
        .iter()
        .filter(|(code, pointer)| !report.contains(code, pointer))
        .map(|(code, pointer)| format!("{code} at {pointer:?}"))
        .collect();
    missing.dedup();
    missing
}

#[test]
fn broken_files_get_the_khronos_codes_and_the_game_codes() {
    let models = workspace().join("tests/models/broken");
    let cases = read_json(&models.join("cases.json"));
    let cases = cases.as_array().expect("a list of cases");
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let file = case["file"].as_str().expect("file");
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        let fixture = read_json(&workspace().join(format!("tests/oracle/broken/{stem}.validator.json")));
        let skipped: Vec<&str> =
            case["differences"].as_array().into_iter().flatten().filter_map(|d| d["code"].as_str()).collect();
        let mut expected: Vec<(String, String)> =
            khronos_issues(&fixture, true).into_iter().filter(|(code, _)| !skipped.contains(&code.as_str())).collect();
        for game in strings(&case["game"]) {
            let (code, pointer) = game.split_once(' ').unwrap_or((game, ""));
            expected.push((code.to_owned(), pointer.to_owned()));
        }
        let report = check_file(&models.join(file), &Limits::default());
        let missing = missing(&report, &expected);
        // And no false alarm: every error is one of Khronos's issues (of any severity: an
        // unknown enum value is only a warning to Khronos, but the game cannot load it) or a
        // game code.
        let known = [khronos_issues(&fixture, false), expected].concat();
        let extra: Vec<String> = report
            .issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .filter(|i| !known.iter().any(|(code, pointer)| i.code == code && i.json_pointer == *pointer))
            .map(|i| format!("{} at {:?}", i.code, i.json_pointer))
            .collect();
        if !missing.is_empty() || !extra.is_empty() || !report.has_errors() {
            failures.push(format!("{file}: missing {missing:?}, not from Khronos {extra:?}; reported:\n{report}"));
        }
        assert!(
            import_file(&models.join(file), &Limits::default()).is_err() || report.has_errors(),
            "{file}: imports, so the checker must not pass it either"
        );
    }
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// The checker agrees with the importer on every broken file: what it passes imports.
#[test]
fn what_the_checker_passes_imports() {
    let models = workspace().join("tests/models/broken");
    for entry in std::fs::read_dir(&models).expect("corpus").flatten() {
        let path = entry.path();
        if !path.extension().is_some_and(|e| e == "gltf" || e == "glb") {
            continue;
        }
        let report = check_file(&path, &Limits::default());
        if !report.has_errors() {
            import_file(&path, &Limits::default())
                .unwrap_or_else(|e| panic!("checker passed {}, importer: {e}", path.display()));
        }
    }
}

/// Every error says what to do about it, once: the rule table's fix after the message, or,
/// for a limit or an extension, the message's own; and an import error says the same. Those
/// that cost the modder something (the file, or a part of it) and those the game reads past
/// alike, over the broken and the lenient models.
#[test]
fn every_error_names_its_fix() {
    let (mut costly, mut read_past) = (0, std::collections::BTreeSet::new());
    for folder in ["tests/models/broken", "tests/models/lenient"] {
        for entry in std::fs::read_dir(workspace().join(folder)).expect("corpus").flatten() {
            let path = entry.path();
            if !path.extension().is_some_and(|e| e == "gltf" || e == "glb") {
                continue;
            }
            let report = check_file(&path, &Limits::default());
            for issue in report.issues.iter().filter(|i| i.severity == Severity::Error) {
                let line = format!("{}: {issue}", path.display());
                if issue.consequence == Consequence::Loads {
                    read_past.insert(issue.code);
                } else {
                    costly += 1;
                }
                match issue.fix() {
                    Some(fix) => {
                        assert!(line.contains(&format!("; {fix} (the game")), "{line}");
                        assert_eq!(line.matches(fix).count(), 1, "said twice: {line}");
                    }
                    None => assert!(issue.message.contains("; "), "no fix of its own: {line}"),
                }
            }
            if let Err(error) = import_file(&path, &Limits::default()) {
                let code_fix = report.issues.iter().filter_map(|i| i.fix()).find(|fix| error.to_string().contains(fix));
                let own = error.to_string().contains("; ");
                assert!(code_fix.is_some() || own, "the import error names no fix: {error}");
            }
        }
    }
    assert!(costly > 100, "{costly} costly errors in the corpus");
    assert!(read_past.len() > 30, "errors read past in the corpus: {read_past:?}");
}

/// A buffer URI that is a symbolic link out of the model's folder (not committed: links do not
/// survive every checkout); built in a temporary folder.
#[cfg(unix)]
#[test]
fn symlink_escapes_are_refused() {
    let temp = std::env::temp_dir().join(format!("props-check-symlink-{}", std::process::id()));
    let model_dir = temp.join("mod");
    std::fs::create_dir_all(&model_dir).expect("folders");
    let base = workspace().join("tests/models/generated");
    let json = read_json(&base.join("shuffled_joints.gltf"));
    let bin = std::fs::read(base.join("shuffled_joints.bin")).expect("bin");
    std::fs::write(temp.join("secret.bin"), &bin).expect("secret");
    std::os::unix::fs::symlink(temp.join("secret.bin"), model_dir.join("shuffled_joints.bin")).expect("symlink");
    std::fs::write(model_dir.join("model.gltf"), json.to_string()).expect("model");
    let report = check_file(&model_dir.join("model.gltf"), &Limits::default());
    std::fs::remove_dir_all(&temp).expect("cleanup");
    assert!(report.contains("PROPS_URI_OUTSIDE_FOLDER", "/buffers/0/uri"), "{report}");
}

/// Every valid model file of the project.
pub fn valid_models() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = MODELS.iter().map(|m| models_dir().join(m)).collect();
    let dirs = [models_dir().join("generated"), models_dir().join("blender"), models_dir().join("humanoids")];
    for dir in dirs.into_iter().chain([workspace().join("assets")]) {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("model folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "gltf" || e == "glb" || e == "vrm"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}

#[test]
fn valid_models_draw_no_error_and_the_validator_agrees() {
    let mut failures = Vec::new();
    for path in valid_models() {
        let report = check_file(&path, &Limits::default());
        if report.has_errors() {
            failures.push(report.to_string());
        }
        // Every issue the checker raises on a valid file is a warning.
        assert!(report.issues.iter().all(|i| i.severity == Severity::Warning), "{report}");
    }
    assert!(failures.is_empty(), "valid models with errors:\n{}", failures.join("\n"));
    for folder in ["generated", "blender"] {
        let fixtures = workspace().join("tests/oracle").join(folder);
        for entry in std::fs::read_dir(&fixtures).expect("fixtures").flatten() {
            let path = entry.path();
            if path.to_string_lossy().ends_with(".validator.json") {
                let fixture = read_json(&path);
                assert_eq!(fixture[0]["report"]["issues"]["numErrors"], 0, "{}", path.display());
            }
        }
    }
}

/// Files checked from memory cannot reach any other file.
#[test]
fn files_in_memory_reach_no_file() {
    let path = models_dir().join("generated/shuffled_joints.gltf");
    let bytes = std::fs::read(&path).expect("model");
    let report = check_slice(&bytes, None, Path::new("mem.gltf"), &Limits::default());
    assert!(report.contains("PROPS_URI_OUTSIDE_FOLDER", "/buffers/0/uri"), "{report}");
}

/// Shapes that would make naive hierarchy and channel checks quadratic: a 60 000-node chain
/// with thousands of skins at its bottom and thousands of channels on one target. (Checked to
/// finish, not timed: a quadratic check would take hours here.)
#[test]
fn hostile_shapes_stay_linear() {
    let nodes: Vec<Value> =
        (0..60_000).map(|i| if i < 59_999 { json!({"children": [i + 1]}) } else { json!({}) }).collect();
    let skins: Vec<Value> = (0..3_000).map(|_| json!({"joints": [59_999, 59_998], "skeleton": 0})).collect();
    let channels: Vec<Value> =
        (0..20_000).map(|_| json!({"sampler": 0, "target": {"node": 5, "path": "rotation"}})).collect();
    let document = json!({"asset": {"version": "2.0"}, "nodes": nodes, "skins": skins,
        "animations": [{"samplers": [{"input": 0, "output": 0}], "channels": channels}]});
    let report = check_slice(document.to_string().as_bytes(), None, Path::new("big.gltf"), &Limits::default());
    // Every duplicate is found (the first listed, the rest counted), up to the last channel.
    assert!(report.contains("ANIMATION_DUPLICATE_TARGETS", "/animations/0/channels/1/target"));
    let listed = report.issues.iter().filter(|i| i.code == "ANIMATION_DUPLICATE_TARGETS").count();
    let more = format!("{} more ANIMATION_DUPLICATE_TARGETS issues are not listed", 19_999 - listed);
    assert!(report.issues.iter().any(|i| i.message == more), "{report}");
    assert!(!report.issues.iter().any(|i| i.code.starts_with("SKIN_")), "one common root, node 0");
}

/// A triangle whose vertex 1 has x = `x`, declared `max` x written as `max_x`, with `extra`
/// top-level JSON members (each followed by a comma).
fn triangle_gltf(x: f32, max_x: &str, extra: &str) -> String {
    use base64::Engine as _;
    let bytes: Vec<u8> =
        [0.0, 0.0, 0.0, x, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|v: &f32| v.to_le_bytes()).collect();
    let uri =
        format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&bytes));
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}], "nodes": [{{"mesh": 0}}], {extra}
        "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
        "buffers": [{{"byteLength": 36, "uri": "{uri}"}}],
        "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
        "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
            "min": [0.0, 0.0, 0.0], "max": [{max_x}, 1.0, 0.0]}}]}}"#
    )
}

/// A bound written with the shortest decimal that rounds to the data's f32 is the data's
/// bound: 1.9555999636650085 lies exactly halfway between two f32 values (and rounds to the
/// even one, the data's), so a JSON parser one f64 step off reads the other one. Blender
/// writes bounds like this; Khronos's validator accepts them.
#[test]
fn bounds_halfway_between_two_floats_are_read_exactly() {
    let x = 1.9556_f32;
    assert_eq!(f64::from(x), 1.955_600_023_269_653_3, "the data's value");
    let text = triangle_gltf(x, "1.9555999636650085", "");
    let report = check_slice(text.as_bytes(), None, Path::new("halfway.gltf"), &Limits::default());
    assert!(report.issues.is_empty(), "{:?}", report.issues);
}

/// What Khronos's validator only warns about stays a warning: an unknown sampler filter (the
/// game uses its own sampler) loads.
#[test]
fn unknown_sampler_values_are_warnings() {
    let text = triangle_gltf(1.0, "1.0", r#""samplers": [{"magFilter": 9999}],"#);
    let report = check_slice(text.as_bytes(), None, Path::new("sampler.gltf"), &Limits::default());
    let issues: Vec<_> = report.issues.iter().map(|i| (i.code, i.json_pointer.as_str(), i.severity)).collect();
    assert_eq!(issues, [("VALUE_NOT_IN_LIST", "/samplers/0/magFilter", Severity::Warning)]);
    let dir = std::env::temp_dir().join(format!("props-sampler-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("sampler.gltf");
    std::fs::write(&path, &text).expect("write");
    let admitted = props_gltf::gate::admit_file(&path, &Limits::default());
    std::fs::remove_dir_all(&dir).ok();
    assert!(admitted.is_ok(), "the game loads it: {:?}", admitted.err());
}
