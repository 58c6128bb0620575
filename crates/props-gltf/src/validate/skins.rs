//! Skins: joints (not empty, within the limit, not repeated, under one common root that
//! `skeleton` names if given) and inverse bind matrices (MAT4 of FLOAT, no stride, one per
//! joint, affine).

use gltf::json::accessor::{ComponentType, Type};

use super::Check;
use super::accessors::Format;
use super::forest::Forest;
use super::importer::LIMIT_EXCEEDED;

/// Checks every skin; needs the node parents.
pub(super) fn check(check: &mut Check<'_>) {
    let root = check.root;
    let forest = Forest::new(&check.parents);
    for (s, skin) in root.skins.iter().enumerate() {
        let pointer = format!("/skins/{s}");
        let joints: Vec<usize> = skin.joints.iter().map(|j| j.value()).collect();
        let limit = u64::from(check.limits.max_joints_per_skin);
        if joints.len() as u64 > limit {
            let fix = crate::error::limit_fix("joints of a skin");
            let message = format!("{} joints, over the limit of {limit}; {fix}", joints.len());
            check.error(LIMIT_EXCEEDED, format!("{pointer}/joints"), message);
            continue;
        }
        if joints.is_empty() {
            check.error("EMPTY_ENTITY", format!("{pointer}/joints"), "a skin needs at least one joint");
        }
        for (k, joint) in joints.iter().enumerate() {
            if joints.get(..k).is_some_and(|earlier| earlier.contains(joint)) {
                let message = format!("node {joint} is already a joint of this skin");
                check.error("DUPLICATE_ELEMENTS", format!("{pointer}/joints/{k}"), message);
            }
        }
        let valid: Vec<usize> = joints.iter().copied().filter(|&j| j < root.nodes.len()).collect();
        // Joints on or under a loop (reported by the node checks) have no root to compare.
        if valid.iter().all(|&j| forest.has_root(j)) {
            common_root(check, &forest, &valid, skin.skeleton.map(|s| s.value()), &pointer);
        }
        if let Some(matrices) = skin.inverse_bind_matrices.map(|i| i.value()) {
            inverse_bind_matrices(check, matrices, joints.len(), &format!("{pointer}/inverseBindMatrices"));
        }
    }
}

/// The joints `valid` (existing nodes, all with a root) share a root, and `skeleton` is one of
/// their common roots: their lowest common ancestor or an ancestor of it.
fn common_root(check: &mut Check<'_>, forest: &Forest, valid: &[usize], skeleton: Option<usize>, pointer: &str) {
    let lowest = valid.split_first().and_then(|(&first, rest)| {
        rest.iter().try_fold(first, |common, &joint| forest.lowest_common_ancestor(common, joint))
    });
    if !valid.is_empty() && lowest.is_none() {
        check.error("SKIN_NO_COMMON_ROOT", format!("{pointer}/joints"), "the joints have no common root node");
    }
    if let Some(skeleton) = skeleton.filter(|&s| s < check.root.nodes.len())
        && !lowest.is_some_and(|lowest| forest.is_ancestor(skeleton, lowest))
    {
        let message = format!("skeleton node {skeleton} is not a common root of the joints");
        check.error("SKIN_SKELETON_INVALID", format!("{pointer}/skeleton"), message);
    }
}

/// The inverse bind matrices accessor of a skin of `joints` joints.
fn inverse_bind_matrices(check: &mut Check<'_>, index: usize, joints: usize, pointer: &str) {
    let Some(accessor) = check.root.accessors.get(index) else {
        return;
    };
    let view = accessor.buffer_view.and_then(|v| check.root.buffer_views.get(v.value()));
    if view.is_some_and(|v| v.byte_stride.is_some()) {
        let message = "the buffer view of inverse bind matrices cannot have a byteStride";
        check.error("SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", pointer, message);
    }
    if accessor.count.0 < joints as u64 {
        let message = format!("{} inverse bind matrices for {joints} joints, fewer than one each", accessor.count.0);
        check.error("INVALID_IBM_ACCESSOR_COUNT", pointer, message);
    }
    let format = Format::of(check, index);
    if !format.is_some_and(|f| f.is_one_of(&[(Type::Mat4, ComponentType::F32, false)])) {
        let found = format.map_or_else(|| "of no valid format".to_owned(), Format::describe);
        let message = format!("inverse bind matrices must be {{MAT4, FLOAT}}, not {found}");
        check.error("SKIN_IBM_INVALID_FORMAT", pointer, message);
        return;
    }
    let Some(data) = check.data(index) else {
        return;
    };
    // The last row of each column-major matrix: components 3, 7, 11 and 15.
    let bad = data.chunks_exact(16).enumerate().find_map(|(m, matrix)| {
        let row = [matrix[3], matrix[7], matrix[11], matrix[15]];
        (row != [0.0, 0.0, 0.0, 1.0]).then_some((m, row))
    });
    if let Some((m, row)) = bad {
        let message = format!("inverse bind matrix {m} is not affine: its last row is {row:?}, not [0, 0, 0, 1]");
        check.error("ACCESSOR_INVALID_IBM", pointer, message);
    }
}
