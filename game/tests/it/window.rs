//! The windowed mode under Xvfb: starts, renders a few frames with the HUD, exits cleanly, the
//! city too; a lost GPU device is recreated with its surface and HUD; and it opens on OpenGL.

use std::path::PathBuf;

use crate::city::CITY;
use crate::support::{TempDir, game, under_xvfb};

/// Runs the windowed game under Xvfb with `args` (plus a fresh mods folder); returns its log.
/// `None` when it cannot run here (no GPU, no Xvfb outside CI).
fn run_window(name: &str, args: &[&str]) -> Option<String> {
    run_window_on(name, args, None)
}

/// [`run_window`] on the wgpu backend `backend` names (`WGPU_BACKEND`), if given.
fn run_window_on(name: &str, args: &[&str], backend: Option<&str>) -> Option<String> {
    let mods = TempDir::new(name);
    let mut all = args.to_vec();
    all.push("--mods");
    let mut game = game(&all);
    game.arg(mods.path());
    if let Some(backend) = backend {
        game.env("WGPU_BACKEND", backend);
    }
    let output = under_xvfb(&game)?.output().expect("run xvfb-run");
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "the windowed game failed ({}):\n{log}", output.status);
    assert!(log.contains("rendering to a window"), "{log}");
    Some(log)
}

/// Runs a small town (20 windmills, 320x240) for 5 frames in the window on `backend` (as
/// [`run_window_on`]), asking for a screenshot in a fresh folder: its log, the folder (kept
/// while the caller reads it) and the screenshot's path.
fn small_town_with_screenshot(name: &str, backend: Option<&str>) -> Option<(String, TempDir, PathBuf)> {
    let shots = TempDir::new(&format!("{name}-shot"));
    let shot = shots.path().join("last.png");
    let shot_arg = shot.to_str().expect("UTF-8 path");
    let args = ["--frames", "5", "--size", "320x240", "--windmills", "20", "--screenshot", shot_arg];
    let log = run_window_on(name, &args, backend)?;
    Some((log, shots, shot))
}

/// On wgpu's OpenGL backend (llvmpipe in CI), whose surfaces have no second view format, the
/// window draws the town and its HUD, the HUD through the sRGB view; the game panicked there
/// before, its surface left unconfigured. Such a surface cannot be copied: the screenshot is
/// left out with a warning.
#[test]
fn the_window_opens_on_opengl() {
    let Some((log, _shots, shot)) = small_town_with_screenshot("window-gl", Some("gl")) else { return };
    assert!(!shot.exists(), "no screenshot through an uncopyable surface");
    assert!(log.contains("backend=Gl"), "{log}");
    assert!(log.contains("cannot be copied: no screenshot"), "{log}");
    assert!(!log.contains("ERROR"), "{log}");
}

#[test]
fn window_opens_renders_and_exits_after_its_frames() {
    let Some((log, _shots, shot)) = small_town_with_screenshot("window", None) else { return };
    // The last frame as shown, HUD included, through the surface (what F12 writes too).
    assert!(log.contains("screenshot written"), "{log}");
    let image = image::open(&shot).expect("a PNG").to_rgba8();
    assert_eq!(image.dimensions(), (320, 240));
    let colours: std::collections::BTreeSet<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    assert!(colours.len() > 50, "a drawn town and HUD, not a blank: {} colours", colours.len());
}

#[test]
fn the_city_runs_in_the_window() {
    run_window("window-city", &CITY);
}

#[test]
fn a_lost_device_is_recreated_in_the_window() {
    let args = ["--frames", "12", "--size", "320x240", "--windmills", "20", "--lose-device-after", "4"];
    if let Some(log) = run_window("window-loss", &args) {
        assert!(log.contains("GPU device recreated"), "{log}");
    }
}
