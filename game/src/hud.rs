//! The heads-up display: for the player the time (asked and reached), the traffic (cars,
//! waiting, mean speed, throughput), the wind and the props, the latest mod message and the
//! list of mods (status, size, clips, liveries, warnings, "go to"), the controls; folded, the
//! developer's frame timings by phase, posing and drawing counts.

use std::path::{Path, PathBuf};

use props_render::FrameStats;

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

/// What the player asked for in the HUD this frame.
#[derive(Debug, Default)]
pub struct HudActions {
    /// The mod (its path in the mods folder) whose "go to" was clicked.
    pub go_to: Option<PathBuf>,
    /// Follow the picked prop with the camera (or stop).
    pub follow: Option<bool>,
    /// Forget the picked prop.
    pub unpick: bool,
    /// The hour the clock was set to, hours since midnight.
    pub hours: Option<f64>,
    /// The day's length it was set to, minutes (0 holds the hour).
    pub day_minutes: Option<f64>,
}

/// Draws the HUD; returns what the player asked for.
pub fn show(ctx: &egui::Context, demo: &Demo, input: &HudInput<'_>) -> HudActions {
    let mut actions = HudActions::default();
    egui::Window::new("props").default_pos([12.0, 12.0]).resizable(false).show(ctx, |ui| {
        time_line(ui, demo);
        clock(ui, demo, &mut actions);
        town(ui, demo);
        if input.gpu_errors > 0 {
            ui.colored_label(ERROR, format!("{} GPU errors (see the log)", input.gpu_errors));
        }
        picked(ui, demo, &mut actions);
        ui.collapsing("developer", |ui| developer(ui, demo, input));
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
                actions.go_to = mod_row(ui, path, entry).or(actions.go_to.take());
            }
        });
        ui.collapsing("controls", |ui| {
            ui.label("left drag / arrows: orbit    right drag / WASD: pan    wheel (to the cursor) / Q E: zoom");
            ui.label("click: pick a prop (see what it does, follow it)");
            ui.label(format!("Space: pause    + -: time scale    K: skeletons    ] [: +/- {WINDMILL_BATCH} windmills"));
            ui.label("R: reset camera    H: hide this    F12: screenshot    Esc: quit");
        });
    });
    actions
}

/// The picked prop: what it is doing, follow it, forget it.
fn picked(ui: &mut egui::Ui, demo: &Demo, actions: &mut HudActions) {
    let Some((info, at)) = demo.selected() else {
        ui.label("click a prop to see what it does");
        return;
    };
    ui.separator();
    let text = info.summary;
    ui.label(format!("{text}, at ({:.0}, {:.0})", at.x, at.z));
    ui.horizontal(|ui| {
        let mut follow = demo.follow;
        if ui.checkbox(&mut follow, "follow").changed() {
            actions.follow = Some(follow);
        }
        if ui.small_button("clear").clicked() {
            actions.unpick = true;
        }
    });
}

/// The simulated time and its rate, asked and reached (orange when the CPU cannot keep up).
fn time_line(ui: &mut egui::Ui, demo: &Demo) {
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
}

/// The town's clock: the hour (a slider through the day) and how long a day lasts.
fn clock(ui: &mut egui::Ui, demo: &Demo, actions: &mut HudActions) {
    let daylight = demo.daylight();
    let hours = daylight.hours();
    let (h, m) = (hours.floor(), ((hours - hours.floor()) * 60.0).floor());
    ui.horizontal(|ui| {
        ui.label(format!("{h:02.0}:{m:02.0}"));
        let mut set = hours;
        let slider = egui::Slider::new(&mut set, 0.0..=23.99).show_value(false).text("time of day");
        if ui.add(slider).changed() {
            actions.hours = Some(set);
        }
        let mut minutes = daylight.day_minutes();
        let length = egui::DragValue::new(&mut minutes).range(0.0..=10_080.0).speed(0.5).suffix(" min a day");
        if ui.add(length).on_hover_text("0 holds the hour").changed() {
            actions.day_minutes = Some(minutes);
        }
    });
}

/// What a player watches: traffic, wind, props.
fn town(ui: &mut egui::Ui, demo: &Demo) {
    let traffic = demo.traffic();
    let cars = demo.count("cars");
    let minutes = demo.sim_time() / 60.0;
    let throughput = if minutes > 0.0 { traffic.intersections_entered as f64 / minutes } else { 0.0 };
    ui.label(format!(
        "{cars} cars: {} waiting, mean {:.0} km/h, {throughput:.0} through intersections a minute",
        traffic.waiting,
        traffic.mean_speed * 3.6
    ));
    let wind = demo.wind();
    ui.label(format!("wind {:.1} m/s from the {}", wind.speed, compass(wind.from)));
    let others: Vec<String> = demo
        .counts()
        .filter(|(kind, _)| *kind != "cars")
        .map(|(kind, n)| format!("{n} {}", kind.replace('_', " ")))
        .collect();
    ui.label(format!("{}; mods: {}", others.join(", "), demo.mod_count()));
}

/// The compass point of a yaw (0 = from +Z, the south of the town's map; turning towards +X).
fn compass(yaw: f32) -> &'static str {
    const POINTS: [&str; 8] =
        ["south", "south-east", "east", "north-east", "north", "north-west", "west", "south-west"];
    let eighth = (yaw.rem_euclid(std::f32::consts::TAU) / (std::f32::consts::TAU / 8.0)).round() as usize % 8;
    POINTS[eighth]
}

/// Frame timings by phase, what was posed and drawn, the GPU.
fn developer(ui: &mut egui::Ui, demo: &Demo, input: &HudInput<'_>) {
    let timings = &demo.timings;
    ui.label(format!("{:.0} fps, {:.2} ms per frame", timings.fps(), timings.frame_ms));
    egui::Grid::new("phases").striped(true).show(ui, |ui| {
        for (phase, name) in PHASES {
            ui.label(name);
            ui.label(format!("{:.2} ms", timings.ms[phase as usize]));
            ui.end_row();
        }
    });
    let instances = demo.prop_count();
    let animation = demo.animation_stats();
    ui.label(format!(
        "{} / {instances} props in view; {} posed, {} deferred, {} close up (feet held by IK, spring bones); {} joint matrices",
        animation.visible, animation.posed, animation.deferred, animation.close_ups, animation.palette_matrices
    ));
    match demo.animation_budget_ms() {
        Some(budget) => ui.label(format!(
            "animation budget {budget:.2} ms: far props every {}x their rate",
            1u32 << animation.pressure
        )),
        None => ui.label("no animation budget (--anim-budget-ms)"),
    };
    let stats = &input.stats;
    ui.label(format!(
        "{} draw calls, {} palette windows, {:.1} KiB palettes",
        stats.draw_calls,
        stats.palette_windows,
        stats.palette_bytes as f64 / 1024.0
    ));
    ui.label(if stats.shadow_draw_calls > 0 {
        format!("sun shadows: {} more draw calls (a depth pass; --no-shadows)", stats.shadow_draw_calls)
    } else {
        "no sun shadows (--no-shadows, or the sun is down)".to_owned()
    });
    let [near, mid, far] = stats.shadow_passes.map(|pass| millions(pass.triangles));
    ui.label(format!(
        "triangles: {} drawn, {near}/{mid}/{far} into the shadow cascades; {} vertices in all (--no-mesh-lod)",
        millions(stats.main_pass.triangles),
        millions(stats.all_passes().vertices),
    ));
    ui.label(format!(
        "{} point and spot lights shaded (of at most {}), {:.1} KiB of lights and clusters",
        stats.lights,
        props_render::MAX_LIGHTS,
        stats.light_bytes as f64 / 1024.0
    ));
    if timings.pass_ms != [0.0; 4] {
        let [main, near, mid, far] = timings.pass_ms;
        ui.label(format!("GPU: {main:.2} ms the main pass, {near:.2}/{mid:.2}/{far:.2} ms the shadow cascades"));
    }
    ui.label(format!("{} GPU models on {}", input.gpu_models, input.adapter));
}

/// A count in millions, `1.25M` (or thousands, `820k`).
fn millions(n: u64) -> String {
    if n >= 1_000_000 { format!("{:.2}M", n as f64 / 1e6) } else { format!("{}k", n / 1000) }
}

/// One mod's line: name, status, size, clips, liveries; warnings and errors on hover; a "go to" button
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
        let liveries =
            if entry.liveries.is_empty() { String::new() } else { format!(", liveries: {}", entry.liveries.join(" ")) };
        let text = format!("{status}{size}{clips}{liveries}");
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

#[cfg(test)]
mod tests {
    use std::f32::consts::FRAC_PI_2;

    use super::*;

    #[test]
    fn wind_directions_read_as_compass_points() {
        assert_eq!(compass(0.0), "south");
        assert_eq!(compass(FRAC_PI_2), "east");
        assert_eq!(compass(-FRAC_PI_2), "west");
        assert_eq!(compass(3.0 * FRAC_PI_2 + 0.1), "west");
        assert_eq!(compass(std::f32::consts::PI), "north");
    }
}
