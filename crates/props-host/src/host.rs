//! [`PropHost`]: the host's models (each under one renderer id for good, whatever version
//! shows) and its instances ([`CrowdSet`]), and what each frame asks of them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use glam::{Affine3A, Vec3};
use props_anim::Model;
use props_frame::{Camera, FrameData, Light, ModelId, SKY};
use props_gltf::Limits;
use props_gltf::gate::{self, Admitted};
use props_gltf::validate::Report;
use props_mods::ModWatcher;
use props_render::{FrameStats, ModelRefused, Renderer};
use props_scene::{Animates, AnimationStats, CrowdSet, InstanceId, InstanceMut, PosingConfig, PropModel, SceneCamera};

use crate::error::{HostError, LoadError};
use crate::ids::ModelIds;
use crate::swap::{SwapError, VramBudget, swap_model};

/// How a [`PropHost`] poses, loads and budgets.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// Sharing, update-rate LOD, the CPU budget and worker threads.
    pub posing: PosingConfig,
    /// Import limits of the host's own models ([`PropHost::load_file`]); mods have their
    /// own ([`props_mods::ModConfig::limits`]).
    pub limits: Limits,
    /// The first renderer id the host's models take: ids below it are left to the host's own
    /// use of the renderer.
    pub first_model_id: u32,
    /// GPU memory the mods' models may take together, bytes (a mod that would pass it is
    /// refused and the last good version stays).
    pub mods_vram_bytes: u64,
}

impl Default for HostConfig {
    fn default() -> Self {
        Self { posing: PosingConfig::default(), limits: Limits::default(), first_model_id: 0, mods_vram_bytes: 1 << 30 }
    }
}

/// How a model is animated and placed.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelOptions {
    /// Its clips, driven nodes and layers, by name (so that a mod replacing it is bound the
    /// same way).
    pub animates: Animates,
    /// The largest scale its instances' placements have (culling takes the model's pose bound
    /// times this).
    pub max_scale: f32,
}

impl Default for ModelOptions {
    fn default() -> Self {
        Self { animates: Animates::default(), max_scale: 1.0 }
    }
}

impl From<Animates> for ModelOptions {
    fn from(animates: Animates) -> Self {
        Self { animates, ..Self::default() }
    }
}

/// A model the host loaded: its renderer id, which stays its own across mods replacing it,
/// and the file's report (what the checker noticed that is not fatal; parts dropped).
#[derive(Debug)]
pub struct Loaded {
    /// Its renderer id.
    pub model: ModelId,
    /// The file's report.
    pub report: Report,
}

/// One model: what shows under its id now, and what it goes back to.
#[derive(Debug)]
pub(crate) struct Entry {
    pub id: ModelId,
    /// Its file stem: a mod of that name replaces it.
    pub name: String,
    pub options: ModelOptions,
    /// The host's own version (none for a model a mod added).
    pub base: Option<Arc<Model>>,
    /// The version showing.
    pub shown: Arc<Model>,
    /// The mods of its name admitted, by path relative to the mods folder: the first shows.
    pub mods: BTreeMap<PathBuf, ModVersion>,
}

impl Entry {
    /// The mod file showing in the host's version's place.
    pub fn showing_mod(&self) -> Option<&Path> {
        self.mods.keys().next().map(PathBuf::as_path)
    }
}

/// A mod file's admitted version, kept while it waits behind another mod of its name.
#[derive(Debug)]
pub(crate) struct ModVersion {
    pub model: Arc<Model>,
    pub report: Report,
}

/// Why a version of a model cannot show; nothing changed.
#[derive(Debug)]
pub(crate) enum ShowError {
    Gpu(ModelRefused),
    Rig(props_scene::RigError),
}

/// Animated props for a host with its own simulation: see the crate documentation.
#[derive(Debug)]
pub struct PropHost {
    pub(crate) config: HostConfig,
    set: CrowdSet,
    pub(crate) entries: Vec<Entry>,
    pub(crate) ids: ModelIds,
    pub(crate) watcher: Option<ModWatcher>,
    /// The frame [`PropHost::prepare`] lists the props in.
    frame: FrameData,
}

impl PropHost {
    /// No models yet.
    pub fn new(config: HostConfig) -> Result<Self, HostError> {
        Ok(Self {
            set: CrowdSet::new(config.posing)?,
            ids: ModelIds::starting_at(config.first_model_id),
            config,
            entries: Vec::new(),
            watcher: None,
            frame: FrameData::default(),
        })
    }

    /// Loads a `.gltf` / `.glb` file through the gate (the host's [`HostConfig::limits`]),
    /// uploads it and returns its id and report. Its name (a mod of that name replaces it) is
    /// its file stem.
    pub fn load_file(
        &mut self,
        path: &Path,
        options: impl Into<ModelOptions>,
        renderer: &mut Renderer,
    ) -> Result<Loaded, LoadError> {
        let admitted = gate::admit_file(path, &self.config.limits).map_err(LoadError::Refused)?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        self.admit(name, admitted, options.into(), renderer)
    }

    /// [`PropHost::load_file`] for a file in memory named `name` (its external files confined
    /// to `base_dir`; none allowed without).
    pub fn load_slice(
        &mut self,
        bytes: &[u8],
        name: &str,
        base_dir: Option<&Path>,
        options: impl Into<ModelOptions>,
        renderer: &mut Renderer,
    ) -> Result<Loaded, LoadError> {
        let admitted =
            gate::admit_slice(bytes, base_dir, Path::new(name), &self.config.limits).map_err(LoadError::Refused)?;
        self.admit(name.to_owned(), admitted, options.into(), renderer)
    }

    fn admit(
        &mut self,
        name: String,
        admitted: Admitted,
        options: ModelOptions,
        renderer: &mut Renderer,
    ) -> Result<Loaded, LoadError> {
        if self.entries.iter().any(|e| e.name == name) {
            return Err(LoadError::Duplicate(name));
        }
        let model = Arc::new(admitted.import.model);
        let id = self.ids.take();
        if let Err(error) = self.show((id, &model), &options, None, false, renderer) {
            self.ids.release(id);
            return Err(match error {
                ShowError::Gpu(refused) => LoadError::Gpu(refused),
                ShowError::Rig(error) => LoadError::Rig(error),
            });
        }
        let base = Some(Arc::clone(&model));
        self.entries.push(Entry { id, name, options, base, shown: model, mods: BTreeMap::new() });
        Ok(Loaded { model: id, report: admitted.report })
    }

    /// Shows `model` under `id` (new, or replacing what shows there), animated as `options`
    /// say: uploads it, within `vram_budget` bytes for the mods (if given; what the model
    /// replaces is not counted), then binds its instances. On error nothing changed. With
    /// `revert` (going back to an earlier version), instances playing clips it lacks stop them
    /// instead of refusing it.
    pub(crate) fn show(
        &mut self,
        (id, model): (ModelId, &Arc<Model>),
        options: &ModelOptions,
        vram_budget: Option<u64>,
        revert: bool,
        renderer: &mut Renderer,
    ) -> Result<(), ShowError> {
        let budget = vram_budget.map(|limit| VramBudget { used: self.mods_vram(renderer, id), limit });
        let previous = self.entries.iter().find(|e| e.id == id).map(|e| Arc::clone(&e.shown));
        let prop = PropModel::new(id, Arc::clone(model));
        let (animates, scale) = (options.animates.clone(), options.max_scale);
        let set = &mut self.set;
        let bind = || match revert {
            true => set.revert_model(prop, animates, scale),
            false => set.set_model(prop, animates, scale),
        };
        match swap_model(renderer, (id, model), budget, previous.as_deref(), bind) {
            Ok(_) => Ok(()),
            Err(SwapError::Gpu(refused)) => Err(ShowError::Gpu(refused)),
            Err(SwapError::Bind(error)) => Err(ShowError::Rig(error)),
        }
    }

    /// GPU bytes the mods showing now take, but the one under `except`.
    fn mods_vram(&self, renderer: &Renderer, except: ModelId) -> u64 {
        let mods = self.entries.iter().filter(|e| e.showing_mod().is_some() && e.id != except);
        mods.filter_map(|e| renderer.model_footprint(e.id)).map(|f| f.total()).sum()
    }

    /// The id of the model named `name` (a file stem).
    #[must_use]
    pub fn model_named(&self, name: &str) -> Option<ModelId> {
        self.entries.iter().find(|e| e.name == name).map(|e| e.id)
    }

    /// The version of model `id` showing now (the host's, or a mod's).
    #[must_use]
    pub fn model(&self, id: ModelId) -> Option<&Arc<Model>> {
        self.entries.iter().find(|e| e.id == id).map(|e| &e.shown)
    }

    /// Every model: id, name, and the mod file showing in its place, if any.
    pub fn models(&self) -> impl Iterator<Item = (ModelId, &str, Option<&Path>)> {
        self.entries.iter().map(|e| (e.id, e.name.as_str(), e.showing_mod()))
    }

    /// The number a [`props_anim::Layer::clip`] of model `id` gives its clip `name`.
    #[must_use]
    pub fn clip_number(&self, id: ModelId, name: &str) -> Option<u16> {
        self.set.clip_number(id, name)
    }

    /// Adds an instance of model `id` at `placement`, no clip playing, drivers 0 (`None`: no
    /// such model).
    pub fn add(&mut self, id: ModelId, placement: Affine3A) -> Option<InstanceId> {
        self.set.add(id, placement)
    }

    /// Removes an instance; `false` when it is gone already.
    pub fn remove(&mut self, id: InstanceId) -> bool {
        self.set.remove(id)
    }

    /// An instance, to place and animate from the host's data; `None` when it is gone.
    pub fn get_mut(&mut self, id: InstanceId) -> Option<InstanceMut<'_>> {
        self.set.get_mut(id)
    }

    /// The instances, to read (placements, states, poses).
    #[must_use]
    pub fn instances(&self) -> &CrowdSet {
        &self.set
    }

    /// Sets the camera the next frames are seen from: what is outside its view is not posed or
    /// drawn, far instances are posed less often. `None`: everything, every frame.
    pub fn set_camera(&mut self, camera: Option<&Camera>) {
        let camera = camera.map(|c| SceneCamera { eye: c.eye, view_projection: c.view_projection });
        self.set.set_camera(camera);
    }

    /// Poses what the camera sees into `frame` and lists it there (palettes, instances, one
    /// batch per model, the lit lights near the camera), ready for
    /// [`props_render::FrameData::frame`] and [`Renderer::prepare`]. Measures its own time for
    /// the CPU budget. Allocation-free once the frame's buffers have grown.
    pub fn animate(&mut self, frame: &mut FrameData) -> AnimationStats {
        let started = Instant::now();
        let stats = self.set.animate(frame);
        self.set.record_animation_time(started.elapsed().as_secs_f32() * 1000.0);
        self.set.extract(frame);
        stats
    }

    /// The whole frame's props work, for a host that adds nothing to the frame's data: poses
    /// what `camera` sees ([`PropHost::animate`]) and hands it to `renderer`, lit by the
    /// host's `light` ([`Renderer::prepare`]: the upload, and the shadow passes recorded into
    /// `encoder`), for a target of `size` pixels. Then the host begins its pass and calls
    /// [`Renderer::render`]. Allocation-free once its buffers have grown.
    pub fn prepare(
        &mut self,
        renderer: &mut Renderer,
        encoder: &mut wgpu::CommandEncoder,
        (camera, light): (&Camera, Light),
        size: (u32, u32),
    ) -> (AnimationStats, FrameStats) {
        self.set_camera(Some(camera));
        let mut frame = std::mem::take(&mut self.frame);
        frame.clear();
        let stats = self.animate(&mut frame);
        let uploaded = renderer.prepare(encoder, &frame.frame(*camera, light, SKY), size);
        self.frame = frame;
        (stats, uploaded)
    }

    /// The instance a ray from `origin` along `direction` enters first (by culling spheres).
    #[must_use]
    pub fn pick(&self, origin: Vec3, direction: Vec3) -> Option<InstanceId> {
        self.set.pick(origin, direction)
    }

    /// Uploads every model showing now again (after the host recreated its GPU device and
    /// renderer).
    pub fn upload_all(&self, renderer: &mut Renderer) -> Result<(), ModelRefused> {
        for entry in &self.entries {
            renderer.set_model(entry.id, &entry.shown)?;
        }
        Ok(())
    }

    /// Removes model `id` with its instances (the GPU's copy too); `false`: no such model.
    pub(crate) fn drop_model(&mut self, id: ModelId, renderer: &mut Renderer) -> Option<usize> {
        let k = self.entries.iter().position(|e| e.id == id)?;
        self.entries.remove(k);
        renderer.remove_model(id);
        self.ids.release(id);
        self.set.remove_model(id)
    }
}
