//! The models on the GPU, one slot per id: what is there, and taking a model's resources out
//! and putting them back, which lets a host swap a new version in and go back to the one
//! before without uploading it again.

use props_frame::ModelId;

use super::Renderer;
use crate::admission::GpuFootprint;
use crate::gpu_model::GpuModel;
use crate::uploader::UploadedModel;

impl UploadedModel {
    /// Whether `renderer` can draw it: it was uploaded for it (by its
    /// [`Renderer::uploader`]), not for a renderer made before (on a device since lost).
    #[must_use]
    pub fn is_for(&self, renderer: &Renderer) -> bool {
        self.renderer == renderer.uploader.renderer()
    }
}

impl Renderer {
    /// What model `id` takes on the device, if it is there.
    #[must_use]
    pub fn model_footprint(&self, id: ModelId) -> Option<GpuFootprint> {
        self.models.get(id.0 as usize)?.as_ref().map(|(_, footprint)| *footprint)
    }

    /// Frees the GPU resources of model `id`; its instances are skipped from now on.
    pub fn remove_model(&mut self, id: ModelId) {
        self.take_model(id);
    }

    /// Takes model `id`'s resources off the renderer: its instances are skipped until they are
    /// put back ([`Renderer::put_model`]). A host showing a new version keeps the one before
    /// so, to show it again if the new one is refused, without uploading it again (its
    /// pixels may be gone: [`props_anim::Model::release_pixels`]).
    pub fn take_model(&mut self, id: ModelId) -> Option<UploadedModel> {
        let (model, footprint) = self.models.get_mut(id.0 as usize)?.take()?;
        Some(UploadedModel { model, footprint, renderer: self.uploader.renderer() })
    }

    /// Puts resources [`crate::ModelUploader::upload`] uploaded or [`Renderer::take_model`]
    /// took under `id`, replacing (and freeing) what is there. Resources for another
    /// renderer ([`UploadedModel::is_for`]) are dropped instead, and `id` is left as it was:
    /// they may be of a device since lost.
    pub fn put_model(&mut self, id: ModelId, uploaded: UploadedModel) {
        if !uploaded.is_for(self) {
            tracing::error!(?id, "a model uploaded for another renderer is not drawn: upload it again for this one");
            return;
        }
        self.store(id, uploaded.model, uploaded.footprint);
    }

    /// Number of models on the GPU.
    #[must_use]
    pub fn model_count(&self) -> usize {
        self.models.iter().flatten().count()
    }

    /// Keeps `model` under `id`, replacing (and freeing) what is there.
    pub(super) fn store(&mut self, id: ModelId, model: GpuModel, footprint: GpuFootprint) {
        let index = id.0 as usize;
        if index >= self.models.len() {
            self.models.resize_with(index + 1, || None);
        }
        self.models[index] = Some((model, footprint));
    }
}
