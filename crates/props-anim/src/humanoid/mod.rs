//! Humanoids: which node of a rig is each bone of a person ([`BoneMap`], found from the
//! names the common rigs use, or given), and clips retargeted from one humanoid to another
//! ([`retarget`]), so that any humanoid a modder brings walks with another's clips.
//!
//! Names are matched whole, case- and separator-blind, per convention, and the convention
//! matching most bones wins: this project's own (`hips`, `thigh_l`, ...), Mixamo's
//! (`mixamorig:Hips`, `LeftUpLeg`, ...), Blender's human metarig and Rigify's deform bones
//! (`spine`, `thigh.L`, `DEF-shin.L`, ...), VRoid's VRM (`J_Bip_C_Hips`, ...), Unreal's
//! mannequin (`pelvis`, `calf_l`, ...), 3ds Max's Biped (`Bip01 L Thigh`, `Bip001 Pelvis`,
//! ...), Character Creator's (`CC_Base_L_Calf`, ...) and Daz's Genesis (`lThighBend`, ...).
//!
//! Retargeting matches bones by direction: each mapped bone of the target turns in the world
//! as the source's does from its rest, after a correction that first turns the target's bone
//! (towards its next mapped bone) along the source's at rest. So rigs whose rest poses differ
//! (an A-pose and a T-pose, bones with rotated rests) move alike, and a clip taken from A to
//! B and back to A is A's again. The hips' travel is scaled by the ratio of the legs'
//! lengths.

mod bone_map;

use glam::{Affine3A, Quat, Vec3};

use crate::clip::interpolate::Interpolation;
use crate::clip::{Channel, Clip, ClipError, Keyframes};
pub use bone_map::{BoneMap, BoneMapError};

use crate::{Model, NodeId, Pose, Rig};

/// A bone of a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bone {
    /// The pelvis: the skeleton's root, carrying the legs and the spine.
    Hips,
    /// The lower spine.
    Spine,
    /// The upper spine, which the arms hang from.
    Chest,
    /// The neck.
    Neck,
    /// The head.
    Head,
    /// The left upper arm (the person's left).
    LeftUpperArm,
    /// The left forearm.
    LeftLowerArm,
    /// The left hand.
    LeftHand,
    /// The right upper arm.
    RightUpperArm,
    /// The right forearm.
    RightLowerArm,
    /// The right hand.
    RightHand,
    /// The left thigh.
    LeftUpperLeg,
    /// The left shin.
    LeftLowerLeg,
    /// The left foot (at the ankle).
    LeftFoot,
    /// The left toes (at the ball of the foot).
    LeftToes,
    /// The right thigh.
    RightUpperLeg,
    /// The right shin.
    RightLowerLeg,
    /// The right foot.
    RightFoot,
    /// The right toes.
    RightToes,
}

/// Every bone, parents before children.
pub const BONES: [Bone; 19] = [
    Bone::Hips,
    Bone::Spine,
    Bone::Chest,
    Bone::Neck,
    Bone::Head,
    Bone::LeftUpperArm,
    Bone::LeftLowerArm,
    Bone::LeftHand,
    Bone::RightUpperArm,
    Bone::RightLowerArm,
    Bone::RightHand,
    Bone::LeftUpperLeg,
    Bone::LeftLowerLeg,
    Bone::LeftFoot,
    Bone::LeftToes,
    Bone::RightUpperLeg,
    Bone::RightLowerLeg,
    Bone::RightFoot,
    Bone::RightToes,
];

/// Whether `name` is one of VRM's humanoid bones that no [`Bone`] is (the upper chest, the
/// shoulders, eyes, jaw and fingers, in VRM 1.0's names or 0.x's): a table may name them, and
/// they keep their rest pose.
#[must_use]
pub fn is_other_vrm_bone(name: &str) -> bool {
    let side = name.strip_prefix("left").or_else(|| name.strip_prefix("right"));
    let finger = side.and_then(|rest| {
        ["Thumb", "Index", "Middle", "Ring", "Little"].iter().find_map(|finger| rest.strip_prefix(finger))
    });
    matches!(name, "upperChest" | "jaw" | "leftEye" | "rightEye" | "leftShoulder" | "rightShoulder")
        || finger.is_some_and(|joint| matches!(joint, "Metacarpal" | "Proximal" | "Intermediate" | "Distal"))
}

impl Bone {
    /// Its name, as a sidecar's `[humanoid]` table and the reports write it (VRM's).
    #[must_use]
    pub fn name(self) -> &'static str {
        [
            "hips",
            "spine",
            "chest",
            "neck",
            "head",
            "leftUpperArm",
            "leftLowerArm",
            "leftHand",
            "rightUpperArm",
            "rightLowerArm",
            "rightHand",
            "leftUpperLeg",
            "leftLowerLeg",
            "leftFoot",
            "leftToes",
            "rightUpperLeg",
            "rightLowerLeg",
            "rightFoot",
            "rightToes",
        ][self as usize]
    }

    /// The bone whose joint it points towards, if any: its direction at rest is what the
    /// retargeting lines up.
    fn next(self) -> Option<Self> {
        let next = [
            Some(Self::Spine),
            Some(Self::Chest),
            Some(Self::Neck),
            Some(Self::Head),
            None,
            Some(Self::LeftLowerArm),
            Some(Self::LeftHand),
            None,
            Some(Self::RightLowerArm),
            Some(Self::RightHand),
            None,
            Some(Self::LeftLowerLeg),
            Some(Self::LeftFoot),
            Some(Self::LeftToes),
            None,
            Some(Self::RightLowerLeg),
            Some(Self::RightFoot),
            Some(Self::RightToes),
            None,
        ];
        next[self as usize]
    }

    /// The bone before it in its chain (whose correction an end bone shares), if any.
    pub(super) fn previous(self) -> Option<Self> {
        BONES.iter().copied().find(|b| b.next() == Some(self))
    }
}

/// The bones the legs need to walk: hips, thighs, shins and feet.
pub(super) const WALKING: [Bone; 7] = [
    Bone::Hips,
    Bone::LeftUpperLeg,
    Bone::LeftLowerLeg,
    Bone::LeftFoot,
    Bone::RightUpperLeg,
    Bone::RightLowerLeg,
    Bone::RightFoot,
];

/// Why a clip cannot be retargeted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RetargetError {
    /// One of the two rigs cannot walk ([`BoneMap::walks`]).
    #[error("the {0} rig lacks the hips, thighs, shins or feet")]
    NotWalking(&'static str),
    /// No such clip.
    #[error("the source has no clip {0}")]
    NoClip(usize),
    /// A channel of the retargeted clip is invalid (a mapped node is a matrix node).
    #[error("retargeted channel {0}: {1}")]
    Channel(usize, ClipError),
}

/// `to` with the clips `clips` of `from` (indices) retargeted to its rig ([`retarget`]) and
/// added after its own; returns it and the added clips' indices, in order.
pub fn with_clips_from(
    to: (&Model, &BoneMap),
    from: (&Model, &BoneMap),
    clips: &[usize],
) -> Result<(Model, Vec<usize>), RetargetError> {
    let retargeted = clips.iter().map(|&clip| retarget(from, clip, to)).collect::<Result<Vec<_>, _>>()?;
    let first = to.0.clips().len();
    Ok((to.0.with_clips(retargeted), (first..first + clips.len()).collect()))
}

/// Keys a second of retargeted clip.
pub const RETARGET_RATE: f32 = 30.0;

/// Most keys of one retargeted clip: one longer than two minutes (or a file's clip whose last
/// key is at a billion seconds) is sampled less often, not for ever.
const MAX_RETARGET_SAMPLES: f32 = 3600.0;

/// A rig at rest: each node's world matrix.
pub(super) fn rest_world(rig: &Rig) -> Vec<Affine3A> {
    let mut pose = Pose::from_rest(rig);
    pose.compute_world(rig);
    pose.world_matrices().to_vec()
}

fn rotation(m: &Affine3A) -> Quat {
    m.to_scale_rotation_translation().1.normalize()
}

fn position(m: &Affine3A) -> Vec3 {
    m.translation.into()
}

/// The length of the left leg (hip to knee to ankle) at rest, model units.
fn leg_length(map: &BoneMap, world: &[Affine3A]) -> f32 {
    let at = |b: Bone| map.get(b).map_or(Vec3::ZERO, |n| position(&world[n.index()]));
    at(Bone::LeftUpperLeg).distance(at(Bone::LeftLowerLeg)) + at(Bone::LeftLowerLeg).distance(at(Bone::LeftFoot))
}

/// Clip `clip` of `from` (mapped by its bone map) retargeted to the rig of `to` (by its), keyed
/// [`RETARGET_RATE`] times a second, LINEAR: a rotation channel for every bone both map, and
/// the hips' translation (their travel and bob scaled by the legs' lengths).
pub fn retarget(from: (&Model, &BoneMap), clip: usize, to: (&Model, &BoneMap)) -> Result<Clip, RetargetError> {
    let ((source, source_map), (target, target_map)) = (from, to);
    if !source_map.walks() {
        return Err(RetargetError::NotWalking("source"));
    }
    if !target_map.walks() {
        return Err(RetargetError::NotWalking("target"));
    }
    let original = source.clips().get(clip).ok_or(RetargetError::NoClip(clip))?;
    let (source_rig, target_rig) = (source.rig(), target.rig());
    let (source_rest, target_rest) = (rest_world(source_rig), rest_world(target_rig));
    let both: Vec<(Bone, NodeId, NodeId)> =
        BONES.iter().filter_map(|&b| Some((b, source_map.get(b)?, target_map.get(b)?))).collect();
    // Per bone: what turns the target's bone along the source's at rest.
    let direction = |map: &BoneMap, rest: &[Affine3A], b: Bone| {
        let next = b.next().and_then(|n| map.get(n))?;
        (position(&rest[next.index()]) - position(&rest[map.get(b)?.index()])).try_normalize()
    };
    let correction = |b: Bone| {
        let own = |b: Bone| {
            let (t, s) = (direction(target_map, &target_rest, b)?, direction(source_map, &source_rest, b)?);
            Some(Quat::from_rotation_arc(t, s))
        };
        own(b).or_else(|| b.previous().and_then(own)).unwrap_or(Quat::IDENTITY)
    };
    let corrections: Vec<Quat> = both.iter().map(|&(b, ..)| correction(b)).collect();
    let scale = leg_length(target_map, &target_rest) / leg_length(source_map, &source_rest).max(f32::EPSILON);
    let (source_hips, target_hips) = (source_map.get(Bone::Hips), target_map.get(Bone::Hips));
    let (source_hips, target_hips) = (source_hips.unwrap_or(NodeId(0)), target_hips.unwrap_or(NodeId(0)));
    let hips_parent = target_rig.parent(target_hips).map_or(Affine3A::IDENTITY, |p| target_rest[p.index()]);

    let samples = (original.duration() * RETARGET_RATE).ceil().clamp(1.0, MAX_RETARGET_SAMPLES) as usize;
    // A still clip (one key, or keys all at 0) is one pose: one key.
    let times: Vec<f32> = match original.duration() > 0.0 {
        true => (0..=samples).map(|k| original.duration() * k as f32 / samples as f32).collect(),
        false => vec![0.0],
    };
    let mut pose = Pose::from_rest(source_rig);
    let mut rotations: Vec<Vec<Quat>> = vec![Vec::with_capacity(times.len()); both.len()];
    let mut hips = Vec::with_capacity(times.len());
    let mut world = vec![Quat::IDENTITY; target_rig.len()];
    for &time in &times {
        pose.return_to_rest(source_rig);
        original.sample(time, &mut pose);
        pose.compute_world(source_rig);
        let mut turned = vec![None; target_rig.len()];
        for (k, &(_, s, t)) in both.iter().enumerate() {
            let delta = rotation(&pose.world_matrix(s)) * rotation(&source_rest[s.index()]).inverse();
            turned[t.index()] = Some((delta * corrections[k] * rotation(&target_rest[t.index()])).normalize());
        }
        // Parents first: each mapped bone's local rotation under its parent as retargeted.
        for node in target_rig.nodes() {
            let parent = target_rig.parent(node).map_or(Quat::IDENTITY, |p| world[p.index()]);
            world[node.index()] =
                turned[node.index()].unwrap_or_else(|| parent * rotation(&target_rig.rest_matrix(node)));
        }
        for (k, &(_, _, t)) in both.iter().enumerate() {
            let parent = target_rig.parent(t).map_or(Quat::IDENTITY, |p| world[p.index()]);
            let local = (parent.inverse() * world[t.index()]).normalize();
            let last = rotations[k].last().copied();
            rotations[k].push(if last.is_some_and(|q: Quat| q.dot(local) < 0.0) { -local } else { local });
        }
        let travel = position(&pose.world_matrix(source_hips)) - position(&source_rest[source_hips.index()]);
        let placed = position(&target_rest[target_hips.index()]) + travel * scale;
        hips.push(hips_parent.inverse().transform_point3(placed));
    }
    let mut channels = vec![
        Channel::new(target_hips, Interpolation::Linear, times.clone(), Keyframes::Translation(hips))
            .map_err(|e| RetargetError::Channel(0, e))?,
    ];
    for (k, (&(_, _, t), keys)) in both.iter().zip(rotations).enumerate() {
        let channel = Channel::new(t, Interpolation::Linear, times.clone(), Keyframes::Rotation(keys));
        channels.push(channel.map_err(|e| RetargetError::Channel(k + 1, e))?);
    }
    Clip::new(original.name().map(str::to_owned), channels, target_rig).map_err(|(k, e)| RetargetError::Channel(k, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_s_previous_bone() {
        assert_eq!(Bone::LeftToes.previous(), Some(Bone::LeftFoot));
        assert_eq!(Bone::Hips.previous(), None);
    }
}
