//! Thin notify glue: a recursive debounced watch on the mods root, notify's events mapped to
//! the policy's [`FsEvent`]s (paths relative to the root), folder scans, and the real
//! [`Probe`]. Nothing here decides what a change means; that is the policy's business.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, RecommendedCache};

use crate::paths::{self, FileClass};
use crate::policy::{FileStat, FsEvent, Probe};

/// The running notify watcher and its debouncer thread; dropping it stops both.
pub(crate) type Debouncer = notify_debouncer_full::Debouncer<RecommendedWatcher, RecommendedCache>;

/// How long notify's debouncer holds events (it pairs renames and drops duplicates); the
/// policy's `settle` does the real waiting.
const NOTIFY_DEBOUNCE: Duration = Duration::from_millis(50);

/// The shortest settle the watcher uses: longer than notify's debouncer window, which drops a
/// creation and a removal that fall within it, so a file that a scan saw and that vanished
/// again unreported is found gone when it is due.
pub(crate) const MIN_SETTLE: Duration = Duration::from_millis(100);

/// Folder depth below the root that scans descend to.
const MAX_SCAN_DEPTH: usize = 16;

/// Watches `root` (canonical) recursively and hands every debounced batch to `sink`, on
/// notify's threads.
pub(crate) fn watch(
    root: &Path,
    sink: impl FnMut(DebounceEventResult) + Send + 'static,
) -> Result<Debouncer, notify::Error> {
    // Never follow a symbolic link: a link to a folder outside the mods folder (or to one of
    // its own ancestors) is not watched through, so the watch stays inside and cannot loop.
    let config = notify::Config::default().with_follow_symlinks(false);
    let mut debouncer = notify_debouncer_full::new_debouncer_opt::<_, RecommendedWatcher, RecommendedCache>(
        NOTIFY_DEBOUNCE,
        None,
        sink,
        RecommendedCache::new(),
        config,
    )?;
    debouncer.watch(root, RecursiveMode::Recursive)?;
    Ok(debouncer)
}

/// A watcher problem that is not fatal: reported to the game, and the watch goes on.
#[derive(Debug)]
pub(crate) struct Problem {
    /// The paths involved, relative to the root where they lie below it.
    pub paths: Vec<PathBuf>,
    /// What went wrong.
    pub error: String,
}

/// What one debounced batch (or a scan) amounts to.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    /// The changes, in order.
    pub events: Vec<FsEvent>,
    /// notify lost events (its queue overflowed): everything must be looked at again.
    pub rescan: bool,
    /// Problems to report.
    pub problems: Vec<Problem>,
}

/// Maps notify's view of the mods folder to the policy's.
#[derive(Debug)]
pub(crate) struct Translator {
    root: PathBuf,
}

impl Translator {
    /// A translator for the canonical mods root `root`.
    pub(crate) fn new(root: PathBuf) -> Self {
        Self { root }
    }

    /// Adds what a debounced batch from notify means to `batch`.
    pub(crate) fn translate(&self, result: DebounceEventResult, batch: &mut Batch) {
        match result {
            Ok(events) => {
                for event in events {
                    tracing::debug!(kind = ?event.kind, paths = ?event.paths, "mods folder event");
                    if event.need_rescan() {
                        batch.rescan = true;
                    }
                    self.translate_event(&event.kind, &event.paths, batch);
                }
            }
            Err(errors) => batch.problems.extend(errors.into_iter().map(|error| Problem {
                paths: error.paths.iter().map(|p| self.relative(p).unwrap_or(p).to_owned()).collect(),
                error: error.to_string(),
            })),
        }
    }

    fn translate_event(&self, kind: &EventKind, paths: &[PathBuf], batch: &mut Batch) {
        match kind {
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => {
                if let [from, to] = paths {
                    self.renamed(from, to, batch);
                }
            }
            EventKind::Modify(ModifyKind::Name(RenameMode::From)) | EventKind::Remove(_) => {
                self.each_relative(paths, batch, |rel, _, batch| self.removed(rel, batch));
            }
            EventKind::Modify(ModifyKind::Name(_)) => self.each_relative(paths, batch, |rel, abs, batch| {
                if abs.exists() { self.arrived(rel, abs, batch) } else { self.removed(rel, batch) }
            }),
            EventKind::Create(_) => self.each_relative(paths, batch, |rel, abs, batch| self.arrived(rel, abs, batch)),
            EventKind::Modify(_) | EventKind::Access(AccessKind::Close(AccessMode::Write)) => {
                self.each_relative(paths, batch, |rel, abs, batch| {
                    if !is_dir(abs) {
                        batch.events.push(FsEvent::modified(rel));
                    }
                });
            }
            EventKind::Access(_) | EventKind::Any | EventKind::Other => {}
        }
    }

    /// Calls `f` with the relative and absolute path of every path below the root.
    fn each_relative(&self, paths: &[PathBuf], batch: &mut Batch, mut f: impl FnMut(&Path, &Path, &mut Batch)) {
        for abs in paths {
            if let Some(rel) = self.relative(abs) {
                f(rel, abs, batch);
            }
        }
    }

    /// A rename between two paths, either of which may lie outside the root.
    fn renamed(&self, from: &Path, to: &Path, batch: &mut Batch) {
        match (self.relative(from), self.relative(to)) {
            (Some(from), Some(rel_to)) if !is_dir(to) => batch.events.push(FsEvent::renamed(from, rel_to)),
            (from, rel_to) => {
                if let Some(from) = from {
                    self.removed(from, batch);
                }
                if let Some(rel_to) = rel_to {
                    self.arrived(rel_to, to, batch);
                }
            }
        }
    }

    /// `rel` appeared: a file, or a folder whose files all appeared (unless it is hidden).
    fn arrived(&self, rel: &Path, abs: &Path, batch: &mut Batch) {
        if is_dir(abs) {
            if paths::classify(rel) != FileClass::Ignored {
                self.scan(rel, batch);
            }
        } else {
            batch.events.push(FsEvent::created(rel));
        }
    }

    fn removed(&self, rel: &Path, batch: &mut Batch) {
        if rel.as_os_str().is_empty() {
            batch.problems.push(Problem {
                paths: vec![self.root.clone()],
                error: "the mods folder was removed; mods are no longer watched until the game restarts".to_owned(),
            });
        }
        batch.events.push(FsEvent::removed(rel));
    }

    /// Adds a `Created` event for every file below the folder `rel` (relative to the root;
    /// empty for the root itself), skipping hidden folders and not following symbolic links
    /// to folders.
    pub(crate) fn scan(&self, rel: &Path, batch: &mut Batch) {
        let mut folders = vec![(rel.to_owned(), 0)];
        while let Some((folder, depth)) = folders.pop() {
            let entries = match std::fs::read_dir(self.root.join(&folder)) {
                Ok(entries) => entries,
                Err(error) => {
                    batch.problems.push(io_problem(&folder, "could not list the folder", &error));
                    continue;
                }
            };
            for entry in entries {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(error) => {
                        batch.problems.push(io_problem(&folder, "could not list the folder", &error));
                        continue;
                    }
                };
                let path = folder.join(entry.file_name());
                if paths::classify(&path) == FileClass::Ignored {
                    continue;
                }
                match entry.file_type() {
                    Ok(kind) if kind.is_dir() && depth < MAX_SCAN_DEPTH => folders.push((path, depth + 1)),
                    Ok(kind) if kind.is_dir() => {
                        batch.problems.push(Problem { paths: vec![path], error: "folders nest too deep".to_owned() })
                    }
                    Ok(_) => batch.events.push(FsEvent::created(path)),
                    Err(error) => batch.problems.push(io_problem(&path, "could not read", &error)),
                }
            }
        }
    }

    fn relative<'a>(&self, path: &'a Path) -> Option<&'a Path> {
        path.strip_prefix(&self.root).ok()
    }
}

fn is_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

fn io_problem(path: &Path, what: &str, error: &io::Error) -> Problem {
    Problem { paths: vec![path.to_owned()], error: format!("{what}: {error}") }
}

/// The real [`Probe`]: `std::fs::metadata` below the root (following symbolic links); any
/// file but a folder is present.
#[derive(Debug)]
pub struct FsProbe {
    root: PathBuf,
}

impl FsProbe {
    /// A probe of the files below the root `root`.
    #[must_use]
    pub fn new(root: PathBuf) -> Self {
        Self { root }
    }
}

impl Probe for FsProbe {
    fn stat(&self, path: &Path) -> Option<FileStat> {
        // Special files (FIFOs, sockets, devices) count as present: loading one is refused
        // with a message, without opening it for long (`props_gltf` never blocks on them).
        let metadata = std::fs::metadata(self.root.join(path)).ok()?;
        (!metadata.is_dir()).then(|| FileStat { len: metadata.len(), modified: metadata.modified().ok() })
    }
}
