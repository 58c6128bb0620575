//! `cargo xtask gait FILE [--clips-from FILE2] --speed S --seconds T --out OUT.json [--plant]`:
//! a character walked in a straight line over flat ground at S m/s as the game plays it: its
//! walk and run clips (or FILE2's, retargeted to its rig: [`props_anim::humanoid::retarget`])
//! at the rates their strides call for, blended by speed and kept in phase
//! ([`props_anim::gait::Gaits`], posed on the runtime's general path); with `--plant`, its
//! planted feet also held where they came down by two-bone IK ([`props_anim::gait::ik::Planting`],
//! as the game's crowds hold near props' feet). Writes per frame the world position of the
//! skeleton's root and of each foot and whether each is planted, and prints the foot slide:
//! the mean horizontal travel of a planted foot over its contact phase.
//!
//! JSON: `{"speed": S, "frames": [{"time": t, "root": [x, y, z], "feet": [[x, y, z], ...],
//! "contact": [true, ...]}]}`, metres, y up.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use glam::{Affine3A, Vec3};
use props_anim::gait::Walker;
use props_anim::humanoid::{BoneMap, with_clips_from};
use props_anim::{Model, Pose};
use props_gltf::Limits;
use props_gltf::gate::admit_file;
use serde_json::{Value, json};

use crate::as_mod;

/// Frames per second of the walk.
const FPS: f32 = 60.0;

/// Arguments of `cargo xtask gait`.
#[derive(clap::Args)]
pub struct GaitArgs {
    /// The character's glTF file.
    file: PathBuf,
    /// Walking speed, metres per second.
    #[arg(long)]
    speed: f32,
    /// How long to walk, seconds.
    #[arg(long, default_value_t = 10.0)]
    seconds: f32,
    /// Metres per model unit (the Fox's centimetres: 0.01); by default as the town shows a
    /// person: its sidecar's `units`, else metres, fitted to the base person's height when far
    /// off it.
    #[arg(long)]
    units: Option<f32>,
    /// The gait clips, by name.
    #[arg(long, value_delimiter = ',', default_value = "Walk,Run")]
    clips: Vec<String>,
    /// Hold planted feet where they came down (two-bone IK on each leg).
    #[arg(long)]
    plant: bool,
    /// Walk with this humanoid's clips, retargeted to the character's rig (both mapped by
    /// their bones' names), instead of its own.
    #[arg(long, value_name = "FILE2")]
    clips_from: Option<PathBuf>,
    /// The JSON to write.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &GaitArgs) -> Result<()> {
    let load = |file: &PathBuf| -> Result<Model> {
        Ok(admit_file(file, &Limits::default()).map_err(|refused| anyhow::anyhow!("{refused}"))?.import.model)
    };
    let model = load(&args.file)?;
    let sidecar = as_mod::sidecar(&args.file, &model);
    let bones = props_mods::sidecar::bone_map(sidecar.as_ref(), &model);
    let (model, clips) = match &args.clips_from {
        Some(from) => with_clips_of((&model, &bones), &load(from)?, &args.clips)?,
        None => {
            let clips = clip_indices(&model, &args.clips)?;
            (model, clips)
        }
    };
    let units = args.units.unwrap_or_else(|| as_mod::person_units(&model, sidecar.and_then(|s| s.units)));
    let walk = walk((&model, &bones), &clips, (args.speed, units), args.seconds, args.plant)
        .with_context(|| args.file.display().to_string())?;
    std::fs::write(&args.out, serde_json::to_string_pretty(&walk)?).with_context(|| args.out.display().to_string())?;
    let (slide, steps) = foot_slide(&walk);
    println!(
        "{}: {:.2} m/s for {:.0} s at {:.4} m per model unit: foot slide {:.2} cm per step ({steps} steps); wrote {}",
        args.file.display(),
        args.speed,
        args.seconds,
        units,
        slide * 100.0,
        args.out.display()
    );
    Ok(())
}

/// The clips of `model` named `names`, by index.
fn clip_indices(model: &Model, names: &[String]) -> Result<Vec<usize>> {
    let missing = |name: &str| {
        format!("the model has no clip `{name}` (a humanoid without one walks with another's: `--clips-from FILE`)")
    };
    names.iter().map(|name| model.find_clip(name).with_context(|| missing(name))).collect()
}

/// `model` with the clips of `from` named `names` retargeted to its rig (its person's `bones`)
/// and added after its own, and the added clips' indices.
pub(crate) fn with_clips_of(
    (model, bones): (&Model, &BoneMap),
    from: &Model,
    names: &[String],
) -> Result<(Model, Vec<usize>)> {
    let from_map = BoneMap::find(from.rig());
    let clips = clip_indices(from, names)?;
    Ok(with_clips_from((model, bones), (from, &from_map), &clips)?)
}

/// `model` walked at `speed` m/s (`units` metres per model unit) for `seconds` with the gaits
/// of its clips `clips` (by index), its planted feet held by IK if `plant` (its legs those of
/// its person's `bones`), as JSON (see the module's doc).
pub(crate) fn walk(
    (model, bones): (&Model, &BoneMap),
    clips: &[usize],
    (speed, units): (f32, f32),
    seconds: f32,
    plant: bool,
) -> Result<Value> {
    let Some(mut walker) = Walker::new(model, bones, clips, plant) else {
        let names: Vec<String> =
            clips.iter().map(|&c| format!("`{}`", model.clips()[c].name().unwrap_or("?"))).collect();
        bail!(
            "the clips {} show no stride: no foot of the model's skinned body is planted and moves (give the gait \
             clips that step with `--clips`, or a humanoid's with `--clips-from`)",
            names.join(", ")
        );
    };
    let root = walker.gaits().stride(0).root;
    let rig = walker.model().rig().clone();
    let (mut pose, mut scratch) = (Pose::from_rest(&rig), Pose::from_rest(&rig));
    let dt = 1.0 / FPS;
    let mut frames = Vec::new();
    for frame in 0..=(seconds * FPS).round() as u32 {
        let time = frame as f32 * dt;
        let advance = if frame == 0 { 0.0 } else { dt };
        // The model walks in its own units; the JSON is in metres.
        let placement =
            Affine3A::from_scale(Vec3::splat(units)) * walker.step(speed / units, advance, (&mut pose, &mut scratch));
        let contact = walker.contact().to_vec();
        let feet = walker.feet();
        let at = |node| placement.transform_point3(pose.world_matrix(node).translation.into()).to_array();
        frames.push(json!({
            "time": time,
            "root": root.map_or([0.0; 3], at),
            "feet": feet.iter().map(|&f| at(f)).collect::<Vec<_>>(),
            "contact": contact,
        }));
    }
    Ok(json!({"speed": speed, "frames": frames}))
}

/// The mean horizontal travel of a planted foot over its contact phase, metres, and how many
/// contact phases it is the mean of (those cut by the walk's start or end left out).
pub(crate) fn foot_slide(walk: &Value) -> (f32, usize) {
    let frames = walk["frames"].as_array().map_or(&[][..], Vec::as_slice);
    let feet = frames.first().and_then(|f| f["feet"].as_array()).map_or(0, Vec::len);
    let (mut total, mut steps) = (0.0, 0);
    for foot in 0..feet {
        let planted = |i: usize| frames[i]["contact"][foot].as_bool() == Some(true);
        let at = |i: usize| {
            let p = &frames[i]["feet"][foot];
            Vec3::new(p[0].as_f64().unwrap_or(0.0) as f32, 0.0, p[2].as_f64().unwrap_or(0.0) as f32)
        };
        let mut i = 0;
        while i < frames.len() {
            if !planted(i) {
                i += 1;
                continue;
            }
            let start = i;
            let mut travel = 0.0;
            while i + 1 < frames.len() && planted(i + 1) {
                travel += at(i + 1).distance(at(i));
                i += 1;
            }
            // A phase cut by the walk's start or end is not a whole step.
            if start > 0 && i + 1 < frames.len() {
                total += travel;
                steps += 1;
            }
            i += 1;
        }
    }
    (if steps == 0 { 0.0 } else { total / steps as f32 }, steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Fox walked at 1, 2 and 3 m/s (its walk's own speed is about 1, its run's about
    /// 2.1: below, between and above them), its planted feet held, keeps them within 2 cm a
    /// step; as its clips alone play (the game today), they slide by what the clips do.
    #[test]
    fn the_fox_s_planted_feet_stay_put() {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
        let model = admit_file(&file, &Limits::default()).expect("the Fox").import.model;
        let clips = clip_indices(&model, &["Walk".to_owned(), "Run".to_owned()]).expect("the gaits");
        let bones = BoneMap::find(model.rig());
        for speed in [1.0, 2.0, 3.0] {
            let (clip_slide, _) =
                foot_slide(&walk((&model, &bones), &clips, (speed, 0.01), 8.0, false).expect("walks"));
            let (slide, steps) = foot_slide(&walk((&model, &bones), &clips, (speed, 0.01), 8.0, true).expect("walks"));
            eprintln!(
                "Fox at {speed} m/s: {:.2} cm per step planted, {:.2} as the clips play, over {steps} steps",
                slide * 100.0,
                clip_slide * 100.0
            );
            assert!(steps >= 8, "{steps} steps at {speed} m/s");
            assert!(slide <= 0.02, "{:.2} cm per step at {speed} m/s", slide * 100.0);
        }
    }

    /// Humanoids of other rigs (Mixamo's names in centimetres in a T-pose, Blender's metarig's
    /// in an A-pose, a VRM 0.x avatar facing -Z named by its table, other sizes) walk with the base pedestrian's clips retargeted, their
    /// planted feet held as the game holds near people's, within 2 cm a step at 0.8 to 2 m/s.
    #[test]
    fn humanoids_of_other_rigs_walk_with_the_base_clips() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let load = |path: &str| admit_file(&root.join(path), &Limits::default()).expect(path).import.model;
        let base = load("assets/pedestrian.glb");
        let clips = ["Walk".to_owned(), "Run".to_owned()];
        let files = [
            "tests/models/humanoids/mixamo_person.glb",
            "tests/models/humanoids/metarig_person.glb",
            "tests/models/humanoids/vrm0_person.vrm",
        ];
        for file in files {
            let person = load(file);
            let bones = BoneMap::find(person.rig());
            let (model, indices) = with_clips_of((&person, &bones), &base, &clips).expect("retargets");
            for speed in [0.8, 1.2, 1.6, 2.0] {
                let walked = |plant| walk((&model, &bones), &indices, (speed, 1.0), 8.0, plant).expect("walks");
                let ((clip_slide, _), (slide, steps)) = (foot_slide(&walked(false)), foot_slide(&walked(true)));
                eprintln!(
                    "{file} at {speed} m/s: {:.2} cm per step planted, {:.2} as the clips play, over {steps} steps",
                    slide * 100.0,
                    clip_slide * 100.0
                );
                assert!(steps >= 6, "{file}: {steps} steps at {speed} m/s");
                assert!(slide <= 0.02, "{file}: {:.2} cm per step at {speed} m/s", slide * 100.0);
            }
        }
    }

    #[test]
    fn slide_is_the_travel_of_planted_feet() {
        // One foot: planted over frames 1-3 (moving 1 cm, then 2), lifted, planted again at the
        // end (cut: not counted).
        let frame =
            |x: f32, contact: bool| json!({"time": 0, "root": [0, 0, 0], "feet": [[x, 0.5, 0]], "contact": [contact]});
        let walk = json!({"speed": 1, "frames": [frame(0.0, false), frame(0.0, true), frame(0.01, true), frame(0.03, true),
            frame(0.5, false), frame(0.9, true)]});
        let (slide, steps) = foot_slide(&walk);
        assert_eq!(steps, 1);
        assert!((slide - 0.03).abs() < 1e-6, "{slide}");
    }
}
