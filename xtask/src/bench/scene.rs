//! `cargo xtask bench scene [--json]`: the real `Scene` on the game's assets, stepped, posed
//! and extracted as the game does it (no GPU), per workload, mode and thread count, beside
//! the fast kernel on the same models and states measured in the same run.
//!
//! - Workloads: `default` (the demo town), `city` (100k windmills, 10k cars, 10k foxes, 10k
//!   people, and the lights of the town grown for them), both with the game's 4 buses, and
//!   `windmills` (100k windmills alone). `--count KIND=N` changes a kind's number in every
//!   workload (`--count pedestrians=0`: the city without its people, to measure what they
//!   cost).
//! - Modes: `exact` (no sharing, LOD or culling: every prop posed for itself every frame),
//!   `shared` (pose sharing, update-rate LOD and culling, seen from the game's first view),
//!   `budget` (`shared` under a 1 ms animation budget).
//! - Each on one thread and on every core.
//!
//! Per frame: one simulation step (`ms_simulate`), posing (`ms_animate`), extraction
//! (`ms_extract`, which lists the lit lamps' and headlights' lights at night: `lights`), and
//! their sum (`ms_total`), as medians (and the best frame). The kernel
//! (`kernel_ns_per_joint`) is `Program::write_palettes4` run over every instance's own state,
//! four at a time, on one thread, into one buffer of every palette, weighted by the joints
//! each model had posed: what posing would cost with no bookkeeping, culling or sharing. `ns_per_posed_joint` over it is what
//! the runtime's bookkeeping costs (in `exact` mode, where both pose the same states).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use props_anim::JointMatrix;
use props_anim::runtime::LaneState;
use props_crowd::{PosingConfig, PropModel};
use props_frame::{FrameData, InstanceData, ModelId, OrbitCamera};
use props_scene::{KindAsset, Scene, SceneConfig};

use super::median;

/// Arguments of the scene table.
#[derive(clap::Args)]
pub struct SceneArgs {
    /// Print JSON (`{"rows": [...]}`) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Frames measured per row.
    #[arg(long, default_value_t = 60)]
    pub frames: usize,
    /// Simulated seconds before measuring (windmills start at random headings).
    #[arg(long, default_value_t = 2.0)]
    pub settle: f32,
    /// Only this workload (`default`, `city`, `windmills`).
    #[arg(long)]
    pub workload: Option<String>,
    /// Only this mode (`exact`, `shared`, `budget`).
    #[arg(long)]
    pub mode: Option<String>,
    /// Seed of the town.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The town's hour, held (`22:00`: the lamps and headlights are lit, and extraction
    /// lists their lights).
    #[arg(long, value_name = "HH:MM", default_value = "12:00", value_parser = props_scene::town::daylight::parse_hours)]
    pub time_of_day: f64,
    /// A kind's number in every workload, `KIND=N` (repeat for several kinds).
    #[arg(long = "count", value_name = "KIND=N", value_parser = parse_count)]
    pub counts: Vec<(String, usize)>,
}

/// `KIND=N`.
fn parse_count(text: &str) -> Result<(String, usize), String> {
    let (kind, count) = text.split_once('=').ok_or("expected KIND=N")?;
    Ok((kind.to_owned(), count.parse().map_err(|_| format!("{count:?} is not a whole number"))?))
}

/// The game's fixed step.
const DT: f32 = 1.0 / 60.0;
/// The budget of the `budget` mode, milliseconds.
const BUDGET_MS: f32 = 1.0;
/// Aspect of the view the shared modes are seen from (the game's default window).
const ASPECT: f32 = 16.0 / 9.0;
/// Least time the kernel is measured for, per model.
const KERNEL_TIME: Duration = Duration::from_millis(300);

/// How a mode changes a workload's configuration.
type Configure = fn(SceneConfig) -> SceneConfig;

/// One measured configuration.
struct Row {
    workload: &'static str,
    mode: &'static str,
    threads: usize,
    /// Props of each kind the scene held.
    counts: Vec<(&'static str, usize)>,
    simulate: Vec<f64>,
    animate: Vec<f64>,
    extract: Vec<f64>,
    total: Vec<f64>,
    visible: f64,
    lights: f64,
    joints_posed: f64,
    palettes_written: f64,
    upload_bytes: f64,
    kernel_ns_per_joint: f64,
    state_bytes: usize,
}

impl Row {
    fn ns_per_posed_joint(&self) -> f64 {
        let animate = median(&mut self.animate.clone());
        if self.joints_posed > 0.0 { animate * 1e6 / self.joints_posed } else { 0.0 }
    }
}

/// The base model of each of the town's kinds, from `assets`, by kind (renderer ids in
/// registration order, at each asset's units; none for the lot), as the game loads them.
pub(crate) fn load_models(assets: &Path) -> Result<Vec<Vec<PropModel>>> {
    let limits = props_gltf::Limits::default();
    let kinds = props_scene::kinds::town();
    let load = |(k, asset): (usize, KindAsset)| -> Result<Vec<PropModel>> {
        let Some(stem) = asset.stem else { return Ok(Vec::new()) };
        let path = assets.join(format!("{stem}.glb"));
        let admitted =
            props_gltf::gate::admit_file(&path, &limits).with_context(|| format!("loading {}", path.display()))?;
        Ok(vec![PropModel::new(ModelId(k as u32), Arc::new(admitted.import.model)).with_scale(asset.units)])
    };
    kinds.iter().map(|kind| kind.asset()).enumerate().map(load).collect()
}

/// The kernel's ns per joint on every instance's state of each model, weighted by the joints
/// the last frame posed of each.
fn kernel_ns_per_joint(scene: &Scene) -> f64 {
    let (mut ns, mut joints) = (0.0, 0.0);
    for (_, program, crowd) in scene.crowds() {
        let posed = (crowd.stats().posed * program.palette_len()) as f64;
        if crowd.is_empty() || posed == 0.0 {
            continue;
        }
        let p = program.palette_len();
        let n = crowd.len();
        // Every palette into one buffer, as a renderer takes them.
        let mut out = vec![JointMatrix::IDENTITY; n.div_ceil(4) * 4 * p];
        let mut scratch = program.scratch();
        let (start, mut rounds) = (Instant::now(), 0u64);
        while start.elapsed() < KERNEL_TIME {
            for first in (0..n).step_by(4) {
                let lanes = std::array::from_fn(|k| {
                    let i = (first + k).min(n - 1);
                    LaneState { layers: crowd.layers(i), drivers: crowd.drivers(i), palette: (first + k) * p }
                });
                program.write_palettes4(lanes, &mut scratch, &mut out);
            }
            rounds += 1;
        }
        let per_joint = start.elapsed().as_secs_f64() * 1e9 / (rounds as f64 * n.div_ceil(4) as f64 * 4.0 * p as f64);
        ns += per_joint * posed;
        joints += posed;
    }
    if joints > 0.0 { ns / joints } else { 0.0 }
}

fn measure(
    models: &[Vec<PropModel>],
    workload: &'static str,
    mode: &'static str,
    threads: usize,
    config: SceneConfig,
    args: &SceneArgs,
) -> Result<Row> {
    let kinds = props_scene::kinds::town().into_iter().zip(models.iter().cloned());
    let mut scene = Scene::new(config, kinds.collect::<Vec<_>>())?;
    if mode != "exact" {
        let view = OrbitCamera::overview(scene.terrain().flat_radius());
        let camera = view.to_camera(ASPECT);
        scene.set_camera(Some(camera));
    }
    let mut frame = FrameData::default();
    let run_frame = |scene: &mut Scene, frame: &mut FrameData| {
        let t0 = Instant::now();
        scene.step(DT);
        let t1 = Instant::now();
        frame.clear();
        scene.animate(frame);
        let t2 = Instant::now();
        scene.record_animation_time((t2 - t1).as_secs_f32() * 1000.0);
        scene.extract(frame);
        let t3 = Instant::now();
        [t1 - t0, t2 - t1, t3 - t2].map(|d| d.as_secs_f64() * 1000.0)
    };
    for _ in 0..(args.settle / DT) as usize {
        run_frame(&mut scene, &mut frame);
    }
    let mut row = Row {
        workload,
        mode,
        threads,
        counts: scene.counts().collect(),
        simulate: Vec::new(),
        animate: Vec::new(),
        extract: Vec::new(),
        total: Vec::new(),
        visible: 0.0,
        lights: 0.0,
        joints_posed: 0.0,
        palettes_written: 0.0,
        upload_bytes: 0.0,
        kernel_ns_per_joint: 0.0,
        state_bytes: scene.crowds().map(|(_, _, c)| c.len() * c.bytes_per_instance()).sum(),
    };
    let frames = args.frames.max(1) as f64;
    for _ in 0..args.frames.max(1) {
        let [simulate, animate, extract] = run_frame(&mut scene, &mut frame);
        row.simulate.push(simulate);
        row.animate.push(animate);
        row.extract.push(extract);
        row.total.push(simulate + animate + extract);
        let stats = scene.animation_stats();
        row.visible += stats.visible as f64 / frames;
        row.lights += frame.lights.len() as f64 / frames;
        row.joints_posed += stats.joints_posed as f64 / frames;
        row.palettes_written += stats.palette_matrices as f64 / frames;
        let bytes = frame.palettes.len() * size_of::<JointMatrix>() + frame.instances.len() * size_of::<InstanceData>();
        row.upload_bytes += bytes as f64 / frames;
    }
    row.kernel_ns_per_joint = kernel_ns_per_joint(&scene);
    Ok(row)
}

/// The city workload: 100k windmills, 10k cars, 10k foxes, 10k people and the default town's
/// buses.
pub(super) fn city() -> SceneConfig {
    SceneConfig::default()
        .with_count("windmills", 100_000)
        .with_count("cars", 10_000)
        .with_count("foxes", 10_000)
        .with_count("pedestrians", 10_000)
}

/// Measures and prints the table.
pub fn run(args: &SceneArgs) -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let models = load_models(&root.join("assets"))?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let city = city();
    let windmills = SceneConfig::default()
        .with_count("windmills", 100_000)
        .with_count("cars", 0)
        .with_count("foxes", 0)
        .with_count("pedestrians", 0);
    // Buses as the game runs them by default (the kind's default); none beside the windmills
    // alone.
    let windmills = windmills.with_count("buses", 0);
    let workloads = [("default", SceneConfig::default()), ("city", city), ("windmills", windmills)];
    let modes: [(&str, Configure); 3] = [
        ("exact", |c| SceneConfig {
            posing: PosingConfig { sharing: None, lod: props_anim::runtime::UpdateRateLod::OFF, ..c.posing },
            ..c
        }),
        ("shared", |c| c),
        ("budget", |c| SceneConfig { posing: PosingConfig { animation_budget_ms: Some(BUDGET_MS), ..c.posing }, ..c }),
    ];
    let mut threads = vec![1];
    if cores > 1 {
        threads.push(cores);
    }
    let mut rows = Vec::new();
    for (workload, base) in workloads {
        if args.workload.as_deref().is_some_and(|w| w != workload) {
            continue;
        }
        for (mode, configure) in modes {
            if args.mode.as_deref().is_some_and(|m| m != mode) {
                continue;
            }
            for &t in &threads {
                let config = SceneConfig { seed: args.seed, time_of_day: args.time_of_day, ..configure(base.clone()) };
                let mut config = SceneConfig { posing: PosingConfig { threads: t, ..config.posing }, ..config };
                for (kind, count) in &args.counts {
                    config = config.with_count(kind, *count);
                }
                let row = measure(&models, workload, mode, t, config, args)?;
                if !args.json {
                    print_row(&row, rows.is_empty());
                }
                rows.push(row);
            }
        }
    }
    if args.json {
        let rows: Vec<_> = rows.iter().map(json).collect();
        println!("{}", serde_json::json!({ "cores": cores, "frames": args.frames, "rows": rows }));
    }
    Ok(())
}

fn json(row: &Row) -> serde_json::Value {
    let med = |v: &[f64]| median(&mut v.to_vec());
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let count = |kind: &str| row.counts.iter().find(|(k, _)| *k == kind).map_or(0, |(_, n)| *n);
    let counts: serde_json::Map<String, serde_json::Value> =
        row.counts.iter().map(|(kind, n)| ((*kind).to_owned(), (*n).into())).collect();
    serde_json::json!({
        "workload": row.workload, "mode": row.mode, "threads": row.threads,
        "windmills": count("windmills"), "cars": count("cars"), "foxes": count("foxes"), "buses": count("buses"),
        "kinds": counts,
        "ms_simulate": med(&row.simulate), "ms_animate": med(&row.animate),
        "ms_extract": med(&row.extract), "ms_total": med(&row.total),
        "best_ms_total": best(&row.total), "best_ms_animate": best(&row.animate),
        "visible": row.visible, "lights": row.lights, "joints_posed": row.joints_posed,
        "palettes_written": row.palettes_written, "upload_bytes": row.upload_bytes,
        "ns_per_posed_joint": row.ns_per_posed_joint(), "kernel_ns_per_joint": row.kernel_ns_per_joint,
        "state_bytes": row.state_bytes,
    })
}

fn print_row(row: &Row, header: bool) {
    if header {
        println!(
            "{:<10} {:<7} {:>3} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7} {:>9} {:>9} {:>8} {:>8} {:>7} {:>9}",
            "workload",
            "mode",
            "thr",
            "sim ms",
            "anim ms",
            "extr ms",
            "total ms",
            "best ms",
            "visible",
            "lights",
            "joints",
            "upload KB",
            "ns/joint",
            "kernel",
            "ratio",
            "state MB"
        );
    }
    let med = |v: &[f64]| median(&mut v.to_vec());
    let best = row.total.iter().copied().fold(f64::INFINITY, f64::min);
    let ratio = if row.kernel_ns_per_joint > 0.0 { row.ns_per_posed_joint() / row.kernel_ns_per_joint } else { 0.0 };
    println!(
        "{:<10} {:<7} {:>3} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.0} {:>7.0} {:>9.0} {:>9.1} {:>8.2} {:>8.2} {:>7.2} {:>9.1}",
        row.workload,
        row.mode,
        row.threads,
        med(&row.simulate),
        med(&row.animate),
        med(&row.extract),
        med(&row.total),
        best,
        row.visible,
        row.lights,
        row.joints_posed,
        row.upload_bytes / 1000.0,
        row.ns_per_posed_joint(),
        row.kernel_ns_per_joint,
        ratio,
        row.state_bytes as f64 / 1e6,
    );
}
