//! Two-bone IK: the ankle reaches the target, the bones keep their lengths, the knee bends the
//! way the pose bends it; a planted foot stays where it came down.

use glam::{Affine3A, Quat, Vec2, Vec3};
use props_anim::gait::ik::{Leg, Planting, reach};
use props_anim::humanoid::BoneMap;
use props_anim::{NodeId, Pose, Rig, SourceNode, Transform};

use crate::support::rig;

/// A hip at the origin, a knee 1 below it bent a little forward (+Z), an ankle 1 below that,
/// a toe 0.2 ahead of the ankle.
fn leg_rig() -> Rig {
    let at = |x: f32, y: f32, z: f32| Transform { translation: Vec3::new(x, y, z), ..Transform::IDENTITY };
    rig(&[(&[1], at(0.0, 2.0, 0.0)), (&[2], at(0.0, -1.0, 0.1)), (&[3], at(0.0, -1.0, -0.1)), (&[], at(0.0, 0.0, 0.2))])
}

/// A pelvis 2 up, then the hip (0.1 to its side), knee, ankle and toe of [`leg_rig`].
fn pelvis_rig() -> Rig {
    let at = |x: f32, y: f32, z: f32| Transform { translation: Vec3::new(x, y, z), ..Transform::IDENTITY };
    rig(&[
        (&[1], at(0.0, 2.0, 0.0)),
        (&[2], at(0.1, 0.0, 0.0)),
        (&[3], at(0.0, -1.0, 0.1)),
        (&[4], at(0.0, -1.0, -0.1)),
        (&[], at(0.0, 0.0, 0.2)),
    ])
}

fn node(rig: &Rig, source: u32) -> NodeId {
    rig.from_source_index(source).expect("node")
}

fn at(pose: &Pose, node: NodeId) -> Vec3 {
    pose.world_matrix(node).translation.into()
}

#[test]
fn the_ankle_reaches_and_the_knee_bends_as_the_pose_bends_it() {
    let rig = leg_rig();
    let leg = Leg::above(&rig, node(&rig, 3)).expect("a leg");
    assert_eq!((leg.upper, leg.mid, leg.end), (node(&rig, 0), node(&rig, 1), node(&rig, 2)));
    let mut pose = Pose::from_rest(&rig);
    pose.compute_world(&rig);
    let lengths =
        |pose: &Pose| (at(pose, leg.upper).distance(at(pose, leg.mid)), at(pose, leg.mid).distance(at(pose, leg.end)));
    let before = lengths(&pose);
    // Up and back: the knee must bend further, forward as it was.
    let target = Vec3::new(0.0, 0.8, -0.3);
    reach(&mut pose, &rig, leg, target);
    assert!(at(&pose, leg.end).distance(target) < 1e-4, "{}", at(&pose, leg.end));
    let after = lengths(&pose);
    assert!((after.0 - before.0).abs() < 1e-4 && (after.1 - before.1).abs() < 1e-4, "{before:?} {after:?}");
    let knee = at(&pose, leg.mid);
    let line = (target - at(&pose, leg.upper)).normalize();
    let off = (knee - at(&pose, leg.upper)) - line * (knee - at(&pose, leg.upper)).dot(line);
    assert!(off.z > 0.1, "the knee bends forward, as the pose had it: {knee}");
    // Out of reach: the leg points straight at it, as far as it goes.
    let far = Vec3::new(3.0, 2.0, 0.0);
    reach(&mut pose, &rig, leg, far);
    let direction = (at(&pose, leg.end) - at(&pose, leg.upper)).normalize();
    assert!(direction.abs_diff_eq((far - at(&pose, leg.upper)).normalize(), 1e-3), "{direction}");
}

#[test]
fn a_planted_foot_stays_where_it_came_down_and_eases_back_when_lifted() {
    let rig = leg_rig();
    let toe = node(&rig, 3);
    let feet = [(toe, Leg::above(&rig, toe).expect("a leg"))];
    let mut planting = Planting::default();
    let mut pose = Pose::from_rest(&rig);
    let (dt, mut pinned, mut last) = (0.05, None, None);
    // The model moves forward 0.05 a frame while its pose stays: the planted toe must not;
    // lifted after frame 4, it goes back to the pose over the release time, a little a frame.
    for frame in 0..12 {
        let placement = Affine3A::from_rotation_translation(Quat::IDENTITY, Vec3::new(0.0, 0.0, 0.05 * frame as f32));
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        planting.apply(&mut pose, &rig, &feet, &[frame < 5], (placement, dt, None));
        let world = placement.transform_point3(at(&pose, toe));
        let posed = placement.transform_point3(Vec3::new(0.0, 0.0, 0.2));
        match (frame, pinned) {
            (0, _) => pinned = Some(world),
            (1..5, Some(pin)) => assert!(world.distance(pin) < 1e-3, "frame {frame}: {world} left {pin}"),
            _ => {
                let step = last.map_or(0.0, |l: Vec3| l.distance(world));
                assert!(
                    step < 0.2 * 0.05 / props_anim::gait::ik::RELEASE_TIME + 0.06,
                    "frame {frame}: a jump of {step}"
                );
                if frame as f32 * dt > 5.0 * dt + props_anim::gait::ik::RELEASE_TIME + 1e-3 {
                    assert!(world.distance(posed) < 1e-3, "frame {frame}: back to the pose");
                }
            }
        }
        last = Some(world);
    }
}

#[test]
fn the_hips_come_down_when_a_planted_foot_is_out_of_the_leg_s_reach() {
    let rig = pelvis_rig();
    let (pelvis, toe) = (node(&rig, 0), node(&rig, 4));
    let feet = [(toe, Leg::above(&rig, toe).expect("a leg"))];
    let mut planting = Planting::default();
    let mut pose = Pose::from_rest(&rig);
    let mut pin = None;
    // The model moves on 0.4 a frame: the pin falls behind the hip (1.2 by frame 3), which the
    // leg, straight at rest, reaches only from lower down.
    for frame in 0..4 {
        let placement = Affine3A::from_translation(Vec3::new(0.0, 0.0, 0.4 * frame as f32));
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        planting.apply(&mut pose, &rig, &feet, &[true], (placement, 0.05, None));
        let world = placement.transform_point3(at(&pose, toe));
        let pin = *pin.get_or_insert(world);
        assert!(world.distance(pin) < 1e-3, "frame {frame}: the toe at {world} left its pin {pin}");
        let height = at(&pose, pelvis).y;
        match frame {
            0 => assert!((height - 2.0).abs() < 1e-5, "where it came down, the hips stay: {height}"),
            _ => assert!(height < 2.0 - 0.01 * frame as f32, "frame {frame}: the hips come down to reach: {height}"),
        }
    }
}

/// A person whose thighs hang from its spine, not its hips (3ds Max's Biped): where a leg
/// cannot reach its pin, the hips come down with all that hangs from them (the spine and the
/// thighs alike), not the spine alone, which would leave the pelvis up in the air.
#[test]
fn a_person_s_hips_come_down_whole_when_its_thighs_hang_from_its_spine() {
    let offset = |x: f32, y: f32, z: f32| Transform { translation: Vec3::new(x, y, z), ..Transform::IDENTITY };
    let named = |name: &str, children: &[u32], rest: Transform| SourceNode {
        name: Some(name.to_owned()),
        ..crate::support::node(children, rest)
    };
    let rig = Rig::from_source_nodes(&[
        named("Bip01 Pelvis", &[1], offset(0.0, 2.0, 0.0)),
        named("Bip01 Spine", &[2], offset(0.0, 0.05, 0.0)),
        named("Bip01 L Thigh", &[3], offset(0.1, -0.05, 0.0)),
        named("Bip01 L Calf", &[4], offset(0.0, -1.0, 0.1)),
        named("Bip01 L Foot", &[5], offset(0.0, -1.0, -0.1)),
        named("Bip01 L Toe0", &[], offset(0.0, 0.0, 0.2)),
    ])
    .expect("a rig");
    let map = BoneMap::find(&rig);
    let (pelvis, spine, thigh, toe) = (node(&rig, 0), node(&rig, 1), node(&rig, 2), node(&rig, 5));
    let leg = Leg::of(&rig, &map, toe).expect("the left leg");
    assert_eq!((leg.upper, leg.body), (thigh, pelvis));
    let mut planting = Planting::default();
    let mut pose = Pose::from_rest(&rig);
    for frame in 0..4 {
        let placement = Affine3A::from_translation(Vec3::new(0.0, 0.0, 0.4 * frame as f32));
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        planting.apply(&mut pose, &rig, &[(toe, leg)], &[true], (placement, 0.05, None));
        let (height, spine_offset) = (at(&pose, pelvis).y, pose.local_transform(spine).translation);
        assert_eq!(spine_offset, Vec3::new(0.0, 0.05, 0.0), "frame {frame}: the spine stays on the pelvis");
        if frame > 0 {
            assert!(height < 2.0 - 0.01 * frame as f32, "frame {frame}: the pelvis comes down to reach: {height}");
        }
    }
}

#[test]
fn the_hips_come_down_at_most_a_leg_s_length_for_a_foot_left_far_below() {
    let rig = pelvis_rig();
    let (pelvis, toe) = (node(&rig, 0), node(&rig, 4));
    let feet = [(toe, Leg::above(&rig, toe).expect("a leg"))];
    // A ledge 3 high past z = 0.3: the foot comes down below it, then the model steps up.
    let ground = |at: Vec2| if at.y > 0.3 { 3.0 } else { 0.0 };
    let mut planting = Planting::default();
    let mut pose = Pose::from_rest(&rig);
    for (frame, placed) in [Vec3::ZERO, Vec3::new(0.0, 3.0, 0.4)].into_iter().enumerate() {
        pose.return_to_rest(&rig);
        pose.compute_world(&rig);
        planting.apply(&mut pose, &rig, &feet, &[true], (Affine3A::from_translation(placed), 0.05, Some(&ground)));
        let height = at(&pose, pelvis).y;
        // The leg is 2.01 long: its hips never sink further than that below their rest at 2.
        assert!(height > 2.0 - 2.02, "frame {frame}: the hips sank through the body to {height}");
    }
}

#[test]
fn a_straight_or_hyperextended_leg_bends_its_knee_towards_its_toes() {
    let at_rest = |x: f32, y: f32, z: f32| Transform { translation: Vec3::new(x, y, z), ..Transform::IDENTITY };
    for knee_z in [0.0, -0.01] {
        // The knee straight below the hip, or a hair behind; the toe ahead (+Z).
        let rig = rig(&[
            (&[1], at_rest(0.0, 2.0, 0.0)),
            (&[2], at_rest(0.0, -1.0, knee_z)),
            (&[3], at_rest(0.0, -1.0, -knee_z)),
            (&[], at_rest(0.0, 0.0, 0.2)),
        ]);
        let leg = Leg::above(&rig, node(&rig, 3)).expect("a leg");
        let mut pose = Pose::from_rest(&rig);
        pose.compute_world(&rig);
        // A foot planted uphill: the knee must bend.
        reach(&mut pose, &rig, leg, Vec3::new(0.0, 0.6, 0.0));
        let knee = at(&pose, leg.mid);
        assert!(knee.z > 0.3 && knee.x.abs() < 1e-4, "knee {knee_z}: the knee went to {knee}, not forward");
    }
}

#[test]
fn the_ankle_keeps_its_world_turn_under_a_joint_between_it_and_the_knee() {
    // Hip, knee, a lower shin turned about the leg (Rigify's DEF-shin.001), ankle, toe.
    let at_rest =
        |y: f32, rotation: Quat| Transform { translation: Vec3::new(0.0, y, 0.0), rotation, ..Transform::IDENTITY };
    let rig = rig(&[
        (&[1], at_rest(2.0, Quat::IDENTITY)),
        (&[2], at_rest(-1.0, Quat::from_rotation_x(0.1))),
        (&[3], at_rest(-0.5, Quat::from_rotation_y(0.7))),
        (&[4], at_rest(-0.5, Quat::from_rotation_z(0.3))),
        (&[], Transform { translation: Vec3::new(0.0, 0.0, 0.2), ..Transform::IDENTITY }),
    ]);
    let (hip, knee, ankle) = (node(&rig, 0), node(&rig, 1), node(&rig, 3));
    let leg = Leg { upper: hip, mid: knee, end: ankle, body: hip };
    let mut pose = Pose::from_rest(&rig);
    pose.compute_world(&rig);
    let turned = |pose: &Pose| pose.world_matrix(ankle).to_scale_rotation_translation().1;
    let before = turned(&pose);
    reach(&mut pose, &rig, leg, Vec3::new(0.0, 0.5, 0.3));
    let after = turned(&pose);
    assert!(before.dot(after).abs() > 0.99999, "the foot turned from {before} to {after}");
}

/// On a slope, a planted foot is laid along the ground where it came down (its toe as far up
/// the slope as the ground rises under it); on flat ground it lies as the pose lays it; a
/// slope past what an ankle bends is followed as far as it does.
#[test]
fn a_planted_foot_lies_along_the_slope_it_came_down_on() {
    let rig = leg_rig();
    let toe = node(&rig, 3);
    let feet = [(toe, Leg::above(&rig, toe).expect("a leg"))];
    // The foot's pitch (toe over ankle, along the walk), planted on `ground` by a prop turned
    // `yaw` about Y and placed at `origin`.
    let pitch = |ground: &dyn Fn(Vec2) -> f32, yaw: f32| {
        let placement = Affine3A::from_rotation_translation(Quat::from_rotation_y(yaw), Vec3::new(1.0, 0.0, 2.0));
        let mut pose = Pose::from_rest(&rig);
        pose.compute_world(&rig);
        let mut planting = Planting::default();
        planting.apply(&mut pose, &rig, &feet, &[true], (placement, 0.05, Some(ground)));
        let along = placement.transform_vector3(at(&pose, toe) - at(&pose, feet[0].1.end));
        along.y.atan2(Vec2::new(along.x, along.z).length())
    };
    assert!(pitch(&|_| 0.7, 0.0).abs() < 1e-4, "flat: as the pose lays it");
    // Rising 0.3 a unit along +Z (the prop walks +Z), then along +X (the prop turned to it).
    let rising = 0.3_f32.atan();
    let along_z = pitch(&|p: Vec2| 0.3 * p.y, 0.0);
    assert!((along_z - rising).abs() < 1e-3, "{along_z} against the slope's {rising}");
    let along_x = pitch(&|p: Vec2| 0.3 * p.x, std::f32::consts::FRAC_PI_2);
    assert!((along_x - rising).abs() < 1e-3, "turned: {along_x} against {rising}");
    // Across the slope the foot rolls, not pitches.
    assert!(pitch(&|p: Vec2| 0.3 * p.x, 0.0).abs() < 1e-3);
    // A bank three times as steep (level with the prop's feet where they come down): turned
    // as far as an ankle bends.
    let steep = pitch(&|p: Vec2| 3.0 * (p.y - 2.2), 0.0);
    assert!((steep - props_anim::gait::ik::MOST_FOOT_TILT).abs() < 1e-3, "{steep}");
}

/// A walker turning on the spot with a foot down keeps that foot on the ground's slope: put
/// down facing up a slope (pitched along it), then turned a quarter about Y on the spot, the
/// foot runs across the slope, and rolls with it instead of pitching.
#[test]
fn a_planted_foot_stays_on_the_slope_as_the_walker_turns() {
    let rig = leg_rig();
    let toe = node(&rig, 3);
    let feet = [(toe, Leg::above(&rig, toe).expect("a leg"))];
    let ground = |p: Vec2| 0.3 * p.y;
    let placed = |yaw: f32| Affine3A::from_rotation_translation(Quat::from_rotation_y(yaw), Vec3::new(1.0, 0.0, 2.0));
    let mut planting = Planting::default();
    // The foot's pitch along the prop's walk and its roll across it, in the world.
    let mut step = |yaw: f32| {
        let placement = placed(yaw);
        let mut pose = Pose::from_rest(&rig);
        pose.compute_world(&rig);
        planting.apply(&mut pose, &rig, &feet, &[true], (placement, 0.05, Some(&ground)));
        let along = placement.transform_vector3(at(&pose, toe) - at(&pose, feet[0].1.end));
        let pitch = along.y.atan2(Vec2::new(along.x, along.z).length());
        let sole =
            placement.transform_vector3(pose.world_matrix(feet[0].1.end).to_scale_rotation_translation().1 * Vec3::X);
        (pitch, sole.y.asin())
    };
    let rising = 0.3_f32.atan();
    let (pitch, roll) = step(0.0);
    assert!((pitch - rising).abs() < 1e-3 && roll.abs() < 1e-3, "facing up the slope: {pitch} {roll}");
    let (pitch, roll) = step(std::f32::consts::FRAC_PI_2);
    assert!(pitch.abs() < 1e-3, "turned across the slope, the foot does not pitch: {pitch}");
    assert!((roll.abs() - rising).abs() < 1e-3, "it rolls with the slope: {roll} against {rising}");
}
