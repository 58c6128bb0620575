//! Mods: glTF models dropped into the mods folder while the game runs, loaded and hot
//! reloaded without ever hurting the game.
//!
//! [`ModWatcher::start`] watches the folder recursively (notify plus its debouncer) and runs
//! one `mod-loader` thread that owns the [`ReloadPolicy`], admits every model that is due
//! through the game's gate ([`props_gltf::gate::admit_file`]: the checker, then the import)
//! and sends [`ModEvent`]s. The game calls
//! [`ModWatcher::poll`] once per frame, at the frame boundary, and applies the events: imports
//! never run on its thread, and a rejected file leaves the last good version on screen.
//!
//! Layers, one concern each:
//! - `policy`: what a change means, debouncing, versioning. Pure and clock-free, tested with
//!   synthetic events and a mock [`Probe`].
//! - `watcher`: thin notify glue (events to [`FsEvent`]s, folder scans, the real probe).
//! - `loader`: the worker thread (policy + imports).
//!
//! Untrusted files: the importer confines URIs to the model's folder and checks sizes against
//! [`ModConfig::limits`]; on top of that, model files reached through symbolic links that
//! lead out of the mods folder are rejected, and hidden and temporary files (`.name`, `name~`,
//! `.part`, `.crdownload`, `.tmp`, ...) are ignored.
//!
//! Watching a folder, and applying what it reports once per frame:
//!
//! ```
//! use std::time::Duration;
//! use props_mods::{ModConfig, ModEvent, ModWatcher};
//!
//! let folder = std::env::temp_dir().join(format!("props-mods-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&folder)?;
//! let watcher = ModWatcher::start(&folder, ModConfig::default())?;
//! for event in watcher.wait_until_ready(Duration::from_secs(10)) {
//!     match event {
//!         ModEvent::Loaded { name, model, .. } => println!("{name}: {} meshes", model.meshes().len()),
//!         ModEvent::Rejected { name, refused, .. } => println!("{name} refused, the last good one stays: {refused}"),
//!         _ => {}
//!     }
//! }
//! // Then, each frame: `for event in watcher.poll() { ... }`.
//! # drop(watcher);
//! # std::fs::remove_dir_all(&folder)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod file_watch;
pub mod fitting;
mod loader;
mod paths;
mod policy;
pub mod sidecar;
mod watcher;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

pub use error::ModError;
pub use file_watch::{FileChange, FileWatch};
pub use paths::{MODEL_EXTENSIONS, is_mod_model};
pub use policy::{Action, FileStat, FsEvent, FsEventKind, Millis, Probe, ReloadPolicy};
use props_anim::Model;
use props_gltf::Limits;
use props_gltf::gate::Refused;
use props_gltf::validate::Report;
pub use watcher::FsProbe;

use crate::loader::{Input, Worker};

/// The code of a mod refused because no model takes it: neither its name nor its sidecar's
/// role is one the host shows (the host's refusal, after the gate).
pub const PLACE_CODE: &str = "PROPS_PLACE";
/// The code of a mod refused because it lacks a node or clip the host drives (the host's
/// refusal, after the gate).
pub const RIG_CODE: &str = "PROPS_RIG";
/// The code of a mod refused for the GPU's limits or the mods' VRAM budget.
pub const GPU_CODE: &str = "PROPS_GPU";

/// How mods are watched and imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModConfig {
    /// How long a changed model's files must stay unchanged before it loads (and how far
    /// apart the two stat checks are). Default [`ReloadPolicy::DEFAULT_SETTLE`], 250 ms;
    /// [`ModWatcher`] uses at least 100 ms, longer than notify's own debouncing.
    pub settle: Duration,
    /// Import limits of one mod, its decoded-bytes budget included. Default
    /// [`ModConfig::default_limits`].
    pub limits: Limits,
    /// The RAM budget of all mods together: heap bytes of the loaded mods' models
    /// (`props_anim::Model::heap_bytes`; less their pixels once a host released them on the
    /// GPU, [`ModWatcher::set_resident_bytes`]). A model that would take them past it is
    /// refused.
    /// While a model loads, its import may take up to [`Limits::max_decoded_bytes`] more, so
    /// the mods never hold more than the sum of the two. Default 1 GiB.
    pub total_bytes: u64,
    /// Where the host's players raise [`ModConfig::total_bytes`], in the host's words: a
    /// refusal over it ends "or raise the budget (this)". Default
    /// [`ModConfig::DEFAULT_TOTAL_BYTES_SETTING`]; the demo game names its option.
    pub total_bytes_setting: String,
    /// The roles a mod's sidecar may give its model: the host's (a scene's prop kinds declare
    /// theirs). Default: [`sidecar::AMBIENT`] alone.
    pub roles: Vec<sidecar::Role>,
    /// Whether the host answers every [`ModEvent::Loaded`] with what it keeps of the model
    /// ([`ModWatcher::set_resident_bytes`]; `props-host`'s shelf does, and sets this). Then a
    /// model over [`ModConfig::total_bytes`] waits for the answers about the models sent before
    /// it (up to [`ModConfig::REPORT_WAIT`]) before it is refused: mods that arrive together
    /// would otherwise count each other's pixels, which the host drops once they show.
    /// Default `false`.
    pub host_reports_kept_bytes: bool,
}

impl ModConfig {
    /// The importer's defaults with tighter sizes for mods: at most 64 MiB for the model file
    /// and for any one buffer or image file, 128 MiB for all buffers together, 256 MiB of
    /// decoded data (parsed JSON, accessors, images at their real bytes per pixel), 1 Mi JSON
    /// values and 4 Mi elements per accessor. A prop is far smaller; a file above that is a
    /// mistake or an attack.
    pub fn default_limits() -> Limits {
        const MIB: u64 = 1024 * 1024;
        Limits {
            max_file_bytes: 64 * MIB,
            max_buffer_bytes: 64 * MIB,
            max_total_buffer_bytes: 128 * MIB,
            max_decoded_bytes: 256 * MIB,
            max_json_values: MIB,
            max_accessor_elements: 4 * MIB,
            ..Limits::default()
        }
    }

    /// How long a model over the RAM budget waits for the host's answers about the models
    /// sent before it ([`ModConfig::host_reports_kept_bytes`]).
    pub const REPORT_WAIT: Duration = Duration::from_secs(10);

    /// The default [`ModConfig::total_bytes`]: 1 GiB.
    pub const DEFAULT_TOTAL_BYTES: u64 = 1 << 30;
    /// The default [`ModConfig::total_bytes_setting`]: the field itself, for the host's
    /// programmer.
    pub const DEFAULT_TOTAL_BYTES_SETTING: &str = "ModConfig::total_bytes";

    /// The limits `file` is held to outside the game's watcher (the checker, the previewer):
    /// the mods' ([`ModConfig::default_limits`]) when `mod_limits` is asked or the file lies in
    /// a folder named `mods`, else the importer's defaults (base assets).
    pub fn limits_for(file: &Path, mod_limits: bool) -> Limits {
        if mod_limits || file.components().any(|c| c.as_os_str() == "mods") {
            Self::default_limits()
        } else {
            Limits::default()
        }
    }
}

impl Default for ModConfig {
    fn default() -> Self {
        Self {
            settle: ReloadPolicy::DEFAULT_SETTLE,
            limits: Self::default_limits(),
            total_bytes: Self::DEFAULT_TOTAL_BYTES,
            total_bytes_setting: Self::DEFAULT_TOTAL_BYTES_SETTING.to_owned(),
            roles: vec![sidecar::AMBIENT],
            host_reports_kept_bytes: false,
        }
    }
}

/// What happened to a mod model. Paths are relative to the mods root, with the extension
/// (`pack/windmill.glb`); names are file stems (`windmill`), which decide what a model
/// overrides.
#[derive(Clone, Debug)]
pub enum ModEvent {
    /// A model was imported: show it (replacing any earlier version of the same path).
    Loaded {
        /// The model file.
        path: PathBuf,
        /// Its file stem.
        name: String,
        /// The model.
        model: Arc<Model>,
        /// Its sidecar (`<name>.prop.toml`), checked against it, if it has one.
        sidecar: Option<sidecar::Sidecar>,
        /// Larger than every earlier version of any model.
        version: u64,
        /// Import time in milliseconds, on the worker thread.
        load_ms: f64,
        /// The checker's report (the file as given to [`ModWatcher::start`] joined with the
        /// path): what it noticed that is not fatal, each issue shown as
        /// `/json/pointer: warning[CODE]: message`, and the parts dropped.
        report: Report,
    },
    /// A model file could not be imported: keep the last good version of it, if any, and
    /// show the error.
    Rejected {
        /// The model file.
        path: PathBuf,
        /// Its file stem.
        name: String,
        /// Why, with every issue found: the checker's report, or the one issue of the mods'
        /// own checks (a symbolic link out of the folder, the mods' RAM budget, the sidecar).
        /// It displays as the first fatal issue, `file: /json/pointer: error[CODE]: message`
        /// (the file as given to [`ModWatcher::start`] joined with the path, or the sidecar),
        /// and how many more.
        refused: Refused,
        /// The version this import would have had.
        version: u64,
    },
    /// A model file is gone (deleted, renamed or moved away): drop the model, reverting to
    /// the base asset it overrode. May come for a model whose every version was rejected.
    Removed {
        /// The model file.
        path: PathBuf,
        /// Its file stem.
        name: String,
    },
    /// Every model that was in the folder when watching started has been loaded or
    /// rejected (sent once, after their events). [`ModWatcher::wait_until_ready`] waits for
    /// it.
    Ready,
    /// The watcher hit a problem (a folder it cannot read, the operating system's watch
    /// limit, the mods folder itself removed); watching goes on where it can.
    WatchError {
        /// The paths involved (relative to the mods root where they lie below it).
        paths: Vec<PathBuf>,
        /// What went wrong.
        error: String,
    },
}

/// Watches a mods folder and loads its models on a background thread; see the crate docs.
///
/// Dropping it stops the watcher and joins the `mod-loader` thread, waiting at most two
/// seconds for an import in progress (then the thread is left to end with the process, so a
/// game can always exit).
#[derive(Debug)]
pub struct ModWatcher {
    root: PathBuf,
    events: Receiver<ModEvent>,
    inputs: Sender<Input>,
    resident_updates: Sender<(PathBuf, u64)>,
    worker: Option<JoinHandle<()>>,
    debouncer: Option<watcher::Debouncer>,
}

impl ModWatcher {
    /// Starts watching `root` recursively, creating the folder if it does not exist (so the
    /// game's default `mods/` just works). Every model already there is loaded at once (no
    /// settling); later changes load after [`ModConfig::settle`].
    pub fn start(root: &Path, mut config: ModConfig) -> Result<Self, ModError> {
        config.settle = config.settle.max(watcher::MIN_SETTLE);
        let folder = |source| ModError::Folder { path: root.to_owned(), source };
        std::fs::create_dir_all(root).map_err(folder)?;
        let canonical = root.canonicalize().map_err(folder)?;
        let (inputs, input_receiver) = mpsc::channel();
        let notify_inputs = inputs.clone();
        let debouncer = watcher::watch(&canonical, move |result| {
            // Fails only once the worker is gone, when nothing needs the events any more.
            let _ = notify_inputs.send(Input::Notify(result));
        })
        .map_err(|source| ModError::Watch { path: root.to_owned(), source })?;
        let (event_sender, events) = mpsc::channel();
        let (resident_updates, update_receiver) = mpsc::channel();
        let receivers = (input_receiver, update_receiver);
        let worker = Worker::new(canonical.clone(), root.to_owned(), config, receivers, event_sender);
        let worker = std::thread::Builder::new()
            .name("mod-loader".to_owned())
            .spawn(move || worker.run())
            .map_err(|source| ModError::Thread { path: root.to_owned(), source })?;
        tracing::info!(root = %canonical.display(), "watching the mods folder");
        Ok(Self { root: canonical, events, inputs, resident_updates, worker: Some(worker), debouncer: Some(debouncer) })
    }

    /// The watched folder, canonicalized.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Blocks until the models present at start are loaded, at most `timeout`, and returns
    /// the events that came until then (without [`ModEvent::Ready`]). The game calls it once
    /// before its first frame, so mods already in the folder show from the start and runs
    /// with a fixed time step are repeatable; later changes arrive through [`Self::poll`].
    pub fn wait_until_ready(&self, timeout: Duration) -> Vec<ModEvent> {
        let deadline = std::time::Instant::now() + timeout;
        let mut events = Vec::new();
        while let Some(event) = self.next_event(deadline) {
            match event {
                ModEvent::Ready => break,
                event => events.push(event),
            }
        }
        events
    }

    /// The next event, waiting for it until `deadline` at most; `None` at the deadline. A
    /// host that applies each mod present at start as it comes (and so tells the watcher what
    /// each keeps in memory before the next is checked against the budget:
    /// [`ModWatcher::set_resident_bytes`]) waits with it until [`ModEvent::Ready`].
    pub fn next_event(&self, deadline: std::time::Instant) -> Option<ModEvent> {
        let left = deadline.checked_duration_since(std::time::Instant::now())?;
        self.events.recv_timeout(left).ok()
    }

    /// The events that arrived since the last call, in order; never blocks. Call once per
    /// frame at the frame boundary and apply them all.
    pub fn poll(&self) -> impl Iterator<Item = ModEvent> + '_ {
        self.events.try_iter()
    }

    /// Loads the mod at `path` (relative to the root, as its events name it) again, at once:
    /// its new version comes as a [`ModEvent::Loaded`]. For a host that released its model's
    /// pixels ([`props_anim::Model::release_pixels`]) and must upload it again (to a new GPU
    /// device, or to show it again behind a mod that went).
    pub fn reload(&self, path: &Path) {
        // Fails only once the worker is gone, when nothing loads any more.
        let _ = self.inputs.send(Input::Reload(path.to_owned()));
    }

    /// The host keeps `bytes` of memory of the mod at `path` ([`props_anim::Model::heap_bytes`],
    /// once it released its pixels; 0 for a model it refused): what the RAM budget
    /// ([`ModConfig::total_bytes`]) counts for it from now on. With
    /// [`ModConfig::host_reports_kept_bytes`], the host says it for every [`ModEvent::Loaded`].
    pub fn set_resident_bytes(&self, path: &Path, bytes: u64) {
        let _ = self.resident_updates.send((path.to_owned(), bytes));
    }
}

/// How long dropping a [`ModWatcher`] waits for an import in progress before leaving the
/// `mod-loader` thread behind (it ends with the process).
const STOP_TIMEOUT: Duration = Duration::from_secs(2);

impl Drop for ModWatcher {
    fn drop(&mut self) {
        // Fails only if the worker already ended.
        let _ = self.inputs.send(Input::Stop);
        if let Some(worker) = self.worker.take() {
            let deadline = std::time::Instant::now() + STOP_TIMEOUT;
            while !worker.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if !worker.is_finished() {
                tracing::warn!(root = %self.root.display(), "an import is still running; the mod loader is left behind");
            } else if worker.join().is_err() {
                tracing::error!(root = %self.root.display(), "the mod-loader thread panicked");
            }
        }
        if let Some(debouncer) = self.debouncer.take() {
            debouncer.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_in_a_mods_folder_get_the_mod_limits() {
        let mods = ModConfig::default_limits();
        assert_eq!(ModConfig::limits_for(Path::new("mods/pack/a.glb"), false), mods);
        assert_eq!(ModConfig::limits_for(Path::new("assets/windmill.glb"), false), Limits::default());
        assert_eq!(ModConfig::limits_for(Path::new("assets/windmill.glb"), true), mods);
        assert_ne!(mods, Limits::default(), "mods are held to tighter sizes");
    }
}
