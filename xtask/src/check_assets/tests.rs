//! `check-assets`'s tests: its lines against the game's own counts, on the demo's assets and
//! the test models.

use props_gltf::Limits;
use props_gltf::gate::admit_file;

use super::*;

#[test]
fn lines_and_summary() {
    let issue = Issue::error("ACCESSOR_TOO_LONG", "/accessors/0", "too long");
    let fix = issue.fix().expect("a fatal code's fix");
    assert_eq!(
        line(Path::new("mods/a.glb"), &issue, false),
        format!("mods/a.glb: /accessors/0: error[ACCESSOR_TOO_LONG]: too long; {fix} (the game refuses the file)\n")
    );
    assert!(line(Path::new("a.glb"), &issue, true).contains("\x1b[1;31merror[ACCESSOR_TOO_LONG]\x1b[0m"));
    let whole = Issue::warning("GLB_UNKNOWN_CHUNK_TYPE", "", "ignored");
    assert_eq!(line(Path::new("a.glb"), &whole, false), "a.glb: warning[GLB_UNKNOWN_CHUNK_TYPE]: ignored\n");
    assert_eq!(
        summary(1, 0, 2, 0, 0),
        "checked 1 file: 0 errors, 2 warnings; the game loads 0 files without the parts it drops and refuses 0 files"
    );
    assert_eq!(
        summary(3, 1, 1, 1, 1),
        "checked 3 files: 1 error, 1 warning; the game loads 1 file without the parts it drops and refuses 1 file"
    );
    let read_past = Issue::error("ACCESSOR_MAX_MISMATCH", "/accessors/0/max", "too big");
    let read_fix = read_past.fix().expect("a read-past error's fix");
    assert!(
        line(Path::new("a.glb"), &read_past, false)
            .ends_with(&format!("too big; {read_fix} (the game reads past it)\n"))
    );
    let refusing = Issue::error("PROPS_LIMIT_EXCEEDED", "", "too big");
    assert!(line(Path::new("a.glb"), &refusing, false).ends_with("too big (the game refuses the file)\n"));
    let run = props_gltf::Part::Clip { index: 2, name: Some("Run".to_owned()) };
    let drops = props_gltf::validate::Consequence::Drops(vec![run.clone()]);
    let dropping = Issue { consequence: drops, ..issue.clone() };
    assert!(
        line(Path::new("a.glb"), &dropping, false)
            .ends_with(&format!("too long; {fix} (the game drops clip 2 (`Run`))\n"))
    );
    let outcome = Outcome::Loads { dropped: vec![run], read_past: 1, warnings: 3 };
    assert_eq!(
        verdict(Path::new("a.glb"), &outcome, false),
        "a.glb: drops clip 2 (`Run`), loads; 1 error read past, 3 warnings\n"
    );
    assert_eq!(verdict(Path::new("a.glb"), &Outcome::Refuses, false), "a.glb: refuses\n");
    let one = Level { triangles: 1, error: 0.0, impostor: false };
    assert!(cost_lines(Path::new("a.glb"), &[one], &[]).starts_with("a.glb: levels of detail: 1 triangle in full,"));
}

/// The windmill's levels end at its impostor, and the line says so.
#[test]
fn the_impostor_is_named_among_the_levels() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/windmill.glb");
    let model = Arc::new(admit_file(&file, &Limits::default()).expect("the windmill").import.model);
    let (levels, costs) = levels_and_costs(&model).expect("costs");
    assert_eq!(levels.iter().filter(|l| l.impostor).count(), 1);
    assert!(levels.last().is_some_and(|l| l.impostor && l.triangles == 12));
    let lines = cost_lines(&file, &levels, &costs);
    assert!(lines.contains(", 12 (error 5.02, the impostor: a box of its coverage and colour) (errors"), "{lines}");
}

#[test]
fn material_variants_are_listed_by_name() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/material_variants/material_variants.gltf");
    let model = admit_file(&file, &Limits::default()).expect("the spheres").import.model;
    let line = variant_line(Path::new("a.gltf"), &material_variants(&model));
    assert!(
        line.starts_with(
            "a.gltf: material variants (KHR_materials_variants): `taxi` (3 parts in other materials), `police` (2); "
        ),
        "{line}"
    );
    assert_eq!(variant_line(Path::new("a.gltf"), &[]), "", "no line for a model without variants");
}

#[test]
fn gaits_are_reported_from_the_clips() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
    let model = admit_file(&file, &Limits::default()).expect("the Fox").import.model;
    let line = stride_lines(Path::new("Fox.glb"), &strides(&model));
    assert!(
        line.starts_with("Fox.glb: gaits (model units, measured from the planted feet): `Walk` 103 a second"),
        "{line}"
    );
    assert!(line.contains("`Run` 214 a second at rate 1") && !line.contains("Survey"), "{line}");
}

/// A VRM avatar's spring bones are counted joint by joint, in chains from the first joint of
/// each; a file without any says nothing of them.
#[test]
fn spring_bones_are_counted_in_their_chains() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/humanoids");
    // VRM 1.0: a spring's last joint is its tail; VRM 0.x: every bone of a group's subtree swings.
    for (file, counted) in [("springs_vrm1.vrm", (7, 3, 8)), ("springs_vrm0.vrm", (10, 3, 7))] {
        let model = admit_file(&models.join(file), &Limits::default()).expect(file).import.model;
        assert_eq!(springs(&model), counted, "{file}");
        let line = spring_line(Path::new(file), Some(counted));
        assert!(
            line.contains(&format!("spring bones: {} joints in 3 chains, {} colliders", counted.0, counted.2)),
            "{line}"
        );
    }
    let fox = admit_file(&models.join("../Fox.glb"), &Limits::default()).expect("the Fox").import.model;
    assert_eq!(springs(&fox), (0, 0, 0));
    assert_eq!(spring_line(Path::new("Fox.glb"), None), "");
}

/// A VRM avatar's node constraints are counted by kind; a file without any says nothing of
/// them.
#[test]
fn node_constraints_are_counted_by_kind() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models");
    for (file, counted) in
        [("humanoids/constraints_vrm1.vrm", [2, 3, 2]), ("blender/vrm_addon_constraints_vrm1.vrm", [1, 1, 2])]
    {
        let model = admit_file(&models.join(file), &Limits::default()).expect(file).import.model;
        assert_eq!(constraints(&model), counted, "{file}");
    }
    let line = constraint_line(Path::new("a.vrm"), Some([2, 3, 2]));
    assert!(line.starts_with("a.vrm: node constraints: 2 roll, 3 aim, 2 rotation;"), "{line}");
    let fox = admit_file(&models.join("Fox.glb"), &Limits::default()).expect("the Fox").import.model;
    assert_eq!(constraints(&fox), [0, 0, 0]);
    assert_eq!(constraint_line(Path::new("Fox.glb"), None), "");
}

/// The JSON report says what the game does with each file, as the lines do.
#[test]
fn json_outcomes() {
    let run = props_gltf::Part::Clip { index: 2, name: Some("Run".to_owned()) };
    let outcome = serde_json::to_value(Outcome::Loads { dropped: vec![run], read_past: 1, warnings: 3 }).expect("JSON");
    assert_eq!(
        outcome,
        json!({"verdict": "loads", "read_past": 1, "warnings": 3,
               "dropped": [{"part": "clip", "index": 2, "name": "Run"}]})
    );
    assert_eq!(serde_json::to_value(Outcome::Refuses).expect("JSON"), json!({"verdict": "refuses"}));
}

#[cfg(unix)]
#[test]
fn walks_follow_no_folder_link_and_special_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("props-check-assets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pack")).expect("folders");
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods/example/spinning_sign.gltf");
    std::fs::copy(&model, dir.join("pack/sign.gltf")).expect("copy a model");
    // What the game's watcher ignores, the walk does too: hidden, in a hidden folder, a
    // scratch copy.
    std::fs::create_dir_all(dir.join(".backup")).expect("a hidden folder");
    for ignored in [".backup/sign.gltf", "pack/.sign.gltf", "pack/sign.gltf~", "pack/sign.glb.part"] {
        std::fs::copy(&model, dir.join(ignored)).expect("copy a model");
    }
    std::os::unix::fs::symlink(&dir, dir.join("pack/loop")).expect("symlink");
    std::os::unix::fs::symlink("/", dir.join("root")).expect("symlink");
    let fifo = dir.join("pipe.gltf");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let files = model_files(std::slice::from_ref(&dir)).expect("walks");
    assert_eq!(files, [dir.join("pack/sign.gltf"), fifo.clone()]);
    let report = as_mod::check(&fifo, &Limits::default()).report;
    assert!(report.is_fatal() && report.to_string().contains("FIFO"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sidecar_named_is_checked_with_its_model() {
    let dir = std::env::temp_dir().join(format!("props-sidecar-named-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("folder");
    std::fs::write(dir.join("truck.glb"), b"glTF").expect("model");
    std::fs::write(dir.join("truck.prop.toml"), "role = \"car\"").expect("sidecar");
    std::fs::write(dir.join("lonely.prop.toml"), "role = \"car\"").expect("sidecar");
    assert_eq!(model_files(&[dir.join("truck.prop.toml")]).expect("found"), [dir.join("truck.glb")]);
    let error = model_files(&[dir.join("lonely.prop.toml")]).expect_err("no model").to_string();
    assert!(error.contains("no `lonely.glb`, `lonely.gltf` or `lonely.vrm` beside it"), "{error}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn folders_are_walked_in_order_and_other_files_ignored() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models");
    let files = model_files(&[root.join("broken"), root.join("SimpleSkin.gltf")]).expect("files");
    assert!(files.len() > 40);
    let named = |f: &PathBuf| f.file_name().map(Path::new).is_some_and(props_mods::is_mod_model);
    assert!(files.iter().all(named), "no cases.json or .bin");
    let names: Vec<_> = files.iter().map(|f| f.file_name()).collect();
    let mut sorted = names[..names.len() - 1].to_vec();
    sorted.sort();
    assert_eq!(sorted, names[..names.len() - 1]);
    assert!(model_files(&[root.join("nope")]).is_err());
}
