//! Models onto the GPU from any thread ([`ModelUploader`]): a host uploads a new model (its
//! buffers, its textures and the pipelines its draws take) away from the thread that draws
//! frames, then puts it under an id there ([`crate::Renderer::put_model`]), which takes no time.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use props_anim::Model;

use crate::admission::{self, GpuFootprint, ModelRefused};
use crate::drawn::DrawnMeshes;
use crate::gpu_model::{GpuModel, ModelLayouts};
use crate::materials::Samplers;
use crate::mesh_pipelines::{self, MeshPipelines};
use crate::shaders::PaletteAccess;

/// Uploads models for one [`crate::Renderer`] ([`crate::Renderer::uploader`]), on any thread:
/// it is `Clone`, `Send` and `Sync`; cloned, it goes to a loading thread. What it uploads (an
/// [`UploadedModel`], `Send`) goes under an id with [`crate::Renderer::put_model`], which
/// does nothing more; the device needs no polling for the upload to be done.
/// [`crate::Renderer::set_model`] is the two at once, on the caller's thread. A host on
/// `props_host::PropHost` takes `PropHost::reader`, which reads the file there too and keeps
/// the ids.
#[derive(Clone)]
pub struct ModelUploader {
    shared: Arc<Shared>,
}

/// What uploads share with the renderer.
struct Shared {
    /// The renderer's number ([`ModelUploader::renderer`]).
    renderer: u64,
    device: wgpu::Device,
    queue: wgpu::Queue,
    access: PaletteAccess,
    max_window_matrices: u32,
    layouts: ModelLayouts,
    samplers: Mutex<Samplers>,
    /// The renderer's mesh pipelines: what an upload makes, its frames draw with.
    meshes: Arc<Mutex<MeshPipelines>>,
}

/// A model's resources on the device, uploaded ([`ModelUploader::upload`]) or taken
/// off a renderer ([`crate::Renderer::take_model`]): dropped, they are freed; [`crate::Renderer::put_model`]
/// puts them under an id.
pub struct UploadedModel {
    pub(crate) model: GpuModel,
    pub(crate) footprint: GpuFootprint,
    /// The renderer it is for ([`ModelUploader`]'s number).
    pub(crate) renderer: u64,
}

impl UploadedModel {
    /// What it takes on the device.
    #[must_use]
    pub fn footprint(&self) -> GpuFootprint {
        self.footprint
    }
}

impl fmt::Debug for UploadedModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UploadedModel").field("footprint", &self.footprint).finish_non_exhaustive()
    }
}

impl fmt::Debug for ModelUploader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelUploader").field("access", &self.shared.access).finish_non_exhaustive()
    }
}

impl ModelUploader {
    /// An uploader for the renderer holding `meshes`, which reads palettes as `access` says
    /// in windows of at most `max_window_matrices`.
    pub(crate) fn new(
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        (access, max_window_matrices): (PaletteAccess, u32),
        (layouts, samplers): (ModelLayouts, Samplers),
        meshes: Arc<Mutex<MeshPipelines>>,
    ) -> Self {
        // Numbered from 1: 0 is no renderer's.
        static RENDERERS: AtomicU64 = AtomicU64::new(1);
        let shared = Shared {
            renderer: RENDERERS.fetch_add(1, Ordering::Relaxed),
            device: device.clone(),
            queue: queue.clone(),
            access,
            max_window_matrices,
            layouts,
            samplers: Mutex::new(samplers),
            meshes,
        };
        Self { shared: Arc::new(shared) }
    }

    /// Which renderer it uploads for: a number no other renderer of the process has.
    pub(crate) fn renderer(&self) -> u64 {
        self.shared.renderer
    }

    /// What `model` would take on this device, or why the device cannot take it (checked
    /// against its limits: texture sizes, buffer sizes, the palette binding); uploads nothing.
    ///
    /// # Errors
    /// What the device cannot take.
    pub fn footprint(&self, model: &Model) -> Result<GpuFootprint, ModelRefused> {
        self.footprint_drawn(model, &DrawnMeshes::new(model))
    }

    /// [`ModelUploader::footprint`] of `model`, its primitives drawn as `drawn`.
    fn footprint_drawn(&self, model: &Model, drawn: &DrawnMeshes<'_>) -> Result<GpuFootprint, ModelRefused> {
        let Shared { device, access, max_window_matrices, layouts, .. } = &*self.shared;
        let limits = device.limits();
        let bindable = admission::Bindable::of(&limits, *access, *max_window_matrices, layouts);
        admission::footprint((model, drawn), &limits, &bindable)
    }

    /// Uploads a model's meshes, materials and textures, and makes the pipelines its draws
    /// take (those no model took before): all a frame needs to draw it, once
    /// [`crate::Renderer::put_model`] puts it under an id. The model is checked against the device's
    /// limits first ([`ModelUploader::footprint`]) and the upload runs inside error scopes
    /// (the calling thread's), so a model the device refuses is an error, never a panic.
    /// Frames drawn meanwhile on another thread wait for none of the compiles.
    ///
    /// # Errors
    /// What the device cannot take, or its error while uploading.
    pub fn upload(&self, model: &Model) -> Result<UploadedModel, ModelRefused> {
        self.upload_if(model, |_| Ok(()))
    }

    /// [`ModelUploader::upload`] once `check` takes what the model would take (a host's budget
    /// of GPU memory): what it refuses is not uploaded. What the model takes and what is
    /// uploaded are made from one drawing of its meshes (`drawn.rs`: welded and ordered once).
    ///
    /// # Errors
    /// What the device or `check` cannot take, or the device's error while uploading.
    pub fn upload_if(
        &self,
        model: &Model,
        check: impl FnOnce(GpuFootprint) -> Result<(), ModelRefused>,
    ) -> Result<UploadedModel, ModelRefused> {
        // Made once, for what it takes and what is uploaded.
        let drawn = DrawnMeshes::new(model);
        let footprint = self.footprint_drawn(model, &drawn)?;
        check(footprint)?;
        let Shared { device, queue, layouts, samplers, meshes, .. } = &*self.shared;
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let uploaded = {
            let mut samplers = samplers.lock().unwrap_or_else(PoisonError::into_inner);
            GpuModel::new(device, queue, (layouts, &mut samplers), (model, &drawn))
        };
        // Native error scopes resolve at once; the futures only hand the result over.
        let errors = [pollster::block_on(memory.pop()), pollster::block_on(validation.pop())];
        if let Some(error) = errors.into_iter().flatten().next() {
            return Err(ModelRefused::Device { message: error.to_string() });
        }
        // The pipelines its draws take, made here, not while drawing: a variant the device
        // cannot make refuses the model.
        let draws: Vec<_> = uploaded.draws.all().iter().map(|draw| (draw.key, draw.posing)).collect();
        mesh_pipelines::prepare(meshes, &draws).map_err(|message| ModelRefused::Device { message })?;
        Ok(UploadedModel { model: uploaded, footprint, renderer: self.shared.renderer })
    }
}
