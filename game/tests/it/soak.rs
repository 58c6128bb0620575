//! A bounded soak: hundreds of random writes, truncations, renames and deletes in the mods
//! folder while the game runs headless, the writes drawing from good models, base models and
//! every hostile case of the fuzzer's corpus. Nothing crashes, the game's peak memory stays
//! within the mods' budget, and once every mod is gone the GPU holds exactly the base models
//! again (no leak of GPU models).

use std::time::{Duration, Instant};

use props_fuzz::hostile;
use props_fuzz::rng::{Below, seeded};

use crate::hostile::GROWTH_BOUND_KIB;
use crate::support::{BASE_GPU_MODELS, Running, have_gpu, root};

/// Random operations, and the time they are spread over.
const OPERATIONS: usize = 300;
const SPREAD: Duration = Duration::from_secs(12);

#[test]
fn hundreds_of_random_mod_changes_leave_no_gpu_model_behind() {
    if !have_gpu() {
        return;
    }
    let good = std::fs::read(root().join("mods/example/spinning_sign.gltf")).expect("the example mod");
    let windmill = std::fs::read(root().join("assets/windmill.glb")).expect("the windmill");
    let car = std::fs::read(root().join("assets/car.glb")).expect("the car");
    // The hostile cases' model files (their FIFOs and links are the hostile test's).
    let hostile: Vec<Vec<u8>> = hostile::cases()
        .into_iter()
        .filter_map(|case| case.files.into_iter().find(|(path, _)| *path == case.model).map(|(_, bytes)| bytes))
        .collect();
    let names = ["pack/a.gltf", "pack/b.gltf", "c.gltf", "pack/windmill.glb", "pack/car.glb", "d.glb"];
    let (_dir, mods, mut running) = Running::with_fresh_mods("soak", &["pack"], 120);
    let baseline = running.memory_kib("VmRSS");

    let seed = 0x5eed_50a4;
    let mut rng = seeded(seed);
    let started = Instant::now();
    for operation in 0..OPERATIONS {
        let name = names[rng.below(names.len())];
        let path = mods.join(name);
        let content: &[u8] = match (name.ends_with(".glb"), rng.below(3)) {
            (_, 0) => &hostile[rng.below(hostile.len())],
            (true, 1) => &windmill,
            (true, _) => &car,
            (false, _) => &good,
        };
        // Errors are fine: a file may be missing when it is renamed or deleted.
        let _ = match rng.below(6) {
            0 | 1 => std::fs::write(&path, content),
            2 => std::fs::write(&path, &content[..rng.below(content.len())]),
            3 => std::fs::write(&path, b"{ not json"),
            4 => std::fs::rename(&path, mods.join(names[rng.below(names.len())])),
            _ => std::fs::remove_file(&path),
        };
        let due = SPREAD.mul_f64((operation + 1) as f64 / OPERATIONS as f64);
        std::thread::sleep(due.saturating_sub(started.elapsed()));
    }
    for name in names {
        let _ = std::fs::remove_file(mods.join(name));
    }
    // A last model, loaded and removed after every other change: once its removal is logged,
    // the loader has caught up with the deletions above (they fell due earlier).
    let sentinel = mods.join("zz_sentinel.gltf");
    std::fs::write(&sentinel, &good).expect("write the sentinel");
    running.expect("mod loaded", Duration::from_secs(30), |l| l["model"] == "zz_sentinel");
    std::fs::remove_file(&sentinel).expect("delete the sentinel");
    running.expect("mod removed", Duration::from_secs(30), |l| l["model"] == "zz_sentinel");

    let peak = running.memory_kib("VmHWM");
    let (success, log) = running.stop(Duration::from_secs(60));
    assert!(success, "the game failed (seed {seed:#x})");
    if let (Some(baseline), Some(peak)) = (baseline, peak) {
        eprintln!("soak memory: {} MiB at start, peak {} MiB", baseline / 1024, peak / 1024);
        assert!(peak <= baseline + GROWTH_BOUND_KIB, "peak {peak} KiB, baseline {baseline} KiB (seed {seed:#x})");
    }
    let loaded = log.iter().filter(|l| l["message"] == "mod loaded").count();
    let rejected = log.iter().filter(|l| l["message"] == "mod rejected").count();
    eprintln!("soak: {OPERATIONS} operations, {loaded} reloads, {rejected} rejections");
    assert!(loaded > 0 && rejected > 0, "the soak exercised both paths");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    // On failure: each path's events, to see which one stayed.
    let history = |path: &str| -> Vec<String> {
        log.iter()
            .filter(|l| l["path"].as_str().is_some_and(|p| p.ends_with(path)))
            .map(|l| format!("{} {}", l["message"], l["error"]))
            .collect()
    };
    let histories: Vec<(&str, Vec<String>)> = names.iter().map(|name| (*name, history(name))).collect();
    assert_eq!(finished["mods"], 0, "{finished}\n{histories:#?}");
    assert_eq!(finished["gpu_models"], BASE_GPU_MODELS, "the ground and the base models, nothing else: {finished}");
}
