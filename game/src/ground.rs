//! The town's ground on the GPU ([`props_scene::ground`] builds it): built again when the
//! windmills spread beyond it, uploaded with the next frame.

use std::sync::Arc;

use anyhow::Context as _;
use props_anim::Model;
use props_frame::HeightField;
use props_render::Renderer;
use props_scene::{Scene, ground};

use crate::model_ids::{FLAT_GROUND, LAND};

/// The ground of a scene, covering its hills and windmills, and its upload.
#[derive(Debug, Default)]
pub struct Ground {
    /// Half-side of the square it covers, metres.
    radius: f32,
    /// A rebuilt ground not uploaded yet: its land and its flat ground, and the land's heights.
    pending: Option<([Arc<Model>; 2], HeightField)>,
}

impl Ground {
    /// Rebuilds the ground when the scene's windmills or hills reach beyond it (with room to
    /// grow).
    pub fn fit(&mut self, scene: &Scene) -> anyhow::Result<()> {
        let needed = ground::radius_needed(scene);
        if needed > self.radius {
            self.radius = needed * 1.25;
            self.rebuild(scene)?;
        }
        Ok(())
    }

    /// Rebuilds it as it is (to upload onto a new device).
    pub fn rebuild(&mut self, scene: &Scene) -> anyhow::Result<()> {
        let ground::GroundModels { land, flat } = ground::models(scene, self.radius)?;
        let heights = ground::height_field(scene, self.radius)?;
        self.pending = Some(([Arc::new(land), Arc::new(flat)], heights));
        Ok(())
    }

    /// Half-side of the square of terrain, metres: how far the camera may wander.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Uploads a rebuilt ground. Neither model is drawn into the shadow maps: the land's
    /// hills shadow the town through its heights (the ground shadow, one lookup a pixel, where
    /// the maps drew the land in every cascade: more than half the town's shadow passes), and
    /// the flat ground can shadow nothing.
    pub fn upload(&mut self, renderer: &mut Renderer) -> anyhow::Result<()> {
        if let Some(([land, flat], heights)) = self.pending.take() {
            renderer.set_model(LAND, &land).context("uploading the ground")?;
            renderer.set_model(FLAT_GROUND, &flat).context("uploading the flat ground")?;
            renderer.set_ground_shadow(Some(heights)).context("uploading the ground's heights")?;
            renderer.set_casts_shadows(LAND, false);
            renderer.set_casts_shadows(FLAT_GROUND, false);
        }
        Ok(())
    }

    /// Lists the ground in `frame`: the flat ground's instance, then the land's (drawn in this
    /// order: the paving first, so that the grass and the land under it, a few centimetres
    /// lower, fail the depth test before they are shaded).
    pub fn extract(frame: &mut props_frame::FrameData) {
        for id in [FLAT_GROUND, LAND] {
            frame.push_instance(&glam::Affine3A::IDENTITY, 1);
            frame.end_batch(id);
        }
    }
}
