//! The rig's node constraints on the fast path: one lane at a time, through the general
//! path's own [`Constraints::apply`], reading and setting the lanes' slots. Both paths give it
//! the same locals, so their results are the same bits.

use glam::{Affine3A, Quat, Vec3, Vec4};

use super::{Lanes, Program, Scratch};
use crate::constraint::{Constraints, Locals};
use crate::node_id::NodeId;
use crate::transform::Transform;

/// What the constraints of a program's rig read and set (empty when it has none).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct ProgramConstraints {
    constraints: Constraints,
    parents: Vec<Option<NodeId>>,
    /// Each rig node's local: its slot, or its rest.
    locals: Vec<NodeLocal>,
    /// Each rig node's place among the world matrices a scratch holds for aims (those of the
    /// nodes they read; `u32::MAX` for the others).
    world_at: Vec<u32>,
}

/// Where a node's local is on the fast path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum NodeLocal {
    /// Computed per instance, in this slot.
    Slot(u32),
    /// Its rest, the same for every instance (its rotation, and the matrix of the whole).
    Rest(Quat, Affine3A),
}

impl ProgramConstraints {
    /// The constraints of a rig with `parents`, its nodes' locals as `locals` says.
    pub(super) fn new(constraints: &Constraints, parents: &[Option<NodeId>], locals: Vec<NodeLocal>) -> Self {
        if constraints.is_empty() {
            return Self::default();
        }
        let mut world_at = vec![u32::MAX; parents.len()];
        for (at, node) in (0u32..).zip(constraints.read()) {
            world_at[node.index()] = at;
        }
        Self { constraints: constraints.clone(), parents: parents.to_vec(), locals, world_at }
    }
}

/// One lane of a batch's locals, and the world matrices the constraints compute for it (at
/// `world_at`).
struct Lane<'a> {
    nodes: &'a [NodeLocal],
    locals: &'a mut [Lanes],
    lane: usize,
    world_at: &'a [u32],
    worlds: &'a mut [Affine3A],
}

impl Lane<'_> {
    fn transform(&self, slot: u32) -> Transform {
        let [t, r, s] = &self.locals[slot as usize];
        let k = self.lane;
        Transform {
            translation: Vec3::new(t[0][k], t[1][k], t[2][k]),
            rotation: Quat::from_xyzw(r[0][k], r[1][k], r[2][k], r[3][k]),
            scale: Vec3::new(s[0][k], s[1][k], s[2][k]),
        }
    }
}

impl Locals for Lane<'_> {
    fn rotation(&self, node: NodeId) -> Quat {
        match self.nodes[node.index()] {
            NodeLocal::Slot(slot) => self.transform(slot).rotation,
            NodeLocal::Rest(rotation, _) => rotation,
        }
    }

    fn set_rotation(&mut self, node: NodeId, rotation: Quat) {
        // Constrained nodes always have a slot (`compile.rs`).
        if let NodeLocal::Slot(slot) = self.nodes[node.index()] {
            let r = &mut self.locals[slot as usize][1];
            for (component, value) in r.iter_mut().zip(rotation.to_array()) {
                let mut lanes: [f32; 4] = component.to_array();
                lanes[self.lane] = value;
                *component = Vec4::from_array(lanes);
            }
        }
    }

    fn matrix(&self, node: NodeId) -> Affine3A {
        match self.nodes[node.index()] {
            NodeLocal::Slot(slot) => self.transform(slot).to_affine(),
            NodeLocal::Rest(_, matrix) => matrix,
        }
    }

    fn world(&self, node: NodeId) -> Affine3A {
        self.worlds[self.world_at[node.index()] as usize]
    }

    fn set_world(&mut self, node: NodeId, world: Affine3A) {
        self.worlds[self.world_at[node.index()] as usize] = world;
    }
}

impl ProgramConstraints {
    /// World matrices a scratch holds for them: one per node aims read.
    pub(super) fn worlds(&self) -> Vec<Affine3A> {
        vec![Affine3A::IDENTITY; self.constraints.read().len()]
    }
}

impl Program {
    /// Runs the rig's constraints on each of the four lanes' locals. Like a driver's, their
    /// nodes' rotations are set whole each time, from what the constraints read: `dirty`
    /// leaves them out.
    pub(super) fn constrain4(&self, scratch: &mut Scratch) {
        let ProgramConstraints { constraints, parents, locals, world_at } = &self.constraints;
        if constraints.is_empty() {
            return;
        }
        let Scratch { locals: lanes, constraint_worlds: worlds, .. } = scratch;
        for lane in 0..4 {
            constraints.apply(parents, &mut Lane { nodes: locals, locals: lanes, lane, world_at, worlds });
        }
    }
}
