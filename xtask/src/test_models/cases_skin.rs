//! Cases about skinning: 8, 12, 16 and 24 influences in several encodings, shuffled node/joint order with
//! interleaved vertex data, skinned nodes with transformed parents and shared joints, more
//! than 256 joints, and morph targets on a skin (spare data, node weights overriding the mesh's).

use anyhow::{Context, Result};

use super::builder::{Channel, Column, GltfBuilder, Interp, Node, Path, Primitive, Usage, channel};
use super::data::{self, Influences};
use super::math::{quat_axis_angle, transform_point, transform_vector};
use super::rig::{self, IDENTITY, JointFormat, WeightFormat, X, Y, Z, rot};

/// A chain of `count + 2` joints (10 for 8), 0.5 apart along +Y, with a tube whose vertices are
/// weighted to their `count` nearest joints (`count / 4` sets of JOINTS_n, WEIGHTS_n), every
/// joint rotating about its own axis.
fn influences(count: usize, joints: JointFormat, weights: WeightFormat) -> Result<GltfBuilder> {
    let joint_count = count.max(8) + 2;
    let mut b = GltfBuilder::new();
    let chain = rig::joint_chain(&mut b, "Joint", joint_count, [0.0; 3], [0.0, 0.5, 0.0])?;
    let skin = b.skin(&chain, Some(chain[0]))?;
    let last = (joint_count - 1) as f64;
    let tube = data::tube([0.0; 3], [0.0, 0.5 * last, 0.0], joint_count - 1, 0.08, (0.0, last))?;
    let joint_params: Vec<f64> = (0..joint_count).map(|j| j as f64).collect();
    // Wide falloff so that all weights stay non-zero even after 8-bit quantization (and the
    // influences past the 8th carry real weight: about a third of the sum for 24).
    let sigma = if count <= 8 { 3.5 } else { count as f64 };
    let influences: Vec<Influences> =
        tube.params.iter().map(|&p| data::nearest_joints(p, &joint_params, count, sigma)).collect();
    let prim = Primitive::new(b.positions(&tube.positions)?)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?);
    let prim = rig::skin_attributes(&mut b, prim, &influences, joints, weights)?;
    let name = if count == 8 { "EightInfluences".to_owned() } else { format!("Influences{count}") };
    let mesh = b.mesh(&name, &[prim], None);
    b.node(Node::named("SkinnedMesh").mesh(mesh).skin(skin));

    let times = b.times(&[0.0, 0.5, 1.0, 2.0])?;
    let translation = [[0.0, 0.0, 0.0], [0.3, 0.0, 0.0], [0.0, 0.2, 0.3], [0.0; 3]];
    let mut channels = vec![channel(chain[0], Path::Translation, Interp::Linear, times, b.data(&translation, false)?)];
    for (j, &node) in chain.iter().enumerate() {
        let axis = [X, Z, [1.0, 0.0, 1.0]][j % 3];
        let amplitude = 8.0 + 3.0 * j as f64;
        let keys = [0.0, amplitude, -0.5 * amplitude, 0.0].map(|deg| rot(axis, deg));
        channels.push(channel(node, Path::Rotation, Interp::Linear, times, b.data(&keys, false)?));
    }
    b.animation("Wiggle", &channels);
    Ok(b)
}

/// 8 influences: UNSIGNED_BYTE joints, FLOAT weights.
pub fn eight_influences_u8_float() -> Result<GltfBuilder> {
    influences(8, JointFormat::U8, WeightFormat::Float)
}

/// 8 influences: UNSIGNED_SHORT joints, normalized UNSIGNED_SHORT weights.
pub fn eight_influences_u16_unorm16() -> Result<GltfBuilder> {
    influences(8, JointFormat::U16, WeightFormat::UNorm16)
}

/// 8 influences: UNSIGNED_BYTE joints, normalized UNSIGNED_BYTE weights.
pub fn eight_influences_u8_unorm8() -> Result<GltfBuilder> {
    influences(8, JointFormat::U8, WeightFormat::UNorm8)
}

/// 12 influences (JOINTS_0..2): UNSIGNED_BYTE joints, FLOAT weights.
pub fn twelve_influences_u8_float() -> Result<GltfBuilder> {
    influences(12, JointFormat::U8, WeightFormat::Float)
}

/// 16 influences (JOINTS_0..3): UNSIGNED_SHORT joints, normalized UNSIGNED_SHORT weights.
pub fn sixteen_influences_u16_unorm16() -> Result<GltfBuilder> {
    influences(16, JointFormat::U16, WeightFormat::UNorm16)
}

/// 24 influences (JOINTS_0..5): UNSIGNED_BYTE joints, normalized UNSIGNED_BYTE weights.
pub fn twenty_four_influences_u8_unorm8() -> Result<GltfBuilder> {
    influences(24, JointFormat::U8, WeightFormat::UNorm8)
}

/// Nodes listed children first (the root is the last node), `skin.joints` in shuffled order,
/// and POSITION, NORMAL, JOINTS_0 and WEIGHTS_0 interleaved in one strided bufferView.
pub fn shuffled_joints() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    // The mesh node gets its mesh and skin once they exist; it comes first in the list and is a
    // root of its own (a skinned node under the armature would only draw a validator warning).
    let mesh_node = b.node(Node::named("SkinnedMesh"));
    let j3 = b.node(Node::named("Joint3").t([0.0, 0.8, 0.0]));
    let j2 = b.node(Node::named("Joint2").t([0.0, 0.8, 0.0]).children(&[j3]));
    let j1 = b.node(Node::named("Joint1").t([0.0, 0.8, 0.0]).children(&[j2]));
    let j0 = b.node(Node::named("Joint0").children(&[j1]));
    let armature = b.node(Node::named("Armature").t([0.5, 0.0, -0.25]).r(quat_axis_angle(Y, 30.0)).children(&[j0]));
    let chain = [j0, j1, j2, j3];
    let skin_order = [j2, j0, j3, j1];
    let skin = b.skin(&skin_order, None)?;
    let slots = chain
        .iter()
        .map(|j| skin_order.iter().position(|s| s == j))
        .collect::<Option<Vec<usize>>>()
        .context("chain joint missing from the skin")?;

    let world = b.world_matrix(armature)?;
    let tube = data::tube(
        transform_point(&world, [0.0; 3]),
        transform_vector(&world, [0.0, 0.8 * 3.5, 0.0]),
        7,
        0.08,
        (0.0, 3.5),
    )?;
    let influences: Vec<Influences> = tube
        .params
        .iter()
        .map(|&p| data::chain_blend(p, chain.len()).into_iter().map(|(c, w)| (slots[c], w)).collect())
        .collect();
    let (joints, weights) = rig::skin_columns(&influences, JointFormat::U8, WeightFormat::Float)?
        .into_iter()
        .next()
        .context("no influence set")?;
    let attrs =
        b.interleaved(&[Column::new(&tube.positions).with_min_max(), Column::new(&tube.normals), joints, weights])?;
    let prim = Primitive::new(attrs[0])
        .attr("NORMAL", attrs[1])
        .attr("JOINTS_0", attrs[2])
        .attr("WEIGHTS_0", attrs[3])
        .indices(b.indices(&tube.indices)?);
    let mesh = b.mesh("InterleavedTube", &[prim], None);
    let node = b.node_mut(mesh_node)?;
    node.mesh = Some(mesh);
    node.skin = Some(skin);

    let times = b.times(&[0.0, 1.0, 2.0])?;
    let translation = [[0.0, 0.0, 0.0], [0.2, 0.1, 0.0], [0.0; 3]];
    let rotations = [
        (armature, [rot(Y, 30.0), rot(Y, 60.0), rot(Y, 30.0)]),
        (j1, [IDENTITY, rot(Z, 40.0), rot(X, -30.0)]),
        (j2, [IDENTITY, rot(X, 50.0), rot(Z, -60.0)]),
        (j3, [IDENTITY, rot(Z, -70.0), rot(Y, 45.0)]),
    ];
    let mut channels = vec![channel(j0, Path::Translation, Interp::Linear, times, b.data(&translation, false)?)];
    for (node, keys) in rotations {
        channels.push(channel(node, Path::Rotation, Interp::Linear, times, b.data(&keys, false)?));
    }
    b.animation("Shuffled", &channels);
    Ok(b)
}

/// Skinned mesh nodes under a transformed (and animated) parent, with their own transforms (both
/// ignored by skinning), `skin.skeleton` set, a second skin sharing joints with the first, and one
/// rigid mesh used by an animated node and a static node.
pub fn skinned_child_mesh() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let armature = b.node(Node::named("Armature").t([1.0, 0.0, -0.5]).r(quat_axis_angle(Y, 20.0)).s([1.2; 3]));
    let chain = rig::joint_chain(&mut b, "Joint", 4, [0.0; 3], [0.0, 1.0, 0.0])?;
    b.add_child(armature, chain[0])?;
    let branch = b.node(Node::named("Branch").t([0.3, 0.4, 0.0]).r(quat_axis_angle(Z, -60.0)));
    b.add_child(chain[1], branch)?;
    let skin = b.skin(&chain, Some(armature))?;
    let branch_skin = b.skin(&[chain[1], branch, chain[2]], Some(chain[1]))?;

    // Vertices in bind (scene) space: one tube along the chain, one along the branch.
    let world = b.world_matrix(armature)?;
    let tube =
        data::tube(transform_point(&world, [0.0; 3]), transform_vector(&world, [0.0, 3.5, 0.0]), 7, 0.12, (0.0, 3.5))?;
    let influences: Vec<Influences> = tube.params.iter().map(|&p| data::chain_blend(p, chain.len())).collect();
    let prim = Primitive::new(b.positions(&tube.positions)?)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?);
    let prim = rig::skin_attributes(&mut b, prim, &influences, JointFormat::U8, WeightFormat::Float)?;
    let chain_mesh = b.mesh("ChainTube", &[prim], None);

    let world = b.world_matrix(branch)?;
    let tube =
        data::tube(transform_point(&world, [0.0; 3]), transform_vector(&world, [0.0, 1.0, 0.0]), 4, 0.08, (0.0, 1.0))?;
    // Slots of the branch skin: 0 = Joint1, 1 = Branch, 2 = Joint2.
    let influences: Vec<Influences> = tube
        .params
        .iter()
        .map(|&p| {
            let branch_w = 0.6 + 0.3 * p;
            let parent_w = 0.4 * (1.0 - p);
            [(1, branch_w), (0, parent_w), (2, 1.0 - branch_w - parent_w)]
                .into_iter()
                .filter(|&(_, w)| w > 1e-6)
                .collect()
        })
        .collect();
    let prim = Primitive::new(b.positions(&tube.positions)?)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?);
    let prim = rig::skin_attributes(&mut b, prim, &influences, JointFormat::U8, WeightFormat::Float)?;
    let branch_mesh = b.mesh("BranchTube", &[prim], None);

    let (cube_positions, cube_indices) = data::cube(0.25);
    let cube = Primitive::new(b.positions(&cube_positions)?).indices(b.indices(&cube_indices)?);
    let box_mesh = b.mesh("Box", &[cube], None);

    let mesh_parent = b.node(Node::named("MeshParent").t([-2.0, 0.5, 0.0]).r(quat_axis_angle(X, 45.0)).s([0.5; 3]));
    let skinned =
        b.node(Node::named("SkinnedMesh").t([3.0, 1.0, 2.0]).r(quat_axis_angle(Z, 30.0)).mesh(chain_mesh).skin(skin));
    let branch_node = b.node(Node::named("BranchMesh").t([0.5, 0.0, 0.0]).mesh(branch_mesh).skin(branch_skin));
    b.add_child(mesh_parent, skinned)?;
    b.add_child(mesh_parent, branch_node)?;
    let rigid = b.node(Node::named("RigidAnimated").t([2.0, 0.0, 2.0]).mesh(box_mesh));
    b.node(
        Node::named("RigidStatic")
            .t([-3.0, 0.0, 0.0])
            .r(quat_axis_angle([1.0, 1.0, 1.0], 45.0))
            .s([1.0, 2.0, 1.0])
            .mesh(box_mesh),
    );

    let times = b.times(&[0.0, 1.0, 2.0])?;
    let rotations = [
        (armature, [rot(Y, 20.0), rot(Y, 50.0), rot(Y, 20.0)]),
        (chain[1], [IDENTITY, rot(Z, 30.0), rot(X, -20.0)]),
        (chain[3], [IDENTITY, rot(X, 45.0), rot(Z, 20.0)]),
        (branch, [rot(Z, -60.0), rot(Z, -20.0), rot(Z, -90.0)]),
        (rigid, [IDENTITY, rot(Y, 90.0), rot(Y, 180.0)]),
    ];
    let translations = [
        // Moves only skinned meshes' parent: no vertex may move because of it.
        (mesh_parent, [[-2.0, 0.5, 0.0], [-1.0, 2.0, 0.5], [-2.0, 0.5, 0.0]]),
        (rigid, [[2.0, 0.0, 2.0], [2.0, 1.0, 2.0], [2.5, 0.0, 1.5]]),
    ];
    let mut channels = Vec::new();
    for (node, keys) in rotations {
        let output = b.data(&keys, false)?;
        channels.push(channel(node, Path::Rotation, Interp::Linear, times, output));
    }
    for (node, keys) in translations {
        let output = b.data(&keys, false)?;
        channels.push(channel(node, Path::Translation, Interp::Linear, times, output));
    }
    b.animation("SkinnedChild", &channels);
    Ok(b)
}

/// Joints per arm of the many-joint skin (3 arms + a shared root = 301 joints).
const ARM_JOINTS: usize = 100;

/// A root with three 100-joint arms (301 joints), one tube primitive per arm sharing one index
/// accessor, UNSIGNED_SHORT joints (arm 3 uses joints 201..=300), a few joints animated, some
/// above index 255.
pub fn many_joints() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let root = b.node(Node::named("Root"));
    let mut skin_joints = vec![root];
    let mut steps = Vec::new();
    for arm in 0..3 {
        let angle = (120.0 * f64::from(arm)).to_radians();
        let step = [0.045 * angle.cos(), 0.02, 0.045 * angle.sin()];
        let f32_step = super::builder::to_f32(step);
        let joints = rig::joint_chain(&mut b, &format!("Arm{arm}_"), ARM_JOINTS, f32_step, f32_step)?;
        b.add_child(root, joints[0])?;
        skin_joints.extend(&joints);
        steps.push(f32_step.map(f64::from));
    }
    let skin = b.skin(&skin_joints, Some(root))?;

    let arm_len = ARM_JOINTS as f64;
    // Joint k of an arm sits at parameter k (0 = the shared root).
    let params: Vec<f64> = (0..=ARM_JOINTS).map(|k| k as f64).collect();
    let tubes = steps
        .iter()
        .map(|step| data::tube([0.0; 3], step.map(|c| c * arm_len), ARM_JOINTS / 2, 0.02, (0.0, arm_len)))
        .collect::<Result<Vec<_>>>()?;
    let shared_indices = b.indices(&tubes.first().context("no arm")?.indices)?;
    let mut prims = Vec::new();
    for (arm, tube) in tubes.iter().enumerate() {
        let slot = |k: usize| if k == 0 { 0 } else { 1 + arm * ARM_JOINTS + k - 1 };
        let influences: Vec<Influences> = tube
            .params
            .iter()
            .map(|&p| data::nearest_joints(p, &params, 4, 1.0).into_iter().map(|(k, w)| (slot(k), w)).collect())
            .collect();
        let prim = Primitive::new(b.positions(&tube.positions)?).indices(shared_indices);
        prims.push(rig::skin_attributes(&mut b, prim, &influences, JointFormat::U16, WeightFormat::Float)?);
    }
    let mesh = b.mesh("Arms", &prims, None);
    b.node(Node::named("SkinnedMesh").mesh(mesh).skin(skin));

    let times = b.times(&[0.0, 1.0])?;
    let animated: [(usize, [f64; 3], f64); 7] = [
        (0, Y, 45.0),
        (50, Z, 60.0),
        (150, X, -45.0),
        (255, Z, 30.0),
        (256, X, 40.0),
        (280, [1.0, 0.0, 1.0], -50.0),
        (300, Y, 90.0),
    ];
    let channels = animated
        .iter()
        .map(|&(slot, axis, degrees)| {
            let node = *skin_joints.get(slot).context("no such joint")?;
            let output = b.data(&[IDENTITY, rot(axis, degrees)], false)?;
            Ok(channel(node, Path::Rotation, Interp::Linear, times, output))
        })
        .collect::<Result<Vec<Channel>>>()?;
    b.animation("Bend", &channels);
    Ok(b)
}

/// Data glTF allows but nothing uses: a skin with more inverse bind matrices than joints (the
/// extra one unused), and a morph target whose POSITION accessor has neither `bufferView` nor
/// `sparse` (all zeros, so its weight changes nothing), beside a real target, on a skinned tube.
pub fn spare_data() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let mesh_node = b.node(Node::named("SkinnedMesh"));
    let chain = rig::joint_chain(&mut b, "Joint", 2, [0.0; 3], [0.0, 1.0, 0.0])?;
    let skin = b.skin_with_spare_matrices(&chain, None, 1)?;
    let tube = data::tube([0.0; 3], [0.0, 2.0, 0.0], 4, 0.1, (0.0, 2.0))?;
    let influences: Vec<Influences> = tube.params.iter().map(|&p| data::chain_blend(p, chain.len())).collect();
    let vertices = tube.positions.len();
    let zeros = b.zero_vec3(vertices);
    let bulge: Vec<[f32; 3]> = tube.normals.iter().map(|n| n.map(|c| c * 0.05)).collect();
    let bulge = b.accessor(&Column::new(&bulge).with_min_max(), Usage::Vertex)?;
    let prim = Primitive::new(b.positions(&tube.positions)?)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?)
        .target(zeros)
        .target(bulge);
    let prim = rig::skin_attributes(&mut b, prim, &influences, JointFormat::U8, WeightFormat::Float)?;
    let mesh = b.mesh("SpareData", &[prim], Some(&[0.0, 0.0]));
    let node = b.node_mut(mesh_node)?;
    node.mesh = Some(mesh);
    node.skin = Some(skin);

    let times = b.times(&[0.0, 1.0, 2.0])?;
    let rotations = [IDENTITY, rot(Z, 45.0), rot(X, -30.0)];
    let weights: [[f32; 2]; 3] = [[0.0, 0.0], [1.0, 0.5], [0.3, 1.0]];
    let channels = [
        channel(chain[1], Path::Rotation, Interp::Linear, times, b.data(&rotations, false)?),
        channel(mesh_node, Path::Weights, Interp::Linear, times, b.scalars(&weights.concat(), false)?),
    ];
    b.animation("Spare", &channels);
    Ok(b)
}

/// A skinned tube with two morph targets (a sideways shift, a bulge) whose mesh's default
/// weights are zero and whose node's `weights` (0.8, -0.4) override them: no animation
/// touches the weights, so only the override moves the vertices. The joints rotate.
pub fn node_weights() -> Result<GltfBuilder> {
    let mut b = GltfBuilder::new();
    let chain = rig::joint_chain(&mut b, "Joint", 2, [0.0; 3], [0.0, 1.0, 0.0])?;
    let skin = b.skin(&chain, Some(chain[0]))?;
    let tube = data::tube([0.0; 3], [0.0, 2.0, 0.0], 4, 0.1, (0.0, 2.0))?;
    let influences: Vec<Influences> = tube.params.iter().map(|&p| data::chain_blend(p, chain.len())).collect();
    let shift: Vec<[f32; 3]> = tube.positions.iter().map(|p| [0.25 * p[1], 0.0, 0.0]).collect();
    let bulge: Vec<[f32; 3]> = tube.normals.iter().map(|n| n.map(|c| c * 0.08)).collect();
    let shift = b.accessor(&Column::new(&shift).with_min_max(), Usage::Vertex)?;
    let bulge = b.accessor(&Column::new(&bulge).with_min_max(), Usage::Vertex)?;
    let prim = Primitive::new(b.positions(&tube.positions)?)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?)
        .target(shift)
        .target(bulge);
    let prim = rig::skin_attributes(&mut b, prim, &influences, JointFormat::U8, WeightFormat::Float)?;
    let mesh = b.mesh("NodeWeights", &[prim], Some(&[0.0, 0.0]));
    b.node(Node::named("OverriddenMesh").mesh(mesh).skin(skin).weights(&[0.8, -0.4]));
    let times = b.times(&[0.0, 1.0, 2.0])?;
    let rotations = [IDENTITY, rot(Z, 40.0), rot(X, -25.0)];
    let rotations = b.data(&rotations, false)?;
    b.animation("Bend", &[channel(chain[1], Path::Rotation, Interp::Linear, times, rotations)]);
    Ok(b)
}
