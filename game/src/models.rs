//! Which model every prop shows: the base assets, the mods that override them, and the mod
//! lot. Applies the mod watcher's events at a frame boundary, logs each as one line, and
//! queues the renderer uploads they need.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use props_anim::Model;
use props_mods::ModEvent;
use props_scene::{PropModel, Scene, SceneModels};

use crate::lot::{GpuChange, ModLot};
use crate::roles::Role;

/// The latest mod event, for the HUD.
#[derive(Clone, Debug, PartialEq)]
pub struct ModMessage {
    /// One line: what happened to which file.
    pub text: String,
    /// Whether it is a rejection or a watch error.
    pub is_error: bool,
}

/// The models of the town and the lot.
#[derive(Debug)]
pub struct ModelRegistry {
    /// The base assets, by role.
    base: BTreeMap<Role, Arc<Model>>,
    /// Mods overriding a base asset, by path in the mods folder.
    overrides: BTreeMap<PathBuf, (Role, Arc<Model>)>,
    /// Every other mod.
    lot: ModLot,
    /// Uploads and removals the renderer has not seen yet.
    pending: Vec<GpuChange>,
    /// The mods folder as the user named it, to show paths.
    mods_dir: PathBuf,
}

impl ModelRegistry {
    /// Imports the base assets from `assets` (`windmill.glb`, `car.glb`, `traffic_light.glb`,
    /// `Fox.glb`) and queues their upload.
    pub fn load(assets: &Path, mods_dir: &Path) -> anyhow::Result<Self> {
        let mut base = BTreeMap::new();
        for role in Role::ALL {
            let path = assets.join(format!("{}.glb", role.name()));
            let imported = props_gltf::import_file(&path, &props_gltf::Limits::default())
                .with_context(|| format!("loading the base asset {}", path.display()))?;
            base.insert(role, Arc::new(imported.model));
        }
        let pending = base.iter().map(|(role, model)| GpuChange::Set(role.id(), Arc::clone(model))).collect();
        Ok(Self { base, overrides: BTreeMap::new(), lot: ModLot::default(), pending, mods_dir: mods_dir.to_owned() })
    }

    /// The model a role shows now: its override (the first by path, if several), else the
    /// base asset.
    fn active(&self, role: Role) -> Arc<Model> {
        let overriding = self.overrides.values().find(|(r, _)| *r == role).map(|(_, model)| model);
        Arc::clone(overriding.unwrap_or(&self.base[&role]))
    }

    /// The models the scene drives.
    pub fn scene_models(&self) -> SceneModels {
        let prop = |role: Role| PropModel::new(role.id(), self.active(role)).with_scale(role.scale());
        SceneModels {
            windmill: prop(Role::Windmill),
            car: prop(Role::Car),
            traffic_light: prop(Role::TrafficLight),
            fox: prop(Role::Fox),
        }
    }

    /// The lot.
    pub fn lot(&self) -> &ModLot {
        &self.lot
    }

    /// The lot, to animate it.
    pub fn lot_mut(&mut self) -> &mut ModLot {
        &mut self.lot
    }

    /// Mods showing now (overrides and lot models).
    pub fn mod_count(&self) -> usize {
        self.overrides.len() + self.lot.len()
    }

    /// Takes the renderer changes queued since the last call.
    pub fn take_gpu_changes(&mut self) -> Vec<GpuChange> {
        std::mem::take(&mut self.pending)
    }

    /// Applies one event of the mod watcher to the scene and the lot; returns the HUD line.
    pub fn apply(&mut self, event: ModEvent, scene: &mut Scene) -> Option<ModMessage> {
        match event {
            ModEvent::Loaded { path, name, model, load_ms, warnings, .. } => {
                for warning in &warnings {
                    tracing::info!(path = %self.shown(&path), warning = %warning, "mod warning");
                }
                Some(self.show(&path, &name, model, load_ms, scene))
            }
            ModEvent::Rejected { path, name, error, .. } => Some(self.rejected(&path, &name, &error)),
            ModEvent::Removed { path, name } => self.remove(&path, &name, scene),
            ModEvent::WatchError { paths, error } => {
                tracing::warn!(paths = ?paths, error = %error, "mod watch error");
                Some(ModMessage { text: format!("watching mods: {error}"), is_error: true })
            }
            ModEvent::Ready => None,
        }
    }

    fn show(&mut self, path: &Path, name: &str, model: Arc<Model>, load_ms: f64, scene: &mut Scene) -> ModMessage {
        let shown = self.shown(path);
        let place = match Role::from_name(name) {
            Some(role) => {
                let previous = self.overrides.insert(path.to_owned(), (role, Arc::clone(&model)));
                if let Err(error) = scene.set_models(self.scene_models()) {
                    match previous {
                        Some(previous) => self.overrides.insert(path.to_owned(), previous),
                        None => self.overrides.remove(path),
                    };
                    return self.rejected(path, name, &format!("{shown}: {error}"));
                }
                self.pending.push(GpuChange::Set(role.id(), self.active(role)));
                format!("overrides {}", role.name())
            }
            None => {
                let change = self.lot.insert(path, model);
                self.pending.push(change);
                "on the mod lot".to_owned()
            }
        };
        let ms = format!("{load_ms:.1}");
        tracing::info!(path = %shown, model = %name, ms = %ms, place = %place, "mod reloaded");
        ModMessage { text: format!("loaded {shown} ({place}, {ms} ms)"), is_error: false }
    }

    fn rejected(&self, path: &Path, name: &str, error: &str) -> ModMessage {
        tracing::warn!(path = %self.shown(path), model = %name, error = %error, "mod rejected");
        ModMessage { text: format!("rejected {error}"), is_error: true }
    }

    fn remove(&mut self, path: &Path, name: &str, scene: &mut Scene) -> Option<ModMessage> {
        let shown = self.shown(path);
        if let Some((role, _)) = self.overrides.remove(path) {
            // The base asset (or another override) already worked with the scene.
            if let Err(error) = scene.set_models(self.scene_models()) {
                tracing::error!(path = %shown, error = %error, "reverting an override failed");
            }
            self.pending.push(GpuChange::Set(role.id(), self.active(role)));
        } else if let Some(change) = self.lot.remove(path) {
            self.pending.push(change);
        } else {
            // Every version of it was rejected: nothing was showing.
            return None;
        }
        tracing::info!(path = %shown, model = %name, "mod removed");
        Some(ModMessage { text: format!("removed {shown}"), is_error: false })
    }

    fn shown(&self, path: &Path) -> String {
        self.mods_dir.join(path).display().to_string()
    }
}
