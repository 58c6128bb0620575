//! `cargo xtask pose`: pose a model at given times and write the oracle's JSON shape.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use props_gltf::{Limits, Part, import_file, pose_dump};

/// Arguments of `cargo xtask pose`.
#[derive(clap::Args)]
pub struct PoseArgs {
    /// The .gltf or .glb file.
    pub file: PathBuf,
    /// Clip to play: index or name; `none` for the rest pose. Default: 0, or `none` when the
    /// model has no clips.
    #[arg(long)]
    pub anim: Option<String>,
    /// Comma-separated times in seconds (negative allowed), e.g. `--times=-1,0,0.5`.
    /// Default: `0, D/2, D, D+0.5` with D the clip duration (the oracle's `auto`).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub times: Option<Vec<f32>>,
    /// Output JSON file; standard output when absent.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `cargo xtask pose`.
pub fn run(args: &PoseArgs) -> Result<()> {
    let import = import_file(&args.file, &Limits::default())?;
    for warning in &import.warnings {
        eprintln!("warning: {}: {warning}", args.file.display());
    }
    for dropped in &import.dropped {
        eprintln!("warning: {} ({})", dropped.error, dropped.part);
    }
    let clips = import.model.clips();
    // The glTF animation index (what the oracle names), from an index or a clip name.
    let animation = match args.anim.as_deref() {
        Some("none") => None,
        None if clips.is_empty() => None,
        None => import.clip_sources.first().map(|&a| a as usize),
        Some(anim) => Some(match anim.parse::<u32>() {
            Ok(index) if import.clip_of_animation(index).is_some() => index as usize,
            Ok(index) => {
                match import.dropped.iter().find(|d| matches!(d.part, Part::Clip { index: i, .. } if i == index)) {
                    Some(dropped) => bail!("--anim {index}: the animation was dropped: {}", dropped.error),
                    None => bail!("--anim {index}: the model has no animation {index}"),
                }
            }
            Err(_) => import.model.find_clip(anim).map(|c| import.clip_sources[c] as usize).with_context(|| {
                let names: Vec<_> = clips.iter().map(|c| c.name().unwrap_or("<unnamed>")).collect();
                format!("--anim {anim}: no clip of that name; clips: {}", names.join(", "))
            })?,
        }),
    };
    let times = match &args.times {
        Some(times) => times.clone(),
        None => {
            let clip = animation.and_then(|a| import.clip_of_animation(a as u32));
            let d = clip.map_or(0.0, |c| clips[c].duration());
            vec![0.0, d / 2.0, d, d + 0.5]
        }
    };
    let dump = pose_dump::dump(&import, &args.file.display().to_string(), animation, &times);
    let json = serde_json::to_string(&dump)?;
    match &args.out {
        Some(out) => std::fs::write(out, json).with_context(|| format!("writing {}", out.display()))?,
        None => println!("{json}"),
    }
    Ok(())
}
