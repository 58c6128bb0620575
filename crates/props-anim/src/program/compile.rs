//! [`Program::new`]: a model compiled for a [`Spec`], in named phases. Each phase reads what
//! the ones before it decided:
//!
//! 1. [`Slots::find`]: which nodes get a local transform slot per instance (animated by a
//!    clip, turned by a driver, set by a constraint, or held away from its rest by some clip);
//! 2. [`compile_clip`]: each baked clip's writes by slot, what it leaves at rest, its pose at
//!    time 0 (an additive layer's reference) and its key cursors;
//! 3. [`scaled_slots`]: the slots whose scale may differ from 1;
//! 4. [`Hierarchy::order`]: the nodes some palette matrix needs, the world matrices of those
//!    that never move, and the steps that compute the others in rig order;
//! 5. [`Palette::split`]: each palette matrix computed per instance or constant, and the
//!    steps no longer needed once a fixed joint's matrix folds into its parent's; then
//!    [`Palette::compact_worlds`]: the world matrices a scratch holds, only those read;
//! 6. drivers, the rig's constraints, masks and morph weights by slot.

use glam::Vec4;

use super::constrain::{NodeLocal, ProgramConstraints};
use super::{Animated, Lanes, Local, Morph, Program, ProgramClip, ProgramDriver, ProgramValue, Step, splat};
use crate::JointMatrix;
use crate::baked::{self, BakedClip, Found, Local4, Property};
use crate::model::Model;
use crate::node_id::NodeId;
use crate::property::{PropertyId, PropertyTarget};
use crate::rig::Rig;
use crate::rows::Rows;
use crate::rows4::{Rows4, transpose};
use crate::state::{Spec, ValueTarget};
use crate::transform::{RestTransform, Transform};

impl Program {
    /// Compiles `model` for `spec`.
    ///
    /// # Panics
    /// If `spec` names a clip `model` does not have, a driver node that is not a TRS node of
    /// its rig, a value its rig does not have, or a mask made for another rig.
    #[must_use]
    pub fn new(model: &Model, spec: &Spec) -> Self {
        let rig = model.rig();
        let baked: Vec<(BakedClip, f32)> =
            spec.clips.iter().map(|&c| (BakedClip::new(&model.clips()[c]), model.clips()[c].duration())).collect();
        let slots = Slots::find(rig, spec, &baked);
        let base_locals: Vec<Local4> = slots.nodes.iter().map(|&n| baked::local4(&rest_local(rig, n))).collect();
        let mut cursor_len = 0;
        let mut clips: Vec<ProgramClip> = baked
            .into_iter()
            .map(|(baked, duration)| compile_clip(baked, duration, &slots, &base_locals, &mut cursor_len))
            .collect();
        let scaled = scaled_slots(&base_locals, &clips, &slots.of);
        let Hierarchy { moving, fixed_world, steps } = Hierarchy::order(model, &slots, &scaled);
        let mut palette = Palette::split(model, steps, &moving, &fixed_world);
        let world_base = palette.compact_worlds(&fixed_world);
        let Palette { joints, nodes, constant, steps } = palette;
        let drivers = spec
            .drivers
            .iter()
            .map(|driver| ProgramDriver {
                axis: [Vec4::splat(driver.axis.x), Vec4::splat(driver.axis.y), Vec4::splat(driver.axis.z)],
                targets: driver
                    .nodes
                    .iter()
                    .map(|&node| {
                        let slot = slots.of[node.index()].expect("a driven node is a TRS node of the rig");
                        (slot, rest_local(rig, node).rotation)
                    })
                    .collect(),
            })
            .collect();
        let constraints = ProgramConstraints::new(
            rig.constraints(),
            rig.parents(),
            rig.nodes().map(|node| node_local(rig, &slots, node)).collect(),
        );
        let masks = spec.masks.iter().map(|mask| slots.nodes.iter().map(|&node| mask.weight(node)).collect()).collect();
        let mut driver_values = spec.drivers.len();
        let values = spec
            .values
            .iter()
            .map(|&target| {
                let driver = driver_values;
                driver_values += target.width(rig);
                match target {
                    ValueTarget::MorphWeight(weight) => {
                        assert!(weight < rig.morph_defaults().len(), "morph weight {weight} is not one of the rig's");
                        ProgramValue::Morph { weight, driver }
                    }
                    ValueTarget::Property(id) => ProgramValue::Property { range: rig.properties().range(id), driver },
                }
            })
            .collect();
        let morph = Morph::new(model, spec, &mut clips);
        let animated = Animated::new(model, spec, &mut clips);
        Self {
            max_groups: clips.iter().map(|c| c.baked.group_count()).max().unwrap_or(0),
            clips,
            base: base_locals.iter().map(splat).collect::<Vec<Lanes>>(),
            world_base,
            steps,
            joints: joints.into_iter().map(|(index, node, matrix)| (index, node, Rows4::splat(&matrix))).collect(),
            nodes,
            constant,
            drivers,
            constraints,
            values,
            driver_values,
            masks,
            morph,
            animated,
            palette_len: model.palette_len(),
            cursor_len,
        }
    }
}

/// A node's rest local transform (identity for a matrix node, which never gets a slot).
fn rest_local(rig: &Rig, node: NodeId) -> Transform {
    rig.rest(node).as_trs().copied().unwrap_or_default()
}

/// Where the constraints read `node`'s local: its slot, or its rest.
fn node_local(rig: &Rig, slots: &Slots, node: NodeId) -> NodeLocal {
    if let Some(slot) = slots.of[node.index()] {
        return NodeLocal::Slot(slot);
    }
    match *rig.rest(node) {
        RestTransform::Trs(local) => NodeLocal::Rest(local.rotation, local.to_affine()),
        RestTransform::Matrix(matrix) => NodeLocal::Rest(matrix.to_scale_rotation_translation().1, matrix),
    }
}

/// Phase 1: the nodes computed per instance, each with its local transform slot.
struct Slots {
    /// Each rig node's slot, if it has one.
    of: Vec<Option<u32>>,
    /// The node of each slot.
    nodes: Vec<NodeId>,
}

impl Slots {
    /// The slots of `rig` for `spec`'s drivers and the `baked` clips: a TRS node animated by
    /// a clip, turned by a driver, set by a constraint, or held still away from its rest by
    /// some clip gets one; the others stay at rest. (A node every clip holds at one place away
    /// from its rest still moves: layers whose weights fall short of 1 blend it from its rest.)
    fn find(rig: &Rig, spec: &Spec, baked: &[(BakedClip, f32)]) -> Self {
        let mut driven = vec![false; rig.len()];
        for node in spec.drivers.iter().flat_map(|d| &d.nodes) {
            driven[node.index()] = true;
        }
        // A constrained node's rotation is set per instance, whatever moves what it reads.
        for constraint in rig.constraints().iter() {
            driven[constraint.node.index()] = true;
        }
        let mut animated = vec![false; rig.len()];
        for (clip, _) in baked {
            for track in clip.tracks() {
                animated[track.node.index()] = true;
            }
        }
        // Where some clip holds a node still away from its rest: its constants applied to its
        // rest in order, node by node.
        let mut held_away = vec![false; rig.len()];
        for (clip, _) in baked {
            let mut constants = clip.constants().to_vec();
            constants.sort_by_key(|c| c.0);
            for held in constants.chunk_by(|a, b| a.0 == b.0) {
                let node = held[0].0;
                let mut local = rest_local(rig, node);
                for &(_, property, value) in held {
                    baked::apply(&mut local, property, value);
                }
                held_away[node.index()] |= local != rest_local(rig, node);
            }
        }
        let mut slots = Self { of: vec![None; rig.len()], nodes: Vec::new() };
        for node in rig.nodes() {
            let moves = animated[node.index()] || driven[node.index()] || held_away[node.index()];
            if rig.rest(node).as_trs().is_some() && moves {
                slots.of[node.index()] = Some(slots.nodes.len() as u32);
                slots.nodes.push(node);
            }
        }
        slots
    }
}

/// Phase 2: `baked` (lasting `duration` seconds) on `slots`: where each track and constant
/// writes, what it leaves at rest (`base_locals`), its pose at time 0 (for additive layers:
/// the base where it does not write), and its key cursors after the `cursor_len` before it.
fn compile_clip(
    baked: BakedClip,
    duration: f32,
    slots: &Slots,
    base_locals: &[Local4],
    cursor_len: &mut usize,
) -> ProgramClip {
    let entries = slots.nodes.len() as u32 * 3;
    let track_slots: Vec<u32> = baked
        .tracks()
        .iter()
        .map(|t| slots.of[t.node.index()].map_or(0, |s| s * 3 + t.property.lane() as u32))
        .collect();
    let constants: Vec<(u32, Vec4)> = baked
        .constants()
        .iter()
        .filter_map(|&(node, property, value)| {
            let value = if property == Property::Rotation { value } else { value.truncate().extend(0.0) };
            Some((slots.of[node.index()]? * 3 + property.lane() as u32, value))
        })
        .collect();
    let mut written = vec![false; entries as usize];
    for &entry in track_slots.iter().chain(constants.iter().map(|c| &c.0)) {
        written[entry as usize] = true;
    }
    let unwritten = (0..entries).filter(|&e| !written[e as usize]).collect();
    let mut reference = base_locals.to_vec();
    let mut found = vec![Found::default(); baked.group_count()];
    baked.find(0.0, &mut vec![0; baked.cursor_count()], &mut found);
    let f = found.as_slice();
    let lanes = reference.as_flattened_mut();
    for &(entry, value) in &constants {
        lanes[entry as usize] = value;
    }
    let mut destination = track_slots.iter();
    baked.evaluate4([f, f, f, f], |_, values| {
        if let Some(&d) = destination.next() {
            lanes[d as usize] = transpose(values)[0];
        }
    });
    let cursor_offset = *cursor_len;
    *cursor_len += baked.cursor_count();
    ProgramClip {
        baked,
        track_slots,
        constants,
        unwritten,
        reference,
        cursor_offset,
        duration,
        morph: Vec::new(),
        morph_reference: Vec::new(),
        properties: Vec::new(),
        property_reference: Vec::new(),
        covers: true,
    }
}

/// Phase 3: the slots whose scale may differ from 1 (at rest, or as some clip writes it),
/// whose matrices take the general product.
fn scaled_slots(base_locals: &[Local4], clips: &[ProgramClip], slot_of: &[Option<u32>]) -> Vec<bool> {
    let unit = Vec4::new(1.0, 1.0, 1.0, 0.0);
    let mut scaled: Vec<bool> = base_locals.iter().map(|l| l[2] != unit).collect();
    for clip in clips {
        for track in clip.baked.tracks().iter().filter(|t| t.property == Property::Scale) {
            if let Some(s) = slot_of[track.node.index()] {
                scaled[s as usize] = true;
            }
        }
        for &(entry, value) in &clip.constants {
            if entry % 3 == 2 && value != unit {
                scaled[entry as usize / 3] = true;
            }
        }
    }
    scaled
}

/// Phase 4: the node hierarchy as the program evaluates it.
struct Hierarchy {
    /// Whether each rig node moves (has a slot, or is below one that does).
    moving: Vec<bool>,
    /// World matrices of the nodes that never move (identity for the others).
    fixed_world: Vec<Rows>,
    /// The moving nodes some palette matrix needs, in rig order.
    steps: Vec<Step>,
}

impl Hierarchy {
    /// Orders `model`'s nodes: those some palette matrix needs (skin joints, mesh nodes, and
    /// their ancestors) that move become steps, the others' world matrices are computed once.
    fn order(model: &Model, slots: &Slots, scaled: &[bool]) -> Self {
        let rig = model.rig();
        let local_rows = |node: NodeId| Rows::from_affine(&rig.rest_matrix(node));
        let palette_nodes = model
            .skins()
            .iter()
            .flat_map(|s| s.joints().iter().copied())
            .chain(model.instances().iter().map(|i| i.node));
        let mut needed = vec![false; rig.len()];
        for node in palette_nodes {
            let mut at = Some(node);
            while let Some(n) = at.filter(|n| !needed[n.index()]) {
                needed[n.index()] = true;
                at = rig.parent(n);
            }
        }
        let mut hierarchy =
            Self { moving: vec![false; rig.len()], fixed_world: vec![Rows::IDENTITY; rig.len()], steps: Vec::new() };
        for node in rig.nodes() {
            let parent = rig.parent(node);
            let moving = slots.of[node.index()].is_some() || parent.is_some_and(|p| hierarchy.moving[p.index()]);
            hierarchy.moving[node.index()] = moving;
            if !moving {
                let local = local_rows(node);
                hierarchy.fixed_world[node.index()] = match parent {
                    Some(p) => hierarchy.fixed_world[p.index()].mul(&local),
                    None => local,
                };
            } else if needed[node.index()] {
                let local = match slots.of[node.index()] {
                    Some(slot) => Local::Slot { slot, scaled: scaled[slot as usize] },
                    None => Local::Fixed(local_rows(node)),
                };
                hierarchy.steps.push(Step { node: node.0, parent: parent.map(|p| p.0), local });
            }
        }
        hierarchy
    }
}

/// Phase 5: the palette's matrices and the steps they need.
struct Palette {
    /// `(index, node, matrix)` of moving skin joints: palette = `world[node] * matrix`.
    joints: Vec<(u32, u32, Rows)>,
    /// `(index, node)` of moving mesh nodes.
    nodes: Vec<(u32, u32)>,
    /// The palette matrices that never change.
    constant: Vec<(u32, JointMatrix)>,
    /// The steps left.
    steps: Vec<Step>,
}

impl Palette {
    /// Splits `model`'s palette matrices (skin joints, then mesh nodes) into those of `moving`
    /// nodes and constant ones (from the others' `fixed_world`), then drops the `steps` of joints with a fixed local whose world only
    /// their palette matrices need (no step below them, no mesh on them): their palette is
    /// their parent's world times a constant.
    fn split(model: &Model, mut steps: Vec<Step>, moving: &[bool], fixed_world: &[Rows]) -> Self {
        let rig = model.rig();
        let (mut joints, mut nodes, mut constant) = (Vec::new(), Vec::new(), Vec::new());
        let joints_used = model.skins().iter().flat_map(|s| s.joints().iter().zip(s.inverse_bind_matrices()));
        for (index, (node, inverse_bind)) in (0u32..).zip(joints_used) {
            let inverse_bind = Rows::from_affine(inverse_bind);
            if moving[node.index()] {
                joints.push((index, node.0, inverse_bind));
            } else {
                constant.push((index, fixed_world[node.index()].mul(&inverse_bind).to_joint()));
            }
        }
        for (index, instance) in (model.joint_count() as u32..).zip(model.instances()) {
            let node = instance.node;
            if moving[node.index()] {
                nodes.push((index, node.0));
            } else {
                constant.push((index, fixed_world[node.index()].to_joint()));
            }
        }
        let mut world_needed = vec![false; rig.len()];
        for node in steps.iter().filter_map(|step| step.parent).chain(nodes.iter().map(|&(_, node)| node)) {
            world_needed[node as usize] = true;
        }
        // The joints on each node, found once (a dropped step's node is no step's parent, so a
        // joint moves to its parent at most once): linear, however many joints share a root.
        let mut first_on = vec![u32::MAX; rig.len()];
        let mut next_on = vec![u32::MAX; joints.len()];
        for (k, joint) in joints.iter().enumerate().rev() {
            next_on[k] = std::mem::replace(&mut first_on[joint.1 as usize], k as u32);
        }
        steps.retain(|step| match (step.local, step.parent) {
            (Local::Fixed(local), Some(parent)) if !world_needed[step.node as usize] => {
                let mut k = first_on[step.node as usize];
                while let Some((_, node, matrix)) = joints.get_mut(k as usize) {
                    (*node, *matrix) = (parent, local.mul(matrix));
                    k = next_on[k as usize];
                }
                false
            }
            _ => true,
        });
        Self { joints, nodes, constant, steps }
    }

    /// Renames the nodes its steps, joints and nodes name by compact indices, one per world
    /// matrix they read or write, and returns each one's first value (a fixed node's world
    /// from `fixed_world`, identity for a moving one's, which its step overwrites): a scratch
    /// holds those only, not one per rig node.
    fn compact_worlds(&mut self, fixed_world: &[Rows]) -> Vec<Rows> {
        let mut index: Vec<Option<u32>> = vec![None; fixed_world.len()];
        let mut base = Vec::new();
        let mut at = |node: &mut u32| {
            *node = *index[*node as usize].get_or_insert_with(|| {
                base.push(fixed_world[*node as usize]);
                (base.len() - 1) as u32
            });
        };
        for step in &mut self.steps {
            if let Some(parent) = &mut step.parent {
                at(parent);
            }
            at(&mut step.node);
        }
        for (_, node, _) in &mut self.joints {
            at(node);
        }
        for (_, node) in &mut self.nodes {
            at(node);
        }
        base
    }
}

impl Morph {
    /// The morph weights of `model` for `spec`, and each of `clips`' weight channels (the
    /// spec's clips, in order).
    fn new(model: &Model, spec: &Spec, clips: &mut [ProgramClip]) -> Self {
        let rig = model.rig();
        let defaults = rig.morph_defaults().to_vec();
        if defaults.is_empty() {
            return Self::default();
        }
        let nodes: Vec<_> =
            rig.nodes().map(|node| (node, rig.morph_range(node))).filter(|(_, range)| !range.is_empty()).collect();
        let masks = spec.masks.iter().map(|mask| nodes.iter().map(|&(node, _)| mask.weight(node)).collect()).collect();
        for (clip, &index) in clips.iter_mut().zip(&spec.clips) {
            let channels = model.clips()[index].channels().iter();
            let weights = channels.filter(|c| matches!(c.keyframes(), crate::clip::Keyframes::MorphWeights { .. }));
            clip.morph = weights.map(|c| (c.clone(), rig.morph_range(c.node()))).collect();
            let mut reference = defaults.clone();
            for (channel, range) in &clip.morph {
                channel.sample_morph_weights(0.0, &mut reference[range.clone()]);
            }
            clip.morph_reference = reference;
        }
        Self { defaults, nodes, masks, slot: model.weight_slot() }
    }
}

impl Animated {
    /// The animated properties of `model` for `spec`, and each of `clips`' property channels
    /// (the spec's clips, in order).
    fn new(model: &Model, spec: &Spec, clips: &mut [ProgramClip]) -> Self {
        let table = model.rig().properties();
        if table.is_empty() {
            return Self::default();
        }
        let defaults = table.defaults().to_vec();
        let ids = (0..table.len() as u32).map(PropertyId);
        let layout = ids.clone().map(|id| (table.range(id), table.targets()[id.0 as usize].is_boolean())).collect();
        let node_of = |id: PropertyId| match table.targets()[id.0 as usize] {
            PropertyTarget::NodeVisible(node) => Some(node),
            _ => None,
        };
        let masks = spec
            .masks
            .iter()
            .map(|mask| ids.clone().map(|id| node_of(id).map_or(1.0, |node| mask.weight(node))).collect())
            .collect();
        for (clip, &index) in clips.iter_mut().zip(&spec.clips) {
            let channels = model.clips()[index].property_channels();
            clip.properties = channels.iter().map(|c| (c.clone(), table.range(c.property()))).collect();
            let mut reference = defaults.clone();
            for (channel, range) in &clip.properties {
                channel.sample(0.0, &mut reference[range.clone()]);
            }
            clip.property_reference = reference;
        }
        // A clip covers the layers below it when it animates every property any clip does.
        let animated: std::collections::BTreeSet<u32> =
            clips.iter().flat_map(|clip| clip.properties.iter().map(|(c, _)| c.property().0)).collect();
        for clip in clips.iter_mut() {
            let own: std::collections::BTreeSet<u32> = clip.properties.iter().map(|(c, _)| c.property().0).collect();
            clip.covers = own.is_superset(&animated);
        }
        Self { defaults, layout, masks, visibility: model.visibility().clone(), slot: model.property_slot() }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};

    use crate::clip::interpolate::Interpolation;
    use crate::clip::{Channel, Clip, Keyframes};
    use crate::{Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform};

    use super::Program;

    /// A scratch holds the world matrices the program reads, not one per rig node: a spinning
    /// root with a mesh, beside 500 nodes that never move and nothing reads.
    #[test]
    fn a_scratch_holds_only_the_world_matrices_read() {
        let node = |children: Vec<u32>| SourceNode {
            name: None,
            children,
            rest: RestTransform::Trs(Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let mut nodes = vec![node(Vec::new())];
        nodes.extend((1..=500).map(|i| node(if i < 500 { vec![i + 1] } else { Vec::new() })));
        let rig = Rig::from_source_nodes(&nodes).expect("a rig");
        let turn = Keyframes::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_y(1.0)]);
        let spin = Channel::new(NodeId(0), Interpolation::Linear, vec![0.0, 1.0], turn).expect("a channel");
        let spin = Clip::new(None, vec![spin], &rig).map_err(|(_, e)| e).expect("a clip");
        let blade = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![Vec3::Z; 3], vec![0, 1, 2], None);
        let model = Model::new(ModelParts {
            rig: Some(rig),
            clips: vec![spin],
            meshes: vec![Mesh { name: None, primitives: vec![blade] }],
            instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
            ..ModelParts::default()
        })
        .expect("a model");
        let program = Program::for_clip(&model, 0);
        assert_eq!(program.scratch().world.len(), 1, "the root's only");
    }
}
