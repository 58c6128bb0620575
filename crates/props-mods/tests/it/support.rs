//! Helpers for the tests that run the real watcher: temporary mods folders, bounded waits for
//! events, and a look at the process's threads and file descriptors.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use props_mods::{ModConfig, ModEvent, ModWatcher};

/// How long a test waits for an expected event before failing.
pub const EVENT_TIMEOUT: Duration = Duration::from_secs(10);

/// Settle time of the integration tests: short, to keep them fast.
pub const SETTLE: Duration = Duration::from_millis(100);

/// Real-watcher tests run one at a time: they count the process's threads and descriptors,
/// and the machine is small.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A fresh folder under Cargo's temporary directory, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty folder whose name starts with `label`.
    pub fn new(label: &str) -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("props-mods-{label}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create the temporary folder");
        Self(path)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `bytes` to `rel` (creating folders) at once: into a hidden file beside it, which
    /// the watcher ignores, renamed over it. An in-place write could be seen empty (created, not
    /// yet written) by a watcher whose settle time passed while the test thread was descheduled
    /// under load; the soak test writes in place, in parts, on purpose.
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) {
        let path = self.0.join(rel);
        let parent = path.parent().expect("a file in the folder");
        std::fs::create_dir_all(parent).expect("create the folder");
        let name = path.file_name().expect("a file name").to_string_lossy();
        let staging = parent.join(format!(".{name}.writing"));
        std::fs::write(&staging, bytes).expect("write the file");
        std::fs::rename(&staging, &path).expect("move the file into place");
    }

    /// Removes the file `rel`.
    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.0.join(rel)).expect("remove the file");
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running watcher and the events polled from it but not yet waited for.
pub struct Watched {
    /// The watcher.
    pub watcher: ModWatcher,
    backlog: Vec<ModEvent>,
}

impl Watched {
    /// Starts a watcher on `root` with the tests' settle time.
    pub fn start(root: &Path) -> Self {
        Self::new(
            ModWatcher::start(root, ModConfig { settle: SETTLE, ..ModConfig::default() }).expect("start the watcher"),
        )
    }

    /// Wraps a started watcher.
    pub fn new(watcher: ModWatcher) -> Self {
        Self { watcher, backlog: Vec::new() }
    }

    /// Polls (as the game does, once per 10 ms "frame") until an event satisfies `wanted`,
    /// for at most [`EVENT_TIMEOUT`], and takes it; the other events stay for later waits.
    /// Panics with the events seen when none comes.
    #[track_caller]
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&ModEvent) -> bool) -> ModEvent {
        let start = Instant::now();
        loop {
            if let Some(index) = self.backlog.iter().position(&wanted) {
                return self.backlog.remove(index);
            }
            if start.elapsed() > EVENT_TIMEOUT {
                panic!("no {what} within {EVENT_TIMEOUT:?}; saw {:#?}", self.backlog);
            }
            std::thread::sleep(Duration::from_millis(10));
            self.backlog.extend(self.watcher.poll().filter(|e| !matches!(e, ModEvent::Ready)));
        }
    }

    /// Waits for `Loaded` of `path` with a model that has the node `node` (so that an earlier
    /// load of the same path does not count).
    #[track_caller]
    pub fn loaded(&mut self, path: &str, node: &str) -> ModEvent {
        self.wait_for(&format!("Loaded {path} with node {node}"), |e| {
            matches!(e, ModEvent::Loaded { path: p, .. } if p == Path::new(path)) && has_node(e, node)
        })
    }

    /// Waits for `Rejected` of `path` and returns the refusal (its report).
    #[track_caller]
    pub fn rejected(&mut self, path: &str) -> props_gltf::gate::Refused {
        let event = self.wait_for(
            &format!("Rejected {path}"),
            |e| matches!(e, ModEvent::Rejected { path: p, .. } if p == Path::new(path)),
        );
        match event {
            ModEvent::Rejected { refused, .. } => refused,
            _ => unreachable!("wait_for returns what it waited for"),
        }
    }

    /// Waits for `Removed` of `path`.
    #[track_caller]
    pub fn removed(&mut self, path: &str) {
        self.wait_for(
            &format!("Removed {path}"),
            |e| matches!(e, ModEvent::Removed { path: p, .. } if p == Path::new(path)),
        );
    }

    /// Waits for `Loaded` of each of `paths`, in any order.
    #[track_caller]
    pub fn loaded_all(&mut self, paths: &[&str]) {
        for path in paths {
            self.wait_for(
                &format!("Loaded {path}"),
                |e| matches!(e, ModEvent::Loaded { path: p, .. } if p == Path::new(path)),
            );
        }
    }

    /// Waits for `Removed` of each of `paths`, in any order.
    #[track_caller]
    pub fn removed_all(&mut self, paths: &[&str]) {
        for path in paths {
            self.removed(path);
        }
    }

    /// Polls for `duration` and returns everything not waited for yet (to check that nothing
    /// else came).
    pub fn rest_after(&mut self, duration: Duration) -> Vec<ModEvent> {
        let start = Instant::now();
        while start.elapsed() < duration {
            std::thread::sleep(Duration::from_millis(10));
            self.backlog.extend(self.watcher.poll().filter(|e| !matches!(e, ModEvent::Ready)));
        }
        std::mem::take(&mut self.backlog)
    }
}

/// The version of a `Loaded` or `Rejected` event.
pub fn version(event: &ModEvent) -> u64 {
    match event {
        ModEvent::Loaded { version, .. } | ModEvent::Rejected { version, .. } => *version,
        other => panic!("no version in {other:?}"),
    }
}

/// Whether the loaded model of `event` has a node called `node`.
pub fn has_node(event: &ModEvent, node: &str) -> bool {
    matches!(event, ModEvent::Loaded { model, .. } if model.rig().find(node).is_some())
}

/// How many of this process's threads have a name starting with `prefix` (Linux; `None`
/// elsewhere).
pub fn threads_named(prefix: &str) -> Option<usize> {
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    let names = tasks.flatten().filter_map(|task| std::fs::read_to_string(task.path().join("comm")).ok());
    Some(names.filter(|name| name.starts_with(prefix)).count())
}

/// How many file descriptors this process has open (Linux; `None` elsewhere).
pub fn open_fds() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/fd").ok()?.count())
}

/// Waits up to 2 s for the watcher's threads to be gone (notify's inotify thread exits
/// shortly after the watcher is dropped, without being joined); true when they are.
pub fn threads_gone() -> bool {
    let start = Instant::now();
    loop {
        let loader = threads_named("mod-loader").unwrap_or(0);
        // Linux truncates thread names to 15 bytes: "notify-rs debou", "notify-rs inoti".
        let notify = threads_named("notify-rs").unwrap_or(0);
        if loader == 0 && notify == 0 {
            return true;
        }
        if start.elapsed() > Duration::from_secs(2) {
            eprintln!("threads left: {loader} mod-loader, {notify} notify-rs");
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
