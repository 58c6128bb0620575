//! Spring bones ([`props_anim::spring`]) on a small rig: what a model may hold is checked when
//! built; a chain hangs under gravity and is kept out of a collider; a step of no time keeps
//! the chain's shape on the body; and moving the instance swings the tails in the world but
//! not in a centre's space. Their swing is tested against three-vrm in the
//! workspace's `tests/runtime/springs.rs`.

use glam::{Affine3A, Quat, Vec3};
use props_anim::spring::{ColliderShape, SpringBones, SpringCollider, SpringError, SpringJoint, SpringSettings};
use props_anim::{Model, ModelError, ModelParts, NodeId, Pose, Rig, Transform};

use crate::support::rig;

/// A root, a head 1 up, and a chain of three links of 0.2 hanging forward (+Z) from it.
fn chain() -> Rig {
    let t = Transform::from_translation;
    rig(&[
        (&[1], t(Vec3::ZERO)),
        (&[2], t(Vec3::Y)),
        (&[3], t(Vec3::new(0.0, 0.0, 0.2))),
        (&[4], t(Vec3::new(0.0, 0.0, 0.2))),
        (&[], t(Vec3::new(0.0, 0.0, 0.2))),
    ])
}

fn joint(node: u32, settings: SpringSettings) -> SpringJoint {
    SpringJoint { node: NodeId(node), tail: Vec3::new(0.0, 0.0, 0.2), settings, colliders: Vec::new(), center: None }
}

fn hanging() -> SpringSettings {
    SpringSettings { stiffness: 0.0, drag: 0.4, gravity: Vec3::new(0.0, -1.0, 0.0), hit_radius: 0.0 }
}

/// Each node's world position frame by frame over `frames` frames at 60 Hz (the first a
/// reset, then a step a frame), the instance at `placement(f)`.
fn track(rig: &Rig, springs: &SpringBones, frames: usize, placement: impl Fn(usize) -> Affine3A) -> Vec<Vec<Vec3>> {
    let mut pose = Pose::from_rest(rig);
    let mut state = springs.state();
    (0..frames)
        .map(|f| {
            pose.return_to_rest(rig);
            pose.compute_world(rig);
            if f == 0 {
                springs.reset(rig, &mut pose, &placement(0), &mut state);
            } else {
                springs.step(rig, &mut pose, &placement(f), &mut state, 1.0 / 60.0);
            }
            rig.nodes().map(|n| placement(f).transform_point3(pose.world_matrix(n).translation.into())).collect()
        })
        .collect()
}

/// Each node's world position after `frames` frames, the instance at `placement(f)`.
fn run(rig: &Rig, springs: &SpringBones, frames: usize, placement: impl Fn(usize) -> Affine3A) -> Vec<Vec3> {
    track(rig, springs, frames, placement).pop().unwrap_or_default()
}

#[test]
fn what_a_model_holds_is_checked() {
    let rig = chain();
    let ok = SpringSettings::default();
    let build = |joints: Vec<SpringJoint>, colliders: Vec<SpringCollider>| SpringBones::new(&rig, joints, colliders);
    assert!(build(vec![joint(2, ok), joint(3, ok)], Vec::new()).is_ok());
    assert_eq!(build(vec![joint(9, ok)], Vec::new()), Err(SpringError::NodeOutOfRange { node: 9, count: 5 }));
    assert_eq!(build(vec![joint(2, ok), joint(2, ok)], Vec::new()), Err(SpringError::TwiceJoint { node: 2 }));
    let flat = SpringJoint { tail: Vec3::ZERO, ..joint(2, ok) };
    assert_eq!(build(vec![flat], Vec::new()), Err(SpringError::NoLength { node: 2 }));
    let drag = SpringSettings { drag: 1.5, ..ok };
    assert!(matches!(build(vec![joint(2, drag)], Vec::new()), Err(SpringError::OutOfRange { what: "the drag", .. })));
    let nan = SpringSettings { gravity: Vec3::NAN, ..ok };
    assert!(matches!(build(vec![joint(2, nan)], Vec::new()), Err(SpringError::OutOfRange { .. })));
    let far = SpringJoint { colliders: vec![3], ..joint(2, ok) };
    assert!(matches!(build(vec![far], Vec::new()), Err(SpringError::ColliderOutOfRange { collider: 3, .. })));
    let ball = SpringCollider {
        node: NodeId(1),
        shape: ColliderShape::Sphere { offset: Vec3::ZERO, radius: -1.0, inside: false },
    };
    assert!(matches!(build(Vec::new(), vec![ball]), Err(SpringError::OutOfRange { .. })));
    // A model takes only springs made for a rig of its own.
    let springs = build(vec![joint(2, ok)], Vec::new()).expect("springs");
    let on = |rig: Rig| Model::new(ModelParts { rig: Some(rig), ..ModelParts::default() }).expect("a model");
    assert!(on(chain()).with_springs(springs.clone()).is_ok());
    let one = crate::support::rig(&[(&[], Transform::IDENTITY)]);
    assert_eq!(on(one).with_springs(springs).err(), Some(ModelError::SpringsOffRig { joints: 1 }));
}

#[test]
fn a_chain_hangs_under_gravity_out_of_a_collider() {
    let rig = chain();
    let joints = vec![joint(2, hanging()), joint(3, hanging())];
    let springs = SpringBones::new(&rig, joints.clone(), Vec::new()).expect("springs");
    let at = run(&rig, &springs, 600, |_| Affine3A::IDENTITY);
    // Straight down from the first link's node, each link its length.
    assert!(at[3].distance(at[2] - Vec3::Y * 0.2) < 0.01, "{at:?}");
    assert!(at[4].distance(at[2] - Vec3::Y * 0.4) < 0.01, "{at:?}");
    // A ball under the chain's first link holds it up.
    let ball = SpringCollider {
        node: NodeId(1),
        shape: ColliderShape::Sphere { offset: Vec3::new(0.0, -0.25, 0.2), radius: 0.1, inside: false },
    };
    let held = joints.into_iter().map(|j| SpringJoint { colliders: vec![0], ..j }).collect();
    let springs = SpringBones::new(&rig, held, vec![ball]).expect("springs");
    let at = run(&rig, &springs, 600, |_| Affine3A::IDENTITY);
    let centre = Vec3::new(0.0, 0.75, 0.2);
    // Out, but for what holding the link's length after the push gives back (a millimetre).
    assert!(at[3].distance(centre) >= 0.1 - 1e-3, "kept out: {at:?}");
    assert!(at[3].z > 0.2 + 0.05, "pushed forward: {at:?}");
    assert!(at[3].y < 1.0 - 0.05, "still hangs: {at:?}");
}

/// The extended colliders: a plane holds the hanging chain above it, a ball it is inside of
/// holds it within.
#[test]
fn a_plane_holds_the_chain_above_and_a_ball_within() {
    let rig = chain();
    let kept = |shape| {
        let joints = vec![joint(2, hanging()), joint(3, hanging())];
        let joints = joints.into_iter().map(|j| SpringJoint { colliders: vec![0], ..j }).collect();
        let springs = SpringBones::new(&rig, joints, vec![SpringCollider { node: NodeId(1), shape }]).expect("springs");
        run(&rig, &springs, 600, |_| Affine3A::IDENTITY)
    };
    // A floor 0.1 under where the chain starts, facing up (its normal any length): the chain
    // lies on it rather than hanging down (to 0.8 and 0.6), but for what holding each link's
    // length after the push gives back (millimetres).
    let at = kept(ColliderShape::Plane { offset: Vec3::new(0.0, -0.1, 0.0), normal: Vec3::Y * 3.0 });
    assert!(at[3].y >= 0.9 - 0.01 && at[4].y >= 0.9 - 0.01, "{at:?}");
    assert!(at[3].y < 0.9 + 0.01, "the first link rests on the floor: {at:?}");
    // Inside a ball of 0.2 beside the chain's start, which hanging down would leave: the first
    // tail stays within, leaning towards its centre.
    let centre = Vec3::new(0.0, 0.95, 0.35);
    let at = kept(ColliderShape::Sphere { offset: centre - Vec3::Y, radius: 0.2, inside: true });
    assert!(at[3].distance(centre) <= 0.2 + 1e-3 && at[3].z > 0.2 + 0.005, "{at:?}");
    // A plane's normal of no length is refused.
    let flat =
        SpringCollider { node: NodeId(1), shape: ColliderShape::Plane { offset: Vec3::ZERO, normal: Vec3::ZERO } };
    assert!(SpringBones::new(&rig, Vec::new(), vec![flat]).is_err());
}

#[test]
fn a_step_of_no_time_keeps_the_swing_and_carries_the_tails_along() {
    let rig = chain();
    let springs = SpringBones::new(&rig, vec![joint(2, hanging()), joint(3, hanging())], Vec::new()).expect("springs");
    let (mut pose, mut state) = (Pose::from_rest(&rig), springs.state());
    springs.reset(&rig, &mut pose, &Affine3A::IDENTITY, &mut state);
    for _ in 0..20 {
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        springs.step(&rig, &mut pose, &Affine3A::IDENTITY, &mut state, 1.0 / 60.0);
    }
    let swung: Vec<Affine3A> = pose.world_matrices().to_vec();
    // No time passes while the instance moves: the chain keeps its shape on the body.
    let moved = Affine3A::from_rotation_translation(Quat::from_rotation_y(1.0), Vec3::new(5.0, 0.0, 2.0));
    for _ in 0..3 {
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        springs.step(&rig, &mut pose, &moved, &mut state, 0.0);
        for (a, b) in pose.world_matrices().iter().zip(&swung) {
            assert!(a.abs_diff_eq(*b, 1e-5), "{a:?} {b:?}");
        }
    }
    // Time passing again, the chain goes on from there at rest: its first step moves the
    // tails by no more than gravity's pull.
    pose.return_to_rest(&rig);
    pose.compute_world(&rig);
    springs.step(&rig, &mut pose, &moved, &mut state, 1.0 / 60.0);
    for (a, b) in pose.world_matrices().iter().zip(&swung) {
        assert!(a.translation.distance(b.translation) < 0.02, "{a:?} {b:?}");
    }
}

#[test]
fn moving_swings_the_tails_but_not_in_a_centre_s_space() {
    let rig = chain();
    let stiff = SpringSettings { stiffness: 4.0, drag: 0.4, gravity: Vec3::ZERO, hit_radius: 0.0 };
    // Sideways at 3 m/s for half a second, then still.
    let moving = |f: usize| Affine3A::from_translation(Vec3::X * 3.0 * (f.min(30) as f32 / 60.0));
    let unturned = |at: &[Vec3], placement: Affine3A| {
        let local = placement.inverse().transform_point3(at[4]);
        Quat::from_rotation_arc(Vec3::Z, (local - Vec3::new(0.0, 1.0, 0.2)).normalize()).angle_between(Quat::IDENTITY)
    };
    let springs = SpringBones::new(&rig, vec![joint(2, stiff), joint(3, stiff)], Vec::new()).expect("springs");
    let turns = |springs: &SpringBones| -> Vec<f32> {
        let track = track(&rig, springs, 30, moving);
        track.iter().enumerate().map(|(f, at)| unturned(at, moving(f))).collect()
    };
    let worst = turns(&springs).into_iter().fold(0.0f32, f32::max);
    assert!(worst > 0.1, "the tail trails the move: {worst} rad");
    // In the root's space, moving the instance moves the tails with it: nothing trails.
    let centred: Vec<SpringJoint> =
        [joint(2, stiff), joint(3, stiff)].into_iter().map(|j| SpringJoint { center: Some(NodeId(0)), ..j }).collect();
    let springs = SpringBones::new(&rig, centred, Vec::new()).expect("springs");
    for (f, turn) in turns(&springs).into_iter().enumerate() {
        assert!(turn < 1e-3, "frame {f}: {turn}");
    }
}

/// A chain under a node scaled to nothing (a prop hidden by scale, a clip's squash) swings to
/// finite matrices, and swings on when the scale comes back.
#[test]
fn a_chain_under_a_zero_scale_stays_finite() {
    let rig = chain();
    let springs = SpringBones::new(&rig, vec![joint(2, hanging()), joint(3, hanging())], Vec::new()).expect("springs");
    let (mut pose, mut state) = (Pose::from_rest(&rig), springs.state());
    for f in 0..40 {
        pose.return_to_rest(&rig);
        let scale = if (10..20).contains(&f) { 0.0 } else { 1.0 };
        let head = Transform { scale: Vec3::splat(scale), ..*pose.local_transform(NodeId(1)) };
        pose.set_local_transform(NodeId(1), head);
        pose.compute_world(&rig);
        springs.step(&rig, &mut pose, &Affine3A::IDENTITY, &mut state, 1.0 / 60.0);
        for (n, m) in pose.world_matrices().iter().enumerate() {
            assert!(m.is_finite(), "frame {f}: node {n} {m:?}");
        }
    }
    let tip = pose.world_matrix(NodeId(4)).translation;
    assert!(tip.y < 1.0 - 0.2, "it hangs again: {tip}");
}

/// A hitch's long step swings through `LONGEST_STEP` only; a step of no number holds.
#[test]
fn a_long_step_is_cut_and_one_of_no_number_holds() {
    let rig = chain();
    let springs = SpringBones::new(&rig, vec![joint(2, hanging()), joint(3, hanging())], Vec::new()).expect("springs");
    let after = |dt: f32| {
        let (mut pose, mut state) = (Pose::from_rest(&rig), springs.state());
        springs.reset(&rig, &mut pose, &Affine3A::IDENTITY, &mut state);
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        springs.step(&rig, &mut pose, &Affine3A::IDENTITY, &mut state, dt);
        pose.world_matrices().to_vec()
    };
    assert_eq!(after(10.0), after(props_anim::spring::LONGEST_STEP));
    assert_ne!(after(10.0), after(0.0), "a step swings");
    assert_eq!(after(f32::NAN), after(0.0));
}
