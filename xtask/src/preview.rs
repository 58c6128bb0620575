//! `cargo xtask preview FILE [--clip NAME|INDEX] [--time T] [--walk M/S]`: one model alone in a
//! window, the game's previewer (`game --preview FILE`: playback, overlays, morph sliders, the
//! checker's report, reload on save, the treadmill), built and run in release.
//!
//! With `--headless --screenshot OUT.png`: a deterministic still at the chosen clip and time,
//! framed by the model's box over every clip (so stills at different times line up), with
//! optional overlays: the skeleton, that box, and a heat map of how many joints move each
//! vertex. Prints the checker's report for the file first. With `--walk M/S` too, the still
//! is the game's previewer's, run headless: the model on the treadmill, `--time` seconds in.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail, ensure};
use glam::Affine3A;
use props_anim::{JointMatrix, Model};
use props_render::{GpuContext, StillRenderer, box_lines, framing_camera, influence_heat_map, skeleton_lines};

use crate::as_mod;

/// Samples per clip of the framing box.
const EXTENT_SAMPLES: usize = 9;
/// Steps a second of the treadmill's stills.
const WALK_FPS: f32 = 60.0;

/// Command-line arguments.
#[derive(Debug, clap::Args)]
pub struct PreviewArgs {
    /// The model (`.gltf` or `.glb`).
    pub file: PathBuf,
    /// The clip to show, by name or index (default: the first, if any).
    #[arg(long)]
    pub clip: Option<String>,
    /// Clip time in seconds (default: the middle of the clip).
    #[arg(long)]
    pub time: Option<f32>,
    /// Start on the previewer's treadmill at this speed, metres a second; headless, the still
    /// is taken `--time` seconds after it started walking (default 1).
    #[arg(long, value_name = "M/S")]
    pub walk: Option<f32>,
    /// Render one still offscreen instead of opening the previewer's window (needs
    /// `--screenshot`).
    #[arg(long)]
    pub headless: bool,
    /// Where the still is written (PNG).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Width and height of the still, in pixels.
    #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u32).range(16..=4096))]
    pub size: u32,
    /// Draw the skeleton (a line from each node to its parent).
    #[arg(long)]
    pub skeleton: bool,
    /// Draw the box the model fills over every clip.
    #[arg(long)]
    pub bounds: bool,
    /// Colour each vertex by how many joints move it (grey none, blue 1, cyan 2, green up to
    /// 4, yellow up to 8, orange up to 16, red more).
    #[arg(long)]
    pub influences: bool,
}

/// Runs the command.
pub fn run(args: &PreviewArgs) -> Result<()> {
    if !args.headless {
        return open_window(args);
    }
    let Some(screenshot) = &args.screenshot else {
        bail!("`--headless` renders a still: give `--screenshot OUT.png`");
    };
    if let Some(speed) = args.walk {
        return walk_headless(args, speed, screenshot);
    }
    // Checked as `check-assets` checks it (the gate, its sidecar, its place in the town).
    let as_mod::Checked { report, model, .. } =
        as_mod::check(&args.file, &props_mods::ModConfig::limits_for(&args.file, false));
    let Some(model) = model else { bail!("the game refuses this model:\n{report}") };
    print!("{report}");
    let model = &*model;
    let clip = choose_clip(model, args.clip.as_deref())?;
    let time = args.time.unwrap_or_else(|| clip.map_or(0.0, |c| model.clips()[c].duration() * 0.5));
    let extent = model.sampled_extent(EXTENT_SAMPLES).context("the model has no vertices")?;
    let pose = model.pose_at(clip, time);
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&pose, &mut palette);
    let mut lines = Vec::new();
    if args.skeleton {
        skeleton_lines(model.rig(), &pose, &Affine3A::IDENTITY, [1.0, 0.2, 0.8, 1.0], &mut lines);
    }
    if args.bounds {
        box_lines(&extent, [1.0, 1.0, 0.0, 1.0], &mut lines);
    }
    let heat;
    let drawn = if args.influences {
        heat = influence_heat_map(model)?;
        &heat
    } else {
        model
    };
    let gpu = pollster::block_on(GpuContext::headless()).context("no GPU adapter (install mesa-vulkan-drivers)")?;
    let mut stills = StillRenderer::new(&gpu, (args.size, args.size));
    let rgba = stills.draw(&gpu, drawn, &palette, framing_camera(&extent, 1.0), &lines)?;
    image::save_buffer(screenshot, &rgba, args.size, args.size, image::ExtendedColorType::Rgba8)
        .with_context(|| format!("writing {}", screenshot.display()))?;
    let shown = clip.map_or_else(|| "the rest pose".to_owned(), |c| format!("clip {c} at {time} s"));
    println!("{}: {shown} -> {}", args.file.display(), screenshot.display());
    Ok(())
}

/// Opens the game's previewer on the file: `cargo run --release -p game -- --preview FILE`.
fn open_window(args: &PreviewArgs) -> Result<()> {
    ensure!(args.screenshot.is_none(), "`--screenshot` writes a still: add `--headless`");
    if args.skeleton || args.bounds || args.influences {
        println!("the overlays are check boxes in the previewer's window");
    }
    let mut command = previewer(args)?;
    if let Some(clip) = &args.clip {
        command.args(["--clip", clip]);
    }
    if let Some(time) = args.time {
        command.args(["--time", &time.to_string()]);
    }
    if let Some(speed) = args.walk {
        command.args(["--walk", &speed.to_string()]);
    }
    let status = command.status().context("running the game's previewer")?;
    ensure!(status.success(), "the previewer failed ({status})");
    Ok(())
}

/// A still of the model on the game's treadmill at `speed` m/s, `--time` seconds after it
/// started walking (default 1), at 60 steps a second: the game's previewer run headless.
fn walk_headless(args: &PreviewArgs, speed: f32, screenshot: &Path) -> Result<()> {
    ensure!(args.clip.is_none(), "on the treadmill the model walks with its gaits: drop `--clip`");
    if args.skeleton || args.bounds || args.influences {
        println!("the overlays are not drawn on the treadmill");
    }
    let frames = (args.time.unwrap_or(1.0).max(0.0) * WALK_FPS).round() as u32 + 1;
    let screenshot = std::path::absolute(screenshot).context("locating the screenshot")?;
    let mut command = previewer(args)?;
    let size = format!("{}x{}", args.size, args.size);
    command.args(["--headless", "--walk", &speed.to_string(), "--frames", &frames.to_string()]);
    command.args(["--fixed-dt", &(1.0 / WALK_FPS).to_string(), "--size", &size, "--screenshot"]).arg(&screenshot);
    let status = command.status().context("running the game's previewer")?;
    ensure!(status.success(), "the previewer failed ({status})");
    println!("{}: on the treadmill at {speed} m/s -> {}", args.file.display(), screenshot.display());
    Ok(())
}

/// The game's previewer on the file, to be given its options:
/// `cargo run --release -p game -- --preview FILE`.
fn previewer(args: &PreviewArgs) -> Result<Command> {
    let file = std::path::absolute(&args.file).with_context(|| format!("locating {}", args.file.display()))?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(root).args(["run", "--release", "-p", "game", "--", "--preview"]).arg(file);
    Ok(command)
}

/// The clip `wanted` names (a name, else an index), or the first clip by default.
fn choose_clip(model: &Model, wanted: Option<&str>) -> Result<Option<usize>> {
    let Some(wanted) = wanted else { return Ok((!model.clips().is_empty()).then_some(0)) };
    let by_index = wanted.parse::<usize>().ok().filter(|&i| i < model.clips().len());
    match model.find_clip(wanted).or(by_index) {
        Some(clip) => Ok(Some(clip)),
        None => {
            let names: Vec<String> = model
                .clips()
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{i}: {}", c.name().unwrap_or("(unnamed)")))
                .collect();
            bail!(
                "no clip {wanted:?}; the model has: {}",
                if names.is_empty() { "none".into() } else { names.join(", ") }
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn clips_are_chosen_by_name_or_index() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/Fox.glb");
        let model = props_gltf::import_file(&root, &props_gltf::Limits::default()).expect("the Fox").model;
        assert_eq!(choose_clip(&model, Some("Run")).expect("by name"), Some(2));
        assert_eq!(choose_clip(&model, Some("1")).expect("by index"), Some(1));
        assert_eq!(choose_clip(&model, None).expect("default"), Some(0));
        let error = choose_clip(&model, Some("Fly")).expect_err("no such clip").to_string();
        assert!(error.contains("0: Survey, 1: Walk, 2: Run"), "{error}");
    }

    /// The still of `model` at `time`, read back.
    fn still(model: &str, time: f32, out: &Path) -> image::RgbaImage {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(model);
        let screenshot = out.join(format!("still-{time}.png"));
        let args = PreviewArgs {
            file,
            clip: None,
            time: Some(time),
            walk: None,
            headless: true,
            screenshot: Some(screenshot.clone()),
            size: 96,
            skeleton: false,
            bounds: false,
            influences: false,
        };
        run(&args).expect("the still is written");
        image::open(&screenshot).expect("a PNG").to_rgba8()
    }

    /// Skinned, node-animated and morph-animated models: the same time gives the same still
    /// (to the bit), another time a different one, the camera staying put.
    #[test]
    fn stills_follow_the_time_and_repeat_exactly() {
        if props_tests::gpu::context().is_none() {
            return;
        }
        let out = std::env::temp_dir().join(format!("props-preview-{}", std::process::id()));
        std::fs::create_dir_all(&out).expect("temporary folder");
        for (model, a, b) in [
            ("tests/models/Fox.glb", 0.2, 1.6),
            ("tests/models/BoxAnimated.gltf", 0.5, 2.5),
            ("tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf", 0.4, 2.1),
        ] {
            let first = still(model, a, &out);
            assert_eq!(first, still(model, a, &out), "{model}: the same still twice");
            let other = still(model, b, &out);
            let changed = first.pixels().zip(other.pixels()).filter(|(p, q)| p != q).count();
            assert!(changed > 100, "{model}: only {changed} pixels differ between {a} s and {b} s");
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}
