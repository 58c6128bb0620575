//! The sun's shadow passes: each cascade's depth-only pass over the casters that reach it.

use super::{Renderer, draw_item};
use crate::gpu_model::slots;
use crate::renderer_config::PassCount;
use crate::shadows::CASCADES;

impl Renderer {
    /// Draws each cascade's shadow map: every opaque draw of triangles of every run (masked
    /// ones cut out; points and lines cast none: a pixel-wide stroke's shadow is a dotted line),
    /// depth only, from the sun (bound by the cascade's group in `shadow_groups`), each run at
    /// its level of detail; a cascade no caster reaches has no pass (the shaders read it as
    /// lit). Returns the draw calls, and what each cascade's pass submits.
    pub(super) fn draw_shadows(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        shadow_groups: &[wgpu::BindGroup; CASCADES],
    ) -> (u32, [PassCount; CASCADES]) {
        let mut counts = [PassCount::default(); CASCADES];
        if !self.pipelines.shadows() {
            return (0, counts);
        }
        let mut calls = 0;
        for (cascade, (layer, shadow_group)) in self.shadows.layers.iter().zip(shadow_groups).enumerate() {
            if self.casters.reached() & (1 << cascade) == 0 {
                continue;
            }
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("shadow cascade"),
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: layer,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Store }),
                    stencil_ops: None,
                }),
                timestamp_writes: self.timer.as_ref().map(|timer| timer.shadow_writes(cascade)),
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_vertex_buffer(slots::INSTANCES, self.casters.buffer().slice(..));
            let mut bound = None;
            for (window, (id, run)) in self.runs.iter().enumerate() {
                let Some(model) = self.model(*id) else { continue };
                let instances = self.casters.range(cascade, window);
                if instances.is_empty() {
                    continue;
                }
                // The level the camera sees: a caster coarser than the surface it shadows (its
                // own) would shadow it where it pokes out.
                let level = run.level;
                self.bind_run(&mut pass, shadow_group, window, run, model);
                for draw in model.draws.of(run.material_variant).opaque.iter().filter(|d| d.key.faces()) {
                    let pipeline = (draw.posing, draw.masked);
                    if bound != Some(pipeline) {
                        let Some(shadow) = self.pipelines.shadow(draw.posing, draw.masked) else { continue };
                        pass.set_pipeline(shadow);
                        bound = Some(pipeline);
                    }
                    if draw_item(&mut pass, model, (draw, level), instances.clone()) {
                        counts[cascade] += draw.count(level, instances.len() as u32);
                        calls += 1;
                    }
                }
            }
            drop(pass);
            if let Some(timer) = &self.timer {
                timer.resolve_shadow(encoder, cascade);
            }
        }
        (calls, counts)
    }
}
