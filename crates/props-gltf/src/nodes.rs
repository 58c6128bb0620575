//! Nodes and skins: the rig (hierarchy, rest transforms, default morph weights) and the
//! skins' joints with their inverse bind matrices.

use glam::{Affine3A, Mat4, Quat, Vec3};
use gltf::json::Root;
use props_anim::{Mesh, RestTransform, Rig, RigError, Skin, SkinError, SourceNode, Transform};

use crate::accessor::{Accessors, FLOAT};
use crate::error::{ErrorKind, ImportError};
use crate::index_u32;
use crate::instancing::Instancing;
use crate::limits::{self, Limits};

/// How far the last row of a matrix may be from `0, 0, 0, 1` and still count as affine.
const AFFINE_TOLERANCE: f32 = 1e-4;

/// Builds the rig from every node of the file (a `matrix` of a node a clip moves by parts,
/// `moved[i]`, taken apart into them), then one child per mesh instance of each
/// instanced node (see [`Instancing`]), then, when the model is `turned` (a VRM 0.x avatar,
/// which faces -Z: [`crate::vrm`]), a root above the file's roots that turns them half round
/// about +Y to face +Z. `meshes` (the imported glTF meshes) give the morph target count of the
/// mesh on each node.
pub(crate) fn import_rig(
    (root, moved): (&Root, &[bool]),
    meshes: &[Mesh],
    instancing: &Instancing,
    limits: &Limits,
    turned: bool,
) -> Result<Rig, ImportError> {
    limits::check(root.nodes.len() as u64, limits.max_nodes.into(), "number of nodes", "nodes")?;
    let mut nodes = Vec::with_capacity(root.nodes.len());
    // The morph weights of every node, each instance's too, counted before they are made: each
    // posed prop copies and writes them all.
    let mut weights = 0u64;
    for (i, node) in root.nodes.iter().enumerate() {
        let path = format!("nodes[{i}]");
        // A mesh all of whose primitives were left out has no morph targets left to weigh.
        let mesh = node.mesh.filter(|m| meshes.get(m.value()).is_some_and(|m| !m.primitives.is_empty()));
        let morph_weights = match mesh {
            Some(mesh) => {
                let mesh_index = mesh.value();
                let targets = meshes.get(mesh_index).map_or(0, Mesh::morph_target_count);
                let placed = 1 + instancing.of(i).len() as u64;
                weights = weights.saturating_add((targets as u64).saturating_mul(placed));
                let (limit, at) = (limits.max_morph_weights.into(), format!("{path}.mesh"));
                limits::check(weights, limit, "morph weights of every node together", &at)?;
                let defaults = root.meshes.get(mesh_index).and_then(|m| m.weights.as_ref());
                match (&node.weights, defaults) {
                    (Some(weights), _) => morph_weights(weights, targets, &format!("{path}.weights"))?,
                    (None, Some(weights)) => morph_weights(weights, targets, &format!("meshes[{mesh_index}].weights"))?,
                    (None, None) => vec![0.0; targets],
                }
            }
            None => Vec::new(),
        };
        nodes.push(SourceNode {
            name: node.name.clone(),
            children: node.children.iter().flatten().map(|c| index_u32(c.value())).collect(),
            rest: rest_transform(node, &path, moved.get(i).copied().unwrap_or(false))?,
            morph_weights,
        });
    }
    for n in 0..root.nodes.len() {
        let children = instancing.children(n);
        let morph_weights = nodes[n].morph_weights.clone();
        nodes[n].children.extend(children);
        for transform in instancing.of(n) {
            let rest = RestTransform::Trs(*transform);
            nodes.push(SourceNode { name: None, children: Vec::new(), rest, morph_weights: morph_weights.clone() });
        }
    }
    if turned {
        let mut child = vec![false; nodes.len()];
        for &c in nodes.iter().flat_map(|n| &n.children) {
            if let Some(child) = child.get_mut(c as usize) {
                *child = true;
            }
        }
        let children = (0..).zip(&child).filter(|(_, c)| !**c).map(|(n, _)| n).collect();
        let rest = RestTransform::Trs(Transform::from_rotation(Quat::from_rotation_y(std::f32::consts::PI)));
        nodes.push(SourceNode { name: None, children, rest, morph_weights: Vec::new() });
    }
    Rig::from_source_nodes(&nodes).map_err(|error| {
        let path = match error {
            RigError::ChildOutOfRange { node, .. } | RigError::Cycle { node } => format!("nodes[{node}].children"),
            RigError::MultipleParents { second, .. } => format!("nodes[{second}].children"),
            RigError::TooManyNodes { .. } => "nodes".to_owned(),
        };
        ImportError::at(path, ErrorKind::Rig(error))
    })
}

/// Default morph weights, checked against the mesh's target count.
fn morph_weights(weights: &[f32], targets: usize, path: &str) -> Result<Vec<f32>, ImportError> {
    if weights.len() != targets {
        let kind = ErrorKind::MorphWeightCount { found: weights.len() as u64, expected: targets as u64 };
        return Err(ImportError::at(path, kind));
    }
    finite(weights, path)?;
    Ok(weights.to_vec())
}

/// The node's `matrix` (kept as a matrix: it may carry shear) or its TRS. The matrix of a
/// node a clip moves by parts (`moved_by_parts`: invalid glTF, which three.js plays) is taken
/// apart into them, as three.js takes it apart (a shear lost, as there); one that cannot be
/// (a scale of zero) stays a matrix, and the clip is dropped.
fn rest_transform(
    node: &gltf::json::scene::Node,
    path: &str,
    moved_by_parts: bool,
) -> Result<RestTransform, ImportError> {
    if let Some(matrix) = &node.matrix {
        let path = format!("{path}.matrix");
        finite(matrix, &path)?;
        let matrix = affine(matrix).map_err(|row| ImportError::at(path, ErrorKind::NodeMatrixNotAffine { row }))?;
        let (scale, rotation, translation) = matrix.to_scale_rotation_translation();
        let parts = Transform { translation, rotation: rotation.normalize(), scale };
        let whole = scale.is_finite() && parts.rotation.is_finite() && scale.cmpne(Vec3::ZERO).all();
        return Ok(if moved_by_parts && whole { RestTransform::Trs(parts) } else { RestTransform::Matrix(matrix) });
    }
    let translation = node.translation.unwrap_or([0.0; 3]);
    let rotation = node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |r| r.0);
    let scale = node.scale.unwrap_or([1.0; 3]);
    finite(&translation, &format!("{path}.translation"))?;
    finite(&rotation, &format!("{path}.rotation"))?;
    finite(&scale, &format!("{path}.scale"))?;
    // Unit length, as the spec asks (the checker admits rotations a little off it): a pose that
    // blends a node from its rest normalises it, and every pose of it must agree.
    let rotation = glam::Vec4::from_array(rotation).try_normalize().map_or(Quat::from_array(rotation), Quat::from_vec4);
    Ok(RestTransform::Trs(Transform {
        translation: Vec3::from_array(translation),
        rotation,
        scale: Vec3::from_array(scale),
    }))
}

/// Fails with [`ErrorKind::NonFinite`] at `path` if a value is NaN or infinite.
fn finite(values: &[f32], path: &str) -> Result<(), ImportError> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(element) => Err(ImportError::at(path, ErrorKind::NonFinite { element: element as u64 })),
        None => Ok(()),
    }
}

/// A column-major 4x4 matrix as an affine transform, or its last row if that is not
/// `0, 0, 0, 1` (within [`AFFINE_TOLERANCE`]).
fn affine(columns: &[f32; 16]) -> Result<Affine3A, [f32; 4]> {
    let matrix = Mat4::from_cols_array(columns);
    let row = matrix.row(3);
    if !row.abs_diff_eq(glam::Vec4::W, AFFINE_TOLERANCE) {
        return Err(row.to_array());
    }
    Ok(Affine3A::from_mat4(matrix))
}

/// Imports every skin of the file, in order.
pub(crate) fn import_skins(
    root: &Root,
    rig: &Rig,
    accessors: &Accessors<'_>,
    limits: &Limits,
) -> Result<Vec<Skin>, ImportError> {
    let mut skins = Vec::with_capacity(root.skins.len());
    for (s, skin) in root.skins.iter().enumerate() {
        let joints_path = format!("skins[{s}].joints");
        let matrices_path = format!("skins[{s}].inverseBindMatrices");
        let max_joints = limits.max_joints_per_skin.into();
        limits::check(skin.joints.len() as u64, max_joints, "joints of a skin", &joints_path)?;
        let joints = skin.joints.iter().map(|j| rig.from_source_index(index_u32(j.value()))).collect::<Option<_>>();
        let joints: Vec<_> = joints.ok_or_else(|| ImportError::at(&joints_path, ErrorKind::InvalidIndex))?;
        let inverse_bind = match skin.inverse_bind_matrices {
            Some(index) => {
                // glTF allows more matrices than joints: the extra ones are unused, so not read.
                let used = joints.len() as u64;
                let matrices = accessors.read_first::<f32, 16>(index.value(), &matrices_path, FLOAT, used)?;
                let affine = (0u64..).zip(&matrices).map(|(joint, m)| {
                    affine(m)
                        .map_err(|row| ImportError::at(&matrices_path, ErrorKind::InverseBindNotAffine { joint, row }))
                });
                Some(affine.collect::<Result<Vec<_>, _>>()?)
            }
            None => None,
        };
        let skin = Skin::new(skin.name.clone(), joints, inverse_bind, rig).map_err(|error| {
            let path = match error {
                SkinError::InverseBindCount { .. } | SkinError::NonFiniteInverseBind { .. } => &matrices_path,
                SkinError::NoJoints | SkinError::JointOutOfRange { .. } | SkinError::DuplicateJoint { .. } => {
                    &joints_path
                }
            };
            ImportError::at(path, ErrorKind::Skin(error))
        })?;
        skins.push(skin);
    }
    Ok(skins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_are_column_major_and_must_be_affine() {
        let mut columns = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0)).to_cols_array();
        columns[4] = 0.5; // shear: x += 0.5 y
        let matrix = affine(&columns).expect("affine");
        assert_eq!(matrix.transform_point3(Vec3::Y), Vec3::new(1.5, 3.0, 3.0));
        columns[3] = 0.1;
        assert_eq!(affine(&columns), Err([0.1, 0.0, 0.0, 1.0]));
        columns[3] = 0.5e-4;
        assert!(affine(&columns).is_ok());
    }
}
