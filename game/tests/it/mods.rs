//! Mods while the game runs headless: a model is written, broken, truncated, made to reach
//! outside its folder, fixed and deleted; base models are overridden and reverted. Every
//! change shows up as one JSON log line and the game exits cleanly.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::support::{BASE_GPU_MODELS, Running, have_gpu, root};

/// How long one reload may take to show up in the log.
const EVENT: Duration = Duration::from_secs(20);

fn path_ends_with(line: &Value, suffix: &str) -> bool {
    line["path"].as_str().is_some_and(|p| Path::new(p).ends_with(suffix))
}

#[test]
fn mods_load_reject_fix_and_remove_while_the_game_runs() {
    if !have_gpu() {
        return;
    }
    let good = std::fs::read_to_string(root().join("mods/example/spinning_sign.gltf")).expect("the example mod");
    let escaping = {
        let mut json: Value = serde_json::from_str(&good).expect("the example is JSON");
        json["buffers"][0]["uri"] = "../../outside.bin".into();
        json.to_string()
    };
    let (_dir, mods, mut running) = Running::with_fresh_mods("mods-e2e", &["pack"], 120);
    let pack = mods.join("pack");
    let sign = pack.join("sign.gltf");

    std::fs::write(&sign, &good).expect("write a good model");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/sign.gltf"));
    assert_eq!(loaded["model"], "sign");
    assert_eq!(loaded["place"], "lot");
    assert!(loaded["ms"].as_str().and_then(|ms| ms.parse::<f64>().ok()).is_some(), "{loaded}");

    std::fs::write(&sign, "{ \"asset\": { \"version\": \"2.0\" }, \"nodes\": [ { \"mesh\": 7 } ] }").expect("break it");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "pack/sign.gltf"));
    let error = rejected["error"].as_str().expect("an error string");
    assert!(error.contains("sign.gltf: /nodes/0/mesh: error[UNRESOLVED_REFERENCE]"), "{error}");

    std::fs::write(&sign, &good[..good.len() / 2]).expect("truncate it");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "pack/sign.gltf"));
    assert!(
        rejected["error"].as_str().is_some_and(|e| e.contains("error[INVALID_JSON]: not valid JSON")),
        "{rejected}"
    );

    std::fs::write(&sign, &escaping).expect("point outside the folder");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "pack/sign.gltf"));
    let error = rejected["error"].as_str().expect("an error string");
    assert!(error.contains("/buffers/0/uri: error[PROPS_URI_OUTSIDE_FOLDER]") && error.contains("'..'"), "{error}");

    std::fs::write(&sign, &good).expect("fix it");
    running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/sign.gltf"));

    // A base model overridden: a car saved as windmill.glb lacks the windmill's nodes and is
    // refused by the scene; the real windmill is taken; deleting it reverts to the base.
    let windmill = pack.join("windmill.glb");
    std::fs::copy(root().join("assets/car.glb"), &windmill).expect("copy");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "pack/windmill.glb"));
    assert!(rejected["error"].as_str().is_some_and(|e| e.contains("no node named")), "{rejected}");
    std::fs::copy(root().join("assets/windmill.glb"), &windmill).expect("copy");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/windmill.glb"));
    assert_eq!((loaded["place"].as_str(), loaded["replaces"].as_str()), (Some("hills"), Some("windmill")));
    std::fs::remove_file(&windmill).expect("delete the override");
    running.expect("mod removed", EVENT, |l| path_ends_with(l, "pack/windmill.glb"));

    std::fs::remove_file(&sign).expect("delete the model");
    running.expect("mod removed", EVENT, |l| path_ends_with(l, "pack/sign.gltf"));

    let (success, log) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    // Six props (the bus and the street lamp too), the ground and the houses: the lot model's
    // GPU copy was freed.
    assert_eq!(finished["gpu_models"], BASE_GPU_MODELS, "{finished}");
    assert_eq!(finished["mods"], 0, "{finished}");
    // (wgpu may log an error while probing backends that do not exist here.)
    let errors: Vec<&Value> = log
        .iter()
        .filter(|l| l["level"] == "ERROR" && !l["target"].as_str().is_some_and(|t| t.starts_with("wgpu")))
        .collect();
    assert!(errors.is_empty(), "errors were logged: {errors:#?}");
}

/// A model far off the size its place expects is fitted to it, with a warning that gives its
/// size in metres: the Fox (in centimetres) dropped on the lot would stand 81 m tall.
#[test]
fn a_mod_far_off_its_size_is_fitted_and_warned_about() {
    if !have_gpu() {
        return;
    }
    let (_dir, mods, mut running) = Running::with_fresh_mods("mods-fit", &["pack"], 60);
    let pack = mods.join("pack");
    std::fs::copy(root().join("assets/Fox.glb"), pack.join("big_fox.glb")).expect("copy");
    let warning = running.expect("mod warning", EVENT, |l| {
        path_ends_with(l, "pack/big_fox.glb") && l["warning"].as_str().is_some_and(|w| w.contains("PROPS_FITTED"))
    });
    let text = warning["warning"].as_str().unwrap_or_default();
    assert!(text.contains("81.") && text.contains("m tall") && text.contains("1.8 m"), "{warning}");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/big_fox.glb"));
    assert_eq!(loaded["place"], "lot");
    let (success, _) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed");
}

/// A sidecar gives a model of any name a role, its units and its bindings: a car-shaped
/// `truck.glb` with `role = "car"` drives in traffic beside the base car; a sidecar naming a node the model lacks
/// is refused like a bad model, keeping the last good version; fixing it re-binds. The Fox
/// as an ambient prop in its own units loops the clip its sidecar names, unfitted; as
/// `vixen.glb` with `role = "animal"`, and no clip named `Run` (as many downloaded animals),
/// it walks the parks beside the base fox.
#[test]
fn sidecars_place_bind_and_are_refused_like_models() {
    if !have_gpu() {
        return;
    }
    let (_dir, mods, mut running) = Running::with_fresh_mods("mods-sidecar", &["pack"], 90);
    let pack = mods.join("pack");

    let sidecar = pack.join("truck.prop.toml");
    std::fs::write(&sidecar, "role = \"car\"\n").expect("sidecar");
    std::fs::copy(root().join("assets/car.glb"), pack.join("truck.glb")).expect("copy");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/truck.glb"));
    // Named otherwise than `car`, a car by its sidecar drives beside the base car.
    assert_eq!((loaded["place"].as_str(), loaded["adds"].as_str()), (Some("traffic"), Some("car")), "{loaded}");

    std::fs::write(&sidecar, "role = \"car\"\n[nodes]\nwheels = [\"wheel_front_left\", \"axle\"]\n").expect("break");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "pack/truck.glb"));
    let error = rejected["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("truck.prop.toml: /nodes/wheels/1: error[PROPS_SIDECAR]: the model has no node `axle`"),
        "{error}"
    );

    let bound = "role = \"car\"\nunits = 1.0\n[nodes]\nwheels = [\"wheel_rear_left\", \"wheel_rear_right\"]\n";
    std::fs::write(&sidecar, bound).expect("fix");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/truck.glb"));
    assert_eq!(loaded["place"], "traffic");

    std::fs::write(pack.join("fox_statue.prop.toml"), "role = \"ambient\"\nunits = 0.01\nclip = \"Run\"\n")
        .expect("sidecar");
    std::fs::copy(root().join("assets/Fox.glb"), pack.join("fox_statue.glb")).expect("copy");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/fox_statue.glb"));
    assert_eq!(loaded["place"], "lot");

    std::fs::write(pack.join("vixen.prop.toml"), "role = \"animal\"\nunits = 0.01\n").expect("sidecar");
    let fox = std::fs::read(root().join("assets/Fox.glb")).expect("the fox");
    let run = fox.windows(5).position(|w| w == b"\"Run\"").expect("a clip named Run");
    let mut vixen = fox.clone();
    vixen[run..run + 5].copy_from_slice(b"\"Hop\"");
    std::fs::write(pack.join("vixen.glb"), vixen).expect("the vixen");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/vixen.glb"));
    assert_eq!((loaded["place"].as_str(), loaded["adds"].as_str()), (Some("parks"), Some("Fox")), "{loaded}");
    let (success, log) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    // Six props (the bus and the street lamp too), the ground, the houses, the truck beside
    // the car, the fox statue, the vixen beside the fox.
    assert_eq!(
        (finished["gpu_models"].as_u64(), finished["mods"].as_u64()),
        (Some(BASE_GPU_MODELS + 3), Some(3)),
        "{finished}"
    );
    let fitted = log.iter().any(|l| {
        path_ends_with(l, "pack/fox_statue.glb") && l["warning"].as_str().is_some_and(|w| w.contains("PROPS_FITTED"))
    });
    assert!(!fitted, "units given: not fitted");
}

/// Of several overrides of one base model, the first by path shows, checked against the scene
/// when its turn comes: `a/` (a car saved as the windmill) is refused, `b/` shows, `c/` waits
/// behind it and shows once `b/` goes; with both gone the base windmill is back.
#[test]
fn of_several_overrides_the_first_by_path_shows_and_the_next_follows() {
    if !have_gpu() {
        return;
    }
    let (_dir, mods, mut running) = Running::with_fresh_mods("mods-first", &["a", "b", "c"], 90);
    let windmill = root().join("assets/windmill.glb");

    std::fs::copy(&windmill, mods.join("b/windmill.glb")).expect("copy");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "b/windmill.glb"));
    assert_eq!(loaded["replaces"], "windmill", "{loaded}");
    // First by path, so checked against the scene at once: it lacks the windmill's nodes.
    std::fs::copy(root().join("assets/car.glb"), mods.join("a/windmill.glb")).expect("copy");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "a/windmill.glb"));
    assert!(rejected["error"].as_str().is_some_and(|e| e.contains("error[PROPS_RIG]")), "{rejected}");
    std::fs::copy(&windmill, mods.join("c/windmill.glb")).expect("copy");
    let waits = running.expect("mod waits behind another of its name", EVENT, |l| path_ends_with(l, "c/windmill.glb"));
    assert!(waits["by"].as_str().is_some_and(|by| by.ends_with("b/windmill.glb")), "{waits}");

    std::fs::remove_file(mods.join("b/windmill.glb")).expect("delete b");
    running.expect("mod removed", EVENT, |l| path_ends_with(l, "b/windmill.glb"));
    let next = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "c/windmill.glb"));
    assert_eq!(next["replaces"], "windmill", "{next}");
    std::fs::remove_file(mods.join("c/windmill.glb")).expect("delete c");
    running.expect("mod removed", EVENT, |l| path_ends_with(l, "c/windmill.glb"));

    let (success, log) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    assert_eq!(
        (finished["gpu_models"].as_u64(), finished["mods"].as_u64()),
        (Some(BASE_GPU_MODELS), Some(0)),
        "{finished}"
    );
}

/// A mod whose sidecar changes its role moves: `coach.glb` as the bus replaces the bus, then as
/// an ambient prop stands on the lot and the base bus is back; deleting it leaves no model or
/// mod behind.
#[test]
fn a_mod_whose_sidecar_changes_role_moves_and_leaves_nothing_behind() {
    if !have_gpu() {
        return;
    }
    let (_dir, mods, mut running) = Running::with_fresh_mods("mods-move", &["pack"], 90);
    let pack = mods.join("pack");

    let sidecar = pack.join("coach.prop.toml");
    std::fs::write(&sidecar, "role = \"bus\"\n").expect("sidecar");
    std::fs::copy(root().join("assets/bus.glb"), pack.join("coach.glb")).expect("copy");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/coach.glb"));
    assert_eq!(loaded["replaces"], "bus", "{loaded}");

    std::fs::write(&sidecar, "role = \"ambient\"\nunits = 1.0\n").expect("sidecar");
    let moved = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "pack/coach.glb") && l["place"] == "lot");
    assert_eq!(moved["replaces"], "", "{moved}");

    std::fs::remove_file(pack.join("coach.glb")).expect("delete");
    running.expect("mod removed", EVENT, |l| path_ends_with(l, "pack/coach.glb"));
    let (success, log) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    assert_eq!(
        (finished["gpu_models"].as_u64(), finished["mods"].as_u64()),
        (Some(BASE_GPU_MODELS), Some(0)),
        "{finished}"
    );
}

/// A humanoid without clips (Mixamo's names, in centimetres, in a T-pose) dropped in with
/// `role = "pedestrian"` walks the sidewalks beside the base person, with the base person's
/// clips retargeted to its rig; a model that is no humanoid and has no walk is refused, and
/// says why.
#[test]
fn a_humanoid_without_clips_walks_the_sidewalks_with_the_base_clips() {
    if !have_gpu() {
        return;
    }
    let (_dir, mods, mut running) = Running::with_fresh_mods("mods-humanoid", &["people"], 60);
    let people = mods.join("people");
    std::fs::write(people.join("walker.prop.toml"), "role = \"pedestrian\"\n").expect("sidecar");
    let dropped = std::time::Instant::now();
    std::fs::copy(root().join("tests/models/humanoids/mixamo_person.glb"), people.join("walker.glb")).expect("copy");
    let loaded = running.expect("mod loaded", EVENT, |l| path_ends_with(l, "people/walker.glb"));
    eprintln!("the humanoid walks {:.2} s after it was dropped in", dropped.elapsed().as_secs_f32());
    assert_eq!(
        (loaded["place"].as_str(), loaded["adds"].as_str()),
        (Some("sidewalks"), Some("pedestrian")),
        "{loaded}"
    );

    std::fs::write(people.join("boxy.prop.toml"), "role = \"pedestrian\"\n").expect("sidecar");
    std::fs::copy(root().join("assets/car.glb"), people.join("boxy.glb")).expect("copy");
    let rejected = running.expect("mod rejected", EVENT, |l| path_ends_with(l, "people/boxy.glb"));
    let error = rejected["error"].as_str().unwrap_or_default();
    assert!(error.contains("no clip `Walk`") && error.contains("leftUpperLeg"), "{error}");
    let (success, log) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    assert_eq!(
        (finished["gpu_models"].as_u64(), finished["mods"].as_u64()),
        (Some(BASE_GPU_MODELS + 1), Some(1)),
        "{finished}"
    );
}
