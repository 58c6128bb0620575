//! Mesh LOD through a crowd: each instance drawn at the level its distance calls for, listed
//! in one batch per level (finest first), without flickering at a level's edge.

mod support;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::Model;
use props_anim::runtime::MeshLod;
use props_crowd::{Animates, CrowdSet, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelId};

/// A unit-sized model whose levels stray 1, 2 and 4 cm.
fn model() -> Arc<Model> {
    support::leveled_model(4, &[0.01, 0.02, 0.04])
}

/// A crowd of the model at `distances` in front of a camera at the origin looking down -Z.
fn crowd(mesh_lod: Option<MeshLod>, distances: &[f32]) -> CrowdSet {
    let mut set = CrowdSet::new(PosingConfig { mesh_lod, ..PosingConfig::default() }).expect("valid");
    set.set_model(PropModel::new(ModelId(0), model()), Animates::default()).expect("binds");
    for &d in distances {
        set.add(ModelId(0), Affine3A::from_translation(Vec3::new(0.0, 0.0, -d)));
    }
    set
}

/// The camera at `eye`, looking down -Z, 1080 pixels high.
fn camera(eye: f32) -> Camera {
    let eye = Vec3::new(0.0, 0.0, eye);
    Camera::look_at(eye, eye - Vec3::Z, 0.9, 16.0 / 9.0, (0.1, 10_000.0))
}

/// Each batch's level and the distances of its instances from the origin, in order.
fn levels(set: &mut CrowdSet) -> Vec<(u8, Vec<f32>)> {
    let mut frame = FrameData::default();
    set.set_view_height(1080);
    set.animate(&mut frame);
    set.extract(&mut frame);
    let distance = |i: u32| -frame.instances[i as usize].transform.rows[2][3];
    frame.batches.iter().map(|b| (b.level, b.instances.clone().map(distance).collect())).collect()
}

#[test]
fn instances_are_drawn_at_the_level_their_distance_calls_for_finest_first() {
    // 1 cm spans a pixel about 11.6 m away at 1080 pixels and 0.9 radians.
    let distances = [200.0, 5.0, 30.0, 10.0, 60.0, 1.0];
    let mut set = crowd(Some(MeshLod::default()), &distances);
    set.set_camera(Some(camera(0.0)));
    let batches = levels(&mut set);
    let picked: Vec<u8> = batches.iter().map(|(level, _)| *level).collect();
    assert_eq!(picked, [0, 1, 2, 3], "one batch per level, finest first: {batches:?}");
    assert_eq!(batches[0].1, [5.0, 10.0, 1.0], "within a level, in the order the instances were added");
    assert_eq!(batches[3].1, [200.0]);
    let mut full = crowd(None, &distances);
    full.set_camera(Some(camera(0.0)));
    assert_eq!(levels(&mut full), [(0, distances.to_vec())], "without mesh LOD: one batch in full");
    let mut unseen = crowd(Some(MeshLod::default()), &distances);
    assert_eq!(levels(&mut unseen), [(0, distances.to_vec())], "without a camera: every prop, in full");
}

/// An instance at a level's edge keeps its level as the camera hovers there: it turns
/// coarser 43% farther than it turned finer.
#[test]
fn an_instance_at_a_levels_edge_keeps_its_level() {
    let mut set = crowd(Some(MeshLod::default()), &[0.0]);
    let mut history = Vec::new();
    // Away from 5 m to 30 m and back, in steps of 10 cm.
    let away = (50..300).chain((50..300).rev()).map(|d| d as f32 / 10.0);
    for d in away {
        set.set_camera(Some(camera(d)));
        history.push((d, levels(&mut set)[0].0));
    }
    let changes: Vec<(f32, u8)> = history.windows(2).filter(|w| w[0].1 != w[1].1).map(|w| w[1]).collect();
    assert_eq!(changes.len(), 2, "once coarser on the way out, once finer on the way back: {changes:?}");
    let ((out, coarser), (back, finer)) = (changes[0], changes[1]);
    assert_eq!((coarser, finer), (1, 0));
    assert!(out / back > 1.35, "coarser at {out} m, finer at {back} m");
}

/// Each instance is drawn at the level its own size calls for: one placed twice as large
/// strays twice as far, so it takes the level of one of scale 1 at half its distance; and
/// its culling sphere grows with it.
#[test]
fn an_instance_is_culled_and_leveled_at_its_own_scale() {
    let mut set =
        CrowdSet::new(PosingConfig { mesh_lod: Some(MeshLod::default()), ..PosingConfig::default() }).expect("valid");
    set.set_model(PropModel::new(ModelId(0), model()), Animates::default()).expect("binds");
    let at = |scale: f32, x: f32, d: f32| {
        Affine3A::from_scale_rotation_translation(Vec3::splat(scale), glam::Quat::IDENTITY, Vec3::new(x, 0.0, -d))
    };
    // Coming into view, an instance of scale 1 turns to levels 1, 2 and 3 from about 17, 33
    // and 66 m away (1, 2 and 4 cm spanning a pixel, and the hysteresis).
    for (scale, d) in [(1.0, 25.0), (2.0, 50.0), (0.5, 12.5), (4.0, 25.0), (0.25, 25.0)] {
        set.add(ModelId(0), at(scale, 0.0, d));
    }
    set.set_camera(Some(camera(0.0)));
    let batches = levels(&mut set);
    assert_eq!(batches, [(0, vec![25.0]), (1, vec![25.0, 50.0, 12.5]), (3, vec![25.0])], "{batches:?}");

    // Beside the view, 10 m ahead: the view's edge is 8.6 m to the side there.
    let mut beside = CrowdSet::new(PosingConfig::default()).expect("valid");
    beside.set_model(PropModel::new(ModelId(0), model()), Animates::default()).expect("binds");
    beside.add(ModelId(0), at(1.0, 12.0, 10.0)).expect("added");
    let large = beside.add(ModelId(0), at(10.0, 12.0, 10.0)).expect("added");
    beside.set_camera(Some(camera(0.0)));
    assert_eq!(levels(&mut beside), [(0, vec![10.0])], "only the large one reaches into view");
    // Its sphere, which picking tests too, is ten times the other's: a ray 3 m beside their
    // centre meets it alone.
    assert_eq!(beside.pick(Vec3::new(15.0, 100.0, -10.0), Vec3::NEG_Y), Some(large));
}
