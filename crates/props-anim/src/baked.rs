//! A clip's channels rebaked for fast sampling: channels grouped by shared key times (one key
//! search per group, not per channel), every segment's data for a whole group in one
//! contiguous block, slerp angles precomputed at load, constant channels folded away.
//!
//! Each group of `n` keys has `n + 1` segment records: record 0 holds key 0 (before the first
//! key), record `k` in `1..n` interpolates from key `k - 1` to key `k`, record `n` holds the
//! last key. Sampling finds the record and the fraction `u` exactly as [`Segment::search`]
//! does, then evaluates each track from its record with the reference's formulas (linear
//! `a (1 - u) + b u`; slerp as [`crate::clip::interpolate::slerp`], written `a' sin((1-u) t) + b'
//! sin(u t)` with the angle `t` baked, the keys pre-divided by `sin t` and the sines from
//! [`crate::trig::plus_sin4`]: no division, square root or branch per lane; Hermite with
//! tangents pre-multiplied by the key interval). [`BakedClip::evaluate4`] does it for four
//! instances at once, rotations in component form.
//!
//! Morph weight channels are left out: they do not reach the palette.

use glam::{Quat, Vec3, Vec3A, Vec4};

use crate::clip::interpolate::CLOSE_COSINE;
use crate::clip::interpolate::Interpolation;
use crate::clip::{Clip, Keyframes};
use crate::node_id::NodeId;
use crate::rows4::transpose;
use crate::transform::Transform;
use crate::trig::{plus_sin4, sin4};

/// Which property a track writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Property {
    Translation,
    Rotation,
    Scale,
}

/// How a track's records are laid out and evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `[a, b]`: `a (1 - u) + b u` (steps and holds store `b = a`, `u` is then irrelevant).
    Lerp,
    /// `[v0, b0 dt, v1, a1 dt]`: Hermite.
    Cubic,
    /// `[q0 / sin t, q1 / sin t, (t, 0, 0, 0)]`: slerp by angle `t`, or `[q0, q0, (0, 1, 0, 0)]`:
    /// hold q0.
    Rotation,
    /// `[v0, b0 dt, v1, a1 dt, (normalize, 0, 0, 0)]`: Hermite, normalized unless holding.
    CubicRotation,
}

impl Kind {
    fn stride(self) -> usize {
        match self {
            Self::Lerp => 2,
            Self::Rotation => 3,
            Self::Cubic => 4,
            Self::CubicRotation => 5,
        }
    }
}

/// The parameters `(angle, hold weight, 0, 0)` of a held rotation (slerp records are
/// `(t, 0, 0, 0)`).
const HOLD: Vec4 = Vec4::new(0.0, 1.0, 0.0, 0.0);

/// One animated property of one node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Track {
    /// The animated node.
    pub node: NodeId,
    /// The property written.
    pub property: Property,
    kind: Kind,
    /// Offset of this track's record inside its group's segment block, in `Vec4`s.
    offset: u32,
}

/// Channels sharing one set of key times.
#[derive(Clone, Debug, PartialEq)]
struct Group {
    times: Vec<f32>,
    /// `(first key time, 1 / key interval)` when keys are evenly spaced (to within rounding):
    /// the key index is then computed, not searched (and checked against the times).
    uniform: Option<(f32, f32)>,
    /// Index of this group's key cursor among an instance's cursors, for uneven keys.
    cursor: Option<usize>,
    /// First `Vec4` of record 0.
    start: usize,
    /// `Vec4`s per record.
    stride: usize,
    /// This group's tracks.
    tracks: std::ops::Range<usize>,
}

/// Where a time falls in a group: the record's first `Vec4` and the fraction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Found {
    record: u32,
    u: f32,
}

/// A clip, rebaked (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BakedClip {
    groups: Vec<Group>,
    tracks: Vec<Track>,
    data: Vec<Vec4>,
    cursors: usize,
    /// Channels whose keys all hold one value: their node, property and that value.
    constants: Vec<(NodeId, Property, Vec4)>,
}

fn vec4_of(v: Vec3) -> Vec4 {
    v.extend(0.0)
}

fn quat4(q: Quat) -> Vec4 {
    Vec4::from(q)
}

/// A channel's values as `Vec4`s (vectors with w = 0) and its property; `None` for weights.
fn values(keyframes: &Keyframes) -> Option<(Property, Vec<Vec4>)> {
    match keyframes {
        Keyframes::Translation(v) => Some((Property::Translation, v.iter().copied().map(vec4_of).collect())),
        Keyframes::Scale(v) => Some((Property::Scale, v.iter().copied().map(vec4_of).collect())),
        Keyframes::Rotation(v) => Some((Property::Rotation, v.iter().copied().map(quat4).collect())),
        Keyframes::MorphWeights { .. } => None,
    }
}

/// The record of one track for record index `r` of a group with `times`.
fn record(kind: Kind, interpolation: Interpolation, values: &[Vec4], times: &[f32], r: usize) -> Vec<Vec4> {
    let n = times.len();
    let stride = interpolation.values_per_key();
    let value = |k: usize| values[k * stride + stride / 2];
    // The key held, or the segment (from key `r - 1`) interpolated.
    let held = if r == 0 {
        Some(0)
    } else if r == n {
        Some(n - 1)
    } else if interpolation == Interpolation::Step {
        Some(r - 1)
    } else {
        None
    };
    match (kind, held) {
        (Kind::Lerp, Some(k)) => vec![value(k), value(k)],
        (Kind::Lerp, None) => vec![value(r - 1), value(r)],
        (Kind::Cubic, Some(k)) => vec![value(k), Vec4::ZERO, value(k), Vec4::ZERO],
        (Kind::Cubic | Kind::CubicRotation, None) => {
            let (k, dt) = (r - 1, times[r] - times[r - 1]);
            let mut record = vec![value(k), values[k * 3 + 2] * dt, value(k + 1), values[(k + 1) * 3] * dt];
            if kind == Kind::CubicRotation {
                record.push(Vec4::X);
            }
            record
        }
        (Kind::CubicRotation, Some(k)) => vec![value(k), Vec4::ZERO, value(k), Vec4::ZERO, Vec4::ZERO],
        (Kind::Rotation, Some(k)) => vec![value(k), value(k), HOLD],
        (Kind::Rotation, None) => rotation_record(value(r - 1), value(r)),
    }
}

/// The slerp record from `a` to `b` (see [`Kind::Rotation`]), with
/// [`crate::clip::interpolate::slerp`]'s decisions made here once, in `f64`: shortest path; keys
/// closer than [`CLOSE_COSINE`] made unit (where the reference normalizes its result), their
/// angle `2 atan2(|a - b|, |a + b|)`, exact however close they are. The keys are divided by
/// the sine of the angle as rounded to `f32`, so that weights and keys agree.
fn rotation_record(a: Vec4, b: Vec4) -> Vec<Vec4> {
    if a == b {
        return vec![a, a, HOLD];
    }
    let (mut b, mut dot) = (b, a.dot(b));
    if dot < 0.0 {
        b = -b;
        dot = -dot;
    }
    let (a, b, angle) = if dot < CLOSE_COSINE {
        (a.as_dvec4(), b.as_dvec4(), f64::from(dot).acos() as f32)
    } else {
        let (a, b) = (unit(a), unit(b));
        (a, b, (2.0 * (a - b).length().atan2((a + b).length())) as f32)
    };
    // No angle, or one so small (below 1e-38 rad) that the keys divided by its sine would
    // overflow f32: the same rotation to within f32, held. (A fuzzed clip keyed 1e-41 s apart
    // made such a pair, and the fast path's pose infinite.)
    let sine = f64::from(angle).sin();
    if sine * f64::from(f32::MAX) < 1.0 {
        return vec![a.as_vec4(), a.as_vec4(), HOLD];
    }
    let inverse_sine = 1.0 / sine;
    vec![(a * inverse_sine).as_vec4(), (b * inverse_sine).as_vec4(), Vec4::new(angle, 0.0, 0.0, 0.0)]
}

/// `q / |q|`, computed in `f64`.
fn unit(q: Vec4) -> glam::DVec4 {
    let q = q.as_dvec4();
    q / q.length()
}

/// `(first time, 1 / interval)` when `times` are evenly spaced to within rounding.
fn uniform_spacing(times: &[f32]) -> Option<(f32, f32)> {
    let (&first, &last) = (times.first()?, times.last()?);
    if times.len() < 3 {
        return None;
    }
    let step = f64::from(last - first) / (times.len() - 1) as f64;
    let even = times
        .iter()
        .enumerate()
        .all(|(i, &t)| (f64::from(t) - (f64::from(first) + step * i as f64)).abs() < step * 0.25);
    // Keys closer than a float's inverse can say (denormal times) are searched.
    even.then_some((first, (1.0 / step) as f32)).filter(|&(_, inverse)| inverse.is_finite())
}

/// Keys a cursor walks forward before it searches instead.
const SHORT_WALK: usize = 4;

impl BakedClip {
    /// Rebakes `clip`.
    pub fn new(clip: &Clip) -> Self {
        let mut groups: Vec<Group> = Vec::new();
        // (group, track, values, interpolation) before laying out the data.
        let mut pending: Vec<(usize, Track, Vec<Vec4>, Interpolation)> = Vec::new();
        let mut constants = Vec::new();
        // Each group's index by its times' bits (no time is NaN; a -0 and a 0 make two groups
        // of the same times, which sample alike).
        let mut by_times: std::collections::HashMap<Vec<u32>, usize> = std::collections::HashMap::new();
        for channel in clip.channels() {
            let Some((property, values)) = values(channel.keyframes()) else { continue };
            let interpolation = channel.keys().interpolation();
            if interpolation != Interpolation::CubicSpline && values.windows(2).all(|w| w[0] == w[1]) {
                constants.push((channel.node(), property, values[0]));
                continue;
            }
            let kind = match (property, interpolation) {
                (Property::Rotation, Interpolation::CubicSpline) => Kind::CubicRotation,
                (Property::Rotation, _) => Kind::Rotation,
                (_, Interpolation::CubicSpline) => Kind::Cubic,
                _ => Kind::Lerp,
            };
            let key: Vec<u32> = channel.keys().times().iter().map(|t| t.to_bits()).collect();
            let group = match by_times.get(&key) {
                Some(&g) => g,
                None => {
                    by_times.insert(key, groups.len());
                    groups.push(Group {
                        times: channel.keys().times().to_vec(),
                        uniform: uniform_spacing(channel.keys().times()),
                        cursor: None,
                        start: 0,
                        stride: 0,
                        tracks: 0..0,
                    });
                    groups.len() - 1
                }
            };
            let track = Track { node: channel.node(), property, kind, offset: 0 };
            pending.push((group, track, values, interpolation));
        }
        let (mut tracks, mut data, mut cursors) = (Vec::new(), Vec::new(), 0);
        // Grouped in order, each group's tracks in the channels' order.
        pending.sort_by_key(|p| p.0);
        let mut pending = pending.as_slice();
        for (index, group) in groups.iter_mut().enumerate() {
            let len = pending.iter().take_while(|p| p.0 == index).count();
            let (members, rest) = pending.split_at(len);
            pending = rest;
            let first = tracks.len();
            let mut offset = 0;
            for (_, track, _, _) in members {
                tracks.push(Track { offset: offset as u32, ..*track });
                offset += track.kind.stride();
            }
            group.stride = offset;
            group.tracks = first..tracks.len();
            group.start = data.len();
            if group.uniform.is_none() {
                group.cursor = Some(cursors);
                cursors += 1;
            }
            for r in 0..=group.times.len() {
                for (_, track, values, interpolation) in members {
                    data.extend(record(track.kind, *interpolation, values, &group.times, r));
                }
            }
        }
        Self { groups, tracks, data, cursors, constants }
    }

    /// The tracks, group after group.
    pub fn tracks(&self) -> &[Track] {
        &self.tracks
    }

    /// Channels folded into constants: node, property, value (vectors with w = 0).
    pub fn constants(&self) -> &[(NodeId, Property, Vec4)] {
        &self.constants
    }

    /// Groups of shared key times.
    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Key cursors an instance needs (one per group with uneven key times).
    pub fn cursor_count(&self) -> usize {
        self.cursors
    }

    /// Finds, for every group, where `time` falls, into `found` (one per group), moving the
    /// instance's `cursors` forward. Same segments as [`Segment::search`].
    #[inline]
    pub fn find(&self, time: f32, cursors: &mut [u32], found: &mut [Found]) {
        for (group, found) in self.groups.iter().zip(found) {
            let times = &group.times[..];
            let last = times.len() - 1;
            // The last key with times[index] <= time, or None before the first key.
            let index = match (group.uniform, group.cursor) {
                (Some((first, inverse_step)), _) => {
                    // Truncation is the floor here (and needs no libm call); NaN gives 0.
                    let guess = (time - first) * inverse_step;
                    let mut index = if guess >= 0.0 { (guess as usize).min(last) } else { 0 };
                    while index < last && times[index + 1] <= time {
                        index += 1;
                    }
                    while index > 0 && times[index] > time {
                        index -= 1;
                    }
                    index
                }
                (None, Some(c)) => {
                    let cursor = &mut cursors[c];
                    let mut index = *cursor as usize;
                    if index > last || times[index] > time {
                        index = times.partition_point(|&t| t <= time).saturating_sub(1);
                    } else if times.get(index + SHORT_WALK).is_some_and(|&t| t <= time) {
                        // Far ahead (the cursor last served an instance at another phase):
                        // searched, not walked key by key.
                        index += times[index..].partition_point(|&t| t <= time) - 1;
                    } else {
                        while index < last && times[index + 1] <= time {
                            index += 1;
                        }
                    }
                    *cursor = index as u32;
                    index
                }
                (None, None) => times.partition_point(|&t| t <= time).saturating_sub(1),
            };
            let (r, u) = if time < times[0] {
                (0, 0.0)
            } else if index >= last {
                (last + 1, 0.0)
            } else {
                (index + 1, (time - times[index]) / (times[index + 1] - times[index]))
            };
            *found = Found { record: (group.start + r * group.stride) as u32, u };
        }
    }

    /// Evaluates every track for four instances at the places `found` by [`BakedClip::find`]
    /// (`found[k]` being lane `k`'s), calling `write` with the track and its four values by
    /// component (`[x of each lane, y of each, z, w]`; vectors with w = 0, rotations as x, y,
    /// z, w). Rotations (most tracks, and the costly ones) are computed for the four lanes at
    /// once, the others lane by lane (each lane's value is what [`BakedClip::value`] gives).
    #[inline]
    pub fn evaluate4(&self, found: [&[Found]; 4], mut write: impl FnMut(&Track, [Vec4; 4])) {
        for (g, group) in self.groups.iter().enumerate() {
            let lanes = [found[0][g], found[1][g], found[2][g], found[3][g]];
            let u = Vec4::new(lanes[0].u, lanes[1].u, lanes[2].u, lanes[3].u);
            for track in &self.tracks[group.tracks.clone()] {
                let at = |k: usize| lanes[k].record as usize + track.offset as usize;
                let at = [at(0), at(1), at(2), at(3)];
                let values = if track.kind == Kind::Rotation {
                    self.rotations4(at, u)
                } else {
                    let value = |k: usize| self.value(track.kind, at[k], u[k]);
                    transpose([value(0), value(1), value(2), value(3)])
                };
                write(track, values);
            }
        }
    }

    /// Four rotation records at `at`, lane `k` at fraction `u[k]`, by component: the
    /// `Kind::Rotation` arm of [`BakedClip::value`] on the lanes' parameters and quaternions
    /// transposed into one vector per component.
    #[inline]
    fn rotations4(&self, at: [usize; 4], u: Vec4) -> [Vec4; 4] {
        let record = |offset: usize| {
            transpose([
                self.data[at[0] + offset],
                self.data[at[1] + offset],
                self.data[at[2] + offset],
                self.data[at[3] + offset],
            ])
        };
        let [angle, hold, _, _] = record(2);
        // Holding lanes have angle 0: four of them skip the sines, whose terms are then +0
        // (same bits). `u * angle` is never -0, so `sin4` is `value`'s `plus_sin4` with 0.
        let (w0, w1) = if angle.cmpne(Vec4::ZERO).any() {
            (plus_sin4(hold, (Vec4::ONE - u) * angle), sin4(u * angle))
        } else {
            (hold, Vec4::ZERO)
        };
        let (a, b) = (record(0), record(1));
        [a[0] * w0 + b[0] * w1, a[1] * w0 + b[1] * w1, a[2] * w0 + b[2] * w1, a[3] * w0 + b[3] * w1]
    }

    /// One track's value from its record at `at`, at fraction `u`.
    #[inline]
    fn value(&self, kind: Kind, at: usize, u: f32) -> Vec4 {
        match kind {
            Kind::Lerp => {
                let [a, b] = [self.data[at], self.data[at + 1]];
                a * (1.0 - u) + b * u
            }
            Kind::Rotation => {
                // Branch-free: holds have angle 0 (both sines vanish) and hold weight 1.
                let [a, b, p] = [self.data[at], self.data[at + 1], self.data[at + 2]];
                let w = plus_sin4(Vec4::new(p.y, 0.0, 0.0, 0.0), Vec4::new((1.0 - u) * p.x, u * p.x, 0.0, 0.0));
                a * w.x + b * w.y
            }
            Kind::Cubic | Kind::CubicRotation => {
                let d = &self.data[at..at + 4];
                let (u2, u3) = (u * u, u * u * u);
                let (h00, h10, h01, h11) =
                    (2.0 * u3 - 3.0 * u2 + 1.0, u3 - 2.0 * u2 + u, -2.0 * u3 + 3.0 * u2, u3 - u2);
                let v = d[0] * h00 + d[1] * h10 + d[2] * h01 + d[3] * h11;
                if kind == Kind::CubicRotation && self.data[at + 4].x != 0.0 { v.normalize_or(Vec4::W) } else { v }
            }
        }
    }
}

/// A local transform as the fast path keeps it: translation, rotation, scale as `Vec4`s.
pub(crate) type Local4 = [Vec4; 3];

impl Property {
    /// Index of the property in a [`Local4`].
    pub fn lane(self) -> usize {
        match self {
            Self::Translation => 0,
            Self::Rotation => 1,
            Self::Scale => 2,
        }
    }
}

/// A transform as a [`Local4`].
pub(crate) fn local4(t: &Transform) -> Local4 {
    [t.translation.extend(0.0), Vec4::from(t.rotation), t.scale.extend(0.0)]
}

/// Applies a baked value to a local transform.
#[inline]
pub(crate) fn apply(local: &mut Transform, property: Property, value: Vec4) {
    match property {
        Property::Translation => local.translation = Vec3A::from_vec4(value).into(),
        Property::Scale => local.scale = Vec3A::from_vec4(value).into(),
        Property::Rotation => local.rotation = Quat::from_vec4(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clip::Channel;
    use crate::keys::Segment;
    use crate::rig::{Rig, SourceNode};
    use crate::transform::RestTransform;

    fn one_node() -> Rig {
        let node = SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        Rig::from_source_nodes(&[node]).expect("one node")
    }

    fn translation_clip(times: Vec<f32>) -> Clip {
        let rig = one_node();
        let values = (0..times.len()).map(|i| Vec3::new(i as f32, 0.0, 0.0)).collect();
        let channel = Channel::new(NodeId(0), Interpolation::Linear, times, Keyframes::Translation(values));
        Clip::new(None, vec![channel.expect("valid channel")], &rig).expect("valid clip")
    }

    /// The exact slerp from `a` to `b` at `u`, in `f64`, of the keys made unit.
    fn exact_slerp(a: Vec4, b: Vec4, u: f64) -> glam::DVec4 {
        let (a, mut b) = (unit(a), unit(b));
        if a.dot(b) < 0.0 {
            b = -b;
        }
        let angle = 2.0 * (a - b).length().atan2((a + b).length());
        if angle == 0.0 {
            return a;
        }
        (a * ((1.0 - u) * angle).sin() + b * (u * angle).sin()) / angle.sin()
    }

    #[test]
    fn rotation_records_slerp_to_f32_rounding() {
        // Unit key pairs from 1e-7 rad apart (where `acos` of the dot product would see no
        // angle) through `CLOSE_COSINE` to 2.6 rad, signs flipped or not: every fraction's
        // result is the exact (unit) slerp to within a few f32 ulps.
        let mut worst = 0.0f64;
        for k in 0..400 {
            let axis = Vec3::new((k as f32 * 0.37).sin(), 1.0, (k as f32 * 0.11).cos()).normalize();
            let a = Vec4::from(Quat::from_axis_angle(Vec3::new(axis.y, axis.z, axis.x), k as f32 * 0.031));
            let angle = 1e-7 * 10f32.powf((k % 40) as f32 * 0.19);
            let b = Vec4::from(Quat::from_vec4(a) * Quat::from_axis_angle(axis, angle));
            let b = if k % 3 == 0 { -b } else { b };
            let record = rotation_record(a, b);
            let baked = BakedClip { data: record, ..BakedClip::new(&translation_clip(vec![0.0, 1.0])) };
            for i in 0..=16 {
                let u = i as f32 / 16.0;
                let got = baked.value(Kind::Rotation, 0, u).as_dvec4();
                worst = worst.max((got - exact_slerp(a, b, f64::from(u))).abs().max_element());
            }
        }
        assert!(worst < 4.0 * f64::from(f32::EPSILON), "worst {worst}");
        // Keys a denormal apart: held, never divided by a sine that overflows f32.
        let (a, b) = (Vec4::new(-0.0, -0.0, -0.0, -1.0), Vec4::new(-0.0, -4.8084e-41, -0.0, -1.0));
        let baked = BakedClip { data: rotation_record(a, b), ..BakedClip::new(&translation_clip(vec![0.0, 1.0])) };
        for i in 0..=16 {
            let got = baked.value(Kind::Rotation, 0, i as f32 / 16.0);
            assert!(got.is_finite() && (got - a).abs().max_element() < f32::EPSILON, "{got}");
        }
        let held = rotation_record(Vec4::new(0.0, 0.6, 0.0, 0.8), Vec4::new(0.0, 0.6, 0.0, 0.8));
        let baked = BakedClip { data: held, ..BakedClip::new(&translation_clip(vec![0.0, 1.0])) };
        assert_eq!(baked.value(Kind::Rotation, 0, 0.3), Vec4::new(0.0, 0.6, 0.0, 0.8), "holds are exact");
    }

    #[test]
    fn cubic_rotations_meeting_at_zero_give_the_identity_not_nan() {
        let rig = one_node();
        let (q, flat) = (Quat::from_rotation_y(0.5), Quat::from_xyzw(0.0, 0.0, 0.0, 0.0));
        let keys = Keyframes::Rotation(vec![flat, q, flat, flat, -q, flat]);
        let channel = Channel::new(NodeId(0), Interpolation::CubicSpline, vec![0.0, 1.0], keys).expect("valid channel");
        let baked = BakedClip::new(&Clip::new(None, vec![channel], &rig).expect("valid clip"));
        let mut cursors = vec![0; baked.cursor_count()];
        let mut found = vec![Found::default(); baked.group_count()];
        baked.find(0.5, &mut cursors, &mut found);
        assert_eq!(baked.value(Kind::CubicRotation, found[0].record as usize, found[0].u), Vec4::W);
    }

    #[test]
    fn uniform_spacing_is_detected_only_when_even() {
        assert_eq!(uniform_spacing(&[0.0, 0.5, 1.0, 1.5]).map(|u| u.1), Some(2.0));
        assert_eq!(uniform_spacing(&[0.0, 0.5, 1.4, 1.5]), None);
        assert_eq!(uniform_spacing(&[0.0, 1.0]), None);
        // Keys closer than a float's inverse can say: searched, not guessed from infinity.
        let tiny = [0, 1, 2, 3].map(f32::from_bits);
        assert_eq!(uniform_spacing(&tiny), None);
    }

    #[test]
    fn finding_agrees_with_the_binary_search() {
        // Uneven keys many enough that the cursor, jumping ahead, searches rather than walks.
        let many: Vec<f32> = (0..200).map(|k| k as f32 * 0.01 + if k % 3 == 0 { 0.004 } else { 0.0 }).collect();
        for times in [vec![0.2f32, 0.4, 0.6, 0.8, 1.0], vec![0.0, 0.1, 0.5, 0.55, 2.0], vec![0.3, 0.4], many] {
            let clip = translation_clip(times.clone());
            let baked = BakedClip::new(&clip);
            let mut cursors = vec![0; baked.cursor_count()];
            let mut found = vec![Found::default(); baked.group_count()];
            for i in 0..=300 {
                let time =
                    i as f32 * 0.01 - 0.5 + if i % 7 == 0 { -0.3 } else { 0.0 } + if i % 11 == 0 { 1.3 } else { 0.0 };
                baked.find(time, &mut cursors, &mut found);
                let group = &baked.groups[0];
                let expected = match Segment::search(&times, time) {
                    Segment::Hold { index } => (if time < times[0] { 0 } else { index + 1 }, 0.0),
                    Segment::Between { index, u } => (index + 1, u),
                };
                let r = (found[0].record as usize - group.start) / group.stride;
                assert_eq!((r, found[0].u), expected, "time {time} in {times:?}");
            }
        }
    }
}
