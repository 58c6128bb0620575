//! Channels that animate one property more than once in a clip (legacy Blender exports write
//! two; FBX-to-glTF conversions write several; glTF forbids it), merged as three.js's animation
//! mixer plays them: every track on a property is sampled and the results are mixed with equal
//! weights, the `k`-th track mixed in at `1/k` (vectors and weights linearly, rotations by the
//! shortest slerp). Any number of tracks is mixed: each mix charges the keys it may make to the
//! file's budget before making them, so the budget, not a count, bounds a hostile file's cost.
//!
//! The merged channel is keyed at every key time of both channels, just before every key of a
//! STEP channel mixed into a LINEAR one (where the mix jumps), and between keys wherever
//! interpolating the merged keys would stray from the mix (rotations, cubic splines) by more
//! than [`TOLERANCE`], level by level and within a budget of keys, so that a hostile clip costs
//! little and the error left is spread evenly.

use glam::{Quat, Vec3, Vec4};
use props_anim::{
    Pose, Rig,
    clip::interpolate::Interpolation,
    clip::{Channel, Keyframes},
};

use crate::error::{ErrorKind, ImportError};
use crate::limits::{self, Budget, Limits};

/// The keys refinement may add to a short channel (a long one's at most double).
const MIN_REFINED_KEYS: usize = 4096;

/// How far (per component) interpolating two merged keys may stray from the mix between them.
const TOLERANCE: f32 = 1e-6;
/// How many times an interval between keys is halved at most.
const MAX_DEPTH: u32 = 12;

/// `merged` (the mix of `tracks` earlier channels on one property, `raw_keys` keys in all)
/// with `next` mixed in, as the mixer does with the `tracks + 1`-th track. `path` names `next`
/// in errors. The most keys it may make (twice the keys of the tracks mixed, or
/// [`MIN_REFINED_KEYS`] more: the merged channel never grows past that, however many tracks
/// are mixed) are charged to `budget` before any is made and bounded by the limits, so no
/// number of duplicate channels takes unbounded memory or time.
pub(crate) fn mix_in(
    merged: &Channel,
    next: &Channel,
    (tracks, raw_keys): (usize, usize),
    rig: &Rig,
    limits: &Limits,
    budget: &Budget,
    path: &str,
) -> Result<Channel, ImportError> {
    let stepped =
        merged.keys().interpolation() == Interpolation::Step && next.keys().interpolation() == Interpolation::Step;
    let weight = 1.0 / (tracks as f32 + 1.0);
    let mut mix = Mix { a: merged, b: next, weight, pose: Pose::from_rest(rig) };
    let mut times = key_times(merged, next, stepped);
    let max_keys = usize::try_from(limits.max_keyframes).unwrap_or(usize::MAX);
    limits::check(times.len() as u64, limits.max_keyframes, "keyframes", path)?;
    // Refinement at most doubles the keys (or adds MIN_REFINED_KEYS to a short channel); that
    // many keys, twice (a level and the next are alive together), are charged before any is made.
    let inputs = raw_keys + next.keys().times().len();
    let most = (inputs + inputs.max(MIN_REFINED_KEYS)).min(max_keys).max(times.len());
    let width = mix.at(0.0).len();
    let key_bytes = (size_of::<f32>() * (1 + width)) as u64;
    budget.charge(key_bytes.saturating_mul(2 * most as u64), path)?;
    let mut values: Vec<f32> = Vec::with_capacity(times.len() * width);
    for &t in &times {
        values.extend(mix.at(t));
    }
    if !stepped {
        // Level by level, a key between every two that interpolate away from the mix, until
        // none do or the keys run out (then the mix is followed less closely, evenly over the
        // clip, never at any cost).
        for _ in 0..MAX_DEPTH {
            let capacity = (2 * times.len()).min(most);
            let (mut new_times, mut new_values) = (Vec::with_capacity(capacity), Vec::with_capacity(capacity * width));
            let mut added = 0;
            for k in 0..times.len() {
                let value = &values[k * width..(k + 1) * width];
                new_times.push(times[k]);
                new_values.extend_from_slice(value);
                let Some(&end) = times.get(k + 1) else { continue };
                let middle = times[k] + (end - times[k]) * 0.5;
                if times.len() + added >= most || middle <= times[k] || middle >= end {
                    continue;
                }
                let exact = mix.at(middle);
                let interpolated = mix.between(value, &values[(k + 1) * width..(k + 2) * width], 0.5);
                if exact.iter().zip(&interpolated).any(|(e, i)| (e - i).abs() > TOLERANCE) {
                    new_times.push(middle);
                    new_values.extend(exact);
                    added += 1;
                }
            }
            (times, values) = (new_times, new_values);
            if added == 0 {
                break;
            }
        }
    }
    let values: Vec<&[f32]> = values.chunks_exact(width.max(1)).collect();
    let interpolation = if stepped { Interpolation::Step } else { Interpolation::Linear };
    let node = merged.node();
    let keyframes = match merged.keyframes() {
        Keyframes::Translation(_) => Keyframes::Translation(values.iter().map(|v| Vec3::from_slice(v)).collect()),
        Keyframes::Scale(_) => Keyframes::Scale(values.iter().map(|v| Vec3::from_slice(v)).collect()),
        Keyframes::Rotation(_) => Keyframes::Rotation(values.iter().map(|v| Quat::from_slice(v)).collect()),
        Keyframes::MorphWeights { width, .. } => Keyframes::MorphWeights { width: *width, values: values.concat() },
    };
    Channel::new(node, interpolation, times, keyframes).map_err(|error| ImportError::at(path, ErrorKind::Clip(error)))
}

/// The mix of two channels at a time.
struct Mix<'a> {
    a: &'a Channel,
    b: &'a Channel,
    /// How much of `b` is mixed in.
    weight: f32,
    /// Where the channels are sampled (only their node's transform is read).
    pose: Pose,
}

impl Mix<'_> {
    /// The mixed value at `t`, as its components.
    fn at(&mut self, t: f32) -> Vec<f32> {
        let (a, b) = (value(self.a, t, &mut self.pose), value(self.b, t, &mut self.pose));
        match self.a.keyframes() {
            Keyframes::Rotation(_) => slerp(&a, &b, self.weight),
            _ => a.iter().zip(&b).map(|(a, b)| a + (b - a) * self.weight).collect(),
        }
    }

    /// The merged channel's own interpolation between two of its keys.
    fn between(&self, start: &[f32], end: &[f32], s: f32) -> Vec<f32> {
        match self.a.keyframes() {
            Keyframes::Rotation(_) => slerp(start, end, s),
            _ => start.iter().zip(end).map(|(a, b)| a + (b - a) * s).collect(),
        }
    }
}

/// A channel's value at `t`, as its components (sampled into `pose`).
fn value(channel: &Channel, t: f32, pose: &mut Pose) -> Vec<f32> {
    if let Keyframes::MorphWeights { width, .. } = channel.keyframes() {
        let mut weights = vec![0.0; *width];
        channel.sample_morph_weights(t, &mut weights);
        return weights;
    }
    channel.sample(t, pose);
    let transform = pose.local_transform(channel.node());
    match channel.keyframes() {
        Keyframes::Translation(_) => transform.translation.to_array().to_vec(),
        Keyframes::Scale(_) => transform.scale.to_array().to_vec(),
        _ => transform.rotation.to_array().to_vec(),
    }
}

/// The key times of both channels, and, mixing STEP into LINEAR, the time just before each
/// key of a STEP channel (where the mix jumps).
fn key_times(a: &Channel, b: &Channel, stepped: bool) -> Vec<f32> {
    let mut times: Vec<f32> = a.keys().times().iter().chain(b.keys().times()).copied().collect();
    if !stepped {
        for channel in [a, b].into_iter().filter(|c| c.keys().interpolation() == Interpolation::Step) {
            times.extend(channel.keys().times().iter().skip(1).map(|t| t.next_down()).filter(|t| *t >= 0.0));
        }
    }
    times.sort_by(f32::total_cmp);
    times.dedup();
    times
}

/// three.js's `Quaternion.slerpFlat`: the shortest arc, normalized where it lerps.
fn slerp(a: &[f32], b: &[f32], t: f32) -> Vec<f32> {
    let (a, b) = (Quat::from_vec4(Vec4::from_slice(a)), Quat::from_vec4(Vec4::from_slice(b)));
    if a == b {
        return a.to_array().to_vec();
    }
    a.slerp(b, t).to_array().to_vec()
}

#[cfg(test)]
mod tests {
    use props_anim::{NodeId, RestTransform, Rig, SourceNode, Transform};

    use super::*;

    fn channel(times: &[f32], values: &[f32]) -> Channel {
        let keys = Keyframes::Translation(values.iter().map(|&x| Vec3::new(x, 0.0, 0.0)).collect());
        Channel::new(NodeId(0), Interpolation::Linear, times.to_vec(), keys).expect("channel")
    }

    #[test]
    fn two_tracks_mix_half_and_half_at_every_key_of_either() {
        let node = SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let rig = Rig::from_source_nodes(&[node]).expect("rig");
        let a = channel(&[0.0, 1.0], &[0.0, 2.0]);
        let b = channel(&[0.0, 0.5, 2.0], &[4.0, 4.0, 0.0]);
        let budget = Budget::new(Limits::default().max_decoded_bytes);
        let merged =
            mix_in(&a, &b, (1, 2), &rig, &Limits::default(), &budget, "animations[0].channels[1]").expect("merged");
        assert_eq!(merged.keys().times(), [0.0, 0.5, 1.0, 2.0]);
        let Keyframes::Translation(values) = merged.keyframes() else { panic!("translation") };
        let x: Vec<f32> = values.iter().map(|v| v.x).collect();
        // a: 0, 1, 2, 2 (held past its last key); b: 4, 4, 8/3, 0.
        let expected = [2.0, 2.5, (2.0 + 8.0 / 3.0) / 2.0, 1.0];
        assert!(x.iter().zip(expected).all(|(x, e)| (x - e).abs() < 1e-6), "{x:?}");
        // A third track is mixed in at a third.
        let c = channel(&[0.0], &[5.0]);
        let three = mix_in(&merged, &c, (2, 5), &rig, &Limits::default(), &budget, "x").expect("merged");
        let Keyframes::Translation(values) = three.keyframes() else { panic!("translation") };
        assert!((values[0].x - 3.0).abs() < 1e-6, "{values:?}");
    }
}
