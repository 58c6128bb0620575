//! `pedestrian.glb`: the town's base person, a skinned humanoid 1.77 m tall, in metres; +Y up,
//! origin on the ground between the feet, facing +Z (its left is +X).
//!
//! Its own skeleton, 19 joints: `hips` → `spine` → `chest` → `neck` → `head`; from `chest`,
//! `upper_arm_l` → `forearm_l` → `hand_l` (and `_r`); from `hips`, `thigh_l` → `shin_l` →
//! `foot_l` → `toe_l` (and `_r`). Each body part is a flat-shaded box skinned rigidly to its
//! joint, coloured by its vertices (one primitive, one draw).
//!
//! Clips, all in place (the hips bob but never travel: the game moves the person):
//! - `Walk`: 1.2 m/s at rate 1, a 1.05 s cycle, each foot down 60% of it.
//! - `Run`: 3.0 m/s at rate 1, a 0.72 s cycle, each foot down 38% of it (a flight between).
//! - `Idle`: standing, breathing, looking about (4 s).
//! - `Wait`: standing at the kerb, weight from foot to foot, looking both ways (4 s).
//!
//! While a foot is down its ankle and toe move backwards in a straight line on the ground at the
//! clip's speed, so in the world they stand still: the legs are solved by two-bone IK (the knee
//! bending forward) at each key, the hips lowered where a leg would not reach.

use anyhow::Result;
use glam::{DMat4, DQuat, DVec3};

use super::builder;
use super::shapes::{Geometry, cuboid};
use super::strands::{self, Strand};
use crate::test_models::builder::{GltfBuilder, Interp, Material, Node, Path, Primitive, channel, to_f32};

/// Node names the game looks up (every joint).
pub const NODES: &[&str] = &[
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

/// Clip names.
pub const CLIPS: &[&str] = &["Walk", "Run", "Idle", "Wait"];

/// The joints ([`NODES`] order): parent (an earlier joint) and offset from it at rest, metres.
/// The rest pose stands straight, arms down; no joint is rotated at rest.
const JOINTS: [(Option<usize>, [f64; 3]); 19] = [
    (None, [0.0, HIPS_HEIGHT, 0.0]),
    (Some(HIPS), [0.0, 0.10, 0.0]),
    (Some(1), [0.0, 0.20, 0.0]),
    (Some(CHEST), [0.0, 0.23, 0.0]),
    (Some(3), [0.0, 0.08, 0.0]),
    (Some(CHEST), [SHOULDER_X, 0.19, 0.0]),
    (Some(5), [0.0, -0.28, 0.0]),
    (Some(6), [0.0, -0.25, 0.0]),
    (Some(CHEST), [-SHOULDER_X, 0.19, 0.0]),
    (Some(8), [0.0, -0.28, 0.0]),
    (Some(9), [0.0, -0.25, 0.0]),
    (Some(HIPS), [HIP_X, -HIP_DROP, 0.0]),
    (Some(11), [0.0, -THIGH, 0.0]),
    (Some(12), [0.0, -SHIN, 0.0]),
    (Some(13), [0.0, TOE[1], TOE[2]]),
    (Some(HIPS), [-HIP_X, -HIP_DROP, 0.0]),
    (Some(15), [0.0, -THIGH, 0.0]),
    (Some(16), [0.0, -SHIN, 0.0]),
    (Some(17), [0.0, TOE[1], TOE[2]]),
];
pub(super) const HIPS: usize = 0;
pub(super) const CHEST: usize = 2;
const HEAD: usize = 4;
/// `upper_arm_l`, `forearm_l`, and the right arm's first joint.
const ARMS: [usize; 2] = [5, 8];
/// `thigh_l` and `thigh_r`: each leg is thigh, shin, foot, toe.
pub(super) const LEGS: [usize; 2] = [11, 15];
/// Height of the hips joint at rest, m.
const HIPS_HEIGHT: f64 = 0.95;
/// Shoulder joints' sideways offset, m.
const SHOULDER_X: f64 = 0.21;
/// Hip joints' sideways offset and their drop below the hips joint, m.
const HIP_X: f64 = 0.10;
const HIP_DROP: f64 = 0.05;
/// Thigh and shin lengths, m: the ankle is 7 cm above the ground at rest.
const THIGH: f64 = 0.42;
const SHIN: f64 = 0.41;
/// The ankle's height above the ground, m.
const ANKLE: f64 = HIPS_HEIGHT - HIP_DROP - THIGH - SHIN;
/// The toe (the ball of the foot) from the ankle, m.
const TOE: [f64; 3] = [0.0, -0.05, 0.13];

/// The linear vertex colours of the body's parts.
const SKIN: [f32; 3] = [0.56, 0.34, 0.23];
const SHIRT: [f32; 3] = [0.14, 0.28, 0.6];
const TROUSERS: [f32; 3] = [0.1, 0.1, 0.14];
const SHOES: [f32; 3] = [0.05, 0.04, 0.035];
const HAIR: [f32; 3] = [0.07, 0.045, 0.03];

/// A box of the body: its joint, its corners relative to the joint at rest, its colour.
type Part = (usize, [f64; 3], [f64; 3], [f32; 3]);

/// The boxes of the body.
const PARTS: [Part; 21] = [
    (HIPS, [-0.16, -0.10, -0.10], [0.16, 0.10, 0.10], TROUSERS),
    (1, [-0.15, 0.0, -0.09], [0.15, 0.20, 0.09], SHIRT),
    (CHEST, [-0.18, 0.0, -0.10], [0.18, 0.23, 0.11], SHIRT),
    (3, [-0.05, 0.0, -0.05], [0.05, 0.08, 0.05], SKIN),
    (HEAD, [-0.09, 0.0, -0.10], [0.09, 0.20, 0.10], SKIN),
    (HEAD, [-0.095, 0.14, -0.105], [0.095, 0.21, 0.09], HAIR),
    (HEAD, [-0.015, 0.06, 0.10], [0.015, 0.10, 0.125], SKIN),
    (5, [-0.05, -0.28, -0.05], [0.05, 0.02, 0.05], SHIRT),
    (6, [-0.04, -0.25, -0.04], [0.04, 0.0, 0.04], SKIN),
    (7, [-0.035, -0.17, -0.045], [0.035, 0.0, 0.045], SKIN),
    (8, [-0.05, -0.28, -0.05], [0.05, 0.02, 0.05], SHIRT),
    (9, [-0.04, -0.25, -0.04], [0.04, 0.0, 0.04], SKIN),
    (10, [-0.035, -0.17, -0.045], [0.035, 0.0, 0.045], SKIN),
    (11, [-0.075, -THIGH, -0.075], [0.075, 0.0, 0.075], TROUSERS),
    (12, [-0.06, -SHIN, -0.06], [0.06, 0.0, 0.06], TROUSERS),
    (13, [-0.05, -ANKLE, -0.06], [0.05, 0.03, TOE[2]], SHOES),
    (14, [-0.05, -0.02, 0.0], [0.05, 0.02, 0.07], SHOES),
    (15, [-0.075, -THIGH, -0.075], [0.075, 0.0, 0.075], TROUSERS),
    (16, [-0.06, -SHIN, -0.06], [0.06, 0.0, 0.06], TROUSERS),
    (17, [-0.05, -ANKLE, -0.06], [0.05, 0.03, TOE[2]], SHOES),
    (18, [-0.05, -0.02, 0.0], [0.05, 0.02, 0.07], SHOES),
];

/// One gait's cycle.
struct Gait {
    /// Ground speed at rate 1, m/s.
    speed: f64,
    /// Seconds per cycle (a step of each foot).
    cycle: f64,
    /// The part of the cycle each foot is down.
    stance: f64,
    /// How high a foot is lifted mid-swing, m.
    lift: f64,
    /// The hips' mean height, m, and how far they rise (walk) or sink (run, negative) at
    /// mid-stance.
    hips: (f64, f64),
    /// How far the arms swing forward and back, and how far the elbows bend, degrees.
    arms: (f64, f64),
    /// How far the body leans forward, degrees.
    lean: f64,
    /// Keys per cycle.
    keys: usize,
}

const WALK: Gait = Gait {
    speed: 1.2,
    cycle: 1.05,
    stance: 0.6,
    lift: 0.09,
    hips: (0.875, 0.02),
    arms: (18.0, 14.0),
    lean: 2.0,
    keys: 32,
};
const RUN: Gait = Gait {
    speed: 3.0,
    cycle: 0.72,
    stance: 0.38,
    lift: 0.16,
    hips: (0.83, -0.025),
    arms: (32.0, 75.0),
    lean: 9.0,
    keys: 24,
};
/// Length of the standing clips, seconds, and their keys.
const STANDING: (f64, usize) = (4.0, 24);

/// A pose: the hips' translation and every joint's local rotation.
pub(super) struct Pose {
    pub(super) hips: DVec3,
    pub(super) rotations: [DQuat; 19],
}

impl Pose {
    /// Standing with the hips at `hips`, the feet at rest.
    pub(super) fn standing(hips: DVec3) -> Self {
        let mut pose = Self { hips, rotations: [DQuat::IDENTITY; 19] };
        for (leg, side) in LEGS.into_iter().zip([1.0, -1.0]) {
            pose.leg(leg, DVec3::new(side * HIP_X, ANKLE, 0.0));
        }
        pose
    }

    /// Solves leg `thigh` (thigh, shin, foot) so that its ankle reaches `ankle` (model space,
    /// the hips unrotated), the knee bending forward and the foot flat.
    fn leg(&mut self, thigh: usize, ankle: DVec3) {
        let side = JOINTS[thigh].1[0];
        let hip = self.hips + DVec3::new(side, -HIP_DROP, 0.0);
        let reach = ankle - hip;
        let distance = reach.length().clamp(THIGH - SHIN + 1e-6, THIGH + SHIN - 1e-9);
        let along = reach.normalize();
        let pole = (DVec3::Z - along * along.dot(DVec3::Z)).normalize();
        let cos = ((THIGH * THIGH + distance * distance - SHIN * SHIN) / (2.0 * THIGH * distance)).clamp(-1.0, 1.0);
        let knee = hip + THIGH * (along * cos + pole * (1.0 - cos * cos).sqrt());
        let end = hip + along * distance;
        let thigh_world = DQuat::from_rotation_arc(DVec3::NEG_Y, (knee - hip).normalize());
        let shin_world = DQuat::from_rotation_arc(DVec3::NEG_Y, (end - knee).normalize());
        self.rotations[thigh] = thigh_world;
        self.rotations[thigh + 1] = thigh_world.inverse() * shin_world;
        self.rotations[thigh + 2] = shin_world.inverse();
    }

    /// Sets the arms: swung forward by `swing` degrees (the left; the right opposite), elbows
    /// bent by `elbow`, held slightly out from the body.
    fn arms(&mut self, swing: f64, elbow: f64) {
        for (arm, side) in ARMS.into_iter().zip([1.0, -1.0]) {
            let out = DQuat::from_rotation_z((side * 5.0_f64).to_radians());
            self.rotations[arm] = out * DQuat::from_rotation_x((-side * swing).to_radians());
            self.rotations[arm + 1] = DQuat::from_rotation_x((-elbow).to_radians());
        }
    }

    /// Turns the chest by `twist` degrees about Y and leans the spine forward by `lean`; the
    /// head looks `look` degrees to the left of where the chest faces.
    fn upper_body(&mut self, twist: f64, lean: f64, look: f64) {
        self.rotations[1] = DQuat::from_rotation_x(lean.to_radians());
        self.rotations[CHEST] = DQuat::from_rotation_y(twist.to_radians());
        self.rotations[HEAD] =
            DQuat::from_rotation_y((look - twist).to_radians()) * DQuat::from_rotation_x(-lean.to_radians());
    }
}

/// Where a foot is at `phase` of `gait`'s cycle (0 at its landing), relative to its place at
/// rest: forward and up, m.
fn foot(gait: &Gait, phase: f64) -> (f64, f64) {
    let step = gait.speed * gait.cycle * gait.stance;
    if phase < gait.stance {
        return (step * (0.5 - phase / gait.stance), 0.0);
    }
    let swing = (phase - gait.stance) / (1.0 - gait.stance);
    let eased = swing * swing * (3.0 - 2.0 * swing);
    (step * (eased - 0.5), gait.lift * (std::f64::consts::PI * swing).sin())
}

/// `gait` at `phase` of its cycle: the left foot lands at 0, the right at a half.
fn gait_pose(gait: &Gait, phase: f64) -> Pose {
    let feet = [phase, (phase + 0.5).fract()].map(|p| foot(gait, p));
    let bob = (4.0 * std::f64::consts::PI * (phase - gait.stance * 0.5)).cos();
    // Lowered where a planted leg would not reach its foot.
    let reach = THIGH + SHIN - 0.004;
    let height = feet.iter().fold(gait.hips.0 + gait.hips.1 * bob, |height, &(forward, up)| {
        let planted = up == 0.0;
        let highest = HIP_DROP + ANKLE + (reach * reach - forward * forward).max(0.0).sqrt();
        if planted { height.min(highest) } else { height }
    });
    let mut pose = Pose { hips: DVec3::new(0.0, height, 0.0), rotations: [DQuat::IDENTITY; 19] };
    for ((leg, side), (forward, up)) in LEGS.into_iter().zip([1.0, -1.0]).zip(feet) {
        pose.leg(leg, DVec3::new(side * HIP_X, ANKLE + up, forward));
    }
    // The left arm swings back as the left foot lands, with the chest's turn.
    let swing = -(std::f64::consts::TAU * phase).cos();
    pose.arms(gait.arms.0 * swing, gait.arms.1);
    pose.upper_body(-4.0 * swing, gait.lean, 0.0);
    pose
}

/// Standing at `time` of `clip` (`Idle` or `Wait`), over [`STANDING`]'s length.
fn standing_pose(waiting: bool, time: f64) -> Pose {
    let turn = std::f64::consts::TAU * time / STANDING.0;
    let (sway, look, breath) = match waiting {
        // From foot to foot, looking left and right along the kerb.
        true => (0.035 * turn.sin(), 35.0 * (turn + 0.6).sin(), 0.6 * (2.0 * turn).sin()),
        false => (0.0, 12.0 * turn.sin(), 1.2 * (2.0 * turn).sin()),
    };
    let mut pose = Pose::standing(DVec3::new(sway, HIPS_HEIGHT - 0.012 - 0.004 * (2.0 * turn).cos(), 0.0));
    let elbow = if waiting { 35.0 } else { 8.0 };
    pose.arms(1.5 * turn.sin(), elbow);
    pose.upper_body(-sway * 60.0, breath, look);
    pose
}

/// The same body on another rig: its joints' names, its size, its units and how it stands at
/// rest (for the retargeting tests: a modder's humanoid without clips).
pub struct Variant {
    /// The file stem.
    pub stem: &'static str,
    /// The root node's name.
    pub root: &'static str,
    /// The joints' names, in [`NODES`]' order.
    pub names: [&'static str; 19],
    /// How much taller than the base person.
    pub size: f64,
    /// Model units per metre (100: centimetres under a root scaled by 0.01, as Mixamo's
    /// armatures are).
    pub units: f64,
    /// How far the arms are out from hanging at rest, radians (an A-pose's some, a T-pose's a
    /// right angle).
    pub arms: f64,
    /// Joints hung from another joint than the base person's, where they stand: (joint, its
    /// parent), as 3ds Max's Biped hangs the thighs from the spine.
    pub reparented: &'static [(usize, usize)],
    /// Nodes of no person's bone between a joint and those below it, at the joint above:
    /// (name, the joint above, the joints below), as Character Creator's pelvis between its
    /// hip and its thighs. Joints of the skin that move no vertex.
    pub inserted: &'static [(&'static str, usize, &'static [usize])],
}

/// The base person.
const BASE: Variant = Variant {
    stem: "pedestrian",
    root: "pedestrian",
    names: [""; 19],
    size: 1.0,
    units: 1.0,
    arms: 0.0,
    reparented: &[],
    inserted: &[],
};

/// How each joint's arm turns its chain at rest: out from hanging by `arms` radians, each
/// side away from the body (none but for the arms).
fn arm_turn(joint: usize, arms: f64) -> DQuat {
    match joint {
        5..=7 => DQuat::from_rotation_z(arms),
        8..=10 => DQuat::from_rotation_z(-arms),
        _ => DQuat::IDENTITY,
    }
}

/// The joints' rest offsets from their parents (model units) of `variant` (a joint it hangs
/// from another parent where it stands).
pub(super) fn offsets(variant: &Variant) -> [(Option<usize>, DVec3); 19] {
    let scale = variant.size * variant.units;
    let mut offsets: [(Option<usize>, DVec3); 19] = std::array::from_fn(|j| {
        let (parent, offset) = JOINTS[j];
        // An arm's chain turns below its shoulder; the shoulder stays where it is.
        let turn = if matches!(j, 6 | 7 | 9 | 10) { arm_turn(j, variant.arms) } else { DQuat::IDENTITY };
        (parent, turn * DVec3::from(offset) * scale)
    });
    let at: Vec<DVec3> = offsets
        .iter()
        .scan(Vec::new(), |seen: &mut Vec<DVec3>, &(parent, offset)| {
            let at = parent.map_or(DVec3::ZERO, |p| seen[p]) + offset;
            seen.push(at);
            Some(at)
        })
        .collect();
    for &(joint, parent) in variant.reparented {
        offsets[joint] = (Some(parent), at[joint] - at[parent]);
    }
    offsets
}

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let (mut b, joints, _) = skinned(&BASE, NODES, &[])?;
    for gait in [&WALK, &RUN] {
        let poses: Vec<(f64, Pose)> = (0..=gait.keys)
            .map(|k| {
                let phase = k as f64 / gait.keys as f64;
                (phase * gait.cycle, gait_pose(gait, phase.fract()))
            })
            .collect();
        clip(&mut b, &joints, if gait.speed < 2.0 { "Walk" } else { "Run" }, &poses)?;
    }
    for (name, waiting) in [("Idle", false), ("Wait", true)] {
        let poses: Vec<(f64, Pose)> = (0..=STANDING.1)
            .map(|k| {
                let time = STANDING.0 * k as f64 / STANDING.1 as f64;
                (time, standing_pose(waiting, time % STANDING.0))
            })
            .collect();
        clip(&mut b, &joints, name, &poses)?;
    }
    Ok(b)
}

/// `variant`'s humanoid, without clips, with `strands` hung from its joints; returns its
/// joints' nodes and each strand's beside the builder.
pub fn build_variant(variant: &Variant, strands: &[Strand]) -> Result<(GltfBuilder, Vec<usize>, Vec<Vec<usize>>)> {
    skinned(variant, &variant.names, strands)
}

/// The body skinned to `variant`'s skeleton of joints named `names`, and `strands` hung from
/// them; returns the joints' node indices and each strand's beside the builder.
fn skinned(
    variant: &Variant,
    names: &[&str],
    strands: &[Strand],
) -> Result<(GltfBuilder, Vec<usize>, Vec<Vec<usize>>)> {
    let mut b = builder();
    let white = b.material(&Material::new("body", [1.0, 1.0, 1.0, 1.0], 0.85));
    let offsets = offsets(variant);
    let world: Vec<DVec3> = offsets
        .iter()
        .scan(Vec::new(), |seen: &mut Vec<DVec3>, &(parent, offset)| {
            let at = parent.map_or(DVec3::ZERO, |p| seen[p]) + offset / variant.units;
            seen.push(at);
            Some(at)
        })
        .collect();
    let body = body(&mut b, (&world, variant), white)?;
    let mut root = Node::named(variant.root);
    if variant.units != 1.0 {
        root = root.s(to_f32([1.0 / variant.units; 3]));
    }
    let root = b.node(root);
    let mut joints = Vec::with_capacity(offsets.len());
    // The nodes between joints ([`Variant::inserted`]), each made after the joint above it.
    let mut between: Vec<(usize, &[usize])> = Vec::new();
    for (j, (name, &(parent, offset))) in names.iter().zip(&offsets).enumerate() {
        let node = b.node(Node::named(name).t(to_f32(offset.to_array())));
        let above = between.iter().find(|(_, below)| below.contains(&j)).map(|&(node, _)| node);
        b.add_child(above.or(parent.map(|p| joints[p])).unwrap_or(root), node)?;
        joints.push(node);
        for &(name, _, below) in variant.inserted.iter().filter(|(_, at, _)| *at == j) {
            let inserted = b.node(Node::named(name));
            b.add_child(node, inserted)?;
            between.push((inserted, below));
        }
    }
    let mut skinned = joints.clone();
    skinned.extend(between.iter().map(|&(node, _)| node));
    let (mut chains, mut strand_mesh) = (Vec::new(), None);
    if !strands.is_empty() {
        let hair = b.material(&Material::new("hair", [HAIR[0], HAIR[1], HAIR[2], 1.0], 0.9));
        let sizes = (variant.size, variant.units, hair);
        (chains, strand_mesh) = strands::add(&mut b, strands, (&mut skinned, &world), sizes)?;
    }
    let skin = b.skin(&skinned, Some(root))?;
    // A root of its own: a skinned mesh is placed by its joints, not by a parent.
    b.node(Node::named("body").mesh(body).skin(skin));
    if let Some(strands) = strand_mesh {
        b.node(Node::named("strands").mesh(strands).skin(skin));
    }
    Ok((b, joints, chains))
}

/// Adds clip `name` keying `poses` (time, pose) LINEARly: the hips' translation and the
/// rotation of every joint that moves in it.
pub(super) fn clip(b: &mut GltfBuilder, joints: &[usize], name: &str, poses: &[(f64, Pose)]) -> Result<()> {
    let times: Vec<f32> = poses.iter().map(|(t, _)| *t as f32).collect();
    let input = b.times(&times)?;
    let hips: Vec<[f32; 3]> = poses.iter().map(|(_, p)| to_f32(p.hips.to_array())).collect();
    let mut channels = vec![channel(joints[HIPS], Path::Translation, Interp::Linear, input, b.data(&hips, false)?)];
    for (j, &node) in joints.iter().enumerate() {
        // Each key on the hemisphere of the one before, so LINEAR keys take the short way.
        let mut keys: Vec<DQuat> = Vec::with_capacity(poses.len());
        for (_, pose) in poses {
            let q = pose.rotations[j].normalize();
            let q = if keys.last().is_some_and(|last: &DQuat| last.dot(q) < 0.0) { -q } else { q };
            keys.push(q);
        }
        if keys.iter().all(|q| q.abs_diff_eq(DQuat::IDENTITY, 1e-9)) {
            continue;
        }
        let keys: Vec<[f32; 4]> = keys.iter().map(|q| to_f32(q.to_array())).collect();
        channels.push(channel(node, Path::Rotation, Interp::Linear, input, b.data(&keys, false)?));
    }
    b.animation(name, &channels);
    Ok(())
}

/// The body: [`PARTS`]' boxes at their joints' rest places (`world`, metres), sized and
/// turned as `variant`'s, one primitive skinned rigidly (each vertex wholly its part's joint)
/// and coloured by its vertices.
fn body(b: &mut GltfBuilder, (world, variant): (&[DVec3], &Variant), material: usize) -> Result<usize> {
    let mut geometry = Geometry::default();
    let (mut colours, mut joints) = (Vec::new(), Vec::new());
    for &(joint, min, max, colour) in &PARTS {
        let at = world[joint];
        let place = DMat4::from_translation(at)
            * DMat4::from_quat(arm_turn(joint, variant.arms))
            * DMat4::from_scale(DVec3::splat(variant.size));
        let part = cuboid(min, max).transformed(&place.to_cols_array());
        let [r, g, bl] = colour.map(|c| (c * 255.0).round() as u8);
        colours.extend(std::iter::repeat_n([r, g, bl, 255], part.positions.len()));
        joints.extend(std::iter::repeat_n([joint as u8, 0, 0, 0], part.positions.len()));
        geometry.append(&part);
    }
    let positions: Vec<[f32; 3]> = geometry.positions.iter().map(|p| to_f32(*p)).collect();
    let normals: Vec<[f32; 3]> = geometry.normals.iter().map(|n| to_f32(*n)).collect();
    let indices = geometry.indices.iter().map(|&i| u16::try_from(i)).collect::<Result<Vec<u16>, _>>()?;
    let weights = vec![[255u8, 0, 0, 0]; positions.len()];
    let primitive = Primitive::new(b.positions(&positions)?)
        .attr("NORMAL", b.vertex(&normals, false)?)
        .attr("COLOR_0", b.vertex(&colours, true)?)
        .attr("JOINTS_0", b.vertex(&joints, false)?)
        .attr("WEIGHTS_0", b.vertex(&weights, true)?)
        .indices(b.indices(&indices)?)
        .material(material);
    Ok(b.mesh("body", &[primitive], None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every planted foot of the gaits is where it should be at each key: in line, on the
    /// ground, moving backwards at the gait's speed; the legs are never stretched past their
    /// length.
    #[test]
    fn planted_feet_follow_the_ground_at_the_gaits_speed() {
        for gait in [&WALK, &RUN] {
            for k in 0..gait.keys {
                let phase = k as f64 / gait.keys as f64;
                let pose = gait_pose(gait, phase);
                for (leg, p) in LEGS.into_iter().zip([phase, (phase + 0.5).fract()]) {
                    let (forward, up) = foot(gait, p);
                    let ankle = forward_kinematics(&pose, leg + 2);
                    let expected = DVec3::new(JOINTS[leg].1[0], ANKLE + up, forward);
                    assert!(ankle.distance(expected) < 1e-6, "{phase}: ankle {ankle} against {expected}");
                    let toe = forward_kinematics(&pose, leg + 3);
                    assert!((toe.y - (ANKLE + TOE[1] + up)).abs() < 1e-6, "the foot is flat");
                }
            }
        }
    }

    /// The model-space position of joint `joint` in `pose`.
    fn forward_kinematics(pose: &Pose, joint: usize) -> DVec3 {
        let mut chain = vec![joint];
        while let Some(parent) = JOINTS[*chain.last().unwrap_or(&0)].0 {
            chain.push(parent);
        }
        let (mut at, mut rotation) = (DVec3::ZERO, DQuat::IDENTITY);
        for &j in chain.iter().rev() {
            let offset = if j == HIPS { pose.hips } else { DVec3::from(JOINTS[j].1) };
            at += rotation * offset;
            rotation *= pose.rotations[j];
        }
        at
    }
}
