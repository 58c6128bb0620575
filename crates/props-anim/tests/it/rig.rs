//! Rig construction: parent-before-child order and hierarchy errors.

use props_anim::{NodeId, Rig, RigError, SourceNode, Transform};

use crate::support::node;

fn nodes(children: &[&[u32]]) -> Vec<SourceNode> {
    children.iter().map(|c| node(c, Transform::IDENTITY)).collect()
}

#[test]
fn sorted_input_keeps_its_order() {
    let rig = Rig::from_source_nodes(&nodes(&[&[1, 3], &[2], &[], &[]])).expect("forest");
    for id in rig.nodes() {
        assert_eq!(rig.source_index(id), id.0);
    }
    assert_eq!(rig.parent(NodeId(3)), Some(NodeId(0)));
}

#[test]
fn children_before_parents_are_reordered() {
    // Source: 0 is a leaf of 1, 1 a child of 3, 3 the root; 2 is a separate root.
    let rig = Rig::from_source_nodes(&nodes(&[&[], &[0], &[], &[1]])).expect("forest");
    for id in rig.nodes() {
        if let Some(parent) = rig.parent(id) {
            assert!(parent < id, "parent {parent:?} after child {id:?}");
        }
        assert_eq!(rig.from_source_index(rig.source_index(id)), Some(id));
    }
    let by_source = |s| rig.from_source_index(s).expect("in range");
    assert_eq!(rig.parent(by_source(0)), Some(by_source(1)));
    assert_eq!(rig.parent(by_source(1)), Some(by_source(3)));
    assert_eq!(rig.parent(by_source(3)), None);
}

#[test]
fn hierarchy_errors_are_reported() {
    let err = |children: &[&[u32]]| Rig::from_source_nodes(&nodes(children)).expect_err("invalid");
    assert_eq!(err(&[&[1], &[0]]), RigError::Cycle { node: 0 });
    assert_eq!(err(&[&[0]]), RigError::Cycle { node: 0 });
    assert_eq!(err(&[&[2], &[2], &[]]), RigError::MultipleParents { child: 2, first: 0, second: 1 });
    assert_eq!(err(&[&[5]]), RigError::ChildOutOfRange { node: 0, child: 5, count: 1 });
}

#[test]
fn names_and_morph_weights_follow_their_nodes() {
    let mut source = nodes(&[&[], &[0]]);
    source[0].name = Some("leaf".into());
    source[0].morph_weights = vec![0.25, 0.5];
    let rig = Rig::from_source_nodes(&source).expect("forest");
    let leaf = rig.find("leaf").expect("named");
    assert_eq!(rig.source_index(leaf), 0);
    assert_eq!(rig.morph_weights(leaf), &[0.25, 0.5]);
    assert!(rig.morph_weights(rig.from_source_index(1).expect("in range")).is_empty());
}
