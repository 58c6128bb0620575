//! Khronos's test models in `../shared/models/khronos/` (texture transforms, normal tangents,
//! morph stress, a traffic light carrying lights, animation pointers) load, read from there:
//! the test skips with a message when `../shared` is absent, and fails instead under CI.

use std::path::{Path, PathBuf};

use props_anim::light::LightKind;
use props_gltf::Limits;
use props_gltf::gate::admit_file;
use props_gltf::validate::{Outcome, Severity};

/// The folder of Khronos's models, if this checkout has `../shared` beside it.
pub fn khronos_models() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/models/khronos");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(std::env::var_os("CI").is_none(), "{} is missing, and CI is set", dir.display());
    eprintln!("skipped: {} is absent (the project's shared folder)", dir.display());
    None
}

#[test]
fn khronos_test_models_load_whole() {
    let Some(dir) = khronos_models() else { return };
    for file in [
        "MorphStressTest.glb",
        "NormalTangentTest.glb",
        "TextureTransformTest/TextureTransformTest.gltf",
        "TrafficLight.glb",
        "WhackAMole.glb",
    ] {
        let admitted = admit_file(&dir.join(file), &Limits::default()).unwrap_or_else(|refused| panic!("{refused}"));
        let report = &admitted.report;
        assert!(matches!(report.outcome(), Outcome::Loads { dropped, .. } if dropped.is_empty()), "{report}");
        assert!(report.issues.iter().all(|i| i.severity == Severity::Warning), "{report}");
        assert!(!admitted.import.model.meshes().is_empty(), "{file}");
    }
}

/// The traffic light's light is read (the extension in `extensionsRequired` does not refuse it,
/// several exporters list it there): its kind, colour, intensity and node.
#[test]
fn the_traffic_light_s_light_is_read() {
    let Some(dir) = khronos_models() else { return };
    let admitted = admit_file(&dir.join("TrafficLight.glb"), &Limits::default()).expect("admitted");
    let model = &admitted.import.model;
    let [light] = model.lights() else { panic!("one light: {:?}", model.lights()) };
    assert_eq!((light.kind, light.name.as_deref()), (LightKind::Directional, Some("Directional Light")));
    assert_eq!(
        (light.color, light.intensity, light.range),
        ([1.0, 0.904_661_36, 0.672_443_2], std::f32::consts::PI, None)
    );
    let [placed] = model.light_instances() else { panic!("one node carries it") };
    assert_eq!(placed.light, 0);
    assert!(model.rig().name(placed.node).is_some_and(|name| !name.is_empty()));
}
