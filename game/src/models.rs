//! Which model every prop shows: each registered kind's base asset (as the kind declares it,
//! [`props_scene::KindAsset`]), the mods that replace it or add models beside it, and the mods
//! no kind claims, which the kind without a base asset shows (the mod lot). Applies the mod
//! watcher's events at a frame boundary, uploading to the GPU at once, and logs each as one
//! line.
//!
//! A mod's model is shown only when every step takes it, in this order: the GPU's limits and
//! the mods' VRAM budget (nothing changes yet), the scene's nodes and clips (for an override),
//! then the upload itself, inside error scopes. A refusal at any step leaves the last good
//! version of everything in place, the scene's and the GPU's.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use props_anim::Model;
use props_frame::ModelId;
use props_gltf::Limits;
use props_host::{ModelIds, SwapError, VramBudget, swap_model};
use props_mods::sidecar::{self, Sidecar};
use props_mods::{ModEvent, fitting};
use props_render::Renderer;
use props_scene::kinds::lot::LOOP;
use props_scene::{Bindings, KindAsset, PropKind, PropModel, Scene};

use crate::mod_list::ModList;
use crate::model_ids::{FIRST_MOD_ID, kind_id};

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

/// A mod shown in a kind's place: instead of its model, or (with a sidecar, for a kind that
/// takes variants) beside it.
#[derive(Clone, Debug)]
struct Override {
    /// The kind's number.
    kind: usize,
    /// Its renderer id: the kind's when it replaces the kind's model, its own when it adds one.
    id: ModelId,
    /// Whether it adds a model to the kind (its props pick among them) instead of replacing it.
    adds: bool,
    model: Arc<Model>,
    /// Metres per model unit: the sidecar's `units`, the kind's, or fitted ([`fitting`]).
    scale: f32,
    /// The sidecar's names for what the scene drives.
    bindings: Bindings,
}

/// Where a mod goes, and how: from its sidecar, else from its file stem.
#[derive(Clone, Debug)]
struct Placement {
    /// The kind it shows in.
    kind: usize,
    /// The sidecar's units, if any.
    units: Option<f32>,
    /// The sidecar's names (its `clip` bound as the lot's `loop` state).
    bindings: Bindings,
    /// Whether it adds a model to its kind instead of replacing it: a mod shown by a kind that
    /// takes variants (the lot among them), named other than the kind's base asset.
    adds: bool,
}

impl Placement {
    /// The placement a sidecar asks for among `kinds` (by role), or the file stem's (a base
    /// asset's name, case-sensitive, replaces it); a mod neither claims goes to the kind without
    /// a base asset (the lot). `None` when no kind takes it.
    fn of(name: &str, sidecar: Option<&Sidecar>, model: &Model, kinds: &[TownKind]) -> Option<Self> {
        let adds = |kind: usize| kinds[kind].asset.variants && kinds[kind].asset.stem != Some(name);
        let Some(sidecar) = sidecar else {
            let claimed = kinds.iter().position(|k| k.asset.stem == Some(name));
            let kind = claimed.or_else(|| kinds.iter().position(|k| k.asset.stem.is_none()))?;
            return Some(Self { kind, units: None, bindings: Bindings::default(), adds: adds(kind) });
        };
        let kind = kinds.iter().position(|k| k.asset.role == sidecar.role)?;
        let mut bindings = Bindings { nodes: sidecar.nodes.clone(), clips: sidecar.clips.clone() };
        // The sidecar's `clip` (found by name) is the lot's `loop` state.
        if let Some(clip) = sidecar.clip.and_then(|clip| model.clips().get(clip)?.name()) {
            bindings.clips.entry(LOOP.to_owned()).or_insert_with(|| clip.to_owned());
        }
        Some(Self { kind, units: sidecar.units, bindings, adds: adds(kind) })
    }
}

/// The models of the town's kinds.
#[derive(Debug)]
pub struct ModelRegistry {
    /// The town's kinds, in registration order.
    kinds: Vec<TownKind>,
    /// Each kind's base asset (none for the lot).
    base: Vec<Option<Arc<Model>>>,
    /// The base assets' heights, in their units: the size a mod overriding one is expected to
    /// have.
    base_heights: Vec<Option<f32>>,
    /// Every mod showing, by path in the mods folder: replacing a kind's model or adding one.
    overrides: BTreeMap<PathBuf, Override>,
    /// Renderer ids of the mods that add a model (lot models, extra cars).
    ids: ModelIds,
    /// Every mod seen, for the HUD.
    list: ModList,
    /// The mods folder as the user named it, to show paths.
    mods_dir: PathBuf,
    /// GPU memory the mods may take together, bytes.
    vram_budget: u64,
}

impl ModelRegistry {
    /// Loads the base asset of each of `kinds` from `assets` (`assets/<stem>.glb`) through
    /// the same gate as mods, with `limits`, and uploads them.
    pub fn load(
        kinds: Vec<TownKind>,
        assets: &Path,
        mods_dir: &Path,
        limits: &Limits,
        vram_budget: u64,
        renderer: &mut Renderer,
    ) -> anyhow::Result<Self> {
        let (mut base, mut base_heights) = (Vec::new(), Vec::new());
        for kind in &kinds {
            let Some(stem) = kind.asset.stem else {
                base.push(None);
                base_heights.push(None);
                continue;
            };
            let path = assets.join(format!("{stem}.glb"));
            let admitted = props_gltf::gate::admit_file(&path, limits)
                .with_context(|| format!("loading the base asset {} of the {}", path.display(), kind.name))?;
            let height = fitting::height(&admitted.import.model)
                .with_context(|| format!("the base asset {} has no vertices", path.display()))?;
            base_heights.push(Some(height));
            base.push(Some(Arc::new(admitted.import.model)));
        }
        let registry = Self {
            kinds,
            base,
            base_heights,
            overrides: BTreeMap::new(),
            ids: ModelIds::starting_at(FIRST_MOD_ID),
            list: ModList::default(),
            mods_dir: mods_dir.to_owned(),
            vram_budget,
        };
        registry.upload_all(renderer)?;
        Ok(registry)
    }

    /// Uploads every model shown now (at start, and when the GPU device was recreated).
    pub fn upload_all(&self, renderer: &mut Renderer) -> anyhow::Result<()> {
        for (kind, town_kind) in self.kinds.iter().enumerate() {
            if let Some(model) = self.active(kind) {
                renderer
                    .set_model(kind_id(kind), &model)
                    .with_context(|| format!("uploading the {}", town_kind.name))?;
            }
        }
        for added in self.overrides.values().filter(|o| o.adds) {
            renderer.set_model(added.id, &added.model).context("uploading a model a mod added")?;
        }
        Ok(())
    }

    /// The roles a mod's sidecar may give: every kind's (the lot's `ambient` among them).
    pub fn sidecar_roles(&self) -> Vec<sidecar::Role> {
        self.kinds.iter().map(TownKind::sidecar_role).collect()
    }

    /// The model kind number `kind` shows as its own now: its override (the first by path, if
    /// several), else the base asset; none for a kind without one (the lot).
    fn active(&self, kind: usize) -> Option<Arc<Model>> {
        self.active_override(kind).map(|o| o.model)
    }

    /// What kind number `kind` shows as its own now: its override (the first by path, if
    /// several), else the base asset at the kind's units; none for a kind without one.
    fn active_override(&self, kind: usize) -> Option<Override> {
        match self.overrides.values().find(|o| o.kind == kind && !o.adds) {
            Some(shown) => Some(shown.clone()),
            None => Some(Override {
                kind,
                id: kind_id(kind),
                adds: false,
                model: Arc::clone(self.base[kind].as_ref()?),
                scale: self.kinds[kind].asset.units,
                bindings: Bindings::default(),
            }),
        }
    }

    /// The scale a mod shows at: its sidecar's units, else its kind's units (fitted to the
    /// kind's size when far off it, or to [`fitting::LOT_HEIGHT`] on the lot), with the warning
    /// fitting gives.
    fn scale(&self, placement: &Placement, model: &Model) -> (f32, Option<String>) {
        if let Some(units) = placement.units {
            return (units, None);
        }
        let height = fitting::height(model);
        let asset = &self.kinds[placement.kind].asset;
        match (self.base_heights[placement.kind], asset.stem) {
            (Some(base), Some(stem)) => fitting::fit(height, asset.units, base * asset.units, &format!("the {stem}")),
            _ => fitting::fit(height, 1.0, fitting::LOT_HEIGHT, "a lot model"),
        }
    }

    /// Every model kind number `kind` shows now, as the scene takes them: its own (the base
    /// asset or the mod replacing it; none for the lot) first, then those mods add beside it,
    /// by path.
    pub fn props_of(&self, kind: usize) -> Vec<PropModel> {
        let drawn_at = self.kinds[kind].asset.drawn_at;
        let own = self.active_override(kind).map(|shown| {
            PropModel::new(kind_id(kind), shown.model).with_scale(shown.scale * drawn_at).with_bindings(shown.bindings)
        });
        let added = self.overrides.values().filter(|o| o.adds && o.kind == kind).map(|o| {
            PropModel::new(o.id, Arc::clone(&o.model)).with_scale(o.scale * drawn_at).with_bindings(o.bindings.clone())
        });
        own.into_iter().chain(added).collect()
    }

    /// Hands the scene every model it shows now, every kind's at once: all are checked before
    /// any kind takes them, so a refusal changes nothing.
    pub fn hand_to(&self, scene: &mut Scene) -> Result<(), props_scene::SceneError> {
        scene.set_models_of(self.kinds.iter().enumerate().map(|(kind, k)| (k.name, self.props_of(kind))))
    }

    /// Every mod seen, for the HUD.
    pub fn list(&self) -> &ModList {
        &self.list
    }

    /// Where the mod of `path` can be seen, and how large it is (metres): the first prop
    /// showing it.
    pub fn location(&self, path: &Path, scene: &Scene) -> Option<(glam::Vec3, f32)> {
        let entry = self.list.entries().find(|(p, _)| *p == path).map(|(_, e)| e)?;
        let size = entry.height_m.unwrap_or(2.0);
        let id = self.overrides.get(path).map(|shown| shown.id).or(entry.kind.map(kind_id))?;
        scene.first_prop_of(id).map(|at| (at, size))
    }

    /// Mods showing now.
    pub fn mod_count(&self) -> usize {
        self.overrides.len()
    }

    /// GPU bytes the mods showing now take, but the one under `except`.
    fn mods_vram(&self, renderer: &Renderer, except: ModelId) -> u64 {
        let overridden =
            (0..self.kinds.len()).filter(|&kind| self.overrides.values().any(|o| o.kind == kind && !o.adds));
        let added = self.overrides.values().filter(|o| o.adds).map(|o| o.id);
        let ids = overridden.map(kind_id).chain(added);
        ids.filter(|&id| id != except).filter_map(|id| renderer.model_footprint(id)).map(|f| f.total()).sum()
    }

    /// Applies one event of the mod watcher to the scene and the GPU; returns the HUD line.
    pub fn apply(&mut self, event: ModEvent, scene: &mut Scene, renderer: &mut Renderer) -> Option<ModMessage> {
        match event {
            ModEvent::Loaded { path, name, model, sidecar, load_ms, report, .. } => {
                let mut warnings: Vec<String> = report.issues.iter().map(ToString::to_string).collect();
                let Some(placement) = Placement::of(&name, sidecar.as_ref(), &model, &self.kinds) else {
                    let error = format!("{}: no prop kind shows models of its name or role", self.shown(&path));
                    self.list.refused(&path, self.shown(&path), error.clone());
                    return Some(self.rejected(&path, &name, &error));
                };
                let (scale, fitted) = self.scale(&placement, &model);
                warnings.extend(fitted.map(|message| format!("warning[{}]: {message}", fitting::FITTED)));
                for warning in &warnings {
                    tracing::info!(path = %self.shown(&path), warning = %warning, "mod warning");
                }
                let kind = placement.kind;
                let height_m = fitting::height(&model).map(|h| h * scale);
                let mut message =
                    self.show(&path, &name, Arc::clone(&model), (placement, scale), load_ms, scene, renderer);
                let shown = self.shown(&path);
                match message.is_error {
                    true => self.list.refused(&path, shown, message.text.clone()),
                    false => {
                        let place = self.kinds[kind].asset.place;
                        self.list.showing(&path, shown, Some(kind), place, &model, height_m, warnings.clone())
                    }
                }
                if let (Some(first), false) = (warnings.first(), message.is_error) {
                    let count = match warnings.len() {
                        1 => "1 warning".to_owned(),
                        n => format!("{n} warnings, the first"),
                    };
                    message.text = format!("{}; {count}: {first}", message.text);
                }
                Some(message)
            }
            ModEvent::Rejected { path, name, refused, .. } => {
                let error = refused.to_string();
                self.list.refused(&path, self.shown(&path), error.clone());
                Some(self.rejected(&path, &name, &error))
            }
            ModEvent::Removed { path, name } => {
                self.list.removed(&path);
                self.remove(&path, &name, scene, renderer)
            }
            ModEvent::WatchError { paths, error } => {
                tracing::warn!(paths = ?paths, error = %error, "mod watch error");
                Some(ModMessage { text: format!("watching mods: {error}"), is_error: true })
            }
            ModEvent::Ready => None,
        }
    }

    #[allow(clippy::too_many_arguments)] // The event's parts, the scene and the GPU.
    fn show(
        &mut self,
        path: &Path,
        name: &str,
        model: Arc<Model>,
        (placement, scale): (Placement, f32),
        load_ms: f64,
        scene: &mut Scene,
        renderer: &mut Renderer,
    ) -> ModMessage {
        let shown = self.shown(path);
        let (kind, adds) = (placement.kind, placement.adds);
        let own_id = self.overrides.get(path).filter(|o| o.adds).map(|o| o.id);
        let id = if adds { own_id.unwrap_or_else(|| self.ids.peek()) } else { kind_id(kind) };
        let gpu_refusal = |refused: props_render::ModelRefused| format!("{shown}: error[PROPS_GPU]: {refused}");
        // What shows under the id now: put back if the scene refuses the new version.
        let before = match adds {
            true => own_id.and_then(|_| self.overrides.get(path)).map(|o| Arc::clone(&o.model)),
            false => self.active(kind),
        };
        let budget = VramBudget { used: self.mods_vram(renderer, id), limit: self.vram_budget };
        let taking = Override { kind, id, adds, model: Arc::clone(&model), scale, bindings: placement.bindings };
        let previous = self.overrides.insert(path.to_owned(), taking);
        let restore = |registry: &mut Self| match previous.clone() {
            Some(previous) => registry.overrides.insert(path.to_owned(), previous),
            None => registry.overrides.remove(path),
        };
        // What the id shows with it: the mod itself, or its kind's first override by path.
        let upload = if adds { Arc::clone(&model) } else { self.active(kind).unwrap_or_else(|| Arc::clone(&model)) };
        let swapped = swap_model(renderer, (id, &upload), Some(budget), before.as_deref(), || self.hand_to(scene));
        let footprint = match swapped {
            Ok(footprint) => footprint,
            Err(SwapError::Gpu(refused)) => {
                restore(self);
                return self.rejected(path, name, &gpu_refusal(refused));
            }
            Err(SwapError::Bind(error)) => {
                restore(self);
                return self.rejected(path, name, &format!("{shown}: error[PROPS_SCENE]: {error}"));
            }
        };
        if let Some(previous) = previous.filter(|p| p.kind != kind || p.adds != adds) {
            self.drop_override(&previous, id, renderer);
        }
        if id == self.ids.peek() {
            self.ids.take();
        }
        let asset = &self.kinds[kind].asset;
        let ms = format!("{load_ms:.1}");
        let vram_kib = footprint.total().div_ceil(1024);
        let (replaces, adds_to) = match (asset.stem, adds) {
            (Some(stem), true) => ("", stem),
            (Some(stem), false) => (stem, ""),
            (None, _) => ("", ""),
        };
        let place = asset.place;
        tracing::info!(path = %shown, model = %name, ms = %ms, place = %place, replaces, adds = adds_to, vram_kib, "mod reloaded");
        let place = match (asset.stem, adds) {
            (Some(stem), true) => format!("{place}, one more {stem} model"),
            (Some(stem), false) => format!("{place}, as the {stem}"),
            (None, _) => "on the mod lot".to_owned(),
        };
        ModMessage { text: format!("loaded {shown} ({place}, {ms} ms)"), is_error: false }
    }

    fn rejected(&self, path: &Path, name: &str, error: &str) -> ModMessage {
        tracing::warn!(path = %self.shown(path), model = %name, error = %error, "mod rejected");
        ModMessage { text: format!("rejected {error}"), is_error: true }
    }

    fn remove(&mut self, path: &Path, name: &str, scene: &mut Scene, renderer: &mut Renderer) -> Option<ModMessage> {
        let shown = self.shown(path);
        if let Some(removed) = self.overrides.remove(path) {
            // The base asset (or another override) already worked with the scene and the GPU.
            if let Err(error) = self.hand_to(scene) {
                tracing::error!(path = %shown, error = %error, "reverting an override failed");
            }
            self.drop_override(&removed, ModelId(u32::MAX), renderer);
        } else {
            // Every version of it was rejected: nothing was showing.
            return None;
        }
        tracing::info!(path = %shown, model = %name, "mod removed");
        Some(ModMessage { text: format!("removed {shown}"), is_error: false })
    }

    /// After `dropped` left the scene's models: reverts its kind's model on the GPU, or frees
    /// the id it added a model under (unless the mod now shows under that id, `kept`).
    fn drop_override(&mut self, dropped: &Override, kept: ModelId, renderer: &mut Renderer) {
        if dropped.adds {
            self.drop_added(dropped.id, kept, renderer);
        } else if let Some(Err(error)) =
            self.active(dropped.kind).map(|model| renderer.set_model(kind_id(dropped.kind), &model))
        {
            tracing::error!(error = %error, "uploading the model an override hid failed");
        }
    }

    /// Frees the GPU model and the id of a mod that added a model under `id`, unless the mod
    /// now shows under that id (`kept`).
    fn drop_added(&mut self, id: ModelId, kept: ModelId, renderer: &mut Renderer) {
        if id != kept {
            renderer.remove_model(id);
            self.ids.release(id);
        }
    }

    fn shown(&self, path: &Path) -> String {
        self.mods_dir.join(path).display().to_string()
    }
}
