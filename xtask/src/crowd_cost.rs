//! What a model costs drawn by the thousand, for `check-assets`: its levels of detail, and at
//! 1k, 10k and 100k instances the triangles the main pass submits, its draw calls and the
//! palette and instance bytes uploaded per frame, seen from a typical view.
//!
//! The typical view: the instances on a square grid three model heights apart, each playing
//! its first clip from its own phase, seen as the game's overview sees its town (from 0.8 of
//! the grid's radius away, 24° down) at 1920x1080. They are posed and listed by the real
//! [`CrowdSet`] with the game's posing (culling, sharing, update-rate and mesh LOD), so the
//! levels are those the game would pick. All in the model's own units, so its scale does
//! not matter.

use std::sync::Arc;

use anyhow::Result;
use glam::{Affine3A, Vec3};
use props_anim::{Layer, Model};
use props_crowd::{Animates, CrowdSet, PosingConfig, PropModel};
use props_frame::{FrameData, InstanceData, ModelId, OrbitCamera};

/// Instance counts the cost is given at.
pub const COUNTS: [usize; 3] = [1_000, 10_000, 100_000];
/// The view's size, pixels.
const VIEW: (u32, u32) = (1920, 1080);

/// One frame of `count` instances of a model, from the typical view.
#[derive(Clone, Debug, PartialEq)]
pub struct Cost {
    /// Instances.
    pub count: usize,
    /// Instances in view at each level of detail, finest first.
    pub at_level: Vec<usize>,
    /// Triangles the main pass submits.
    pub triangles: usize,
    /// Draw calls of the main pass.
    pub draw_calls: usize,
    /// Palette bytes uploaded.
    pub palette_bytes: usize,
    /// Instance bytes uploaded.
    pub instance_bytes: usize,
}

/// The cost of `count` instances of `model` (see the module documentation), whose batches
/// take `draws[level]` draw calls at each level ([`props_render::Renderer::draws_per_level`]).
pub fn cost(model: &Arc<Model>, draws: &[usize], count: usize) -> Result<Cost> {
    let mut set = CrowdSet::new(PosingConfig { threads: 0, ..PosingConfig::default() })?;
    set.set_model(PropModel::new(ModelId(0), Arc::clone(model)), Animates::default())?;
    let height = props_mods::fitting::height(model).unwrap_or(1.0);
    let (spacing, side) = (3.0 * height, (count as f32).sqrt().ceil() as usize);
    let duration = model.clips().first().map(|c| c.duration());
    for k in 0..count {
        let at = Vec3::new((k % side) as f32, 0.0, (k / side) as f32) - Vec3::new(side as f32, 0.0, side as f32) / 2.0;
        let id = set.add(ModelId(0), Affine3A::from_translation(at * spacing)).expect("the model is set");
        if let (Some(duration), Some(mut instance)) = (duration, set.get_mut(id)) {
            // Phases spread over the clip, as props placed at random.
            let playing = instance.set_layer(0, Layer::looping(0, duration * (k as f32 * 0.618_034).fract()));
            assert!(playing, "a model with a clip has a layer for it");
        }
    }
    let radius = side as f32 * spacing / 2.0;
    let camera = OrbitCamera::overview(radius);
    set.set_camera(Some(camera.to_camera(VIEW.0 as f32 / VIEW.1 as f32)));
    set.set_view_height(VIEW.1);
    let mut frame = FrameData::default();
    set.animate(&mut frame);
    set.extract(&mut frame);
    let levels = model.lod_errors().len();
    let mut at_level = vec![0; levels];
    for batch in &frame.batches {
        at_level[usize::from(batch.level).min(levels - 1)] += batch.instances.len();
    }
    let triangles = at_level.iter().enumerate().map(|(level, &n)| n * model.lod_triangles(level)).sum();
    Ok(Cost {
        count,
        at_level,
        triangles,
        draw_calls: frame.batches.iter().filter_map(|batch| draws.get(usize::from(batch.level))).sum(),
        palette_bytes: size_of_val::<[props_anim::JointMatrix]>(&frame.palettes),
        instance_bytes: frame.instances.len() * size_of::<InstanceData>(),
    })
}
