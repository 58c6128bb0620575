//! [`NodeId`]: a node's index in rig order.

/// Index of a node in a [`crate::Rig`], in rig order (parents before children).
///
/// Not the glTF node index: see [`crate::Rig::source_index`] and [`crate::Rig::from_source_index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as `usize`, for indexing per-node arrays.
    #[must_use]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
