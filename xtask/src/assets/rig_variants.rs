//! The base person's body on other rigs ([`Variant`]s): other names, sizes, units, rest poses and
//! hierarchies, on which the retargeting is tested (`cargo xtask gen-humanoids`).

use super::pedestrian::{CHEST, HIPS, LEGS, Variant};

/// Mixamo's names, 1.9 m tall, in centimetres, in a T-pose.
pub const MIXAMO: Variant = Variant {
    stem: "mixamo_person",
    root: "Armature",
    names: [
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
    ],
    size: 1.9 / 1.77,
    units: 100.0,
    arms: std::f64::consts::FRAC_PI_2,
    reparented: &[],
    inserted: &[],
};

/// Blender's human metarig names, 1.6 m tall, in metres, in an A-pose.
pub const METARIG: Variant = Variant {
    stem: "metarig_person",
    root: "metarig",
    names: [
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
    ],
    size: 1.6 / 1.77,
    units: 1.0,
    arms: 0.6,
    reparented: &[],
    inserted: &[],
};

/// Blender's default bone names (which no convention knows: the file's VRM table names the
/// bones, [`super::humanoids`]), 1.5 m tall, in metres, in a slight A-pose.
pub const VRM0: Variant = Variant {
    stem: "vrm0_person",
    root: "Armature",
    names: [
        "Bone", "Bone.001", "Bone.002", "Bone.003", "Bone.004", "Bone.005", "Bone.006", "Bone.007", "Bone.008",
        "Bone.009", "Bone.010", "Bone.011", "Bone.012", "Bone.013", "Bone.014", "Bone.015", "Bone.016", "Bone.017",
        "Bone.018",
    ],
    size: 1.5 / 1.77,
    units: 1.0,
    arms: 0.3,
    reparented: &[],
    inserted: &[],
};

/// 3ds Max's Biped names, 1.8 m tall, in metres, in its T-pose (figure mode): under its centre
/// of mass `Bip01`, the thighs hang from the spine's first link and the arms from the neck
/// through the collarbones, and a second spine link lies between the first and the chest.
pub const BIPED: Variant = Variant {
    stem: "biped_person",
    root: "Bip01",
    names: [
        "Bip01 Pelvis",
        "Bip01 Spine",
        "Bip01 Spine2",
        "Bip01 Neck",
        "Bip01 Head",
        "Bip01 L UpperArm",
        "Bip01 L Forearm",
        "Bip01 L Hand",
        "Bip01 R UpperArm",
        "Bip01 R Forearm",
        "Bip01 R Hand",
        "Bip01 L Thigh",
        "Bip01 L Calf",
        "Bip01 L Foot",
        "Bip01 L Toe0",
        "Bip01 R Thigh",
        "Bip01 R Calf",
        "Bip01 R Foot",
        "Bip01 R Toe0",
    ],
    size: 1.8 / 1.77,
    units: 1.0,
    arms: std::f64::consts::FRAC_PI_2,
    reparented: &[(5, 3), (8, 3), (LEGS[0], 1), (LEGS[1], 1)],
    inserted: &[("Bip01 Spine1", 1, &[2]), ("Bip01 L Clavicle", 3, &[5]), ("Bip01 R Clavicle", 3, &[8])],
};

/// Character Creator's names (`CC_Base_`), 1.7 m tall, in centimetres under a root scaled by
/// 0.01, in an A-pose: a pelvis between the hip and the thighs, a first spine link between
/// the waist and the chest, collarbones between the chest and the arms.
pub const CHARACTER_CREATOR: Variant = Variant {
    stem: "cc_person",
    root: "CC_Base_BoneRoot",
    names: [
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
    ],
    size: 1.7 / 1.77,
    units: 100.0,
    arms: 0.8,
    reparented: &[],
    inserted: &[
        ("CC_Base_Pelvis", HIPS, &LEGS),
        ("CC_Base_Spine01", 1, &[CHEST]),
        ("CC_Base_L_Clavicle", CHEST, &[5]),
        ("CC_Base_R_Clavicle", CHEST, &[8]),
    ],
};
