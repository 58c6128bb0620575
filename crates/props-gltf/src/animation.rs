//! Animations: samplers decoded into keyframed channels on rig nodes.

use std::collections::HashMap;

use glam::Quat;
use gltf::json::animation::{Interpolation as JsonInterpolation, Property};
use gltf::json::validation::Checked;
use props_anim::{Channel, Clip, ClipError, Interpolation, Keyframes, NodeId, Rig};

use crate::accessor::{Accessors, FLOAT, FLOAT_OR_NORMALIZED};
use crate::document::Document;
use crate::error::{ErrorKind, ImportError};
use crate::index_u32;
use crate::limits::{self, Limits};

/// Imports every animation of the file, in order, as clips on `rig`.
pub(crate) fn import_clips(
    document: &Document,
    rig: &Rig,
    accessors: &Accessors<'_>,
    limits: &Limits,
) -> Result<Vec<Clip>, ImportError> {
    let mut clips = Vec::with_capacity(document.root.animations.len());
    for (a, animation) in document.root.animations.iter().enumerate() {
        let channel_path = |c: usize| format!("animations[{a}].channels[{}]", document.source_channel(a, c));
        let mut targets: HashMap<(u32, &'static str), usize> = HashMap::new();
        let mut channels = Vec::with_capacity(animation.channels.len());
        for (c, channel) in animation.channels.iter().enumerate() {
            let path = channel_path(c);
            let invalid = |field: &str| ImportError::at(format!("{path}.{field}"), ErrorKind::InvalidValue);
            let node = index_u32(channel.target.node.value());
            let Checked::Valid(property) = channel.target.path else {
                return Err(invalid("target.path"));
            };
            let id = rig.from_source_index(node).ok_or_else(|| invalid("target.node"))?;
            if rig.rest(id).as_trs().is_none() && property != Property::MorphTargetWeights {
                let kind = ErrorKind::AnimatedMatrixNode { node };
                return Err(ImportError::at(format!("{path}.target.node"), kind));
            }
            let name = property_name(property);
            if let Some(&first) = targets.get(&(node, name)) {
                let kind = ErrorKind::DuplicateChannel { first: first as u64, node, property: name };
                return Err(ImportError::at(path, kind));
            }
            targets.insert((node, name), document.source_channel(a, c));
            let s = channel.sampler.value();
            let sampler = animation.samplers.get(s).ok_or_else(|| invalid("sampler"))?;
            let sampler = SamplerReader { sampler, path: format!("animations[{a}].samplers[{s}]"), accessors, limits };
            channels.push(sampler.channel(id, property)?);
        }
        let clip = Clip::new(animation.name.clone(), channels, rig)
            .map_err(|(c, error)| ImportError::at(channel_path(c), ErrorKind::Clip(error)))?;
        clips.push(clip);
    }
    Ok(clips)
}

/// Decodes one sampler for a channel.
struct SamplerReader<'a> {
    sampler: &'a gltf::json::animation::Sampler,
    path: String,
    accessors: &'a Accessors<'a>,
    limits: &'a Limits,
}

impl SamplerReader<'_> {
    /// The channel animating `property` of rig node `node` with this sampler.
    fn channel(&self, node: NodeId, property: Property) -> Result<Channel, ImportError> {
        let Checked::Valid(interpolation) = self.sampler.interpolation else {
            return Err(ImportError::at(format!("{}.interpolation", self.path), ErrorKind::InvalidValue));
        };
        let interpolation = match interpolation {
            JsonInterpolation::Step => Interpolation::Step,
            JsonInterpolation::Linear => Interpolation::Linear,
            JsonInterpolation::CubicSpline => Interpolation::CubicSpline,
        };
        let (input, output) = (format!("{}.input", self.path), format!("{}.output", self.path));
        let times_index = self.sampler.input.value();
        limits::check(self.accessors.count(times_index), self.limits.max_keyframes, "keyframes", &input)?;
        let times = self.accessors.read_scalars::<f32>(times_index, &input, FLOAT)?;
        let values = self.sampler.output.value();
        let keyframes = match property {
            Property::Translation => Keyframes::Translation(self.accessors.read_vec3(values, &output, FLOAT)?),
            Property::Scale => Keyframes::Scale(self.accessors.read_vec3(values, &output, FLOAT)?),
            Property::Rotation => {
                let rotations = self.accessors.read(values, &output, FLOAT_OR_NORMALIZED)?;
                Keyframes::Rotation(rotations.into_iter().map(Quat::from_array).collect())
            }
            Property::MorphTargetWeights => {
                let values = self.accessors.read_scalars::<f32>(values, &output, FLOAT_OR_NORMALIZED)?;
                let elements = times.len().saturating_mul(interpolation.values_per_key());
                Keyframes::MorphWeights { width: values.len().checked_div(elements).unwrap_or(0), values }
            }
        };
        Channel::new(node, interpolation, times, keyframes).map_err(|error| {
            let path = match error {
                ClipError::ValueCount { .. } | ClipError::NonFiniteValue { .. } => output,
                _ => input,
            };
            ImportError::at(path, ErrorKind::Clip(error))
        })
    }
}

/// The glTF name of an animated property.
pub(crate) fn property_name(property: Property) -> &'static str {
    match property {
        Property::Translation => "translation",
        Property::Rotation => "rotation",
        Property::Scale => "scale",
        Property::MorphTargetWeights => "weights",
    }
}
