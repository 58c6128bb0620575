//! The heads-up display: frame rate and phase timings, what is drawn, the controls, the
//! latest mod message, and the list of mods (status, size, clips, warnings, "go to").

use std::path::{Path, PathBuf};

use props_render::FrameStats;
use props_scene::SceneCounts;

use crate::demo::{Demo, WINDMILL_BATCH};
use crate::mod_list::ModEntry;
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

/// Colour of warnings.
const WARNING: egui::Color32 = egui::Color32::from_rgb(240, 200, 90);

/// Draws the HUD; returns the mod (its path in the mods folder) whose "go to" was clicked.
pub fn show(ctx: &egui::Context, demo: &Demo, input: &HudInput<'_>) -> Option<PathBuf> {
    let mut go_to = None;
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
        let reached = demo.reached_rate().filter(|_| !demo.paused);
        let state = match reached {
            _ if demo.paused => "paused".to_owned(),
            Some(rate) => format!("time x{} asked, x{rate:.1} reached", demo.time_scale),
            None => format!("time x{}", demo.time_scale),
        };
        let text = format!("t = {:.1} s, {state}", demo.sim_time());
        match reached {
            Some(rate) if rate < 0.9 * f64::from(demo.time_scale) => {
                ui.colored_label(WARNING, format!("{text}: the CPU cannot keep up"))
            }
            _ => ui.label(text),
        };
        ui.separator();
        match demo.last_mod() {
            Some(message) if message.is_error => ui.colored_label(ERROR, &message.text),
            Some(message) => ui.label(&message.text),
            None => ui.label("no mod events yet"),
        };
        let mods = demo.mods();
        ui.collapsing(format!("mods ({})", mods.entries().len()), |ui| {
            if mods.entries().len() == 0 {
                ui.label("none: drop a .glb into the mods folder");
            }
            for (path, entry) in mods.entries() {
                go_to = mod_row(ui, path, entry).or(go_to.take());
            }
        });
        ui.collapsing("controls", |ui| {
            ui.label("left drag / arrows: orbit    right drag / WASD: pan    wheel (to the cursor) / Q E: zoom");
            ui.label(format!("Space: pause    + -: time scale    K: skeletons    ] [: +/- {WINDMILL_BATCH} windmills"));
            ui.label("R: reset camera    H: hide this    F12: screenshot    Esc: quit");
        });
    });
    go_to
}

/// One mod's line: name, status, size, clips; warnings and errors on hover; a "go to" button
/// while it shows. Returns its path when the button was clicked.
fn mod_row(ui: &mut egui::Ui, path: &Path, entry: &ModEntry) -> Option<PathBuf> {
    let mut clicked = None;
    ui.horizontal(|ui| {
        let name = path.file_name().map_or_else(|| entry.shown.clone(), |n| n.to_string_lossy().into_owned());
        let status = match (&entry.place, &entry.error) {
            (Some(place), None) => format!("{name}: {place}"),
            (Some(place), Some(_)) => format!("{name}: {place} (its latest version was refused)"),
            (None, _) => format!("{name}: refused"),
        };
        let size = entry.height_m.map_or_else(String::new, |h| format!(", {h:.2} m"));
        let clips = if entry.clips.is_empty() { String::new() } else { format!(", clips: {}", entry.clips.join(" ")) };
        let text = format!("{status}{size}{clips}");
        let label = match (&entry.error, entry.warnings.is_empty()) {
            (Some(_), _) => ui.colored_label(ERROR, text),
            (None, false) => ui.colored_label(WARNING, format!("{text} ({} warnings)", entry.warnings.len())),
            (None, true) => ui.label(text),
        };
        let details: Vec<&str> =
            entry.error.iter().map(String::as_str).chain(entry.warnings.iter().map(String::as_str)).collect();
        if !details.is_empty() {
            label.on_hover_text(details.join("\n"));
        }
        if entry.place.is_some() && ui.small_button("go to").clicked() {
            clicked = Some(path.to_owned());
        }
    });
    clicked
}
