//! Mods on a [`Shelf`]: [`Shelf::apply`] takes what the mods watcher ([`props_mods`])
//! reported, at the game's frame boundary. A mod goes where the [`Stage`] places it: named as
//! a model, it shows in its place under the same id, the instances kept; else it adds a model.
//! A refused file leaves the last good version showing. Of several mods of one model (in
//! different folders, or `.glb` beside `.gltf`) the first by path shows, whatever order they
//! load in; the others wait ([`HostEvent::Shadowed`]) and the next shows when it is gone.
//! [`PropHost::watch_mods`] and [`PropHost::poll_mods`] run the watcher for a host.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use props_frame::ModelId;
use props_gltf::Part;
use props_gltf::gate::Refused;
use props_gltf::validate::{Consequence, Issue, Report};
use props_mods::{GPU_CODE, ModConfig, ModError, ModEvent, ModWatcher, PLACE_CODE, RIG_CODE};
use props_render::Renderer;

use crate::host::PropHost;
use crate::shelf::{Arrival, Entry, Shelf, Stage, Version};
use crate::swap::SwapError;
use crate::uploads::Uploads;

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
    /// A mod (or a new version of one, or the same read again from its file to upload its
    /// pixels again: [`Shelf::watch`]) shows in a model's place: the same id, every instance
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
        /// What, where and the fix: the checker's report, or the shelf's one issue (the GPU's
        /// limits or the mods' VRAM budget, `PROPS_GPU`; a clip or node the stage animates,
        /// `PROPS_RIG`; no model takes it, `PROPS_PLACE`).
        refused: Refused,
    },
    /// A mod of a model's name waits: it was admitted, but another mod of that name comes
    /// first by path and shows, or one that does just arrived (its [`HostEvent::Replaced`]
    /// comes next); this one shows when those before it are gone.
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
    /// A mod that showed in a model's place left it (its file is gone, or its sidecar moved
    /// it): the game's own version shows again.
    Reverted {
        /// The mod file.
        path: PathBuf,
        /// The id.
        model: ModelId,
    },
    /// A mod that added a model left it, with the model and its instances.
    Removed {
        /// The mod file.
        path: PathBuf,
        /// The id it had.
        model: ModelId,
        /// Instances removed with it.
        instances: usize,
    },
    /// A mod left a model that neither went back to its own version nor away: it waited
    /// behind another of its name, or the next of its name shows now (the
    /// [`HostEvent::Replaced`] after this); `model` is `None` when no version of the file was
    /// admitted (a refused file is gone).
    Withdrawn {
        /// The mod file.
        path: PathBuf,
        /// The model it left.
        model: Option<ModelId>,
    },
    /// Watching hit a problem (an unreadable folder, the folder removed); it goes on where it
    /// can.
    WatchError {
        /// What went wrong.
        error: String,
    },
}

impl PropHost {
    /// Watches `folder` for mods (see [`Shelf::watch`]); returns what the ones already there
    /// did.
    pub fn watch_mods(
        &mut self,
        folder: &Path,
        config: ModConfig,
        wait: Duration,
        renderer: &mut Renderer,
    ) -> Result<Vec<HostEvent>, ModError> {
        let (shelf, mut stage) = self.staged();
        shelf.watch(folder, config, wait, &mut stage, renderer)
    }

    /// Applies what the mods watcher reported since the last call, appending what happened to
    /// `events`; call it at a frame boundary. Nothing without [`PropHost::watch_mods`].
    pub fn poll_mods(&mut self, renderer: &mut Renderer, events: &mut Vec<HostEvent>) {
        let (shelf, mut stage) = self.staged();
        shelf.poll(&mut stage, renderer, events);
    }

    /// What the mods watcher reported that [`PropHost::poll_mods`] has not applied yet: the
    /// first waits for its model's upload, the rest for it (a host's "loading a mod").
    #[must_use]
    pub fn pending_mods(&self) -> usize {
        self.shelf.pending_mods()
    }
}

impl<B> Shelf<B> {
    /// Watches `folder` for mods (see [`props_mods`]) and applies the ones already there
    /// through `stage`, waiting for them at most `wait`; returns what they did. A mod's
    /// decoded pixels are dropped once it shows, its textures on the GPU alone, so that the
    /// mods' RAM budget holds what is used ([`props_anim::Model::release_pixels`]; a version
    /// shown again, or the models after [`Shelf::upload_all`], load again from their files,
    /// unless their images all came from KTX2 files).
    pub fn watch<S: Stage<B>>(
        &mut self,
        folder: &Path,
        config: ModConfig,
        wait: Duration,
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> Result<Vec<HostEvent>, ModError> {
        // The shelf answers each model with what it keeps (`report_kept`); the watcher is held
        // while the events apply, so that each answer comes before the next model is checked
        // against the mods' RAM budget.
        let config = ModConfig { host_reports_kept_bytes: true, ..config };
        self.watcher = Some(ModWatcher::start(folder, config)?);
        self.uploads = Some(Uploads::start());
        let deadline = std::time::Instant::now() + wait;
        let mut events = Vec::new();
        while let Some(event) = self.watcher.as_ref().and_then(|watcher| watcher.next_event(deadline)) {
            if matches!(event, ModEvent::Ready) {
                break;
            }
            self.apply(event, stage, renderer, &mut events);
        }
        Ok(events)
    }

    /// Applies what the mods watcher reported since the last call through `stage`, appending
    /// what happened to `events`; call it at a frame boundary. Nothing without
    /// [`Shelf::watch`]. A new model uploads on a thread of its own meanwhile (its buffers,
    /// textures and pipelines: [`props_render::ModelUploader`]); its event, and those after
    /// it, apply at the first call after its upload is done.
    pub fn poll<S: Stage<B>>(&mut self, stage: &mut S, renderer: &mut Renderer, events: &mut Vec<HostEvent>) {
        let (Some(watcher), Some(uploads)) = (&self.watcher, &mut self.uploads) else { return };
        // Nothing arrived, nothing is allocated.
        uploads.extend(watcher.poll());
        // A model alone over the mods' budget is refused without an upload.
        let room = self.mods_vram_bytes;
        while let Some((event, ahead)) =
            self.uploads.as_mut().and_then(|uploads| uploads.next(|| renderer.uploader(), room))
        {
            self.ahead = ahead;
            self.apply(event, stage, renderer, events);
            self.ahead = None;
        }
    }

    /// What the mods watcher reported that [`Shelf::poll`] has not applied yet: the first
    /// waits for its model's upload, the rest for it (a host's "loading a mod").
    #[must_use]
    pub fn pending_mods(&self) -> usize {
        self.uploads.as_ref().map_or(0, Uploads::len)
    }

    /// Applies one event of the mods watcher through `stage`, appending what happened to
    /// `events`.
    fn apply<S: Stage<B>>(
        &mut self,
        event: ModEvent,
        stage: &mut S,
        renderer: &mut Renderer,
        events: &mut Vec<HostEvent>,
    ) {
        match event {
            ModEvent::Loaded { path, name, model, sidecar, load_ms, report, .. } => {
                let arrival = Arrival { path: &path, name: &name, model: &model, sidecar: sidecar.as_ref(), load_ms };
                let placed = stage.place(self, &arrival);
                match placed {
                    Ok((key, binding)) => {
                        let version = Version { model, binding, report };
                        self.load_mod(path.clone(), key, version, stage, renderer, events);
                    }
                    Err(why) => events.push(refusal(path.clone(), &report.file, PLACE_CODE, why)),
                }
                self.report_kept(&path);
            }
            ModEvent::Rejected { path, refused, .. } => {
                tracing::debug!(%refused, "mod refused");
                events.push(HostEvent::Refused { path, refused });
            }
            ModEvent::Removed { path, .. } => self.remove_mod(&path, stage, renderer, events),
            ModEvent::WatchError { paths, error } => {
                tracing::warn!(?paths, %error, "mod watch error");
                events.push(HostEvent::WatchError { error });
            }
            ModEvent::Ready => {}
        }
    }

    /// Tells the watcher what of mod `path`'s model the shelf keeps, which its RAM budget
    /// counts: none when it was refused, without its pixels once it shows.
    fn report_kept(&self, path: &Path) {
        let kept = self.entries.iter().find_map(|entry| entry.mods.get(path)).map_or(0, |v| v.model.heap_bytes());
        if let Some(watcher) = &self.watcher {
            watcher.set_resident_bytes(path, kept);
        }
    }

    /// Takes a mod's new version into the model named `key`: it shows if it comes first by
    /// path among that model's mods, else it waits; a mod naming no model adds one. A mod that
    /// moved to another model (its sidecar changed) leaves the one it was in once it shows.
    fn load_mod<S: Stage<B>>(
        &mut self,
        path: PathBuf,
        key: String,
        version: Version<B>,
        stage: &mut S,
        renderer: &mut Renderer,
        events: &mut Vec<HostEvent>,
    ) {
        let held = self.entries.iter().position(|e| e.mods.contains_key(&path));
        let moved = held.filter(|&k| self.entries[k].name != key);
        let entry = self.entries.iter().position(|e| e.name == key);
        let showed = entry.and_then(|k| self.entries[k].showing_mod()).filter(|&p| p != path).map(Path::to_owned);
        let event = match entry {
            Some(k) => self.show_mod(k, path.clone(), version, stage, renderer),
            None => self.add_mod_model(path.clone(), key, version, stage, renderer),
        };
        // The mod that showed before this one, first by path now, waits behind it (said first:
        // a game's last message is the one that shows).
        let waits = match (&event, showed) {
            (HostEvent::Replaced { model, .. }, Some(showed)) => {
                entry.and_then(|k| self.entries.get(k)?.mods.get(&showed)).map(|v| HostEvent::Shadowed {
                    path: showed,
                    model: *model,
                    by: path.clone(),
                    report: v.report.clone(),
                })
            }
            _ => None,
        };
        let shows = matches!(event, HostEvent::Loaded { .. } | HostEvent::Replaced { .. } | HostEvent::Shadowed { .. });
        if let (true, Some(k)) = (shows, moved) {
            let from = self.entries[k].id;
            // The mod's earlier version, in the model it was in (its position may have moved).
            if let Some(k) = self.entries.iter().position(|e| e.id == from) {
                self.leave(k, &path, stage, renderer, events);
            }
        }
        events.extend(waits);
        events.push(event);
    }

    /// Entry `k` takes a mod's version: it shows if first by path, else waits.
    fn show_mod<S: Stage<B>>(
        &mut self,
        k: usize,
        path: PathBuf,
        version: Version<B>,
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> HostEvent {
        let (id, entry) = (self.entries[k].id, &mut self.entries[k]);
        let report = version.report.clone();
        if let Some(first) = entry.mods.keys().next().filter(|first| **first < path).cloned() {
            entry.mods.insert(path.clone(), version);
            tracing::debug!(path = %report.file.display(), by = %first.display(), "mod waits behind another of its name");
            return HostEvent::Shadowed { path, model: id, by: first, report };
        }
        let earlier = entry.mods.insert(path.clone(), version);
        if let Err(error) = self.show(k, false, stage, renderer) {
            let mods = &mut self.entries[k].mods;
            match earlier {
                Some(earlier) => mods.insert(path.clone(), earlier),
                None => mods.remove(&path),
            };
            return refused(path, &report, error);
        }
        tracing::debug!(path = %report.file.display(), model = id.0, "mod shows in a model's place");
        HostEvent::Replaced { path, model: id, report }
    }

    /// A mod naming none of the models: a new model under a new id.
    fn add_mod_model<S: Stage<B>>(
        &mut self,
        path: PathBuf,
        name: String,
        version: Version<B>,
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> HostEvent {
        let (id, report) = (self.ids.take(), version.report.clone());
        let mods = BTreeMap::from([(path.clone(), version)]);
        self.entries.push(Entry { id, name, base: None, mods, own_pixels: None });
        if let Err(error) = self.show(self.entries.len() - 1, false, stage, renderer) {
            self.entries.pop();
            self.ids.release(id);
            return refused(path, &report, error);
        }
        tracing::debug!(path = %report.file.display(), model = id.0, "mod adds a model");
        HostEvent::Loaded { path, model: id, report }
    }

    /// A mod file is gone: see [`Shelf::leave`].
    fn remove_mod<S: Stage<B>>(
        &mut self,
        path: &Path,
        stage: &mut S,
        renderer: &mut Renderer,
        events: &mut Vec<HostEvent>,
    ) {
        match self.entries.iter().position(|e| e.mods.contains_key(path)) {
            Some(k) => self.leave(k, path, stage, renderer, events),
            // Every version of it was refused.
            None => events.push(HostEvent::Withdrawn { path: path.to_owned(), model: None }),
        }
    }

    /// Mod `path` leaves entry `k` (its file is gone, or it moved). If it showed, the next mod
    /// by path shows (those the GPU or the stage refuse now are dropped, reported), else the
    /// game's own version, or the model it added goes with its instances.
    fn leave<S: Stage<B>>(
        &mut self,
        k: usize,
        path: &Path,
        stage: &mut S,
        renderer: &mut Renderer,
        events: &mut Vec<HostEvent>,
    ) {
        let (id, showed) = (self.entries[k].id, self.entries[k].showing_mod() == Some(path));
        let withdrawn = HostEvent::Withdrawn { path: path.to_owned(), model: Some(id) };
        let Some(removed) = self.entries[k].mods.remove(path).filter(|_| showed) else { return events.push(withdrawn) };
        while let Some(next) = self.entries[k].mods.keys().next().cloned() {
            match self.show(k, false, stage, renderer) {
                Ok(_) => {
                    let report = self.entries[k].shown().report.clone();
                    events.push(withdrawn);
                    return events.push(HostEvent::Replaced { path: next, model: id, report });
                }
                Err(error) => {
                    let dropped = self.entries[k].mods.remove(&next).map(|v| v.report);
                    let report = dropped.unwrap_or_else(|| Report::new(&next));
                    events.push(refused(next, &report, error));
                }
            }
        }
        if self.entries[k].base.is_none() {
            self.entries.remove(k);
            renderer.remove_model(id);
            self.ids.release(id);
            let instances = stage.unbind(self, id);
            return events.push(HostEvent::Removed { path: path.to_owned(), model: id, instances });
        }
        if let Err(error) = self.show(k, true, stage, renderer) {
            // The game's version showed before with the same stage: only the GPU can fail.
            tracing::error!(%error, "showing a model's own version again failed; the mod's stays");
            self.entries[k].mods.insert(path.to_owned(), removed);
            return;
        }
        events.push(HostEvent::Reverted { path: path.to_owned(), model: id });
    }
}

/// The event for a version the GPU or the stage refused; `report` is its file's.
fn refused<E: std::fmt::Display>(path: PathBuf, report: &Report, error: SwapError<E>) -> HostEvent {
    match error {
        SwapError::Gpu(error) => refusal(path, &report.file, GPU_CODE, error.to_string()),
        SwapError::Bind(error) => refusal(path, &report.file, RIG_CODE, format!("{error}{}", dropped_clips(report))),
    }
}

/// Why the file's clips are not all there, for a refusal by what animates it (a clip it plays
/// missing): the first issue that left one out, else nothing.
fn dropped_clips(report: &Report) -> String {
    let drops_a_clip = |issue: &&Issue| match &issue.consequence {
        Consequence::Drops(parts) => parts.iter().any(|part| matches!(part, Part::Clip { .. })),
        _ => false,
    };
    report
        .issues
        .iter()
        .find(drops_a_clip)
        .map_or(String::new(), |issue| format!(" (the file's clips are not all read: {issue})"))
}

fn refusal(path: PathBuf, file: &Path, code: &'static str, message: String) -> HostEvent {
    let refused = Refused::one(file, code, "", message);
    tracing::debug!(%refused, "mod refused");
    HostEvent::Refused { path, refused }
}
