//! The city runs in the game: 100k windmills, 10k cars (the town grows to hold them) and
//! 10k foxes, headless (here) and windowed (`window.rs`), with an animation budget; the
//! scene's phases are logged by name.

use crate::support::{TempDir, game, have_gpu};

/// The city's options, at a small image size (lavapipe draws every visible instance).
pub const CITY: [&str; 12] = [
    "--windmills",
    "100000",
    "--cars",
    "10000",
    "--foxes",
    "10000",
    "--anim-budget-ms",
    "1",
    "--frames",
    "3",
    "--size",
    "160x90",
];

#[test]
fn the_city_runs_headless() {
    if !have_gpu() {
        return;
    }
    let mods = TempDir::new("city");
    let mut args = CITY.to_vec();
    args.extend(["--headless", "--fixed-dt", "0.016666668", "--mods", mods.path().to_str().expect("UTF-8 path")]);
    let output = game(&args).output().expect("run the game");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the city failed ({}):\n{log}", output.status);
    assert!(log.contains("headless run finished frames=3"), "{log}");
    assert!(log.contains("gpu_errors=0"), "{log}");
}
