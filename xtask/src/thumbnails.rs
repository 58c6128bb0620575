//! `cargo xtask thumbnails PATHS... --out DIR [--size N]`: one PNG per model (`<stem>.png`),
//! framed by the box its vertices fill over the rest pose and every clip, at a representative
//! time (the middle of its first clip), and an `index.html` contact sheet with each model's
//! clips, joints, triangles and checker status. Models are checked as `check-assets` checks
//! them (the game's gate, their sidecar, their place in the town), so a model the game refuses
//! is listed with why instead of drawn.
//!
//! Stills are deterministic: the same file on the same adapter gives the same PNG.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use props_anim::{JointMatrix, Model, Topology};
use props_gltf::gate::Refused;
use props_gltf::validate::Report;
use props_render::{GpuContext, StillRenderer, framing_camera};

use crate::as_mod;
use crate::check_assets::model_files;

/// Samples per clip of the framing box.
const EXTENT_SAMPLES: usize = 9;

/// Where in the first clip a thumbnail is taken, as a fraction of its duration.
const REPRESENTATIVE_FRACTION: f32 = 0.5;

/// Command-line arguments.
#[derive(Debug, clap::Args)]
pub struct ThumbnailArgs {
    /// Model files or folders (searched recursively for `.gltf` / `.glb`).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output folder (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Width and height of each image, in pixels.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(16..=4096))]
    pub size: u32,
}

/// What the contact sheet says about one model.
struct Entry {
    file: PathBuf,
    /// The PNG's file name, when the model was drawn.
    image: Option<String>,
    /// Clip names (or `#i`) and durations.
    clips: Vec<(String, f32)>,
    joints: usize,
    triangles: usize,
    /// The clip and time drawn.
    shown: Option<(String, f32)>,
    /// `ok`, the warnings' codes, or why the model was refused or not drawn.
    status: Status,
}

/// A model's checker verdict, as the sheet shows it.
enum Status {
    Loaded { warnings: Vec<String> },
    Refused(String),
    NotDrawn(String),
}

/// Runs the command.
pub fn run(args: &ThumbnailArgs) -> Result<()> {
    let files = model_files(&args.paths)?;
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let gpu = pollster::block_on(GpuContext::headless()).context("no GPU adapter (install mesa-vulkan-drivers)")?;
    let mut stills = StillRenderer::new(&gpu, (args.size, args.size));
    let mut names = BTreeSet::new();
    let mut entries = Vec::with_capacity(files.len());
    for file in files {
        let entry = thumbnail(&gpu, &mut stills, &file, &args.out, &mut names)?;
        match &entry.status {
            Status::Refused(why) | Status::NotDrawn(why) => println!("{}: not drawn: {why}", file.display()),
            Status::Loaded { .. } => {
                println!("{} -> {}", file.display(), args.out.join(entry.image.as_deref().unwrap_or("")).display());
            }
        }
        entries.push(entry);
    }
    let index = args.out.join("index.html");
    fs::write(&index, contact_sheet(&entries)).with_context(|| format!("writing {}", index.display()))?;
    println!(
        "{} models, {} drawn: {}",
        entries.len(),
        entries.iter().filter(|e| e.image.is_some()).count(),
        index.display()
    );
    Ok(())
}

/// Draws one model's thumbnail into `out` (or says why not).
fn thumbnail(
    gpu: &GpuContext,
    stills: &mut StillRenderer,
    file: &Path,
    out: &Path,
    names: &mut BTreeSet<String>,
) -> Result<Entry> {
    let mut entry = Entry {
        file: file.to_owned(),
        image: None,
        clips: Vec::new(),
        joints: 0,
        triangles: 0,
        shown: None,
        status: Status::NotDrawn(String::new()),
    };
    // Refused as `check-assets` and the game refuse it (its sidecar, its place in the town).
    let as_mod::Checked { report, model, .. } = as_mod::check(file, &props_mods::ModConfig::limits_for(file, false));
    let Some(model) = model else {
        entry.status = Status::Refused(Refused { report }.to_string());
        return Ok(entry);
    };
    let model = &*model;
    entry.clips = model.clips().iter().enumerate().map(|(i, c)| (clip_name(c.name(), i), c.duration())).collect();
    entry.joints = model.joint_count();
    entry.triangles = triangles(model);
    let Some(extent) = model.sampled_extent(EXTENT_SAMPLES) else {
        entry.status = Status::NotDrawn("the model has no vertices".to_owned());
        return Ok(entry);
    };
    let (palette, shown) = representative_palette(model);
    let (width, height) = stills.size();
    let camera = framing_camera(&extent, width as f32 / height as f32);
    let rgba = match stills.draw(gpu, model, &palette, camera, &[]) {
        Ok(rgba) => rgba,
        Err(error) => {
            entry.status = Status::NotDrawn(format!("the GPU refused it: {error}"));
            return Ok(entry);
        }
    };
    let name = unique_name(file, names);
    let path = out.join(&name);
    image::save_buffer(&path, &rgba, width, height, image::ExtendedColorType::Rgba8)
        .with_context(|| format!("writing {}", path.display()))?;
    entry.image = Some(name);
    entry.shown = shown;
    entry.status = Status::Loaded { warnings: warning_codes(&report) };
    Ok(entry)
}

/// The palette of the model's representative pose (the middle of its first clip, else the
/// rest pose), with the clip and time.
fn representative_palette(model: &Model) -> (Vec<JointMatrix>, Option<(String, f32)>) {
    let shown =
        model.clips().first().map(|clip| (clip_name(clip.name(), 0), clip.duration() * REPRESENTATIVE_FRACTION));
    let pose = model.pose_at(shown.as_ref().map(|_| 0), shown.as_ref().map_or(0.0, |(_, time)| *time));
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&pose, &mut palette);
    (palette, shown)
}

/// A clip's name, or `#index` for an unnamed one.
fn clip_name(name: Option<&str>, index: usize) -> String {
    name.map_or_else(|| format!("#{index}"), str::to_owned)
}

/// Triangles drawn: every mesh instance's triangle primitives.
fn triangles(model: &Model) -> usize {
    let meshes = model.instances().iter().map(|instance| &model.meshes()[instance.mesh as usize]);
    let primitives = meshes.flat_map(|mesh| &mesh.primitives).filter(|p| p.topology == Topology::Triangles);
    primitives.map(|p| if p.indices.is_empty() { p.vertex_count() } else { p.indices.len() } / 3).sum()
}

/// `<stem>.png`, or `<stem>-2.png`, ... when another model already has that stem.
fn unique_name(file: &Path, names: &mut BTreeSet<String>) -> String {
    let stem = file.file_stem().map_or_else(|| "model".into(), |s| s.to_string_lossy().into_owned());
    let name = (1..)
        .map(|n| if n == 1 { format!("{stem}.png") } else { format!("{stem}-{n}.png") })
        .find(|name| !names.contains(name))
        .unwrap_or_default();
    names.insert(name.clone());
    name
}

/// The codes of a loaded model's warnings (and the errors the game reads past or drops a part
/// for), each once.
fn warning_codes(report: &Report) -> Vec<String> {
    let codes: BTreeSet<String> = report.issues.iter().map(|issue| issue.code.to_owned()).collect();
    codes.into_iter().collect()
}

/// The contact sheet: one card per model.
fn contact_sheet(entries: &[Entry]) -> String {
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Model thumbnails</title>\n<style>\
         body{font-family:sans-serif;background:#222;color:#ddd}\
         .card{display:inline-block;vertical-align:top;width:280px;margin:8px;padding:8px;background:#333}\
         img{display:block;width:100%}.ok{color:#8c8}.warn{color:#dc6}.bad{color:#e77}\
         .missing{height:120px;display:flex;align-items:center;justify-content:center;background:#444}\
         </style></head><body>\n",
    );
    let _ = writeln!(html, "<h1>{} models</h1>", entries.len());
    for entry in entries {
        let _ = writeln!(html, "<div class=\"card\">");
        match &entry.image {
            Some(image) => {
                let _ = writeln!(
                    html,
                    "<img src=\"{}\" alt=\"{}\">",
                    escape(image),
                    escape(&entry.file.display().to_string())
                );
            }
            None => html.push_str("<div class=\"missing\">no image</div>\n"),
        }
        let _ = writeln!(html, "<b>{}</b><br>", escape(&entry.file.display().to_string()));
        match &entry.status {
            Status::Loaded { warnings } if warnings.is_empty() => html.push_str("<span class=\"ok\">ok</span><br>\n"),
            Status::Loaded { warnings } => {
                let _ = writeln!(html, "<span class=\"warn\">warnings: {}</span><br>", escape(&warnings.join(", ")));
            }
            Status::Refused(why) => {
                let _ = writeln!(html, "<span class=\"bad\">refused: {}</span><br>", escape(why));
            }
            Status::NotDrawn(why) => {
                let _ = writeln!(html, "<span class=\"bad\">not drawn: {}</span><br>", escape(why));
            }
        }
        if matches!(entry.status, Status::Loaded { .. }) {
            let _ = writeln!(html, "{} joints, {} triangles<br>", entry.joints, entry.triangles);
            let clips: Vec<String> =
                entry.clips.iter().map(|(name, d)| format!("{} ({d:.2} s)", escape(name))).collect();
            let clips = if clips.is_empty() { "none".to_owned() } else { clips.join(", ") };
            let _ = writeln!(html, "clips: {clips}<br>");
            if let Some((clip, time)) = &entry.shown {
                let _ = writeln!(html, "shown: {} at {time:.2} s", escape(clip));
            }
        }
        html.push_str("</div>\n");
    }
    html.push_str("</body></html>\n");
    html
}

/// Text made safe inside HTML elements and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_and_stems_kept_apart() {
        assert_eq!(escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        let mut names = BTreeSet::new();
        assert_eq!(unique_name(Path::new("a/car.glb"), &mut names), "car.png");
        assert_eq!(unique_name(Path::new("b/car.gltf"), &mut names), "car-2.png");
        assert_eq!(unique_name(Path::new("fox.glb"), &mut names), "fox.png");
    }

    #[test]
    fn the_sheet_lists_loaded_and_refused_models() {
        let entries = [
            Entry {
                file: "mods/<odd>.glb".into(),
                image: Some("odd.png".into()),
                clips: vec![("Walk".into(), 1.5)],
                joints: 24,
                triangles: 576,
                shown: Some(("Walk".into(), 0.75)),
                status: Status::Loaded { warnings: vec!["PROPS_IGNORED".into()] },
            },
            Entry {
                file: "mods/bad.gltf".into(),
                image: None,
                clips: Vec::new(),
                joints: 0,
                triangles: 0,
                shown: None,
                status: Status::Refused("mods/bad.gltf: /nodes/0: error[NODE_LOOP]: a loop".into()),
            },
        ];
        let html = contact_sheet(&entries);
        assert!(html.contains("mods/&lt;odd&gt;.glb"), "{html}");
        assert!(html.contains("24 joints, 576 triangles") && html.contains("Walk (1.50 s)"), "{html}");
        assert!(html.contains("warnings: PROPS_IGNORED") && html.contains("refused: mods/bad.gltf"), "{html}");
    }

    /// The pixels that are not the sky: their bounding box `(x0, y0, x1, y1)`.
    fn drawn_box(image: &image::RgbaImage) -> Option<(u32, u32, u32, u32)> {
        let sky = *image.get_pixel(0, 0);
        let drawn = image.enumerate_pixels().filter(|(_, _, p)| **p != sky).map(|(x, y, _)| (x, y));
        drawn.fold(None, |b, (x, y)| {
            Some(b.map_or((x, y, x, y), |(x0, y0, x1, y1)| (x0.min(x), y0.min(y), x1.max(x), y1.max(y))))
        })
    }

    /// Thumbnails of a skinned, a morph-animated, a vertex-coloured and a Blender (shape keys
    /// on a skin) model: each fills most of the image without touching its border (the model
    /// is framed), and each equals its golden image (rendered on lavapipe; regenerate with
    /// `PROPS_BLESS=1 cargo test -p xtask thumbnails`).
    #[test]
    fn thumbnails_frame_their_models_and_match_the_goldens() {
        let Some(gpu) = props_tests::gpu::context() else { return };
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let out = std::env::temp_dir().join(format!("props-thumbnails-{}", std::process::id()));
        fs::create_dir_all(&out).expect("temporary folder");
        let mut stills = StillRenderer::new(&gpu, (128, 128));
        let mut names = BTreeSet::new();
        for model in [
            "tests/models/Fox.glb",
            "tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf",
            "tests/models/generated/vertex_colors.gltf",
            "tests/models/blender/blender_shape_keys.glb",
        ] {
            let entry = thumbnail(&gpu, &mut stills, &root.join(model), &out, &mut names).expect("drawn");
            let name = entry.image.unwrap_or_else(|| panic!("{model} was not drawn"));
            let image = image::open(out.join(&name)).expect("a PNG").to_rgba8();
            let (x0, y0, x1, y1) = drawn_box(&image).unwrap_or_else(|| panic!("{model}: nothing drawn"));
            assert!(x0 > 0 && y0 > 0 && x1 < 127 && y1 < 127, "{model} touches the border: {:?}", (x0, y0, x1, y1));
            // The box over all clips is framed, not this pose: the Fox's spans (-30..26, -2..79,
            // -97..75), so its walk fills about 45% of the image seen from the front-right.
            assert!((x1 - x0).max(y1 - y0) >= 50, "{model} fills too little: {:?}", (x0, y0, x1, y1));
            let golden = format!("thumbnail-{}", name.trim_end_matches(".png"));
            props_tests::golden::check_golden(&golden, &image, GOLDEN);
        }
        let _ = fs::remove_dir_all(&out);
    }

    /// As for the demo's goldens (tests/gpu/goldens.rs): lavapipe reproduces them to the bit;
    /// the slack absorbs other rasterizers.
    const GOLDEN: props_tests::golden::Threshold = props_tests::golden::Threshold { mean: 0.01, p99: 0.2 };
}
