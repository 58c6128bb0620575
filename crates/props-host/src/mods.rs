//! A mods folder in a host: [`PropHost::watch_mods`] starts the watcher ([`props_mods`]),
//! [`PropHost::poll_mods`] applies what it reports at the host's frame boundary. A mod named
//! as one of the host's models (its file stem) replaces it under the same id, its instances
//! kept; any other adds a model; a refused file leaves the last good version showing. Two
//! mods of one name (in different folders) take turns: the latest loaded shows, and removing
//! it shows the host's version (or removes the model a mod added), not the other mod's.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use props_frame::ModelId;
use props_gltf::gate::Refused;
use props_gltf::validate::Report;
use props_mods::{ModConfig, ModError, ModEvent, ModWatcher};
use props_render::Renderer;

use crate::host::{Entry, ModelOptions, PropHost, ShowError};

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
        Ok(initial.into_iter().filter_map(|event| self.apply(event, renderer)).collect())
    }

    /// Applies what the mods watcher reported since the last call, appending what happened to
    /// `events`; call it at a frame boundary. Nothing without [`PropHost::watch_mods`].
    pub fn poll_mods(&mut self, renderer: &mut Renderer, events: &mut Vec<HostEvent>) {
        let Some(watcher) = self.watcher.take() else { return };
        for event in watcher.poll() {
            events.extend(self.apply(event, renderer));
        }
        self.watcher = Some(watcher);
    }

    fn apply(&mut self, event: ModEvent, renderer: &mut Renderer) -> Option<HostEvent> {
        match event {
            ModEvent::Loaded { path, name, model, report, .. } => {
                Some(self.load_mod(path, name, model, report, renderer))
            }
            ModEvent::Rejected { path, refused, .. } => {
                tracing::warn!(%refused, "mod refused");
                Some(HostEvent::Refused { path, refused })
            }
            ModEvent::Removed { path, .. } => self.remove_mod(path, renderer),
            ModEvent::WatchError { error, .. } => Some(HostEvent::WatchError { error }),
            ModEvent::Ready => None,
        }
    }

    /// Shows a mod: in place of the model it replaced before or the host's model of its name,
    /// else as a new model.
    fn load_mod(
        &mut self,
        path: PathBuf,
        name: String,
        model: Arc<props_anim::Model>,
        report: Report,
        renderer: &mut Renderer,
    ) -> HostEvent {
        let budget = Some(self.config.mods_vram_bytes);
        let target = self.entries.iter().position(|e| e.from_mod.as_ref() == Some(&path));
        let target = target.or_else(|| self.entries.iter().position(|e| e.name == name));
        if let Some(k) = target {
            let (id, options) = (self.entries[k].id, self.entries[k].options.clone());
            if let Err(error) = self.show((id, &model), &options, budget, false, renderer) {
                return self.refused(path, &report.file, error);
            }
            let entry = &mut self.entries[k];
            (entry.shown, entry.from_mod) = (model, Some(path.clone()));
            tracing::info!(path = %report.file.display(), model = id.0, "mod replaces a model");
            return HostEvent::Replaced { path, model: id, report };
        }
        let (id, options) = (self.ids.take(), ModelOptions::default());
        if let Err(error) = self.show((id, &model), &options, budget, false, renderer) {
            self.ids.release(id);
            return self.refused(path, &report.file, error);
        }
        let from_mod = Some(path.clone());
        self.entries.push(Entry { id, name, options, base: None, shown: model, from_mod });
        tracing::info!(path = %report.file.display(), model = id.0, "mod adds a model");
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

    /// A mod file is gone: the host's version of its model shows again, or the model it added
    /// goes with its instances.
    fn remove_mod(&mut self, path: PathBuf, renderer: &mut Renderer) -> Option<HostEvent> {
        // Nothing showed if every version was refused.
        let k = self.entries.iter().position(|e| e.from_mod.as_ref() == Some(&path))?;
        let id = self.entries[k].id;
        let Some(base) = self.entries[k].base.clone() else {
            let instances = self.drop_model(id, renderer).unwrap_or(0);
            return Some(HostEvent::Removed { path, model: id, instances });
        };
        let options = self.entries[k].options.clone();
        if let Err(error) = self.show((id, &base), &options, None, true, renderer) {
            // The host's version showed before with the same options: only the GPU can fail.
            tracing::error!(?error, "showing the host's model again failed; the mod's stays");
            return None;
        }
        let entry = &mut self.entries[k];
        (entry.shown, entry.from_mod) = (base, None);
        Some(HostEvent::Reverted { path, model: id })
    }
}
