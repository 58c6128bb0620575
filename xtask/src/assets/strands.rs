//! Strands on a person's skeleton, for spring bones to swing: chains of nodes (a ponytail, a
//! lock of hair, a tail) hung from a joint, each link a box skinned rigidly to the node it
//! starts from, in one primitive of their own.

use anyhow::Result;
use glam::DVec3;

use super::shapes::{Geometry, cuboid};
use crate::test_models::builder::{GltfBuilder, Node, Primitive, to_f32};

/// A chain of nodes named `<name>.0`, `<name>.1`, ... from joint `parent`, each `links` entry
/// the next node's offset from the one before (the first's from the joint), metres at the
/// person's size 1.
pub struct Strand {
    pub name: &'static str,
    pub parent: usize,
    pub links: &'static [[f64; 3]],
}

/// Half the thickness of a link's box, metres at size 1.
const HALF_WIDTH: f64 = 0.025;

/// Adds `strands` under `joints` (the skeleton's nodes, at `world` positions in metres),
/// scaled by `size` (and `units` model units a metre), appending their nodes to `joints`;
/// returns each strand's nodes and the strands' mesh, `material` skinned to them.
pub fn add(
    b: &mut GltfBuilder,
    strands: &[Strand],
    (joints, world): (&mut Vec<usize>, &[DVec3]),
    (size, units, material): (f64, f64, usize),
) -> Result<(Vec<Vec<usize>>, Option<usize>)> {
    let mut geometry = Geometry::default();
    let mut skinned_to = Vec::new();
    let mut chains = Vec::new();
    for strand in strands {
        let (mut parent, mut at) = (joints[strand.parent], world[strand.parent]);
        let mut chain = Vec::new();
        for (k, link) in strand.links.iter().enumerate() {
            let offset = DVec3::from(*link) * size;
            let node = b.node(Node::named(&format!("{}.{k}", strand.name)).t(to_f32((offset * units).to_array())));
            b.add_child(parent, node)?;
            if k > 0 {
                // The link from the node before to this one, skinned to the node before.
                let (from, to) = (at, at + offset);
                let pad = DVec3::splat(HALF_WIDTH * size);
                let part = cuboid((from.min(to) - pad).to_array(), (from.max(to) + pad).to_array());
                skinned_to.extend(std::iter::repeat_n(joints.len() - 1, part.positions.len()));
                geometry.append(&part);
            }
            joints.push(node);
            chain.push(node);
            (parent, at) = (node, at + offset);
        }
        chains.push(chain);
    }
    if geometry.positions.is_empty() {
        return Ok((chains, None));
    }
    let positions: Vec<[f32; 3]> = geometry.positions.iter().map(|p| to_f32(*p)).collect();
    let normals: Vec<[f32; 3]> = geometry.normals.iter().map(|n| to_f32(*n)).collect();
    let indices = geometry.indices.iter().map(|&i| u16::try_from(i)).collect::<Result<Vec<u16>, _>>()?;
    let joint_of = skinned_to.iter().map(|&j| Ok([u8::try_from(j)?, 0, 0, 0])).collect::<Result<Vec<_>>>()?;
    let weights = vec![[255u8, 0, 0, 0]; positions.len()];
    let primitive = Primitive::new(b.positions(&positions)?)
        .attr("NORMAL", b.vertex(&normals, false)?)
        .attr("JOINTS_0", b.vertex(&joint_of, false)?)
        .attr("WEIGHTS_0", b.vertex(&weights, true)?)
        .indices(b.indices(&indices)?)
        .material(material);
    Ok((chains, Some(b.mesh("strands", &[primitive], None))))
}
