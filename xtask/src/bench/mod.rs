//! `cargo xtask bench`: benchmark tables, each measured beside its baseline in the same run.

pub mod render;

/// What to benchmark.
#[derive(clap::Subcommand)]
pub enum BenchTarget {
    /// GPU skinning of N windmills offscreen, beside the same instances drawn unskinned.
    Render(render::RenderArgs),
}

/// Runs `cargo xtask bench <target>`. Timings of a debug build mean nothing, so a debug
/// xtask (what `cargo xtask` builds) re-runs itself built with `--release`.
pub fn run(target: &BenchTarget) -> anyhow::Result<()> {
    if cfg!(debug_assertions) {
        let status = std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["run", "--release", "--quiet", "--package", "xtask", "--"])
            .args(std::env::args_os().skip(1))
            .status()?;
        anyhow::ensure!(status.success(), "release benchmark run failed: {status}");
        return Ok(());
    }
    match target {
        BenchTarget::Render(args) => render::run(args),
    }
}

/// Median of `samples` (sorted in place); 0 for none.
pub fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(0.0)
}
