//! The reload policy, driven by synthetic event sequences on a mock file system and clock.
//!
//! [`check`] plays a script of timed file operations the way the worker does: each operation
//! changes the mock file system and feeds its event, the policy is polled after every batch
//! and again at its `next_deadline`, and every action is logged with its time.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use props_mods::{Action, FileStat, FsEvent, Millis, Probe, ReloadPolicy};

/// Settle time of the scripts, in milliseconds.
const SETTLE: u64 = 250;

/// A timed operation on the mock file system.
#[derive(Clone, Copy)]
enum Op {
    /// Writes the whole file (created or modified) and reports it.
    Write(&'static str),
    /// Removes the file and reports it.
    Delete(&'static str),
    /// Renames the first file to the second (replacing it) and reports it.
    Rename(&'static str, &'static str),
    /// Reports a creation while the file keeps growing: each of the next `n` stats of it
    /// sees it bigger (a copy in progress whose later writes notify nothing).
    Copying(&'static str, u32),
    /// Removes a whole folder and reports only the folder.
    DeleteFolder(&'static str),
}

/// One file of the mock file system.
#[derive(Clone, Copy)]
struct MockFile {
    len: u64,
    /// Bumped by every write: the mock modification time.
    writes: u64,
    /// Stats that will still see the file grow.
    growing: u32,
}

/// The mock file system: what [`Probe::stat`] sees.
#[derive(Default)]
struct MockFs {
    files: RefCell<HashMap<PathBuf, MockFile>>,
}

impl MockFs {
    fn write(&self, path: &str, growing: u32) {
        let mut files = self.files.borrow_mut();
        let file = files.entry(PathBuf::from(path)).or_insert(MockFile { len: 0, writes: 0, growing: 0 });
        file.len += 10;
        file.writes += 1;
        file.growing = growing;
    }
}

impl Probe for MockFs {
    fn stat(&self, path: &Path) -> Option<FileStat> {
        let mut files = self.files.borrow_mut();
        let file = files.get_mut(path)?;
        if file.growing > 0 {
            file.growing -= 1;
            file.len += 1;
        }
        let modified = SystemTime::UNIX_EPOCH + Duration::from_secs(file.writes);
        Some(FileStat { len: file.len, modified: Some(modified) })
    }
}

/// Applies `op` to `fs` and returns the event the watcher would report.
fn apply(fs: &MockFs, op: Op) -> FsEvent {
    let mut files = fs.files.borrow_mut();
    match op {
        Op::Write(path) | Op::Copying(path, _) => {
            let existed = files.contains_key(Path::new(path));
            drop(files);
            fs.write(path, if let Op::Copying(_, n) = op { n } else { 0 });
            if existed { FsEvent::modified(path) } else { FsEvent::created(path) }
        }
        Op::Delete(path) => {
            files.remove(Path::new(path));
            FsEvent::removed(path)
        }
        Op::Rename(from, to) => {
            if let Some(file) = files.remove(Path::new(from)) {
                files.insert(PathBuf::from(to), file);
            }
            FsEvent::renamed(from, to)
        }
        Op::DeleteFolder(folder) => {
            files.retain(|path, _| !path.starts_with(folder));
            FsEvent::removed(folder)
        }
    }
}

fn describe(time: u64, action: &Action) -> String {
    match action {
        Action::Load { model_path, version } => format!("{time} load {} v{version}", model_path.display()),
        Action::Remove { model_path } => format!("{time} remove {}", model_path.display()),
    }
}

/// Plays `script` (times in ms, ascending) on `policy` and `fs` until nothing is pending;
/// returns the actions as `"{time} load {path} v{version}"` / `"{time} remove {path}"`.
fn play(policy: &mut ReloadPolicy, fs: &MockFs, script: &[(u64, Op)]) -> Vec<String> {
    let mut log = Vec::new();
    let mut next_op = 0;
    let mut time = 0;
    for _ in 0..10_000 {
        let op_time = script.get(next_op).map(|(t, _)| *t);
        let deadline = policy.next_deadline().map(|d| d.0.max(time));
        time = match (op_time, deadline) {
            (None, None) => return log,
            (Some(t), None) | (None, Some(t)) => t,
            (Some(a), Some(b)) => a.min(b),
        };
        while let Some((_, op)) = script.get(next_op).filter(|(t, _)| *t == time) {
            policy.event(Millis(time), &apply(fs, *op));
            next_op += 1;
        }
        log.extend(policy.poll(Millis(time), fs).iter().map(|a| describe(time, a)));
    }
    panic!("the policy never settled: {log:?}");
}

/// Plays `script` on an empty folder and compares the actions with `expected`.
#[track_caller]
fn check(script: &[(u64, Op)], expected: &[&str]) {
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    assert_eq!(play(&mut policy, &MockFs::default(), script), expected);
    assert_eq!(policy.next_deadline(), None);
}

/// `a.glb` created at 0 and loaded at 250 (version 1): the start of most scripts.
const CREATE_A: (u64, Op) = (0, Op::Write("a.glb"));

#[test]
fn create_loads_once_after_settle() {
    check(&[CREATE_A], &["250 load a.glb v1"]);
}

#[test]
fn many_rapid_modifies_load_once() {
    let script: Vec<(u64, Op)> = (0..20).map(|i| (i * 40, Op::Write("a.glb"))).collect();
    // The last write is at 760; the stat taken then holds until 1010.
    check(&script, &["1010 load a.glb v1"]);
}

#[test]
fn modify_after_load_reloads_with_a_new_version() {
    check(&[CREATE_A, (1000, Op::Write("a.glb"))], &["250 load a.glb v1", "1250 load a.glb v2"]);
}

#[test]
fn rename_is_remove_plus_create() {
    check(
        &[CREATE_A, (1000, Op::Rename("a.glb", "b.glb"))],
        &["250 load a.glb v1", "1250 remove a.glb", "1250 load b.glb v2"],
    );
}

#[test]
fn safe_save_over_a_model_is_one_load() {
    // Editors write a temporary file, then rename it over the model.
    check(
        &[
            CREATE_A,
            (1000, Op::Write("a.glb.tmp")),
            (1010, Op::Write("a.glb.tmp")),
            (1020, Op::Rename("a.glb.tmp", "a.glb")),
        ],
        &["250 load a.glb v1", "1270 load a.glb v2"],
    );
}

#[test]
fn renaming_a_model_over_another_removes_the_source() {
    check(
        &[CREATE_A, (0, Op::Write("b.glb")), (1000, Op::Rename("b.glb", "a.glb"))],
        &["250 load a.glb v1", "250 load b.glb v2", "1250 load a.glb v3", "1250 remove b.glb"],
    );
}

#[test]
fn delete_removes_after_settle() {
    check(&[CREATE_A, (1000, Op::Delete("a.glb"))], &["250 load a.glb v1", "1250 remove a.glb"]);
}

#[test]
fn delete_and_recreate_within_settle_is_one_load() {
    check(
        &[CREATE_A, (1000, Op::Delete("a.glb")), (1100, Op::Write("a.glb"))],
        &["250 load a.glb v1", "1350 load a.glb v2"],
    );
}

#[test]
fn a_model_deleted_before_it_loads_is_never_mentioned() {
    check(&[CREATE_A, (100, Op::Delete("a.glb"))], &[]);
}

#[test]
fn partial_write_waits_until_the_file_is_stable() {
    // Each of the first five stats (0, 250, ..., 1000 ms) sees the file bigger; the sixth
    // agrees with the fifth.
    check(&[(0, Op::Copying("a.glb", 5))], &["1250 load a.glb v1"]);
}

#[test]
fn a_copy_that_completes_with_a_last_event_loads_once() {
    check(&[(0, Op::Copying("a.glb", 2)), (300, Op::Write("a.glb"))], &["550 load a.glb v1"]);
}

#[test]
fn bin_change_reloads_the_models_of_its_folder_and_above() {
    check(
        &[
            CREATE_A,
            (0, Op::Write("pack/b.gltf")),
            (0, Op::Write("pack/c.glb")),
            (0, Op::Write("pack/sub/d.glb")),
            (0, Op::Write("other/e.glb")),
            (1000, Op::Write("pack/b.bin")),
        ],
        &[
            "250 load a.glb v1",
            "250 load other/e.glb v2",
            "250 load pack/b.gltf v3",
            "250 load pack/c.glb v4",
            "250 load pack/sub/d.glb v5",
            "1250 load a.glb v6",
            "1250 load pack/b.gltf v7",
            "1250 load pack/c.glb v8",
        ],
    );
}

#[test]
fn a_growing_bin_delays_the_reload() {
    check(
        &[(0, Op::Write("pack/b.gltf")), (1000, Op::Copying("pack/b.bin", 3))],
        &["250 load pack/b.gltf v1", "1750 load pack/b.gltf v2"],
    );
}

#[test]
fn hidden_and_temporary_files_are_ignored() {
    let ignored = [".a.glb", ".git/b.glb", "c.glb~", "d.glb.part", "e.glb.crdownload", "f.glb.tmp", "g.glb.swp"];
    let script: Vec<(u64, Op)> = ignored.iter().map(|path| (0, Op::Write(path))).collect();
    check(&script, &[]);
    // Nor do they make a model dirty.
    let mut script = vec![CREATE_A];
    script.extend(ignored.iter().map(|path| (1000, Op::Write(path))));
    check(&script, &["250 load a.glb v1"]);
}

#[test]
fn removing_a_folder_removes_its_models() {
    check(
        &[
            (0, Op::Write("pack/a.glb")),
            (0, Op::Write("pack/sub/b.glb")),
            (0, Op::Write("packs.glb")),
            (1000, Op::DeleteFolder("pack")),
        ],
        &[
            "250 load pack/a.glb v1",
            "250 load pack/sub/b.glb v2",
            "250 load packs.glb v3",
            "1250 remove pack/a.glb",
            "1250 remove pack/sub/b.glb",
        ],
    );
}

#[test]
fn models_are_recognised_by_extension_without_regard_to_case() {
    check(
        &[(0, Op::Write("A.GLB")), (0, Op::Write("b.Gltf")), (0, Op::Write("c.bin"))],
        &["250 load A.GLB v1", "250 load b.Gltf v2"],
    );
}

#[test]
fn initial_files_are_due_at_once() {
    let fs = MockFs::default();
    for path in ["a.glb", "pack/b.gltf", "pack/b.bin", "pack/.hidden.glb"] {
        fs.write(path, 0);
    }
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    let paths = ["a.glb", "pack/b.gltf", "pack/b.bin", "pack/.hidden.glb", "gone.glb"].map(PathBuf::from);
    policy.initial(Millis(0), paths);
    assert_eq!(policy.next_deadline(), Some(Millis(0)));
    // `gone.glb` was deleted between the scan and the poll: nothing to load, nothing to remove.
    assert_eq!(play(&mut policy, &fs, &[]), ["0 load a.glb v1", "0 load pack/b.gltf v2"]);
    assert_eq!(policy.len(), 2);
}

#[test]
fn initial_files_are_looked_at_again_after_settle() {
    let fs = MockFs::default();
    fs.write("kept.glb", 0);
    fs.write("gone.glb", 0);
    fs.write("grown.glb", 0);
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    policy.initial(Millis(0), ["kept.glb", "gone.glb", "grown.glb"].map(PathBuf::from));
    assert_eq!(policy.poll(Millis(0), &fs).len(), 3);
    assert!(policy.is_current(Path::new("kept.glb"), 3), "a second look is no change");
    // notify's debouncer may swallow a deletion that follows a creation closely, and the
    // start-up scan may have seen the file in between; a write without event, likewise.
    fs.files.borrow_mut().remove(Path::new("gone.glb"));
    fs.write("grown.glb", 0);
    assert_eq!(play(&mut policy, &fs, &[]), ["500 remove gone.glb", "500 load grown.glb v4"]);
    assert!(policy.is_current(Path::new("kept.glb"), 3));
}

#[test]
fn a_change_during_the_initial_load_waits_to_settle() {
    let fs = MockFs::default();
    fs.write("a.glb", 0);
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    policy.initial(Millis(0), [PathBuf::from("a.glb")]);
    assert_eq!(play(&mut policy, &fs, &[(0, Op::Write("a.glb"))]), ["250 load a.glb v1"]);
}

#[test]
fn rescan_reloads_known_models_and_finds_new_ones() {
    let fs = MockFs::default();
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    assert_eq!(
        play(&mut policy, &fs, &[(0, Op::Write("a.glb")), (0, Op::Write("b.glb"))]),
        ["250 load a.glb v1", "250 load b.glb v2"]
    );
    // Events were lost: b.glb was deleted and c.glb created unnoticed.
    fs.files.borrow_mut().remove(Path::new("b.glb"));
    fs.write("c.glb", 0);
    policy.rescan(Millis(1000), ["a.glb", "c.glb"].map(PathBuf::from));
    let log = play(&mut policy, &fs, &[]);
    assert_eq!(log, ["1250 load a.glb v3", "1250 remove b.glb", "1250 load c.glb v4"]);
}

#[test]
fn versions_grow_and_stale_results_are_not_current() {
    let fs = MockFs::default();
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    let a = Path::new("a.glb");
    assert_eq!(play(&mut policy, &fs, &[CREATE_A]), ["250 load a.glb v1"]);
    assert!(policy.is_current(a, 1));
    // A change arrives while version 1 is being imported: its result is stale.
    policy.event(Millis(300), &apply(&fs, Op::Write("a.glb")));
    assert!(!policy.is_current(a, 1));
    assert_eq!(play(&mut policy, &fs, &[]), ["550 load a.glb v2"]);
    assert!(policy.is_current(a, 2));
    assert!(!policy.is_current(a, 1), "an older import finishing late is discarded");
    assert!(!policy.is_current(Path::new("b.glb"), 2), "versions belong to their model");
    // Removed: nothing is current any more, and the policy forgets the model.
    policy.event(Millis(1000), &apply(&fs, Op::Delete("a.glb")));
    assert_eq!(play(&mut policy, &fs, &[]), ["1250 remove a.glb"]);
    assert!(!policy.is_current(a, 2));
    assert!(policy.is_empty());
}

#[test]
fn idle_policy_has_no_deadline() {
    let mut policy = ReloadPolicy::default();
    assert_eq!(policy.next_deadline(), None);
    assert!(policy.poll(Millis(0), &MockFs::default()).is_empty());
    policy.event(Millis(5), &FsEvent::modified("a.glb"));
    assert_eq!(policy.next_deadline(), Some(Millis(5)), "a fresh change needs a first look at once");
}

#[test]
fn a_model_renamed_away_in_a_folded_rename_chain_is_swept_and_removed() {
    // a.gltf and b.gltf load; then a -> b -> c happens so fast that the debouncer reports only
    // a -> c: b's departure never arrives as an event.
    let fs = MockFs::default();
    let mut policy = ReloadPolicy::new(Duration::from_millis(SETTLE));
    for path in ["a.gltf", "b.gltf"] {
        let event = apply(&fs, Op::Write(path));
        policy.event(Millis(0), &event);
    }
    let loads = policy.poll(Millis(1000), &fs);
    let loads = [loads, policy.poll(Millis(2000), &fs)].concat();
    assert_eq!(loads.len(), 2, "{loads:?}");
    apply(&fs, Op::Rename("b.gltf", "c.gltf"));
    let folded = apply(&fs, Op::Rename("a.gltf", "c.gltf"));
    policy.event(Millis(3000), &folded);
    let without_sweep: Vec<String> = [policy.poll(Millis(4000), &fs), policy.poll(Millis(5000), &fs)]
        .concat()
        .iter()
        .map(|a| describe(0, a))
        .collect();
    assert!(!without_sweep.iter().any(|a| a.contains("b.gltf")), "b's departure is unknown: {without_sweep:?}");
    policy.sweep_missing(Millis(6000), &fs);
    let swept: Vec<String> = [policy.poll(Millis(7000), &fs), policy.poll(Millis(8000), &fs)]
        .concat()
        .iter()
        .map(|a| describe(0, a))
        .collect();
    assert!(swept.iter().any(|a| a.contains("remove b.gltf")), "{swept:?}");
}
