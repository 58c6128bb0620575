//! The naive baseline, as the seed article first writes it (with its bugs fixed): linear key
//! search per channel, 4x4 local matrices, and each joint's world matrix recomputed
//! recursively up its parent chain. Same interpolation math as the project's path, so the two
//! differ only in the work they do.

use glam::{Mat4, Quat, Vec3};
use props_anim::clip::PlayMode;
use props_anim::clip::Segment;
use props_anim::{
    JointMatrix, Model, NodeId,
    clip::interpolate,
    clip::interpolate::Interpolation,
    clip::{Clip, Keyframes},
};

/// Linear search for the segment containing `time` (the article's first `value()`).
fn linear_search(times: &[f32], time: f32) -> Segment {
    if time < times[0] {
        return Segment::Hold { index: 0 };
    }
    for i in 0..times.len() - 1 {
        if time < times[i + 1] {
            return Segment::Between { index: i, u: (time - times[i]) / (times[i + 1] - times[i]) };
        }
    }
    Segment::Hold { index: times.len() - 1 }
}

/// Local TRS of every node at clip time `time`: rest values overwritten by sampled channels.
fn sample(model: &Model, clip: &Clip, time: f32) -> Vec<(Vec3, Quat, Vec3)> {
    let rig = model.rig();
    let mut locals: Vec<(Vec3, Quat, Vec3)> = rig
        .nodes()
        .map(|n| {
            let rest = rig.rest(n).as_trs().copied().unwrap_or_default();
            (rest.translation, rest.rotation, rest.scale)
        })
        .collect();
    for channel in clip.channels() {
        let times = channel.keys().times();
        let segment = linear_search(times, time);
        let dt = segment.duration(times);
        let interp: Interpolation = channel.keys().interpolation();
        let local = &mut locals[channel.node().index()];
        match channel.keyframes() {
            Keyframes::Translation(v) => local.0 = interpolate::vec3(v, interp, segment, dt),
            Keyframes::Rotation(v) => local.1 = interpolate::quat(v, interp, segment, dt),
            Keyframes::Scale(v) => local.2 = interpolate::vec3(v, interp, segment, dt),
            Keyframes::MorphWeights { .. } => {}
        }
    }
    locals
}

/// World matrix of `node`, recomputed up the parent chain (the article's recursive form).
fn global(model: &Model, locals: &[Mat4], node: NodeId) -> Mat4 {
    match model.rig().parent(node) {
        Some(parent) => global(model, locals, parent) * locals[node.index()],
        None => locals[node.index()],
    }
}

/// Evaluates one instance at `time` and writes its whole palette (layout of
/// [`Model::write_palettes`]).
pub fn evaluate(model: &Model, clip: &Clip, time: f32, out: &mut [JointMatrix]) {
    let rig = model.rig();
    let locals: Vec<Mat4> = sample(model, clip, PlayMode::Loop.wrap(time, clip.duration()))
        .into_iter()
        .zip(rig.nodes())
        .map(|((t, r, s), node)| match rig.rest(node).as_trs() {
            Some(_) => Mat4::from_scale_rotation_translation(s, r, t),
            None => Mat4::from(rig.rest_matrix(node)),
        })
        .collect();
    let skinned = model.skins().iter().flat_map(|skin| skin.joints().iter().zip(skin.inverse_bind_matrices()));
    let joints = skinned.map(|(joint, inverse_bind)| global(model, &locals, *joint) * Mat4::from(*inverse_bind));
    let nodes = model.instances().iter().map(|instance| global(model, &locals, instance.node));
    for (slot, m) in out.iter_mut().zip(joints.chain(nodes)) {
        *slot = JointMatrix::from_affine(&glam::Affine3A::from_mat4(m));
    }
}
