//! The town's ground on the GPU ([`props_scene::ground`] builds it): built again when the
//! windmills spread beyond it, uploaded with the next frame.

use std::sync::Arc;

use anyhow::Context as _;
use props_anim::Model;
use props_render::Renderer;
use props_scene::{Scene, ground};

use crate::model_ids::GROUND;

/// The ground of a scene, covering its hills and windmills, and its upload.
#[derive(Debug, Default)]
pub struct Ground {
    /// Half-side of the square it covers, metres.
    radius: f32,
    /// A rebuilt ground not uploaded yet.
    pending: Option<Arc<Model>>,
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
        self.pending = Some(Arc::new(ground::model(scene, self.radius)?));
        Ok(())
    }

    /// Half-side of the square of terrain, metres: how far the camera may wander.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Uploads a rebuilt ground.
    pub fn upload(&mut self, renderer: &mut Renderer) -> anyhow::Result<()> {
        if let Some(ground) = self.pending.take() {
            renderer.set_model(GROUND, &ground).context("uploading the ground")?;
        }
        Ok(())
    }
}
