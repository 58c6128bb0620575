//! [`Shelf`]: the models a game shows, each under one renderer id for good. A model shows the
//! game's own version, or the first by path of the mods of its name; a mod naming none adds a
//! model. A [`Stage`] says where a mod goes and animates what shows (a [`props_crowd::CrowdSet`]
//! in [`crate::PropHost`], the town's `hecs` scene in the demo game). A new version shows only
//! when every step takes it: the GPU's limits and the mods' VRAM budget, the upload, the
//! stage's binding; otherwise nothing changes, on the CPU or the GPU.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use props_anim::Model;
use props_frame::ModelId;
use props_gltf::Limits;
use props_gltf::validate::Report;
use props_mods::ModWatcher;
use props_mods::sidecar::Sidecar;
use props_render::{GpuFootprint, ModelRefused, Renderer, UploadedModel};

use crate::ids::ModelIds;
use crate::own_pixels::OwnPixels;
use crate::swap::{SwapError, VramBudget, restore, upload};
use crate::uploads::{Ahead, Uploads};

/// The part of a game that animates a [`Shelf`]'s models (a [`props_crowd::CrowdSet`], a
/// town, the game's own ECS): it says where each mod that arrives goes, and binds each
/// version that is to show, or refuses it.
///
/// A game whose instances live in its own ECS keeps, say, each model's name by id, and takes
/// every mod as the model of its file stem:
///
/// ```no_run
/// use std::collections::BTreeMap;
/// use std::time::Duration;
/// use props_host::{Arrival, ModConfig, Shelf, Stage};
/// use props_host::ModelId;
/// use props_render::Renderer;
///
/// /// What the game's ECS knows of the models: their names, by id.
/// struct Ecs(BTreeMap<ModelId, String>);
///
/// impl Stage<()> for Ecs {
///     type Error = std::convert::Infallible;
///
///     fn place(&mut self, _: &Shelf<()>, arrival: &Arrival<'_>) -> Result<(String, ()), String> {
///         Ok((arrival.name.to_owned(), ()))
///     }
///
///     fn bind(&mut self, shelf: &Shelf<()>, id: ModelId, _: bool) -> Result<(), Self::Error> {
///         // Check the new version's nodes and clips here, and refuse it if they do not fit.
///         let name = shelf.models().find_map(|(i, name, ..)| (i == id).then_some(name));
///         self.0.insert(id, name.unwrap_or_default().to_owned());
///         Ok(())
///     }
///
///     fn unbind(&mut self, _: &Shelf<()>, id: ModelId) -> usize {
///         self.0.remove(&id);
///         0
///     }
/// }
///
/// # fn run(renderer: &mut Renderer) -> Result<(), Box<dyn std::error::Error>> {
/// let (mut shelf, mut ecs) = (Shelf::new(0, 1 << 30), Ecs(BTreeMap::new()));
/// let mut events = shelf.watch("mods".as_ref(), ModConfig::default(), Duration::from_secs(5), &mut ecs, renderer)?;
/// // Each frame, at its boundary:
/// shelf.poll(&mut ecs, renderer, &mut events);
/// # Ok(())
/// # }
/// ```
pub trait Stage<B> {
    /// Why the stage cannot animate a version (a clip or node it drives is missing).
    type Error: fmt::Display;

    /// The name of the model a mod shows as (one of the shelf's, or a new one) and what its
    /// version keeps for [`Stage::bind`]; `Err`: no model takes it, and why (one line).
    fn place(&mut self, shelf: &Shelf<B>, arrival: &Arrival<'_>) -> Result<(String, B), String>;

    /// Animates what `shelf` shows now, model `id`'s version being new. With `revert` (going
    /// back to a version that showed before), instances playing clips it lacks stop them
    /// instead of refusing it. On error the stage is as it was.
    fn bind(&mut self, shelf: &Shelf<B>, id: ModelId, revert: bool) -> Result<(), Self::Error>;

    /// Model `id` is gone from `shelf`: drops what animated it; returns the instances removed.
    fn unbind(&mut self, shelf: &Shelf<B>, id: ModelId) -> usize;
}

/// A mod file the watcher has just admitted, as [`Stage::place`] sees it to give it a place:
/// its path, its name, its model and its sidecar.
#[derive(Clone, Copy, Debug)]
pub struct Arrival<'a> {
    /// Its path in the mods folder.
    pub path: &'a Path,
    /// Its file stem.
    pub name: &'a str,
    /// The model.
    pub model: &'a Model,
    /// Its sidecar, if it has one.
    pub sidecar: Option<&'a Sidecar>,
    /// Its import time, milliseconds.
    pub load_ms: f64,
}

/// One version of a model on a [`Shelf`], the game's own or a mod's: the imported model,
/// what the stage keeps with it, and its file's report.
#[derive(Clone, Debug)]
pub struct Version<B> {
    /// The model.
    pub model: Arc<Model>,
    /// What the stage keeps with it ([`Stage::place`]).
    pub binding: B,
    /// Its file's report.
    pub report: Report,
}

/// The models a new device refused when every model was uploaded again
/// ([`Shelf::upload_all`], [`crate::PropHost::upload_all`]; the others were uploaded, and these draw nothing).
#[derive(Debug, thiserror::Error)]
#[error("{} of the models could not be uploaded again: {}", .refused.len(), listed(.refused))]
pub struct UploadError {
    /// Each refused model's id, name and why.
    pub refused: Vec<(ModelId, String, ModelRefused)>,
}

fn listed(refused: &[(ModelId, String, ModelRefused)]) -> String {
    let each = refused.iter().map(|(_, name, why)| format!("`{name}`: {why}"));
    each.collect::<Vec<_>>().join("; ")
}

/// Why [`Shelf::add`] shows nothing.
#[derive(Debug, thiserror::Error)]
pub enum AddError<E> {
    /// A model of that name is shelved already.
    #[error("a model named `{0}` is loaded already")]
    Duplicate(String),
    /// The GPU cannot take the model (its limits, or the upload failed).
    #[error("the GPU cannot take the model: {0}")]
    Gpu(#[from] ModelRefused),
    /// The stage refused it.
    #[error("the model cannot be animated as asked: {0}")]
    Bind(E),
}

/// One model: its own version and the mods of its name.
#[derive(Debug)]
pub(crate) struct Entry<B> {
    pub id: ModelId,
    /// A mod of this name shows in its place.
    pub name: String,
    /// The game's own version (none for a model a mod added).
    pub base: Option<Version<B>>,
    /// The mods of its name admitted, by path relative to the mods folder: the first shows.
    pub mods: BTreeMap<PathBuf, Version<B>>,
    /// The game's own version's pixels, once released ([`Shelf::release_own_pixels`]).
    pub own_pixels: Option<OwnPixels>,
}

impl<B> Entry<B> {
    /// The mod file showing in the game's version's place.
    pub fn showing_mod(&self) -> Option<&Path> {
        self.mods.keys().next().map(PathBuf::as_path)
    }

    /// The version showing: the first mod, else the game's own.
    pub fn shown(&self) -> &Version<B> {
        match self.mods.values().next() {
            Some(version) => version,
            None => self.base.as_ref().expect("an entry holds its own version or a mod"),
        }
    }
}

/// A game's models, each under one renderer id for good: the game's own version of each, and
/// the mods that replace it (the first by path shows) or add models beside it (see the
/// module documentation).
#[derive(Debug)]
pub struct Shelf<B> {
    pub(crate) entries: Vec<Entry<B>>,
    pub(crate) ids: ModelIds,
    /// GPU bytes the mods showing may take together.
    pub(crate) mods_vram_bytes: u64,
    /// Where the host's players raise it ([`Shelf::with_vram_setting`]).
    mods_vram_setting: String,
    /// The mods folder's watcher, once [`Shelf::watch`] started it.
    pub(crate) watcher: Option<ModWatcher>,
    /// Its events waiting to apply, and the thread uploading their models ahead
    /// ([`Shelf::poll`]).
    pub(crate) uploads: Option<Uploads>,
    /// The upload made ahead for the event applying now, for [`Shelf::show`] to take.
    pub(crate) ahead: Option<Ahead>,
}

impl<B> Shelf<B> {
    /// No models; their renderer ids start at `first_id` (those below are the game's own), and
    /// the mods showing may take `mods_vram_bytes` of GPU memory together.
    #[must_use]
    pub fn new(first_id: u32, mods_vram_bytes: u64) -> Self {
        let mods_vram_setting = "the mods_vram_bytes of Shelf::new".to_owned();
        Self {
            entries: Vec::new(),
            ids: ModelIds::starting_at(first_id),
            mods_vram_bytes,
            mods_vram_setting,
            watcher: None,
            uploads: None,
            ahead: None,
        }
    }

    /// The shelf, naming `setting` where a refusal over the mods' GPU memory budget says how
    /// to raise it ("or raise the budget (setting)"): in the host's words, its option or
    /// menu (the demo game: "the game's --mods-vram-mib").
    #[must_use]
    pub fn with_vram_setting(mut self, setting: impl Into<String>) -> Self {
        self.mods_vram_setting = setting.into();
        self
    }

    /// Shelves the game's own `version` of a model named `name` under a new id, uploads it and
    /// has `stage` animate it. On error nothing changed.
    pub fn add<S: Stage<B>>(
        &mut self,
        name: String,
        version: Version<B>,
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> Result<ModelId, AddError<S::Error>> {
        self.add_to_stage(name, (version, None, None), stage, renderer)
    }

    /// [`Shelf::add`] of a version uploaded already, on another thread
    /// ([`props_render::ModelUploader::upload`] of `version.model`: `uploaded`), unless that
    /// was for a renderer since replaced (then it uploads here).
    pub fn add_uploaded<S: Stage<B>>(
        &mut self,
        name: String,
        version: Version<B>,
        uploaded: UploadedModel,
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> Result<ModelId, AddError<S::Error>> {
        self.add_to_stage(name, (version, Some(uploaded), None), stage, renderer)
    }

    /// [`Shelf::add`] of a version uploaded already, if it was (see [`Shelf::add_uploaded`]),
    /// and read from `file` with `limits`, if it was: then its pixels are released once it is
    /// on the GPU ([`Shelf::release_own_pixels`]).
    pub(crate) fn add_to_stage<S: Stage<B>>(
        &mut self,
        name: String,
        (version, uploaded, file): (Version<B>, Option<UploadedModel>, Option<(&Path, &Limits)>),
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> Result<ModelId, AddError<S::Error>> {
        let id = self.shelve(name, (version, uploaded), renderer)?;
        if let Some((file, limits)) = file {
            self.release_own_pixels(id, file, limits);
        }
        let shelf = &*self;
        if let Err(error) = stage.bind(shelf, id, false) {
            self.entries.pop();
            renderer.remove_model(id);
            self.ids.release(id);
            return Err(AddError::Bind(error));
        }
        Ok(id)
    }

    /// Unloads model `id`, one of the game's own (a district streamed out): it goes with the
    /// mods of its name (the RAM budget no longer counts them; a change to one's file brings it
    /// back, as a model of its own), its renderer id is freed for the next model, its GPU copy
    /// dropped, its instances removed by the stage. Returns how many; `None` when `id` is no
    /// model of the game's own (none, or one a mod added).
    pub fn unload<S: Stage<B>>(&mut self, id: ModelId, stage: &mut S, renderer: &mut Renderer) -> Option<usize> {
        let k = self.entries.iter().position(|e| e.id == id && e.base.is_some())?;
        let entry = self.entries.remove(k);
        if let Some(watcher) = &self.watcher {
            entry.mods.keys().for_each(|path| watcher.set_resident_bytes(path, 0));
        }
        renderer.remove_model(id);
        self.ids.release(id);
        Some(stage.unbind(self, id))
    }

    /// [`Shelf::add`] without binding: for a stage built from the shelf afterwards.
    pub fn insert(
        &mut self,
        name: String,
        version: Version<B>,
        renderer: &mut Renderer,
    ) -> Result<ModelId, AddError<Infallible>> {
        self.shelve(name, (version, None), renderer)
    }

    /// Puts `version` under a new id (`uploaded`, else uploaded now) and shelves it as model
    /// `name`.
    fn shelve<E>(
        &mut self,
        name: String,
        (version, uploaded): (Version<B>, Option<UploadedModel>),
        renderer: &mut Renderer,
    ) -> Result<ModelId, AddError<E>> {
        if self.entries.iter().any(|e| e.name == name) {
            return Err(AddError::Duplicate(name));
        }
        let id = self.ids.take();
        if let Err(refused) = upload(renderer, (id, &version.model), None, uploaded.map(Ok)) {
            self.ids.release(id);
            return Err(AddError::Gpu(refused));
        }
        self.entries.push(Entry { id, name, base: Some(version), mods: BTreeMap::new(), own_pixels: None });
        Ok(id)
    }

    /// Drops the decoded pixels of model `id`'s own version, read from `file` with `limits`,
    /// its textures on the GPU alone from now on, as a mod's are; returns the bytes freed. A
    /// mod shown in its place keeps the version's GPU copy aside, which the mod going puts
    /// back; after [`Shelf::upload_all`] (a new device) the file is read again for them. Call
    /// it before a stage holds the model (after [`Shelf::insert`], before building the
    /// stage): a version held elsewhere keeps its pixels (0).
    pub fn release_own_pixels(&mut self, id: ModelId, file: &Path, limits: &Limits) -> u64 {
        let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) else { return 0 };
        let on_gpu = entry.mods.is_empty();
        let Some(model) = entry.base.as_mut().and_then(|base| Arc::get_mut(&mut base.model)) else { return 0 };
        let freed = model.release_pixels();
        if model.has_released_pixels() && entry.own_pixels.is_none() {
            // Absolute, to be read again wherever the game's working folder goes.
            let file = std::path::absolute(file).unwrap_or_else(|_| file.to_owned());
            entry.own_pixels = Some(OwnPixels::new(file, limits.clone(), on_gpu));
        }
        freed
    }

    /// Shows entry `k`'s first version under its id: uploads it (within the mods' budget when
    /// it is a mod), releases a mod's pixels ([`Shelf::release_pixels`]) and binds it. On error
    /// the GPU shows what it did, not uploaded again; the caller undoes its change to the
    /// entry.
    pub(crate) fn show<S: Stage<B>>(
        &mut self,
        k: usize,
        revert: bool,
        stage: &mut S,
        renderer: &mut Renderer,
    ) -> Result<GpuFootprint, SwapError<S::Error>> {
        let ahead = self.ahead.take();
        let (used, entry) = (self.mods_vram(renderer, self.entries[k].id), &mut self.entries[k]);
        let id = entry.id;
        let budget = entry.showing_mod().map(|_| VramBudget {
            used,
            limit: self.mods_vram_bytes,
            setting: &self.mods_vram_setting,
        });
        let shown = Arc::clone(&entry.shown().model);
        // The game's own version, its pixels released: its GPU copy kept aside, else its file.
        let own = entry.own_pixels.as_mut();
        let (own_showed, to_own) = (own.as_ref().is_some_and(|own| own.on_gpu), entry.mods.is_empty());
        let (ahead, model) = match own.filter(|_| to_own) {
            Some(own) => match own.take_aside(renderer) {
                Some(aside) => (Some(Ok(aside)), Cow::Borrowed(&*shown)),
                None => (None, own.restore(&shown)),
            },
            // The upload made ahead, if of this version (not of one that now waits behind it).
            None => {
                let ahead = ahead.filter(|ahead| Arc::ptr_eq(&ahead.model, &shown)).and_then(|ahead| ahead.upload);
                (ahead, Cow::Borrowed(&*shown))
            }
        };
        let (footprint, before) = upload(renderer, (id, &model), budget, ahead)?;
        // The shelf holds a mod's version alone again, to release its pixels.
        drop(model);
        drop(shown);
        self.release_pixels(k);
        if let Err(error) = stage.bind(&*self, id, revert) {
            let shown = renderer.take_model(id);
            restore(renderer, id, before);
            if let Some(own) = self.entries[k].own_pixels.as_mut().filter(|_| to_own) {
                own.aside = shown;
            }
            return Err(SwapError::Bind(error));
        }
        if let Some(own) = self.entries[k].own_pixels.as_mut() {
            if own_showed && !to_own {
                own.aside = before;
            }
            own.on_gpu = to_own;
        }
        Ok(footprint)
    }

    /// Releases the pixels of the mod version showing in entry `k`, now on the GPU, which
    /// draws from its own copy ([`props_anim::Model::release_pixels`]): the mods' RAM budget
    /// counts the rest from now on. A version whose pixels were released before, shown again
    /// (behind a mod that went), was uploaded white (but for images with KTX2 files, drawn from
    /// their levels): it loads again from its file.
    fn release_pixels(&mut self, k: usize) {
        let (Some((path, version)), Some(watcher)) = (self.entries[k].mods.iter_mut().next(), &self.watcher) else {
            return;
        };
        if version.model.has_released_pixels() {
            return watcher.reload(path);
        }
        // Shared, a stage still animates it: it keeps its pixels.
        if let Some(model) = Arc::get_mut(&mut version.model)
            && model.release_pixels() > 0
        {
            watcher.set_resident_bytes(path, model.heap_bytes());
        }
    }

    /// GPU bytes the mods showing now take, but the one under `except`.
    fn mods_vram(&self, renderer: &Renderer, except: ModelId) -> u64 {
        let mods = self.entries.iter().filter(|e| e.showing_mod().is_some() && e.id != except);
        mods.filter_map(|e| renderer.model_footprint(e.id)).map(|f| f.total()).sum()
    }

    /// The id of the model named `name`.
    #[must_use]
    pub fn model_named(&self, name: &str) -> Option<ModelId> {
        self.entries.iter().find(|e| e.name == name).map(|e| e.id)
    }

    /// The version of model `id` showing now.
    #[must_use]
    pub fn shown(&self, id: ModelId) -> Option<&Version<B>> {
        self.entries.iter().find(|e| e.id == id).map(Entry::shown)
    }

    /// Every model: id, name, the version showing, and the mod file it comes from (none: the
    /// game's own), in the order they were added.
    pub fn models(&self) -> impl Iterator<Item = (ModelId, &str, &Version<B>, Option<&Path>)> {
        self.entries.iter().map(|e| (e.id, e.name.as_str(), e.shown(), e.showing_mod()))
    }

    /// The model holding the mod file `path` (showing or waiting), and that mod's version.
    #[must_use]
    pub fn mod_version(&self, path: &Path) -> Option<(ModelId, &Version<B>)> {
        self.entries.iter().find_map(|e| Some((e.id, e.mods.get(path)?)))
    }

    /// The mod files held, showing or waiting behind another of their name.
    #[must_use]
    pub fn mod_count(&self) -> usize {
        self.entries.iter().map(|e| e.mods.len()).sum()
    }

    /// Uploads every model showing now again (after the game recreated its GPU device). A
    /// mod's whose pixels were released is drawn white until it loads again from its file,
    /// which this asks for (not for a mod whose images all kept their KTX2 files: those draw
    /// from their levels, [`props_anim::Model::has_released_pixels`]). A game's own version
    /// whose pixels were released ([`Shelf::release_own_pixels`]) takes them from its file,
    /// read again now, whether it shows or a mod does (then its copy is kept aside again, for
    /// when the mod goes). A model the new device refuses is listed in the error, the others
    /// uploaded still.
    pub fn upload_all(&mut self, renderer: &mut Renderer) -> Result<(), UploadError> {
        let mut refused = Vec::new();
        for entry in &mut self.entries {
            let (to_own, shown) = (entry.mods.is_empty(), Arc::clone(&entry.shown().model));
            let model = match (&mut entry.own_pixels, &entry.base) {
                (Some(own), Some(base)) => {
                    own.on_gpu = to_own;
                    own.aside = None;
                    if to_own {
                        own.restore(&shown)
                    } else {
                        // Its GPU copy for when the mod goes, made now (a new device is a pause
                        // already), not read from its file on the frame the mod goes.
                        own.aside = renderer.uploader().upload(&own.restore(&base.model)).ok();
                        Cow::Borrowed(&*shown)
                    }
                }
                _ => Cow::Borrowed(&*shown),
            };
            if let Err(why) = renderer.set_model(entry.id, &model) {
                tracing::error!(model = %entry.name, error = %why, "the new device refused a model");
                refused.push((entry.id, entry.name.clone(), why));
                continue;
            }
            if let (Some(path), Some(watcher)) = (entry.showing_mod(), &self.watcher)
                && shown.has_released_pixels()
            {
                watcher.reload(path);
            }
        }
        if refused.is_empty() { Ok(()) } else { Err(UploadError { refused }) }
    }
}
