//! [`PropHost`]: the host's models (each under one renderer id for good, whatever version
//! shows) and its instances ([`CrowdSet`]), and what each frame asks of them.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use glam::{Affine3A, Vec3};
use props_frame::{Camera, FrameData, Lighting, ModelId, SKY};
use props_gltf::Limits;
use props_gltf::gate::{self, Admitted};
use props_gltf::validate::Report;

use props_crowd::{
    Animates, AnimationStats, BindError, CrowdSet, Ground, InstanceId, InstanceMut, ModelView, PosingConfig, PropModel,
};
use props_render::{FrameStats, Renderer};

use crate::error::{HostError, LoadError};
use crate::reader::{ModelReader, ReadModel, name_of};
use crate::shelf::{Arrival, Shelf, Stage, UploadError, Version};

/// How a [`PropHost`] poses, loads and budgets.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// Sharing, update-rate LOD, the CPU budget and worker threads.
    pub posing: PosingConfig,
    /// Import limits of the host's own models ([`PropHost::load_file`]); mods have their
    /// own ([`props_mods::ModConfig::limits`]).
    pub limits: Limits,
    /// The first renderer id the host's models take: ids below it are left to the host's own
    /// use of the renderer (ids are small numbers: the renderer keeps a slot for each below the
    /// largest, [`ModelId`]).
    pub first_model_id: u32,
    /// GPU memory the mods' models may take together, bytes (a mod that would pass it is
    /// refused and the last good version stays).
    pub mods_vram_bytes: u64,
    /// Where the host's players raise [`HostConfig::mods_vram_bytes`], in the host's words:
    /// a refusal over it ends "or raise the budget (this)" ([`Shelf::with_vram_setting`]).
    pub mods_vram_setting: String,
}

impl Default for HostConfig {
    fn default() -> Self {
        Self {
            posing: PosingConfig::default(),
            limits: Limits::default(),
            first_model_id: 0,
            mods_vram_bytes: 1 << 30,
            mods_vram_setting: "HostConfig::mods_vram_bytes".to_owned(),
        }
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

/// The host's instances as a [`Shelf`]'s stage: a mod shows as the model of its file stem,
/// animated as that model is, or adds a model animated by default.
struct HostStage<'a> {
    set: &'a mut CrowdSet,
    /// Metres per unit of the models the host declared ([`PropHost::set_metres_per_unit`]).
    units: &'a mut BTreeMap<ModelId, f32>,
}

impl Stage<Animates> for HostStage<'_> {
    type Error = BindError;

    fn place(&mut self, shelf: &Shelf<Animates>, arrival: &Arrival<'_>) -> Result<(String, Animates), String> {
        let model = shelf.model_named(arrival.name).and_then(|id| shelf.shown(id));
        Ok((arrival.name.to_owned(), model.map(|v| v.binding.clone()).unwrap_or_default()))
    }

    fn bind(&mut self, shelf: &Shelf<Animates>, id: ModelId, revert: bool) -> Result<(), BindError> {
        // The shelf binds only models it holds.
        let Some(version) = shelf.shown(id) else { return Ok(()) };
        let units = self.units.get(&id).copied().unwrap_or(1.0);
        let prop = PropModel::new(id, Arc::clone(&version.model)).with_scale(units);
        let animates = version.binding.clone();
        match revert {
            true => self.set.revert_model(prop, animates),
            false => self.set.set_model(prop, animates),
        }
    }

    fn unbind(&mut self, _: &Shelf<Animates>, id: ModelId) -> usize {
        // Its id may name another model later.
        self.units.remove(&id);
        self.set.remove_model(id).unwrap_or(0)
    }
}

/// Animated props for a host with its own simulation: see the crate documentation.
#[derive(Debug)]
pub struct PropHost {
    config: HostConfig,
    set: CrowdSet,
    pub(crate) shelf: Shelf<Animates>,
    /// Metres per unit of the models not in metres ([`PropHost::set_metres_per_unit`]).
    units: BTreeMap<ModelId, f32>,
    /// The frame [`PropHost::prepare`] lists the props in.
    frame: FrameData,
}

impl PropHost {
    /// No models yet.
    pub fn new(config: HostConfig) -> Result<Self, HostError> {
        Ok(Self {
            set: CrowdSet::new(config.posing)?,
            shelf: Shelf::new(config.first_model_id, config.mods_vram_bytes)
                .with_vram_setting(config.mods_vram_setting.clone()),
            units: BTreeMap::new(),
            config,
            frame: FrameData::default(),
        })
    }

    /// Loads a `.gltf` / `.glb` file through the gate (the host's [`HostConfig::limits`]),
    /// uploads it, animated as `animates` says, and returns its id and report. Its name (a mod
    /// of that name replaces it, animated alike) is its file stem. Its instances may be placed
    /// at any scale: each is culled and drawn at its levels of detail at its own. Its decoded
    /// pixels go once it is on the GPU, which draws from its own copy (as a mod's do): a mod
    /// shown in its place keeps that copy aside, and after [`PropHost::upload_all`] the file is
    /// read again for them. A host that loads while it draws reads on another thread instead
    /// ([`PropHost::reader`]).
    pub fn load_file(&mut self, path: &Path, animates: Animates, renderer: &mut Renderer) -> Result<Loaded, LoadError> {
        let name = name_of(path);
        if self.shelf.model_named(&name).is_some() {
            return Err(LoadError::Duplicate(name));
        }
        let read = self.reader(renderer).read_file(path)?;
        self.add_read(read, animates, renderer)
    }

    /// [`PropHost::load_file`] for a file in memory named `name` (its external files confined
    /// to `base_dir`; none allowed without). It keeps its decoded pixels: there is no file to
    /// read them from again.
    pub fn load_slice(
        &mut self,
        bytes: &[u8],
        name: &str,
        base_dir: Option<&Path>,
        animates: Animates,
        renderer: &mut Renderer,
    ) -> Result<Loaded, LoadError> {
        let admitted =
            gate::admit_slice(bytes, base_dir, Path::new(name), &self.config.limits).map_err(LoadError::Refused)?;
        self.load(name.to_owned(), admitted, animates, renderer)
    }

    /// Uploads `admitted` as model `name` and adds it, unless a model has that name (then
    /// nothing is uploaded).
    fn load(
        &mut self,
        name: String,
        admitted: Admitted,
        animates: Animates,
        renderer: &mut Renderer,
    ) -> Result<Loaded, LoadError> {
        if self.shelf.model_named(&name).is_some() {
            return Err(LoadError::Duplicate(name));
        }
        let read = self.reader(renderer).upload(name, admitted)?;
        self.add_read(read, animates, renderer)
    }

    /// What reads models for this host and `renderer` on another thread (through the host's
    /// [`HostConfig::limits`], uploaded for `renderer`): the file read, checked and on the GPU
    /// there, [`PropHost::add_read`] adds it between two frames.
    #[must_use]
    pub fn reader(&self, renderer: &Renderer) -> ModelReader {
        ModelReader::new(self.config.limits.clone(), renderer.uploader())
    }

    /// Adds a model a [`ModelReader`] read, animated as `animates` says, as
    /// [`PropHost::load_file`] does (uploaded again if it was read for a renderer since
    /// replaced; its pixels released if it was read from a file); returns its id and report.
    pub fn add_read(
        &mut self,
        read: ReadModel,
        animates: Animates,
        renderer: &mut Renderer,
    ) -> Result<Loaded, LoadError> {
        let ReadModel { name, model, report, uploaded, file } = read;
        let version = Version { model, binding: animates, report: report.clone() };
        let limits = self.config.limits.clone();
        let file = file.as_deref().map(|file| (file, &limits));
        let (shelf, mut stage) = self.staged();
        let model = shelf.add_to_stage(name, (version, Some(uploaded), file), &mut stage, renderer)?;
        Ok(Loaded { model, report })
    }

    /// The shelf, and the instances as its stage.
    pub(crate) fn staged(&mut self) -> (&mut Shelf<Animates>, impl Stage<Animates, Error = BindError>) {
        (&mut self.shelf, HostStage { set: &mut self.set, units: &mut self.units })
    }

    /// Unloads model `id` (a district streamed out): its instances are removed, its GPU copy
    /// dropped, the mods of its name go with it (a change to one's file brings it back, as a
    /// model of its own), and its id and name may be taken by the next model loaded: an id kept
    /// past this names that one. Returns how many instances went; `None` when there is no such
    /// model of the host's own.
    pub fn unload(&mut self, id: ModelId, renderer: &mut Renderer) -> Option<usize> {
        let (shelf, mut stage) = self.staged();
        shelf.unload(id, &mut stage, renderer)
    }

    /// Declares model `id` made in other units than metres: `metres_per_unit` of them a metre
    /// (`Fox.glb`, made in centimetres and placed at 0.01: 0.01), for it and every mod of its
    /// name (a model a mod added: until its file goes). Its props are then rated as a model in
    /// metres placed at 1 is: their update rate and pose steps by distance, the band near the
    /// camera where feet are planted and spring bones swing, and a walker's speed
    /// ([`InstanceMut::set_gait`]) in world units. Its levels of detail need no declaration. `false`, and nothing changed, when there is no such
    /// model or `metres_per_unit` is not a positive number.
    #[must_use = "`false` means nothing was set: no such model, or not a positive number"]
    pub fn set_metres_per_unit(&mut self, id: ModelId, metres_per_unit: f32) -> bool {
        if self.shelf.shown(id).is_none() || !(metres_per_unit.is_finite() && metres_per_unit > 0.0) {
            return false;
        }
        let before = self.units.insert(id, metres_per_unit);
        let (shelf, mut stage) = self.staged();
        // The version showing, bound again as it is: only its units change.
        let bound = stage.bind(shelf, id, false);
        drop(stage);
        if let Err(error) = bound {
            tracing::error!(%error, ?id, "binding a model again at other units failed; it keeps its units");
            match before {
                Some(units) => self.units.insert(id, units),
                None => self.units.remove(&id),
            };
            return false;
        }
        true
    }

    /// The id of the model named `name` (a file stem).
    #[must_use]
    pub fn model_named(&self, name: &str) -> Option<ModelId> {
        self.shelf.model_named(name)
    }

    /// Model `id` as it shows now (the host's version, or a mod's): its clips in the host's
    /// numbering with their names and durations (what [`crate::Layer::looping`] plays), its nodes at
    /// rest by name, its size.
    #[must_use]
    pub fn model(&self, id: ModelId) -> Option<ModelView<'_>> {
        self.set.model(id)
    }

    /// Every model: id, name, and the mod file showing in its place, if any.
    pub fn models(&self) -> impl Iterator<Item = (ModelId, &str, Option<&Path>)> {
        self.shelf.models().map(|(id, name, _, path)| (id, name, path))
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
    pub fn set_camera(&mut self, camera: Option<Camera>) {
        self.set.set_camera(camera);
    }

    /// Sets how many pixels high the target the props are drawn into is: mesh LOD draws each
    /// prop at the coarsest level whose error spans at most a pixel of it (1080 until set).
    /// [`PropHost::prepare`] sets it from its `size`; a host calling [`PropHost::fill_frame`]
    /// itself sets it here.
    pub fn set_view_height(&mut self, pixels: u32) {
        self.set.set_view_height(pixels);
    }

    /// `seconds` of game time have passed since the last frame: walkers' gaits move on at the
    /// speeds set ([`Animates::gaits`], [`InstanceMut::set_gait`]; the host moves the walkers),
    /// and the spring bones (a VRM avatar's hair and clothes) of props near the camera swing
    /// through it at the next [`PropHost::fill_frame`] or [`PropHost::prepare`]. Call it once a
    /// frame with the frame's step, scaled as your clips' times move on; while paused, 0, a
    /// negative step or no call holds each. Springs use at most a tenth of a second a frame, so
    /// a hitch does not fling them.
    /// Near is within 50 world units of the camera and the update-rate LOD's nearest band;
    /// farther, or without a camera, they hang as the pose has them (see
    /// [`props_crowd::Posing::advance`]).
    pub fn advance(&mut self, seconds: f32) {
        self.set.advance(seconds);
    }

    /// Plants walkers' feet on `ground` (the height of the host's terrain at a world (x, z)),
    /// see [`CrowdSet::set_ground`]; `None` (the default): level with where each stands. The
    /// heights handed to the renderer's ground shadow serve as well:
    /// `Some(Arc::new(move |p| field.ground_at(p)))` for a [`props_frame::HeightField`] `field`.
    pub fn set_ground(&mut self, ground: Option<Ground>) {
        self.set.set_ground(ground);
    }

    /// Fills `frame` with what the camera sees: posed ([`CrowdSet::animate`]) and listed
    /// ([`CrowdSet::extract`]: palettes, instances, one batch per model and level of detail,
    /// the lit lights near the camera), ready for [`props_frame::FrameData::to_frame`] and
    /// [`Renderer::prepare`]: for a host that adds its own data to the frame (after
    /// [`PropHost::set_camera`] and [`PropHost::set_view_height`]: without a camera every prop
    /// is posed every frame and none culled; else [`PropHost::prepare`] does it all). It
    /// appends: a host reusing one `frame` clears it first ([`FrameData::clear`]). Measures its
    /// own posing time for the CPU budget. Allocation-free once the frame's buffers have grown.
    pub fn fill_frame(&mut self, frame: &mut FrameData) -> AnimationStats {
        let started = Instant::now();
        let stats = self.set.animate(frame);
        self.set.record_animation_time(started.elapsed().as_secs_f32() * 1000.0);
        self.set.extract(frame);
        stats
    }

    /// The whole frame's props work, for a host that adds nothing to the frame's data: poses
    /// what `camera` sees ([`PropHost::fill_frame`]) and hands it to `renderer`, lit by the
    /// host's `light` ([`Renderer::prepare`]: the upload, and the shadow passes recorded into
    /// `encoder`), for a target of `size` pixels (whose height mesh LOD measures errors in:
    /// [`PropHost::set_view_height`]). `camera` replaces [`PropHost::set_camera`]'s. Then the
    /// host begins its pass and calls [`Renderer::render`]. Returns what posing did and what
    /// the frame costs to draw (draw calls, bytes uploaded, triangles and vertices per pass,
    /// GPU times with [`props_render::RendererConfig::pass_timing`]). Allocation-free once
    /// its buffers have grown.
    ///
    /// One view per submission: the upload is written to the queue, so a second `prepare`
    /// (a mirror, a minimap, split screen) before the first view's encoder is submitted
    /// overwrites what that view draws. Draw each view with its own [`Renderer`], or submit
    /// between views. After a resize, pass the new `size` here and the new aspect to the
    /// `camera`: nothing else changes (a [`props_render::StandalonePass`] remakes its targets at
    /// the new size; another sample count or format takes a new renderer and
    /// [`PropHost::upload_all`]).
    pub fn prepare(
        &mut self,
        renderer: &mut Renderer,
        encoder: &mut wgpu::CommandEncoder,
        (camera, light): (&Camera, Lighting),
        size: (u32, u32),
    ) -> (AnimationStats, FrameStats) {
        self.set_camera(Some(*camera));
        self.set.set_view_height(size.1);
        let mut frame = std::mem::take(&mut self.frame);
        frame.clear();
        let stats = self.fill_frame(&mut frame);
        let uploaded = renderer.prepare(encoder, &frame.to_frame(*camera, light, SKY), size);
        self.frame = frame;
        (stats, uploaded)
    }

    /// The instance a ray from `origin` along `direction` enters first (by culling spheres).
    #[must_use]
    pub fn pick(&self, origin: Vec3, direction: Vec3) -> Option<InstanceId> {
        self.set.pick(origin, direction)
    }

    /// Uploads every model showing now again, after the host made a new GPU device (its old
    /// one lost: [`props_render::DeviceHealth::is_lost`]) and a new renderer; a model the new
    /// device refuses is listed in the error, the others uploaded still. Models loaded from files
    /// read their pixels again from them, here on the calling thread; a mod whose pixels were
    /// released loads again from its file ([`PropHost::poll_mods`] then reports it
    /// [`crate::HostEvent::Replaced`] by itself). What the host set on the old renderer it sets on the
    /// new one again ([`Renderer::set_casts_shadows`], [`Renderer::set_ground_shadow`]); a
    /// [`props_render::StandalonePass`] remakes its targets for the new device by itself.
    pub fn upload_all(&mut self, renderer: &mut Renderer) -> Result<(), UploadError> {
        self.shelf.upload_all(renderer)
    }
}
