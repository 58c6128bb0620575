//! Which of a model's mesh instances an animation can hide (`KHR_node_visibility`): each
//! such instance's visibility is packed into its palette after the animated properties, 1 or
//! 0, from the visibility properties of its node and the node's ancestors.

use crate::node_id::NodeId;
use crate::rig::Rig;

/// Which mesh instances an animated visibility can hide: for each, where the visibility
/// values of its node and the node's ancestors lie among a pose's property values.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Visibility {
    chains: Vec<Vec<u32>>,
    /// Per mesh instance, its index among `chains`.
    of: Vec<Option<u32>>,
}

impl Visibility {
    /// Heap bytes of its chains.
    pub(crate) fn heap_bytes(&self) -> u64 {
        let chains: usize = self.chains.iter().map(|chain| size_of_val(chain) + size_of_val(&**chain)).sum();
        (chains + size_of_val(&*self.of)) as u64
    }

    /// The chains of mesh instances on `nodes` (one node per mesh instance, in order).
    pub(crate) fn new(rig: &Rig, nodes: impl Iterator<Item = NodeId>) -> Self {
        let mut by_node: Vec<Option<u32>> = vec![None; rig.len()];
        for (id, node) in rig.properties().visibility() {
            by_node[node.index()] = Some(rig.properties().range(id).start as u32);
        }
        let mut visibility = Self::default();
        if by_node.iter().all(Option::is_none) {
            visibility.of = nodes.map(|_| None).collect();
            return visibility;
        }
        for node in nodes {
            let mut chain = Vec::new();
            let mut at = Some(node);
            while let Some(n) = at {
                chain.extend(by_node[n.index()]);
                at = rig.parent(n);
            }
            visibility.of.push((!chain.is_empty()).then_some(visibility.chains.len() as u32));
            if !chain.is_empty() {
                visibility.chains.push(chain);
            }
        }
        visibility
    }

    /// Mesh instances an animation can hide.
    pub(crate) fn len(&self) -> usize {
        self.chains.len()
    }

    /// Mesh instance `instance`'s index among those an animation can hide.
    pub(crate) fn of(&self, instance: usize) -> Option<usize> {
        Some(self.of.get(instance).copied().flatten()? as usize)
    }

    /// The values a palette carries after the morph weights, for a pose's property values
    /// `properties`: those values, then 1 or 0 for each mesh instance that can be hidden
    /// (0 when its node or an ancestor is not visible).
    pub(crate) fn packed<'a>(&'a self, properties: &'a [f32]) -> impl Iterator<Item = f32> + 'a {
        let shown = |chain: &Vec<u32>| if chain.iter().any(|&v| properties[v as usize] == 0.0) { 0.0 } else { 1.0 };
        properties.iter().copied().chain(self.chains.iter().map(shown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::property::{MaterialField, Properties, PropertyTarget};
    use crate::rig::SourceNode;
    use crate::transform::RestTransform;

    /// A mesh instance below two hidable nodes is hidden when either is.
    #[test]
    fn visibility_follows_every_ancestor() {
        let node = |children: Vec<u32>| SourceNode {
            name: None,
            children,
            rest: RestTransform::Trs(crate::Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let mut rig = Rig::from_source_nodes(&[node(vec![1]), node(vec![2]), node(vec![])]).expect("a chain");
        let mut table = Properties::new();
        table.add(PropertyTarget::Material { material: 0, field: MaterialField::Metallic }, &[0.5]);
        table.add(PropertyTarget::NodeVisible(NodeId(0)), &[1.0]);
        table.add(PropertyTarget::NodeVisible(NodeId(1)), &[1.0]);
        rig.set_properties(table);
        let visibility = Visibility::new(&rig, [NodeId(2), NodeId(0)].into_iter());
        assert_eq!((visibility.len(), visibility.of(0), visibility.of(1)), (2, Some(0), Some(1)));
        let packed = |values: [f32; 3]| visibility.packed(&values).collect::<Vec<_>>();
        assert_eq!(packed([0.5, 1.0, 1.0]), [0.5, 1.0, 1.0, 1.0, 1.0]);
        assert_eq!(packed([0.5, 1.0, 0.0]), [0.5, 1.0, 0.0, 0.0, 1.0], "the middle node hides the leaf only");
        assert_eq!(packed([0.5, 0.0, 1.0]), [0.5, 0.0, 1.0, 0.0, 0.0], "the root hides both");
        let none = Visibility::new(&Rig::from_source_nodes(&[node(vec![])]).expect("one"), [NodeId(0)].into_iter());
        assert_eq!((none.len(), none.of(0)), (0, None));
    }
}
