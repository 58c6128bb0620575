//! Defects of skins (inverse bind matrices, joints, skinning attributes) and nodes.

use anyhow::Result;
use serde_json::json;

use super::doc::node;
use super::{Case, Doc};

/// The inverse bind matrices accessor.
const IBM: &str = "/skins/0/inverseBindMatrices";

/// Sets `field` of the inverse bind matrices accessor.
fn edit_ibm(doc: &mut Doc, field: &str, value: serde_json::Value) -> Result<()> {
    let accessor = doc.index(IBM)?;
    doc.set(&format!("/accessors/{accessor}/{field}"), value)
}

/// Overwrites vertex 0's JOINTS_0 (UNSIGNED_BYTE) and WEIGHTS_0 (FLOAT).
fn influence(doc: &mut Doc, joints: [u8; 4], weights: [f32; 4]) -> Result<()> {
    let joints_accessor = doc.attribute(0, "JOINTS_0")?;
    doc.write_bytes(joints_accessor, 0, &joints)?;
    let weights_accessor = doc.attribute(0, "WEIGHTS_0")?;
    let bytes: Vec<u8> = weights.iter().flat_map(|w| w.to_le_bytes()).collect();
    doc.write_bytes(weights_accessor, 0, &bytes)
}

/// Sets `field` of the morph quad's node.
fn edit_morph_node(doc: &mut Doc, field: &str, value: serde_json::Value) -> Result<()> {
    doc.set(&format!("/nodes/{}/{field}", node::MORPH), value)
}

/// The skin and node cases.
pub const CASES: &[Case] = &[
    Case::new("ibm_invalid_format", "skins", "inverse bind matrices as MAT3", |doc| {
        edit_ibm(doc, "type", json!("MAT3"))
    }),
    Case::new("ibm_too_few", "skins", "one inverse bind matrix for two joints", |doc| edit_ibm(doc, "count", json!(1))),
    Case::new("ibm_not_affine", "skins", "an inverse bind matrix with a projective last row", |doc| {
        let accessor = doc.index(IBM)?;
        doc.write_f32(accessor, 1, 3, 0.5)
    }),
    Case::new("joint_index_out_of_range", "skins", "a vertex weighted to joint 2 of a two-joint skin", |doc| {
        influence(doc, [2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0])
    }),
    Case::new("joint_index_duplicate", "skins", "a vertex weighted twice to joint 0", |doc| {
        influence(doc, [0, 0, 0, 0], [0.5, 0.5, 0.0, 0.0])
    }),
    Case::new("weights_negative", "skins", "a vertex with weights 1.5 and -0.5", |doc| {
        influence(doc, [0, 1, 0, 0], [1.5, -0.5, 0.0, 0.0])
    }),
    Case::new("weights_not_normalized", "skins", "a vertex whose weights sum to 0.7", |doc| {
        influence(doc, [0, 1, 0, 0], [0.5, 0.2, 0.0, 0.0])
    }),
    Case::new("skin_no_common_root", "skins", "skin joints in two separate trees", |doc| {
        doc.set("/skins/0/joints", json!([node::JOINT0, node::MORPH]))
    }),
    Case::new("skin_skeleton_invalid", "skins", "skin.skeleton is not an ancestor of the joints", |doc| {
        doc.set("/skins/0/skeleton", json!(node::MORPH))
    }),
    Case::new("skin_duplicate_joints", "skins", "the same node twice in skin.joints", |doc| {
        doc.set("/skins/0/joints", json!([node::JOINT0, node::JOINT0]))
    }),
    Case::new("skin_without_joints", "skins", "an empty skin.joints", |doc| doc.set("/skins/0/joints", json!([])))
        .game(&["PROPS_SKIN_WITHOUT_JOINTS /skins/0/joints"]),
    Case::new("skin_on_unskinned_mesh", "skins", "a skin on a node whose mesh has no JOINTS_0/WEIGHTS_0", |doc| {
        edit_morph_node(doc, "skin", json!(0))
    }),
    Case::new("node_loop", "nodes", "a joint listing its own parent as child", |doc| {
        doc.set(&format!("/nodes/{}/children", node::JOINT1), json!([node::JOINT0]))
    }),
    Case::new("node_parent_override", "nodes", "a node with two parents", |doc| {
        edit_morph_node(doc, "children", json!([node::JOINT1]))
    }),
    Case::new("node_matrix_and_trs", "nodes", "a node with both matrix and translation/rotation", |doc| {
        let matrix = json!([1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0]);
        edit_morph_node(doc, "matrix", matrix)
    }),
    Case::new("node_rotation_non_unit", "nodes", "node rotation [0, 0, 0.8, 0.8], of length 1.13", |doc| {
        edit_morph_node(doc, "rotation", json!([0.0, 0.0, 0.8, 0.8]))
    }),
    Case::new("node_rotation_zero", "nodes", "node rotation [0, 0, 0, 0]", |doc| {
        edit_morph_node(doc, "rotation", json!([0.0, 0.0, 0.0, 0.0]))
    }),
    Case::new("node_children_empty", "nodes", "a node with an empty children list", |doc| {
        edit_morph_node(doc, "children", json!([]))
    }),
    Case::new("node_matrix_non_trs", "nodes", "a projective node matrix", |doc| {
        let path = format!("/nodes/{}", node::MORPH);
        doc.remove(&format!("{path}/translation"))?;
        doc.remove(&format!("{path}/rotation"))?;
        let matrix = json!([1.0, 0.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 1.0]);
        edit_morph_node(doc, "matrix", matrix)
    }),
    Case::new("node_weights_count", "nodes", "one node morph weight for two morph targets", |doc| {
        edit_morph_node(doc, "weights", json!([0.5]))
    }),
    Case::new("scene_non_root_node", "nodes", "a scene listing a child node", |doc| {
        doc.push("/scenes/0/nodes", json!(node::JOINT1)).map(drop)
    }),
    Case::new("node_mesh_unresolved", "nodes", "a node naming mesh 9", |doc| edit_morph_node(doc, "mesh", json!(9))),
];
