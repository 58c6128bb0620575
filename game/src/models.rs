//! Which model every prop shows: each registered kind's base asset (as the kind declares it,
//! [`props_scene::KindAsset`]), the mods that replace it or add models beside it, and the mods
//! no kind claims, which the kind without a base asset shows (the mod lot). The town's rules
//! for where a mod goes are here ([`TownStage`]); the rest is a [`Shelf`], as in any host of
//! `props-host`: the first of several mods of one model by path shows, and a mod shows only
//! when the GPU's limits, the mods' VRAM budget, the upload and the scene's nodes and clips
//! all take it, else the last good version of everything stays. Watches the mods folder,
//! applies what changed at a frame boundary and logs each change as one line.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use props_anim::Model;
use props_crowd::{Bindings, PropModel};
use props_frame::ModelId;
use props_gltf::Limits;
use props_host::{Arrival, HostEvent, Shelf, Stage, Version};
use props_mods::sidecar;
use props_mods::{ModConfig, fitting};
use props_render::Renderer;
use props_scene::kinds::lot;
use props_scene::{Claim, KindAsset, Placement, PropKind, Scene};

use crate::mod_list::ModList;
use crate::model_ids::FIRST_MODEL_ID;

/// How long the game waits at start for the mods already in the folder.
const INITIAL_MODS_TIMEOUT: Duration = Duration::from_secs(30);

/// A kind the town registers, as the registry knows it: its name and its asset. Kinds are
/// numbered in registration order.
#[derive(Clone, Copy, Debug)]
pub struct TownKind {
    /// The kind's name ([`PropKind::name`]).
    pub name: &'static str,
    /// Its asset.
    pub asset: KindAsset,
}

impl TownKind {
    /// What `kind` declares.
    pub fn of(kind: &dyn PropKind) -> Self {
        Self { name: kind.name(), asset: kind.asset() }
    }

    /// The role a mod's sidecar gives to be shown by this kind.
    pub fn sidecar_role(&self) -> sidecar::Role {
        sidecar::Role { name: self.asset.role, parts: self.asset.parts, states: self.asset.states }
    }
}

/// The latest mod event, for the HUD.
#[derive(Clone, Debug, PartialEq)]
pub struct ModMessage {
    /// One line: what happened to which file.
    pub text: String,
    /// Whether it is a rejection or a watch error.
    pub is_error: bool,
}

/// How a version of a model shows in the town, kept with it on the [`Shelf`].
#[derive(Clone, Debug)]
pub struct TownPlace {
    /// The number of the kind that shows it.
    kind: usize,
    /// Whether it adds a model to the kind (its props pick among them) instead of replacing
    /// the kind's own.
    adds: bool,
    /// Metres per model unit: the sidecar's `units`, the kind's, or fitted ([`fitting`]).
    scale: f32,
    /// The sidecar's names for what the scene drives.
    bindings: Bindings,
    /// The warning fitting gave, if it changed the scale.
    fitted: Option<String>,
    /// On the lot, the warning that the clip it loops shows a single pose ([`lot::still_clip`]).
    still: Option<String>,
    /// Its import time, milliseconds (0 for a base asset).
    load_ms: f64,
}

/// The models of the town's kinds.
#[derive(Debug)]
pub struct ModelRegistry {
    /// The town's kinds, in registration order.
    kinds: Vec<TownKind>,
    /// The base assets' heights, in their units: the size a mod overriding one is expected to
    /// have.
    base_heights: Vec<Option<f32>>,
    /// Every kind's model (named by its stem) and the mods replacing it, and a model per mod
    /// that adds one (named by its path).
    shelf: Shelf<TownPlace>,
    /// Every mod seen, for the HUD.
    list: ModList,
    /// The mods folder as the user named it, to show paths.
    mods_dir: PathBuf,
    /// The latest mod message, for the HUD.
    last: Option<ModMessage>,
}

/// The town's scene as the shelf's stage: a mod goes to the kind its sidecar or its name
/// says, and every kind takes all its models at once.
struct TownStage<'a> {
    kinds: &'a [TownKind],
    base_heights: &'a [Option<f32>],
    scene: &'a mut Scene,
}

impl Stage<TownPlace> for TownStage<'_> {
    type Error = props_scene::SceneError;

    fn place(&mut self, _: &Shelf<TownPlace>, arrival: &Arrival<'_>) -> Result<(String, TownPlace), String> {
        let assets: Vec<KindAsset> = self.kinds.iter().map(|k| k.asset).collect();
        let claim =
            arrival.sidecar.map(|s| Claim { role: s.role, units: s.units, clip: s.clip, bindings: s.bindings.clone() });
        let Some(placement) = Placement::of(arrival.name, claim, arrival.model, &assets) else {
            return Err("no prop kind shows models of its name or role".to_owned());
        };
        let (scale, fitted) = self.scale(&placement, arrival.model);
        let (kind, adds) = (placement.kind, placement.adds);
        let on_lot = self.kinds[kind].asset.role == sidecar::AMBIENT.name;
        let still = on_lot.then(|| lot::still_clip(arrival.model, &placement.bindings)).flatten();
        let name = match (adds, self.kinds[kind].asset.stem) {
            (false, Some(stem)) => stem.to_owned(),
            _ => arrival.path.to_string_lossy().into_owned(),
        };
        let load_ms = arrival.load_ms;
        Ok((name, TownPlace { kind, adds, scale, bindings: placement.bindings, fitted, still, load_ms }))
    }

    fn bind(&mut self, shelf: &Shelf<TownPlace>, _: ModelId, _: bool) -> Result<(), props_scene::SceneError> {
        let kinds = self.kinds.iter().enumerate();
        self.scene.set_models_of(kinds.map(|(kind, k)| (k.name, props_of(shelf, kind))))
    }

    fn unbind(&mut self, shelf: &Shelf<TownPlace>, id: ModelId) -> usize {
        // What stays worked with the scene already.
        if let Err(error) = self.bind(shelf, id, true) {
            tracing::error!(error = %error, "handing the scene its models after a mod went failed");
        }
        0
    }
}

impl TownStage<'_> {
    /// The scale a mod shows at: its sidecar's units (warned when far off its kind's size),
    /// else its kind's units (fitted to the kind's size when far off it, or to
    /// [`fitting::LOT_HEIGHT`] on the lot), with the warning fitting gives.
    fn scale(&self, placement: &Placement, model: &Model) -> (f32, Option<String>) {
        let asset = &self.kinds[placement.kind].asset;
        let base = asset.stem.zip(self.base_heights[placement.kind]);
        fitting::shown(model, placement.units, asset.units, base)
    }
}

/// Every model kind number `kind` shows now, as the scene takes them: its own (the base asset
/// or the mod replacing it; none for the lot) first, then those mods add beside it, by path.
fn props_of(shelf: &Shelf<TownPlace>, kind: usize) -> Vec<PropModel> {
    let mut models: Vec<_> = shelf.models().filter(|(_, _, version, _)| version.binding.kind == kind).collect();
    // Its own first (no mod path, or the one replacing it), then the added ones by path.
    models.sort_by_key(|&(_, _, version, path)| (version.binding.adds, path));
    let prop = |(id, _, version, _): (ModelId, &str, &Version<TownPlace>, Option<&Path>)| {
        let place = &version.binding;
        PropModel::new(id, Arc::clone(&version.model)).with_scale(place.scale).with_bindings(place.bindings.clone())
    };
    models.into_iter().map(prop).collect()
}

impl ModelRegistry {
    /// Loads the base asset of each of `kinds` from `assets` (`assets/<stem>.glb`) through
    /// the same gate as mods, with `limits`, and uploads them; the mods showing may take
    /// `vram_budget` bytes of GPU memory together.
    pub fn load(
        kinds: Vec<TownKind>,
        assets: &Path,
        mods_dir: &Path,
        limits: &Limits,
        vram_budget: u64,
        renderer: &mut Renderer,
    ) -> anyhow::Result<Self> {
        let mut shelf = Shelf::new(FIRST_MODEL_ID, vram_budget).with_vram_setting("the game's --mods-vram-mib");
        let mut base_heights = Vec::new();
        for (number, kind) in kinds.iter().enumerate() {
            let Some(stem) = kind.asset.stem else {
                base_heights.push(None);
                continue;
            };
            let path = assets.join(format!("{stem}.glb"));
            let admitted = props_gltf::gate::admit_file(&path, limits)
                .with_context(|| format!("loading the base asset {} of the {}", path.display(), kind.name))?;
            let height = fitting::height(&admitted.import.model)
                .with_context(|| format!("the base asset {} has no vertices", path.display()))?;
            base_heights.push(Some(height));
            let binding = TownPlace {
                kind: number,
                adds: false,
                scale: kind.asset.units,
                bindings: Bindings::default(),
                fitted: None,
                still: None,
                load_ms: 0.0,
            };
            let version = Version { model: Arc::new(admitted.import.model), binding, report: admitted.report };
            let id = shelf
                .insert(stem.to_owned(), version, renderer)
                .with_context(|| format!("uploading the {}", kind.name))?;
            // On the GPU alone, as a mod's: read again from the file after a device loss.
            shelf.release_own_pixels(id, &path, limits);
        }
        let (list, mods_dir) = (ModList::default(), mods_dir.to_owned());
        Ok(Self { kinds, base_heights, shelf, list, mods_dir, last: None })
    }

    /// Uploads every model shown now (when the GPU device was recreated). One the new device
    /// refuses is left out of the town and logged; the others are drawn.
    pub fn upload_all(&mut self, renderer: &mut Renderer) {
        if let Err(why) = self.shelf.upload_all(renderer) {
            tracing::warn!(error = %why, "the town goes on without the models the new device refused");
        }
    }

    /// The roles a mod's sidecar may give: every kind's (the lot's `ambient` among them).
    pub fn sidecar_roles(&self) -> Vec<sidecar::Role> {
        self.kinds.iter().map(TownKind::sidecar_role).collect()
    }

    /// Every model kind number `kind` shows now, as the scene takes them.
    pub fn props_of(&self, kind: usize) -> Vec<PropModel> {
        props_of(&self.shelf, kind)
    }

    /// Every mod seen, for the HUD.
    pub fn list(&self) -> &ModList {
        &self.list
    }

    /// Where the mod of `path` can be seen, and how large it is (metres): the first prop
    /// showing it, or its kind's.
    pub fn location(&self, path: &Path, scene: &Scene) -> Option<(glam::Vec3, f32)> {
        let entry = self.list.entries().find(|(p, _)| *p == path).map(|(_, e)| e)?;
        let size = entry.height_m.unwrap_or(2.0);
        let own = || self.shelf.model_named(self.kinds[entry.kind?].asset.stem?);
        let id = self.shelf.mod_version(path).map(|(id, _)| id).or_else(own)?;
        scene.first_prop_of(id).map(|at| (at, size))
    }

    /// Mods held now (showing, or waiting behind another of their name).
    pub fn mod_count(&self) -> usize {
        self.shelf.mod_count()
    }

    /// Starts watching `folder` and applies the mods already there (waiting for them at most
    /// [`INITIAL_MODS_TIMEOUT`]); a folder that cannot be watched turns mods off, with a
    /// message.
    pub fn watch(&mut self, folder: &Path, config: ModConfig, scene: &mut Scene, renderer: &mut Renderer) {
        let mut stage = TownStage { kinds: &self.kinds, base_heights: &self.base_heights, scene };
        match self.shelf.watch(folder, config, INITIAL_MODS_TIMEOUT, &mut stage, renderer) {
            Ok(events) => {
                // Which folder: the one the game started in, or the repository's (`locate_folders`).
                let folder = std::path::absolute(folder).unwrap_or_else(|_| folder.to_owned());
                tracing::info!(folder = %folder.display(), "watching the mods folder");
                self.say(events, renderer);
            }
            Err(error) => {
                tracing::error!(error = %error, "mods are off: the mods folder cannot be watched");
                self.last = Some(ModMessage { text: format!("mods are off: {error}"), is_error: true });
            }
        }
    }

    /// Applies what the mods watcher reported since the last call, at a frame boundary.
    pub fn poll(&mut self, scene: &mut Scene, renderer: &mut Renderer) {
        let mut events = Vec::new();
        let mut stage = TownStage { kinds: &self.kinds, base_heights: &self.base_heights, scene };
        self.shelf.poll(&mut stage, renderer, &mut events);
        self.say(events, renderer);
    }

    /// The latest mod message, for the HUD.
    pub fn last_message(&self) -> Option<&ModMessage> {
        self.last.as_ref()
    }

    fn say(&mut self, events: Vec<HostEvent>, renderer: &Renderer) {
        for event in events {
            self.last = self.message(event, renderer).or(self.last.take());
        }
    }

    /// What the shelf did, listed, logged and said in one line.
    fn message(&mut self, event: HostEvent, renderer: &Renderer) -> Option<ModMessage> {
        match event {
            HostEvent::Loaded { path, model, report } | HostEvent::Replaced { path, model, report } => {
                Some(self.showing(&path, model, &report, None, renderer))
            }
            HostEvent::Shadowed { path, model, by, report } => {
                Some(self.showing(&path, model, &report, Some(&by), renderer))
            }
            HostEvent::Refused { path, refused } => {
                let error = refused.to_string();
                self.list.refused(&path, self.shown(&path), error.clone());
                let name = path.file_stem().unwrap_or_default().to_string_lossy();
                tracing::warn!(path = %self.shown(&path), model = %name, error = %error, "mod rejected");
                Some(ModMessage { text: format!("rejected {error}"), is_error: true })
            }
            HostEvent::WatchError { error } => {
                Some(ModMessage { text: format!("watching mods: {error}"), is_error: true })
            }
            HostEvent::Reverted { path, .. }
            | HostEvent::Removed { path, .. }
            | HostEvent::Withdrawn { path, model: Some(_) } => self.gone(&path),
            // No version of it was admitted: it was listed as refused only.
            HostEvent::Withdrawn { path, model: None } => {
                self.list.removed(&path);
                None
            }
        }
    }

    /// Mod `path` left a model: gone, unless it moved to another (its sidecar changed).
    fn gone(&mut self, path: &Path) -> Option<ModMessage> {
        if self.shelf.mod_version(path).is_some() {
            return None;
        }
        self.list.removed(path);
        let (shown, name) = (self.shown(path), path.file_stem().unwrap_or_default().to_string_lossy());
        tracing::info!(path = %shown, model = %name, "mod removed");
        Some(ModMessage { text: format!("removed {shown}"), is_error: false })
    }

    /// Mod `path`, shelved under `model` (showing, or waiting behind `by`): listed for the
    /// HUD, its warnings and where it shows logged.
    fn showing(
        &mut self,
        path: &Path,
        model: ModelId,
        report: &props_host::Report,
        by: Option<&Path>,
        renderer: &Renderer,
    ) -> ModMessage {
        let shown = self.shown(path);
        let Some((_, version)) = self.shelf.mod_version(path) else {
            return ModMessage { text: format!("loaded {shown}"), is_error: false };
        };
        let place = version.binding.clone();
        let mut warnings: Vec<String> = report.issues.iter().map(ToString::to_string).collect();
        warnings.extend(place.fitted.iter().map(|message| format!("warning[{}]: {message}", fitting::FITTED)));
        warnings.extend(place.still.iter().map(|message| format!("warning[{}]: {message}", lot::STILL_CLIP)));
        for warning in &warnings {
            tracing::info!(path = %shown, warning = %warning, "mod warning");
        }
        let asset = &self.kinds[place.kind].asset;
        let height_m = fitting::height(&version.model).map(|h| h * place.scale);
        let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let ms = format!("{:.1}", place.load_ms);
        let mut text = match by {
            Some(by) => {
                let first = self.shown(by);
                tracing::info!(path = %shown, model = %name, by = %first, "mod waits behind another of its name");
                warnings.push(format!("waits behind {first}, the first by path of its name"));
                format!("loaded {shown} ({ms} ms); it waits behind {first}")
            }
            None => {
                let vram_kib = renderer.model_footprint(model).map_or(0, |f| f.total().div_ceil(1024));
                let ram_kib = version.model.heap_bytes().div_ceil(1024);
                let (replaces, adds_to) = match (asset.stem, place.adds) {
                    (Some(stem), true) => ("", stem),
                    (Some(stem), false) => (stem, ""),
                    (None, _) => ("", ""),
                };
                let at = asset.place;
                tracing::info!(path = %shown, model = %name, ms = %ms, place = %at, replaces, adds = adds_to, ram_kib, vram_kib, "mod loaded");
                format!("loaded {shown} ({}, {ms} ms)", props_scene::shown_at(asset, place.adds))
            }
        };
        self.list.showing(path, shown, Some(place.kind), asset.place, &version.model, height_m, warnings.clone());
        if let Some(first) = warnings.first() {
            let count = match warnings.len() {
                1 => "1 warning".to_owned(),
                n => format!("{n} warnings, the first"),
            };
            text = format!("{text}; {count}: {first}");
        }
        ModMessage { text, is_error: false }
    }

    fn shown(&self, path: &Path) -> String {
        self.mods_dir.join(path).display().to_string()
    }
}
