//! Node constraints ([`props_anim::constraint`]) on small rigs, by hand-worked cases: what a
//! rig takes is checked, each kind sets the rotation its formula gives, weights interpolate
//! from the rest, constraints run after those they read whatever their order, and a
//! constraint with no direction holds its rest. They are tested against three-vrm in the
//! workspace's `tests/runtime/constraints.rs`.

use glam::{Affine3A, Quat, Vec3};
use props_anim::constraint::{Axis, ConstraintError, ConstraintKind, MAX_AIM_WALK, NodeConstraint};
use props_anim::{NodeId, Pose, RestTransform, Rig, SourceNode, Transform};

use crate::support::{assert_close, assert_same_rotation, rig};

/// Root 0 with children 1 (1 up), 2 (1 along +X) and 3 (1 along +Z, with 4 below it, 1 up).
fn star() -> Rig {
    let t = Transform::from_translation;
    rig(&[(&[1, 2, 3], t(Vec3::ZERO)), (&[], t(Vec3::Y)), (&[], t(Vec3::X)), (&[4], t(Vec3::Z)), (&[], t(Vec3::Y))])
}

fn constraint(node: u32, source: u32, kind: ConstraintKind, weight: f32) -> NodeConstraint {
    NodeConstraint { node: NodeId(node), source: NodeId(source), kind, weight }
}

/// The local rotation of `node` after `rig`'s constraints run, with `turns` set first.
fn posed(rig: &Rig, turns: &[(u32, Quat)]) -> Pose {
    let mut pose = Pose::from_rest(rig);
    for &(node, rotation) in turns {
        let local = Transform { rotation, ..*pose.local_transform(NodeId(node)) };
        pose.set_local_transform(NodeId(node), local);
    }
    pose.compute_world(rig);
    pose
}

#[test]
fn a_rig_takes_only_constraints_it_can_run() {
    let mut rig = star();
    let roll = ConstraintKind::Roll(Axis::PositiveY);
    let aim = ConstraintKind::Aim(Axis::PositiveZ);
    let refused = |rig: &mut Rig, list: &[NodeConstraint]| rig.set_constraints(list).expect_err("refused");
    assert_eq!(
        refused(&mut rig, &[constraint(1, 2, roll, 1.0), constraint(2, 9, roll, 1.0)]),
        ConstraintError::OffRig { index: 1, node: 9, count: 5 }
    );
    assert_eq!(refused(&mut rig, &[constraint(1, 1, roll, 1.0)]), ConstraintError::OwnSource { index: 0 });
    assert_eq!(
        refused(&mut rig, &[constraint(1, 2, roll, 1.0), constraint(1, 3, roll, 1.0)]),
        ConstraintError::SecondOnNode { index: 1, node: NodeId(1) }
    );
    for weight in [-0.1, 1.5, f32::NAN] {
        assert!(matches!(
            refused(&mut rig, &[constraint(1, 2, roll, weight)]),
            ConstraintError::Weight { index: 0, .. }
        ));
    }
    // Each reads the other; and an aim at a node below its own moves what it aims at.
    assert_eq!(
        refused(&mut rig, &[constraint(1, 2, roll, 1.0), constraint(2, 1, ConstraintKind::Rotation, 1.0)]),
        ConstraintError::Cycle { index: 0 }
    );
    assert_eq!(refused(&mut rig, &[constraint(3, 4, aim, 1.0)]), ConstraintError::Cycle { index: 0 });
    // The first of the cycle is named, not one that only reads it.
    let rotation = ConstraintKind::Rotation;
    assert_eq!(
        refused(
            &mut rig,
            &[constraint(1, 2, rotation, 1.0), constraint(2, 3, rotation, 1.0), constraint(3, 2, rotation, 1.0)]
        ),
        ConstraintError::Cycle { index: 1 }
    );
    assert!(rig.constraints().is_empty(), "a refused list leaves the rig as it was");

    let matrix = SourceNode {
        name: None,
        children: Vec::new(),
        rest: RestTransform::Matrix(Affine3A::from_translation(Vec3::X)),
        morph_weights: Vec::new(),
    };
    let mut with_matrix =
        Rig::from_source_nodes(&[crate::support::node(&[1], Transform::IDENTITY), matrix]).expect("a rig");
    assert_eq!(
        refused(&mut with_matrix, &[constraint(1, 0, ConstraintKind::Rotation, 1.0)]),
        ConstraintError::MatrixNode { index: 0, node: NodeId(1) }
    );

    // A chain with an aim on each node at the source's root: aim `k` reads the `k + 1` nodes
    // above it, `k` of them set by the aims before it, each moving them all again.
    let depth = 400;
    let chain: Vec<(Vec<u32>, Transform)> =
        (0..depth).map(|i| (if i + 1 < depth { vec![i + 1] } else { vec![] }, Transform::IDENTITY)).collect();
    let nodes: Vec<SourceNode> = chain.iter().map(|(c, t)| crate::support::node(c, *t)).collect();
    let mut deep = Rig::from_source_nodes(&nodes).expect("a rig");
    let aims: Vec<NodeConstraint> = (1..depth - 1).map(|n| constraint(n, 0, aim, 1.0)).collect();
    let first_past = (0..aims.len()).find(|&k| (k + 1) * (k + 1) > MAX_AIM_WALK).expect("past the bound");
    assert_eq!(refused(&mut deep, &aims), ConstraintError::TooCostly { index: first_past });
    // Admitted as far as they may go; that one and all after it refused.
    let refused_all = deep.admit_constraints(&aims);
    assert_eq!(deep.constraints().len(), first_past);
    assert_eq!(refused_all.len(), aims.len() - first_past);
    assert!(refused_all.iter().all(|e| matches!(e, ConstraintError::TooCostly { .. })));
    deep.set_constraints(&aims[..first_past]).expect("within the bound");
}

#[test]
fn rotation_roll_and_aim_set_what_their_formulas_give() {
    let rest_2 = Quat::from_rotation_z(0.3);
    let t = Transform::from_translation;
    // The star, node 2 resting turned, to check the rest is what a constraint turns from.
    let mut rig = {
        let nodes = [
            crate::support::node(&[1, 2, 3], t(Vec3::ZERO)),
            crate::support::node(&[], t(Vec3::Y)),
            crate::support::node(&[], Transform { rotation: rest_2, ..t(Vec3::X) }),
            crate::support::node(&[4], t(Vec3::Z)),
            crate::support::node(&[], t(Vec3::Y)),
        ];
        Rig::from_source_nodes(&nodes).expect("a rig")
    };
    let turn = Quat::from_rotation_y(0.8) * Quat::from_rotation_x(0.5);

    // Rotation: the source's turn since its rest, on the node's rest.
    rig.set_constraints(&[constraint(2, 1, ConstraintKind::Rotation, 1.0)]).expect("taken");
    let pose = posed(&rig, &[(1, turn)]);
    assert_same_rotation(pose.local_transform(NodeId(2)).rotation, rest_2 * turn, 1e-6);

    // Roll about Y: only the turn's twist about the node's Y (in its rest frame).
    rig.set_constraints(&[constraint(2, 1, ConstraintKind::Roll(Axis::PositiveY), 1.0)]).expect("taken");
    let pose = posed(&rig, &[(1, turn)]);
    let delta = rest_2.inverse() * turn * rest_2;
    let twist = {
        let axis = Vec3::Y;
        let projected = delta.xyz().dot(axis) * axis;
        Quat::from_xyzw(projected.x, projected.y, projected.z, delta.w).normalize()
    };
    let rolled = pose.local_transform(NodeId(2)).rotation;
    assert_same_rotation(rolled, rest_2 * twist, 1e-6);
    // The twist keeps the node's Y where its rest has it.
    assert!((rolled * Vec3::Y - rest_2 * Vec3::Y).length() < 1e-6);

    // Weight: half way, by slerp from the rest.
    rig.set_constraints(&[constraint(2, 1, ConstraintKind::Rotation, 0.5)]).expect("taken");
    let pose = posed(&rig, &[(1, turn)]);
    assert_same_rotation(pose.local_transform(NodeId(2)).rotation, rest_2.slerp(rest_2 * turn, 0.5), 1e-6);
    rig.set_constraints(&[constraint(2, 1, ConstraintKind::Rotation, 0.0)]).expect("taken");
    assert_same_rotation(posed(&rig, &[(1, turn)]).local_transform(NodeId(2)).rotation, rest_2, 0.0);

    // Aim: node 1's -X points at node 4, wherever the root turns them.
    rig.set_constraints(&[constraint(1, 4, ConstraintKind::Aim(Axis::NegativeX), 1.0)]).expect("taken");
    for root in [Quat::IDENTITY, Quat::from_rotation_y(1.0) * Quat::from_rotation_z(0.4)] {
        let pose = posed(&rig, &[(0, root), (3, Quat::from_rotation_x(0.7))]);
        let [from, to] = [1, 4].map(|n| Vec3::from(pose.world_matrix(NodeId(n)).translation));
        let pointing = pose.world_matrix(NodeId(1)).transform_vector3(Vec3::NEG_X);
        assert!((pointing - (to - from).normalize()).length() < 1e-5, "{pointing} towards {}", (to - from).normalize());
    }
}

#[test]
fn constraints_run_after_those_they_read_whatever_their_order() {
    let roll = ConstraintKind::Roll(Axis::PositiveY);
    let turn = Quat::from_rotation_y(0.9) * Quat::from_rotation_z(0.2);
    let run = |list: &[NodeConstraint]| {
        let mut rig = star();
        rig.set_constraints(list).expect("taken");
        let pose = posed(&rig, &[(1, turn)]);
        (rig, pose)
    };
    // 4 follows 3, which rolls with 1; 2 aims at 4, below 3.
    let list = [
        constraint(4, 3, ConstraintKind::Rotation, 1.0),
        constraint(2, 4, ConstraintKind::Aim(Axis::PositiveY), 1.0),
        constraint(3, 1, roll, 1.0),
    ];
    let (rig, pose) = run(&list);
    let order: Vec<u32> = rig.constraints().iter().map(|c| c.node.0).collect();
    assert_eq!(order, [3, 4, 2], "each after what it reads");
    let twist = pose.local_transform(NodeId(3)).rotation;
    assert_close(twist.angle_between(Quat::IDENTITY), 0.9, 1e-5);
    assert_same_rotation(pose.local_transform(NodeId(4)).rotation, twist, 1e-6);
    let reversed: Vec<NodeConstraint> = list.iter().rev().copied().collect();
    let (_, again) = run(&reversed);
    for node in (0..5).map(NodeId) {
        assert_eq!(pose.world_matrix(node), again.world_matrix(node), "the list's order changes nothing");
    }
}

#[test]
fn a_constraint_with_no_direction_holds_its_rest() {
    let mut rig = star();
    // Node 1 aims at node 3 while the root is scaled to nothing: no direction, no rotation.
    rig.set_constraints(&[constraint(1, 3, ConstraintKind::Aim(Axis::PositiveX), 1.0)]).expect("taken");
    let mut pose = Pose::from_rest(&rig);
    pose.set_local_transform(NodeId(0), Transform { scale: Vec3::ZERO, ..Transform::IDENTITY });
    pose.compute_world(&rig);
    assert_eq!(pose.local_transform(NodeId(1)).rotation, Quat::IDENTITY);
    assert!(pose.world_matrices().iter().all(|m| m.is_finite()));
    // Aiming at a node in its own place.
    let t = Transform::from_translation;
    let mut same_place = crate::support::rig(&[(&[1, 2], t(Vec3::ZERO)), (&[], t(Vec3::X)), (&[], t(Vec3::X))]);
    same_place.set_constraints(&[constraint(1, 2, ConstraintKind::Aim(Axis::PositiveY), 1.0)]).expect("taken");
    let pose = posed(&same_place, &[]);
    assert_eq!(pose.local_transform(NodeId(1)).rotation, Quat::IDENTITY);
}

#[test]
fn a_list_of_many_cycles_is_admitted_in_one_pass_keeping_all_but_one_of_each() {
    // 2,000 nodes under a root, each pair following each other round.
    let pairs = 1000u32;
    let mut nodes = vec![crate::support::node(&(1..=2 * pairs).collect::<Vec<u32>>(), Transform::IDENTITY)];
    nodes.extend((0..2 * pairs).map(|_| crate::support::node(&[], Transform::IDENTITY)));
    let mut rig = Rig::from_source_nodes(&nodes).expect("a rig");
    let list: Vec<NodeConstraint> = (0..pairs)
        .flat_map(|p| {
            let (a, b) = (1 + 2 * p, 2 + 2 * p);
            [constraint(a, b, ConstraintKind::Rotation, 1.0), constraint(b, a, ConstraintKind::Rotation, 1.0)]
        })
        .collect();
    let refused = rig.admit_constraints(&list);
    assert_eq!(refused.len(), pairs as usize);
    for (p, error) in refused.iter().enumerate() {
        assert_eq!(*error, ConstraintError::Cycle { index: 2 * p }, "the first of each pair");
    }
    assert_eq!(rig.constraints().len(), pairs as usize);

    // One constraint reading two cycles: each cycle loses its first, the reader stays. Node 1
    // aims at node 7, below 5 below 2: it reads 5's and 2's rotations, each on a cycle.
    let rotation = ConstraintKind::Rotation;
    let t = Transform::from_translation;
    let mut rig = crate::support::rig(&[
        (&[1, 2, 3, 4, 6], Transform::IDENTITY),
        (&[], t(Vec3::X)),
        (&[5], t(Vec3::Y)),
        (&[], t(Vec3::NEG_X)),
        (&[], t(Vec3::Z)),
        (&[7], t(Vec3::Y)),
        (&[], t(Vec3::NEG_Z)),
        (&[], t(Vec3::Y)),
    ]);
    let list = [
        constraint(1, 7, ConstraintKind::Aim(Axis::PositiveX), 1.0),
        constraint(2, 3, rotation, 1.0),
        constraint(3, 2, rotation, 1.0),
        constraint(5, 6, rotation, 1.0),
        constraint(6, 5, rotation, 1.0),
    ];
    let refused = rig.admit_constraints(&list);
    assert_eq!(refused, [ConstraintError::Cycle { index: 1 }, ConstraintError::Cycle { index: 3 }]);
    let mut kept: Vec<u32> = rig.constraints().iter().map(|c| c.node.0).collect();
    kept.sort_unstable();
    assert_eq!(kept, [1, 3, 6], "the aim, and the second of each cycle");
}

/// Random lists on random rigs: admitting ends, keeps only what it can run (each after the
/// constraints setting what it reads) and refuses the rest one by one, and posing stays
/// finite.
#[test]
fn any_list_on_any_rig_is_admitted_and_poses_finite() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let kinds = [
        ConstraintKind::Rotation,
        ConstraintKind::Roll(Axis::PositiveY),
        ConstraintKind::Roll(Axis::NegativeZ),
        ConstraintKind::Aim(Axis::PositiveX),
        ConstraintKind::Aim(Axis::NegativeY),
    ];
    for _ in 0..300 {
        let count = 1 + next(24) as u32;
        // Each node's parent is an earlier one (or none).
        let parents: Vec<Option<u32>> =
            (0..count).map(|i| (i > 0 && next(5) > 0).then(|| next(i as u64) as u32)).collect();
        let nodes: Vec<SourceNode> = (0..count)
            .map(|i| {
                let children: Vec<u32> = (0..count).filter(|&c| parents[c as usize] == Some(i)).collect();
                let rest = Transform {
                    translation: Vec3::new(next(5) as f32 - 2.0, next(5) as f32 - 2.0, next(5) as f32 - 2.0),
                    rotation: Quat::from_rotation_y(next(7) as f32) * Quat::from_rotation_x(next(7) as f32),
                    scale: Vec3::splat([1.0, 0.5, 0.0][next(3) as usize]),
                };
                crate::support::node(&children, rest)
            })
            .collect();
        let mut rig = Rig::from_source_nodes(&nodes).expect("a forest");
        let list: Vec<NodeConstraint> = (0..next(2 * count as u64 + 1))
            .map(|_| {
                let weight = [0.0, 0.3, 1.0, 1.5][next(4) as usize];
                constraint(next(count as u64) as u32, next(count as u64 + 1) as u32, kinds[next(5) as usize], weight)
            })
            .collect();
        let refused = rig.admit_constraints(&list);
        assert_eq!(refused.len() + rig.constraints().len(), list.len(), "each kept or refused");
        assert!(refused.windows(2).all(|w| w[0].index() < w[1].index()), "in the list's order, once each");
        // Each runs after those setting its source (roll, rotation).
        let order: Vec<&NodeConstraint> = rig.constraints().iter().collect();
        for (k, c) in order.iter().enumerate() {
            if matches!(c.kind, ConstraintKind::Rotation | ConstraintKind::Roll(_)) {
                assert!(!order[k..].iter().any(|other| other.node == c.source), "{c:?} before its source's");
            }
        }
        let mut pose = Pose::from_rest(&rig);
        for node in rig.nodes() {
            let turn = Quat::from_rotation_z(next(7) as f32);
            let local =
                Transform { rotation: pose.local_transform(node).rotation * turn, ..*pose.local_transform(node) };
            pose.set_local_transform(node, local);
        }
        pose.compute_world(&rig);
        assert!(rig.nodes().all(|n| pose.local_transform(n).rotation.is_finite()));
    }
}
