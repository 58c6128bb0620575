//! [`Animates`]: what a host animates on a model of a [`crate::CrowdSet`], by name: the clips
//! its instances' layers play, the nodes each of its drivers turns, the morph weights and
//! material values it sets directly, and how many layers an instance has. Names, not indices,
//! so that a new version of the model (a hot reload) is bound again the same way.

use glam::Vec3;
use props_anim::property::{MaterialField, PropertyTarget};
use props_anim::{Driver, Model, Spec, ValueTarget};

use crate::error::BindError;

/// What a host animates on a model, by name (see the module documentation). The default plays
/// any of the model's clips on one layer and drives no node.
#[derive(Clone, Debug, PartialEq)]
pub struct Animates {
    /// The clips a [`props_anim::Layer::clip`] indexes, by name; `None`: every clip of the
    /// model, in the model's order.
    clips: Option<Vec<String>>,
    /// Each driver's nodes (by name) and unit axis, in the order of the instances' values.
    drivers: Vec<(Vec<String>, Vec3)>,
    /// Each value set directly, by name, in order.
    values: Vec<Value>,
    /// Clip layers per instance.
    layers: usize,
}

impl Default for Animates {
    fn default() -> Self {
        Self { clips: None, drivers: Vec::new(), values: Vec::new(), layers: 1 }
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

    /// Gives each instance `layers` clip layers (blended in order).
    #[must_use]
    pub fn layers(self, layers: usize) -> Self {
        Self { layers, ..self }
    }

    /// Clip layers per instance.
    #[must_use]
    pub fn layer_count(&self) -> usize {
        self.layers
    }

    /// `model` compiled for what this animates, for instances that play clip numbers below
    /// `played`.
    pub(crate) fn spec(&self, model: &Model, played: usize) -> Result<Spec, BindError> {
        if self.layers == 0 || self.drivers.iter().any(|(_, axis)| !axis.is_normalized()) {
            return Err(BindError::Invalid);
        }
        let clips = match &self.clips {
            Some(names) => {
                names.iter().map(|n| model.find_clip(n).ok_or_else(|| BindError::MissingClip(n.clone()))).collect()
            }
            None => {
                let has = model.clips().len();
                if has < played {
                    return Err(BindError::FewerClips { played: played - 1, has });
                }
                Ok((0..has).collect())
            }
        }?;
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
        Ok(Spec { clips, drivers, masks: Vec::new(), values })
    }
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
