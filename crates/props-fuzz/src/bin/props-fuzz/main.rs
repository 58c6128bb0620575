//! `props-fuzz` (what `cargo xtask fuzz` runs, in release): structure-aware fuzzing of the
//! model gate. The supervisor spawns worker processes (itself, with `--worker`), each working
//! through its share of the input indices; it gives every input a time bound (a worker that
//! does not finish one is killed: a hang) and a memory bound (peak heap per input measured by
//! the worker; the worker's address space is capped as well, so a runaway allocation kills
//! it rather than the machine), saves every input that panics, hangs, crashes, outgrows the
//! bound or poses non-finite matrices, and ends with `N inputs, P panics, H hangs`.

mod supervisor;
mod worker;

use std::path::PathBuf;

use clap::Parser as _;

/// Options of a fuzzing run.
#[derive(Clone, Debug, clap::Parser)]
#[command(
    name = "props-fuzz",
    about = "Fuzz the model gate: mutated glTF files through import, check, posing and skinning"
)]
pub struct Args {
    /// Inputs to run.
    #[arg(long, default_value_t = 100_000)]
    pub iterations: u64,
    /// Seed of the run: the same seed gives the same inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker processes (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Wall-clock bound of one input, milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub time_limit_ms: u64,
    /// Heap bound of one input above the worker's baseline, MiB.
    #[arg(long, default_value_t = 512)]
    pub memory_limit_mib: u64,
    /// Where findings (and the hostile seeds) are written.
    #[arg(long, default_value = "target/fuzz")]
    pub out: PathBuf,
    /// Folders of seed models (default: the repository's tests/models, assets and mods).
    #[arg(long)]
    pub corpus: Vec<PathBuf>,
    /// Run as a worker: inputs `first`, `first + stride`, ... below `--iterations`.
    #[arg(long, hide = true)]
    pub worker: bool,
    /// A worker's first input.
    #[arg(long, hide = true, default_value_t = 0)]
    pub first: u64,
    /// A worker's step between inputs.
    #[arg(long, hide = true, default_value_t = 1)]
    pub stride: u64,
    /// Make the worker hang at this input (to test the supervisor).
    #[arg(long, hide = true)]
    pub simulate_hang_at: Option<u64>,
}

impl Args {
    /// The seed folders.
    fn corpus_dirs(&self) -> Vec<PathBuf> {
        if !self.corpus.is_empty() {
            return self.corpus.clone();
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        ["tests/models", "assets", "mods"].iter().map(|dir| root.join(dir)).collect()
    }

    /// Where the hostile seeds are written.
    fn hostile_dir(&self) -> PathBuf {
        self.out.join("hostile-seeds")
    }
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let result = if args.worker { worker::run(&args) } else { supervisor::run(&args) };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("props-fuzz: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
