//! What [`crate::Model::new`] and [`crate::Model::with_impostor`] refuse: a cross-reference
//! inside a model that points nowhere, or a part that cannot be drawn as it says.

use crate::property::PropertyTarget;

/// A cross-reference inside a model that points nowhere.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// No rig was given.
    #[error("the model has no rig")]
    NoRig,
    /// A mesh instance names a node, mesh or skin that does not exist.
    #[error("mesh instance {instance} refers to missing {what} {index}")]
    MissingReference {
        /// Index of the mesh instance.
        instance: usize,
        /// "node", "mesh" or "skin".
        what: &'static str,
        /// The bad index.
        index: u32,
    },
    /// A skinned primitive uses a joint index past the end of its skin.
    #[error("mesh {mesh} primitive {primitive} uses joint {joint} but skin {skin} has {joints} joints")]
    JointOutOfRange {
        /// Mesh index.
        mesh: u32,
        /// Primitive index.
        primitive: usize,
        /// Skin index.
        skin: u32,
        /// Largest joint index used.
        joint: u16,
        /// Joints in the skin.
        joints: usize,
    },
    /// The node's morph weights do not match the mesh's morph target count.
    #[error("node {node} has {weights} morph weights but mesh {mesh} has {targets} morph targets")]
    MorphCount {
        /// Rig node.
        node: u32,
        /// Mesh index.
        mesh: u32,
        /// Morph weights on the node.
        weights: usize,
        /// Morph targets of the mesh.
        targets: usize,
    },
    /// A light instance names a node that does not exist.
    #[error("light instance {instance} refers to missing node {node}")]
    MissingLightNode {
        /// Index of the light instance.
        instance: usize,
        /// The bad node index.
        node: u32,
    },
    /// An animated property names a node, material, texture or light the model does not have.
    #[error("an animated property targets {target:?}, which the model does not have")]
    MissingPropertyTarget {
        /// The property's target.
        target: PropertyTarget,
    },
    /// A primitive's level of detail is not a triangle list over its vertices, or is closer to
    /// the full surface than the level before it.
    #[error("mesh {mesh} primitive {primitive} level of detail {level}: {problem}")]
    BadLod {
        /// Mesh index.
        mesh: u32,
        /// Primitive index.
        primitive: usize,
        /// The level (1 is the first coarser one).
        level: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// A material variant ([`crate::Model::with_material_variants`]) that names what the model
    /// does not have, or more variants than [`crate::Model::MAX_MATERIAL_VARIANTS`].
    #[error("the model's material variant {variant}: {problem}")]
    BadMaterialVariant {
        /// Index of the variant.
        variant: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// Spring bones ([`crate::Model::with_springs`]) made for another rig.
    #[error("the model's {joints} spring joints were made for another rig")]
    SpringsOffRig {
        /// Their joints.
        joints: usize,
    },
    /// An impostor ([`crate::Model::with_impostor`]) that cannot stand in for the model.
    #[error("the model's impostor: {problem}")]
    BadImpostor {
        /// What is wrong.
        problem: &'static str,
    },
    /// A primitive, material or light instance refers to a missing material, image or light.
    #[error("{what} {index} does not exist")]
    MissingAsset {
        /// "material", "image" or "light".
        what: &'static str,
        /// The bad index.
        index: u32,
    },
}
