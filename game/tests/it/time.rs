//! Honest time: at a time scale, the simulation advances that many seconds per real second
//! when the steps fit, and the rate reported is the rate reached either way.

use serde_json::Value;

use crate::support::{TempDir, game, have_gpu};

#[test]
fn the_reported_time_scale_is_the_one_reached() {
    if !have_gpu() {
        return;
    }
    let mods = TempDir::new("time");
    let dir = mods.path().to_str().expect("UTF-8 path");
    let args = [
        "--headless",
        "--time-scale",
        "16",
        "--run-for",
        "6",
        "--size",
        "160x90",
        "--log-format",
        "json",
        "--mods",
        dir,
    ];
    let output = game(&args).output().expect("run the game");
    let log: Vec<Value> =
        String::from_utf8_lossy(&output.stderr).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert!(output.status.success(), "the game failed: {log:#?}");
    let status = log.iter().rfind(|l| l["message"] == "status").expect("a status line after 5 s");
    let reached: f64 = status["reached"].as_str().and_then(|r| r.parse().ok()).expect("the reached rate");
    assert_eq!(status["time_scale"].as_f64(), Some(16.0), "{status}");
    assert!(status["cars"].as_u64().is_some_and(|c| c > 0) && status["windmills"].as_u64().is_some(), "{status}");
    assert_eq!(status["buses"].as_u64(), Some(4), "the default buses, counted: {status}");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    let seconds: f64 = finished["seconds"].as_str().and_then(|s| s.parse().ok()).expect("wall seconds");
    let simulated: f64 = finished["sim_seconds"].as_str().and_then(|s| s.parse().ok()).expect("sim seconds");
    // Over the whole run, simulated time per real second matches what was reported (within
    // the first frames' start-up), and never exceeds what was asked.
    let overall = simulated / seconds;
    assert!(reached <= 16.5 && overall <= 16.5, "reached x{reached}, overall x{overall}");
    assert!((overall - reached).abs() <= 0.25 * reached.max(1.0), "reported x{reached}, overall x{overall}");
}
