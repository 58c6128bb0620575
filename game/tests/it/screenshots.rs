//! `--headless --screenshot`: the demo's image is a golden one, and the same on every run.

use props_tests::golden::{Threshold, check_golden};

use crate::support::{TempDir, game, have_gpu, root};

/// Same slack as the props goldens (`tests/gpu/goldens.rs`). The golden was rendered on
/// lavapipe (llvmpipe 15, Vulkan, 4x MSAA), which CI uses and which reproduces it exactly;
/// llvmpipe through GL (`WGPU_BACKEND=gl`) measured mean FLIP 0.0002, p99 0.136 against it.
const GOLDEN: Threshold = Threshold { mean: 0.01, p99: 0.2 };

/// Runs the demo headless for 90 fixed steps of 1/60 s with the example mod, and returns
/// the screenshot.
fn screenshot(dir: &TempDir, name: &str) -> image::RgbaImage {
    let mods = dir.path().join("mods");
    std::fs::create_dir_all(mods.join("example")).expect("mods folder");
    std::fs::copy(root().join("mods/example/spinning_sign.gltf"), mods.join("example/spinning_sign.gltf"))
        .expect("copy the example mod");
    let out = dir.path().join(format!("{name}.png"));
    let mods = mods.to_str().expect("UTF-8 temporary path");
    let status = game(&[
        "--headless",
        "--frames",
        "90",
        "--fixed-dt",
        "0.016666668",
        "--size",
        "320x180",
        "--mods",
        mods,
        "--screenshot",
        out.to_str().expect("UTF-8 temporary path"),
    ])
    .status()
    .expect("run the game");
    assert!(status.success(), "the game failed: {status}");
    image::open(&out).expect("the screenshot is a PNG").to_rgba8()
}

#[test]
fn headless_demo_matches_its_golden_image_and_repeats_exactly() {
    if !have_gpu() {
        return;
    }
    let dir = TempDir::new("screenshot");
    let first = screenshot(&dir, "first");
    let second = screenshot(&dir, "second");
    assert_eq!(first.dimensions(), (320, 180));
    assert!(first == second, "two runs with the same seed and --fixed-dt gave different images");
    check_golden("game-demo", &first, GOLDEN);
}
