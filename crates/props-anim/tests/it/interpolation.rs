//! Slerp and cubic Hermite sampling against closed-form references.

use glam::{Quat, Vec3};
use props_anim::clip::interpolate::slerp;
use props_anim::{
    NodeId, Pose, Transform,
    clip::interpolate::Interpolation,
    clip::{Channel, Clip, Keyframes},
};

use crate::support::{assert_close, assert_same_rotation, rig};

#[test]
fn slerp_endpoints_are_exact() {
    let a = Quat::from_rotation_y(0.3);
    let b = Quat::from_rotation_x(1.2);
    assert_eq!(slerp(a, b, 0.0), a);
    assert_same_rotation(slerp(a, b, 1.0), b, 1e-6);
}

#[test]
fn slerp_of_identical_keys_is_unchanged() {
    let q = Quat::from_xyzw(0.1, 0.2, 0.3, 0.9); // not unit: used as stored
    for u in [0.0, 0.25, 0.5, 1.0] {
        assert_eq!(slerp(q, q, u), q);
    }
}

#[test]
fn slerp_follows_the_great_circle() {
    // 170 degrees about one axis: every intermediate is a rotation by u * 170 degrees.
    let axis = Vec3::new(1.0, 2.0, -0.5).normalize();
    let angle = 170f32.to_radians();
    let (a, b) = (Quat::IDENTITY, Quat::from_axis_angle(axis, angle));
    for i in 0..=20 {
        let u = i as f32 / 20.0;
        assert_same_rotation(slerp(a, b, u), Quat::from_axis_angle(axis, angle * u), 1e-6);
    }
}

#[test]
fn slerp_takes_the_shortest_path_across_a_sign_flip() {
    // b is stored negated: the same orientation. Interpolating must not swing around.
    let a = Quat::from_rotation_z(0.2);
    let b = -Quat::from_rotation_z(0.6);
    assert_same_rotation(slerp(a, b, 0.5), Quat::from_rotation_z(0.4), 1e-6);
    // Same orientation stored with both signs: the pose must not move at all.
    for u in [0.1, 0.5, 0.9] {
        assert_same_rotation(slerp(a, -a, u), a, 1e-7);
    }
}

#[test]
fn slerp_stays_on_the_great_circle_for_close_keys() {
    // Angles either side of where the angle's formula changes, down to 1e-6 rad, at fractions
    // where a normalized lerp would leave the great circle (by up to 5e-7 at 0.063 rad):
    // within four f32 ulps of the exact rotation.
    let axis = Vec3::Y;
    for angle in [0.0620f32, 0.0630, 0.0632, 0.0634, 0.0640, 1e-4, 1e-6] {
        let b = Quat::from_axis_angle(axis, angle);
        for i in 1..20 {
            let u = i as f32 / 20.0;
            let got = slerp(Quat::IDENTITY, b, u);
            assert_same_rotation(got, Quat::from_axis_angle(axis, angle * u), 2.5e-7);
        }
    }
}

/// A one-channel clip on node 0 of a one-node rig.
fn one_channel(interpolation: Interpolation, times: Vec<f32>, keyframes: Keyframes) -> (props_anim::Rig, Clip) {
    let rig = rig(&[(&[], Transform::IDENTITY)]);
    let channel = Channel::new(NodeId(0), interpolation, times, keyframes).expect("valid channel");
    let clip = Clip::new(None, vec![channel], &rig).expect("valid clip");
    (rig, clip)
}

fn sample_translation(rig: &props_anim::Rig, clip: &Clip, t: f32) -> Vec3 {
    let mut pose = Pose::from_rest(rig);
    clip.sample(t, &mut pose);
    pose.local_transform(NodeId(0)).translation
}

#[test]
fn cubic_spline_reproduces_a_cubic_with_tangents_scaled_by_the_interval() {
    // f(t) = t^3 - 2t + 1 (per axis, scaled); Hermite with exact derivatives reproduces any
    // cubic, but only if tangents are multiplied by the (uneven) key interval.
    let f = |t: f32| t * t * t - 2.0 * t + 1.0;
    let df = |t: f32| 3.0 * t * t - 2.0;
    let times = vec![0.5, 2.0, 2.25];
    let mut values = Vec::new();
    for &t in &times {
        let (v, d) = (Vec3::new(f(t), 2.0 * f(t), -f(t)), Vec3::new(df(t), 2.0 * df(t), -df(t)));
        values.extend([d, v, d]); // in-tangent, value, out-tangent
    }
    let (rig, clip) = one_channel(Interpolation::CubicSpline, times, Keyframes::Translation(values));
    for i in 0..=30 {
        let t = 0.5 + 1.75 * i as f32 / 30.0;
        let p = sample_translation(&rig, &clip, t);
        assert_close(p.x, f(t), 2e-5);
        assert_close(p.y, 2.0 * f(t), 4e-5);
        assert_close(p.z, -f(t), 2e-5);
    }
}

#[test]
fn cubic_spline_holds_the_value_outside_its_keys() {
    let key = |v: f32| [Vec3::splat(100.0), Vec3::splat(v), Vec3::splat(-100.0)];
    let values = [key(1.0), key(2.0)].concat();
    let (rig, clip) = one_channel(Interpolation::CubicSpline, vec![1.0, 2.0], Keyframes::Translation(values));
    assert_eq!(sample_translation(&rig, &clip, 0.0), Vec3::splat(1.0));
    assert_eq!(sample_translation(&rig, &clip, 5.0), Vec3::splat(2.0));
}

#[test]
fn cubic_spline_rotation_is_normalized() {
    let q0 = Quat::from_rotation_y(0.0);
    let q1 = Quat::from_rotation_y(1.5);
    let tangent = Quat::from_xyzw(0.0, 0.4, 0.0, 0.0);
    let values = vec![tangent, q0, tangent, tangent, q1, tangent];
    let rig = rig(&[(&[], Transform::IDENTITY)]);
    let channel = Channel::new(NodeId(0), Interpolation::CubicSpline, vec![0.0, 1.0], Keyframes::Rotation(values));
    let clip = Clip::new(None, vec![channel.expect("valid")], &rig).expect("valid");
    let mut pose = Pose::from_rest(&rig);
    for t in [0.1, 0.5, 0.77] {
        clip.sample(t, &mut pose);
        assert_close(pose.local_transform(NodeId(0)).rotation.length(), 1.0, 1e-6);
    }
}

#[test]
fn cubic_spline_rotation_keys_meeting_at_zero_give_the_identity_not_nan() {
    // Unit keys, one the other negated (the same rotation), flat tangents: halfway their sum
    // is zero, which three.js normalizes to the identity.
    let (q, flat) = (Quat::from_rotation_y(0.5), Quat::from_xyzw(0.0, 0.0, 0.0, 0.0));
    let values = vec![flat, q, flat, flat, -q, flat];
    let (rig, clip) = one_channel(Interpolation::CubicSpline, vec![0.0, 1.0], Keyframes::Rotation(values));
    let mut pose = Pose::from_rest(&rig);
    clip.sample(0.5, &mut pose);
    assert_eq!(pose.local_transform(NodeId(0)).rotation, Quat::IDENTITY);
}

#[test]
fn step_changes_exactly_at_each_key() {
    let values = vec![Vec3::X, Vec3::Y, Vec3::Z];
    let (rig, clip) = one_channel(Interpolation::Step, vec![0.0, 0.25, 1.0], Keyframes::Translation(values));
    let at = |t| sample_translation(&rig, &clip, t);
    assert_eq!(at(-1.0), Vec3::X);
    assert_eq!(at(0.2499), Vec3::X);
    assert_eq!(at(0.25), Vec3::Y);
    assert_eq!(at(0.9999), Vec3::Y);
    assert_eq!(at(1.0), Vec3::Z);
    assert_eq!(at(7.0), Vec3::Z);
}

#[test]
fn linear_keys_that_start_late_hold_the_first_value() {
    let values = vec![Vec3::ONE, Vec3::splat(3.0)];
    let (rig, clip) = one_channel(Interpolation::Linear, vec![0.5, 1.5], Keyframes::Translation(values));
    assert_eq!(clip.duration(), 1.5);
    assert_eq!(sample_translation(&rig, &clip, 0.0), Vec3::ONE);
    assert_eq!(sample_translation(&rig, &clip, 1.0), Vec3::splat(2.0));
}

#[test]
fn invalid_channels_are_refused() {
    use props_anim::clip::ClipError;
    let new = |times: Vec<f32>, n: usize, i| Channel::new(NodeId(0), i, times, Keyframes::Scale(vec![Vec3::ONE; n]));
    assert_eq!(new(vec![], 0, Interpolation::Linear), Err(ClipError::NoKeys));
    assert!(matches!(
        new(vec![0.0, 0.0], 2, Interpolation::Linear),
        Err(ClipError::NonIncreasingTime { index: 1, .. })
    ));
    assert!(matches!(new(vec![-1.0, 0.0], 2, Interpolation::Linear), Err(ClipError::NegativeTime { .. })));
    assert!(matches!(new(vec![0.0, f32::NAN], 2, Interpolation::Step), Err(ClipError::NonFiniteTime { .. })));
    assert!(matches!(
        new(vec![0.0, 1.0], 2, Interpolation::CubicSpline),
        Err(ClipError::ValueCount { expected: 6, .. })
    ));
}

/// A clip animates each property of a node once (as glTF asks of an animation): a second
/// channel on it is refused, naming both, where the two ways of posing would each pick another.
#[test]
fn a_second_channel_on_one_property_of_a_node_is_refused() {
    use props_anim::clip::ClipError;
    let rig = rig(&[(&[1], Transform::IDENTITY), (&[], Transform::IDENTITY)]);
    let channel = |node: u32, keys: Keyframes| Channel::new(NodeId(node), Interpolation::Linear, vec![0.0], keys);
    let moves = |node| channel(node, Keyframes::Translation(vec![Vec3::X])).expect("a channel");
    let turns = |node| channel(node, Keyframes::Rotation(vec![Quat::IDENTITY])).expect("a channel");
    assert!(Clip::new(None, vec![moves(0), turns(0), moves(1)], &rig).is_ok(), "other properties, other nodes");
    let twice = Clip::new(None, vec![moves(1), turns(0), moves(1)], &rig).map(|_| ());
    assert_eq!(twice, Err((2, ClipError::DuplicateTarget { node: 1, property: "translation", first: 0 })));
}
