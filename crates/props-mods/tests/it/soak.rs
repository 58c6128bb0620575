//! Soak: 500 random writes, partial writes, safe saves, renames and deletes of valid and
//! broken models (and of an external `.bin`) into a watched folder within about 20 s. The game
//! state built from the events must converge to what is on disk, versions must grow, and
//! dropping the watcher must end its threads and release its descriptors and models.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use props_anim::Model;
use props_mods::{ModConfig, ModEvent, ModWatcher};
use rand_core::{Rng as _, SeedableRng as _};
use rand_xoshiro::SplitMix64;

use crate::models;
use crate::support::{self, TempDir, serial};

/// Operations to run.
const OPS: usize = 500;
/// Longest pause between two operations, in milliseconds (the mean is half).
const MAX_PAUSE_MS: u64 = 80;
/// How long the state may take to converge after the last operation.
const CONVERGE: Duration = Duration::from_secs(15);

/// Model paths the soak writes to (and renames between).
const SLOTS: &[&str] = &["m0.gltf", "m1.gltf", "m2.glb", "pack/m3.gltf", "pack/m4.glb", "pack/sub/m5.gltf"];
/// A model whose buffer is the external file [`EXT_BIN`]; never renamed.
const EXT: &str = "ext/house.gltf";
/// The external buffer of [`EXT`].
const EXT_BIN: &str = "ext/house.bin";

/// A seeded generator, so that a failing soak can be replayed.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[usize::try_from(self.below(items.len() as u64)).unwrap_or(0)]
    }
}

/// What a model file on disk holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Content {
    /// A valid model with this node.
    Valid(String),
    /// Something the importer must reject.
    Broken,
    /// A model with this node whose buffer is [`EXT_BIN`].
    External(String),
}

/// The soak's picture of the mods folder.
struct Disk {
    mods: TempDir,
    files: HashMap<&'static str, Content>,
    bin_valid: Option<bool>,
}

impl Disk {
    /// Writes `bytes` to `slot`, in two parts with a pause between them when `split`.
    fn write(&mut self, slot: &'static str, bytes: &[u8], content: Content, split: Option<Duration>) {
        let path = self.mods.path().join(slot);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create the folder");
        }
        let mut file = std::fs::File::create(&path).expect("create the file");
        let half = bytes.len() / 2;
        file.write_all(&bytes[..half]).expect("write");
        if let Some(pause) = split {
            file.flush().expect("flush");
            std::thread::sleep(pause);
        }
        file.write_all(&bytes[half..]).expect("write");
        drop(file);
        self.files.insert(slot, content);
    }

    fn rename(&mut self, from: &'static str, to: &'static str) {
        let (from_path, to_path) = (self.mods.path().join(from), self.mods.path().join(to));
        if let Some(parent) = to_path.parent() {
            std::fs::create_dir_all(parent).expect("create the folder");
        }
        std::fs::rename(from_path, to_path).expect("rename");
        if let Some(content) = self.files.remove(from) {
            self.files.insert(to, content);
        }
    }

    /// What the game must show for each model path on disk.
    fn expected(&self) -> HashMap<PathBuf, Content> {
        self.files
            .iter()
            .map(|(slot, content)| {
                let effective = match content {
                    Content::External(node) if self.bin_valid == Some(true) => Content::Valid(node.clone()),
                    Content::External(_) => Content::Broken,
                    other => other.clone(),
                };
                (PathBuf::from(slot), effective)
            })
            .collect()
    }
}

/// A random valid model file (`.gltf` JSON or `.glb`, whatever the extension: the importer
/// goes by content) with node `node`.
fn valid_bytes(rng: &mut Rng, node: &str) -> Vec<u8> {
    if rng.below(2) == 0 { models::gltf(node).into_bytes() } else { models::glb(node) }
}

/// A random file the importer must reject.
fn broken_bytes(rng: &mut Rng) -> Vec<u8> {
    match rng.below(3) {
        0 => models::BROKEN_JSON.as_bytes().to_vec(),
        1 => {
            let glb = models::glb("cut");
            glb[..glb.len() - 10].to_vec()
        }
        _ => models::gltf_external("escape", "../../secret.bin").into_bytes(),
    }
}

/// One random operation; `n` names the nodes it writes.
fn random_op(rng: &mut Rng, disk: &mut Disk, n: usize) {
    let node = format!("n{n}");
    let pause = Duration::from_millis(rng.below(30));
    let split = (rng.below(4) == 0).then_some(pause);
    let slot = rng.pick(SLOTS);
    match rng.below(100) {
        0..30 => {
            let bytes = valid_bytes(rng, &node);
            disk.write(slot, &bytes, Content::Valid(node), split);
        }
        30..45 => {
            let bytes = broken_bytes(rng);
            disk.write(slot, &bytes, Content::Broken, split);
        }
        45..55 => {
            if disk.files.remove(slot).is_some() {
                disk.mods.remove(slot);
            }
        }
        55..70 => {
            let to = rng.pick(SLOTS);
            if to != slot && disk.files.contains_key(slot) {
                disk.rename(slot, to);
            }
        }
        70..80 => {
            // An editor's safe save: a temporary file renamed over the model.
            let temp: &'static str = match slot {
                "m0.gltf" => "m0.gltf.tmp",
                "pack/m3.gltf" => "pack/.m3.gltf.swp",
                _ => "pack/m4.glb~",
            };
            let target = match temp {
                "m0.gltf.tmp" => "m0.gltf",
                "pack/.m3.gltf.swp" => "pack/m3.gltf",
                _ => "pack/m4.glb",
            };
            let bytes = valid_bytes(rng, &node);
            disk.write(temp, &bytes, Content::Valid(node), None);
            disk.rename(temp, target);
        }
        80..88 => {
            let content = Content::External(node.clone());
            disk.write(EXT, models::gltf_external(&node, "house.bin").as_bytes(), content, split);
        }
        88..93 => {
            let bin = models::bin();
            let valid = rng.below(3) != 0;
            let bytes = if valid { &bin[..] } else { &bin[..bin.len() - 4] };
            disk.mods.write(EXT_BIN, bytes);
            disk.bin_valid = Some(valid);
        }
        93..96 => {
            if disk.bin_valid.take().is_some() {
                disk.mods.remove(EXT_BIN);
            }
        }
        _ => {
            // Two quick full writes in a row.
            let bytes = valid_bytes(rng, "overwritten");
            disk.write(slot, &bytes, Content::Broken, None);
            let bytes = valid_bytes(rng, &node);
            disk.write(slot, &bytes, Content::Valid(node), None);
        }
    }
}

/// What the game shows for a path.
#[derive(Debug)]
enum Shown {
    Loaded(Arc<Model>),
    Rejected(String),
}

/// The game side: applies events, checks that versions grow per path, counts.
#[derive(Default)]
struct Game {
    shown: HashMap<PathBuf, Shown>,
    last_version: HashMap<PathBuf, u64>,
    loaded: usize,
    rejected: usize,
    removed: usize,
    max_load_ms: f64,
}

impl Game {
    fn apply(&mut self, event: ModEvent) {
        match event {
            ModEvent::Loaded { path, model, version, load_ms, .. } => {
                self.check_version(&path, version);
                self.loaded += 1;
                self.max_load_ms = self.max_load_ms.max(load_ms);
                self.shown.insert(path, Shown::Loaded(model));
            }
            ModEvent::Rejected { path, refused, version, .. } => {
                self.check_version(&path, version);
                let error = refused.to_string();
                assert!(!error.contains("failed unexpectedly"), "the importer panicked: {error}");
                self.rejected += 1;
                self.shown.insert(path, Shown::Rejected(error));
            }
            ModEvent::Removed { path, .. } => {
                self.removed += 1;
                self.shown.remove(&path);
            }
            ModEvent::WatchError { paths, error } => panic!("watch error on {paths:?}: {error}"),
            ModEvent::Ready => {}
        }
    }

    fn check_version(&mut self, path: &Path, version: u64) {
        let last = self.last_version.insert(path.to_owned(), version).unwrap_or(0);
        assert!(version > last, "{}: version {version} after {last}", path.display());
    }

    /// Whether what the game shows is what is on disk.
    fn matches(&self, expected: &HashMap<PathBuf, Content>) -> bool {
        self.shown.len() == expected.len()
            && expected.iter().all(|(path, content)| match (content, self.shown.get(path)) {
                (Content::Valid(node), Some(Shown::Loaded(model))) => model.rig().find(node).is_some(),
                (Content::Broken, Some(Shown::Rejected(error))) => !error.is_empty(),
                _ => false,
            })
    }
}

#[test]
fn random_changes_converge_to_what_is_on_disk() {
    let _serial = serial();
    let fds_before = support::open_fds();
    let seed = std::env::var("PROPS_SOAK_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_cafe_u64);
    let mut rng = Rng(SplitMix64::seed_from_u64(seed));
    let mut disk = Disk { mods: TempDir::new("soak"), files: HashMap::new(), bin_valid: None };
    let config = ModConfig { settle: Duration::from_millis(100), ..ModConfig::default() };
    let watcher = ModWatcher::start(disk.mods.path(), config).expect("start");
    let mut game = Game::default();

    let start = Instant::now();
    for n in 0..OPS {
        random_op(&mut rng, &mut disk, n);
        watcher.poll().for_each(|event| game.apply(event));
        std::thread::sleep(Duration::from_millis(rng.below(MAX_PAUSE_MS)));
    }
    let writing = start.elapsed();

    let expected = disk.expected();
    let converging = Instant::now();
    while !game.matches(&expected) {
        assert!(
            converging.elapsed() < CONVERGE,
            "seed {seed}: no convergence within {CONVERGE:?}\nexpected {expected:#?}\nshown {:#?}",
            game.shown
        );
        std::thread::sleep(Duration::from_millis(10));
        watcher.poll().for_each(|event| game.apply(event));
    }
    let converged = converging.elapsed();
    // And it stays converged: no late event undoes it.
    let quiet = Instant::now();
    while quiet.elapsed() < Duration::from_millis(500) {
        std::thread::sleep(Duration::from_millis(10));
        watcher.poll().for_each(|event| game.apply(event));
    }
    assert!(game.matches(&expected), "seed {seed}: a late event broke the converged state");
    eprintln!(
        "soak (seed {seed}): {OPS} operations in {writing:.1?}, converged {converged:.1?} later; events: {} loaded, \
         {} rejected, {} removed; slowest import {:.2} ms; {} models on disk",
        game.loaded,
        game.rejected,
        game.removed,
        game.max_load_ms,
        expected.len()
    );

    drop(watcher);
    assert!(support::threads_gone(), "the watcher's threads end on drop");
    for (path, shown) in &game.shown {
        if let Shown::Loaded(model) = shown {
            assert_eq!(Arc::strong_count(model), 1, "{}: the library keeps no model", path.display());
        }
    }
    if let (Some(before), Some(after)) = (fds_before, support::open_fds()) {
        assert!(after <= before, "file descriptors leaked: {before} before, {after} after");
    }
}
