//! Update-rate LOD through a crowd: a far instance is re-posed every few frames, and one
//! placed at scale `s` as often as one of scale 1 at `1 / s` its distance (its stale pose
//! shows as large).

mod support;

use std::sync::Arc;

use glam::{Affine3A, Quat, Vec3};
use props_anim::clip::Keyframes;
use props_anim::runtime::UpdateRateLod;
use props_anim::{Layer, Model, RestTransform, SourceNode, Spec, Transform};
use props_crowd::{BoundModel, CrowdOptions, ModelCrowd, Posing, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelId};

/// One node carrying a triangle, its clip sliding it 1 along x over a second.
fn sliding() -> Arc<Model> {
    let node = SourceNode {
        name: None,
        children: vec![],
        rest: RestTransform::Trs(Transform::IDENTITY),
        morph_weights: vec![],
    };
    support::one_clip_model(&[node], 0, vec![0.0, 1.0], Keyframes::Translation(vec![Vec3::ZERO, Vec3::X]))
}

/// Of `placements` (scale, distance ahead of a camera at the origin) of a model of
/// `metres_per_unit`, in how many of eight frames after the first each instance's pose
/// changed, its clip's time moving on every frame.
fn posed_frames(placements: &[(f32, f32)], metres_per_unit: f32) -> Vec<usize> {
    let model = sliding();
    let prop = PropModel::new(ModelId(0), model.clone()).with_scale(metres_per_unit);
    let bound = BoundModel::new(prop, Spec { clips: vec![0], ..Spec::default() }, 1);
    let mut crowd = ModelCrowd::new(bound, CrowdOptions { sharing: None, runs: 1 });
    for (k, &(scale, distance)) in placements.iter().enumerate() {
        let at = Vec3::new(k as f32 - 1.5, 0.0, -distance);
        crowd.push(Affine3A::from_scale_rotation_translation(Vec3::splat(scale), Quat::IDENTITY, at));
    }
    let lod = UpdateRateLod::default();
    let mut posing = Posing::new(PosingConfig { lod, ..PosingConfig::default() }).expect("posing");
    posing.set_camera(Some(Camera::look_at(Vec3::ZERO, -Vec3::Z, 0.9, 16.0 / 9.0, (0.1, 10_000.0))));
    let mut frame = FrameData::default();
    let slot = model.node_slot(0);
    let mut last: Vec<Option<Vec3>> = vec![None; placements.len()];
    let mut changed = vec![0; placements.len()];
    for f in 0..9u8 {
        for i in (0..).take(placements.len()) {
            crowd.layers_mut(i)[0] = Layer::once(0, 0.05 * f32::from(f));
        }
        frame.clear();
        posing.animate(std::slice::from_mut(&mut crowd), &mut frame);
        posing.extract(|| std::iter::once(&crowd), &mut frame);
        assert_eq!(frame.instances.len(), placements.len(), "every instance in view");
        for (i, instance) in frame.instances.iter().enumerate() {
            let at = frame.palettes[instance.palette_base as usize + slot].to_affine().translation.into();
            if last[i].replace(at).is_some_and(|before| before != at) {
                changed[i] += 1;
            }
        }
    }
    changed
}

#[test]
fn an_instance_is_reposed_as_often_as_its_size_at_its_distance_calls_for() {
    // Every frame within 50 m at scale 1, every 2nd frame to 150 m, every 4th beyond.
    let (near, far) = (UpdateRateLod::default().near, UpdateRateLod::default().far);
    assert_eq!((near, far), (50.0, 150.0));
    let posed = posed_frames(&[(1.0, 40.0), (1.0, 100.0), (2.0, 90.0), (0.5, 40.0), (4.0, 180.0), (0.25, 40.0)], 1.0);
    // Near at scale 1, and as near at its scale twice or four times as large twice or four
    // times as far: every frame. At 100 m at scale 1, or half as large at 40 m (as if at 80
    // m): every 2nd. A quarter the size at 40 m, as if at 160 m: every 4th.
    assert_eq!(posed, [8, 4, 8, 4, 8, 2], "frames in eight each was posed in");
}

/// A model made in centimetres (0.01 metres per unit) placed at 0.01 is as large as one made in
/// metres placed at 1, and is re-posed as often: its rate is picked at its size against the
/// model's real one, not at its scale against its units.
#[test]
fn a_model_in_centimetres_placed_at_its_units_is_reposed_as_one_in_metres() {
    let placements = [(0.01, 40.0), (0.01, 100.0), (0.01, 200.0), (0.02, 90.0)];
    assert_eq!(posed_frames(&placements, 0.01), [8, 4, 2, 8]);
    // Taken for metres, it would be a hundredth of its size: every 4th frame however near.
    assert_eq!(posed_frames(&placements, 1.0), [2, 2, 2, 2]);
}
