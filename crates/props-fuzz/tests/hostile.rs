//! Every hostile case reaches the gate's expected verdict under the limits the game holds mods
//! to, and never takes more heap than those limits allow.
//!
//! Its own test binary: it installs a counting allocator and measures one case at a time.

use peak_alloc::PeakAlloc;
use props_fuzz::hostile::{Verdict, cases};
use props_gltf::gate::admit_file;
use props_mods::ModConfig;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

#[test]
fn hostile_files_get_their_verdict_within_the_mod_budget() {
    let limits = ModConfig::default_limits();
    let dir = std::env::temp_dir().join(format!("props-fuzz-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut failures = Vec::new();
    for case in cases() {
        let folder = dir.join(case.name);
        case.write(&folder).expect("write the case");
        let file_bytes: usize = case.files.iter().map(|(_, bytes)| bytes.len()).sum();
        HEAP.reset_peak_usage();
        let before = HEAP.current_usage();
        let started = std::time::Instant::now();
        let verdict = admit_file(&folder.join(&case.model), &limits);
        let peak = HEAP.peak_usage().saturating_sub(before);
        let seconds = started.elapsed().as_secs_f64();
        // The file itself (read whole), the decoded-bytes budget, and a few MiB of bookkeeping.
        let bound = 2 * file_bytes + usize::try_from(limits.max_decoded_bytes).unwrap_or(usize::MAX) + (8 << 20);
        let got = match &verdict {
            Ok(admitted) => {
                let warning = admitted.report.issues.first().map(|issue| issue.code);
                Verdict::Admitted(warning)
            }
            Err(refused) => Verdict::Refused(refused.fatal().next().map_or("?", |issue| issue.code)),
        };
        eprintln!("{:28} {got:?} peak {:.1} MiB in {seconds:.2} s", case.name, peak as f64 / 1048576.0);
        if got != case.verdict {
            let detail = match &verdict {
                Ok(admitted) => admitted.report.to_string(),
                Err(refused) => refused.to_string(),
            };
            failures
                .push(format!("{} ({}): expected {:?}, got {got:?}: {detail}", case.name, case.attack, case.verdict));
        }
        if peak > bound {
            failures.push(format!("{}: peak heap {peak} bytes, over the bound of {bound}", case.name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
