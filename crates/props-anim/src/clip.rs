//! Animation clips: keyframed channels on rig nodes, validated once at construction, and
//! where a time falls among a channel's keys ([`Segment`], [`KeyCursor`]).

pub mod interpolate;

pub use crate::keys::{KeyCursor, Segment};
pub use crate::playback::{PlayMode, Playback};

use glam::{Quat, Vec3};

use crate::node_id::NodeId;
use crate::pose::Pose;
use crate::property::PropertyId;
use crate::rig::Rig;
use interpolate::Interpolation;

/// The keyed values of a channel, typed by the property they animate.
///
/// For [`Interpolation::CubicSpline`] every key holds three elements: in-tangent, value,
/// out-tangent (glTF's layout).
#[derive(Clone, Debug, PartialEq)]
pub enum Keyframes {
    /// Node translation.
    Translation(Vec<Vec3>),
    /// Node rotation (used as stored; see [`crate::Transform`]).
    Rotation(Vec<Quat>),
    /// Node scale.
    Scale(Vec<Vec3>),
    /// Morph target weights of the node's mesh: `width` weights per element, flat.
    MorphWeights {
        /// Weights per element (the mesh's morph target count).
        width: usize,
        /// The weights, `width` per element.
        values: Vec<f32>,
    },
}

impl Keyframes {
    /// Number of stored elements (keys times values per key).
    #[must_use]
    pub fn element_count(&self) -> usize {
        match self {
            Self::Translation(v) | Self::Scale(v) => v.len(),
            Self::Rotation(v) => v.len(),
            Self::MorphWeights { width, values } => values.len().checked_div(*width).unwrap_or(0),
        }
    }

    /// The glTF name of the animated property (`translation`, `rotation`, `scale`, `weights`).
    #[must_use]
    pub fn property_name(&self) -> &'static str {
        match self {
            Self::Translation(_) => "translation",
            Self::Rotation(_) => "rotation",
            Self::Scale(_) => "scale",
            Self::MorphWeights { .. } => "weights",
        }
    }
}

/// A channel's key times and how it interpolates between its keys: at least one time, each
/// finite, non-negative and later than the one before (checked when a channel is built).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyTimes {
    interpolation: Interpolation,
    times: Vec<f32>,
}

impl KeyTimes {
    /// Checks `times` (see the type's documentation).
    fn new(interpolation: Interpolation, times: Vec<f32>) -> Result<Self, ClipError> {
        check_times(&times)?;
        Ok(Self { interpolation, times })
    }

    /// The interpolation mode.
    #[must_use]
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// Key times in seconds, strictly increasing.
    #[must_use]
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// Time of the last key.
    #[must_use]
    pub fn end_time(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// Elements the keyed values hold: one per key, three for cubic splines.
    fn elements(&self) -> usize {
        self.times.len() * self.interpolation.values_per_key()
    }

    /// Where `time` falls among the keys, found by binary search, with the segment's duration.
    fn search(&self, time: f32) -> (Segment, f32) {
        let segment = Segment::search(&self.times, time);
        (segment, segment.duration(&self.times))
    }
}

/// One animated property of one node.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    node: NodeId,
    keys: KeyTimes,
    keyframes: Keyframes,
}

/// Why a channel or clip is invalid.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClipError {
    /// The channel has no keys.
    #[error("channel has no keyframes")]
    NoKeys,
    /// A key time is NaN or infinite.
    #[error("key time {index} is not finite ({time})")]
    NonFiniteTime {
        /// Key index.
        index: usize,
        /// The value found.
        time: f32,
    },
    /// Key times must increase strictly.
    #[error("key time {index} ({time}) is not greater than the previous one ({previous})")]
    NonIncreasingTime {
        /// Key index.
        index: usize,
        /// The key time.
        time: f32,
        /// The previous key time.
        previous: f32,
    },
    /// A key time is negative.
    #[error("key time {index} is negative ({time})")]
    NegativeTime {
        /// Key index.
        index: usize,
        /// The key time.
        time: f32,
    },
    /// Output element count does not match the key count.
    #[error("{found} output elements for {keys} keys; {interpolation:?} needs {expected}")]
    ValueCount {
        /// Number of keys.
        keys: usize,
        /// Elements found.
        found: usize,
        /// Elements expected.
        expected: usize,
        /// The sampler's interpolation.
        interpolation: Interpolation,
    },
    /// An output value is NaN or infinite.
    #[error("output value {index} is not finite")]
    NonFiniteValue {
        /// Index of the element.
        index: usize,
    },
    /// The target node does not exist.
    #[error("target node {node} is out of range ({count} nodes)")]
    NodeOutOfRange {
        /// Rig node index.
        node: u32,
        /// Number of nodes.
        count: usize,
    },
    /// Another channel of the clip animates the same property of the same node (glTF allows
    /// one: each path of each node once per animation).
    #[error("node {node}'s {property} is animated by channel {first} already")]
    DuplicateTarget {
        /// Rig node index.
        node: u32,
        /// The property (`translation`, `rotation`, `scale`, `weights`).
        property: &'static str,
        /// The channel animating it first.
        first: usize,
    },
    /// The target node has a fixed matrix, which animation cannot target.
    #[error("target node {node} has a fixed matrix; only TRS nodes can be animated")]
    MatrixNode {
        /// Rig node index.
        node: u32,
    },
    /// The target property is not among the rig's [`crate::property::Properties`].
    #[error("target property {property} is not among the rig's {count} animatable properties")]
    PropertyOutOfRange {
        /// Property index.
        property: u32,
        /// Number of properties.
        count: usize,
    },
    /// A property channel's values per key differ from the property's width.
    #[error("channel has {found} values per key but property {property} has {expected}")]
    PropertyWidth {
        /// Property index.
        property: u32,
        /// Values per key in the channel.
        found: usize,
        /// Values the property holds.
        expected: usize,
    },
    /// Morph weight width differs from the node's morph target count.
    #[error("weights channel has {found} weights per key but node {node} has {expected} morph targets")]
    MorphWidth {
        /// Rig node index.
        node: u32,
        /// Weights per key in the channel.
        found: usize,
        /// Morph targets of the node's mesh.
        expected: usize,
    },
}

impl Channel {
    /// Builds a channel, checking key times (finite, non-negative, strictly increasing) and
    /// the number and finiteness of values.
    pub fn new(
        node: NodeId,
        interpolation: Interpolation,
        times: Vec<f32>,
        keyframes: Keyframes,
    ) -> Result<Self, ClipError> {
        let keys = KeyTimes::new(interpolation, times)?;
        let expected = keys.elements();
        let found = keyframes.element_count();
        let exact = match &keyframes {
            Keyframes::MorphWeights { width, values } => *width > 0 && values.len() == width * expected,
            _ => found == expected,
        };
        if !exact {
            return Err(ClipError::ValueCount { keys: keys.times.len(), found, expected, interpolation });
        }
        let non_finite = match &keyframes {
            Keyframes::Translation(v) | Keyframes::Scale(v) => v.iter().position(|x| !x.is_finite()),
            Keyframes::Rotation(v) => v.iter().position(|x| !x.is_finite()),
            Keyframes::MorphWeights { width, values } => values.iter().position(|x| !x.is_finite()).map(|i| i / width),
        };
        if let Some(index) = non_finite {
            return Err(ClipError::NonFiniteValue { index });
        }
        Ok(Self { node, keys, keyframes })
    }

    /// The animated node.
    #[must_use]
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// Its key times and interpolation.
    #[must_use]
    pub fn keys(&self) -> &KeyTimes {
        &self.keys
    }

    /// The keyed values.
    #[must_use]
    pub fn keyframes(&self) -> &Keyframes {
        &self.keyframes
    }

    /// Samples the channel at `time` into `pose`, finding the key by binary search.
    pub fn sample(&self, time: f32, pose: &mut Pose) {
        self.apply(self.keys.search(time).0, pose);
    }

    /// Samples the channel at `time` into `pose`, moving `cursor` forward from where the last
    /// sample left it (amortized O(1) for forward playback). Gives exactly the same result as
    /// [`Channel::sample`].
    pub fn sample_with_cursor(&self, time: f32, cursor: &mut KeyCursor, pose: &mut Pose) {
        self.apply(cursor.seek(&self.keys.times, time), pose);
    }

    /// A morph weights channel's weights at `time`, into `out` (its node's weights): what
    /// [`Channel::sample`] writes into a pose. Other channels write nothing.
    pub fn sample_morph_weights(&self, time: f32, out: &mut [f32]) {
        if let Keyframes::MorphWeights { width, values } = &self.keyframes {
            let (segment, dt) = self.keys.search(time);
            interpolate::weights(values, *width, self.keys.interpolation, segment, dt, out);
        }
    }

    fn apply(&self, segment: Segment, pose: &mut Pose) {
        let node = self.node;
        let interp = self.keys.interpolation;
        let dt = segment.duration(&self.keys.times);
        match &self.keyframes {
            Keyframes::Translation(v) => {
                pose.local_mut(node).translation = interpolate::vec3(v, interp, segment, dt);
            }
            Keyframes::Scale(v) => pose.local_mut(node).scale = interpolate::vec3(v, interp, segment, dt),
            Keyframes::Rotation(v) => pose.local_mut(node).rotation = interpolate::quat(v, interp, segment, dt),
            Keyframes::MorphWeights { width, values } => {
                interpolate::weights(values, *width, interp, segment, dt, pose.morph_weights_mut(node));
            }
        }
    }
}

/// Checks key times: some, finite, non-negative, strictly increasing.
fn check_times(times: &[f32]) -> Result<(), ClipError> {
    if times.is_empty() {
        return Err(ClipError::NoKeys);
    }
    for (index, &time) in times.iter().enumerate() {
        if !time.is_finite() {
            return Err(ClipError::NonFiniteTime { index, time });
        }
        if time < 0.0 {
            return Err(ClipError::NegativeTime { index, time });
        }
        if let Some(&previous) = index.checked_sub(1).and_then(|p| times.get(p))
            && time <= previous
        {
            return Err(ClipError::NonIncreasingTime { index, time, previous });
        }
    }
    Ok(())
}

/// One animated property of a rig's [`crate::property::Properties`] (a material factor, a
/// texture transform, a light parameter, a node's visibility): `width` values per key,
/// interpolated per component (booleans are keyed with [`Interpolation::Step`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyChannel {
    property: PropertyId,
    keys: KeyTimes,
    width: usize,
    values: Vec<f32>,
}

impl PropertyChannel {
    /// Builds a channel of `width` values per element, checking key times as
    /// [`Channel::new`] does, and the number and finiteness of values.
    pub fn new(
        property: PropertyId,
        interpolation: Interpolation,
        times: Vec<f32>,
        width: usize,
        values: Vec<f32>,
    ) -> Result<Self, ClipError> {
        let keys = KeyTimes::new(interpolation, times)?;
        let expected = keys.elements();
        if width == 0 || values.len() != width * expected {
            let found = values.len().checked_div(width).unwrap_or(0);
            return Err(ClipError::ValueCount { keys: keys.times.len(), found, expected, interpolation });
        }
        if let Some(index) = values.iter().position(|x| !x.is_finite()) {
            return Err(ClipError::NonFiniteValue { index: index / width });
        }
        Ok(Self { property, keys, width, values })
    }

    /// The animated property.
    #[must_use]
    pub fn property(&self) -> PropertyId {
        self.property
    }

    /// Its key times and interpolation.
    #[must_use]
    pub fn keys(&self) -> &KeyTimes {
        &self.keys
    }

    /// The keyed values, `width` per element (three elements per key for cubic splines).
    #[must_use]
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The property's value at `time`, into `out` (its width).
    pub fn sample(&self, time: f32, out: &mut [f32]) {
        let (segment, dt) = self.keys.search(time);
        interpolate::weights(&self.values, self.width, self.keys.interpolation, segment, dt, out);
    }
}

/// A named set of channels played together.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    name: Option<String>,
    channels: Vec<Channel>,
    properties: Vec<PropertyChannel>,
    duration: f32,
}

impl Clip {
    /// Builds a clip, checking every channel against the rig (node in range, TRS node, morph
    /// weight width) and that no two animate the same property of a node. Duration is the last
    /// key time over all channels.
    pub fn new(name: Option<String>, channels: Vec<Channel>, rig: &Rig) -> Result<Self, (usize, ClipError)> {
        for (index, channel) in channels.iter().enumerate() {
            check_target(channel, rig).map_err(|e| (index, e))?;
        }
        let mut targets: Vec<(u32, &'static str, usize)> =
            channels.iter().enumerate().map(|(k, c)| (c.node().0, c.keyframes().property_name(), k)).collect();
        targets.sort_unstable();
        if let Some(pair) = targets.windows(2).find(|pair| (pair[0].0, pair[0].1) == (pair[1].0, pair[1].1)) {
            let ((node, property, first), second) = (pair[0], pair[1].2);
            return Err((second, ClipError::DuplicateTarget { node, property, first }));
        }
        let duration = channels.iter().map(|c| c.keys().end_time()).fold(0.0, f32::max);
        Ok(Self { name, channels, properties: Vec::new(), duration })
    }

    /// The clip with `properties` animated as well (the rig's
    /// [`crate::property::Properties`]), checked against the rig (property in range, values
    /// per key); the duration grows to their last key. An error carries the index of the
    /// offending channel in `properties`.
    pub fn with_properties(mut self, properties: Vec<PropertyChannel>, rig: &Rig) -> Result<Self, (usize, ClipError)> {
        let table = rig.properties();
        for (index, channel) in properties.iter().enumerate() {
            let property = channel.property;
            if property.0 as usize >= table.len() {
                return Err((index, ClipError::PropertyOutOfRange { property: property.0, count: table.len() }));
            }
            let range = table.range(property);
            if range.len() != channel.width {
                let error =
                    ClipError::PropertyWidth { property: property.0, found: channel.width, expected: range.len() };
                return Err((index, error));
            }
        }
        self.duration = properties.iter().map(|c| c.keys().end_time()).fold(self.duration, f32::max);
        self.properties = properties;
        Ok(self)
    }

    /// The properties the clip animates.
    pub fn animated_properties(&self) -> impl Iterator<Item = PropertyId> + '_ {
        self.properties.iter().map(PropertyChannel::property)
    }

    /// The channels of animated properties ([`Clip::with_properties`]).
    #[must_use]
    pub fn property_channels(&self) -> &[PropertyChannel] {
        &self.properties
    }

    /// The clip's name, if any.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Renames the clip (a retargeted clip beside the model's own of the same name).
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = Some(name.into());
    }

    /// The channels.
    #[must_use]
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// Duration in seconds: the last key time over all channels.
    #[must_use]
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Samples every channel at clip time `time` (binary search), overwriting the animated
    /// properties of `pose`. Before a channel's first key / after its last it holds that key.
    pub fn sample(&self, time: f32, pose: &mut Pose) {
        for channel in &self.channels {
            channel.sample(time, pose);
        }
        self.sample_properties(time, pose);
    }

    /// Samples the property channels only.
    fn sample_properties(&self, time: f32, pose: &mut Pose) {
        for channel in &self.properties {
            channel.sample(time, pose.property_mut(channel.property));
        }
    }

    /// Like [`Clip::sample`] but with per-channel cursors for forward playback; same result.
    pub fn sample_with_cursor(&self, time: f32, cursor: &mut ClipCursor, pose: &mut Pose) {
        cursor.keys.resize(self.channels.len(), KeyCursor::default());
        for (channel, key) in self.channels.iter().zip(&mut cursor.keys) {
            channel.sample_with_cursor(time, key, pose);
        }
        self.sample_properties(time, pose);
    }
}

fn check_target(channel: &Channel, rig: &Rig) -> Result<(), ClipError> {
    let node = channel.node;
    if node.index() >= rig.len() {
        return Err(ClipError::NodeOutOfRange { node: node.0, count: rig.len() });
    }
    match &channel.keyframes {
        Keyframes::MorphWeights { width, .. } => {
            let expected = rig.morph_range(node).len();
            if *width != expected {
                return Err(ClipError::MorphWidth { node: node.0, found: *width, expected });
            }
        }
        _ if rig.rest(node).as_trs().is_none() => return Err(ClipError::MatrixNode { node: node.0 }),
        _ => {}
    }
    Ok(())
}

/// Per-instance playback state of a clip: one key cursor per channel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClipCursor {
    keys: Vec<KeyCursor>,
}

impl ClipCursor {
    /// A cursor for `clip`, at its start.
    #[must_use]
    pub fn new(clip: &Clip) -> Self {
        Self { keys: vec![KeyCursor::default(); clip.channels.len()] }
    }

    /// Heap bytes the cursor holds (one key index per channel), for benchmarks.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.keys.capacity() * size_of::<KeyCursor>()
    }
}
