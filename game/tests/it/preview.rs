//! The model previewer (`game --preview FILE`) in a window under Xvfb: it shows the model at
//! the clip and time asked for, and reloads it on save; a broken save keeps the last good
//! version showing, with the reason logged; headless, it draws the treadmill frame by frame.

use std::time::Duration;

use crate::support::{Running, TempDir, game, have_gpu, root, under_xvfb};

/// The sky the previewer clears to, as the screenshot has it (sRGB).
fn is_sky(pixel: &image::Rgba<u8>) -> bool {
    let [r, g, b, _] = pixel.0;
    b > 200 && r > 120 && r < 200 && g > 160
}

#[test]
fn the_previewer_shows_the_model_at_the_clip_and_time_asked_for() {
    let shots = TempDir::new("preview-shot");
    let shot = shots.path().join("bus.png");
    let args = [
        "--preview",
        "assets/bus.glb",
        "--clip",
        "door_front",
        "--time",
        "1.2",
        "--frames",
        "3",
        "--size",
        "800x480",
        "--screenshot",
        shot.to_str().expect("UTF-8 path"),
    ];
    let Some(mut command) = under_xvfb(&game(&args)) else { return };
    let output = command.output().expect("run the previewer");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the previewer failed:\n{log}");
    assert!(log.contains("preview loaded"), "{log}");
    let image = image::open(&shot).expect("a PNG").to_rgba8();
    // Right of the HUD (which ends near x = 505), around the middle: the bus, not the sky.
    let model: usize = (520..760)
        .flat_map(|x| (140..340).map(move |y| (x, y)))
        .filter(|&(x, y)| !is_sky(image.get_pixel(x, y)))
        .count();
    assert!(model > 1000, "{model} pixels of the bus");
}

#[test]
fn a_save_reloads_the_model_and_a_broken_one_keeps_the_last_good() {
    let dir = TempDir::new("preview-reload");
    let file = dir.path().join("prop.glb");
    std::fs::copy(root().join("assets/car.glb"), &file).expect("copy the car");
    let path = file.to_str().expect("UTF-8 path");
    let args = ["--preview", path, "--run-for", "25", "--size", "320x240", "--log-format", "json"];
    let Some(command) = under_xvfb(&game(&args)) else { return };
    let mut running = Running::start(command);
    let wait = Duration::from_secs(60);
    running.expect("preview loaded", wait, |l| l["version"] == 1);
    // A broken save: refused, the car still shows.
    std::fs::write(&file, b"glTF not really").expect("break the file");
    let refused = running.expect("preview refused", wait, |_| true);
    assert!(refused["reason"].as_str().is_some_and(|r| r.contains("error[")), "{refused}");
    // A good save: the bus replaces it.
    std::fs::copy(root().join("assets/bus.glb"), &file).expect("copy the bus");
    let loaded = running.expect("preview loaded", wait, |_| true);
    assert!(loaded["version"].as_u64().is_some_and(|v| v >= 3), "{loaded}");
    let (success, log) = running.wait(Duration::from_secs(90));
    assert!(success, "the previewer failed: {log:#?}");
}

/// `--walk`: a humanoid without clips (Mixamo's names) on the treadmill walks with the base
/// person's clips, retargeted, the ground's lines passing under it.
#[test]
fn the_treadmill_walks_a_humanoid_with_the_base_person_s_clips() {
    let shots = TempDir::new("preview-treadmill");
    let shot = shots.path().join("walker.png");
    let args = [
        "--preview",
        "tests/models/humanoids/mixamo_person.glb",
        "--walk",
        "1.4",
        "--frames",
        "20",
        "--size",
        "800x480",
        "--screenshot",
        shot.to_str().expect("UTF-8 path"),
    ];
    let Some(mut command) = under_xvfb(&game(&args)) else { return };
    let output = command.output().expect("run the previewer");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the previewer failed:\n{log}");
    assert!(
        log.contains("on the treadmill") && log.contains("the base person's clips, retargeted (Mixamo names)"),
        "{log}"
    );
    // Right of the HUD (which ends near x = 505), below the model: the treadmill's lines
    // (none without the treadmill).
    let image = image::open(&shot).expect("a PNG").to_rgba8();
    let lines = (520..800)
        .flat_map(|x| (300..480).map(move |y| (x, y)))
        .filter(|&(x, y)| !is_sky(image.get_pixel(x, y)))
        .count();
    assert!(lines > 100, "{lines} pixels of the treadmill's lines");
}

/// Headless, the previewer steps by `--fixed-dt`: a VRM 0.x avatar (its bones named only by
/// its VRM table, facing -Z in its file) walks on the treadmill with the base person's clips,
/// each run drawing the same still at the same frame, and a later frame another.
#[test]
fn headless_the_treadmill_walks_a_vrm_avatar_the_same_on_every_run() {
    if !have_gpu() {
        eprintln!("skipped: no GPU adapter");
        return;
    }
    let shots = TempDir::new("preview-headless-walk");
    let still = |frames: &str, name: &str| {
        let shot = shots.path().join(name);
        let args = [
            "--headless",
            "--preview",
            "tests/models/humanoids/vrm0_person.vrm",
            "--walk",
            "1.4",
            "--fixed-dt",
            "0.0166667",
            "--frames",
            frames,
            "--size",
            "256x256",
            "--screenshot",
            shot.to_str().expect("UTF-8 path"),
        ];
        let output = game(&args).output().expect("run the previewer");
        let log = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "the previewer failed:\n{log}");
        assert!(log.contains("the base person's clips, retargeted (the file's VRM table)"), "{log}");
        image::open(&shot).expect("a PNG").to_rgba8()
    };
    let (first, again, later) = (still("30", "a.png"), still("30", "b.png"), still("45", "c.png"));
    assert!(first == again, "the same frame of a fixed step differs between runs");
    let moved = first.pixels().zip(later.pixels()).filter(|(a, b)| a != b).count();
    assert!(moved > 200, "{moved} pixels changed in a quarter second of walking");
}
