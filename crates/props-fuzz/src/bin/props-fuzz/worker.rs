//! A worker process: makes its share of the inputs and runs each through the pipeline,
//! writing `B <index>` before and `E <index> <peak heap bytes> <outcome>` after each on stdout
//! (the supervisor's only view of it).

use std::io::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::ExitCode;

use peak_alloc::PeakAlloc;
use props_fuzz::corpus;
use props_fuzz::pipeline::{self, Fate};
use props_mods::ModConfig;

use crate::Args;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// One line of an outcome (no line breaks).
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Works through inputs `first`, `first + stride`, ... below `iterations`.
pub fn run(args: &Args) -> std::io::Result<ExitCode> {
    let entries = corpus::load(&args.corpus_dirs(), &args.hostile_dir());
    if entries.is_empty() {
        return Err(std::io::Error::other("no seed models found"));
    }
    let limits = ModConfig::default_limits();
    // Panics are reported as outcomes; the default hook's message would interleave.
    std::panic::set_hook(Box::new(|_| {}));
    let mut out = std::io::stdout().lock();
    let mut index = args.first;
    while index < args.iterations {
        writeln!(out, "B {index}")?;
        out.flush()?;
        if args.simulate_hang_at == Some(index) {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
        let (entry, bytes) = corpus::input(&entries, args.seed, index);
        HEAP.reset_peak_usage();
        let baseline = HEAP.current_usage();
        let folder = &entries[entry].folder;
        let outcome = catch_unwind(AssertUnwindSafe(|| pipeline::run(&bytes, Some(folder), &limits)));
        let peak = HEAP.peak_usage().saturating_sub(baseline);
        let outcome = match outcome {
            Ok(Fate::Admitted) => "ok".to_owned(),
            Ok(Fate::Refused(code)) => format!("refused {code}"),
            Ok(Fate::NonFinite(what)) => format!("nonfinite {}", one_line(&what)),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                format!("panic {}", one_line(&message))
            }
        };
        writeln!(out, "E {index} {peak} {outcome}")?;
        index += args.stride;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
