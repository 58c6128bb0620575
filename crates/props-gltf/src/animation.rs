//! Animations: samplers decoded into keyframed channels on rig nodes.

use std::collections::HashMap;

use glam::Quat;
use gltf::json::animation::{Animation, Interpolation as JsonInterpolation, Property};
use gltf::json::validation::Checked;
use props_anim::property::{Properties, PropertyId, PropertyTarget};
use props_anim::{
    NodeId, Rig,
    clip::interpolate::Interpolation,
    clip::{Channel, Clip, ClipError, Keyframes, PropertyChannel},
    material::Material,
};

use crate::accessor::{Accessors, BOOLEAN, FLOAT, FLOAT_OR_NORMALIZED, POINTER_FLOAT};
use crate::animation_pointer::{PointerTarget, Targets, Unresolved};
use crate::channel_merge;
use crate::document::Document;
use crate::drops::Drops;
use crate::error::{ErrorKind, ImportError, Warnings, warn};
use crate::index_u32;
use crate::lights::Lights;
use crate::limits::{self, Limits};
use crate::parts::{Part, Skip};

/// Imports the file's animations, in order, as clips on `rig`, with the glTF index of each:
/// an animation left out or unreadable is dropped (see [`Drops`]), and channels on a
/// property animated before in the same clip are mixed in as three.js does
/// ([`channel_merge`]), with a warning.
pub(crate) fn import_clips(
    document: &Document,
    rig: &mut Rig,
    accessors: &Accessors<'_>,
    limits: &Limits,
    parts: (&[Material], &Lights),
    warnings: &mut Warnings,
    drops: &mut Drops<'_>,
) -> Result<(Vec<Clip>, Vec<u32>), ImportError> {
    let (materials, lights) = parts;
    let properties = {
        let targets = Targets {
            root: &document.root,
            rig,
            materials,
            lights: &lights.lights,
            light_of_source: &lights.of_source,
        };
        animated_properties(document, &targets, drops)
    };
    rig.set_properties(properties);
    let rig = &*rig;
    let targets =
        Targets { root: &document.root, rig, materials, lights: &lights.lights, light_of_source: &lights.of_source };
    let mut clips = Vec::with_capacity(document.root.animations.len());
    let mut sources = Vec::with_capacity(document.root.animations.len());
    for (a, animation) in document.root.animations.iter().enumerate() {
        if drops.skip.clip(a) {
            continue;
        }
        let reader = ClipReader { document, a, animation, rig, accessors, limits, targets: &targets };
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

/// What the clips `skip` leaves in take once a host binds them all (a mod plays every clip by
/// default), at most, from the declared channels: charged to the budget before the images are
/// fitted to what is left. Per clip, a reference pose of every node any of them animates (48
/// bytes) and which of its entries the clip leaves (12), and every morph weight (`weights`, of
/// the rig) and material or visibility value (4 bytes each, up to 4 per pointer channel).
/// Tens of thousands of clips each on a node of its own would otherwise take gigabytes when
/// bound.
pub(crate) fn bound_bytes(document: &Document, skip: &Skip, weights: usize) -> u64 {
    let root = &document.root;
    let kept: Vec<usize> = (0..root.animations.len()).filter(|&a| !skip.clip(a)).collect();
    let mut animated = vec![false; root.nodes.len()];
    let mut pointers = 0u64;
    for &a in &kept {
        for channel in &root.animations[a].channels {
            if let Some(flag) = animated.get_mut(channel.target.node.value()) {
                *flag = true;
            }
        }
        pointers = pointers.saturating_add(document.pointer_channels(a).len() as u64);
    }
    let hidden =
        root.nodes.iter().filter(|n| n.extensions.as_ref().is_some_and(|e| e.others.contains_key(NODE_VISIBILITY)));
    let values = (weights as u64).saturating_add(pointers.saturating_mul(4)).saturating_add(hidden.count() as u64);
    let nodes = animated.iter().filter(|&&a| a).count() as u64;
    nodes.saturating_mul(60).saturating_add(values.saturating_mul(4)).saturating_mul(kept.len() as u64)
}

/// What decoding the clips `skip` leaves in charges the budget at least: every sampler's keys
/// and values as 32-bit floats, from their accessors' declared counts (the images are fitted
/// to what the budget has left after them).
pub(crate) fn decoded_bytes(root: &gltf::json::Root, skip: &Skip) -> u64 {
    let accessor_bytes = |index: usize| {
        root.accessors.get(index).map_or(0, |a| {
            let components = match a.type_ {
                Checked::Valid(ty) => ty.multiplicity() as u64,
                Checked::Invalid => 1,
            };
            a.count.0.saturating_mul(components).saturating_mul(4)
        })
    };
    let samplers = root.animations.iter().enumerate().filter(|&(a, _)| !skip.clip(a)).flat_map(|(_, a)| &a.samplers);
    samplers.map(|s| accessor_bytes(s.input.value()).saturating_add(accessor_bytes(s.output.value()))).sum()
}

/// The properties beyond node transforms and weights that the file animates (through
/// `KHR_animation_pointer`), each with its rest value, and the nodes the file hides
/// (`KHR_node_visibility`), which are properties too: what the rig's poses hold.
fn animated_properties(document: &Document, targets: &Targets<'_>, drops: &Drops<'_>) -> Properties {
    let mut properties = Properties::new();
    for (n, node) in document.root.nodes.iter().enumerate() {
        let visibility = node.extensions.as_ref().and_then(|e| e.others.get(NODE_VISIBILITY));
        let hidden = visibility.and_then(|v| v.get("visible")).and_then(serde_json::Value::as_bool) == Some(false);
        if let (true, Some(id)) = (hidden, targets.rig.from_source_index(index_u32(n))) {
            properties.add(PropertyTarget::NodeVisible(id), &[0.0]);
        }
    }
    for a in (0..document.root.animations.len()).filter(|&a| !drops.skip.clip(a)) {
        for channel in document.pointer_channels(a) {
            if let Ok(PointerTarget::Property(target)) = targets.resolve(&channel.pointer)
                && let Some(rest) = target.rest_value(targets.materials, targets.lights)
            {
                properties.add(target, &rest);
            }
        }
    }
    properties
}

const NODE_VISIBILITY: &str = "KHR_node_visibility";

/// Reads one animation.
struct ClipReader<'a> {
    document: &'a Document,
    a: usize,
    animation: &'a Animation,
    rig: &'a Rig,
    accessors: &'a Accessors<'a>,
    limits: &'a Limits,
    targets: &'a Targets<'a>,
}

/// A channel on a node's transform or weights, from the file's node channels or its pointer
/// channels.
struct NodeChannel {
    /// Its path in the file.
    path: String,
    /// Its index among the animation's channels in the file.
    source: usize,
    node: u32,
    property: Property,
    sampler: usize,
}

impl ClipReader<'_> {
    fn channel_path(&self, c: usize) -> String {
        format!("animations[{}].channels[{}]", self.a, self.document.source_channel(self.a, c))
    }

    /// Whether glTF node `node` (rig node `id`) has a mesh with morph targets in the file but
    /// none in the rig: the mesh is not drawn (outside the scene), or its primitives were all
    /// left out.
    fn lost_morphs(&self, node: u32, id: NodeId) -> bool {
        let root = &self.document.root;
        let mesh = root.nodes.get(node as usize).and_then(|n| root.meshes.get(n.mesh?.value()));
        let had_targets =
            mesh.is_some_and(|m| m.primitives.iter().any(|p| p.targets.as_ref().is_some_and(|t| !t.is_empty())));
        had_targets && self.rig.morph_weights(id).is_empty()
    }

    fn clip(&self, warnings: &mut Warnings) -> Result<Clip, ImportError> {
        let mut node_channels = Vec::with_capacity(self.animation.channels.len());
        for (c, channel) in self.animation.channels.iter().enumerate() {
            let path = self.channel_path(c);
            let Checked::Valid(property) = channel.target.path else {
                return Err(ImportError::at(format!("{path}.target.path"), ErrorKind::InvalidValue));
            };
            let (node, sampler) = (index_u32(channel.target.node.value()), channel.sampler.value());
            let source = self.document.source_channel(self.a, c);
            node_channels.push(NodeChannel { path, source, node, property, sampler });
        }
        let mut properties: Vec<(PropertyChannel, String)> = Vec::new();
        for channel in self.document.pointer_channels(self.a) {
            let path = format!("animations[{}].channels[{}]", self.a, channel.channel);
            let pointer_path = format!("{path}.target.extensions.KHR_animation_pointer.pointer");
            let pointer = &channel.pointer;
            let sampler =
                channel.sampler.ok_or_else(|| ImportError::at(format!("{path}.sampler"), ErrorKind::InvalidIndex))?;
            match self.targets.resolve(pointer) {
                Ok(PointerTarget::Node { node, property }) => {
                    node_channels.push(NodeChannel { path, source: channel.channel, node, property, sampler });
                }
                Ok(PointerTarget::Property(target)) => {
                    let id = self.rig.properties().find(target).ok_or_else(|| {
                        let why = "the object holding this property is absent".to_owned();
                        ImportError::at(&pointer_path, ErrorKind::InvalidPointer { pointer: pointer.clone(), why })
                    })?;
                    if let Some((_, first)) = properties.iter().find(|(c, _)| c.property() == id) {
                        let message = format!("{first} animates {pointer} already: this channel is ignored; keep one");
                        warn(warnings, path, message);
                        continue;
                    }
                    let reader = self.sampler_reader(sampler, &path)?;
                    properties.push((reader.property_channel(id, target, warnings)?, path));
                }
                Err(Unresolved::Ignored(why)) => {
                    warn(warnings, pointer_path, format!("the channel animating {pointer} is ignored: {why}"));
                }
                Err(Unresolved::Invalid(why)) => {
                    return Err(ImportError::at(
                        pointer_path,
                        ErrorKind::InvalidPointer { pointer: pointer.clone(), why },
                    ));
                }
            }
        }
        let (channels, origins) = self.node_channels(node_channels, warnings)?;
        let name = self.animation.name.clone();
        let clip = Clip::new(name, channels, self.rig).map_err(|(c, error)| {
            let c = origins.get(c).copied().unwrap_or(c);
            ImportError::at(format!("animations[{}].channels[{c}]", self.a), ErrorKind::Clip(error))
        })?;
        let (properties, paths): (Vec<_>, Vec<_>) = properties.into_iter().unzip();
        clip.with_properties(properties, self.rig)
            .map_err(|(c, error)| ImportError::at(paths.get(c).cloned().unwrap_or_default(), ErrorKind::Clip(error)))
    }

    /// The reader of sampler `s`, used by the channel at `path`.
    fn sampler_reader(&self, s: usize, path: &str) -> Result<SamplerReader<'_>, ImportError> {
        let sampler = self
            .animation
            .samplers
            .get(s)
            .ok_or_else(|| ImportError::at(format!("{path}.sampler"), ErrorKind::InvalidValue))?;
        let path = format!("animations[{}].samplers[{s}]", self.a);
        Ok(SamplerReader { sampler, path, accessors: self.accessors, limits: self.limits })
    }

    /// The channels on node transforms and weights, one per animated property (tracks on a
    /// property animated before are mixed in, as three.js does, with a warning), with the
    /// file's channel index of each.
    fn node_channels(
        &self,
        node_channels: Vec<NodeChannel>,
        warnings: &mut Warnings,
    ) -> Result<(Vec<Channel>, Vec<usize>), ImportError> {
        // Per animated property: its channel's index, how many tracks are mixed in it with how
        // many keys in all, and the sampler of them all while they are one sampler repeated
        // (mixing a track with itself changes nothing, so a repeat costs nothing).
        let mut targets: HashMap<(u32, &'static str), Mixed> = HashMap::new();
        let mut channels: Vec<Channel> = Vec::with_capacity(node_channels.len());
        let mut origins = Vec::with_capacity(node_channels.len());
        for NodeChannel { path, source, node, property, sampler } in node_channels {
            let invalid = |field: &str| ImportError::at(format!("{path}.{field}"), ErrorKind::InvalidValue);
            let id = self.rig.from_source_index(node).ok_or_else(|| invalid("target.node"))?;
            if self.rig.rest(id).as_trs().is_none() && property != Property::MorphTargetWeights {
                let kind = ErrorKind::AnimatedMatrixNode { node };
                return Err(ImportError::at(format!("{path}.target.node"), kind));
            }
            if property == Property::MorphTargetWeights && self.lost_morphs(node, id) {
                let message = "the node's mesh is not drawn (outside the scene) or was left out, so this channel of its morph weights is ignored";
                warn(warnings, path, message);
                continue;
            }
            let name = property_name(property);
            match targets.get_mut(&(node, name)) {
                Some(Mixed { index, tracks, raw_keys, only }) => {
                    let first = origins.get(*index).copied().unwrap_or(0);
                    if *only != Some(sampler) {
                        let read = self.sampler_reader(sampler, &path)?.channel(id, property)?;
                        let merged = channel_merge::mix_in(
                            &channels[*index],
                            &read,
                            (*tracks, *raw_keys),
                            self.rig,
                            self.limits,
                            self.accessors.budget(),
                            &path,
                        )?;
                        channels[*index] = merged;
                        *raw_keys += read.keys().times().len();
                        *only = None;
                    }
                    *tracks += 1;
                    let message = format!(
                        "channel {first} animates the {name} of node {node} too: the {tracks} channels on it are \
                         mixed evenly, as three.js plays them; keep one channel per property"
                    );
                    warn(warnings, path, message);
                }
                None => {
                    let read = self.sampler_reader(sampler, &path)?.channel(id, property)?;
                    let mixed = Mixed {
                        index: channels.len(),
                        tracks: 1,
                        raw_keys: read.keys().times().len(),
                        only: Some(sampler),
                    };
                    targets.insert((node, name), mixed);
                    origins.push(source);
                    channels.push(read);
                }
            }
        }
        Ok((channels, origins))
    }
}

/// The tracks mixed on one property so far.
struct Mixed {
    /// The merged channel's index.
    index: usize,
    /// How many tracks are mixed in it.
    tracks: usize,
    /// Their keys, in all (what bounds the merged channel's).
    raw_keys: usize,
    /// Their sampler, while they are all one sampler.
    only: Option<usize>,
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
        let (interpolation, times) = self.keys()?;
        let (input, output) = (format!("{}.input", self.path), format!("{}.output", self.path));
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

impl SamplerReader<'_> {
    /// The interpolation and the key times.
    fn keys(&self) -> Result<(Interpolation, Vec<f32>), ImportError> {
        let Checked::Valid(interpolation) = self.sampler.interpolation else {
            return Err(ImportError::at(format!("{}.interpolation", self.path), ErrorKind::InvalidValue));
        };
        let interpolation = match interpolation {
            JsonInterpolation::Step => Interpolation::Step,
            JsonInterpolation::Linear => Interpolation::Linear,
            JsonInterpolation::CubicSpline => Interpolation::CubicSpline,
        };
        let input = format!("{}.input", self.path);
        let times_index = self.sampler.input.value();
        limits::check(self.accessors.count(times_index), self.limits.max_keyframes, "keyframes", &input)?;
        Ok((interpolation, self.accessors.read_scalars::<f32>(times_index, &input, FLOAT)?))
    }

    /// The channel animating property `id` (`target`) with this sampler: values of the
    /// property's width, floats as they are and integers converted (normalized ones as
    /// glTF's animations dequantize them); a boolean's bytes as 1 or 0, keyed with steps.
    fn property_channel(
        &self,
        id: PropertyId,
        target: PropertyTarget,
        warnings: &mut Warnings,
    ) -> Result<PropertyChannel, ImportError> {
        let (mut interpolation, times) = self.keys()?;
        let output = format!("{}.output", self.path);
        let index = self.sampler.output.value();
        let width = target.width();
        let values: Vec<f32> = match width {
            _ if target.is_boolean() => {
                let bytes = self.accessors.read_scalars::<f32>(index, &output, BOOLEAN)?;
                bytes.into_iter().map(|b| if b == 0.0 { 0.0 } else { 1.0 }).collect()
            }
            1 => self.accessors.read_scalars::<f32>(index, &output, POINTER_FLOAT)?,
            2 => self.accessors.read::<f32, 2>(index, &output, POINTER_FLOAT)?.concat(),
            3 => self.accessors.read::<f32, 3>(index, &output, POINTER_FLOAT)?.concat(),
            _ => self.accessors.read::<f32, 4>(index, &output, POINTER_FLOAT)?.concat(),
        };
        if target.is_boolean() && interpolation != Interpolation::Step {
            let message =
                "a boolean is animated with STEP interpolation (the glTF specification requires it): played so";
            warn(warnings, format!("{}.interpolation", self.path), message);
            interpolation = Interpolation::Step;
        }
        PropertyChannel::new(id, interpolation, times, width, values).map_err(|error| {
            let path = match error {
                ClipError::ValueCount { .. } | ClipError::NonFiniteValue { .. } => output,
                _ => format!("{}.input", self.path),
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
