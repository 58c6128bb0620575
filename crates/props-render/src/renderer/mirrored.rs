//! Instances placed mirrored (a host's placement with a negative determinant): their faces
//! wind the other way on screen, so each of their model's draws takes its pipeline with the
//! front faces turned ([`crate::pipeline_key::PipelineKey::placed`]), made the first time a
//! frame has such instances of the model, not at upload: most models are never mirrored.

use props_frame::ModelId;

use super::Renderer;
use crate::mesh_pipelines;

impl Renderer {
    /// Makes the mirrored pipelines of model `id`'s draws, unless they were made (or it is
    /// not there). Where the device refuses them, its mirrored instances are drawn with the
    /// unmirrored ones' (logged once).
    pub(super) fn make_mirrored_pipelines(&mut self, id: ModelId) {
        let Some(Some((model, _))) = self.models.get_mut(id.0 as usize) else { return };
        if model.mirrored_pipelines {
            return;
        }
        model.mirrored_pipelines = true;
        let draws: Vec<_> = model.draws.all().iter().map(|draw| (draw.key.placed(true), draw.posing)).collect();
        if let Err(message) = mesh_pipelines::prepare(&self.pipelines.meshes, &draws) {
            tracing::error!(model = id.0, %message, "the device refused the mirrored pipelines; drawn unmirrored");
        }
    }
}
