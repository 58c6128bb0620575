//! The `mod-loader` worker thread: owns the policy, receives notify's batches, imports the
//! models that are due and sends the results to the game. Imports never run on the game's
//! thread; the game only drains the result channel.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use notify_debouncer_full::DebounceEventResult;
use props_gltf::Limits;
use props_gltf::gate::{Admitted, Refused};

use crate::ModEvent;
use crate::policy::{Action, FsEventKind, Millis, ReloadPolicy};
use crate::sidecar;
use crate::watcher::{Batch, FsProbe, Problem, Translator};

/// What the worker receives.
pub(crate) enum Input {
    /// A debounced batch from notify.
    Notify(DebounceEventResult),
    /// Load the mod at this path again, at once ([`crate::ModWatcher::reload`]).
    Reload(PathBuf),
    /// The watcher is being dropped.
    Stop,
}

/// Whether the worker goes on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Stop,
}

/// The worker's state; [`Worker::run`] is the thread's body.
pub(crate) struct Worker {
    /// The canonical mods root: files are read and confined here.
    root: PathBuf,
    /// The root as the game gave it: file names in messages start with it.
    shown_root: PathBuf,
    limits: Limits,
    /// The roles a sidecar may give (see [`crate::ModConfig::roles`]).
    roles: Vec<sidecar::Role>,
    /// The RAM budget of all mods together (see [`crate::ModConfig::total_bytes`]).
    total_bytes: u64,
    /// Where the players raise it ([`crate::ModConfig::total_bytes_setting`]).
    total_bytes_setting: String,
    /// Heap bytes of each model sent to the game and not removed since.
    resident: BTreeMap<PathBuf, u64>,
    /// What the game says it keeps of them ([`crate::ModWatcher::set_resident_bytes`]: none
    /// of one it refused, less the pixels of one it shows): read before each budget check, so
    /// that mods loading one after another count those before at what the game keeps.
    resident_updates: Receiver<(PathBuf, u64)>,
    /// Mods the game asked to load again, having released their pixels
    /// ([`crate::ModWatcher::reload`]): it releases them again once they show, so they count
    /// without them.
    reloading: BTreeSet<PathBuf>,
    /// Whether the game answers every model sent with what it keeps of it
    /// ([`crate::ModConfig::host_reports_kept_bytes`]).
    reports: bool,
    /// The models sent whose answer has not come yet (with `reports`).
    unanswered: BTreeSet<PathBuf>,
    /// How long the last budget check waited for answers.
    waited: Duration,
    policy: ReloadPolicy,
    translator: Translator,
    probe: FsProbe,
    inputs: Receiver<Input>,
    events: Sender<ModEvent>,
    start: Instant,
}

impl Worker {
    /// A worker for the canonical `root` (shown as `shown_root`), reading `inputs` and
    /// sending results to `events`.
    pub(crate) fn new(
        root: PathBuf,
        shown_root: PathBuf,
        config: crate::ModConfig,
        (inputs, resident_updates): (Receiver<Input>, Receiver<(PathBuf, u64)>),
        events: Sender<ModEvent>,
    ) -> Self {
        Self {
            translator: Translator::new(root.clone()),
            probe: FsProbe::new(root.clone()),
            root,
            shown_root,
            limits: config.limits,
            roles: config.roles,
            total_bytes: config.total_bytes,
            total_bytes_setting: config.total_bytes_setting,
            resident: BTreeMap::new(),
            resident_updates,
            reloading: BTreeSet::new(),
            reports: config.host_reports_kept_bytes,
            unanswered: BTreeSet::new(),
            waited: Duration::ZERO,
            policy: ReloadPolicy::new(config.settle),
            inputs,
            events,
            start: Instant::now(),
        }
    }

    /// Loads what is there, then follows changes until [`Input::Stop`] (or until the watcher
    /// is gone).
    pub(crate) fn run(mut self) {
        let mut batch = Batch::default();
        self.translator.scan(Path::new(""), &mut batch);
        self.policy.initial(self.now(), batch.events.into_iter().map(|event| event.path));
        let mut flow = self.report(batch.problems);
        let mut ready_sent = false;
        while flow == Flow::Continue {
            let actions = self.policy.poll(self.now(), &self.probe);
            for action in actions {
                flow = self.apply(action);
                if flow == Flow::Stop {
                    break;
                }
            }
            // The models that were there at start are loaded (or rejected) by the first poll.
            if flow == Flow::Continue && !ready_sent {
                ready_sent = true;
                flow = self.send(ModEvent::Ready);
            }
            if flow == Flow::Continue {
                flow = self.wait();
            }
        }
        tracing::debug!(root = %self.shown_root.display(), "mod loader stopped");
    }

    fn now(&self) -> Millis {
        Millis::from_duration(self.start.elapsed())
    }

    /// Waits for input until the policy's next deadline, then feeds all that arrived.
    fn wait(&mut self) -> Flow {
        let received = match self.policy.next_deadline() {
            Some(deadline) => {
                let now = self.now();
                if deadline <= now {
                    return self.drain();
                }
                match self.inputs.recv_timeout(Duration::from_millis(deadline.0 - now.0)) {
                    Ok(input) => input,
                    Err(RecvTimeoutError::Timeout) => return Flow::Continue,
                    Err(RecvTimeoutError::Disconnected) => return Flow::Stop,
                }
            }
            None => match self.inputs.recv() {
                Ok(input) => input,
                Err(_) => return Flow::Stop,
            },
        };
        match self.feed(received) {
            Flow::Continue => self.drain(),
            Flow::Stop => Flow::Stop,
        }
    }

    /// Feeds every input that already arrived, without blocking.
    fn drain(&mut self) -> Flow {
        loop {
            match self.inputs.try_recv() {
                Ok(input) => {
                    if self.feed(input) == Flow::Stop {
                        return Flow::Stop;
                    }
                }
                Err(TryRecvError::Empty) => return Flow::Continue,
                Err(TryRecvError::Disconnected) => return Flow::Stop,
            }
        }
    }

    /// Hands one input to the policy.
    fn feed(&mut self, input: Input) -> Flow {
        let result = match input {
            Input::Notify(result) => result,
            Input::Reload(path) => {
                self.policy.initial(self.now(), [path.clone()]);
                self.reloading.insert(path);
                return Flow::Continue;
            }
            Input::Stop => return Flow::Stop,
        };
        let mut batch = Batch::default();
        self.translator.translate(result, &mut batch);
        let now = self.now();
        if batch.rescan {
            tracing::warn!(root = %self.shown_root.display(), "the watcher lost events; rescanning the mods folder");
            let mut scan = Batch::default();
            self.translator.scan(Path::new(""), &mut scan);
            self.policy.rescan(now, scan.events.into_iter().map(|event| event.path));
            batch.problems.extend(scan.problems);
        }
        for event in &batch.events {
            self.policy.event(now, event);
        }
        if batch.events.iter().any(|e| matches!(e.kind, FsEventKind::Removed | FsEventKind::Renamed { .. })) {
            self.policy.sweep_missing(now, &self.probe);
        }
        self.report(batch.problems)
    }

    /// Sends watcher problems to the game.
    fn report(&self, problems: Vec<Problem>) -> Flow {
        for Problem { paths, error } in problems {
            tracing::warn!(?paths, %error, "mods folder watcher problem");
            if self.send(ModEvent::WatchError { paths, error }) == Flow::Stop {
                return Flow::Stop;
            }
        }
        Flow::Continue
    }

    fn send(&self, event: ModEvent) -> Flow {
        if self.events.send(event).is_ok() { Flow::Continue } else { Flow::Stop }
    }

    /// Carries out one action of the policy.
    fn apply(&mut self, action: Action) -> Flow {
        match action {
            Action::Remove { model_path } => {
                tracing::debug!(path = %model_path.display(), "mod model removed");
                self.resident.remove(&model_path);
                self.reloading.remove(&model_path);
                self.unanswered.remove(&model_path);
                self.send(ModEvent::Removed { name: name_of(&model_path), path: model_path })
            }
            Action::Load { model_path, version } => {
                let event = self.load(model_path.clone(), version);
                self.reloading.remove(&model_path);
                // Changes that arrived during the import may have made its result stale.
                if self.drain() == Flow::Stop {
                    return Flow::Stop;
                }
                if !self.policy.is_current(&model_path, version) {
                    tracing::debug!(path = %model_path.display(), version, "discarded a stale import");
                    return Flow::Continue;
                }
                log_result(&self.shown_root, &event);
                if self.reports && matches!(event, ModEvent::Loaded { .. }) {
                    self.unanswered.insert(model_path);
                }
                self.send(event)
            }
        }
    }

    /// Imports `version` of the model at `path` (relative to the root).
    fn load(&mut self, path: PathBuf, version: u64) -> ModEvent {
        let name = name_of(&path);
        let shown = self.shown_root.join(&path);
        let started = Instant::now();
        self.waited = Duration::ZERO;
        match self.admit(&path, &shown) {
            Ok(admitted) => {
                let model = admitted.import.model;
                let sidecar = match sidecar::read(&self.root.join(&path), &shown, &model, &self.roles) {
                    Ok(sidecar) => sidecar,
                    Err(error) => {
                        let refused =
                            Refused::one(Path::new(&error.file), sidecar::SIDECAR_CODE, &error.pointer, error.message);
                        return ModEvent::Rejected { path, name, refused, version };
                    }
                };
                // The import's time, not the wait for the game's answers (`others_answered`).
                let load_ms = started.elapsed().saturating_sub(self.waited).as_secs_f64() * 1000.0;
                self.resident.insert(path.clone(), self.resident_bytes(&path, &model));
                let report = admitted.report;
                ModEvent::Loaded { path, name, model: Arc::new(model), sidecar, version, load_ms, report }
            }
            Err(refused) => ModEvent::Rejected { path, name, refused, version },
        }
    }

    /// What the mods but the one at `path` take, by the game's answers so far; while that and
    /// `bytes` pass the budget and some models sent have no answer yet, it waits for theirs
    /// (up to [`crate::ModConfig::REPORT_WAIT`]).
    fn others_answered(&mut self, path: &Path, bytes: u64) -> u64 {
        let started = Instant::now();
        let others = self.wait_for_answers(path, bytes, started + crate::ModConfig::REPORT_WAIT);
        self.waited = started.elapsed();
        others
    }

    /// [`Worker::others_answered`], waiting until `deadline` at most.
    fn wait_for_answers(&mut self, path: &Path, bytes: u64, deadline: Instant) -> u64 {
        let mut answers: Vec<(PathBuf, u64)> = self.resident_updates.try_iter().collect();
        loop {
            for (answered, kept) in answers.drain(..) {
                self.unanswered.remove(&answered);
                if let Some(held) = self.resident.get_mut(&answered) {
                    *held = kept;
                }
            }
            let others: u64 = self.resident.iter().filter(|(p, _)| p.as_path() != path).map(|(_, &bytes)| bytes).sum();
            let waiting = self.unanswered.iter().any(|p| p.as_path() != path);
            let left = deadline.checked_duration_since(Instant::now());
            match (others.saturating_add(bytes) > self.total_bytes && waiting, left) {
                (true, Some(left)) => match self.resident_updates.recv_timeout(left) {
                    Ok(answer) => answers.push(answer),
                    Err(_) => return others,
                },
                _ => return others,
            }
        }
    }

    /// What the budget counts for `model` (at `path`): its heap bytes, without its pixels
    /// when the game asked for it again after releasing them.
    fn resident_bytes(&self, path: &Path, model: &props_anim::Model) -> u64 {
        let released = if self.reloading.contains(path) { model.image_bytes() } else { 0 };
        model.heap_bytes() - released
    }

    /// Why `model` (at `path`) does not fit in the RAM budget beside the `others` bytes of
    /// the mods loaded: the sizes, the largest mods holding it, and what to do.
    fn over_budget(&self, path: &Path, model: &props_anim::Model, others: u64) -> String {
        let mut holders: Vec<(&PathBuf, u64)> =
            self.resident.iter().filter(|(p, _)| p.as_path() != path).map(|(p, &b)| (p, b)).collect();
        holders.sort_by_key(|&(p, bytes)| (std::cmp::Reverse(bytes), p));
        let largest: Vec<String> =
            holders.iter().take(3).map(|(p, bytes)| format!("{} {}", p.display(), size(*bytes))).collect();
        let largest = match largest.is_empty() {
            true => String::new(),
            false => format!(" (the largest: {})", largest.join(", ")),
        };
        let images = match model.image_bytes() {
            0 => String::new(),
            n => format!(" ({} of it images)", size(n)),
        };
        format!(
            "the model takes {} of memory{images} and the mods already loaded {}{largest}, over the {} of \
             memory the mods may take together; remove a mod, make this one smaller (a 2048 x 2048 texture takes 16 \
             MiB decoded), or raise the budget ({})",
            size(model.heap_bytes()),
            size(others),
            size(self.total_bytes),
            self.total_bytes_setting
        )
    }

    /// Passes the model at `path` through the gate ([`props_gltf::gate`]) with the mods'
    /// limits, refusing symbolic links out of the mods folder and a model that would take the
    /// loaded mods past their RAM budget; the refusal's report names the file as `shown`.
    fn admit(&mut self, path: &Path, shown: &Path) -> Result<Admitted, Refused> {
        let file = self.root.join(path);
        if let Ok(target) = file.canonicalize()
            && !target.starts_with(&self.root)
        {
            let message = format!("it is a symbolic link to {}, outside the mods folder", target.display());
            return Err(Refused::one(shown, "PROPS_URI_OUTSIDE_FOLDER", "", message));
        }
        let limits = &self.limits;
        match panic::catch_unwind(AssertUnwindSafe(|| props_gltf::gate::admit_file(&file, limits))) {
            Ok(Ok(admitted)) => {
                // Every other mod's model stays loaded beside this one (which replaces its own
                // earlier version), at what the game says it keeps.
                let bytes = self.resident_bytes(path, &admitted.import.model);
                let others = self.others_answered(path, bytes);
                if others.saturating_add(bytes) > self.total_bytes {
                    let message = self.over_budget(path, &admitted.import.model, others);
                    return Err(Refused::one(shown, "PROPS_LIMIT_EXCEEDED", "", message));
                }
                let mut admitted = admitted;
                shown.clone_into(&mut admitted.report.file);
                Ok(admitted)
            }
            Ok(Err(mut refused)) => {
                shown.clone_into(&mut refused.report.file);
                Err(refused)
            }
            Err(payload) => {
                let reason = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let message = format!("the importer failed unexpectedly ({reason}); please report this file");
                Err(Refused::one(shown, "PROPS_INTERNAL", "", message))
            }
        }
    }
}

/// Logs the result of an import that goes to the game.
fn log_result(shown_root: &Path, event: &ModEvent) {
    match event {
        ModEvent::Loaded { path, version, load_ms, report, .. } => {
            let path = shown_root.join(path);
            let issues = report.issues.len();
            tracing::debug!(path = %path.display(), version, load_ms, issues, "mod model imported");
            for issue in &report.issues {
                tracing::debug!(path = %path.display(), %issue, "mod model issue");
            }
        }
        ModEvent::Rejected { version, refused, .. } => tracing::debug!(version, %refused, "mod model not imported"),
        ModEvent::Removed { .. } | ModEvent::WatchError { .. } | ModEvent::Ready => {}
    }
}

/// A model's name: its file stem (`windmill` for `pack/windmill.glb`).
fn name_of(path: &Path) -> String {
    path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Bytes for messages: KiB under a MiB, else MiB to a tenth.
fn size(bytes: u64) -> String {
    match bytes {
        0..1_048_576 => format!("{} KiB", bytes.div_ceil(1024)),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}
