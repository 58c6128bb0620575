//! Nodes and scenes: the hierarchy is a forest (one parent, no loop, scenes list roots), a
//! node has a matrix or TRS and the matrix is a TRS, rotations are unit quaternions, every
//! number is finite as a 32-bit float, morph weights match the mesh, skins go with skinned
//! meshes.

use glam::{DMat4, DQuat, DVec3};

use super::Check;
use super::forest::nodes_in_loops;
use super::importer::{LIMIT_EXCEEDED, NON_FINITE};

/// How far a rotation's length may be from 1 (Khronos's `unitLengthThresholdVec4`).
pub(super) const UNIT_LENGTH_TOLERANCE: f64 = 0.00769;
/// How far a matrix may be from its own TRS decomposition (Khronos's `isTrsDecomposable`).
const TRS_TOLERANCE: f64 = 0.00005;

/// Checks every node and scene; fills [`Check::parents`] (a node listed as child twice gets
/// its last parent).
pub(super) fn check(check: &mut Check<'_>) {
    let root = check.root;
    let max = u64::from(check.limits.max_nodes);
    if root.nodes.len() as u64 > max {
        let fix = crate::error::limit_fix("number of nodes");
        let message = format!("{} nodes, over the limit of {max}; {fix}", root.nodes.len());
        check.error(LIMIT_EXCEEDED, "/nodes", message);
        return;
    }
    for (i, node) in root.nodes.iter().enumerate() {
        for (k, child) in node.children.iter().flatten().enumerate() {
            let child = child.value();
            match check.parents.get_mut(child) {
                // The later parent wins, as in Khronos's validator.
                Some(parent @ Some(_)) => {
                    let message = format!("node {child} is already a child of node {}", parent.unwrap_or_default());
                    *parent = Some(i);
                    check.error("NODE_PARENT_OVERRIDE", format!("/nodes/{i}/children/{k}"), message);
                }
                Some(parent) => *parent = Some(i),
                None => {}
            }
        }
        transform(check, i);
        mesh_and_skin(check, i);
    }
    for node in nodes_in_loops(&check.parents) {
        check.error("NODE_LOOP", format!("/nodes/{node}"), "the node is part of a loop in the hierarchy");
    }
    for (s, scene) in root.scenes.iter().enumerate() {
        for (k, node) in scene.nodes.iter().enumerate() {
            if let Some(Some(parent)) = check.parents.get(node.value()) {
                let message = format!("node {} is a child of node {parent}, not a root", node.value());
                check.error("SCENE_NON_ROOT_NODE", format!("/scenes/{s}/nodes/{k}"), message);
            }
        }
    }
}

/// The local transform of node `i`.
fn transform(check: &mut Check<'_>, i: usize) {
    let Some(node) = check.root.nodes.get(i) else {
        return;
    };
    let pointer = format!("/nodes/{i}");
    let fields: [(&str, Option<&[f32]>); 5] = [
        ("matrix", node.matrix.as_ref().map(|m| &m[..])),
        ("translation", node.translation.as_ref().map(|t| &t[..])),
        ("rotation", node.rotation.as_ref().map(|r| &r.0[..])),
        ("scale", node.scale.as_ref().map(|s| &s[..])),
        ("weights", node.weights.as_deref()),
    ];
    let mut finite = true;
    for (name, values) in fields {
        if let Some(at) = values.and_then(|v| v.iter().position(|x| !x.is_finite())) {
            let message = format!("element {at} is infinite or NaN as a 32-bit float");
            check.error(NON_FINITE, format!("{pointer}/{name}"), message);
            finite = false;
        }
    }
    if let Some(matrix) = node.matrix {
        if node.translation.is_some() || node.rotation.is_some() || node.scale.is_some() {
            let message = "a node has either a matrix or translation/rotation/scale, not both";
            check.error("NODE_MATRIX_TRS", format!("{pointer}/matrix"), message);
        }
        if finite && !is_trs(&matrix) {
            let message = "the matrix is not a translation, rotation and scale (projective, sheared or singular)";
            check.error("NODE_MATRIX_NON_TRS", format!("{pointer}/matrix"), message);
        }
    }
    if let Some(rotation) = node.rotation.map(|r| r.0) {
        for (k, &c) in rotation.iter().enumerate().filter(|(_, c)| !(-1.0..=1.0).contains(*c)) {
            check.error("VALUE_NOT_IN_RANGE", format!("{pointer}/rotation/{k}"), format!("{c} is not in -1..1"));
        }
        let length = rotation.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt();
        if (length - 1.0).abs() > UNIT_LENGTH_TOLERANCE {
            let message = format!("the rotation quaternion has length {length}, not 1");
            check.error("ROTATION_NON_UNIT", format!("{pointer}/rotation"), message);
        }
    }
}

/// Whether a column-major matrix is a TRS: affine, invertible, and equal to the TRS it
/// decomposes into (as Khronos's validator decides it).
fn is_trs(columns: &[f32; 16]) -> bool {
    let matrix = DMat4::from_cols_array(&columns.map(f64::from));
    if matrix.row(3) != glam::DVec4::W || matrix.determinant() == 0.0 {
        return false;
    }
    let (scale, rotation, translation): (DVec3, DQuat, DVec3) = matrix.to_scale_rotation_translation();
    let rebuilt = DMat4::from_scale_rotation_translation(scale, rotation, translation);
    let error = (0..4).map(|c| (rebuilt.col(c) - matrix.col(c)).abs().element_sum()).fold(0.0, f64::max);
    error < TRS_TOLERANCE
}

/// Node `i`'s mesh and skin: morph weights match the targets, a skin needs a mesh with
/// joints, a mesh with joints wants a skin.
fn mesh_and_skin(check: &mut Check<'_>, i: usize) {
    let Some(node) = check.root.nodes.get(i) else {
        return;
    };
    let pointer = format!("/nodes/{i}");
    let Some(mesh) = node.mesh.and_then(|m| check.root.meshes.get(m.value())) else {
        if node.skin.is_some() {
            check.error("UNSATISFIED_DEPENDENCY", format!("{pointer}/skin"), "a node with a skin needs a mesh");
        }
        return;
    };
    let targets = mesh.primitives.first().and_then(|p| p.targets.as_ref()).map_or(0, Vec::len);
    if let Some(weights) = &node.weights
        && weights.len() != targets
    {
        let message = format!("{} morph weights for a mesh with {targets} morph targets", weights.len());
        check.error("NODE_WEIGHTS_INVALID", format!("{pointer}/weights"), message);
    }
    let skinned = mesh.primitives.iter().any(|p| super::meshes::joint_sets(p) > 0);
    match (node.skin.is_some(), skinned) {
        (true, false) => {
            let message = "the node has a skin, but its mesh has no JOINTS_0/WEIGHTS_0";
            check.error("NODE_SKIN_WITH_NON_SKINNED_MESH", pointer, message);
        }
        (false, true) => {
            let message = "the node's mesh has joints and weights, but the node has no skin: it is drawn unskinned";
            check.warning("NODE_SKINNED_MESH_WITHOUT_SKIN", pointer, message);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trs_matrices() {
        let trs = DMat4::from_scale_rotation_translation(
            DVec3::new(1.0, 2.0, 3.0),
            DQuat::from_rotation_y(0.5),
            DVec3::new(4.0, 5.0, 6.0),
        );
        assert!(is_trs(&trs.to_cols_array().map(|x| x as f32)));
        let mut shear = DMat4::IDENTITY.to_cols_array().map(|x| x as f32);
        shear[4] = 0.5;
        assert!(!is_trs(&shear));
        let mut projective = DMat4::IDENTITY.to_cols_array().map(|x| x as f32);
        projective[3] = 0.5;
        assert!(!is_trs(&projective));
        assert!(!is_trs(&[0.0; 16]));
    }
}
