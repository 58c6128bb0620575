//! Builder-level helpers shared by the cases: joint chains, skinned tubes, skin attributes and a
//! morph-target quad.

use anyhow::{Context, Result, anyhow};

use super::builder::{Column, GltfBuilder, Node, Primitive, Usage, to_f32};
use super::data::{self, Influences};
use super::math::quat_axis_angle;

/// +X.
pub const X: [f64; 3] = [1.0, 0.0, 0.0];
/// +Y.
pub const Y: [f64; 3] = [0.0, 1.0, 0.0];
/// +Z.
pub const Z: [f64; 3] = [0.0, 0.0, 1.0];
/// The identity rotation as stored.
pub const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// `f32` rotation of `degrees` about `axis`.
pub fn rot(axis: [f64; 3], degrees: f64) -> [f32; 4] {
    to_f32(quat_axis_angle(axis, degrees))
}

/// Component type of JOINTS_n.
#[derive(Clone, Copy, Debug)]
pub enum JointFormat {
    /// UNSIGNED_BYTE.
    U8,
    /// UNSIGNED_SHORT.
    U16,
}

/// Component type of WEIGHTS_n.
#[derive(Clone, Copy, Debug)]
pub enum WeightFormat {
    /// FLOAT.
    Float,
    /// Normalized UNSIGNED_BYTE.
    UNorm8,
    /// Normalized UNSIGNED_SHORT.
    UNorm16,
}

/// Elements `[4 * set, 4 * set + 4)` of every row, converted to `T`.
fn set_items<T, U>(rows: &[Vec<U>], set: usize) -> Result<Vec<[T; 4]>>
where
    U: Copy,
    T: TryFrom<U>,
    T::Error: std::error::Error + Send + Sync + 'static,
{
    rows.iter()
        .map(|row| {
            let items = row
                .get(4 * set..4 * set + 4)
                .context("short influence row")?
                .iter()
                .map(|&x| T::try_from(x))
                .collect::<Result<Vec<T>, _>>()?;
            <[T; 4]>::try_from(items).map_err(|_| anyhow!("influence row is not 4 wide"))
        })
        .collect()
}

/// `(JOINTS_n, WEIGHTS_n)` columns for `influences`: as many sets of 4 as the longest influence
/// list needs; unused slots get joint 0 with weight 0. Quantized weights sum to exactly the
/// integer maximum per vertex (over all sets); float weights to 1 as closely as `f32` allows.
pub fn skin_columns(
    influences: &[Influences],
    joints: JointFormat,
    weights: WeightFormat,
) -> Result<Vec<(Column, Column)>> {
    let sets = influences.iter().map(Vec::len).max().unwrap_or(1).div_ceil(4);
    let width = 4 * sets;
    let joint_rows: Vec<Vec<usize>> =
        influences.iter().map(|inf| padded(inf.iter().map(|&(j, _)| j).collect(), width, 0)).collect();
    let weight_rows: Vec<Vec<f64>> = influences.iter().map(|inf| inf.iter().map(|&(_, w)| w).collect()).collect();
    let quantized = |max| -> Vec<Vec<u32>> {
        weight_rows.iter().map(|w| padded(data::quantize_weights(w, max), width, 0)).collect()
    };
    (0..sets)
        .map(|set| {
            let joints = match joints {
                JointFormat::U8 => Column::new(&set_items::<u8, _>(&joint_rows, set)?),
                JointFormat::U16 => Column::new(&set_items::<u16, _>(&joint_rows, set)?),
            };
            let weights = match weights {
                WeightFormat::Float => {
                    let rows: Vec<Vec<f32>> =
                        weight_rows.iter().map(|w| padded(data::float_weights(w), width, 0.0)).collect();
                    Column::new(&set_items::<f32, _>(&rows, set)?)
                }
                WeightFormat::UNorm8 => Column::new(&set_items::<u8, _>(&quantized(255), set)?).normalized(true),
                WeightFormat::UNorm16 => Column::new(&set_items::<u16, _>(&quantized(65535), set)?).normalized(true),
            };
            Ok((joints, weights))
        })
        .collect()
}

/// `row` extended with `zero` to `width` items.
fn padded<T: Clone>(mut row: Vec<T>, width: usize, zero: T) -> Vec<T> {
    row.resize(width, zero);
    row
}

/// Adds the [`skin_columns`] as `JOINTS_n`/`WEIGHTS_n` accessors of `prim`.
pub fn skin_attributes(
    b: &mut GltfBuilder,
    prim: Primitive,
    influences: &[Influences],
    joints: JointFormat,
    weights: WeightFormat,
) -> Result<Primitive> {
    let mut prim = prim;
    for (set, (j, w)) in skin_columns(influences, joints, weights)?.iter().enumerate() {
        prim = prim
            .attr(&format!("JOINTS_{set}"), b.accessor(j, Usage::Vertex)?)
            .attr(&format!("WEIGHTS_{set}"), b.accessor(w, Usage::Vertex)?);
    }
    Ok(prim)
}

/// Adds `count` joint nodes named `{prefix}{i}` in a straight chain: the first translated by
/// `origin`, each next one by `step` from its parent; parents come before children. Returns the
/// node indices, root first.
pub fn joint_chain(
    b: &mut GltfBuilder,
    prefix: &str,
    count: usize,
    origin: [f32; 3],
    step: [f32; 3],
) -> Result<Vec<usize>> {
    let mut joints = Vec::with_capacity(count);
    for i in 0..count {
        let t = if i == 0 { origin } else { step };
        let node = b.node(Node::named(&format!("{prefix}{i}")).t(t));
        if let Some(&parent) = joints.last() {
            b.add_child(parent, node)?;
        }
        joints.push(node);
    }
    Ok(joints)
}

/// A skinned rig: a chain of `count` joints `spacing` apart along +Y from the origin, its skin,
/// and a root-level node with a tube mesh (normals, indices) running from the root to half a
/// spacing past the last joint, 2 segments per spacing, each vertex blended linearly between its
/// two neighbouring joints. Returns the joint nodes, root first.
pub fn rig(b: &mut GltfBuilder, prefix: &str, count: usize, spacing: f32) -> Result<Vec<usize>> {
    let joints = joint_chain(b, prefix, count, [0.0; 3], [0.0, spacing, 0.0])?;
    let skin = b.skin(&joints, Some(joints[0]))?;
    let reach = count as f64 - 0.5;
    let tube = data::tube(
        [0.0; 3],
        [0.0, reach * f64::from(spacing), 0.0],
        2 * count - 1,
        0.1 * f64::from(spacing),
        (0.0, reach),
    )?;
    let influences: Vec<Influences> = tube.params.iter().map(|&p| data::chain_blend(p, count)).collect();
    let prim = Primitive::new(b.positions(&tube.positions)?)
        .attr("NORMAL", b.vertex(&tube.normals, false)?)
        .indices(b.indices(&tube.indices)?);
    let prim = skin_attributes(b, prim, &influences, JointFormat::U8, WeightFormat::Float)?;
    let mesh = b.mesh(&format!("{prefix}Tube"), &[prim], None);
    b.node(Node::named(&format!("{prefix}Mesh")).mesh(mesh).skin(skin));
    Ok(joints)
}

/// A unit quad (4 vertices, indexed) with two POSITION morph targets (top edge up, right edge
/// out and forward), default weights `[0, 0]`, on a root-level node at `translation`. Returns
/// the node.
pub fn morph_quad(b: &mut GltfBuilder, name: &str, translation: [f32; 3]) -> Result<usize> {
    let base = [[-0.5, -0.5, 0.0], [0.5, -0.5, 0.0], [0.5, 0.5, 0.0], [-0.5, 0.5, 0.0]];
    let up = [[0.0; 3], [0.0; 3], [0.0, 0.5, 0.0], [0.0, 0.5, 0.0]];
    let out = [[0.0; 3], [0.3, 0.0, 0.2], [0.3, 0.0, 0.2], [0.0; 3]];
    let prim = Primitive::new(b.positions(&base)?)
        .indices(b.indices(&[0, 1, 2, 0, 2, 3])?)
        .target(b.positions(&up)?)
        .target(b.positions(&out)?);
    let mesh = b.mesh(name, &[prim], Some(&[0.0, 0.0]));
    // A small tilt so the node transform is not a pure translation.
    Ok(b.node(Node::named(name).t(translation).r(quat_axis_angle(Y, 20.0)).mesh(mesh)))
}
