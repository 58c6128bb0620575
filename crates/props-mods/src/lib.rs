//! Mods: glTF models dropped into the mods folder while the game runs, loaded and hot
//! reloaded without ever hurting the game.
//!
//! [`ModWatcher::start`] watches the folder recursively (notify plus its debouncer) and runs
//! one `mod-loader` thread that owns the [`ReloadPolicy`], imports every model that is due
//! with [`props_gltf::import_file`] and sends [`ModEvent`]s. The game calls
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

mod error;
mod loader;
mod paths;
mod policy;
mod watcher;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

pub use error::ModError;
pub use policy::{Action, FileStat, FsEvent, FsEventKind, Millis, Probe, ReloadPolicy};
use props_anim::Model;
use props_gltf::Limits;

use crate::loader::{Input, Worker};

/// How mods are watched and imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModConfig {
    /// How long a changed model's files must stay unchanged before it loads (and how far
    /// apart the two stat checks are). Default [`ReloadPolicy::DEFAULT_SETTLE`], 250 ms;
    /// [`ModWatcher`] uses at least 100 ms, longer than notify's own debouncing.
    pub settle: Duration,
    /// Import limits. Default [`ModConfig::default_limits`].
    pub limits: Limits,
}

impl ModConfig {
    /// The importer's defaults with tighter sizes for mods: at most 64 MiB for the model file
    /// and for any one buffer or image file, 128 MiB for all buffers together. A prop is far
    /// smaller; a file above that is a mistake or an attack.
    pub fn default_limits() -> Limits {
        const MIB: u64 = 1024 * 1024;
        Limits {
            max_file_bytes: 64 * MIB,
            max_buffer_bytes: 64 * MIB,
            max_total_buffer_bytes: 128 * MIB,
            ..Limits::default()
        }
    }
}

impl Default for ModConfig {
    fn default() -> Self {
        Self { settle: ReloadPolicy::DEFAULT_SETTLE, limits: Self::default_limits() }
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
        /// Larger than every earlier version of any model.
        version: u64,
        /// Import time in milliseconds, on the worker thread.
        load_ms: f64,
        /// What the importer ignored or repaired (`json_path: message`).
        warnings: Vec<String>,
    },
    /// A model file could not be imported: keep the last good version of it, if any, and
    /// show the error.
    Rejected {
        /// The model file.
        path: PathBuf,
        /// Its file stem.
        name: String,
        /// Why, as `file: json_path: reason` (the file as given to [`ModWatcher::start`]
        /// joined with the path).
        error: String,
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
/// Dropping it stops the watcher and joins the `mod-loader` thread (waiting for an import in
/// progress to finish).
#[derive(Debug)]
pub struct ModWatcher {
    root: PathBuf,
    events: Receiver<ModEvent>,
    inputs: Sender<Input>,
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
        let worker = Worker::new(canonical.clone(), root.to_owned(), config, input_receiver, event_sender);
        let worker = std::thread::Builder::new()
            .name("mod-loader".to_owned())
            .spawn(move || worker.run())
            .map_err(|source| ModError::Thread { path: root.to_owned(), source })?;
        tracing::info!(root = %canonical.display(), "watching the mods folder");
        Ok(Self { root: canonical, events, inputs, worker: Some(worker), debouncer: Some(debouncer) })
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
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(ModEvent::Ready) | Err(_) => break,
                Ok(event) => events.push(event),
            }
        }
        events
    }

    /// The events that arrived since the last call, in order; never blocks. Call once per
    /// frame at the frame boundary and apply them all.
    pub fn poll(&self) -> impl Iterator<Item = ModEvent> + '_ {
        self.events.try_iter()
    }
}

impl Drop for ModWatcher {
    fn drop(&mut self) {
        // Fails only if the worker already ended.
        let _ = self.inputs.send(Input::Stop);
        if let Some(worker) = self.worker.take()
            && worker.join().is_err()
        {
            tracing::error!(root = %self.root.display(), "the mod-loader thread panicked");
        }
        if let Some(debouncer) = self.debouncer.take() {
            debouncer.stop();
        }
    }
}
