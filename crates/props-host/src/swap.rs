//! [`swap_model`]: a new version of a model onto the GPU all or nothing: checked against the
//! device and the mods' VRAM budget, uploaded, then bound by whatever animates it (a crowd
//! set, a scene); when that refuses it, what showed before goes back under the id.

use props_anim::Model;
use props_frame::ModelId;
use props_render::{GpuFootprint, ModelRefused, Renderer};

/// GPU memory some models may take together ([`swap_model`]'s check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VramBudget<'a> {
    /// Bytes the others take now (not the version being replaced).
    pub used: u64,
    /// Bytes they may take together.
    pub limit: u64,
    /// Where the host's players raise it, in the host's words.
    pub setting: &'a str,
}

/// Why [`swap_model`] changed nothing.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SwapError<E> {
    /// The device or the budget cannot take the model, or the upload failed.
    #[error(transparent)]
    Gpu(#[from] ModelRefused),
    /// What animates the model refused it.
    #[error("{0}")]
    Bind(E),
}

/// Shows `model` under `id`: checks it against the device and `budget`, uploads it, then
/// calls `bind`; if `bind` fails, uploads `previous` (what showed under `id`) again, or frees
/// `id` without one. On error nothing the GPU shows changed; the caller undoes its own state.
///
/// # Errors
/// The device's or the budget's refusal, or `bind`'s.
pub(crate) fn swap_model<E>(
    renderer: &mut Renderer,
    (id, model): (ModelId, &Model),
    budget: Option<VramBudget<'_>>,
    previous: Option<&Model>,
    bind: impl FnOnce() -> Result<(), E>,
) -> Result<GpuFootprint, SwapError<E>> {
    let footprint = renderer.footprint(model)?;
    if let Some(VramBudget { used, limit, setting }) = budget
        && used.saturating_add(footprint.total()) > limit
    {
        let setting = setting.to_owned();
        return Err(SwapError::Gpu(ModelRefused::OverBudget {
            bytes: footprint.total(),
            used,
            budget: limit,
            setting,
        }));
    }
    renderer.set_model(id, model)?;
    if let Err(error) = bind() {
        match previous.map(|previous| renderer.set_model(id, previous)) {
            Some(Err(restore)) => tracing::error!(error = %restore, "putting a model back on the GPU failed"),
            Some(Ok(_)) => {}
            None => renderer.remove_model(id),
        }
        return Err(SwapError::Bind(error));
    }
    Ok(footprint)
}
