//! Honest time: at a time scale, the simulation advances that many seconds per real second
//! when the steps fit, and the rate reported is the rate reached either way.
//!
//! What a frame may run is checked on frames of a fixed length (`--fixed-dt`), where the
//! expected rate is exact; the wall-clock run only checks that the status line reports a
//! rate, and never more than was asked, since how fast a shared CI machine draws is not
//! the game's to promise.

use serde_json::Value;

use crate::support::{TempDir, game, have_gpu};

/// Runs the game headless with `extra` arguments; returns its JSON log lines.
fn run(name: &str, extra: &[&str]) -> Vec<Value> {
    let mods = TempDir::new(name);
    let dir = mods.path().to_str().expect("UTF-8 path");
    let mut args = vec!["--headless", "--size", "160x90", "--log-format", "json", "--mods", dir];
    args.extend_from_slice(extra);
    let output = game(&args).output().expect("run the game");
    let log: Vec<Value> =
        String::from_utf8_lossy(&output.stderr).lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert!(output.status.success(), "the game failed: {log:#?}");
    log
}

/// A number the game logs as a string with two decimals.
fn number(line: &Value, field: &str) -> f64 {
    line[field].as_str().and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{field} in {line}"))
}

fn finished(log: &[Value]) -> &Value {
    log.iter().find(|l| l["message"] == "headless run finished").expect("a last line")
}

#[test]
fn frames_run_the_steps_that_fit_and_report_the_rate_they_reached() {
    if !have_gpu() {
        return;
    }
    // x4 on 50 ms frames: 12 steps of 1/60 s a frame, within the 32 a frame may run at x4.
    let log = run("time-fits", &["--fixed-dt", "0.05", "--time-scale", "4", "--frames", "8"]);
    let last = finished(&log);
    let (simulated, reached) = (number(last, "sim_seconds"), number(last, "reached"));
    // Within a step of 8 * 0.2 s (the steps are whole; the remainder waits for the next frame).
    assert!((simulated - 1.6).abs() <= 1.0 / 60.0 + 0.01, "simulated {simulated} s: {last}");
    assert!((reached - 4.0).abs() <= 0.15, "reported x{reached} on frames that fit x4: {last}");

    // x16 on 500 ms frames: 480 steps asked a frame, 128 (8 per unit of scale) run, the rest
    // dropped: the simulation reaches 128 / 60 / 0.5 = x4.27, and says so.
    let log = run("time-drops", &["--fixed-dt", "0.5", "--time-scale", "16", "--frames", "8"]);
    let last = finished(&log);
    let (simulated, reached) = (number(last, "sim_seconds"), number(last, "reached"));
    assert!((simulated - 8.0 * 128.0 / 60.0).abs() <= 0.01, "simulated {simulated} s: {last}");
    assert!((reached - 128.0 / 60.0 / 0.5).abs() <= 0.01, "reported x{reached}, reached x4.27: {last}");
}

#[test]
fn the_status_line_reports_the_rate_reached_and_never_more_than_asked() {
    if !have_gpu() {
        return;
    }
    let log = run("time", &["--time-scale", "16", "--run-for", "6"]);
    let status = log.iter().rfind(|l| l["message"] == "status").expect("a status line after 5 s");
    let reached = number(status, "reached");
    assert_eq!(status["time_scale"].as_f64(), Some(16.0), "{status}");
    // Over its interval: the frame rate, and the slowest frame, no faster than the mean one.
    let (fps, slowest) = (number(status, "fps"), number(status, "slowest_ms"));
    assert!(fps > 0.0 && slowest >= 0.9 * 1000.0 / fps, "{status}");
    // Every kind the town has, with its props: `windmills=300 cars=40 ...`.
    let kinds = status["kinds"].as_str().expect("the kinds and their counts");
    let count = |kind: &str| {
        let mut pairs = kinds.split_whitespace().filter_map(|pair| pair.split_once('='));
        pairs.find(|(name, _)| *name == kind).and_then(|(_, n)| n.parse::<u64>().ok())
    };
    assert!(count("cars").is_some_and(|c| c > 0) && count("windmills").is_some(), "{status}");
    assert_eq!(count("buses"), Some(4), "the default buses, counted: {status}");
    assert!(count("traffic_lights").is_some_and(|n| n > 0) && count("lot_models") == Some(0), "{status}");
    let last = finished(&log);
    let overall = number(last, "sim_seconds") / number(last, "seconds");
    assert!(reached > 0.0 && overall > 0.0, "the simulation ran: reached x{reached}, overall x{overall}");
    assert!(reached <= 16.5 && overall <= 16.5, "reached x{reached}, overall x{overall}");
    assert!(number(last, "reached") <= 16.5, "{last}");
}
