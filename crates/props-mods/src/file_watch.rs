//! Watching one model file, as the previewer does: the mods folder's [`ReloadPolicy`] applied
//! to a single file whose stat is polled instead of waiting for OS events, so an exporter's
//! save reloads it once, after it has settled; saving its sidecar reloads it too. Pure apart
//! from the [`Probe`] (mockable) and the time passed in.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::policy::{Action, FileStat, FsEvent, Millis, Probe, ReloadPolicy};
use crate::watcher::FsProbe;

/// What to do about the watched file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// Import it: the result is `version`, to be shown only if [`FileWatch::is_current`].
    Load {
        /// This load's version.
        version: u64,
    },
    /// It is gone (keep showing the last version).
    Gone,
}

/// One model file, watched by polling its stat (see the module documentation).
#[derive(Debug)]
pub struct FileWatch<P: Probe = FsProbe> {
    name: PathBuf,
    /// A file beside it whose changes reload it too (its sidecar).
    companion: Option<PathBuf>,
    policy: ReloadPolicy,
    probe: P,
    /// The stats last seen: the file's and its companion's.
    last: (Option<FileStat>, Option<FileStat>),
}

impl FileWatch<FsProbe> {
    /// Watches `file` on disk and its sidecar ([`crate::sidecar::path_for`]), settling
    /// changes for `settle`; its first poll loads it.
    #[must_use]
    pub fn new(file: &Path, settle: Duration) -> Self {
        let root = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = file.file_name().map_or_else(|| file.to_path_buf(), PathBuf::from);
        let sidecar = crate::sidecar::path_for(&name);
        Self::with_probe(name, FsProbe::new(root.to_path_buf()), settle).with_companion(sidecar)
    }
}

impl<P: Probe> FileWatch<P> {
    /// Watches `name` as `probe` sees it; its first poll loads it.
    pub fn with_probe(name: PathBuf, probe: P, settle: Duration) -> Self {
        let mut policy = ReloadPolicy::new(settle);
        policy.initial(Millis(0), [name.clone()]);
        let last = (probe.stat(&name), None);
        Self { name, companion: None, policy, probe, last }
    }

    /// Reloads the file when `companion` (a file beside it, its sidecar) changes too.
    #[must_use]
    pub fn with_companion(mut self, companion: PathBuf) -> Self {
        self.last.1 = self.probe.stat(&companion);
        self.companion = Some(companion);
        self
    }

    /// Looks at the file at `now` (milliseconds since the watch started): a changed stat is a
    /// change to settle; returns what became due.
    pub fn poll(&mut self, now: Millis) -> Vec<FileChange> {
        let stat = (self.probe.stat(&self.name), self.companion.as_ref().and_then(|c| self.probe.stat(c)));
        if stat != self.last {
            self.last = stat;
            let event = if stat.0.is_some() { FsEvent::modified(&self.name) } else { FsEvent::removed(&self.name) };
            self.policy.event(now, &event);
        }
        let actions = self.policy.poll(now, &self.probe);
        actions
            .into_iter()
            .map(|action| match action {
                Action::Load { version, .. } => FileChange::Load { version },
                Action::Remove { .. } => FileChange::Gone,
            })
            .collect()
    }

    /// Whether the import of `version` is still the one to show (nothing changed since).
    #[must_use]
    pub fn is_current(&self, version: u64) -> bool {
        self.policy.is_current(&self.name, version)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::time::SystemTime;

    use super::*;

    /// A file whose stat the test sets.
    struct Mock(Cell<Option<FileStat>>);

    impl Probe for Mock {
        fn stat(&self, _: &Path) -> Option<FileStat> {
            self.0.get()
        }
    }

    fn stat(len: u64) -> Option<FileStat> {
        Some(FileStat { len, modified: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(len)) })
    }

    /// Mock time: the file loads at once, a save loads once it has settled (not while it is
    /// still being written), a deletion is reported, and a stale import is not current.
    #[test]
    fn a_save_reloads_once_it_has_settled() {
        let mut watch = FileWatch::with_probe("fox.glb".into(), Mock(Cell::new(stat(1))), Duration::from_millis(250));
        assert_eq!(watch.poll(Millis(0)), [FileChange::Load { version: 1 }]);
        assert!(watch.is_current(1));
        assert_eq!(watch.poll(Millis(100)), []);
        // Saving: the size changes twice within the settling time.
        watch.probe.0.set(stat(2));
        assert_eq!(watch.poll(Millis(1000)), []);
        assert!(!watch.is_current(1), "an import of the old file is stale");
        watch.probe.0.set(stat(3));
        assert_eq!(watch.poll(Millis(1100)), []);
        assert_eq!(watch.poll(Millis(1200)), []);
        let loads: Vec<FileChange> = (13..30).flat_map(|t| watch.poll(Millis(t * 100))).collect();
        assert_eq!(loads, [FileChange::Load { version: 2 }], "one reload, after the writes settled");
        watch.probe.0.set(None);
        let gone: Vec<FileChange> = (40..50).flat_map(|t| watch.poll(Millis(t * 100))).collect();
        assert_eq!(gone, [FileChange::Gone]);
    }

    /// A model and its sidecar, whose stats the test sets.
    struct Pair(Cell<Option<FileStat>>, Cell<Option<FileStat>>);

    impl Probe for Pair {
        fn stat(&self, path: &Path) -> Option<FileStat> {
            if path.extension().is_some_and(|e| e == "toml") { self.1.get() } else { self.0.get() }
        }
    }

    /// Saving the sidecar (or writing one first) reloads the model once it has settled; the
    /// sidecar going does too (the model shows without it).
    #[test]
    fn a_sidecar_saved_reloads_its_model() {
        let probe = Pair(Cell::new(stat(1)), Cell::new(None));
        let mut watch = FileWatch::with_probe("fox.glb".into(), probe, Duration::from_millis(250))
            .with_companion("fox.prop.toml".into());
        assert_eq!(watch.poll(Millis(0)), [FileChange::Load { version: 1 }]);
        assert_eq!(watch.poll(Millis(100)), []);
        for (at, sidecar) in [(10, stat(5)), (20, stat(6)), (30, None)] {
            watch.probe.1.set(sidecar);
            let loads: Vec<FileChange> = (at..at + 5).flat_map(|t| watch.poll(Millis(t * 100))).collect();
            assert!(matches!(loads[..], [FileChange::Load { .. }]), "{sidecar:?}: {loads:?}");
        }
    }
}
