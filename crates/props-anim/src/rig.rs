//! The node hierarchy of a model, sorted parent-before-child.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Affine3A;

use crate::constraint::{ConstraintError, Constraints, NodeConstraint};
use crate::node_id::NodeId;
use crate::property::Properties;
use crate::transform::RestTransform;

/// A node as the source file describes it, in source order (see [`Rig::from_source_nodes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SourceNode {
    /// Name, if any.
    pub name: Option<String>,
    /// Children, as source indices.
    pub children: Vec<u32>,
    /// Rest local transform.
    pub rest: RestTransform,
    /// Default morph target weights of the mesh on this node (empty when it has none).
    pub morph_weights: Vec<f32>,
}

/// Why a set of source nodes is not a valid hierarchy.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RigError {
    /// A child index is past the end of the node list.
    #[error("node {node} lists child {child}, but there are only {count} nodes")]
    ChildOutOfRange {
        /// Source index of the parent.
        node: u32,
        /// The bad child index.
        child: u32,
        /// Number of nodes.
        count: usize,
    },
    /// A node is listed as a child of two nodes (or twice by one).
    #[error("node {child} has two parents, {first} and {second}")]
    MultipleParents {
        /// Source index of the child.
        child: u32,
        /// The first parent found.
        first: u32,
        /// The second parent found.
        second: u32,
    },
    /// The hierarchy has a cycle, so it is not a forest.
    #[error("node {node} is part of a cycle in the node hierarchy")]
    Cycle {
        /// Source index of a node on the cycle.
        node: u32,
    },
    /// More nodes than a [`NodeId`] can index.
    #[error("{count} nodes is more than the supported maximum; join objects or delete empty ones")]
    TooManyNodes {
        /// Number of nodes.
        count: usize,
    },
}

/// Every node of a model in parent-before-child order: `parent(i) < i` for every node `i`.
///
/// Holds names, rest transforms, default morph weights, the animatable properties and the
/// mapping to source (glTF) indices.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    parents: Vec<Option<NodeId>>,
    rest: Vec<RestTransform>,
    names: Vec<Option<String>>,
    morph_offsets: Vec<u32>,
    morph_defaults: Vec<f32>,
    to_source: Vec<u32>,
    from_source: Vec<NodeId>,
    properties: Properties,
    /// The humanoid bones the file itself names (a VRM avatar's table), by VRM's bone names;
    /// `None` when the file declares no avatar.
    humanoid: Option<Vec<(String, NodeId)>>,
    /// Rotations set from other nodes' whenever a pose's world matrices are computed.
    constraints: Constraints,
}

impl Rig {
    /// Builds a rig from nodes in source order, checking that they form a forest and sorting
    /// them so that every parent precedes its children. Nodes already in that order keep it.
    pub fn from_source_nodes(nodes: &[SourceNode]) -> Result<Self, RigError> {
        let count = nodes.len();
        if u32::try_from(count).is_err() {
            return Err(RigError::TooManyNodes { count });
        }
        let mut source_parent: Vec<Option<u32>> = vec![None; count];
        for (index, node) in (0u32..).zip(nodes) {
            for &child in &node.children {
                let slot = source_parent.get_mut(child as usize).ok_or(RigError::ChildOutOfRange {
                    node: index,
                    child,
                    count,
                })?;
                if let Some(first) = *slot {
                    return Err(RigError::MultipleParents { child, first, second: index });
                }
                *slot = Some(index);
            }
        }
        // Kahn's algorithm, smallest source index first: stable for already-sorted input.
        let mut ready: BinaryHeap<Reverse<u32>> =
            (0u32..).zip(&source_parent).filter(|(_, p)| p.is_none()).map(|(i, _)| Reverse(i)).collect();
        let mut to_source = Vec::with_capacity(count);
        while let Some(Reverse(index)) = ready.pop() {
            to_source.push(index);
            ready.extend(nodes[index as usize].children.iter().map(|&c| Reverse(c)));
        }
        let mut from_source = vec![NodeId(u32::MAX); count];
        for (rig_index, &source) in (0u32..).zip(&to_source) {
            from_source[source as usize] = NodeId(rig_index);
        }
        if let Some(node) = from_source.iter().position(|id| id.0 == u32::MAX) {
            return Err(RigError::Cycle { node: node as u32 });
        }
        let mut morph_offsets = Vec::with_capacity(count + 1);
        let mut morph_defaults = Vec::new();
        for &source in &to_source {
            morph_offsets.push(morph_defaults.len() as u32);
            morph_defaults.extend_from_slice(&nodes[source as usize].morph_weights);
        }
        morph_offsets.push(morph_defaults.len() as u32);
        Ok(Self {
            parents: to_source.iter().map(|&s| source_parent[s as usize].map(|p| from_source[p as usize])).collect(),
            rest: to_source.iter().map(|&s| nodes[s as usize].rest).collect(),
            names: to_source.iter().map(|&s| nodes[s as usize].name.clone()).collect(),
            morph_offsets,
            morph_defaults,
            to_source,
            from_source,
            properties: Properties::new(),
            humanoid: None,
            constraints: Constraints::default(),
        })
    }

    /// Number of nodes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Heap bytes of the rig's tables: a few dozen bytes a node, with its name.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let names: usize = self.names.iter().flatten().map(String::len).sum();
        let humanoid: usize =
            self.humanoid.iter().flatten().map(|(bone, _)| size_of::<(String, NodeId)>() + bone.len()).sum();
        let tables = size_of_val(&*self.parents)
            + size_of_val(&*self.rest)
            + size_of_val(&*self.names)
            + size_of_val(&*self.morph_offsets)
            + size_of_val(&*self.morph_defaults)
            + size_of_val(&*self.to_source)
            + size_of_val(&*self.from_source);
        (tables + names + humanoid) as u64 + self.properties.heap_bytes() + self.constraints.heap_bytes()
    }

    /// True when the rig has no nodes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// All node ids in rig order (parents first).
    pub fn nodes(&self) -> impl ExactSizeIterator<Item = NodeId> + use<> {
        (0..self.len() as u32).map(NodeId)
    }

    /// The parent of `node`; always a smaller id.
    #[must_use]
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        self.parents[node.index()]
    }

    /// Parents of all nodes, indexed by rig order.
    #[must_use]
    pub fn parents(&self) -> &[Option<NodeId>] {
        &self.parents
    }

    /// Each node's number of ancestors, indexed by rig order: one pass, parents coming first
    /// (not a walk to the root per node, which a long chain makes quadratic).
    #[must_use]
    pub fn depths(&self) -> Vec<u32> {
        let mut depths = vec![0u32; self.len()];
        for (n, parent) in self.parents.iter().enumerate() {
            depths[n] = parent.map_or(0, |p| depths[p.index()] + 1);
        }
        depths
    }

    /// The rest local transform of `node`.
    #[must_use]
    pub fn rest(&self, node: NodeId) -> &RestTransform {
        &self.rest[node.index()]
    }

    /// The rest local matrix of `node` (Babylon's "rest" matrix).
    #[must_use]
    pub fn rest_matrix(&self, node: NodeId) -> Affine3A {
        self.rest[node.index()].to_affine()
    }

    /// The name of `node`, if it has one.
    #[must_use]
    pub fn name(&self, node: NodeId) -> Option<&str> {
        self.names[node.index()].as_deref()
    }

    /// Whether the file declares the model a humanoid avatar (a VRM file), and the bones its
    /// table names, by VRM's bone names (`hips`, `leftUpperLeg`, ...), which
    /// [`crate::humanoid::BoneMap::find`] takes over the nodes' names (the table may be empty
    /// or make no skeleton: then the names alone count). `None` for most files.
    #[must_use]
    pub fn humanoid(&self) -> Option<&[(String, NodeId)]> {
        self.humanoid.as_deref()
    }

    /// The rig declared a humanoid avatar whose table names `bones` ([`Rig::humanoid`]).
    #[must_use]
    pub fn with_humanoid(mut self, bones: Vec<(String, NodeId)>) -> Self {
        self.humanoid = Some(bones);
        self
    }

    /// Its node constraints (twist bones, aims: a VRM avatar's; none for most files), in the
    /// order they run.
    #[must_use]
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    /// Sets its node constraints ([`Rig::constraints`], replacing any), run by
    /// [`crate::Pose::compute_world`] and the fast path alike, ordered so that each runs after
    /// those it reads: all of `constraints`, or none and the first error
    /// ([`Rig::admit_constraints`] says what is checked; the rig then keeps those it had).
    pub fn set_constraints(&mut self, constraints: &[NodeConstraint]) -> Result<(), ConstraintError> {
        let (admitted, refused) = Constraints::admit(constraints, &self.parents, &self.rest);
        match refused.into_iter().next() {
            Some(error) => Err(error),
            None => {
                self.constraints = admitted;
                Ok(())
            }
        }
    }

    /// Sets those of `constraints` it can run (replacing any), as [`Rig::set_constraints`]
    /// does, and returns why each other was refused, in the list's order: the nodes are not
    /// this rig's, or are given by a matrix; a constraint follows its own node, is a second on
    /// one node, or has a weight outside `[0, 1]`; it reads what it sets (of a cycle, the first
    /// in the list is refused); or aims would cost a pose too much ([`crate::constraint::MAX_AIM_WALK`]: that one
    /// and all after it). How an importer degrades a file's constraints at the finest grain.
    /// Poses made before still fit the rig; programs compiled before
    /// ([`crate::runtime::Program::new`]) do not run them. An imported model's rig holds the
    /// file's constraints: to change them, build the model anew from [`crate::ModelParts`].
    pub fn admit_constraints(&mut self, constraints: &[NodeConstraint]) -> Vec<ConstraintError> {
        let (admitted, refused) = Constraints::admit(constraints, &self.parents, &self.rest);
        self.constraints = admitted;
        refused
    }

    /// The first node (in rig order) with this name.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.names.iter().position(|n| n.as_deref() == Some(name)).map(|i| NodeId(i as u32))
    }

    /// Default morph weights of the mesh on `node` (empty when it has none).
    #[must_use]
    pub fn morph_weights(&self, node: NodeId) -> &[f32] {
        &self.morph_defaults[self.morph_range(node)]
    }

    /// Where `node`'s morph weights live in a flat per-rig weight array.
    #[must_use]
    pub fn morph_range(&self, node: NodeId) -> std::ops::Range<usize> {
        let i = node.index();
        self.morph_offsets[i] as usize..self.morph_offsets[i + 1] as usize
    }

    /// Default morph weights of all nodes, flat, in rig order.
    #[must_use]
    pub fn morph_defaults(&self) -> &[f32] {
        &self.morph_defaults
    }

    /// The properties beyond transforms and morph weights that clips on this rig may animate
    /// (materials, lights, node visibility), with their rest values: what a pose holds
    /// beside its morph weights.
    #[must_use]
    pub fn properties(&self) -> &Properties {
        &self.properties
    }

    /// Sets the animatable properties (see [`Rig::properties`]): an importer lists those its
    /// clips animate before building the clips. Poses made before no longer fit the rig.
    pub fn set_properties(&mut self, properties: Properties) {
        self.properties = properties;
    }

    /// The source (glTF) index of `node`.
    #[must_use]
    pub fn source_index(&self, node: NodeId) -> u32 {
        self.to_source[node.index()]
    }

    /// The rig node of a source (glTF) index, if in range.
    #[must_use]
    pub fn from_source_index(&self, source: u32) -> Option<NodeId> {
        self.from_source.get(source as usize).copied()
    }
}
