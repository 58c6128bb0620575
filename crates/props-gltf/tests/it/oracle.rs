//! Proof against an independent reference: every fixture under `tests/oracle/` was computed
//! by three.js (the project's oracle, see `tests/oracle/README.md`) from a model under
//! `tests/models/`. This project's own importer, sampler, hierarchy and CPU skinning must
//! reproduce every node's world matrix and every vertex's world position to within 1e-4 of
//! the model's bounding-box diagonal, at every time of the fixture.

use std::path::{Path, PathBuf};

use props_gltf::pose_dump::{self, PoseDump};
use props_gltf::{Limits, import_file};

/// Relative tolerance, as a fraction of the model's bounding-box diagonal.
const TOLERANCE: f64 = 1e-4;

fn workspace_tests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

/// Finds `file` (as the oracle names it) under `dir`, recursively.
fn find_model(dir: &Path, file: &str) -> Option<PathBuf> {
    let direct = dir.join(file);
    if direct.is_file() {
        return Some(direct);
    }
    std::fs::read_dir(dir).ok()?.flatten().filter(|e| e.path().is_dir()).find_map(|e| find_model(&e.path(), file))
}

/// Diagonal of the box around every world vertex (or every node origin, for a model without
/// meshes) over all frames of the reference.
fn model_size(reference: &PoseDump) -> f64 {
    let mut min = [f64::INFINITY; 3];
    let mut max = [f64::NEG_INFINITY; 3];
    let mut add = |p: &[f64]| {
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    };
    for frame in &reference.frames {
        frame.primitives.iter().flat_map(|p| p.world.chunks_exact(3)).for_each(&mut add);
        if frame.primitives.is_empty() {
            frame.nodes.iter().for_each(|n| add(&n.world_matrix[12..15]));
        }
    }
    let diagonal = (0..3).map(|k| (max[k] - min[k]).powi(2)).sum::<f64>().sqrt();
    if diagonal > 0.0 { diagonal } else { 1.0 }
}

/// Largest element-wise difference of two arrays, with its index.
fn max_difference(actual: &[f64], expected: &[f64]) -> (f64, usize) {
    actual
        .iter()
        .zip(expected)
        .map(|(a, e)| (a - e).abs())
        .enumerate()
        .fold((0.0, 0), |best, (i, d)| if d > best.0 || d.is_nan() { (d, i) } else { best })
}

/// Which of the reference's vertex positions a folder is held to.
#[derive(Clone, Copy)]
enum Standard {
    /// The glTF specification's skinning formula (`world`), for any number of influences.
    Formula,
    /// three.js's own draw (`three_world`): the same wherever the formula has a meaning, and
    /// what the game follows where a file leaves it none (a vertex bound to no joint).
    Drawn,
}

/// Compares one fixture; returns a description of every mismatch.
fn check(reference_path: &Path, models: &Path, relative_tolerance: f64, standard: Standard) -> Vec<String> {
    let name = reference_path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(reference_path).expect("readable fixture");
    let reference: PoseDump = serde_json::from_str(&text).expect("fixture in the oracle format");
    let Some(model_path) = find_model(models, &reference.file) else {
        return vec![format!("{name}: model {} not found under {}", reference.file, models.display())];
    };
    let import = match import_file(&model_path, &Limits::default()) {
        Ok(import) => import,
        Err(e) => return vec![format!("{name}: import failed: {e}")],
    };
    let times: Vec<f32> = reference.frames.iter().map(|f| f.time as f32).collect();
    let clip = reference.animation.as_ref().map(|a| a.index);
    let actual = pose_dump::dump(&import, &reference.file, clip, &times);
    let tolerance = relative_tolerance * model_size(&reference);
    let mut errors = Vec::new();
    errors.extend(check_bounds(&name, &import.model, &reference));
    if let (Some(a), Some(e)) = (&actual.animation, &reference.animation)
        && (a.duration - e.duration).abs() > 1e-6
    {
        errors.push(format!("{name}: duration {} != {}", a.duration, e.duration));
    }
    for (frame, expected) in actual.frames.iter().zip(&reference.frames) {
        let at = format!("{name} t={}", expected.time);
        if frame.clip_time.zip(expected.clip_time).is_some_and(|(a, e)| (a - e).abs() > 1e-6) {
            errors.push(format!("{at}: clip_time {:?} != {:?}", frame.clip_time, expected.clip_time));
        }
        let node_ids = |nodes: &[pose_dump::DumpedNode]| nodes.iter().map(|n| n.node).collect::<Vec<_>>();
        if node_ids(&frame.nodes) != node_ids(&expected.nodes) {
            errors.push(format!("{at}: nodes {:?} != {:?}", node_ids(&frame.nodes), node_ids(&expected.nodes)));
            continue;
        }
        for (node, exp) in frame.nodes.iter().zip(&expected.nodes) {
            let (d, i) = max_difference(&node.world_matrix, &exp.world_matrix);
            if d.is_nan() || d > tolerance {
                errors.push(format!(
                    "{at}: node {} world_matrix[{i}] off by {d:.3e} (tolerance {tolerance:.1e})",
                    node.node
                ));
            }
        }
        let keys = |ps: &[pose_dump::DumpedPrimitive]| {
            ps.iter().map(|p| (p.node, p.mesh, p.primitive, p.vertex_count, p.skinned)).collect::<Vec<_>>()
        };
        if keys(&frame.primitives) != keys(&expected.primitives) {
            errors.push(format!("{at}: primitives {:?} != {:?}", keys(&frame.primitives), keys(&expected.primitives)));
            continue;
        }
        for (prim, exp) in frame.primitives.iter().zip(&expected.primitives) {
            let expected = match standard {
                Standard::Formula => &exp.world,
                Standard::Drawn => exp.three_world.as_ref().expect("the reference has three.js's draw"),
            };
            let (d, i) = max_difference(&prim.world, expected);
            if d.is_nan() || d > tolerance {
                errors.push(format!(
                    "{at}: node {} mesh {} primitive {}: vertex {} coordinate {} off by {d:.3e} (tolerance {tolerance:.1e})",
                    prim.node,
                    prim.mesh,
                    prim.primitive,
                    i / 3,
                    i % 3
                ));
            }
        }
    }
    errors
}

/// The model's conservative pose bounds hold every vertex and node origin of every frame of
/// the reference (computed by three.js, not by this project), with a relative margin for
/// rounding: the bound is a proof only if the independent poses respect it.
fn check_bounds(name: &str, model: &props_anim::Model, reference: &PoseDump) -> Vec<String> {
    let bounds = model.pose_bounds();
    let length = |p: &[f64]| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    let margin = |bound: f64| bound * (1.0 + 1e-5) + 1e-5;
    let mut errors = Vec::new();
    let mut farthest: f64 = 0.0;
    for frame in &reference.frames {
        for vertex in frame.primitives.iter().flat_map(|p| p.world.chunks_exact(3)) {
            farthest = farthest.max(length(vertex));
        }
        for node in &frame.nodes {
            let Some(rig_node) = model.rig().from_source_index(node.node) else { continue };
            let reach = bounds.node_reach[rig_node.index()];
            let origin = length(&node.world_matrix[12..15]);
            if origin > margin(reach) {
                errors.push(format!(
                    "{name} t={}: node {} is {origin} from the origin, beyond its bound {reach}",
                    frame.time, node.node
                ));
            }
        }
    }
    if farthest > margin(bounds.radius) {
        errors.push(format!("{name}: a vertex is {farthest} from the origin, beyond the pose bound {}", bounds.radius));
    }
    eprintln!(
        "{name}: pose bound {:.4} vs farthest vertex {farthest:.4} ({:.2}x)",
        bounds.radius,
        bounds.radius / farthest.max(1e-12)
    );
    errors
}

/// Checks every `*.anim*.json` fixture of a folder against models found under `models`.
fn check_folder(fixtures: &Path, models: &Path) {
    check_folder_within(fixtures, models, TOLERANCE, Standard::Formula);
}

/// [`check_folder`] within `relative_tolerance` of each model's size, against `standard`.
fn check_folder_within(fixtures: &Path, models: &Path, relative_tolerance: f64, standard: Standard) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures)
        .expect("fixture folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().contains(".anim")))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no fixtures in {}", fixtures.display());
    let errors: Vec<String> = paths.iter().flat_map(|p| check(p, models, relative_tolerance, standard)).collect();
    assert!(errors.is_empty(), "{} mismatches against the oracle:\n{}", errors.len(), errors.join("\n"));
}

#[test]
fn sample_models_match_the_oracle() {
    let tests = workspace_tests();
    check_folder(&tests.join("oracle"), &tests.join("models"));
}

#[test]
fn generated_models_match_the_oracle() {
    let tests = workspace_tests();
    check_folder(&tests.join("oracle/generated"), &tests.join("models/generated"));
}

/// Files that break a rule the way real exporters do (`tests/models/lenient/`): two channels
/// on one property mixed as three.js mixes them, strides on sampler and inverse bind matrix
/// views, a scene listing a child node, vertices bound to no joint, an attribute of no name
/// glTF defines, a gap between UV sets. Held to three.js's draw: the formula puts a vertex of
/// weights all zero at the origin, three.js on its first joint.
#[test]
fn lenient_models_match_the_oracle() {
    let tests = workspace_tests();
    check_folder_within(&tests.join("oracle/lenient"), &tests.join("models/lenient"), TOLERANCE, Standard::Drawn);
}

/// gltfpack's meshopt-compressed output (`tests/models/meshopt/`, see its `make.sh`): every
/// mode and filter it writes (vertex attributes, triangles; exponential positions, quaternion
/// rotations, octahedral normals), decoded by meshoptimizer here and by three.js's
/// MeshoptDecoder for the reference.
#[test]
fn meshopt_models_match_the_oracle() {
    let tests = workspace_tests();
    check_folder(&tests.join("oracle/meshopt"), &tests.join("models/meshopt"));
}

/// The same models' decoded geometry in the rest pose, within 1e-5 of their size.
#[test]
fn meshopt_geometry_decodes_as_three_js_decodes_it() {
    let tests = workspace_tests();
    check_folder_within(&tests.join("oracle/meshopt_rest"), &tests.join("models/meshopt"), 1e-5, Standard::Formula);
}

/// glTF-Transform's Draco-compressed output (`tests/models/draco/`, see its `make.sh`):
/// edgebreaker and sequential connectivity, skins, two primitives, uncompressed morph targets
/// beside compressed attributes, decoded here by `draco-core` and for the reference by
/// three.js's DRACOLoader running Google's decoder.
#[test]
fn draco_models_match_the_oracle() {
    let tests = workspace_tests();
    check_folder(&tests.join("oracle/draco"), &tests.join("models/draco"));
}

/// The same models' decoded geometry in the rest pose, within 1e-5 of their size.
#[test]
fn draco_geometry_decodes_as_three_js_decodes_it() {
    let tests = workspace_tests();
    check_folder_within(&tests.join("oracle/draco_rest"), &tests.join("models/draco"), 1e-5, Standard::Formula);
}

/// Blender 3.4's exporter output (`tests/models/blender/`): 16-24 influences, shape keys with
/// a skin, two armatures, a 20 s clip.
#[test]
fn blender_exports_match_the_oracle() {
    let tests = workspace_tests();
    check_folder(&tests.join("oracle/blender"), &tests.join("models/blender"));
}
