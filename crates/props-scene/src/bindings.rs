//! Which nodes and clips of a prop model the simulation drives, by name. Without a binding a
//! part is found by the naming conventions of `assets/README.md` (so a plain export works);
//! a mod's sidecar may bind other names.
//!
//! Parts: windmill `nacelle` (yaws into the wind) and `rotor` (follows the wind); car `wheels`
//! (spin with speed) and `steer` (two pivots, turned with the road's curvature). Clip states:
//! traffic light `green`, `amber`, `red`; animal `walk`, `run`, `idle` (optional: `Idle` or
//! `Survey` by default, played while it stands); car `doors` (optional: opened once the car has
//! stood still, closed when it goes).

use std::collections::BTreeMap;

use props_anim::{Model, NodeId};

use crate::error::SceneError;

/// Node and clip names bound to what the scene drives; what is not bound follows the
/// conventions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// Node names by part (`nacelle`, `rotor`, `wheels`, `steer`).
    pub nodes: BTreeMap<String, Vec<String>>,
    /// Clip names by state (`green`, `amber`, `red`, `walk`, `run`, `idle`, `doors`).
    pub clips: BTreeMap<String, String>,
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
    /// The nodes of `part` of `model` (the `prop`, for errors): bound by name, else by
    /// `convention`. Each must exist and have a TRS rest transform (a driven node keeps its
    /// rest translation and scale and turns its rest rotation).
    pub fn nodes(
        &self,
        model: &Model,
        prop: &'static str,
        part: &'static str,
        convention: Convention,
    ) -> Result<Vec<NodeId>, SceneError> {
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
                    return Err(SceneError::MissingNode { model: prop, node: format!("{prefix}*") });
                }
                found
            }
        };
        names
            .into_iter()
            .map(|name| {
                let id = rig.find(&name).ok_or_else(|| SceneError::MissingNode { model: prop, node: name.clone() })?;
                rig.rest(id).as_trs().ok_or(SceneError::MatrixNode { model: prop, node: name })?;
                Ok(id)
            })
            .collect()
    }

    /// The clip of `state` of `model`: bound by name, else named `default`.
    pub fn clip(&self, model: &Model, prop: &'static str, state: &str, default: &str) -> Result<usize, SceneError> {
        let name = self.clips.get(state).map_or(default, String::as_str);
        model.find_clip(name).ok_or_else(|| SceneError::MissingClip { model: prop, clip: name.to_owned() })
    }
}
