//! The supervisor: spawns the workers, follows their `B`/`E` lines, kills a worker whose
//! input outlives the time bound (a hang), notices a worker that dies inside an input (a
//! crash: an abort, or its address-space cap), and restarts it after that input. Prints the
//! rate as it goes and a summary at the end; saves every finding's input.

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use props_fuzz::corpus::{self, Entry};

use crate::Args;

/// How often the rate is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);
/// Address space a worker may take beyond the per-input heap bound (binary, stacks, seeds,
/// allocator arenas), KiB.
const WORKER_OVERHEAD_KIB: u64 = 1024 * 1024;

/// What a worker's threads report.
enum Report {
    /// A line of its stdout.
    Line { worker: usize, generation: u64, line: String },
    /// Its stdout closed: it exited.
    Closed { worker: usize, generation: u64 },
}

/// One worker process and where it is.
struct Slot {
    child: Option<Child>,
    /// Counts restarts, so that reports of a killed process are told apart.
    generation: u64,
    /// The input it is on, and since when.
    current: Option<(u64, Instant)>,
    /// The last bytes it wrote to stderr.
    stderr: Arc<Mutex<String>>,
    done: bool,
}

/// What went wrong with one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Panic,
    Hang,
    Crash,
    Memory,
    NonFinite,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Self::Panic => "panic",
            Self::Hang => "hang",
            Self::Crash => "crash",
            Self::Memory => "memory",
            Self::NonFinite => "nonfinite",
        }
    }
}

/// The run's tallies.
#[derive(Default)]
struct Tally {
    inputs: u64,
    admitted: u64,
    refused: BTreeMap<String, u64>,
    findings: BTreeMap<Kind, u64>,
    /// The largest peak heap of one input, bytes, and that input's index.
    peak: (u64, u64),
}

/// Runs the whole fuzzing session; the exit code says whether anything was found.
pub fn run(args: &Args) -> std::io::Result<ExitCode> {
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
    corpus::write_hostile(&args.hostile_dir())?;
    let entries = corpus::load(&args.corpus_dirs(), &args.hostile_dir());
    if entries.is_empty() {
        return Err(std::io::Error::other("no seed models found"));
    }
    let findings_dir = args.out.join("findings");
    std::fs::create_dir_all(&findings_dir)?;
    println!(
        "fuzzing {} inputs from {} seeds (run seed {}), {jobs} workers, at most {} ms and {} MiB per input",
        args.iterations,
        entries.len(),
        args.seed,
        args.time_limit_ms,
        args.memory_limit_mib
    );
    let (sender, reports) = mpsc::channel();
    let mut slots: Vec<Slot> = (0..jobs)
        .map(|_| Slot { child: None, generation: 0, current: None, stderr: Arc::default(), done: false })
        .collect();
    for (w, slot) in slots.iter_mut().enumerate() {
        spawn(args, jobs, w, w as u64, slot, &sender)?;
    }
    let supervisor = Supervisor { args, jobs, entries: &entries, findings_dir: &findings_dir };
    let started = Instant::now();
    let tally = supervisor.follow(&mut slots, &reports, &sender)?;
    summary(&tally, &entries, args.seed, started.elapsed().as_secs_f64());
    let found: u64 = tally.findings.values().sum();
    Ok(if found == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Starts (or restarts) worker `w` at input `first`.
fn spawn(
    args: &Args,
    jobs: usize,
    w: usize,
    first: u64,
    slot: &mut Slot,
    sender: &Sender<Report>,
) -> std::io::Result<()> {
    slot.generation += 1;
    slot.current = None;
    if first >= args.iterations {
        slot.done = true;
        return Ok(());
    }
    let exe = std::env::current_exe()?;
    let mut worker_args: Vec<String> = vec![
        "--worker".into(),
        "--first".into(),
        first.to_string(),
        "--stride".into(),
        jobs.to_string(),
        "--iterations".into(),
        args.iterations.to_string(),
        "--seed".into(),
        args.seed.to_string(),
        "--out".into(),
        args.out.display().to_string(),
    ];
    for dir in args.corpus_dirs() {
        worker_args.push("--corpus".into());
        worker_args.push(dir.display().to_string());
    }
    if let Some(at) = args.simulate_hang_at {
        worker_args.extend(["--simulate-hang-at".into(), at.to_string()]);
    }
    // Cap the worker's address space (Unix shells), so that a runaway allocation aborts the
    // worker instead of exhausting the machine.
    let mut command = if cfg!(unix) {
        let cap_kib = args.memory_limit_mib * 1024 + WORKER_OVERHEAD_KIB;
        let mut command = Command::new("sh");
        command.args(["-c", "ulimit -v \"$1\" && shift && exec \"$@\"", "sh", &cap_kib.to_string()]).arg(&exe);
        command
    } else {
        Command::new(&exe)
    };
    let mut child = command.args(&worker_args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let generation = slot.generation;
    if let Some(stdout) = child.stdout.take() {
        let sender = sender.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(Report::Line { worker: w, generation, line }).is_err() {
                    return;
                }
            }
            let _ = sender.send(Report::Closed { worker: w, generation });
        });
    }
    if let Some(mut stderr) = child.stderr.take() {
        let tail = Arc::clone(&slot.stderr);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                let mut tail = tail.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                tail.push_str(&String::from_utf8_lossy(&buffer[..n]));
                let excess = tail.len().saturating_sub(4096);
                if excess > 0 {
                    let cut = (excess..tail.len()).find(|&i| tail.is_char_boundary(i)).unwrap_or(0);
                    tail.drain(..cut);
                }
            }
        });
    }
    slot.child = Some(child);
    Ok(())
}

/// What the supervisor's loop needs to hand around.
struct Supervisor<'a> {
    args: &'a Args,
    jobs: usize,
    entries: &'a [Entry],
    findings_dir: &'a Path,
}

impl Supervisor<'_> {
    /// Follows the workers until every one has finished its share.
    fn follow(
        &self,
        slots: &mut [Slot],
        reports: &Receiver<Report>,
        sender: &Sender<Report>,
    ) -> std::io::Result<Tally> {
        let mut tally = Tally::default();
        let started = Instant::now();
        let mut last_progress = started;
        let time_limit = Duration::from_millis(self.args.time_limit_ms);
        while !slots.iter().all(|slot| slot.done) {
            match reports.recv_timeout(Duration::from_millis(50)) {
                Ok(Report::Line { worker, generation, line }) if slots[worker].generation == generation => {
                    self.line(&mut slots[worker], &line, &mut tally)?;
                }
                Ok(Report::Closed { worker, generation }) if slots[worker].generation == generation => {
                    let slot = &mut slots[worker];
                    let status = slot.child.take().and_then(|mut child| child.wait().ok());
                    match slot.current {
                        Some((index, _)) => {
                            let stderr = slot.stderr.lock().map(|s| s.clone()).unwrap_or_default();
                            let message = format!("the worker died ({status:?}): {}", stderr.trim());
                            self.finding(Kind::Crash, index, &message, &mut tally)?;
                            spawn(self.args, self.jobs, worker, index + self.jobs as u64, slot, sender)?;
                        }
                        None => slot.done = true,
                    }
                }
                Ok(_) | Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            for (w, slot) in slots.iter_mut().enumerate() {
                if let Some((index, since)) = slot.current
                    && since.elapsed() > time_limit
                {
                    if let Some(mut child) = slot.child.take() {
                        let _ = child.kill();
                        let _ = child.wait();
                    }
                    let message = format!("no result within {} ms", self.args.time_limit_ms);
                    self.finding(Kind::Hang, index, &message, &mut tally)?;
                    spawn(self.args, self.jobs, w, index + self.jobs as u64, slot, sender)?;
                }
            }
            if last_progress.elapsed() >= PROGRESS_EVERY {
                last_progress = Instant::now();
                let rate = tally.inputs as f64 / started.elapsed().as_secs_f64();
                println!(
                    "{} inputs, {rate:.0} inputs/s, {} findings",
                    tally.inputs,
                    tally.findings.values().sum::<u64>()
                );
            }
        }
        Ok(tally)
    }

    /// Handles one line of a worker.
    fn line(&self, slot: &mut Slot, line: &str, tally: &mut Tally) -> std::io::Result<()> {
        let mut words = line.splitn(4, ' ');
        match (words.next(), words.next().and_then(|i| i.parse::<u64>().ok())) {
            (Some("B"), Some(index)) => slot.current = Some((index, Instant::now())),
            (Some("E"), Some(index)) => {
                slot.current = None;
                tally.inputs += 1;
                let peak = words.next().and_then(|p| p.parse::<u64>().ok()).unwrap_or(0);
                tally.peak = tally.peak.max((peak, index));
                let outcome = words.next().unwrap_or("");
                let (word, rest) = outcome.split_once(' ').unwrap_or((outcome, ""));
                match word {
                    "ok" => tally.admitted += 1,
                    "refused" => *tally.refused.entry(rest.to_owned()).or_default() += 1,
                    "nonfinite" => self.finding(Kind::NonFinite, index, rest, tally)?,
                    _ => self.finding(Kind::Panic, index, rest, tally)?,
                }
                if peak > self.args.memory_limit_mib << 20 {
                    let message = format!("peak heap {} MiB, over {} MiB", peak >> 20, self.args.memory_limit_mib);
                    self.finding(Kind::Memory, index, &message, tally)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Records a finding: saves input `index` and what happened.
    fn finding(&self, kind: Kind, index: u64, message: &str, tally: &mut Tally) -> std::io::Result<()> {
        *tally.findings.entry(kind).or_default() += 1;
        let (entry, bytes) = corpus::input(self.entries, self.args.seed, index);
        let extension = if bytes.starts_with(b"glTF") { "glb" } else { "gltf" };
        let stem = format!("{}-seed{}-input{index}", kind.name(), self.args.seed);
        let path: PathBuf = self.findings_dir.join(format!("{stem}.{extension}"));
        std::fs::write(&path, &bytes)?;
        let entry = &self.entries[entry];
        let note = format!(
            "{}: {message}\nmutated from {} (external files resolved in {})\n",
            kind.name(),
            entry.seed.name,
            entry.folder.display()
        );
        std::fs::write(self.findings_dir.join(format!("{stem}.txt")), &note)?;
        println!("finding: {} input {index}: {message} (saved as {})", kind.name(), path.display());
        std::io::stdout().flush()
    }
}

/// Prints the closing lines: the heaviest input is named (its index, size and seed model), so
/// that its memory can be weighed against what it holds.
fn summary(tally: &Tally, entries: &[Entry], seed: u64, seconds: f64) {
    let count = |kind| tally.findings.get(&kind).copied().unwrap_or(0);
    let (peak, heaviest) = tally.peak;
    let (entry, bytes) = corpus::input(entries, seed, heaviest);
    println!(
        "{:.0} inputs/s over {seconds:.0} s; {} admitted, {} refused; largest peak heap of one input {:.1} MiB \
         (input {heaviest}: {:.1} KiB, mutated from {})",
        tally.inputs as f64 / seconds.max(1e-9),
        tally.admitted,
        tally.refused.values().sum::<u64>(),
        peak as f64 / 1048576.0,
        bytes.len() as f64 / 1024.0,
        entries[entry].seed.name
    );
    let mut codes: Vec<(&String, &u64)> = tally.refused.iter().collect();
    codes.sort_by(|a, b| b.1.cmp(a.1));
    let top: Vec<String> = codes.iter().take(8).map(|(code, n)| format!("{code} {n}")).collect();
    println!("most refused for: {}", top.join(", "));
    println!(
        "{} inputs, {} panics, {} hangs ({} crashes, {} over the memory bound, {} non-finite poses)",
        tally.inputs,
        count(Kind::Panic),
        count(Kind::Hang),
        count(Kind::Crash),
        count(Kind::Memory),
        count(Kind::NonFinite)
    );
}
