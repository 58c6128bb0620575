//! Analytic two-bone inverse kinematics: a leg's hip and knee turned so that its ankle reaches
//! a point, the knee bending in the plane the clip bends it in (its pole is the clip's own
//! knee), and feet held where they were put while planted ([`Planting`]).

use glam::{Affine3A, Quat, Vec2, Vec3};

use crate::humanoid::{Bone, BoneMap};
use crate::{NodeId, Pose, Rig};

/// A leg: three joints, each above the next (the hip the knee's ancestor, the knee the
/// ankle's), and the joint its body hangs from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leg {
    /// The hip: turned to place the knee.
    pub upper: NodeId,
    /// The knee: turned to place the ankle.
    pub mid: NodeId,
    /// The ankle: the joint that reaches.
    pub end: NodeId,
    /// The joint the whole body hangs from, lowered when a leg cannot reach its pin: a
    /// person's hips, however many joints lie between them and the thigh (3ds Max's Biped
    /// hangs its thighs from the spine, Character Creator's from a pelvis beside the waist:
    /// lowering those would leave the pelvis or the torso behind); else the hip's parent (the
    /// hip itself at the rig's root).
    pub body: NodeId,
}

impl Leg {
    /// The leg above `foot` (its ankle the foot's parent, then the knee and the hip, its body
    /// the hip's parent), or `None` when the chain above it is shorter.
    #[must_use]
    pub fn above(rig: &Rig, foot: NodeId) -> Option<Self> {
        let end = rig.parent(foot)?;
        let mid = rig.parent(end)?;
        let upper = rig.parent(mid)?;
        Some(Self { upper, mid, end, body: rig.parent(upper).unwrap_or(upper) })
    }

    /// The leg `foot` (the lowest joint of a leg chain, as [`super::stride`] finds it) ends:
    /// on a person's skeleton ([`BoneMap`]), the thigh, shin and foot of its side, however many
    /// toe joints hang below (Mixamo's `ToeBase` and `Toe_End`), its body the hips above the
    /// thigh; else [`Leg::above`].
    #[must_use]
    pub fn of(rig: &Rig, map: &BoneMap, foot: NodeId) -> Option<Self> {
        let above = |node: NodeId| std::iter::successors(rig.parent(node), |&n| rig.parent(n));
        let below = |ankle: NodeId| std::iter::once(foot).chain(above(foot)).any(|n| n == ankle);
        let side = |[upper, mid, end]: [Bone; 3]| {
            let (upper, mid, end) = (map.get(upper)?, map.get(mid)?, map.get(end)?);
            let hips = map.get(Bone::Hips).filter(|&hips| above(upper).any(|n| n == hips));
            let body = hips.or_else(|| rig.parent(upper)).unwrap_or(upper);
            below(end).then_some(Self { upper, mid, end, body })
        };
        side([Bone::LeftUpperLeg, Bone::LeftLowerLeg, Bone::LeftFoot])
            .or_else(|| side([Bone::RightUpperLeg, Bone::RightLowerLeg, Bone::RightFoot]))
            .or_else(|| Self::above(rig, foot))
    }
}

/// Turns `leg`'s hip and knee in `pose` so that its ankle reaches `target` (model space) as
/// near as the leg's length allows, the knee bending towards where the pose has it (a leg the
/// pose holds straight, or all but straight, bends towards its toes: a twentieth of the thigh's
/// length of bend outweighs them); the ankle keeps the orientation the pose gives it (the foot
/// below it lies as the clip lays it). The pose's world matrices must be current; they are
/// recomputed.
pub fn reach(pose: &mut Pose, rig: &Rig, leg: Leg, target: Vec3) {
    reach_tilted(pose, rig, leg, (target, Quat::IDENTITY));
}

/// [`reach`], the ankle then turned by `tilt` (model space, about itself) from the orientation
/// the pose gives it: a foot laid on a slope.
fn reach_tilted(pose: &mut Pose, rig: &Rig, leg: Leg, (target, tilt): (Vec3, Quat)) {
    let foot = tilt * rotation(pose.world_matrix(leg.end));
    let position = |pose: &Pose, node: NodeId| Vec3::from(pose.world_matrix(node).translation);
    let (a, b, c) = (position(pose, leg.upper), position(pose, leg.mid), position(pose, leg.end));
    let (upper, lower) = (a.distance(b), b.distance(c));
    let to_target = target - a;
    let Some(direction) = to_target.try_normalize() else { return };
    if upper <= f32::EPSILON || lower <= f32::EPSILON {
        return;
    }
    // Within what the leg reaches, kept a hair off straight and off folded.
    let reach = to_target.length().clamp((upper - lower).abs() * 1.001 + 1e-6, (upper + lower) * 0.9999);
    // The knee's side: where the pose bends it, off the hip-to-target line; towards the toes
    // where it hardly bends (a straight leg's bend is rounding, which would turn the knee any
    // way, or a slight hyperextension, which would fold it backwards).
    let off_line = |v: Vec3| v - direction * v.dot(direction);
    // The ankle's first child (children follow their parent in rig order); a toe all but on
    // the line gives no side worth turning the knee to.
    let toe = rig.nodes().skip(leg.end.index() + 1).find(|&n| rig.parent(n) == Some(leg.end));
    let toe_off = toe.map_or(Vec3::ZERO, |toe| off_line(position(pose, toe) - c));
    let toward_toes = if toe_off.length() > 1e-3 * upper { toe_off.normalize() } else { Vec3::ZERO };
    let side = (off_line(b - a) + toward_toes * (STRAIGHT_BEND * upper))
        .try_normalize()
        .unwrap_or_else(|| direction.any_orthonormal_vector());
    let cos = ((upper * upper + reach * reach - lower * lower) / (2.0 * upper * reach)).clamp(-1.0, 1.0);
    let knee = a + direction * (upper * cos) + side * (upper * (1.0 - cos * cos).max(0.0).sqrt());
    let ankle = a + direction * reach;
    turn(pose, rig, leg.upper, (b - a, knee - a));
    pose.compute_world(rig);
    let c = position(pose, leg.end);
    turn(pose, rig, leg.mid, (c - knee, ankle - knee));
    pose.compute_world(rig);
    // Under the ankle's own parent: the knee, or a joint between (Rigify's lower shin).
    let parent = rig.parent(leg.end).map_or(Quat::IDENTITY, |p| rotation(pose.world_matrix(p)));
    let mut local = *pose.local_transform(leg.end);
    local.rotation = (parent.inverse() * foot).normalize();
    pose.set_local_transform(leg.end, local);
    pose.compute_world(rig);
}

/// The bend off the hip-to-ankle line, in thighs' lengths, under which a leg counts as straight
/// and its knee bends towards its toes.
const STRAIGHT_BEND: f32 = 0.05;

/// Turns `node` in `pose` by the world rotation taking direction `from` to `to`.
fn turn(pose: &mut Pose, rig: &Rig, node: NodeId, (from, to): (Vec3, Vec3)) {
    let (Some(from), Some(to)) = (from.try_normalize(), to.try_normalize()) else { return };
    let turn = Quat::from_rotation_arc(from, to);
    let parent = rig.parent(node).map_or(Quat::IDENTITY, |p| rotation(pose.world_matrix(p)));
    let mut local = *pose.local_transform(node);
    local.rotation = (parent.inverse() * turn * parent * local.rotation).normalize();
    pose.set_local_transform(node, local);
}

fn rotation(matrix: Affine3A) -> Quat {
    matrix.to_scale_rotation_translation().1
}

/// How long a lifted foot takes to go from its pin back to where the pose puts it, seconds.
pub const RELEASE_TIME: f32 = 0.15;

/// Feet held where they were put while planted: each foot is pinned, in the world, where it
/// was when it came down, and its leg turned to keep it there until it lifts; then it eases
/// back to where the pose puts it over [`RELEASE_TIME`], so it never jumps. Where a leg would
/// have to stretch past its length to reach its pin (a blend of gaits whose feet stay down for
/// different parts of the cycle), the hips are lowered until it reaches, as a person bends
/// the other knee.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Planting {
    pins: Vec<Pin>,
    /// Each foot's ankle target this call (model space) and the turn laying it on the
    /// ground, `None` where it follows the pose.
    targets: Vec<Option<(Vec3, Quat)>>,
}

/// The steepest slope a planted foot is laid on, radians: past it (a kerb, a cliff's edge in
/// the heights) the foot is turned this far, as a person's ankle bends no further.
pub const MOST_FOOT_TILT: f32 = 0.5;

/// Half the span over which a ground's slope under a foot is measured, world units (about half
/// a foot's length: a heel on one grid cell and toes on the next lie between).
const SLOPE_SPAN: f32 = 0.12;

/// One foot's pin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Pin {
    /// The world point it is held at while planted.
    at: Option<Vec3>,
    /// The ground's up (world, unit) where it came down, which the foot is laid on (turned
    /// from the prop's up as the prop stands now: a walker turning on the spot with a foot
    /// down keeps it on the slope); zero: no ground, laid as the pose lays it.
    ground_up: Vec3,
    /// How far (world) the pin held it from where the pose put it, last time it was planted.
    offset: Vec3,
    /// How much of `offset` is still applied while it eases back (1 when just lifted).
    weight: f32,
}

impl Planting {
    /// No foot pinned yet, with room for `feet` feet (so that [`Planting::apply`] on that
    /// many allocates nothing).
    #[must_use]
    pub fn for_feet(feet: usize) -> Self {
        Self { pins: vec![Pin::default(); feet], targets: vec![None; feet] }
    }

    /// Where each foot is pinned in the world while it is planted (`None`: lifted, or never
    /// pinned), in the order of the feet [`Planting::apply`] was given.
    pub fn pins(&self) -> impl ExactSizeIterator<Item = Option<Vec3>> + '_ {
        self.pins.iter().map(|pin| pin.at)
    }

    /// Lets every foot go at once (no easing back): for a prop that was not held for a while
    /// (out of view, far away), whose old pins mean nothing now.
    pub fn reset(&mut self) {
        self.pins.fill(Pin::default());
    }

    /// Pins `feet` (each a foot and its leg) of `pose`, placed in the world by `placement`,
    /// that are `planted`, `dt` seconds after the last call: a foot coming down is pinned where
    /// the pose puts it, a planted foot kept there (its ankle moved as far as the foot is off
    /// its pin), a lifted one eased back to the pose. With a `ground` (its height at a world
    /// (x, z)), a foot comes down as far above or below where the pose puts it as the ground
    /// there is above or below the ground under the prop's origin (where the prop stands): on
    /// a hill, the uphill foot is planted higher, and each foot is laid on the slope where it
    /// came down (turned from the prop's up, as the prop stands at each call, to the ground's
    /// up there, at most [`MOST_FOOT_TILT`]; easing back with it when lifted). The pose's world
    /// matrices must be current and are recomputed.
    pub fn apply(
        &mut self,
        pose: &mut Pose,
        rig: &Rig,
        feet: &[(NodeId, Leg)],
        planted: &[bool],
        (placement, dt, ground): (Affine3A, f32, Option<&dyn Fn(Vec2) -> f32>),
    ) {
        let origin = Vec3::from(placement.translation);
        let rise = |at: Vec3| {
            ground.map_or(0.0, |height| height(Vec2::new(at.x, at.z)) - height(Vec2::new(origin.x, origin.z)))
        };
        self.pins.resize(feet.len(), Pin::default());
        self.targets.resize(feet.len(), None);
        let to_model = placement.inverse();
        let turn = placement.to_scale_rotation_translation().1;
        // The ground's up at `at` (world; zero without a ground).
        let ground_up = |at: Vec3| {
            let Some(height) = ground else { return Vec3::ZERO };
            let h = |dx: f32, dz: f32| height(Vec2::new(at.x + dx, at.z + dz));
            let gradient =
                Vec2::new(h(SLOPE_SPAN, 0.0) - h(-SLOPE_SPAN, 0.0), h(0.0, SLOPE_SPAN) - h(0.0, -SLOPE_SPAN));
            Vec3::new(-gradient.x, 2.0 * SLOPE_SPAN, -gradient.y).normalize_or_zero()
        };
        // The turn from the prop's up to `up` (world), in model space, at most MOST_FOOT_TILT.
        let lay = |up: Vec3| {
            if up == Vec3::ZERO {
                return Quat::IDENTITY;
            }
            let tilt = turn.inverse() * Quat::from_rotation_arc(turn * Vec3::Y, up) * turn;
            let angle = tilt.angle_between(Quat::IDENTITY);
            if angle > MOST_FOOT_TILT { Quat::IDENTITY.slerp(tilt, MOST_FOOT_TILT / angle) } else { tilt }
        };
        for (((&(foot, leg), &down), pin), target) in
            feet.iter().zip(planted).zip(&mut self.pins).zip(&mut self.targets)
        {
            let animated = placement.transform_point3(pose.world_matrix(foot).translation.into());
            *target = None;
            if down {
                if pin.at.is_none() {
                    let at = animated + Vec3::Y * rise(animated);
                    (pin.at, pin.ground_up) = (Some(at), ground_up(at));
                }
                (pin.offset, pin.weight) = (pin.at.unwrap_or(animated) - animated, 1.0);
            } else {
                pin.at = None;
                pin.weight = (pin.weight - dt / RELEASE_TIME).max(0.0);
                if pin.weight == 0.0 {
                    continue;
                }
            }
            let moved = animated + pin.offset * pin.weight;
            let offset = to_model.transform_point3(moved) - to_model.transform_point3(animated);
            let ankle = Vec3::from(pose.world_matrix(leg.end).translation) + offset;
            *target = Some((ankle, Quat::IDENTITY.slerp(lay(pin.ground_up), pin.weight)));
        }
        lower_hips(pose, rig, feet, &self.targets);
        for (&(_, leg), target) in feet.iter().zip(&self.targets) {
            if let Some(target) = *target {
                reach_tilted(pose, rig, leg, target);
            }
        }
    }
}

/// Lowers the legs' body ([`Leg::body`], when all of `feet`'s legs hang from one above their
/// hips) straight down in model space by as much as the farthest of `targets` needs for its
/// leg to reach it, at most the leg's length: nothing when every target is within reach. The
/// pose's world matrices must be current; they are recomputed when it moves.
fn lower_hips(pose: &mut Pose, rig: &Rig, feet: &[(NodeId, Leg)], targets: &[Option<(Vec3, Quat)>]) {
    let Some(&(_, first)) = feet.first() else { return };
    let hips = first.body;
    if feet.iter().any(|(_, leg)| leg.body != hips || leg.upper == hips) {
        return;
    }
    let position = |node: NodeId| Vec3::from(pose.world_matrix(node).translation);
    let mut drop = 0.0_f32;
    for (&(_, leg), target) in feet.iter().zip(targets) {
        let Some((target, _)) = *target else { continue };
        let hip = position(leg.upper);
        let length = (hip.distance(position(leg.mid)) + position(leg.mid).distance(position(leg.end))) * 0.9999;
        let (to, down) = (target - hip, (hip - target).y);
        let across = (to.x * to.x + to.z * to.z).sqrt().min(length);
        // The hip at `hip - drop * Y` is `length` from the target, or as near as a drop of
        // the leg's length brings it (a target far below, off a ledge).
        drop = drop.max((down - (length * length - across * across).sqrt()).min(length));
    }
    if drop <= 0.0 {
        return;
    }
    let parent = rig.parent(hips).map_or(Affine3A::IDENTITY, |p| pose.world_matrix(p));
    let lowered = position(hips) - Vec3::Y * drop;
    let mut local = *pose.local_transform(hips);
    local.translation = parent.inverse().transform_point3(lowered);
    pose.set_local_transform(hips, local);
    pose.compute_world(rig);
}
