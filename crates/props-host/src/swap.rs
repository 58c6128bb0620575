//! A new version of a model onto the GPU all or nothing, in two steps around whatever animates
//! it (a crowd set, a scene): [`upload`] checks it against the device and the mods' VRAM
//! budget and uploads it, keeping the version before aside; when the animation refuses the new
//! one, [`restore`] puts that back, without uploading it again (its pixels may be gone:
//! [`props_anim::Model::release_pixels`]).

use props_anim::Model;
use props_frame::ModelId;
use props_render::{GpuFootprint, ModelRefused, Renderer, UploadedModel};

/// GPU memory some models may take together ([`upload`]'s check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VramBudget<'a> {
    /// Bytes the others take now (not the version being replaced).
    pub used: u64,
    /// Bytes they may take together.
    pub limit: u64,
    /// Where the host's players raise it, in the host's words.
    pub setting: &'a str,
}

/// Why showing a version changed nothing.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SwapError<E> {
    /// The device or the budget cannot take the model, or the upload failed.
    #[error(transparent)]
    Gpu(#[from] ModelRefused),
    /// What animates the model refused it.
    #[error("{0}")]
    Bind(E),
}

/// Uploads `model` under `id` once it is checked against the device and `budget`: returns what
/// it takes, and what was under `id` before, taken off the renderer (for [`restore`], or to
/// drop). `ahead`: the model's upload (or the device's refusal) made on another thread, used
/// if it is for this renderer. On error the GPU shows what it did.
///
/// # Errors
/// The device's or the budget's refusal.
pub(crate) fn upload(
    renderer: &mut Renderer,
    (id, model): (ModelId, &Model),
    budget: Option<VramBudget<'_>>,
    ahead: Option<Result<UploadedModel, ModelRefused>>,
) -> Result<(GpuFootprint, Option<UploadedModel>), ModelRefused> {
    // Made for a renderer since replaced (the device was lost): uploaded again.
    let ahead = ahead.filter(|upload| match upload {
        Ok(upload) => upload.is_for(renderer),
        Err(_) => true,
    });
    let within = |footprint: GpuFootprint| match budget {
        Some(VramBudget { used, limit, setting }) if used.saturating_add(footprint.total()) > limit => {
            let setting = setting.to_owned();
            Err(ModelRefused::OverBudget { bytes: footprint.total(), used, budget: limit, setting })
        }
        _ => Ok(()),
    };
    // Checked before it is uploaded, unless it was uploaded ahead.
    let uploaded = match ahead {
        Some(upload) => upload.and_then(|upload| within(upload.footprint()).map(|()| upload))?,
        None => renderer.uploader().upload_if(model, within)?,
    };
    let footprint = uploaded.footprint();
    let before = renderer.take_model(id);
    renderer.put_model(id, uploaded);
    Ok((footprint, before))
}

/// Puts `before` (what [`upload`] replaced) back under `id`, or frees `id` without one.
pub(crate) fn restore(renderer: &mut Renderer, id: ModelId, before: Option<UploadedModel>) {
    match before {
        Some(before) => renderer.put_model(id, before),
        None => renderer.remove_model(id),
    }
}
