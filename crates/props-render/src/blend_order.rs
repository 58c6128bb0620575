//! The order of blended draws. They are drawn after every opaque one, per palette-window run
//! of a model's instances: the runs by the distance of their first instance from the camera
//! (farthest first), and within a run its model's blended draws by the depth of each
//! primitive's centre as that instance places it (farthest first). Every instance of a run is
//! one instanced draw, in the order the frame lists them: exact for a model alone (a still),
//! approximate for a crowd whose instances' glass overlaps. What it costs: per frame, a sort
//! of the runs that have blended draws and of each one's blended draws, into reused buffers
//! (no upload, no extra draw calls).

use glam::{Affine3A, Vec3};
use props_frame::{Frame, ModelId};

use crate::admission::GpuFootprint;
use crate::gpu_model::GpuModel;
use crate::palette_windows::Run;

/// The runs (`runs`, each with its model) that have blended draws, farthest first, into
/// `order` as (squared distance, run index); `models` are the renderer's, by id.
pub(crate) fn order_runs(
    frame: &Frame<'_>,
    runs: &[(ModelId, Run)],
    models: &[Option<(GpuModel, GpuFootprint)>],
    order: &mut Vec<(f32, usize)>,
) {
    let model = |id: ModelId| models.get(id.0 as usize)?.as_ref().map(|(model, _)| model);
    order.clear();
    for (window, (id, run)) in runs.iter().enumerate() {
        let Some(model) = model(*id) else { continue };
        if model.draws.of(run.material_variant).blended.is_empty() {
            continue;
        }
        let Some(first) = frame.instances.get(run.instances.start as usize) else { continue };
        let at = Vec3::from(first.transform.to_affine().translation);
        order.push((at.distance_squared(frame.camera.eye), window));
    }
    order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
}

/// `model`'s blended draws for `run`, farthest first: each one's primitive centre as the run's
/// first instance places it (through its node's matrix in the palette, for a rigid draw).
pub(crate) fn order_draws(frame: &Frame<'_>, run: &Run, model: &GpuModel, order: &mut Vec<(f32, usize)>) {
    order.clear();
    let Some(first) = frame.instances.get(run.instances.start as usize) else { return };
    let placement: Affine3A = first.transform.to_affine();
    let drawn = model.draws.of(run.material_variant);
    for (index, draw) in (drawn.first_blended..).zip(drawn.blended) {
        let node = draw
            .node_matrix
            .and_then(|slot| frame.palettes.get(first.palette_base as usize + slot as usize))
            .map_or(Affine3A::IDENTITY, |matrix| matrix.to_affine());
        let at = placement.transform_point3(node.transform_point3(draw.center));
        order.push((at.distance_squared(frame.camera.eye), index));
    }
    order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
}
