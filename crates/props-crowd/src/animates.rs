//! [`Animates`]: what a host animates on a model of a [`crate::CrowdSet`], by name: the clips
//! its instances' layers play, the nodes each of its drivers turns, the morph weights and
//! material values it sets directly, and how many layers an instance has. Names, not indices,
//! so that a new version of the model (a hot reload, a mod) is bound again the same way: a
//! clip number means the same clip in every version, whatever order a new file lists them in.

use std::collections::{HashMap, HashSet};

use glam::Vec3;
use props_anim::property::{MaterialField, PropertyTarget};
use props_anim::{Driver, Model, Spec, ValueTarget};
use props_frame::ModelId;

use crate::error::BindError;

/// What a host animates on a model, by name (see the module documentation). The default plays
/// any of the model's clips on one layer and drives no node: clip `k` is the `k`th clip of the
/// first version the [`crate::CrowdSet`] bound, by its name from then on. The clips a new
/// version adds come after those; one it lacks may not be played (a version lacking a clip an
/// instance plays is refused). Where the first version's clips are not all named, each once,
/// they are bound by number instead.
#[derive(Clone, Debug, PartialEq)]
pub struct Animates {
    /// The clips a [`props_anim::Layer::clip`] indexes, by name; `None`: every clip of the
    /// model (see [`Animates`]).
    clips: Option<Vec<String>>,
    /// Each driver's nodes (by name) and unit axis, in the order of the instances' values.
    drivers: Vec<(Vec<String>, Vec3)>,
    /// Each value set directly, by name, in order.
    values: Vec<Value>,
    /// Clip layers per instance.
    layers: usize,
    /// Whether its instances walk ([`Animates::gaits`]): its first two clips are the gaits.
    walks: bool,
    /// The model whose clips it takes where it lacks those it names ([`Animates::clips_from`]).
    source: Option<ModelId>,
}

impl Default for Animates {
    fn default() -> Self {
        Self { clips: None, drivers: Vec::new(), values: Vec::new(), layers: 1, walks: false, source: None }
    }
}

impl Animates {
    /// Plays only these clips: a layer's clip `k` is the `k`th of `names`.
    #[must_use]
    pub fn clips<S: Into<String>>(self, names: impl IntoIterator<Item = S>) -> Self {
        Self { clips: Some(names.into_iter().map(Into::into).collect()), ..self }
    }

    /// Adds a driver: one value per instance turns every node of `nodes` (by name) about the
    /// unit `axis` in its own frame, from its rest rotation (a wheel's spin, a rotor's angle).
    #[must_use]
    pub fn driver<S: Into<String>>(mut self, nodes: impl IntoIterator<Item = S>, axis: Vec3) -> Self {
        self.drivers.push((nodes.into_iter().map(Into::into).collect(), axis));
        self
    }

    /// Adds a value each instance sets directly, over its layers: morph target `target` of the
    /// node named `node` (one value per instance).
    #[must_use]
    pub fn morph_weight(mut self, node: impl Into<String>, target: usize) -> Self {
        self.values.push(Value::Morph { node: node.into(), target });
        self
    }

    /// Adds a value each instance sets directly, over its layers: `field` of the material named
    /// `material`, as many values per instance as the field has (3 for the emissive colour).
    /// Only fields the model's clips animate are carried per instance.
    #[must_use]
    pub fn material_value(mut self, material: impl Into<String>, field: MaterialField) -> Self {
        self.values.push(Value::Material { material: material.into(), field });
        self
    }

    /// Makes its instances walk as people and animals do ([`crate::gaited`]): each moves at
    /// the speed its host sets ([`crate::InstanceMut::set_gait`], the host placing it along
    /// its way), and [`crate::CrowdSet::advance`] plays clips `walk` and `run` in place at the
    /// rates their strides call for, the run blended over the walk as the speed rises; once it
    /// stops, one of the `standing` clips (an idle, a wait) fades in. Near the camera its
    /// planted feet stay where they came down. Plays only these clips, numbered walk 0, run 1,
    /// then the standing clips from 2; the gaits set its first [`crate::gaited::LAYERS`]
    /// layers (it has at least that many: those after are the host's). A person without
    /// these clips walks with another model's ([`Animates::clips_from`]); a new version of it
    /// (a mod) lacking some takes them from the version it replaces, retargeted.
    #[must_use]
    pub fn gaits<S: Into<String>>(self, walk: S, run: S, standing: impl IntoIterator<Item = S>) -> Self {
        let clips = [walk.into(), run.into()].into_iter().chain(standing.into_iter().map(Into::into));
        Self { clips: Some(clips.collect()), walks: true, ..self }
    }

    /// Where the model lacks a clip this names ([`Animates::clips`], [`Animates::gaits`]): takes
    /// it from model `source` of the same [`crate::CrowdSet`], added before it, retargeted to
    /// the model's skeleton ([`props_anim::humanoid::retarget`]: every person's bones found by
    /// their names, Mixamo's, Blender's metarig and Rigify's, VRM's, Unreal's; the hips' travel
    /// scaled by the legs' lengths). So any humanoid walks with one person's walk, run and
    /// idle: an avatar with no clips of its own, a mod's. When `source` gets a new version (a
    /// modder's new walk), the model takes them anew from it.
    #[must_use]
    pub fn clips_from(self, source: ModelId) -> Self {
        Self { source: Some(source), ..self }
    }

    /// The model whose clips it takes where it lacks those it names ([`Animates::clips_from`];
    /// `None`: none named), and the names; `None` when it names no clips.
    pub(crate) fn clip_source(&self) -> Option<(Option<ModelId>, &[String])> {
        Some((self.source, self.clips.as_deref()?))
    }

    /// Gives each instance `layers` clip layers (blended in order).
    #[must_use]
    pub fn layers(self, layers: usize) -> Self {
        Self { layers, ..self }
    }

    /// Clip layers per instance (a walker's gaits' among them).
    #[must_use]
    pub fn layer_count(&self) -> usize {
        if self.walks { self.layers.max(crate::gaited::LAYERS) } else { self.layers }
    }

    /// Whether it names the clips it plays ([`Animates::clips`], [`Animates::gaits`]).
    pub(crate) fn names_clips(&self) -> bool {
        self.clips.is_some()
    }

    /// Whether its instances walk ([`Animates::gaits`]).
    #[must_use]
    pub fn walks(&self) -> bool {
        self.walks
    }

    /// `model` compiled for what this animates, and how its clips are numbered (see
    /// [`Animates`]); `known`: where this plays every clip, the names the clip numbers had so
    /// far (`None`: bound by number).
    pub(crate) fn spec(
        &self,
        model: &Model,
        known: Option<&[Option<String>]>,
    ) -> Result<(Spec, ClipNumbers), BindError> {
        if self.layers == 0 || self.drivers.iter().any(|(_, axis)| !axis.is_normalized()) {
            return Err(BindError::Invalid);
        }
        let (mut clips, numbers): (Vec<usize>, _) = match (&self.clips, known) {
            (Some(names), _) => {
                let clips = names.iter().map(|n| model.find_clip(n).ok_or_else(|| BindError::MissingClip(n.clone())));
                let numbers = ClipNumbers { known: known.map(<[Option<String>]>::to_vec), missing: Vec::new() };
                (clips.collect::<Result<_, _>>()?, numbers)
            }
            (None, Some(known)) => every_clip(model, known),
            (None, None) => ((0..model.clips().len()).collect(), ClipNumbers::default()),
        };
        // A layer plays numbers below `Layer::OFF`.
        clips.truncate(MAX_NUMBERS);
        let rig = model.rig();
        let node = |name: &String| {
            let id = rig.find(name).ok_or_else(|| BindError::MissingNode(name.clone()))?;
            rig.rest(id).as_trs().ok_or_else(|| BindError::MatrixNode(name.clone()))?;
            Ok(id)
        };
        let drivers = self
            .drivers
            .iter()
            .map(|(names, axis)| Ok(Driver { nodes: names.iter().map(node).collect::<Result<_, _>>()?, axis: *axis }))
            .collect::<Result<_, BindError>>()?;
        let values = self.values.iter().map(|value| value.target(model)).collect::<Result<_, _>>()?;
        Ok((Spec { clips, drivers, masks: Vec::new(), values }, numbers))
    }
}

/// How a version's clips are numbered where [`Animates`] plays every clip by name: the names
/// known after it, and the numbers below its last that it has no clip for (a clip of an
/// earlier version's it lacks), in order. Their [`Spec::clips`] entries are another clip
/// standing in, never played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClipNumbers {
    /// Each number's clip so far, by name (`None`: a clip with no name of its own, numbered
    /// in order among those), the earlier versions' first.
    pub known: Option<Vec<Option<String>>>,
    /// The numbers this version lacks below its last.
    pub missing: Vec<u16>,
}

impl ClipNumbers {
    /// Whether this version lacks clip number `clip` below its last.
    pub fn missing(&self, clip: u16) -> bool {
        self.missing.binary_search(&clip).is_ok()
    }

    /// The name clip number `clip` is known by, if any.
    pub fn name(&self, clip: u16) -> Option<&str> {
        self.known.as_ref()?.get(usize::from(clip))?.as_deref()
    }
}

/// Clip numbers a layer can play: below [`props_anim::Layer::OFF`].
const MAX_NUMBERS: usize = props_anim::Layer::OFF as usize;

/// Every clip of `model`, numbered as `known` numbered the clips before it: a clip named once
/// in the model under its name's number, a new name after every number known (known from now
/// on), the clips without a name of their own (none, or one another clip shares) in the
/// numbers such clips had, in order, then after. Numbers it lacks past its last clip are left
/// out, the others filled by a clip standing in; at most [`MAX_NUMBERS`].
fn every_clip(model: &Model, known: &[Option<String>]) -> (Vec<usize>, ClipNumbers) {
    let clips = model.clips();
    let mut bearers: HashMap<&str, (usize, u32)> = HashMap::new();
    for (c, clip) in clips.iter().enumerate() {
        if let Some(name) = clip.name().filter(|n| !n.is_empty()) {
            bearers.entry(name).or_insert((c, 0)).1 += 1;
        }
    }
    let own_name = |c: usize| clips[c].name().filter(|n| bearers.get(n).is_some_and(|b| b.1 == 1));
    let mut taken = vec![false; clips.len()];
    let mut numbered: Vec<Option<usize>> = known
        .iter()
        .map(|name| {
            let c = bearers.get(name.as_deref()?)?.0;
            taken[c] = true;
            Some(c)
        })
        .collect();
    let known_names: HashSet<&str> = known.iter().flatten().map(String::as_str).collect();
    let (named, mut anonymous): (Vec<usize>, Vec<usize>) =
        (0..clips.len()).filter(|&c| !taken[c]).partition(|&c| own_name(c).is_some_and(|n| !known_names.contains(n)));
    // The clips with no name of their own take the numbers such clips had, in order.
    let mut anonymous_left = anonymous.drain(..);
    for (number, name) in numbered.iter_mut().zip(known) {
        if name.is_none() {
            *number = anonymous_left.next();
        }
    }
    let anonymous_left: Vec<usize> = anonymous_left.collect();
    let mut known = known.to_vec();
    let named = named.into_iter().map(|c| (c, own_name(c).map(str::to_owned)));
    let added = named.chain(anonymous_left.into_iter().map(|c| (c, None)));
    for (c, name) in added.take(MAX_NUMBERS.saturating_sub(known.len())) {
        known.push(name);
        numbered.push(Some(c));
    }
    while numbered.last() == Some(&None) {
        numbered.pop();
    }
    // Numbers fit: there are at most `MAX_NUMBERS`.
    let missing = numbered.iter().enumerate().filter(|(_, found)| found.is_none()).map(|(k, _)| k as u16).collect();
    let stand_in = numbered.iter().flatten().next().copied();
    let clips = numbered.into_iter().map(|c| c.or(stand_in).expect("a clip stands in before the last")).collect();
    (clips, ClipNumbers { known: Some(known), missing })
}

/// The names that number `model`'s clips where [`Animates`] plays every clip: none yet (they
/// are known as it binds), or `None` (bound by number) when some clip has no name, or shares
/// one.
pub(crate) fn clip_naming(model: &Model) -> Option<Vec<Option<String>>> {
    let mut names = HashSet::new();
    model.clips().iter().all(|c| c.name().is_some_and(|n| !n.is_empty() && names.insert(n))).then(Vec::new)
}

/// A value set directly, by name.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Morph { node: String, target: usize },
    Material { material: String, field: MaterialField },
}

impl Value {
    /// Where it goes in `model`.
    fn target(&self, model: &Model) -> Result<ValueTarget, BindError> {
        let rig = model.rig();
        match self {
            Self::Morph { node, target } => {
                let id = rig.find(node).ok_or_else(|| BindError::MissingNode(node.clone()))?;
                let range = rig.morph_range(id);
                if *target >= range.len() {
                    return Err(BindError::MissingMorphTarget {
                        node: node.clone(),
                        target: *target,
                        has: range.len(),
                    });
                }
                Ok(ValueTarget::MorphWeight(range.start + target))
            }
            Self::Material { material, field } => {
                let index = model.materials().iter().position(|m| m.name.as_deref() == Some(material.as_str()));
                let target = index.map(|i| PropertyTarget::Material { material: i as u32, field: *field });
                let id = target.and_then(|t| rig.properties().find(t));
                id.map(ValueTarget::Property).ok_or_else(|| BindError::NotAnimated(material.clone()))
            }
        }
    }
}
