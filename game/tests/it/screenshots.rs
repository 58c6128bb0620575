//! `--headless --screenshot`: the demo's image is a golden one, and the same on every run.

use props_tests::golden::{Threshold, check_golden};

use crate::support::{TempDir, game, have_gpu, root};

/// Same slack as the props goldens (`tests/gpu/goldens.rs`). The golden was rendered on
/// lavapipe (llvmpipe 15, Vulkan, 4x MSAA), which CI uses and which reproduces it exactly;
/// llvmpipe through GL (`WGPU_BACKEND=gl`) measured mean FLIP 0.0093, p99 0.039 against it
/// (a quarter of its pixels one 8-bit level apart, eight edge pixels more).
const GOLDEN: Threshold = Threshold { mean: 0.01, p99: 0.2 };

/// Runs the demo headless for `frames` fixed steps of 1/60 s with the example mod (and
/// `extra` options), and returns the screenshot.
fn screenshot(dir: &TempDir, name: &str, frames: &str, extra: &[&str]) -> image::RgbaImage {
    let mods = dir.path().join("mods");
    std::fs::create_dir_all(mods.join("example")).expect("mods folder");
    std::fs::copy(root().join("mods/example/spinning_sign.gltf"), mods.join("example/spinning_sign.gltf"))
        .expect("copy the example mod");
    let out = dir.path().join(format!("{name}.png"));
    let mods = mods.to_str().expect("UTF-8 temporary path");
    let mut args = extra.to_vec();
    args.extend([
        "--headless",
        "--frames",
        frames,
        "--fixed-dt",
        "0.016666668",
        "--size",
        "320x180",
        "--mods",
        mods,
        "--screenshot",
        out.to_str().expect("UTF-8 temporary path"),
    ]);
    let status = game(&args).status().expect("run the game");
    assert!(status.success(), "the game failed: {status}");
    image::open(&out).expect("the screenshot is a PNG").to_rgba8()
}

#[test]
fn headless_demo_matches_its_golden_image_and_repeats_exactly() {
    if !have_gpu() {
        return;
    }
    let dir = TempDir::new("screenshot");
    let first = screenshot(&dir, "first", "90", &[]);
    let second = screenshot(&dir, "second", "90", &[]);
    assert_eq!(first.dimensions(), (320, 180));
    assert!(first == second, "two runs with the same seed and --fixed-dt gave different images");
    check_golden("game-demo", &first, GOLDEN);
}

/// Relative luminance of an sRGB pixel, 0 to 1 (on the encoded values: enough to rank them).
fn luminance(p: &image::Rgba<u8>) -> f32 {
    (0.2126 * f32::from(p[0]) + 0.7152 * f32::from(p[1]) + 0.0722 * f32::from(p[2])) / 255.0
}

/// The town at dusk and midnight (the hour held) matches its golden images (noon's is the
/// demo's, above); at 22:00 the town is dark but its lamps glow: lit windows, street lamps,
/// signals, seen on the image as warm pixels far brighter than the night around them.
#[test]
fn the_town_by_day_dusk_and_night_matches_its_golden_images() {
    if !have_gpu() {
        return;
    }
    let dir = TempDir::new("daylight");
    // Ten frames: the hour holds, and the game's other tests share the two cores meanwhile.
    let at = |hour: &str| screenshot(&dir, &hour.replace(':', ""), "10", &["--time-of-day", hour, "--day-length", "0"]);
    let noon = image::open(props_tests::golden::golden_path("game-demo")).expect("the demo's golden").to_rgba8();
    let (dusk, night) = (at("18:00"), at("22:00"));
    let mean = |image: &image::RgbaImage| image.pixels().map(luminance).sum::<f32>() / image.pixels().len() as f32;
    let (day_light, night_light) = (mean(&noon), mean(&night));
    eprintln!("mean luminance: noon {day_light:.3}, dusk {:.3}, night {night_light:.3}", mean(&dusk));
    assert!(night_light < 0.4 * day_light, "the night is dark: {night_light} against {day_light} at noon");
    // What glows at night: warm pixels far above the night's mean.
    let glowing = night.pixels().filter(|p| luminance(p) > night_light + 0.35 && p[0] > p[2]).count();
    assert!(glowing >= 20, "{glowing} glowing warm pixels at 22:00: the lamps and windows should be lit");
    let (difference, _) = props_tests::golden::compare(&night, &noon);
    assert!(difference.mean > 0.1, "night differs from noon: mean FLIP {}", difference.mean);
    check_golden("game-dusk", &dusk, GOLDEN);
    check_golden("game-midnight", &at("00:00"), GOLDEN);
}
