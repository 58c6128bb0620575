//! Channels that animate one property twice in a clip (legacy Blender exports write them;
//! glTF forbids it), merged as three.js's animation mixer plays them: every track on a
//! property is sampled and the results are mixed with equal weights, the `k`-th track mixed
//! in at `1/k` (vectors and weights linearly, rotations by the shortest slerp).
//!
//! The merged channel is keyed at every key time of both channels, with intermediate keys
//! where either is not linear in the mixed quantity (rotations, cubic splines), so it follows
//! the mixed curve between keys as well.

use glam::{Quat, Vec3};
use props_anim::{Channel, Interpolation, Keyframes, Pose, Rig};

use crate::error::ImportError;
use crate::limits::{self, Limits};

/// Intermediate keys per interval where the mix is not linear between keys.
const SUBDIVISIONS: usize = 4;

/// `merged` (the mix of `tracks` earlier channels on one property) with `next` mixed in, as
/// the mixer does with the `tracks + 1`-th track. `path` names `next` in errors.
pub(crate) fn mix_in(
    merged: &Channel,
    next: &Channel,
    tracks: usize,
    rig: &Rig,
    limits: &Limits,
    path: &str,
) -> Result<Channel, ImportError> {
    let times = key_times(merged, next);
    limits::check(times.len() as u64, limits.max_keyframes, "keyframes", path)?;
    let weight = 1.0 / (tracks as f32 + 1.0);
    let interpolation = match (merged.interpolation(), next.interpolation()) {
        (Interpolation::Step, Interpolation::Step) => Interpolation::Step,
        _ => Interpolation::Linear,
    };
    let node = merged.node();
    let keyframes = match merged.keyframes() {
        Keyframes::MorphWeights { width, .. } => {
            let width = *width;
            let (mut a, mut b) = (vec![0.0; width], vec![0.0; width]);
            let mut values = Vec::with_capacity(times.len() * width);
            for &t in &times {
                merged.sample_morph_weights(t, &mut a);
                next.sample_morph_weights(t, &mut b);
                values.extend(a.iter().zip(&b).map(|(a, b)| a + (b - a) * weight));
            }
            Keyframes::MorphWeights { width, values }
        }
        keyframes => {
            let (mut a, mut b) = (Pose::from_rest(rig), Pose::from_rest(rig));
            let mut sample = |t: f32| {
                merged.sample(t, &mut a);
                next.sample(t, &mut b);
                (*a.local_transform(node), *b.local_transform(node))
            };
            let mix = |a: Vec3, b: Vec3| a.lerp(b, weight);
            match keyframes {
                Keyframes::Translation(_) => Keyframes::Translation(
                    times.iter().map(|&t| sample(t)).map(|(a, b)| mix(a.translation, b.translation)).collect(),
                ),
                Keyframes::Scale(_) => {
                    Keyframes::Scale(times.iter().map(|&t| sample(t)).map(|(a, b)| mix(a.scale, b.scale)).collect())
                }
                _ => Keyframes::Rotation(
                    times.iter().map(|&t| sample(t)).map(|(a, b)| slerp(a.rotation, b.rotation, weight)).collect(),
                ),
            }
        }
    };
    let error = |error| ImportError::at(path, crate::error::ErrorKind::Clip(error));
    Channel::new(node, interpolation, times, keyframes).map_err(error)
}

/// The key times of both channels, with intermediate ones where the mix is not linear.
fn key_times(a: &Channel, b: &Channel) -> Vec<f32> {
    let mut times: Vec<f32> = a.times().iter().chain(b.times()).copied().collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    let curved = |c: &Channel| {
        c.interpolation() == Interpolation::CubicSpline || matches!(c.keyframes(), Keyframes::Rotation(_))
    };
    let stepped = a.interpolation() == Interpolation::Step && b.interpolation() == Interpolation::Step;
    if stepped || !(curved(a) || curved(b)) {
        return times;
    }
    let mut dense = Vec::with_capacity(times.len() * SUBDIVISIONS);
    for pair in times.windows(2) {
        let (start, end) = (pair[0], pair[1]);
        dense.extend((0..SUBDIVISIONS).map(|k| start + (end - start) * k as f32 / SUBDIVISIONS as f32));
    }
    dense.extend(times.last());
    dense.dedup();
    dense
}

/// three.js's `Quaternion.slerpFlat`: the shortest arc, normalized where it lerps.
fn slerp(a: Quat, b: Quat, t: f32) -> Quat {
    if a == b {
        return a;
    }
    a.slerp(b, t)
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
        let merged = mix_in(&a, &b, 1, &rig, &Limits::default(), "animations[0].channels[1]").expect("merged");
        assert_eq!(merged.times(), [0.0, 0.5, 1.0, 2.0]);
        let Keyframes::Translation(values) = merged.keyframes() else { panic!("translation") };
        let x: Vec<f32> = values.iter().map(|v| v.x).collect();
        // a: 0, 1, 2, 2 (held past its last key); b: 4, 4, 8/3, 0.
        let expected = [2.0, 2.5, (2.0 + 8.0 / 3.0) / 2.0, 1.0];
        assert!(x.iter().zip(expected).all(|(x, e)| (x - e).abs() < 1e-6), "{x:?}");
        // A third track is mixed in at a third.
        let c = channel(&[0.0], &[5.0]);
        let three = mix_in(&merged, &c, 2, &rig, &Limits::default(), "x").expect("merged");
        let Keyframes::Translation(values) = three.keyframes() else { panic!("translation") };
        assert!((values[0].x - 3.0).abs() < 1e-6, "{values:?}");
    }
}
