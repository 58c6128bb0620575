//! The reload policy: what a file change means, when a changed model is ready to load, and
//! which load is current.
//!
//! Pure: no I/O, no clock, no threads. Time comes in as [`Millis`], file system changes as
//! [`FsEvent`]s, and the only look at the disk is through a [`Probe`], so every rule is
//! testable with a mock clock and synthetic event sequences.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::paths::{self, FileClass};

/// A point in time: milliseconds since an arbitrary start (the watcher's start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(pub u64);

impl Millis {
    /// The time `elapsed` after the start (saturating).
    pub fn from_duration(elapsed: Duration) -> Self {
        Self(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
    }

    /// This time plus `ms` milliseconds (saturating).
    fn plus(self, ms: u64) -> Self {
        Self(self.0.saturating_add(ms))
    }
}

/// What happened to a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsEventKind {
    /// The file appeared (created, or moved in from outside the mods root).
    Created,
    /// The file's content or metadata changed.
    Modified,
    /// The file, or a folder with everything in it, disappeared (deleted or moved out).
    Removed,
    /// The file was renamed from `from` (relative to the mods root) to the event's path.
    Renamed {
        /// The old path.
        from: PathBuf,
    },
}

/// A change below the mods root. Paths are relative to the root.
///
/// Folders: the watcher reports a folder's removal as [`FsEventKind::Removed`] of the folder
/// (the policy drops every model under it) and a folder's arrival as
/// [`FsEventKind::Created`] of each file in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FsEvent {
    /// What happened.
    pub kind: FsEventKind,
    /// The path it happened to (the new path of a rename).
    pub path: PathBuf,
}

impl FsEvent {
    /// `path` was created.
    pub fn created(path: impl Into<PathBuf>) -> Self {
        Self { kind: FsEventKind::Created, path: path.into() }
    }

    /// `path` was modified.
    pub fn modified(path: impl Into<PathBuf>) -> Self {
        Self { kind: FsEventKind::Modified, path: path.into() }
    }

    /// `path` was removed.
    pub fn removed(path: impl Into<PathBuf>) -> Self {
        Self { kind: FsEventKind::Removed, path: path.into() }
    }

    /// `from` was renamed to `to`.
    pub fn renamed(from: impl Into<PathBuf>, to: impl Into<PathBuf>) -> Self {
        Self { kind: FsEventKind::Renamed { from: from.into() }, path: to.into() }
    }
}

/// What a [`Probe`] sees of a file: enough to tell whether it is still being written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStat {
    /// Size in bytes.
    pub len: u64,
    /// Last modification time, where the platform has one.
    pub modified: Option<SystemTime>,
}

/// Looks at files for the policy; mockable.
pub trait Probe {
    /// The stat of the plain file at `path` (relative to the mods root), or `None` when there
    /// is none (missing, or not a file).
    fn stat(&self, path: &Path) -> Option<FileStat>;
}

/// What the policy asks the loader to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Import the model at `model_path` (relative to the mods root); the result is
    /// `version` of the model, to be discarded unless [`ReloadPolicy::is_current`].
    Load {
        /// The model file.
        model_path: PathBuf,
        /// This load's version: larger than every version issued before, for any model.
        version: u64,
    },
    /// The model at `model_path` is gone: drop it.
    Remove {
        /// The model file.
        model_path: PathBuf,
    },
}

/// Turns file system events into load and remove actions for models.
///
/// Rules:
/// - Only `.gltf` / `.glb` files are models. Hidden and temporary files (a component starting
///   with `.`, a `~` suffix, `.part`, `.crdownload`, `.tmp`, ...) are ignored.
/// - A change to any other file (`.bin`, textures, ...) makes every known model in the same
///   folder or a folder above it dirty: those are exactly the models whose confined URIs can
///   reach the file. That file's stat then has to settle too.
/// - A rename from A to B is a removal of A and a creation of B; so renaming a temporary file
///   over a model (editors' safe save) is one modification of the model. A folder's removal
///   removes every model under it.
/// - Debounce: a dirty model is due once no event touched it for `settle`, and the stats of
///   its files (size and modification time) were unchanged between two checks `settle` apart.
///   A file still being copied keeps changing and is not loaded. A due model whose file
///   exists is loaded; one whose file is gone is removed (if it was ever loaded), so a
///   deletion followed by a quick re-creation is one reload, not a removal.
/// - Versioning: every load gets a version larger than all before; an import result is
///   applied only if [`is_current`](Self::is_current), so a slow import of an older state
///   never replaces a newer one.
/// - [`initial`](Self::initial): files found at start-up are due at once, without settling.
///   Their stats are looked at again `settle` later, with nothing reported unless they
///   changed: notify's debouncer drops a creation and a removal that fall within its window,
///   so a file the start-up scan saw may vanish without an event.
///
/// The caller feeds events with [`event`](Self::event), calls [`poll`](Self::poll) after each
/// batch and again at [`next_deadline`](Self::next_deadline).
#[derive(Debug)]
pub struct ReloadPolicy {
    settle_ms: u64,
    models: BTreeMap<PathBuf, ModelState>,
    last_version: u64,
}

/// What the policy knows of one model path.
#[derive(Debug, Default)]
struct ModelState {
    /// The last load issued, unless a removal followed it: the loader (and the game) may hold
    /// this version.
    version: Option<u64>,
    /// Changes waiting to settle.
    pending: Option<Pending>,
}

/// A dirty model waiting to settle.
#[derive(Debug)]
struct Pending {
    /// Time of the last event touching the model.
    last_event: Millis,
    /// Due at the next poll, without settling (start-up scan).
    immediate: bool,
    /// Other files whose changes made the model dirty; their stats must settle too.
    files: BTreeSet<PathBuf>,
    /// The last look at the files, since the last event.
    check: Option<Check>,
    /// After a start-up load with no event since: the stats it loaded. Settling on the same
    /// stats needs no action.
    baseline: Option<Vec<Option<FileStat>>>,
}

/// Stats of a model's files at one time.
#[derive(Debug)]
struct Check {
    at: Millis,
    stats: Vec<Option<FileStat>>,
}

/// How many other files one pending model watches settle (beyond it, time alone decides).
const MAX_WATCHED_FILES: usize = 16;

/// What a poll decided for a pending model.
enum Outcome {
    /// Not settled yet.
    Wait,
    /// Settled on these stats (the model file's first).
    Settled(Vec<Option<FileStat>>),
}

impl Pending {
    fn new(now: Millis, immediate: bool) -> Self {
        Self { last_event: now, immediate, files: BTreeSet::new(), check: None, baseline: None }
    }

    /// A second look, `settle` after a start-up load of a model whose files had `stats`.
    fn verify(now: Millis, stats: Vec<Option<FileStat>>) -> Self {
        Self {
            last_event: now,
            immediate: false,
            files: BTreeSet::new(),
            check: Some(Check { at: now, stats: stats.clone() }),
            baseline: Some(stats),
        }
    }

    /// When the model needs its next poll.
    fn deadline(&self, settle_ms: u64) -> Millis {
        match &self.check {
            Some(check) if !self.immediate => check.at.plus(settle_ms),
            _ => self.last_event,
        }
    }

    /// Looks at the model's files unless it is too early, and decides.
    fn poll(&mut self, model: &Path, now: Millis, settle_ms: u64, probe: &impl Probe) -> Outcome {
        if !self.immediate && self.check.is_some() && now < self.deadline(settle_ms) {
            return Outcome::Wait;
        }
        let stats: Vec<Option<FileStat>> =
            std::iter::once(model).chain(self.files.iter().map(PathBuf::as_path)).map(|p| probe.stat(p)).collect();
        let settled = self.immediate || self.check.as_ref().is_some_and(|check| check.stats == stats);
        if !settled {
            self.check = Some(Check { at: now, stats });
            return Outcome::Wait;
        }
        Outcome::Settled(stats)
    }
}

impl ReloadPolicy {
    /// The default `settle`: how long a model's files must stay unchanged before it loads.
    pub const DEFAULT_SETTLE: Duration = Duration::from_millis(250);

    /// A policy with no models, settling changes for `settle`.
    pub fn new(settle: Duration) -> Self {
        Self { settle_ms: Millis::from_duration(settle).0, models: BTreeMap::new(), last_version: 0 }
    }

    /// Files that exist at start-up (relative to the mods root): their models are due at the
    /// next poll, without settling. Other files are skipped.
    pub fn initial(&mut self, now: Millis, paths: impl IntoIterator<Item = PathBuf>) {
        for path in paths {
            if paths::classify(&path) == FileClass::Model {
                let state = self.models.entry(path).or_default();
                state.pending = Some(Pending::new(now, true));
            }
        }
    }

    /// After the watcher lost events (its queue overflowed): every known model is dirty, and
    /// so is every model in `paths`, the files now below the root.
    pub fn rescan(&mut self, now: Millis, paths: impl IntoIterator<Item = PathBuf>) {
        let known: Vec<PathBuf> = self.models.keys().cloned().collect();
        for path in known.into_iter().chain(paths) {
            self.touch(now, &path);
        }
    }

    /// Feeds one file system event that happened at `now`.
    pub fn event(&mut self, now: Millis, event: &FsEvent) {
        match &event.kind {
            FsEventKind::Created | FsEventKind::Modified => self.touch(now, &event.path),
            FsEventKind::Removed => self.remove(now, &event.path),
            FsEventKind::Renamed { from } => {
                self.remove(now, from);
                self.touch(now, &event.path);
            }
        }
    }

    /// Marks dirty every model it knows that `probe` no longer finds and that waits for
    /// nothing, so that it is removed once due. The loader calls it after events that take
    /// files away: notify's debouncer folds a chain of renames `a -> b -> c` into `a -> c`,
    /// and `b`'s departure is never reported. One stat per known model.
    pub fn sweep_missing(&mut self, now: Millis, probe: &impl Probe) {
        let missing: Vec<PathBuf> = self
            .models
            .iter()
            .filter(|(path, state)| state.pending.is_none() && probe.stat(path).is_none())
            .map(|(path, _)| path.clone())
            .collect();
        for path in missing {
            self.dirty(now, path, None);
        }
    }

    /// Decides which dirty models are due at `now`, looking at their files through `probe`.
    /// Actions come in path order.
    pub fn poll(&mut self, now: Millis, probe: &impl Probe) -> Vec<Action> {
        let mut actions = Vec::new();
        let settle_ms = self.settle_ms;
        let last_version = &mut self.last_version;
        self.models.retain(|path, state| {
            let Some(pending) = &mut state.pending else {
                return true;
            };
            let Outcome::Settled(stats) = pending.poll(path, now, settle_ms, probe) else {
                return true;
            };
            if pending.baseline.as_ref() == Some(&stats) {
                state.pending = None;
                true
            } else if stats.first().is_some_and(Option::is_some) {
                *last_version += 1;
                state.version = Some(*last_version);
                actions.push(Action::Load { model_path: path.clone(), version: *last_version });
                state.pending = pending.immediate.then(|| Pending::verify(now, stats));
                true
            } else {
                if state.version.is_some() {
                    actions.push(Action::Remove { model_path: path.clone() });
                }
                false
            }
        });
        actions
    }

    /// When [`poll`](Self::poll) next has something to decide, if anything is pending (may be
    /// in the past: poll at once).
    pub fn next_deadline(&self) -> Option<Millis> {
        self.models.values().filter_map(|state| Some(state.pending.as_ref()?.deadline(self.settle_ms))).min()
    }

    /// Whether `version` of `model_path` is still the one to show: it is the last load issued
    /// for the model and nothing touched the model since. An import result that is not
    /// current is discarded; a newer action for the model is coming.
    pub fn is_current(&self, model_path: &Path, version: u64) -> bool {
        self.models.get(model_path).is_some_and(|state| {
            // A second look after a start-up load is no change.
            let untouched = state.pending.as_ref().is_none_or(|pending| pending.baseline.is_some());
            state.version == Some(version) && untouched
        })
    }

    /// Number of model paths the policy tracks (loaded or pending): bounded by the models on
    /// disk plus those changing.
    pub fn len(&self) -> usize {
        self.models.len()
    }

    /// Whether the policy tracks no model.
    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    /// A change to `path`: dirties the model, or the models that may use the file.
    fn touch(&mut self, now: Millis, path: &Path) {
        match paths::classify(path) {
            FileClass::Ignored => {}
            FileClass::Model => self.dirty(now, path.to_owned(), None),
            FileClass::Other => {
                let file_dir = paths::folder(path);
                let users: Vec<PathBuf> = self
                    .models
                    .keys()
                    .filter(|model| paths::may_reference(paths::folder(model), file_dir))
                    .cloned()
                    .collect();
                for model in users {
                    self.dirty(now, model, Some(path));
                }
            }
        }
    }

    /// `path` disappeared: a folder if models lie under it (they are all gone), otherwise a
    /// file, changed like any other.
    fn remove(&mut self, now: Millis, path: &Path) {
        let under: Vec<PathBuf> =
            self.models.keys().filter(|model| model.starts_with(path) && model.as_path() != path).cloned().collect();
        if under.is_empty() {
            self.touch(now, path);
        }
        for model in under {
            self.dirty(now, model, None);
        }
    }

    /// Marks `model` dirty at `now`, because of a change to `file` (another file) or to
    /// itself.
    fn dirty(&mut self, now: Millis, model: PathBuf, file: Option<&Path>) {
        let state = self.models.entry(model).or_default();
        let pending = state.pending.get_or_insert_with(|| Pending::new(now, false));
        pending.last_event = now;
        pending.immediate = false;
        pending.check = None;
        pending.baseline = None;
        if let Some(file) = file
            && pending.files.len() < MAX_WATCHED_FILES
        {
            pending.files.insert(file.to_owned());
        }
    }
}

impl Default for ReloadPolicy {
    fn default() -> Self {
        Self::new(Self::DEFAULT_SETTLE)
    }
}
