//! Animations: sampler inputs (SCALAR FLOAT with `min`/`max`, times non-negative and
//! increasing, within the keyframe limit), outputs (format per path, one per key or three for
//! CUBICSPLINE, unit quaternions), no strides, channel targets (no matrix node, morph targets
//! for weights) and no two channels on one target.

use std::collections::HashMap;

use gltf::json::accessor::{ComponentType, Type};
use gltf::json::animation::{Animation, Interpolation, Property};
use gltf::json::validation::Checked;

use super::Check;
use super::accessors::Format;
use super::importer::LIMIT_EXCEEDED;
use super::nodes::UNIT_LENGTH_TOLERANCE;
use crate::animation::property_name;
use crate::animation_pointer::node_property;
use crate::document::Document;

use ComponentType::{F32, I8, I16, U8, U16};
use Type::{Scalar, Vec3, Vec4};

/// Formats of animated rotations and morph weights (Khronos's table), by element type.
fn unit_formats(ty: Type) -> [(Type, ComponentType, bool); 5] {
    [(ty, F32, false), (ty, I8, true), (ty, U8, true), (ty, I16, true), (ty, U16, true)]
}

/// Checks every animation.
pub(super) fn check(check: &mut Check<'_>, document: &Document) {
    for (a, animation) in check.root.animations.iter().enumerate() {
        for s in 0..animation.samplers.len() {
            sampler(check, animation, a, s);
        }
        // Node channels, and KHR_animation_pointer channels on a node's transform or weights,
        // which are node channels by another name.
        let mut channels: Vec<Target> = Vec::with_capacity(animation.channels.len());
        for (c, channel) in animation.channels.iter().enumerate() {
            let at = format!("/animations/{a}/channels/{}", document.source_channel(a, c));
            let path = match channel.target.path {
                Checked::Valid(path) => Some(path),
                Checked::Invalid => None,
            };
            let target = format!("{at}/target/node");
            channels.push(Target {
                at,
                target,
                node: channel.target.node.value(),
                path,
                sampler: channel.sampler.value(),
            });
        }
        for channel in document.pointer_channels(a) {
            let Some((node, path)) = node_property(&channel.pointer) else { continue };
            let at = format!("/animations/{a}/channels/{}", channel.channel);
            let target = format!("{at}/target/extensions/KHR_animation_pointer/pointer");
            let sampler = channel.sampler.unwrap_or(usize::MAX);
            channels.push(Target { at, target, node, path: Some(path), sampler });
        }
        // The last channel seen on each target, to report duplicates at the earlier one.
        let mut targets: HashMap<(usize, &str), usize> = HashMap::new();
        for (c, channel) in channels.iter().enumerate() {
            let path = channel.path.map_or("?", property_name);
            if let Some(earlier) = targets.insert((channel.node, path), c) {
                let pointer = format!("{}/target", channels[earlier].at);
                let message = format!("{} animates the same property of node {}", channel.at, channel.node);
                check.error("ANIMATION_DUPLICATE_TARGETS", pointer, message);
            }
            channel_target(check, animation, channel);
        }
    }
}

/// A channel on a node's transform or weights: where it is, where its target is given, the
/// node, the property (`None`: not a valid one) and its sampler.
struct Target {
    at: String,
    target: String,
    node: usize,
    path: Option<Property>,
    sampler: usize,
}

/// Sampler `s` of animation `a`: its input and the strides of its accessors.
fn sampler(check: &mut Check<'_>, animation: &Animation, a: usize, s: usize) {
    let Some(sampler) = animation.samplers.get(s) else {
        return;
    };
    let pointer = format!("/animations/{a}/samplers/{s}");
    for (name, index) in [("input", sampler.input.value()), ("output", sampler.output.value())] {
        let accessor = check.root.accessors.get(index);
        let view = accessor.and_then(|a| check.root.buffer_views.get(a.buffer_view?.value()));
        if view.is_some_and(|v| v.byte_stride.is_some()) {
            let message = "buffer views of animation samplers cannot have a byteStride";
            check.error("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", format!("{pointer}/{name}"), message);
        }
    }
    let input = sampler.input.value();
    let Some(accessor) = check.root.accessors.get(input) else {
        return;
    };
    let pointer = format!("{pointer}/input");
    let keys = accessor.count.0;
    if keys > check.limits.max_keyframes {
        let (limit, fix) = (check.limits.max_keyframes, crate::error::limit_fix("keyframes"));
        let message = format!("{keys} keyframes, over the limit of {limit}; {fix}");
        check.error(LIMIT_EXCEEDED, &pointer, message);
    }
    if accessor.min.is_none() || accessor.max.is_none() {
        check.error("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", &pointer, "key times need min and max");
    }
    if sampler.interpolation == Checked::Valid(Interpolation::CubicSpline) && keys < 2 {
        let message = format!("a CUBICSPLINE sampler needs at least 2 keys, not {keys}");
        check.error("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", &pointer, message);
    }
    match Format::of(check, input) {
        Some(format) if format.is_one_of(&[(Scalar, F32, false)]) => times(check, input, &pointer),
        Some(format) => {
            let message = format!("key times must be {{SCALAR, FLOAT}}, not {}", format.describe());
            check.error("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", pointer, message);
        }
        None => {}
    }
}

/// Key times: non-negative and strictly increasing.
fn times(check: &mut Check<'_>, input: usize, pointer: &str) {
    let Some(times) = check.data(input) else {
        return;
    };
    let negative = times.iter().position(|&t| t < 0.0);
    // As Khronos's validator: negative times are skipped, the first time is compared with 0.
    let mut last = 0.0;
    let mut not_increasing = None;
    for (k, &t) in times.iter().enumerate().filter(|(_, t)| **t >= 0.0) {
        if k != 0 && t <= last && not_increasing.is_none() {
            not_increasing = Some((k, t, last));
        }
        last = t;
    }
    if let Some(k) = negative {
        let message = format!("key time {k} is negative ({})", times.get(k).copied().unwrap_or_default());
        check.error("ACCESSOR_ANIMATION_INPUT_NEGATIVE", pointer, message);
    }
    if let Some((k, t, previous)) = not_increasing {
        let message = format!("key time {k} ({t}) is not greater than the one before ({previous})");
        check.error("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", pointer, message);
    }
}

/// A channel of `animation` on a node: its target and its sampler's output.
fn channel_target(check: &mut Check<'_>, animation: &Animation, channel: &Target) {
    let pointer = &channel.at;
    let (Some(path), node) = (channel.path, channel.node) else {
        return;
    };
    let Some(target) = check.root.nodes.get(node) else {
        let message = format!("node {node} does not exist");
        check.error("UNRESOLVED_REFERENCE", &channel.target, message);
        return;
    };
    let targets = target.mesh.and_then(|m| check.root.meshes.get(m.value())).and_then(|m| m.primitives.first());
    let targets = targets.and_then(|p| p.targets.as_ref()).map(Vec::len);
    match path {
        Property::MorphTargetWeights if targets.is_none() => {
            let message = format!("node {node} has no mesh with morph targets to animate");
            check.error("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", format!("{pointer}/target"), message);
        }
        Property::MorphTargetWeights => {}
        _ if target.matrix.is_some() => {
            let message = format!(
                "node {node} is given by a matrix, and glTF forbids animating its translation, rotation or scale"
            );
            check.error("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", format!("{pointer}/target"), message);
        }
        _ => {}
    }
    let Some(sampler) = animation.samplers.get(channel.sampler) else {
        return;
    };
    let (output, keys) = (sampler.output.value(), check.root.accessors.get(sampler.input.value()).map(|i| i.count.0));
    let Some(format) = Format::of(check, output) else {
        return;
    };
    let pointer = format!("{pointer}/sampler");
    let cubic = sampler.interpolation == Checked::Valid(Interpolation::CubicSpline);
    let accepted: &[(Type, ComponentType, bool)] = match path {
        Property::Translation | Property::Scale => &[(Vec3, F32, false)],
        Property::Rotation => &unit_formats(Vec4),
        Property::MorphTargetWeights => &unit_formats(Scalar),
    };
    if !format.is_one_of(accepted) {
        let message = format!("{} keyframes cannot be {}", property_name(path), format.describe());
        check.error("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", &pointer, message);
    }
    let found = check.root.accessors.get(output).map_or(0, |o| o.count.0);
    let per_key =
        if cubic { 3 } else { 1 } * if path == Property::MorphTargetWeights { targets.unwrap_or(0) } else { 1 };
    let expected = keys.unwrap_or(0).saturating_mul(per_key as u64);
    if expected != 0 && expected != found {
        let message = format!("{found} output elements, but {} keys need {expected}", keys.unwrap_or(0));
        check.error("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", &pointer, message);
    }
    if path == Property::Rotation && format.ty == Vec4 {
        quaternions(check, output, format, cubic, &pointer);
    }
}

/// Rotation keyframes (not CUBICSPLINE tangents) are unit quaternions.
fn quaternions(check: &mut Check<'_>, output: usize, format: Format, cubic: bool, pointer: &str) {
    let Some(data) = check.data(output) else {
        return;
    };
    let stride = if cubic { 3 } else { 1 };
    let skip = if cubic { 1 } else { 0 };
    let bad = data.chunks_exact(4).enumerate().skip(skip).step_by(stride).find_map(|(k, q)| {
        let length = q.iter().map(|&c| format.value(c).powi(2)).sum::<f64>().sqrt();
        ((length - 1.0).abs() > UNIT_LENGTH_TOLERANCE).then_some((k, length))
    });
    if let Some((k, length)) = bad {
        let message = format!("rotation keyframe {k} has length {length}, not 1");
        check.error("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", pointer, message);
    }
}
