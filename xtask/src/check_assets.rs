//! `cargo xtask check-assets [PATHS...] [--json]`: checks every `.gltf` / `.glb` under the given
//! files and folders (default `assets/` and `mods/`) with `props_gltf::validate`, the gate the
//! game loads every model through, then as the game takes a mod (`as_mod.rs`: its sidecar,
//! `<name>.prop.toml`, and its place and binding in the town), and prints rustc-like lines (`file: /json/pointer: error[CODE]: message`, each error
//! marked with what the game does about it), what the game does with each file (`loads`,
//! `loads; 1 error read past, 2 warnings`, `drops clip 2 (`Run`), loads`, `refuses`), for each file it loads
//! its levels of detail and what it costs at 1k, 10k and 100k instances (`crowd_cost.rs`), the
//! memory it takes while loaded and on the GPU (what the mods' two budgets count) and its clips' gaits (the speed at rate 1 its planted feet measure, `props_anim::gait`),
//! and a summary with the mods' two budgets together (`mod_budgets.rs`), or a JSON report.
//! Exits with status 1 when the game would refuse any file, alone or over the budgets.
//!
//! Folders are walked without following symbolic links to folders (so never out of the given
//! folder and never in a loop); links to files are checked like the game would load them.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;

use crate::as_mod;
use crate::crowd_cost::{self, Cost};
use crate::mod_budgets::Together;
use crate::model_memory::{Memory, memory_line};
use crate::numbers::{bytes, significant};
use props_anim::Model;
use props_anim::constraint::ConstraintKind;
use props_anim::gait::Stride;
use props_anim::humanoid::{Bone, BoneMap};
use props_gltf::validate::{Issue, Outcome, Report, Severity};
use props_mods::{MODEL_EXTENSIONS, ModConfig};
use serde_json::json;

/// Folders checked when no path is given.
const DEFAULT_PATHS: &[&str] = &["assets", "mods"];
/// From how many files on a terminal a progress bar is shown.
const PROGRESS_FROM: usize = 8;

/// Runs the command; exits the process with status 1 when the game would refuse any file.
pub fn run(paths: &[PathBuf], json: bool, mod_limits: bool) -> Result<()> {
    let paths: Vec<PathBuf> =
        if paths.is_empty() { DEFAULT_PATHS.iter().map(PathBuf::from).collect() } else { paths.to_vec() };
    let files = model_files(&paths)?;
    let terminal = std::io::stdout().is_terminal();
    let progress = (terminal && !json && files.len() >= PROGRESS_FROM).then(|| progress_bar(files.len()));
    let mut reports = Vec::with_capacity(files.len());
    let mut costs = Vec::with_capacity(files.len());
    let mut gaits = Vec::with_capacity(files.len());
    for file in &files {
        let as_mod::Checked { report, model, shown, sidecar } =
            as_mod::check(file, &ModConfig::limits_for(file, mod_limits));
        let cost = model.as_ref().map(levels_and_costs).transpose()?;
        let strides = model.as_deref().map(strides).unwrap_or_default();
        let bones =
            model.as_deref().map(|m| props_mods::sidecar::bone_map(sidecar.as_ref(), m)).filter(BoneMap::is_humanoid);
        let variants = model.as_deref().map(material_variants).unwrap_or_default();
        let memory = model.as_deref().map(Memory::of);
        let spring_bones = model.as_deref().map(springs).filter(|&(joints, _, _)| joints > 0);
        let constraints = model.as_deref().map(constraints).filter(|counts| counts.iter().sum::<usize>() > 0);
        if !json {
            let mut lines: String = report.issues.iter().map(|issue| line(&report.file, issue, terminal)).collect();
            lines.push_str(&verdict(&report.file, &report.outcome(), terminal));
            if let Some((levels, costs)) = &cost {
                lines.push_str(&cost_lines(&report.file, levels, costs));
            }
            if let Some(memory) = &memory {
                lines.push_str(&memory_line(&report.file, memory));
            }
            if let Some(shown) = &shown {
                lines.push_str(&format!("{}: in the town: {}\n", report.file.display(), shown.at));
            }
            lines.push_str(&stride_lines(&report.file, &strides));
            let person = shown.as_ref().is_some_and(|s| s.role == props_scene::kinds::pedestrians::ROLE);
            let skinned = model.as_ref().is_some_and(|m| !m.skins().is_empty());
            lines.push_str(&bone_line(&report.file, bones.as_ref(), (person, skinned)));
            lines.push_str(&variant_line(&report.file, &variants));
            lines.push_str(&spring_line(&report.file, spring_bones));
            lines.push_str(&constraint_line(&report.file, constraints));
            match &progress {
                Some(bar) if !lines.is_empty() => bar.println(lines.trim_end()),
                _ => print!("{lines}"),
            }
        }
        if let Some(bar) = &progress {
            bar.inc(1);
        }
        reports.push(report);
        costs.push((cost, memory));
        gaits.push((strides, bones, variants, shown.map(|s| s.at), (spring_bones, constraints)));
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    // The mods' budgets together (the game's defaults), as the mods present at its start fill them.
    let mods: Vec<(&Path, &Memory)> = reports
        .iter()
        .zip(&costs)
        .filter(|(report, _)| ModConfig::limits_for(&report.file, mod_limits) == ModConfig::default_limits())
        .filter_map(|(report, (_, memory))| Some((report.file.as_path(), memory.as_ref()?)))
        .collect();
    let budgets = (ModConfig::DEFAULT_TOTAL_BYTES, ModConfig::DEFAULT_TOTAL_BYTES);
    let together = Together::fill(&mods, budgets);
    let errors: usize = reports.iter().map(Report::errors).sum();
    let warnings: usize = reports.iter().map(Report::warnings).sum();
    let refused = reports.iter().filter(|report| report.is_fatal()).count();
    let degraded =
        reports.iter().filter(|r| matches!(r.outcome(), Outcome::Loads { dropped, .. } if !dropped.is_empty()));
    let degraded = degraded.count();
    if json {
        let files: Vec<_> = reports
            .iter()
            .zip(&costs)
            .zip(&gaits)
            .map(|((r, (cost, memory)), (strides, bones, variants, shown, (springs, constraints)))| {
                let mut entry = json!({"file": r.file, "outcome": r.outcome(), "issues": r.issues});
                if let Some(shown) = shown {
                    entry["in_town"] = json!(shown);
                }
                if let Some(memory) = memory {
                    entry["memory"] = memory.json();
                }
                if let Some((levels, costs)) = cost {
                    entry["levels"] = json!(levels.iter().map(|l| json!({"triangles": l.triangles, "error": l.error, "impostor": l.impostor})).collect::<Vec<_>>());
                    entry["costs"] = json!(costs.iter().map(|c| json!({"instances": c.count, "triangles": c.triangles,
                        "draw_calls": c.draw_calls, "palette_bytes": c.palette_bytes, "instance_bytes": c.instance_bytes,
                        "at_level": c.at_level})).collect::<Vec<_>>());
                }
                if !strides.is_empty() {
                    entry["gaits"] = json!(strides.iter().map(|(clip, s)| json!({"clip": clip, "speed": s.speed,
                        "length": s.length(), "feet": s.feet.len(), "moves_root": s.moves_root()})).collect::<Vec<_>>());
                }
                if !variants.is_empty() {
                    entry["material_variants"] = json!(variants.iter().map(|(name, parts)| json!({"name": name,
                        "parts": parts})).collect::<Vec<_>>());
                }
                if let Some((joints, chains, colliders)) = springs {
                    entry["spring_bones"] = json!({"joints": joints, "chains": chains, "colliders": colliders});
                }
                if let Some([roll, aim, rotation]) = constraints {
                    entry["node_constraints"] = json!({"roll": roll, "aim": aim, "rotation": rotation});
                }
                if let Some(map) = bones {
                    entry["humanoid"] = json!({"convention": map.convention(), "bones": map.matched(),
                        "missing": map.missing().map(Bone::name).collect::<Vec<_>>(), "walks": map.walks()});
                }
                entry
            })
            .collect();
        let report = json!({"checked": files.len(), "errors": errors, "warnings": warnings, "refused": refused,
            "degraded": degraded, "files": files, "mods_together": together.json()});
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{}", summary(files.len(), errors, warnings, degraded, refused));
        if !mods.is_empty() {
            println!("{}", together.line(mods.len(), budgets));
        }
    }
    std::io::stdout().flush()?;
    if refused > 0 || !together.refused.is_empty() {
        std::process::exit(1);
    }
    Ok(())
}

/// A model's level of detail.
struct Level {
    /// Triangles drawn at it.
    triangles: usize,
    /// Its error, in the model's units.
    error: f32,
    /// Whether it is the model's impostor (`props_anim::impostor::Impostor`).
    impostor: bool,
}

/// A model's levels of detail, finest first.
type Levels = Vec<Level>;

/// Each clip of `model` that shows walking, named, with its stride ([`props_anim::gait`]).
fn strides(model: &Model) -> Vec<(String, Stride)> {
    let named = |c: usize| model.clips()[c].name().map_or_else(|| format!("clip {c}"), |n| format!("`{n}`"));
    (0..model.clips().len()).filter_map(|c| Some((named(c), props_anim::gait::stride(model, c)?))).collect()
}

/// The line giving `file`'s gaits, if any: `file: gaits (model units): `Walk` 103 a second at
/// rate 1, 73.3 a cycle, 2 feet, in place; ...`.
fn stride_lines(file: &Path, strides: &[(String, Stride)]) -> String {
    if strides.is_empty() {
        return String::new();
    }
    let gaits: Vec<String> = strides
        .iter()
        .map(|(clip, s)| {
            format!(
                "{clip} {} a second at rate 1, {} a cycle, {} feet, {}",
                significant(s.speed),
                significant(s.length()),
                s.feet.len(),
                if s.moves_root() { "moves its root (the game plays it in place)" } else { "in place" }
            )
        })
        .collect();
    format!("{}: gaits (model units, measured from the planted feet): {}\n", file.display(), gaits.join("; "))
}

/// The line giving `file`'s humanoid bone map, if it has one: `file: humanoid (Mixamo names):
/// 19 of 19 bones; walks with the base person's clips when it has none of its own` for a
/// `person` (the town shows it among its people), else what it would take to be one (a
/// `skinned` body, a role).
fn bone_line(file: &Path, map: Option<&BoneMap>, (person, skinned): (bool, bool)) -> String {
    let Some(map) = map else { return String::new() };
    let walks = match (map.walks(), person) {
        _ if !skinned => "cannot walk: its body is not skinned to its bones",
        (true, true) => "walks with the base person's clips when it has none of its own",
        (true, false) => {
            "a person: to walk among the town's people with the base person's clips, give it `role = \"pedestrian\"` \
             in its sidecar"
        }
        (false, _) => "cannot walk with the base person's clips: its hips, thighs, shins or feet are missing",
    };
    let arms = [Bone::LeftUpperArm, Bone::LeftLowerArm, Bone::RightUpperArm, Bone::RightLowerArm];
    let still = match map.walks() && arms.iter().any(|&arm| map.get(arm).is_none()) {
        true => " (an arm not mapped keeps its rest pose as it walks: a T-pose's stays out)",
        false => "",
    };
    format!("{}: {map}; {walks}{still}\n", file.display())
}

/// `model`'s spring bones: its joints, the chains they make (each starts at a joint whose
/// parent does not swing), its colliders.
fn springs(model: &Model) -> (usize, usize, usize) {
    let (rig, joints) = (model.rig(), model.springs().joints());
    let swings = |node| joints.iter().any(|j| j.node == node);
    let chains = joints.iter().filter(|j| !rig.parent(j.node).is_some_and(swings)).count();
    (joints.len(), chains, model.springs().colliders().len())
}

/// The line giving `file`'s spring bones, if it has any: `file: spring bones: 7 joints in 3
/// chains, 6 colliders; ...`.
fn spring_line(file: &Path, springs: Option<(usize, usize, usize)>) -> String {
    let Some((joints, chains, colliders)) = springs else { return String::new() };
    format!(
        "{}: spring bones: {joints} joints in {chains} chains, {colliders} colliders; they swing within 50 m of the \
         camera and in the previewer\n",
        file.display()
    )
}

/// `model`'s node constraints: how many roll, aim and rotation.
fn constraints(model: &Model) -> [usize; 3] {
    let mut counts = [0; 3];
    for constraint in model.rig().constraints().iter() {
        counts[match constraint.kind {
            ConstraintKind::Roll(_) => 0,
            ConstraintKind::Aim(_) => 1,
            ConstraintKind::Rotation => 2,
        }] += 1;
    }
    counts
}

/// The line giving `file`'s node constraints, if it has any: `file: node constraints: 2 roll,
/// 3 aim, 2 rotation; ...`.
fn constraint_line(file: &Path, constraints: Option<[usize; 3]>) -> String {
    let Some([roll, aim, rotation]) = constraints else { return String::new() };
    format!(
        "{}: node constraints: {roll} roll, {aim} aim, {rotation} rotation; they follow their sources wherever \
         the prop is posed, at every distance, and in the previewer\n",
        file.display()
    )
}

/// `model`'s material variants: each one's name and how many parts it draws in other
/// materials.
fn material_variants(model: &Model) -> Vec<(String, usize)> {
    model.material_variants().iter().map(|v| (v.name.clone(), v.materials.len())).collect()
}

/// The line giving `file`'s material variants, if it has any: `file: material variants
/// (KHR_materials_variants): `taxi` (2 parts in other materials), `police` (2)`.
fn variant_line(file: &Path, variants: &[(String, usize)]) -> String {
    if variants.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = (variants.iter().enumerate())
        .map(|(k, (name, parts))| match k {
            0 => format!("`{name}` ({} in other materials)", plural(*parts, "part")),
            _ => format!("`{name}` ({parts})"),
        })
        .collect();
    let line = "each a batch of its own per level: a draw call per part and variant in view";
    format!(
        "{}: material variants (KHR_materials_variants): {}; {line}
",
        file.display(),
        listed.join(", ")
    )
}

/// A model's levels of detail, and its costs at [`crowd_cost::COUNTS`] instances.
fn levels_and_costs(model: &Arc<Model>) -> Result<(Levels, Vec<Cost>)> {
    let levels = (model.lod_errors().iter().enumerate())
        .map(|(k, &error)| Level {
            triangles: model.lod_triangles(k),
            error,
            impostor: model.impostor_level() == Some(k),
        })
        .collect();
    let draws = props_render::Renderer::draws_per_level(model);
    let costs = crowd_cost::COUNTS.iter().map(|&n| crowd_cost::cost(model, &draws, n)).collect::<Result<_>>()?;
    Ok((levels, costs))
}

/// The lines giving `file`'s levels and costs: `file: levels of detail: 576 triangles in
/// full, 288 (error 0.12), ...` and `file: per frame from a typical view at 1k: 347k
/// triangles (980 in view: 412 in full, 120 as the box), ...`.
fn cost_lines(file: &Path, levels: &[Level], costs: &[Cost]) -> String {
    let coarser: Vec<String> = (levels.iter().skip(1))
        .map(|l| {
            let impostor = if l.impostor { ", the impostor: a box of its coverage and colour" } else { "" };
            format!("{} (error {}{impostor})", l.triangles, significant(l.error))
        })
        .collect();
    let mut text = match coarser.is_empty() {
        true => format!(
            "{}: levels of detail: {} in full, no coarser level\n",
            file.display(),
            plural(levels[0].triangles, "triangle")
        ),
        false => format!(
            "{}: levels of detail: {} in full, {} (errors in model units)\n",
            file.display(),
            plural(levels[0].triangles, "triangle"),
            coarser.join(", ")
        ),
    };
    let per_count: Vec<String> = costs
        .iter()
        .map(|c| {
            let triangles = if c.triangles == 1 { "triangle" } else { "triangles" };
            // How many the view sees, and how many of them at either end of the chain.
            let seen = c.at_level.iter().sum::<usize>();
            let full = c.at_level.first().copied().unwrap_or(0);
            let boxes = levels.iter().zip(&c.at_level).filter(|(l, _)| l.impostor).map(|(_, &n)| n).sum::<usize>();
            let boxes = if levels.iter().any(|l| l.impostor) {
                format!(", {} as the box", thousands(boxes))
            } else {
                String::new()
            };
            format!(
                "{}: {} {triangles} ({} in view: {} in full{boxes}), {}, {} palettes, {} instances",
                thousands(c.count),
                thousands(c.triangles),
                thousands(seen),
                thousands(full),
                plural(c.draw_calls, "draw call"),
                bytes(c.palette_bytes),
                bytes(c.instance_bytes)
            )
        })
        .collect();
    text.push_str(&format!("{}: per frame from a typical view at {}\n", file.display(), per_count.join("; ")));
    text
}

/// A count as `950`, `12k` or `1.2M`.
fn thousands(n: usize) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{}k", significant(n as f32 / 1e3)),
        _ => format!("{}M", significant(n as f32 / 1e6)),
    }
}

/// Every `.gltf` / `.glb` file among `paths` and under the folders among them, each folder's
/// files in sorted order. A file named explicitly is checked whatever its extension.
pub(crate) fn model_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, path, &mut files)?;
        } else if let Some(model) = sidecar_model(path) {
            // A sidecar named: its model, which it is checked with.
            files.push(model?);
        } else if path.exists() {
            // A special file too: the checker refuses it, naming what it is.
            files.push(path.clone());
        } else {
            bail!("{}: no such file or folder", path.display());
        }
    }
    Ok(files)
}

/// The model a sidecar `path` (`<name>.prop.toml`) belongs to, `<name>.glb`, `<name>.gltf`
/// or `<name>.vrm` beside it; `None` when `path` is no sidecar.
fn sidecar_model(path: &Path) -> Option<Result<PathBuf>> {
    let name = path.file_name()?.to_str()?.strip_suffix(".prop.toml")?;
    let model = MODEL_EXTENSIONS.iter().map(|ext| path.with_file_name(format!("{name}.{ext}"))).find(|m| m.is_file());
    Some(model.with_context(|| {
        format!("{}: a sidecar, but no `{name}.glb`, `{name}.gltf` or `{name}.vrm` beside it", path.display())
    }))
}

/// Appends the model files under `dir` (recursively, sorted by name), not following symbolic
/// links to folders, as the game's watcher takes them under `root`: hidden files and folders
/// and scratch copies left out ([`props_mods::is_mod_model`]).
fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    paths.sort();
    for path in paths {
        let is_folder = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        let below = path.strip_prefix(root).unwrap_or(&path);
        let hidden = path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('.'));
        if is_folder {
            if !hidden {
                walk(root, &path, files)?;
            }
        } else if props_mods::is_mod_model(below) {
            files.push(path);
        } else if let Some(Err(orphan)) = sidecar_model(&path) {
            // Most often a typo in its name: the game ignores it.
            eprintln!("warning: {orphan}: the game ignores it (name it as its model is named)");
        }
    }
    Ok(())
}

/// One issue as a line, like rustc (`error` in red and `warning` in yellow on a terminal).
fn line(file: &Path, issue: &Issue, colour: bool) -> String {
    let pointer = if issue.json_pointer.is_empty() { String::new() } else { format!("{}: ", issue.json_pointer) };
    let label = format!("{}[{}]", issue.severity, issue.code);
    let label = match (colour, issue.severity) {
        (false, _) => label,
        (true, Severity::Error) => format!("\x1b[1;31m{label}\x1b[0m"),
        (true, Severity::Warning) => format!("\x1b[1;33m{label}\x1b[0m"),
    };
    format!("{}: {pointer}{label}: {}{}\n", file.display(), issue.message, issue.ending())
}

/// What the game does with `file`, as a line: `file: loads; 2 warnings`.
fn verdict(file: &Path, outcome: &Outcome, colour: bool) -> String {
    let text = outcome.to_string();
    let text = match (colour, outcome) {
        (true, Outcome::Refuses) => format!("\x1b[1;31m{text}\x1b[0m"),
        (true, Outcome::Loads { dropped, .. }) if !dropped.is_empty() => format!("\x1b[1;33m{text}\x1b[0m"),
        _ => text,
    };
    format!("{}: {text}\n", file.display())
}

/// `n` and `word`, plural unless `n` is 1: `1 file`, `3 files`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") }
}

/// The closing line.
fn summary(files: usize, errors: usize, warnings: usize, degraded: usize, refused: usize) -> String {
    format!(
        "checked {}: {}, {}; the game loads {} without the parts it drops and refuses {}",
        plural(files, "file"),
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(degraded, "file"),
        plural(refused, "file")
    )
}

/// A progress bar over `files` files (on stderr).
fn progress_bar(files: usize) -> ProgressBar {
    let bar = ProgressBar::new(files as u64);
    if let Ok(style) = ProgressStyle::with_template("checking {bar:40} {pos}/{len} files") {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests;
