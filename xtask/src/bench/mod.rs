//! `cargo xtask bench`: benchmark tables, each measured beside its baseline in the same run.

mod city;
mod floor;
mod timing;

pub(crate) use city::city_frame;
pub(crate) use scene::load_models;
pub mod pose;
pub mod render;
pub mod scene;

/// `cargo xtask bench [--json] ...` prints the pose table; `cargo xtask bench render ...` the
/// renderer's.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    /// Another table than the pose table.
    #[command(subcommand)]
    pub target: Option<BenchTarget>,
    /// Options of the pose table.
    #[command(flatten)]
    pub pose: pose::PoseArgs,
}

/// What to benchmark besides pose evaluation.
#[derive(clap::Subcommand)]
pub enum BenchTarget {
    /// GPU skinning of N windmills offscreen, and GPU morphing of a grid with 8 and 64 targets, beside the same instances drawn in their bind pose.
    Render(render::RenderArgs),
    /// The real scene stepped, posed and extracted (default town, city, 100k windmills;
    /// exact, shared, budget; one thread and all), beside the fast kernel.
    Scene(scene::SceneArgs),
}

/// Runs `cargo xtask bench [target]`, in release ([`in_release`]).
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    in_release(|| match &args.target {
        Some(BenchTarget::Render(render)) => render::run(render),
        Some(BenchTarget::Scene(scene)) => scene::run(scene),
        None => pose::run(&args.pose),
    })
}

/// Runs `measure` in a release build: a debug xtask re-runs itself (the same arguments)
/// built with `--release`, since timings and long renders of a debug build mean nothing.
pub(crate) fn in_release(measure: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<()> {
    if cfg!(debug_assertions) {
        let status = std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["run", "--release", "--quiet", "--package", "xtask", "--"])
            .args(std::env::args_os().skip(1))
            .status()?;
        anyhow::ensure!(status.success(), "release run failed: {status}");
        return Ok(());
    }
    measure()
}

/// Median of `samples` (sorted in place); 0 for none.
pub fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(0.0)
}
