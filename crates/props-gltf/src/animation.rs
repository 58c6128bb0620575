//! Animations: samplers decoded into keyframed channels on rig nodes.

use std::collections::HashMap;

use glam::Quat;
use gltf::json::animation::{Animation, Interpolation as JsonInterpolation, Property};
use gltf::json::validation::Checked;
use props_anim::{Channel, Clip, ClipError, Interpolation, Keyframes, NodeId, Rig};

use crate::accessor::{Accessors, FLOAT, FLOAT_OR_NORMALIZED};
use crate::channel_merge;
use crate::document::Document;
use crate::drops::Drops;
use crate::error::{ErrorKind, ImportError, Warnings, warn};
use crate::index_u32;
use crate::limits::{self, Limits};
use crate::parts::Part;

/// Imports the file's animations, in order, as clips on `rig`, with the glTF index of each:
/// an animation left out or unreadable is dropped (see [`Drops`]), and channels on a
/// property animated before in the same clip are mixed in as three.js does
/// ([`channel_merge`]), with a warning.
pub(crate) fn import_clips(
    document: &Document,
    rig: &Rig,
    accessors: &Accessors<'_>,
    limits: &Limits,
    warnings: &mut Warnings,
    drops: &mut Drops<'_>,
) -> Result<(Vec<Clip>, Vec<u32>), ImportError> {
    let mut clips = Vec::with_capacity(document.root.animations.len());
    let mut sources = Vec::with_capacity(document.root.animations.len());
    for (a, animation) in document.root.animations.iter().enumerate() {
        if drops.skip.clip(a) {
            continue;
        }
        let reader = ClipReader { document, a, animation, rig, accessors, limits };
        match reader.clip(warnings) {
            Ok(clip) => {
                clips.push(clip);
                sources.push(index_u32(a));
            }
            Err(error) => {
                drops.drop_or_refuse(Part::Clip { index: index_u32(a), name: animation.name.clone() }, error)?
            }
        }
    }
    Ok((clips, sources))
}

/// Reads one animation.
struct ClipReader<'a> {
    document: &'a Document,
    a: usize,
    animation: &'a Animation,
    rig: &'a Rig,
    accessors: &'a Accessors<'a>,
    limits: &'a Limits,
}

impl ClipReader<'_> {
    fn channel_path(&self, c: usize) -> String {
        format!("animations[{}].channels[{}]", self.a, self.document.source_channel(self.a, c))
    }

    /// Whether glTF node `node` (rig node `id`) has a mesh with morph targets in the file but
    /// none in the rig: the mesh's primitives were all left out.
    fn lost_morphs(&self, node: u32, id: NodeId) -> bool {
        let root = &self.document.root;
        let mesh = root.nodes.get(node as usize).and_then(|n| root.meshes.get(n.mesh?.value()));
        let had_targets =
            mesh.is_some_and(|m| m.primitives.iter().any(|p| p.targets.as_ref().is_some_and(|t| !t.is_empty())));
        had_targets && self.rig.morph_weights(id).is_empty()
    }

    fn clip(&self, warnings: &mut Warnings) -> Result<Clip, ImportError> {
        // Per animated property: its channel's index and how many tracks are mixed in it.
        let mut targets: HashMap<(u32, &'static str), (usize, usize)> = HashMap::new();
        let mut channels: Vec<Channel> = Vec::with_capacity(self.animation.channels.len());
        let mut origins = Vec::with_capacity(self.animation.channels.len());
        for (c, channel) in self.animation.channels.iter().enumerate() {
            let path = self.channel_path(c);
            let invalid = |field: &str| ImportError::at(format!("{path}.{field}"), ErrorKind::InvalidValue);
            let node = index_u32(channel.target.node.value());
            let Checked::Valid(property) = channel.target.path else {
                return Err(invalid("target.path"));
            };
            let id = self.rig.from_source_index(node).ok_or_else(|| invalid("target.node"))?;
            if self.rig.rest(id).as_trs().is_none() && property != Property::MorphTargetWeights {
                let kind = ErrorKind::AnimatedMatrixNode { node };
                return Err(ImportError::at(format!("{path}.target.node"), kind));
            }
            if property == Property::MorphTargetWeights && self.lost_morphs(node, id) {
                let message = "the node's mesh was left out, so this channel of its morph weights is ignored";
                warn(warnings, path, message);
                continue;
            }
            let s = channel.sampler.value();
            let sampler = self.animation.samplers.get(s).ok_or_else(|| invalid("sampler"))?;
            let path_of_sampler = format!("animations[{}].samplers[{s}]", self.a);
            let reader =
                SamplerReader { sampler, path: path_of_sampler, accessors: self.accessors, limits: self.limits };
            let read = reader.channel(id, property)?;
            let name = property_name(property);
            match targets.get_mut(&(node, name)) {
                Some((index, tracks)) => {
                    let first = origins.get(*index).copied().unwrap_or(0);
                    if *tracks >= channel_merge::MAX_TRACKS {
                        let most = channel_merge::MAX_TRACKS;
                        let kind = ErrorKind::DuplicateChannel { first: first as u64, node, property: name, most };
                        return Err(ImportError::at(path, kind));
                    }
                    let merged = channel_merge::mix_in(
                        &channels[*index],
                        &read,
                        *tracks,
                        self.rig,
                        self.limits,
                        self.accessors.budget(),
                        &path,
                    )?;
                    channels[*index] = merged;
                    *tracks += 1;
                    let message = format!(
                        "channel {first} animates the {name} of node {node} too: the two are mixed half and half, \
                         as three.js plays them; keep one channel per property"
                    );
                    warn(warnings, path, message);
                }
                None => {
                    targets.insert((node, name), (channels.len(), 1));
                    origins.push(self.document.source_channel(self.a, c));
                    channels.push(read);
                }
            }
        }
        let name = self.animation.name.clone();
        Clip::new(name, channels, self.rig).map_err(|(c, error)| {
            let c = origins.get(c).copied().unwrap_or(c);
            ImportError::at(format!("animations[{}].channels[{c}]", self.a), ErrorKind::Clip(error))
        })
    }
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
