//! Feet held on the ground: a near instance's planted foot stays where it came down in the
//! world while the instance moves on; a far one's is not held (nothing is spent on it).

mod support;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::clip::Keyframes;
use props_anim::gait::ik::Leg;
use props_anim::{Layer, Model, Spec};
use props_crowd::{BoundModel, CrowdOptions, ModelCrowd, Posing, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelId};

/// A pelvis 2 up, a leg (hip, knee bent forward, ankle) and a toe ahead of the ankle, the toe
/// carrying a triangle (so its node's world matrix is in the palette); a clip that holds it
/// as it stands.
fn legged() -> Arc<Model> {
    let at = support::node_at;
    let nodes = [
        at(0.0, 2.0, 0.0, vec![1]),
        at(0.1, 0.0, 0.0, vec![2]),
        at(0.0, -1.0, 0.1, vec![3]),
        at(0.0, -1.0, -0.1, vec![4]),
        at(0.0, 0.0, 0.2, vec![]),
    ];
    support::one_clip_model(&nodes, 4, vec![0.0, 1.0], Keyframes::Translation(vec![Vec3::new(0.0, 0.0, 0.2); 2]))
}

/// Where the toe stands in the world, frame by frame, as the instance moves on 5 cm a frame
/// with its foot planted for the first six frames, seen from a camera at `eye`, feet planted
/// on `ground` if given.
fn toe_track(eye: Vec3, ground: Option<props_crowd::Ground>) -> Vec<Vec3> {
    toe_track_at_scale(eye, ground, 1.0)
}

/// [`toe_track`] of the instance placed at `scale`.
fn toe_track_at_scale(eye: Vec3, ground: Option<props_crowd::Ground>, scale: f32) -> Vec<Vec3> {
    toe_track_in_units(eye, ground, scale, 1.0)
}

/// [`toe_track`] of the instance placed at `scale`, its model of `metres_per_unit`.
fn toe_track_in_units(eye: Vec3, ground: Option<props_crowd::Ground>, scale: f32, metres_per_unit: f32) -> Vec<Vec3> {
    let model = legged();
    let toe = model.rig().from_source_index(4).expect("toe");
    let leg = Leg::above(model.rig(), toe).expect("a leg");
    let prop = PropModel::new(ModelId(0), model.clone()).with_scale(metres_per_unit);
    let bound = BoundModel::new(prop, Spec { clips: vec![0], ..Spec::default() }, 1);
    let mut crowd = ModelCrowd::new(bound, CrowdOptions { sharing: None, runs: 1 });
    crowd.set_feet(vec![(toe, leg)]);
    crowd.set_ground(ground);
    crowd.push(Affine3A::IDENTITY);
    let mut posing = Posing::new(PosingConfig::default()).expect("posing");
    posing.set_camera(Some(Camera::look_at(eye, Vec3::ZERO, 0.9, 16.0 / 9.0, (0.1, 10_000.0))));
    let mut frame = FrameData::default();
    let slot = model.node_slot(0);
    (0..10)
        .map(|f| {
            let at = Vec3::new(0.0, 0.0, 0.05 * f as f32);
            let placement = Affine3A::from_scale_rotation_translation(Vec3::splat(scale), glam::Quat::IDENTITY, at);
            crowd.set_placement(0, placement);
            crowd.layers_mut(0)[0] = Layer::once(0, 0.0);
            crowd.set_planted(0, 1.0 / 60.0, || u8::from(f < 6));
            frame.clear();
            posing.animate(std::slice::from_mut(&mut crowd), &mut frame);
            posing.extract(|| std::iter::once(&crowd), &mut frame);
            let instance = frame.instances[0];
            let toe = frame.palettes[instance.palette_base as usize + slot].to_affine().translation;
            placement.transform_point3(toe.into())
        })
        .collect()
}

#[test]
fn a_near_instance_s_planted_foot_stays_where_it_came_down() {
    let track = toe_track(Vec3::new(3.0, 2.0, 4.0), None);
    // Held from the frame after the first that saw it near (a crowd asks which feet are
    // planted only of instances it holds).
    for (f, at) in track.iter().enumerate().take(6).skip(1) {
        assert!(at.distance(track[1]) < 1e-3, "frame {f}: the planted toe at {at} left {}", track[1]);
    }
    // Lifted, it eases back to where the pose puts it, with the instance.
    assert!(track[9].z > track[0].z + 0.3, "lifted, the toe follows the instance: {}", track[9]);
}

#[test]
fn a_far_instance_s_feet_are_not_held() {
    let track = toe_track(Vec3::new(300.0, 20.0, 400.0), None);
    for (f, at) in track.iter().enumerate() {
        let posed = Vec3::new(0.1, 0.0, 0.2 + 0.05 * f as f32);
        assert!(at.distance(posed) < 1e-4, "frame {f}: the far toe at {at}, its pose at {posed}");
    }
}

/// Near is at the instance's scale, as its update rate is: 40 m away, within the 50 m of
/// the near band, one of scale 1 has its feet held; one half as large, re-posed every 2nd
/// frame as if 80 m away, has not.
#[test]
fn near_is_at_the_instance_s_scale() {
    let eye = Vec3::new(0.0, 2.0, 40.0);
    let (whole, half) = (toe_track_at_scale(eye, None, 1.0), toe_track_at_scale(eye, None, 0.5));
    assert!(whole[5].distance(whole[1]) < 1e-3, "held at scale 1: {} left {}", whole[5], whole[1]);
    assert!((half[5].z - half[1].z - 0.2).abs() < 1e-4, "not held at scale 0.5: {} to {}", half[1], half[5]);
    // Half as large because made in units of half a metre: as large as its model really is,
    // held as one of scale 1.
    let units = toe_track_in_units(eye, None, 0.5, 0.5);
    assert!(units[5].distance(units[1]) < 1e-3, "held in its units: {} left {}", units[5], units[1]);
}

/// On a slope (the ground rising 0.5 a unit along x under the toe, 0.1 to its side), the toe
/// comes down as far above where the pose puts it as the ground there is above the ground under
/// the instance, and stays there.
#[test]
fn a_planted_foot_follows_the_ground_s_height() {
    let ground: props_crowd::Ground = Arc::new(|at: glam::Vec2| 0.5 * at.x);
    let track = toe_track(Vec3::new(3.0, 2.0, 4.0), Some(ground));
    // The toe is 0.1 to the side of the instance's origin: 0.05 higher there.
    for (f, at) in track.iter().enumerate().take(6).skip(1) {
        assert!((at.y - 0.05).abs() < 1e-3, "frame {f}: the planted toe at {at}, the ground 0.05 up");
        assert!(at.distance(track[1]) < 1e-3, "frame {f}: it stays put");
    }
}
