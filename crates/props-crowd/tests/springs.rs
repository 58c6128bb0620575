//! Spring bones on a crowd's near instances: a near instance moving sideways trails its hair
//! as [`props_anim::spring::SpringBones::step`] swings it, frame after frame, through the time
//! [`Posing::advance`] says passed; a far one, or one whose host never says time passes, hangs
//! it where its pose puts it (nothing is spent on it).

mod support;

use glam::{Affine3A, Vec3};
use props_anim::{Layer, Pose, Spec};
use props_crowd::{BoundModel, CrowdOptions, ModelCrowd, Posing, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelId};

/// Placed 4 cm further along +X each frame, turning a little; from frame 30 on, 100 m away
/// (a host's teleport) if `teleported`.
fn placement_of(f: usize, teleported: bool) -> Affine3A {
    let jump = if teleported && f >= 30 { Vec3::Z * 100.0 } else { Vec3::ZERO };
    Affine3A::from_rotation_translation(glam::Quat::from_rotation_y(0.02 * f as f32), Vec3::X * 0.04 * f as f32 + jump)
}

fn placement(f: usize) -> Affine3A {
    placement_of(f, false)
}

/// The hair's tip in the world frame by frame, seen from `eye`, `advance` seconds said to pass
/// before each frame.
fn tip_track(eye: Vec3, advance: f32) -> Vec<Vec3> {
    tip_track_of(eye, advance, false)
}

/// [`tip_track`], the instance teleported at frame 30 if `teleported` (the camera with it).
fn tip_track_of(eye: Vec3, advance: f32, teleported: bool) -> Vec<Vec3> {
    let model = support::haired();
    let bound =
        BoundModel::new(PropModel::new(ModelId(0), model.clone()), Spec { clips: vec![0], ..Spec::default() }, 1);
    let mut crowd = ModelCrowd::new(bound, CrowdOptions { sharing: None, runs: 1 });
    crowd.push(Affine3A::IDENTITY);
    let mut posing = Posing::new(PosingConfig::default()).expect("posing");
    let mut frame = FrameData::default();
    let slot = model.node_slot(0);
    let placement = |f| placement_of(f, teleported);
    (0..40)
        .map(|f| {
            let eye = eye + Vec3::from(placement(f).translation);
            posing.set_camera(Some(Camera::look_at(eye, placement(f).translation.into(), 0.9, 16.0 / 9.0, (0.1, 1e4))));
            crowd.set_placement(0, placement(f));
            crowd.layers_mut(0)[0] = Layer::once(0, 0.0);
            posing.advance(advance);
            frame.clear();
            posing.animate(std::slice::from_mut(&mut crowd), &mut frame);
            posing.extract(|| std::iter::once(&crowd), &mut frame);
            let instance = frame.instances[0];
            let tip = frame.palettes[instance.palette_base as usize + slot].to_affine().translation;
            placement(f).transform_point3(tip.into())
        })
        .collect()
}

/// Where the tip hangs rigidly, unswung.
fn rigid(f: usize) -> Vec3 {
    placement(f).transform_point3(Vec3::new(0.0, 1.1, -0.1))
}

#[test]
fn a_near_instance_s_hair_swings_as_the_springs_step_it() {
    let track = tip_track(Vec3::new(3.0, 2.0, 4.0), 1.0 / 60.0);
    // The same steps by hand: reset where the instance is first seen, then a step a frame.
    let model = support::haired();
    let (rig, springs) = (model.rig(), model.springs());
    let (mut pose, mut state) = (Pose::from_rest(rig), springs.state());
    let tip = model.rig().from_source_index(3).expect("the tip");
    for (f, at) in track.iter().enumerate() {
        pose.return_to_rest(rig);
        pose.compute_world(rig);
        if f == 0 {
            springs.reset(rig, &mut pose, &placement(0), &mut state);
        }
        springs.step(rig, &mut pose, &placement(f), &mut state, 1.0 / 60.0);
        let expected = placement(f).transform_point3(pose.world_matrix(tip).translation.into());
        assert!(at.distance(expected) < 1e-5, "frame {f}: the tip at {at}, stepped to {expected}");
    }
    let trails = track.iter().enumerate().map(|(f, at)| at.distance(rigid(f))).fold(0.0f32, f32::max);
    assert!(trails > 0.05, "the tip swings off its rigid place: at most {trails} m");
}

/// Teleported 100 m, the hair starts over where the pose puts it rather than streaming back
/// to where the instance was.
#[test]
fn a_teleported_instance_s_hair_starts_over() {
    let track = tip_track_of(Vec3::new(3.0, 2.0, 4.0), 1.0 / 60.0, true);
    let rigid = placement_of(30, true).transform_point3(Vec3::new(0.0, 1.1, -0.1));
    assert!(track[30].distance(rigid) < 0.01, "the tip at {}, its pose at {rigid}", track[30]);
    assert!(track[29].distance(self::rigid(29)) > 0.01, "it swung before the jump");
}

#[test]
fn far_or_timeless_hair_hangs_where_the_pose_puts_it() {
    for (eye, advance, what) in
        [(Vec3::new(300.0, 20.0, 400.0), 1.0 / 60.0, "far"), (Vec3::new(3.0, 2.0, 4.0), 0.0, "no time")]
    {
        for (f, at) in tip_track(eye, advance).iter().enumerate() {
            assert!(at.distance(rigid(f)) < 1e-4, "{what}, frame {f}: the tip at {at}, its pose at {}", rigid(f));
        }
    }
}
