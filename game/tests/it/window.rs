//! The windowed mode under Xvfb: starts, renders a few frames with the HUD, exits cleanly.

use crate::support::{TempDir, game, have_gpu};

#[test]
fn window_opens_renders_and_exits_after_its_frames() {
    if !have_gpu() {
        return;
    }
    let xvfb = std::process::Command::new("xvfb-run").arg("--help").output();
    if xvfb.is_err() {
        assert!(std::env::var_os("CI").is_none(), "xvfb-run is missing under CI; .ci/run installs the xvfb package");
        eprintln!("SKIPPED: xvfb-run not installed (Debian: apt-get install xvfb xauth)");
        return;
    }
    let mods = TempDir::new("window");
    let game = game(&["--frames", "5", "--size", "320x240", "--windmills", "20", "--mods"]);
    let mut command = std::process::Command::new("xvfb-run");
    command
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(game.get_program())
        .args(game.get_args())
        .arg(mods.path())
        .current_dir(game.get_current_dir().expect("the game runs from the repository root"))
        .envs(game.get_envs().filter_map(|(k, v)| Some((k, v?))))
        // Make sure winit picks X11 (Xvfb), not a Wayland compositor of the desktop.
        .env_remove("WAYLAND_DISPLAY");
    let output = command.output().expect("run xvfb-run");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the windowed game failed ({}):\n{log}", output.status);
    assert!(log.contains("rendering to a window"), "{log}");
}
