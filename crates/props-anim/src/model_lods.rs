//! A model's levels of detail as a whole ([`crate::Model::lod_errors`]): the levels its
//! primitives' own chains make together, and which of each primitive's is drawn at each.

use crate::mesh::{Mesh, MeshInstance};
use crate::pose::Pose;
use crate::rig::Rig;
use crate::skin::Skin;

/// A model's levels of detail: each one's error, and per mesh instance and primitive the
/// primitive's own level drawn at each.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Lods {
    /// Each level's error, level 0's (0) first.
    pub(crate) errors: Vec<f32>,
    /// Per mesh instance, per primitive, per model level: the primitive's level.
    pub(crate) map: Vec<Vec<Vec<u8>>>,
}

/// [`crate::Model::lod_errors`] and the primitives' levels drawn at each, from the meshes'
/// levels and the scale each is drawn at in the rest pose (its node's, or the largest of its
/// skin's joints'). The model's levels are its primitives' errors, so scaled: all of them, or
/// where they are more than `max_levels` - 1 ([`crate::Model::MAX_LOD_LEVELS`]), as many
/// spread evenly among them, the largest last. At each, every primitive draws its coarsest
/// level within that error.
pub(crate) fn lods(rig: &Rig, skins: &[Skin], meshes: &[Mesh], instances: &[MeshInstance], max_levels: usize) -> Lods {
    let any = meshes.iter().flat_map(|m| &m.primitives).any(|p| !p.lods.is_empty());
    let scales: Vec<f32> = if any {
        let mut pose = Pose::from_rest(rig);
        pose.compute_world(rig);
        let scale_of = |m: &glam::Affine3A| {
            m.matrix3.x_axis.length().max(m.matrix3.y_axis.length()).max(m.matrix3.z_axis.length())
        };
        instances
            .iter()
            .map(|instance| match instance.skin.and_then(|s| skins.get(s as usize)) {
                Some(skin) => skin
                    .joints()
                    .iter()
                    .zip(skin.inverse_bind_matrices())
                    .map(|(&joint, ibm)| scale_of(&(pose.world_matrix(joint) * *ibm)))
                    .fold(0.0, f32::max),
                None => scale_of(&pose.world_matrix(instance.node)),
            })
            .collect()
    } else {
        vec![1.0; instances.len()]
    };
    let primitives_of = |instance: &MeshInstance| meshes.get(instance.mesh as usize).map_or(&[][..], |m| &m.primitives);
    let mut all: Vec<f32> = instances
        .iter()
        .zip(&scales)
        .flat_map(|(instance, &scale)| {
            primitives_of(instance).iter().flat_map(move |p| p.lods.iter().map(move |l| l.error * scale))
        })
        .filter(|e| e.is_finite())
        .collect();
    all.sort_by(f32::total_cmp);
    all.dedup();
    let kept = all.len().min(max_levels - 1);
    let mut errors = vec![0.0];
    // Evenly among them, the largest last.
    errors.extend((1..=kept).map(|k| all[(k * all.len()).div_ceil(kept) - 1]));
    errors.dedup();
    let map = instances
        .iter()
        .zip(&scales)
        .map(|(instance, &scale)| {
            primitives_of(instance)
                .iter()
                .map(|p| {
                    let within =
                        |limit: f32| p.lods.iter().rposition(|l| l.error * scale <= limit).map_or(0, |j| j + 1);
                    errors.iter().map(|&limit| within(limit).min(usize::from(u8::MAX)) as u8).collect()
                })
                .collect()
        })
        .collect();
    Lods { errors, map }
}
