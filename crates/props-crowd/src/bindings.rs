//! [`Bindings`]: which nodes and clips of a model play the parts and states a simulation drives,
//! by name. Without a binding a part is found by a naming convention ([`Convention`]: the
//! demo town's are in its `assets/README.md`), so a plain export works; a mod's sidecar may
//! bind other names (a windmill's `nacelle` part, a car's `wheels`, a traffic light's `green`
//! state).

use std::collections::BTreeMap;

use props_anim::humanoid::{BoneMap, BoneMapError};
use props_anim::{Model, NodeId, Rig};

use crate::error::BindError;

/// The names a model's parts (nodes) and states (clips) go by, where a sidecar gives them;
/// what is not bound follows the kind's [`Convention`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// Node names by part (`nacelle`, `rotor`, `wheels`, `steer`).
    pub nodes: BTreeMap<String, Vec<String>>,
    /// Clip names by state (`green`, `amber`, `red`, `walk`, `run`, `idle`, `doors`).
    pub clips: BTreeMap<String, String>,
    /// Node names by humanoid bone (VRM's names: `hips`, `leftUpperLeg`, ...), for a person
    /// whose bones' names follow no convention the game knows
    /// ([`props_anim::humanoid::BoneMap::with_names`]).
    pub humanoid: BTreeMap<String, String>,
    /// The material variants (`KHR_materials_variants`: liveries) a scene spreads the model's
    /// props among, by name, each as often as it is listed; empty: its own materials and
    /// every variant.
    pub material_variants: Vec<String>,
}

/// How a part's nodes are found when it is not bound: one exact name, or every node whose
/// name starts with a prefix (in name order).
#[derive(Clone, Copy, Debug)]
pub enum Convention {
    /// The node of this name.
    Named(&'static str),
    /// Every node named with this prefix.
    Prefixed(&'static str),
}

impl Bindings {
    /// A person's bones in `rig`: found by their names ([`BoneMap::find`]), and as
    /// [`Bindings::humanoid`] gives them where it does. Every user of a person's bones (its
    /// retargeted walk, its feet's IK, a previewer) takes them from here.
    ///
    /// # Errors
    /// When the table names no bone or node, or not a person's skeleton
    /// ([`BoneMap::with_names`]).
    pub fn bone_map(&self, rig: &Rig) -> Result<BoneMap, BoneMapError> {
        let given = self.humanoid.iter().map(|(bone, node)| (bone.as_str(), node.as_str()));
        BoneMap::find(rig).with_names(rig, given)
    }

    /// The nodes of `part` of `model`: bound by name, else by `convention`. Each must exist
    /// and have a TRS rest transform (a driven node keeps its rest translation and scale and
    /// turns its rest rotation).
    pub fn nodes(&self, model: &Model, part: &'static str, convention: Convention) -> Result<Vec<NodeId>, BindError> {
        let rig = model.rig();
        let names: Vec<String> = match (self.nodes.get(part), convention) {
            (Some(bound), _) => bound.clone(),
            (None, Convention::Named(name)) => vec![name.to_owned()],
            (None, Convention::Prefixed(prefix)) => {
                let mut found: Vec<String> = rig
                    .nodes()
                    .filter_map(|n| rig.name(n))
                    .filter(|n| n.starts_with(prefix))
                    .map(str::to_owned)
                    .collect();
                found.sort();
                if found.is_empty() {
                    return Err(BindError::MissingNode(format!("{prefix}*")));
                }
                found
            }
        };
        names
            .into_iter()
            .map(|name| {
                let id = rig.find(&name).ok_or_else(|| BindError::MissingNode(name.clone()))?;
                rig.rest(id).as_trs().ok_or(BindError::MatrixNode(name))?;
                Ok(id)
            })
            .collect()
    }

    /// The clip of `state` of `model`: bound by name, else named `default`.
    pub fn clip(&self, model: &Model, state: &str, default: &str) -> Result<usize, BindError> {
        let name = self.clips.get(state).map_or(default, String::as_str);
        model.find_clip(name).ok_or_else(|| BindError::MissingClip(name.to_owned()))
    }
}
