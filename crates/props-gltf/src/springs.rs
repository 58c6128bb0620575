//! A VRM avatar's spring bones (hair, tails, skirts): VRM 1.0's `VRMC_springBone` extension
//! (springs of joints, each the tail of the one before; sphere and capsule colliders in groups,
//! and `VRMC_springBone_extended_collider`'s planes and shapes that keep tails inside) or VRM
//! 0.x's `VRM.secondaryAnimation` (bone groups, each root's whole subtree swinging; sphere
//! colliders on nodes), read as three-vrm reads them into [`props_anim::spring::SpringBones`].
//!
//! What cannot be read is passed over at the finest grain, with a warning at its path: a
//! collider on no node, a joint on no node (the one before reaches to the one after) or on a
//! node already swinging, a chain whose next joint is not below it (it ends there), a number
//! out of range (the specification's default instead). An extended collider of another
//! version than 1.0 falls back to the core shape every file gives beside it.

use glam::Vec3;
use gltf::json::Root;
use props_anim::Rig;
use props_anim::spring::{ColliderShape, SpringCollider, SpringJoint, SpringSettings};
use serde_json::Value;

use crate::error::{Problems, Warnings};

/// VRM 1.0's spring bone extension.
const SPRING_BONE: &str = "VRMC_springBone";
/// Its extension for planes and shapes that keep tails inside, on a collider.
const EXTENDED_COLLIDER: &str = "VRMC_springBone_extended_collider";
/// Colliders one joint is kept out of, at most: each costs every step of every joint.
const MAX_COLLIDERS_PER_JOINT: usize = 256;
/// Joint-collider pairs a model's springs test, at most (a VRM avatar's are a few hundred).
const MAX_COLLIDER_PAIRS: usize = 16_384;
/// A VRM 0.x chain's last tail: this far along its last bone's offset (three-vrm's 7 cm).
const VRM0_LAST_TAIL: f32 = 0.07;

/// The spring bones `root` declares on `rig`'s nodes (none without either extension).
pub(crate) fn read(root: &Root, rig: &Rig, warnings: &mut Warnings) -> (Vec<SpringJoint>, Vec<SpringCollider>) {
    let Some(others) = root.extensions.as_ref().map(|e| &e.others) else { return (Vec::new(), Vec::new()) };
    let mut reader = Reader { root, rig, problems: Problems::default(), swinging: vec![false; rig.len()] };
    let (mut joints, colliders) = if let Some(vrm1) = others.get(SPRING_BONE) {
        reader.vrm1(vrm1)
    } else if let Some(secondary) = others.get("VRM").and_then(|vrm| vrm.get("secondaryAnimation")) {
        reader.vrm0(secondary)
    } else {
        (Vec::new(), Vec::new())
    };
    let at = if others.contains_key(SPRING_BONE) { "extensions.VRMC_springBone" } else { "extensions.VRM" };
    // Each pair is tested every step of every near prop: past the most, later joints pass
    // through the colliders they would have been kept out of.
    let (mut pairs, mut cut) = (0, false);
    for joint in &mut joints {
        let room = MAX_COLLIDER_PAIRS - pairs;
        cut |= joint.colliders.len() > room;
        joint.colliders.truncate(room);
        pairs += joint.colliders.len();
    }
    if cut {
        reader.problem(at.to_owned(), format!("only the first {MAX_COLLIDER_PAIRS} joint-collider pairs are tested"));
    }
    reader.problems.warn(warnings, at, |more| format!("{more} more spring bone entries ignored as the ones above"));
    (joints, colliders)
}

/// Reads one file's spring bones, gathering its problems.
struct Reader<'a> {
    root: &'a Root,
    rig: &'a Rig,
    /// Its problems, the first few told.
    problems: Problems,
    /// Per rig node: whether a joint turns it already.
    swinging: Vec<bool>,
}

impl Reader<'_> {
    /// VRM 1.0's springs.
    fn vrm1(&mut self, ext: &Value) -> (Vec<SpringJoint>, Vec<SpringCollider>) {
        let at = "extensions.VRMC_springBone";
        let mut colliders = Vec::new();
        // Per file collider: its number among those read.
        let mut read_as = Vec::new();
        for (i, collider) in list(ext, "colliders").iter().enumerate() {
            let at = format!("{at}.colliders[{i}]");
            let node = self.node(collider.get("node"), &format!("{at}.node"));
            // The extended collider's shape where the file gives one (of version 1.0), else
            // the core shape every file gives beside it.
            let extended = collider.pointer(&format!("/extensions/{EXTENDED_COLLIDER}"));
            let version = extended.and_then(|e| e.get("specVersion"));
            if extended.is_some() && version.and_then(Value::as_str) != Some("1.0") {
                let why = format!(
                    "an extended collider of version {} is not read: its core shape is",
                    version.unwrap_or(&Value::Null)
                );
                self.problem(format!("{at}.extensions.{EXTENDED_COLLIDER}.specVersion"), why);
            }
            let extended = extended
                .filter(|e| e.get("specVersion").and_then(Value::as_str) == Some("1.0"))
                .and_then(|e| shape(e.get("shape")?, true));
            let shape = match extended.or_else(|| shape(collider.get("shape")?, false)) {
                Some(shape) => Some(shape),
                None => {
                    self.problem(format!("{at}.shape"), "ignored: a collider's shape is a `sphere` or a `capsule`");
                    None
                }
            };
            read_as.push(None);
            if let (Some(node), Some(shape)) = (node, shape)
                && let Some(shape) = self.checked(shape, &at)
                && let Ok(number) = u16::try_from(colliders.len())
            {
                read_as[i] = Some(number);
                colliders.push(SpringCollider { node, shape });
            }
        }
        let groups: Vec<Vec<u16>> = list(ext, "colliderGroups")
            .iter()
            .enumerate()
            .map(|(g, group)| {
                let at = format!("{at}.colliderGroups[{g}].colliders");
                let indices = list(group, "colliders").iter().enumerate();
                let mut members: Vec<u16> = indices
                    .filter_map(|(k, c)| {
                        let read = c.as_u64().and_then(|c| read_as.get(usize::try_from(c).ok()?).copied().flatten());
                        if read.is_none() {
                            self.problem(format!("{at}[{k}]"), "ignored: names no collider read");
                        }
                        read
                    })
                    .collect();
                // Each once, and only the first that a joint could keep (one more, to tell a
                // union that keeps fewer): springs naming many groups gather their members.
                members.sort_unstable();
                members.dedup();
                members.truncate(MAX_COLLIDERS_PER_JOINT + 1);
                members
            })
            .collect();
        let mut joints = Vec::new();
        for (s, spring) in list(ext, "springs").iter().enumerate() {
            let at = format!("{at}.springs[{s}]");
            let chain = list(spring, "joints");
            // A joint on no node is passed over: the one before reaches to the one after.
            let nodes: Vec<_> = (0..chain.len())
                .filter_map(|j| Some((j, self.node(chain[j].get("node"), &format!("{at}.joints[{j}].node"))?)))
                .collect();
            if nodes.len() < 2 {
                // Its collider groups and centre are not read: nothing of it swings.
                let why = "ignored: a spring swings each joint towards the next, and this one has fewer than two";
                self.problem(format!("{at}.joints"), why);
                continue;
            }
            let colliders = self.groups(spring, &groups, &at);
            let center = spring.get("center").and_then(|c| self.node(Some(c), &format!("{at}.center")));
            for pair in nodes.windows(2) {
                let [(j, node), (next, tail)] = [pair[0], pair[1]];
                let joint_at = format!("{at}.joints[{j}]");
                let Some(tail) = offset_below(self.rig, node, tail) else {
                    let why = "the chain ends here: its next joint is not below this one";
                    self.problem(format!("{at}.joints[{next}].node"), why);
                    break;
                };
                let settings = self.settings(&chain[j], &joint_at, false);
                self.joint(
                    &mut joints,
                    SpringJoint { node, tail, settings, colliders: colliders.clone(), center },
                    &joint_at,
                );
            }
        }
        (joints, colliders)
    }

    /// VRM 0.x's bone groups.
    fn vrm0(&mut self, secondary: &Value) -> (Vec<SpringJoint>, Vec<SpringCollider>) {
        let at = "extensions.VRM.secondaryAnimation";
        let mut colliders = Vec::new();
        let mut groups = Vec::new();
        for (g, group) in list(secondary, "colliderGroups").iter().enumerate() {
            let at = format!("{at}.colliderGroups[{g}]");
            let node = self.node(group.get("node"), &format!("{at}.node"));
            let mut members = Vec::new();
            for (c, collider) in list(group, "colliders").iter().enumerate() {
                let Some(node) = node else { break };
                // VRM 0.x's offsets are Unity's: z is the other way.
                let offset = xyz(collider.get("offset")).unwrap_or(Vec3::ZERO) * Vec3::new(1.0, 1.0, -1.0);
                let radius = collider.get("radius").and_then(Value::as_f64).unwrap_or(0.0) as f32;
                let at = format!("{at}.colliders[{c}]");
                let sphere = ColliderShape::Sphere { offset, radius, inside: false };
                let Some(shape) = self.checked(sphere, &at) else { continue };
                let Ok(number) = u16::try_from(colliders.len()) else { break };
                members.push(number);
                colliders.push(SpringCollider { node, shape });
            }
            // In order already: only the first that a joint could keep (see `groups`).
            members.truncate(MAX_COLLIDERS_PER_JOINT + 1);
            groups.push(members);
        }
        let mut joints = Vec::new();
        for (b, group) in list(secondary, "boneGroups").iter().enumerate() {
            let at = format!("{at}.boneGroups[{b}]");
            let colliders = self.groups(group, &groups, &at);
            let center = group
                .get("center")
                .filter(|c| c.as_i64() != Some(-1))
                .and_then(|c| self.node(Some(c), &format!("{at}.center")));
            let settings = self.settings(group, &at, true);
            for (r, bone) in list(group, "bones").iter().enumerate() {
                let Some(first) = self.node(Some(bone), &format!("{at}.bones[{r}]")) else { continue };
                if self.swinging[first.index()] {
                    self.problem(format!("{at}.bones[{r}]"), "ignored: this bone swings in a group before");
                    continue;
                }
                // The root and everything below it, each bone's tail its first child.
                let mut below = vec![first];
                while let Some(node) = below.pop() {
                    let children = self.children(node);
                    let tail = match children.first() {
                        Some(&child) => rest_translation(self.rig, child),
                        None => rest_translation(self.rig, node).normalize_or_zero() * VRM0_LAST_TAIL,
                    };
                    let joint = SpringJoint { node, tail, settings, colliders: colliders.clone(), center };
                    self.joint(&mut joints, joint, &format!("{at}.bones[{r}]"));
                    below.extend(children.into_iter().rev());
                }
            }
        }
        (joints, colliders)
    }

    /// Adds `joint` unless its node swings already or it has no length.
    fn joint(&mut self, joints: &mut Vec<SpringJoint>, joint: SpringJoint, at: &str) {
        let i = joint.node.index();
        if self.swinging[i] {
            self.problem(at.to_owned(), "ignored for one node: the node swings in a spring before");
        } else if joint.tail.length_squared().is_nan() || joint.tail.length_squared() <= 0.0 {
            self.problem(
                at.to_owned(),
                "ignored for one node: its tail is where it is, so it has no direction to swing",
            );
        } else {
            self.swinging[i] = true;
            joints.push(joint);
        }
    }

    /// The colliders of the collider groups `of` names (read as `groups`).
    fn groups(&mut self, of: &Value, groups: &[Vec<u16>], at: &str) -> Vec<u16> {
        let mut named: Vec<usize> = Vec::new();
        for (k, group) in list(of, "colliderGroups").iter().enumerate() {
            match group.as_u64().and_then(|g| usize::try_from(g).ok()).filter(|&g| g < groups.len()) {
                Some(g) => named.push(g),
                None => self.problem(format!("{at}.colliderGroups[{k}]"), "ignored: names no collider group"),
            }
        }
        // Each group once (each holds its colliders once): a group named a million times over
        // gathers its members once, not a million times.
        named.sort_unstable();
        named.dedup();
        let mut colliders: Vec<u16> = named.iter().flat_map(|&g| &groups[g]).copied().collect();
        colliders.sort_unstable();
        colliders.dedup();
        if colliders.len() > MAX_COLLIDERS_PER_JOINT {
            let why = format!("only the first {MAX_COLLIDERS_PER_JOINT} colliders are kept");
            self.problem(format!("{at}.colliderGroups"), why);
            colliders.truncate(MAX_COLLIDERS_PER_JOINT);
        }
        colliders
    }

    /// A joint's settings from `of` (a VRM 1.0 joint, or a VRM 0.x bone group: `stiffiness`,
    /// `gravityDir` as `{x, y, z}`), each out of range replaced by the default.
    fn settings(&mut self, of: &Value, at: &str, vrm0: bool) -> SpringSettings {
        let default = SpringSettings::default();
        let mut number = |key: &str, fallback: f32, ok: fn(f32) -> bool| {
            let Some(value) = of.get(key) else { return fallback };
            match value.as_f64().map(|v| v as f32).filter(|&v| ok(v)) {
                Some(v) => v,
                None => {
                    self.problem(format!("{at}.{key}"), format!("{value} is out of range; {fallback} instead"));
                    fallback
                }
            }
        };
        let positive = |v: f32| v.is_finite() && v >= 0.0;
        let stiffness = number(if vrm0 { "stiffiness" } else { "stiffness" }, default.stiffness, positive);
        let drag = number("dragForce", default.drag, |v| (0.0..=1.0).contains(&v));
        let power = number("gravityPower", 0.0, positive);
        let hit_radius = number("hitRadius", default.hit_radius, positive);
        let direction = if vrm0 { xyz(of.get("gravityDir")) } else { array3(of.get("gravityDir")) };
        let direction = direction.filter(|d| d.is_finite()).unwrap_or(Vec3::NEG_Y);
        SpringSettings { stiffness, drag, gravity: direction * power, hit_radius }
    }

    /// `shape`, if its numbers are finite, its radius not negative and a plane's normal not 0.
    fn checked(&mut self, shape: ColliderShape, at: &str) -> Option<ColliderShape> {
        let ok = shape.is_valid();
        if !ok {
            let why = "ignored: its numbers are finite, its radius not negative, a plane's normal not 0";
            self.problem(format!("{at}.shape"), why);
        }
        ok.then_some(shape)
    }

    /// The rig node a node index `value` (at `at`) names, or `None` with a problem.
    fn node(&mut self, value: Option<&Value>, at: &str) -> Option<props_anim::NodeId> {
        let index = value.and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
        let node = index.filter(|&n| (n as usize) < self.root.nodes.len()).and_then(|n| self.rig.from_source_index(n));
        if node.is_none() {
            let count = self.root.nodes.len();
            self.problem(
                at.to_owned(),
                format!("ignored: names no node of the file's {count} (a node's index, 0, 1, ...)"),
            );
        }
        node
    }

    /// The rig nodes whose parent is `node`, in the file's order of its `children`.
    fn children(&self, node: props_anim::NodeId) -> Vec<props_anim::NodeId> {
        let source = self.rig.source_index(node) as usize;
        let listed = self.root.nodes.get(source).and_then(|n| n.children.as_ref());
        listed.into_iter().flatten().filter_map(|c| self.rig.from_source_index(c.value() as u32)).collect()
    }

    /// Tells of a problem at `at` (the first few; the rest are counted).
    fn problem(&mut self, at: String, why: impl Into<String>) {
        self.problems.tell(at, why);
    }
}

/// A VRM 1.0 collider's `shape`: a `sphere` or a `capsule`, and when `extended` (an extended
/// collider's) a `plane`, or a sphere or capsule keeping tails `inside`; `None` when it is none
/// of them.
fn shape(shape: &Value, extended: bool) -> Option<ColliderShape> {
    let offset = |s: &Value| array3(s.get("offset")).unwrap_or(Vec3::ZERO);
    let radius = |s: &Value| s.get("radius").and_then(Value::as_f64).unwrap_or(0.0) as f32;
    let inside = |s: &Value| extended && s.get("inside").and_then(Value::as_bool).unwrap_or(false);
    if let Some(s) = shape.get("sphere") {
        Some(ColliderShape::Sphere { offset: offset(s), radius: radius(s), inside: inside(s) })
    } else if let Some(c) = shape.get("capsule") {
        let tail = array3(c.get("tail")).unwrap_or(Vec3::ZERO);
        Some(ColliderShape::Capsule { offset: offset(c), tail, radius: radius(c), inside: inside(c) })
    } else {
        let p = shape.get("plane").filter(|_| extended)?;
        Some(ColliderShape::Plane { offset: offset(p), normal: array3(p.get("normal")).unwrap_or(Vec3::Z) })
    }
}

/// `of[key]` as a list (none when absent or not a list).
fn list<'a>(of: &'a Value, key: &str) -> &'a [Value] {
    of.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// A VRM 1.0 vector, `[x, y, z]`.
fn array3(value: Option<&Value>) -> Option<Vec3> {
    let v = value?.as_array()?;
    let c = |i: usize| v.get(i).and_then(Value::as_f64).map(|c| c as f32);
    Some(Vec3::new(c(0)?, c(1)?, c(2)?))
}

/// A VRM 0.x vector, `{"x": .., "y": .., "z": ..}` (a missing one 0).
fn xyz(value: Option<&Value>) -> Option<Vec3> {
    let v = value?.as_object()?;
    let c = |k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(0.0) as f32;
    Some(Vec3::new(c("x"), c("y"), c("z")))
}

/// Where `below` (a descendant of `node`) is in `node`'s space at rest; `None` when it is not
/// below it.
fn offset_below(rig: &Rig, node: props_anim::NodeId, below: props_anim::NodeId) -> Option<Vec3> {
    let (mut at, mut matrix) = (below, glam::Affine3A::IDENTITY);
    loop {
        matrix = rig.rest_matrix(at) * matrix;
        match rig.parent(at)? {
            parent if parent == node => return Some(matrix.translation.into()),
            parent => at = parent,
        }
    }
}

/// Where `node` is in its parent's space at rest.
fn rest_translation(rig: &Rig, node: props_anim::NodeId) -> Vec3 {
    match rig.rest(node).as_trs() {
        Some(trs) => trs.translation,
        None => rig.rest_matrix(node).translation.into(),
    }
}
