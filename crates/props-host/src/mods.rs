//! A mods folder in a host: [`PropHost::watch_mods`] starts the watcher ([`props_mods`]),
//! [`PropHost::poll_mods`] applies what it reports at the host's frame boundary. A mod named
//! as one of the host's models (its file stem) replaces it under the same id, its instances
//! kept; any other adds a model; a refused file leaves the last good version showing. Of several
//! mods of one name (in different folders, or `.glb` beside `.gltf`) the first by path shows,
//! whatever order they load in, as in the demo game; the others wait
//! ([`HostEvent::Shadowed`]) and the next shows when it is gone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use props_frame::ModelId;
use props_gltf::gate::Refused;
use props_gltf::validate::Report;
use props_mods::{ModConfig, ModError, ModEvent, ModWatcher};
use props_render::Renderer;

use crate::host::{Entry, ModVersion, ModelOptions, PropHost, ShowError};

/// Issue codes of the host's own refusals of a mod.
const GPU_CODE: &str = "PROPS_GPU";
const RIG_CODE: &str = "PROPS_RIG";

/// What a mod did, for the host to act on (place instances of a new model, show a message).
/// Paths are relative to the mods folder.
#[derive(Clone, Debug)]
pub enum HostEvent {
    /// A mod added a model under a new id (no model of its name was loaded).
    Loaded {
        /// The mod file.
        path: PathBuf,
        /// Its id.
        model: ModelId,
        /// The file's report.
        report: Report,
    },
    /// A mod (or a new version of one) shows in a model's place: the same id, every instance
    /// kept with its state.
    Replaced {
        /// The mod file.
        path: PathBuf,
        /// The id.
        model: ModelId,
        /// The file's report.
        report: Report,
    },
    /// A mod file was refused; the last good version of the model stays.
    Refused {
        /// The mod file.
        path: PathBuf,
        /// What, where and the fix: the checker's report, or the host's one issue (the GPU's
        /// limits or the mods' VRAM budget, `PROPS_GPU`; a clip or node the host animates,
        /// `PROPS_RIG`).
        refused: Refused,
    },
    /// A mod of a model's name was admitted, but another mod of that name comes first by path
    /// and shows; this one shows when those before it are gone.
    Shadowed {
        /// The mod file.
        path: PathBuf,
        /// The model's id.
        model: ModelId,
        /// The mod file showing instead.
        by: PathBuf,
        /// The file's report.
        report: Report,
    },
    /// A mod that replaced a host's model is gone: the host's version shows again.
    Reverted {
        /// The mod file.
        path: PathBuf,
        /// The id.
        model: ModelId,
    },
    /// A mod that added a model is gone, with the model and its instances.
    Removed {
        /// The mod file.
        path: PathBuf,
        /// The id it had.
        model: ModelId,
        /// Instances removed with it.
        instances: usize,
    },
    /// Watching hit a problem (an unreadable folder, the folder removed); it goes on where it
    /// can.
    WatchError {
        /// What went wrong.
        error: String,
    },
}

impl PropHost {
    /// Watches `folder` for mods (see [`props_mods`]) and applies the ones already there,
    /// waiting for them at most `wait`; returns what they did.
    pub fn watch_mods(
        &mut self,
        folder: &Path,
        config: ModConfig,
        wait: Duration,
        renderer: &mut Renderer,
    ) -> Result<Vec<HostEvent>, ModError> {
        let watcher = ModWatcher::start(folder, config)?;
        let initial = watcher.wait_until_ready(wait);
        self.watcher = Some(watcher);
        let mut events = Vec::new();
        for event in initial {
            self.apply(event, renderer, &mut events);
        }
        Ok(events)
    }

    /// Applies what the mods watcher reported since the last call, appending what happened to
    /// `events`; call it at a frame boundary. Nothing without [`PropHost::watch_mods`].
    pub fn poll_mods(&mut self, renderer: &mut Renderer, events: &mut Vec<HostEvent>) {
        let Some(watcher) = self.watcher.take() else { return };
        for event in watcher.poll() {
            self.apply(event, renderer, events);
        }
        self.watcher = Some(watcher);
    }

    fn apply(&mut self, event: ModEvent, renderer: &mut Renderer, events: &mut Vec<HostEvent>) {
        match event {
            ModEvent::Loaded { path, name, model, report, .. } => {
                events.push(self.load_mod(path, name, ModVersion { model, report }, renderer));
            }
            ModEvent::Rejected { path, refused, .. } => {
                tracing::warn!(%refused, "mod refused");
                events.push(HostEvent::Refused { path, refused });
            }
            ModEvent::Removed { path, .. } => self.remove_mod(&path, renderer, events),
            ModEvent::WatchError { error, .. } => events.push(HostEvent::WatchError { error }),
            ModEvent::Ready => {}
        }
    }

    /// Takes a mod's new version: the model of its name shows it if it comes first by path
    /// among that model's mods, else it waits; a mod naming no model adds one.
    fn load_mod(&mut self, path: PathBuf, name: String, version: ModVersion, renderer: &mut Renderer) -> HostEvent {
        let target = self.entries.iter().position(|e| e.mods.contains_key(&path));
        let Some(k) = target.or_else(|| self.entries.iter().position(|e| e.name == name)) else {
            return self.add_mod_model(path, name, version, renderer);
        };
        let (id, entry) = (self.entries[k].id, &mut self.entries[k]);
        if let Some(first) = entry.mods.keys().next().filter(|first| **first < path).cloned() {
            let report = version.report.clone();
            entry.mods.insert(path.clone(), version);
            tracing::info!(path = %report.file.display(), by = %first.display(), "mod waits behind another of its name");
            return HostEvent::Shadowed { path, model: id, by: first, report };
        }
        if let Err(error) = self.show_mod(k, &version, renderer) {
            return self.refused(path, &version.report.file, error);
        }
        tracing::info!(path = %version.report.file.display(), model = id.0, "mod replaces a model");
        let report = version.report.clone();
        self.entries[k].mods.insert(path.clone(), version);
        HostEvent::Replaced { path, model: id, report }
    }

    /// Shows `version` in entry `k`'s place (within the mods' VRAM budget, bound as the entry
    /// is); nothing changes on error.
    fn show_mod(&mut self, k: usize, version: &ModVersion, renderer: &mut Renderer) -> Result<(), ShowError> {
        let (id, options) = (self.entries[k].id, self.entries[k].options.clone());
        self.show((id, &version.model), &options, Some(self.config.mods_vram_bytes), false, renderer)?;
        self.entries[k].shown = Arc::clone(&version.model);
        Ok(())
    }

    /// A mod naming none of the models: a new model under a new id.
    fn add_mod_model(
        &mut self,
        path: PathBuf,
        name: String,
        version: ModVersion,
        renderer: &mut Renderer,
    ) -> HostEvent {
        let (id, options) = (self.ids.take(), ModelOptions::default());
        let budget = Some(self.config.mods_vram_bytes);
        if let Err(error) = self.show((id, &version.model), &options, budget, false, renderer) {
            self.ids.release(id);
            return self.refused(path, &version.report.file, error);
        }
        tracing::info!(path = %version.report.file.display(), model = id.0, "mod adds a model");
        let (shown, report) = (Arc::clone(&version.model), version.report.clone());
        let mods = BTreeMap::from([(path.clone(), version)]);
        self.entries.push(Entry { id, name, options, base: None, shown, mods });
        HostEvent::Loaded { path, model: id, report }
    }

    fn refused(&self, path: PathBuf, file: &Path, error: ShowError) -> HostEvent {
        let refused = match error {
            ShowError::Gpu(error) => Refused::one(file, GPU_CODE, "", format!("{error}")),
            ShowError::Rig(error) => Refused::one(file, RIG_CODE, "", format!("{error}")),
        };
        tracing::warn!(%refused, "mod refused");
        HostEvent::Refused { path, refused }
    }

    /// A mod file is gone. If it showed, the next mod of its model's name by path shows (those
    /// the GPU or the bindings refuse now are dropped, reported), else the host's version, or
    /// the model it added goes with its instances.
    fn remove_mod(&mut self, path: &Path, renderer: &mut Renderer, events: &mut Vec<HostEvent>) {
        // Nothing is kept if every version was refused.
        let Some(k) = self.entries.iter().position(|e| e.mods.contains_key(path)) else { return };
        let showed = self.entries[k].showing_mod() == Some(path);
        let Some(removed) = self.entries[k].mods.remove(path).filter(|_| showed) else { return };
        let id = self.entries[k].id;
        while let Some((next, version)) = self.entries[k].mods.pop_first() {
            match self.show_mod(k, &version, renderer) {
                Ok(()) => {
                    let report = version.report.clone();
                    self.entries[k].mods.insert(next.clone(), version);
                    return events.push(HostEvent::Replaced { path: next, model: id, report });
                }
                Err(error) => events.push(self.refused(next, &version.report.file, error)),
            }
        }
        let Some(base) = self.entries[k].base.clone() else {
            let instances = self.drop_model(id, renderer).unwrap_or(0);
            return events.push(HostEvent::Removed { path: path.to_owned(), model: id, instances });
        };
        let options = self.entries[k].options.clone();
        if let Err(error) = self.show((id, &base), &options, None, true, renderer) {
            // The host's version showed before with the same options: only the GPU can fail.
            tracing::error!(?error, "showing the host's model again failed; the mod's stays");
            self.entries[k].mods.insert(path.to_owned(), removed);
            return;
        }
        self.entries[k].shown = base;
        events.push(HostEvent::Reverted { path: path.to_owned(), model: id });
    }
}
