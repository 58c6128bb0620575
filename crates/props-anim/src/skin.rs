//! Skins: joint lists into the rig with their inverse bind matrices.

use glam::Affine3A;

use crate::JointMatrix;
use crate::node_id::NodeId;
use crate::pose::Pose;
use crate::rig::Rig;

/// A skin: which rig nodes are its joints, and the inverse bind matrix of each.
///
/// Several skins of a model may share joints. Joint `j` of a vertex refers to `joints()[j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    name: Option<String>,
    joints: Vec<NodeId>,
    inverse_bind: Vec<Affine3A>,
}

/// Why a skin is invalid.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SkinError {
    /// The skin has no joints.
    #[error("skin has no joints to bind its vertices to")]
    NoJoints,
    /// A joint is not a node of the rig.
    #[error("joint {joint} is node {node}, out of range ({count} nodes)")]
    JointOutOfRange {
        /// Index in the joint list.
        joint: usize,
        /// The node id.
        node: u32,
        /// Number of nodes.
        count: usize,
    },
    /// The same node appears twice in the joint list.
    #[error("joints {first} and {second} are the same node")]
    DuplicateJoint {
        /// First index in the joint list.
        first: usize,
        /// Second index in the joint list.
        second: usize,
    },
    /// Not one inverse bind matrix per joint.
    #[error("{found} inverse bind matrices for {joints} joints")]
    InverseBindCount {
        /// Matrices given.
        found: usize,
        /// Joints in the skin.
        joints: usize,
    },
    /// An inverse bind matrix has a NaN or infinite element.
    #[error("inverse bind matrix {joint} is not finite")]
    NonFiniteInverseBind {
        /// Index in the joint list.
        joint: usize,
    },
}

impl Skin {
    /// Heap bytes of its joints and inverse binds, with its name.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let name = self.name.as_ref().map_or(0, String::len);
        (size_of_val(&*self.joints) + size_of_val(&*self.inverse_bind) + name) as u64
    }

    /// Builds a skin; `inverse_bind` of `None` means identity for every joint (glTF default).
    pub fn new(
        name: Option<String>,
        joints: Vec<NodeId>,
        inverse_bind: Option<Vec<Affine3A>>,
        rig: &Rig,
    ) -> Result<Self, SkinError> {
        if joints.is_empty() {
            return Err(SkinError::NoJoints);
        }
        let mut seen = vec![usize::MAX; rig.len()];
        for (joint, node) in joints.iter().enumerate() {
            let slot = seen.get_mut(node.index()).ok_or(SkinError::JointOutOfRange {
                joint,
                node: node.0,
                count: rig.len(),
            })?;
            if *slot != usize::MAX {
                return Err(SkinError::DuplicateJoint { first: *slot, second: joint });
            }
            *slot = joint;
        }
        let inverse_bind = inverse_bind.unwrap_or_else(|| vec![Affine3A::IDENTITY; joints.len()]);
        if inverse_bind.len() != joints.len() {
            return Err(SkinError::InverseBindCount { found: inverse_bind.len(), joints: joints.len() });
        }
        if let Some(joint) = inverse_bind.iter().position(|m| !m.is_finite()) {
            return Err(SkinError::NonFiniteInverseBind { joint });
        }
        Ok(Self { name, joints, inverse_bind })
    }

    /// The skin's name, if any.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Joint nodes, in the skin's joint order.
    #[must_use]
    pub fn joints(&self) -> &[NodeId] {
        &self.joints
    }

    /// Inverse bind matrix of each joint.
    #[must_use]
    pub fn inverse_bind_matrices(&self) -> &[Affine3A] {
        &self.inverse_bind
    }

    /// Writes the joint palette, `world(joint) * inverse_bind(joint)` for every joint, packed
    /// as 3x4 rows. `out` must hold exactly `joints().len()` matrices.
    ///
    /// # Panics
    /// If `out` has the wrong length.
    pub fn write_palette(&self, pose: &Pose, out: &mut [JointMatrix]) {
        assert_eq!(out.len(), self.joints.len(), "palette length must equal the joint count");
        for ((out, joint), inverse_bind) in out.iter_mut().zip(&self.joints).zip(&self.inverse_bind) {
            *out = JointMatrix::from_affine(&(pose.world_matrix(*joint) * *inverse_bind));
        }
    }
}
