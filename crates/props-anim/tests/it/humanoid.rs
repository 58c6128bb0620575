//! Humanoids: bone maps found from the common rigs' names, and clips retargeted between rigs
//! whose proportions and rest poses differ: each mapped bone points as the source's does, and
//! a clip taken from A to B and back is A's again.

use std::f32::consts::FRAC_PI_4;

use glam::{Quat, Vec3};
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Channel, Clip, Keyframes};
use props_anim::humanoid::{BONES, Bone, BoneMap, BoneMapError, retarget};
use props_anim::{Model, ModelParts, Pose, RestTransform, Rig, SourceNode, Transform};

/// Node names per bone ([`BONES`] order) in seven conventions.
const MIXAMO: [&str; 19] = [
    "mixamorig:Hips",
    "mixamorig:Spine",
    "mixamorig:Spine2",
    "mixamorig:Neck",
    "mixamorig:Head",
    "mixamorig:LeftArm",
    "mixamorig:LeftForeArm",
    "mixamorig:LeftHand",
    "mixamorig:RightArm",
    "mixamorig:RightForeArm",
    "mixamorig:RightHand",
    "mixamorig:LeftUpLeg",
    "mixamorig:LeftLeg",
    "mixamorig:LeftFoot",
    "mixamorig:LeftToeBase",
    "mixamorig:RightUpLeg",
    "mixamorig:RightLeg",
    "mixamorig:RightFoot",
    "mixamorig:RightToeBase",
];
const METARIG: [&str; 19] = [
    "spine",
    "spine.001",
    "spine.003",
    "spine.004",
    "spine.006",
    "upper_arm.L",
    "forearm.L",
    "hand.L",
    "upper_arm.R",
    "forearm.R",
    "hand.R",
    "thigh.L",
    "shin.L",
    "foot.L",
    "toe.L",
    "thigh.R",
    "shin.R",
    "foot.R",
    "toe.R",
];
const UNREAL: [&str; 19] = [
    "pelvis",
    "spine_01",
    "spine_03",
    "neck_01",
    "head",
    "upperarm_l",
    "lowerarm_l",
    "hand_l",
    "upperarm_r",
    "lowerarm_r",
    "hand_r",
    "thigh_l",
    "calf_l",
    "foot_l",
    "ball_l",
    "thigh_r",
    "calf_r",
    "foot_r",
    "ball_r",
];
const BIPED: [&str; 19] = [
    "Bip001 Pelvis",
    "Bip001 Spine",
    "Bip001 Spine1",
    "Bip001 Neck",
    "Bip001 Head",
    "Bip001 L UpperArm",
    "Bip001 L Forearm",
    "Bip001 L Hand",
    "Bip001 R UpperArm",
    "Bip001 R Forearm",
    "Bip001 R Hand",
    "Bip001 L Thigh",
    "Bip001 L Calf",
    "Bip001 L Foot",
    "Bip001 L Toe0",
    "Bip001 R Thigh",
    "Bip001 R Calf",
    "Bip001 R Foot",
    "Bip001 R Toe0",
];
const CHARACTER_CREATOR: [&str; 19] = [
    "CC_Base_Hip",
    "CC_Base_Waist",
    "CC_Base_Spine02",
    "CC_Base_NeckTwist01",
    "CC_Base_Head",
    "CC_Base_L_Upperarm",
    "CC_Base_L_Forearm",
    "CC_Base_L_Hand",
    "CC_Base_R_Upperarm",
    "CC_Base_R_Forearm",
    "CC_Base_R_Hand",
    "CC_Base_L_Thigh",
    "CC_Base_L_Calf",
    "CC_Base_L_Foot",
    "CC_Base_L_ToeBase",
    "CC_Base_R_Thigh",
    "CC_Base_R_Calf",
    "CC_Base_R_Foot",
    "CC_Base_R_ToeBase",
];
const DAZ: [&str; 19] = [
    "hip",
    "abdomenLower",
    "chestUpper",
    "neckLower",
    "head",
    "lShldrBend",
    "lForearmBend",
    "lHand",
    "rShldrBend",
    "rForearmBend",
    "rHand",
    "lThighBend",
    "lShin",
    "lFoot",
    "lToe",
    "rThighBend",
    "rShin",
    "rFoot",
    "rToe",
];
const PROPS: [&str; 19] = [
    "hips",
    "spine",
    "chest",
    "neck",
    "head",
    "upper_arm_l",
    "forearm_l",
    "hand_l",
    "upper_arm_r",
    "forearm_r",
    "hand_r",
    "thigh_l",
    "shin_l",
    "foot_l",
    "toe_l",
    "thigh_r",
    "shin_r",
    "foot_r",
    "toe_r",
];

/// Per bone: its parent bone and its offset from it at rest, for a person `size` tall (1: a
/// 1.75 m person in metres), arms `arms` radians out from hanging (0: an A-pose's
/// hanging arms; a T-pose's are out at pi/2).
fn layout(size: f32, arms: f32) -> [(Option<usize>, Vec3); 19] {
    let arm = |side: f32, length: f32| Vec3::new(side * arms.sin(), -arms.cos(), 0.0) * length * size;
    let s = |x: f32, y: f32, z: f32| Vec3::new(x, y, z) * size;
    [
        (None, s(0.0, 0.95, 0.0)),
        (Some(0), s(0.0, 0.1, 0.0)),
        (Some(1), s(0.0, 0.2, 0.0)),
        (Some(2), s(0.0, 0.23, 0.0)),
        (Some(3), s(0.0, 0.08, 0.0)),
        (Some(2), s(0.2, 0.19, 0.0)),
        (Some(5), arm(1.0, 0.28)),
        (Some(6), arm(1.0, 0.25)),
        (Some(2), s(-0.2, 0.19, 0.0)),
        (Some(8), arm(-1.0, 0.28)),
        (Some(9), arm(-1.0, 0.25)),
        (Some(0), s(0.1, -0.05, 0.0)),
        (Some(11), s(0.0, -0.42, 0.02)),
        (Some(12), s(0.0, -0.41, -0.02)),
        (Some(13), s(0.0, -0.05, 0.13)),
        (Some(0), s(-0.1, -0.05, 0.0)),
        (Some(15), s(0.0, -0.42, 0.02)),
        (Some(16), s(0.0, -0.41, -0.02)),
        (Some(17), s(0.0, -0.05, 0.13)),
    ]
}

/// A humanoid rig named by `names`, under a root node scaled by `root_scale` (Mixamo's
/// armature is in centimetres under a 0.01 scale), its joints' rests turned by `twist` (each
/// joint's local frame turned, its offset kept in its parent's frame) and laid out as `layout`
/// says; a walking clip on it when `walk`.
fn humanoid(names: &[&str; 19], (size, arms, twist, root_scale): (f32, f32, f32, f32), walk: bool) -> Model {
    let layout = layout(size, arms);
    let turn = |j: usize| Quat::from_rotation_y(twist * (j as f32 * 0.37).sin());
    let mut nodes = vec![SourceNode {
        name: Some("Armature".into()),
        children: vec![1],
        rest: RestTransform::Trs(Transform { scale: Vec3::splat(root_scale), ..Transform::IDENTITY }),
        morph_weights: vec![],
    }];
    for (j, (parent, offset)) in layout.iter().enumerate() {
        // The offset is given in the parent's unturned frame: express it in its turned one.
        let parent_turn = parent.map_or(Quat::IDENTITY, turn);
        nodes.push(SourceNode {
            name: Some(names[j].to_owned()),
            children: layout
                .iter()
                .enumerate()
                .filter(|(_, (p, _))| *p == Some(j))
                .map(|(c, _)| c as u32 + 1)
                .collect(),
            rest: RestTransform::Trs(Transform {
                translation: parent_turn.inverse() * *offset,
                rotation: parent_turn.inverse() * turn(j),
                scale: Vec3::ONE,
            }),
            morph_weights: vec![],
        });
    }
    // Joint j's local rotation above is relative to its parent's turn: undo for the root joint.
    if let RestTransform::Trs(t) = &mut nodes[1].rest {
        t.rotation = turn(0);
    }
    let rig = Rig::from_source_nodes(&nodes).expect("a humanoid");
    let id = |bone: usize| rig.from_source_index(bone as u32 + 1).expect("joint");
    let clips = if walk {
        let times: Vec<f32> = (0..=8).map(|k| k as f32 * 0.125).collect();
        let swing = |bone: usize, amplitude: f32, phase: f32| {
            let rest = match &nodes[bone + 1].rest {
                RestTransform::Trs(t) => t.rotation,
                RestTransform::Matrix(_) => Quat::IDENTITY,
            };
            let keys = times
                .iter()
                .map(|t| rest * Quat::from_rotation_x(amplitude * ((t + phase) * std::f32::consts::TAU).sin()))
                .collect();
            Channel::new(id(bone), Interpolation::Linear, times.clone(), Keyframes::Rotation(keys)).expect("channel")
        };
        let bob: Vec<Vec3> =
            times.iter().map(|t| layout[0].1 + Vec3::new(0.0, 0.03 * (t * 12.0).cos(), 0.2 * t) * size).collect();
        let hips =
            Channel::new(id(0), Interpolation::Linear, times.clone(), Keyframes::Translation(bob)).expect("channel");
        let channels = vec![
            hips,
            swing(11, 0.5, 0.0),
            swing(12, 0.4, 0.1),
            swing(15, 0.5, 0.5),
            swing(16, 0.4, 0.6),
            swing(5, 0.3, 0.5),
            swing(8, 0.3, 0.0),
            swing(2, 0.1, 0.25),
        ];
        vec![Clip::new(Some("Walk".into()), channels, &rig).expect("clip")]
    } else {
        Vec::new()
    };
    Model::new(ModelParts { rig: Some(rig), clips, ..ModelParts::default() }).expect("a model")
}

/// Each mapped bone's world rotation and position of `model` posed by clip 0 at `time`.
fn posed(model: &Model, map: &BoneMap, time: f32) -> Vec<(Quat, Vec3)> {
    let mut pose = Pose::from_rest(model.rig());
    model.clips()[0].sample(time, &mut pose);
    pose.compute_world(model.rig());
    BONES
        .iter()
        .map(|&b| {
            let (_, rotation, at) = pose.world_matrix(map.get(b).expect("mapped")).to_scale_rotation_translation();
            (rotation, at)
        })
        .collect()
}

fn direction(posed: &[(Quat, Vec3)], from: Bone, to: Bone) -> Vec3 {
    (posed[to as usize].1 - posed[from as usize].1).normalize()
}

#[test]
fn the_common_rigs_names_map_every_bone() {
    for (names, convention) in [
        (&MIXAMO, "Mixamo"),
        (&METARIG, "Blender metarig"),
        (&UNREAL, "Unreal mannequin"),
        (&BIPED, "3ds Max Biped"),
        (&CHARACTER_CREATOR, "Character Creator"),
        (&DAZ, "Daz Genesis"),
        (&PROPS, "props"),
    ] {
        let model = humanoid(names, (1.0, 0.3, 0.0, 1.0), false);
        let map = BoneMap::find(model.rig());
        assert_eq!((map.convention(), map.matched()), (convention, 19), "{names:?}");
        assert!(map.walks());
        for (b, name) in BONES.iter().zip(names) {
            assert_eq!(map.get(*b), model.rig().find(name), "{convention}: {b:?}");
        }
    }
    // Rigify's deform bones carry a prefix; a rig with other names maps what it can.
    let rigify: Vec<String> = METARIG.iter().map(|n| format!("DEF-{n}")).collect();
    let names: [&str; 19] = std::array::from_fn(|k| rigify[k].as_str());
    assert_eq!(BoneMap::find(humanoid(&names, (1.0, 0.3, 0.0, 1.0), false).rig()).matched(), 19);
    let odd = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s"];
    let model = humanoid(&odd, (1.0, 0.3, 0.0, 1.0), false);
    let none = BoneMap::find(model.rig());
    assert!(!none.walks() && none.matched() == 0);
    // A sidecar names the bones it must.
    let given = none.with_names(model.rig(), [("hips", "a"), ("leftUpperLeg", "l")]).expect("exist");
    assert_eq!((given.get(Bone::Hips), given.get(Bone::LeftUpperLeg)), (model.rig().find("a"), model.rig().find("l")));
    assert!(BoneMap::default().with_names(model.rig(), [("tail", "a")]).is_err());
    assert!(BoneMap::default().with_names(model.rig(), [("hips", "nowhere")]).is_err());
    // Every bone given by hand, as the rig has them: a person's skeleton.
    let all = |swap: &[(usize, &'static str)]| {
        let mut nodes = odd;
        swap.iter().for_each(|&(bone, node)| nodes[bone] = node);
        BoneMap::default().with_names(model.rig(), BONES.iter().map(|b| b.name()).zip(nodes))
    };
    assert_eq!(all(&[]).expect("a skeleton").matched(), 19);
    // One node for two bones; a shin above its thigh; the legs swapped whole.
    let shared = all(&[(15, "l")]).expect_err("shared");
    assert_eq!(shared, BoneMapError::SharedNode { node: "l".into(), bones: ("leftUpperLeg", "rightUpperLeg") });
    let order = all(&[(11, "m"), (12, "l")]).expect_err("out of order");
    assert!(matches!(order, BoneMapError::OutOfOrder { bone: "leftLowerLeg", above: "leftUpperLeg", .. }), "{order}");
    let sides = all(&[(11, "p"), (12, "q"), (13, "r"), (14, "s"), (15, "l"), (16, "m"), (17, "n"), (18, "o")]);
    assert!(matches!(sides, Err(BoneMapError::SidesSwapped { .. })), "{sides:?}");
    assert!(sides.expect_err("swapped").to_string().contains("its left is +X"));
}

#[test]
fn retargeted_bones_point_as_the_source_s_and_a_round_trip_is_the_source() {
    // A: this project's names, in metres, an A-pose, unturned joints. B: Mixamo's, in
    // centimetres under a 0.01 armature, taller, a T-pose, every joint's frame turned.
    let a = humanoid(&PROPS, (1.0, 0.3, 0.0, 1.0), true);
    let b = humanoid(&MIXAMO, (112.0, std::f32::consts::FRAC_PI_2, FRAC_PI_4, 0.01), false);
    let (map_a, map_b) = (BoneMap::find(a.rig()), BoneMap::find(b.rig()));
    let walk_b = retarget((&a, &map_a), 0, (&b, &map_b)).expect("retargets");
    let b = Model::new(ModelParts { clips: vec![walk_b], ..parts_of(&b) }).expect("B with A's walk");
    let back = retarget((&b, &map_b), 0, (&a, &map_a)).expect("retargets back");
    let a_again = Model::new(ModelParts { clips: vec![back], ..parts_of(&a) }).expect("A with the walk back");
    let chains = [
        (Bone::LeftUpperLeg, Bone::LeftLowerLeg),
        (Bone::LeftLowerLeg, Bone::LeftFoot),
        (Bone::RightUpperArm, Bone::RightLowerArm),
        (Bone::Spine, Bone::Chest),
    ];
    for k in 0..=30 {
        let time = k as f32 / 30.0;
        let (pa, pb, pa2) = (posed(&a, &map_a, time), posed(&b, &map_b, time), posed(&a_again, &map_a, time));
        for &(from, to) in &chains {
            let (da, db) = (direction(&pa, from, to), direction(&pb, from, to));
            assert!(da.dot(db) > 0.9999, "{time}: {from:?} points {da} on A, {db} on B");
        }
        for (bone, ((qa, at_a), (qa2, at_a2))) in BONES.iter().zip(pa.iter().zip(&pa2)) {
            assert!(qa.dot(*qa2).abs() > 0.99999, "{time}: {bone:?} turned {qa} on A, {qa2} after the round trip");
            assert!(at_a.distance(*at_a2) < 1e-4, "{time}: {bone:?} at {at_a} on A, {at_a2} after the round trip");
        }
        // The hips travel as far as the legs are long: 1.12 times, in centimetres.
        let travel = |p: &[(Quat, Vec3)], rest: Vec3| p[0].1 - rest;
        let (ta, tb) = (travel(&pa, Vec3::new(0.0, 0.95, 0.0)), travel(&pb, Vec3::new(0.0, 0.95 * 1.12, 0.0)));
        assert!((tb - ta * 1.12).length() < 1e-3, "{time}: the hips travel {tb} on B, {ta} on A");
    }
}

#[test]
fn a_still_clip_of_one_key_retargets_to_one_key() {
    // A pose (an idle held, a seated figure): one key, the left thigh raised.
    let a = humanoid(&PROPS, (1.0, 0.3, 0.0, 1.0), false);
    let b = humanoid(&MIXAMO, (112.0, std::f32::consts::FRAC_PI_2, FRAC_PI_4, 0.01), false);
    let (map_a, map_b) = (BoneMap::find(a.rig()), BoneMap::find(b.rig()));
    let thigh = map_a.get(Bone::LeftUpperLeg).expect("a left thigh");
    let rest = a.rig().rest(thigh).as_trs().expect("a TRS joint").rotation;
    let raised = Keyframes::Rotation(vec![rest * Quat::from_rotation_x(-0.8)]);
    let channel = Channel::new(thigh, Interpolation::Linear, vec![0.0], raised).expect("one key");
    let pose = Clip::new(Some("Pose".into()), vec![channel], a.rig()).expect("a still clip");
    let a = Model::new(ModelParts { clips: vec![pose], ..parts_of(&a) }).expect("A posed");
    let still = retarget((&a, &map_a), 0, (&b, &map_b)).expect("a still clip retargets");
    assert_eq!(still.duration(), 0.0, "it stays still");
    let b = Model::new(ModelParts { clips: vec![still], ..parts_of(&b) }).expect("B posed");
    let (pa, pb) = (posed(&a, &map_a, 0.0), posed(&b, &map_b, 0.0));
    let (da, db) = (
        direction(&pa, Bone::LeftUpperLeg, Bone::LeftLowerLeg),
        direction(&pb, Bone::LeftUpperLeg, Bone::LeftLowerLeg),
    );
    assert!(da.dot(db) > 0.9999, "the thigh points {da} on A, {db} on B");
}

/// The parts of `model` to build another with (its rig, meshes and skins; no clips).
fn parts_of(model: &Model) -> ModelParts {
    ModelParts { rig: Some(model.rig().clone()), ..ModelParts::default() }
}

/// On a person's skeleton with joints below the toes (Mixamo's `Toe_End`), the leg a foot
/// ends is its side's thigh, shin and ankle, not the three joints above the toe's end.
#[test]
fn a_person_s_leg_is_thigh_shin_and_ankle_whatever_hangs_below() {
    use props_anim::gait::ik::Leg;
    let model = humanoid(&MIXAMO, (1.0, 0.3, 0.0, 1.0), false);
    let rig = model.rig();
    // A `Toe_End` below each toe base.
    let mut nodes: Vec<SourceNode> = rig
        .nodes()
        .map(|node| SourceNode {
            name: rig.name(node).map(str::to_owned),
            children: rig.nodes().filter(|&c| rig.parent(c) == Some(node)).map(|c| rig.source_index(c)).collect(),
            rest: *rig.rest(node),
            morph_weights: vec![],
        })
        .collect();
    for toe in ["mixamorig:LeftToeBase", "mixamorig:RightToeBase"] {
        let base = rig.source_index(rig.find(toe).expect("a toe")) as usize;
        let next = nodes.len() as u32;
        nodes[base].children.push(next);
        let end = toe.replace("ToeBase", "Toe_End");
        let rest = RestTransform::Trs(Transform { translation: Vec3::new(0.0, 0.0, 0.06), ..Transform::IDENTITY });
        nodes.push(SourceNode { name: Some(end), children: vec![], rest, morph_weights: vec![] });
    }
    let rig = Rig::from_source_nodes(&nodes).expect("a rig");
    let map = BoneMap::find(&rig);
    let id = |name: &str| rig.find(name).expect(name);
    for side in ["Left", "Right"] {
        let leg = Leg::of(&rig, &map, id(&format!("mixamorig:{side}Toe_End"))).expect("a leg");
        let expected = ["UpLeg", "Leg", "Foot"].map(|bone| id(&format!("mixamorig:{side}{bone}")));
        assert_eq!([leg.upper, leg.mid, leg.end], expected, "{side}");
        let above = Leg::above(&rig, id(&format!("mixamorig:{side}Toe_End"))).expect("three joints above");
        assert_ne!(above.end, expected[2], "the three joints above the toe's end are not the leg");
    }
}
