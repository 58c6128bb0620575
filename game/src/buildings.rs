//! Houses on the blocks: static copies of `assets/building.glb`, four per block, one in each
//! corner clear of the roads and of the park in the middle where the foxes walk, facing the
//! road in front of it, wall paint varied per house. One batch for the houses the camera may
//! see: one palette (the model is a single node) shared by every copy.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use glam::{Affine3A, Quat, Vec2, Vec3};
use props_anim::{Model, View};
use props_frame::FrameData;
use props_render::Renderer;
use props_scene::Scene;

use crate::model_ids::BUILDINGS;

/// Where a house stands in its block, as a fraction of the block's side from its centre,
/// along x and z (the corners; the roads run along the block's edges).
const CORNER: f32 = 0.33;

/// Wall paints, sRGB, with full strength.
const PAINTS: [[u8; 4]; 6] = [
    [230, 214, 180, 255],
    [206, 170, 140, 255],
    [190, 200, 206, 255],
    [236, 232, 224, 255],
    [170, 120, 96, 255],
    [214, 200, 150, 255],
];

/// The houses and their model.
#[derive(Debug)]
pub struct Buildings {
    model: Arc<Model>,
    /// Radius around a house's origin its model stays within, metres (its culling sphere).
    radius: f32,
    /// Each house's placement and paint.
    houses: Vec<(Affine3A, [u8; 4])>,
}

impl Buildings {
    /// Loads `building.glb` from `assets` through the gate and stands houses on `scene`'s
    /// blocks.
    pub fn load(assets: &Path, limits: &props_gltf::Limits, scene: &Scene) -> anyhow::Result<Self> {
        let path = assets.join("building.glb");
        let admitted = props_gltf::gate::admit_file(&path, limits)
            .with_context(|| format!("loading the base asset {}", path.display()))?;
        let model = admitted.import.model;
        let radius = model.pose_bounds().radius as f32;
        Ok(Self { model: Arc::new(model), radius, houses: lay_out(scene) })
    }

    /// Uploads the model (at start, and onto a recreated device).
    pub fn upload(&self, renderer: &mut Renderer) -> anyhow::Result<()> {
        renderer.set_model(BUILDINGS, &self.model).context("uploading the building")?;
        Ok(())
    }

    /// Appends the houses `view` may see (all without one) as one batch sharing one palette,
    /// pushed with the first of them.
    pub fn extract(&self, view: Option<&View>, frame: &mut FrameData) {
        let mut palette = None;
        let seen = self.houses.iter().filter(|(at, _)| view.is_none_or(|v| v.sees(at.translation.into(), self.radius)));
        for (placement, paint) in seen {
            match palette {
                Some(base) => frame.push_shared_instance(placement, base),
                None => {
                    palette = Some(frame.palettes.len() as u32);
                    frame.push_instance(placement, self.model.palette_len());
                }
            }
            if let Some(instance) = frame.instances.last_mut() {
                instance.tint = *paint;
            }
        }
        frame.end_batch(BUILDINGS);
    }

    /// How many houses stand.
    pub fn len(&self) -> usize {
        self.houses.len()
    }
}

/// Four houses per block, in its corners, each facing the nearer road along z, with a paint
/// picked from the block's index (deterministic for a town).
fn lay_out(scene: &Scene) -> Vec<(Affine3A, [u8; 4])> {
    let block = scene.roads().block();
    let mut houses = Vec::new();
    for (b, centre) in scene.roads().block_centres().enumerate() {
        for (c, (x, z)) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)].into_iter().enumerate() {
            let at = centre + Vec2::new(x, z) * (block * CORNER);
            // The house's front (+Z) towards the road beyond its corner along z.
            let turn = if z > 0.0 { Quat::IDENTITY } else { Quat::from_rotation_y(std::f32::consts::PI) };
            let height = scene.terrain().height(at);
            let placement = Affine3A::from_rotation_translation(turn, Vec3::new(at.x, height, at.y));
            houses.push((placement, PAINTS[(b * 4 + c) % PAINTS.len()]));
        }
    }
    houses
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A view of the town draws the houses it may see and only those, sharing one palette; a
    /// view away from the town draws none.
    #[test]
    fn the_houses_drawn_are_those_in_view() {
        let config = props_scene::SceneConfig { windmills: 0, ..Default::default() };
        let scene =
            Scene::new(config, props_scene::synthetic::town(&config).expect("synthetic models")).expect("scene");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
        let buildings = Buildings::load(&path, &props_gltf::Limits::default(), &scene).expect("the house");
        let frame_of = |view: Option<&View>| {
            let mut frame = FrameData::default();
            buildings.extract(view, &mut frame);
            frame
        };
        let all = frame_of(None);
        assert_eq!(all.instances.len(), buildings.len());
        assert!(all.instances.iter().all(|i| i.palette_base == 0) && all.palettes.len() == 1, "one shared palette");
        let view = |eye: Vec3, target: Vec3| {
            let camera = props_frame::Camera::look_at(eye, target, 0.8, 1.0, (0.5, 5000.0));
            View::new(eye, camera.view_projection, props_anim::UpdateRateLod::default(), 0)
        };
        let (first, _) = buildings.houses[0];
        let near = view(Vec3::from(first.translation) + Vec3::new(0.0, 5.0, 30.0), first.translation.into());
        let seen = frame_of(Some(&near)).instances.len();
        assert!(seen >= 1 && seen < buildings.len(), "{seen} of {} houses in a close view", buildings.len());
        let away = view(Vec3::new(0.0, 50.0, 0.0), Vec3::new(0.0, 100.0, 0.0));
        assert!(frame_of(Some(&away)).instances.is_empty(), "looking at the sky");
    }

    /// Houses stand off the roads and out of the parks: no lane passes within the house's
    /// half-diagonal (6.4 m) plus a margin, and every house is farther from its block's centre
    /// than the foxes' widest loop.
    #[test]
    fn houses_stand_clear_of_roads_and_parks() {
        let config = props_scene::SceneConfig { windmills: 0, ..Default::default() };
        let scene =
            Scene::new(config, props_scene::synthetic::town(&config).expect("synthetic models")).expect("scene");
        let houses = lay_out(&scene);
        let blocks = scene.roads().block_centres().len();
        assert_eq!(houses.len(), blocks * 4);
        let block = scene.roads().block();
        for (placement, _) in &houses {
            let at = Vec2::new(placement.translation.x, placement.translation.z);
            for lane in scene.roads().lanes() {
                for point in lane.points() {
                    assert!(
                        point.distance(at) > 6.4 + props_scene::town::roads::LANE_WIDTH,
                        "a lane at {point} runs through the house at {at}"
                    );
                }
            }
            let centre = scene
                .roads()
                .block_centres()
                .min_by(|a, b| a.distance(at).total_cmp(&b.distance(at)))
                .expect("a block");
            assert!(centre.distance(at) > block * 0.28 + 8.0 * 1.2 + 6.4, "the house at {at} stands in the park");
        }
    }
}
