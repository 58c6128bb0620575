//! The heads-up display: frame rate and phase timings, what is drawn, the controls, and the
//! latest mod message.

use props_render::FrameStats;
use props_scene::SceneCounts;

use crate::demo::{Demo, WINDMILL_BATCH};
use crate::timings::PHASES;

/// What the HUD shows besides the demo's own state.
pub struct HudInput<'a> {
    /// The adapter, in words.
    pub adapter: &'a str,
    /// The last frame's renderer statistics.
    pub stats: FrameStats,
    /// Models on the GPU.
    pub gpu_models: usize,
    /// GPU errors outside error scopes so far (logged, ignored).
    pub gpu_errors: u64,
}

/// Colour of error messages.
const ERROR: egui::Color32 = egui::Color32::from_rgb(255, 110, 90);

/// Draws the HUD.
pub fn show(ctx: &egui::Context, demo: &Demo, input: &HudInput<'_>) {
    egui::Window::new("props").default_pos([12.0, 12.0]).resizable(false).show(ctx, |ui| {
        let timings = &demo.timings;
        ui.label(format!("{:.0} fps, {:.2} ms per frame", timings.fps(), timings.frame_ms));
        egui::Grid::new("phases").striped(true).show(ui, |ui| {
            for (phase, name) in PHASES {
                ui.label(name);
                ui.label(format!("{:.2} ms", timings.ms[phase as usize]));
                ui.end_row();
            }
        });
        ui.separator();
        let SceneCounts { windmills, cars, traffic_lights, foxes, instances } = demo.counts();
        let animation = demo.animation_stats();
        ui.label(format!(
            "{} / {instances} props in view; {} posed, {} deferred; {} joint matrices",
            animation.visible, animation.posed, animation.deferred, animation.palette_matrices
        ));
        match demo.animation_budget_ms() {
            Some(budget) => ui.label(format!(
                "animation budget {budget:.2} ms: far props every {}x their rate",
                1u32 << animation.pressure
            )),
            None => ui.label("no animation budget (--anim-budget-ms)"),
        };
        ui.label(format!(
            "{windmills} windmills, {cars} cars, {traffic_lights} traffic lights, {foxes} foxes; mods: {}",
            demo.mod_count()
        ));
        let stats = &input.stats;
        ui.label(format!(
            "{} draw calls, {} palette windows, {:.1} KiB palettes",
            stats.draw_calls,
            stats.palette_windows,
            stats.palette_bytes as f64 / 1024.0
        ));
        ui.label(format!("{} GPU models on {}", input.gpu_models, input.adapter));
        if input.gpu_errors > 0 {
            ui.colored_label(ERROR, format!("{} GPU errors (see the log)", input.gpu_errors));
        }
        let state = if demo.paused { "paused".to_owned() } else { format!("time x{}", demo.time_scale) };
        ui.label(format!("t = {:.1} s, {state}", demo.sim_time()));
        ui.separator();
        match demo.last_mod() {
            Some(message) if message.is_error => ui.colored_label(ERROR, &message.text),
            Some(message) => ui.label(&message.text),
            None => ui.label("no mod events yet"),
        };
        ui.collapsing("controls", |ui| {
            ui.label("left drag / arrows: orbit    right drag / WASD: pan    wheel / Q E: zoom");
            ui.label(format!("Space: pause    + -: time scale    K: skeletons    ] [: +/- {WINDMILL_BATCH} windmills"));
            ui.label("R: reset camera    H: hide this    Esc: quit");
        });
    });
}
