//! A lost GPU device is recreated, not fatal: the game destroys its device on purpose
//! (`--lose-device-after`), recreates it, uploads every model again and renders to the end.

use crate::support::{BASE_GPU_MODELS, Running, game, have_gpu};

#[test]
fn a_lost_device_is_recreated_and_the_game_goes_on() {
    if !have_gpu() {
        return;
    }
    let command = game(&[
        "--headless",
        "--frames",
        "30",
        "--fixed-dt",
        "0.016666668",
        "--size",
        "64x64",
        "--windmills",
        "10",
        "--cars",
        "4",
        "--mods",
        "mods",
        "--lose-device-after",
        "10",
        "--log-format",
        "json",
    ]);
    let (success, log) = Running::start(command).wait(std::time::Duration::from_secs(120));
    let messages: Vec<&str> = log.iter().filter_map(|l| l["message"].as_str()).collect();
    assert!(success, "the game failed: {messages:#?}");
    assert!(messages.contains(&"the GPU device was lost; recreating it"), "{messages:#?}");
    assert!(messages.contains(&"GPU device recreated"), "{messages:#?}");
    let finished = log.iter().find(|l| l["message"] == "headless run finished").expect("a last line");
    assert_eq!(finished["frames"], 30, "{finished}");
    // Six props (the bus and the street lamp too), the ground, the houses and the example mod,
    // all uploaded again.
    assert_eq!(finished["gpu_models"], BASE_GPU_MODELS + 1, "{finished}");
}
