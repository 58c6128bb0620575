//! `cargo xtask fuzz --iterations N --seed S`: builds the fuzzer (`crates/props-fuzz`) in
//! release and runs it with these options; it prints inputs per second and ends with
//! `N inputs, P panics, H hangs`, saving every finding under `target/fuzz/findings/`.

use anyhow::{Result, ensure};

/// Options passed on to the fuzzer.
#[derive(clap::Args)]
pub struct FuzzArgs {
    /// Inputs to run.
    #[arg(long, default_value_t = 100_000)]
    iterations: u64,
    /// Seed of the run (the same seed gives the same inputs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker processes (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Wall-clock bound of one input, milliseconds.
    #[arg(long, default_value_t = 10_000)]
    time_limit_ms: u64,
    /// Heap bound of one input, MiB.
    #[arg(long, default_value_t = 512)]
    memory_limit_mib: u64,
}

/// Runs the fuzzer in release; fails when it found anything.
pub fn run(args: &FuzzArgs) -> Result<()> {
    let mut command = std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.args(["run", "--release", "--quiet", "--package", "props-fuzz", "--"]);
    command.args(["--iterations", &args.iterations.to_string(), "--seed", &args.seed.to_string()]);
    command.args(["--time-limit-ms", &args.time_limit_ms.to_string()]);
    command.args(["--memory-limit-mib", &args.memory_limit_mib.to_string()]);
    if let Some(jobs) = args.jobs {
        command.args(["--jobs", &jobs.to_string()]);
    }
    let status = command.status()?;
    ensure!(status.success(), "the fuzzer found something (see above and target/fuzz/findings/)");
    Ok(())
}
