//! Project automation, run as `cargo xtask <command>` (see `.cargo/config.toml`).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod as_mod;
mod assets;
mod bench;
mod broken_models;
mod check_assets;
mod crowd_cost;
mod fuzz;
mod gait;
mod lod_quality;
mod mod_budgets;
mod model_memory;
mod numbers;
mod pose;
mod preview;
mod render;
mod test_models;
mod thumbnails;

#[derive(Parser)]
#[command(name = "cargo xtask", about = "Project automation for the animated-props workspace")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Pose a model at given times and write the oracle's JSON shape (`gltf-anim-oracle/1`).
    Pose(pose::PoseArgs),
    /// Regenerate the humanoids of other rigs the retargeting is tested on into
    /// `tests/models/humanoids/` (the pedestrian's body on Mixamo's, Blender's metarig's, 3ds
    /// Max's Biped's and Character Creator's skeletons and as a VRM 0.x avatar, without clips).
    GenHumanoids {
        /// Output folder.
        #[arg(long, default_value = "tests/models/humanoids")]
        out: PathBuf,
    },
    /// Regenerate the project's own small glTF test models into `tests/models/generated/`.
    GenTestModels {
        /// Output folder.
        #[arg(long, default_value = "tests/models/generated")]
        out: PathBuf,
    },
    /// Benchmark tables: pose evaluation (default), `render` or `scene` (`cargo xtask bench
    /// ...` builds in release).
    Bench(bench::BenchArgs),
    /// Check glTF models (default: `assets/` and `mods/`) with the game's own checker: Khronos
    /// glTF-Validator's rules plus the game's; exits with 1 when the game would refuse a file.
    CheckAssets {
        /// Files or folders (searched recursively for `.gltf` / `.glb`).
        paths: Vec<PathBuf>,
        /// Print a machine-readable JSON report instead of lines.
        #[arg(long)]
        json: bool,
        /// Hold every file to the size limits the game applies to mods (the default for
        /// files in a folder named `mods`).
        #[arg(long)]
        mod_limits: bool,
    },
    /// Walk a character in a straight line at a speed as the game plays its gaits; write its
    /// root's and feet's positions per frame as JSON and print its foot slide.
    Gait(gait::GaitArgs),
    /// Fuzz the model gate: structure-aware mutations of every test model and of the hostile
    /// corpus through import, check, posing and CPU skinning, each input bounded in time and
    /// memory (builds and runs `props-fuzz` in release; findings go to `target/fuzz/findings`).
    Fuzz(fuzz::FuzzArgs),
    /// Regenerate the checker's corpus of broken glTF files into `tests/models/broken/`.
    GenBrokenModels {
        /// Output folder.
        #[arg(long, default_value = "tests/models/broken")]
        out: PathBuf,
    },
    /// The model previewer: one model alone in a window (clips, overlays, morph sliders, the
    /// checker's report, reload on save), or with `--headless --screenshot OUT.png` a
    /// deterministic still at a chosen clip and time.
    Preview(preview::PreviewArgs),
    /// One thumbnail PNG per model, framed by its bounds over its clips, and an `index.html`
    /// contact sheet with clips, joints, triangles and checker status.
    Thumbnails(thumbnails::ThumbnailArgs),
    /// One model, one frame, drawn by the game's renderer under an exactly defined scene
    /// (framing, sun, ambient, sky, background), as three.js's reference renders are.
    Render(render::RenderArgs),
    /// What mesh LOD costs in looks: the city still with it against without (FLIP at
    /// 1920x1080 and 640x360), and popping over a 240-frame dolly towards the town (builds in
    /// release, as `bench` does).
    LodQuality(lod_quality::LodQualityArgs),
    /// Regenerate the demo's base models into `assets/`.
    GenAssets {
        /// Output folder.
        #[arg(long, default_value = "assets")]
        out: PathBuf,
    },
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Pose(args) => pose::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::GenHumanoids { out } => {
            for path in assets::humanoids(&out)? {
                println!("wrote {}", path.display());
            }
            Ok(())
        }
        Command::GenTestModels { out } => {
            for path in test_models::generate(&out)? {
                println!("wrote {}", path.display());
            }
            Ok(())
        }
        Command::CheckAssets { paths, json, mod_limits } => check_assets::run(&paths, json, mod_limits),
        Command::Fuzz(args) => fuzz::run(&args),
        Command::Gait(args) => gait::run(&args),
        Command::Thumbnails(args) => thumbnails::run(&args),
        Command::Preview(args) => preview::run(&args),
        Command::Render(args) => render::run(&args),
        Command::LodQuality(args) => bench::in_release(|| lod_quality::run(&args)),
        Command::GenBrokenModels { out } => {
            for path in broken_models::generate(&out)? {
                println!("wrote {}", path.display());
            }
            Ok(())
        }
        Command::GenAssets { out } => {
            for path in assets::generate(&out)? {
                println!("wrote {}", path.display());
            }
            Ok(())
        }
    }
}
