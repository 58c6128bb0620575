//! VRM avatars (`.vrm`: GLB files from VRoid Studio, UniVRM or Blender's VRM add-on): the
//! humanoid bone table their extension gives, so that a person walks by its own table whatever
//! its nodes are named, and VRM 0.x's facing. VRM 1.0 keeps the table in
//! `VRMC_vrm.humanoid.humanBones` (an object by bone name), 0.x in `VRM.humanoid.humanBones`
//! (a list of `bone` and `node`). A 0.x avatar faces -Z, where glTF and VRM 1.0 face +Z, so it
//! is turned round about +Y above its roots, as three-vrm's `rotateVRM0` turns it.
//!
//! What cannot be read is passed over at the finest grain: an entry that names no node is
//! ignored with a warning; a table that makes no person's skeleton (two bones on one node, a
//! shin above its thigh, the legs swapped) is ignored whole, with the reason, and the bones
//! are then found by their names as in any file.

use gltf::json::Root;
use props_anim::Rig;
use props_anim::humanoid::BoneMap;
use serde_json::Value;

use crate::error::{Warnings, warn};

/// VRM 1.0's extension.
const VRM1: &str = "VRMC_vrm";
/// VRM 0.x's extension.
const VRM0: &str = "VRM";

/// What a VRM file's extension says of its avatar.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Vrm {
    /// Whether it faces -Z (VRM 0.x) and is turned round.
    pub(crate) turned: bool,
    /// The humanoid bones: VRM's bone name, the glTF node.
    bones: Vec<(String, usize)>,
    /// The table's JSON path.
    at: &'static str,
}

impl Vrm {
    /// The avatar `root`'s extension describes, VRM 1.0's where a file has both; `None` when
    /// it has neither. Entries that name no node of the file are ignored with a warning.
    pub(crate) fn read(root: &Root, warnings: &mut Warnings) -> Option<Self> {
        let others = &root.extensions.as_ref()?.others;
        let node = |entry: &Value, at: String, warnings: &mut Warnings| {
            let node = entry.get("node").and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
            match node.filter(|&n| n < root.nodes.len()) {
                Some(node) => Some(node),
                None => {
                    warn(warnings, format!("{at}.node"), "ignored: the bone names no node of the file");
                    None
                }
            }
        };
        let mut bones = Vec::new();
        if let Some(vrm) = others.get(VRM1) {
            let at = "extensions.VRMC_vrm.humanoid.humanBones";
            let table = vrm.pointer("/humanoid/humanBones").and_then(Value::as_object);
            for (bone, entry) in table.into_iter().flatten() {
                bones.extend(node(entry, format!("{at}.{bone}"), warnings).map(|n| (bone.clone(), n)));
            }
            return Some(Self { turned: false, bones, at });
        }
        let vrm = others.get(VRM0)?;
        let at = "extensions.VRM.humanoid.humanBones";
        let table = vrm.pointer("/humanoid/humanBones").and_then(Value::as_array);
        for (i, entry) in table.into_iter().flatten().enumerate() {
            let Some(bone) = entry.get("bone").and_then(Value::as_str) else {
                warn(warnings, format!("{at}[{i}].bone"), "ignored: the entry names no bone");
                continue;
            };
            bones.extend(node(entry, format!("{at}[{i}]"), warnings).map(|n| (bone.to_owned(), n)));
        }
        Some(Self { turned: true, bones, at })
    }

    /// `rig` with the table as its humanoid ([`Rig::humanoid`]), where the table makes a
    /// person's skeleton ([`BoneMap::declared`]); otherwise unchanged, with a warning that says
    /// why.
    pub(crate) fn apply(&self, rig: Rig, warnings: &mut Warnings) -> Rig {
        let bones = self
            .bones
            .iter()
            .filter_map(|(bone, n)| Some((bone.clone(), rig.from_source_index(u32::try_from(*n).ok()?)?)))
            .collect();
        let with = rig.clone().with_humanoid(bones);
        match BoneMap::declared(&with) {
            Some(Err(error)) => {
                warn(warnings, self.at, format!("ignored, the bones are found by their names: {error}"));
                rig
            }
            _ => with,
        }
    }
}
