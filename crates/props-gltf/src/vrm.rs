//! VRM avatars (`.vrm`: GLB files from VRoid Studio, UniVRM or Blender's VRM add-on): the
//! humanoid bone table their extension gives, so that a person walks by its own table whatever
//! its nodes are named, and VRM 0.x's facing. VRM 1.0 keeps the table in
//! `VRMC_vrm.humanoid.humanBones` (an object by bone name), 0.x in `VRM.humanoid.humanBones`
//! (a list of `bone` and `node`). A 0.x avatar faces -Z, where glTF and VRM 1.0 face +Z, so it
//! is turned round about +Y above its roots, as three-vrm's `rotateVRM0` turns it.
//!
//! What cannot be read is passed over at the finest grain, with a warning: an entry that names
//! no node is ignored, and its bone found by name; a table that makes no person's skeleton
//! (two bones on one node, a shin above its thigh, the legs swapped) is ignored whole, with the
//! reason, and the bones are then found by their names as in any file. Either way the model is
//! still declared an avatar (a scene may take it for a person).

use gltf::json::Root;
use props_anim::Rig;
use props_anim::humanoid::BoneMap;
use serde_json::Value;

use crate::error::{Problems, Warnings, warn};

/// VRM 1.0's extension.
const VRM1: &str = "VRMC_vrm";
/// VRM 0.x's extension.
const VRM0: &str = "VRM";

/// What a VRM file's extension says of its avatar.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Vrm {
    /// Whether it faces -Z (VRM 0.x) and is turned round.
    pub(crate) turned: bool,
    /// The humanoid bones: VRM's bone name, the glTF node; `None` when the extension has no
    /// table (warned of when read).
    bones: Option<Vec<(String, usize)>>,
    /// The table's JSON path.
    at: &'static str,
}

impl Vrm {
    /// The avatar `root`'s extension describes, VRM 1.0's where a file has both; `None` when
    /// it has neither. What cannot be read of it is ignored with a warning that says why.
    pub(crate) fn read(root: &Root, warnings: &mut Warnings) -> Option<Self> {
        let others = &root.extensions.as_ref()?.others;
        let (vrm, turned, at) = match (others.get(VRM1), others.get(VRM0)) {
            (Some(vrm), _) => (vrm, false, "extensions.VRMC_vrm.humanoid.humanBones"),
            (None, Some(vrm)) => (vrm, true, "extensions.VRM.humanoid.humanBones"),
            (None, None) => return None,
        };
        let table = vrm.pointer("/humanoid/humanBones");
        // Each entry's problem, at its path; a few are told (a table of thousands of bad
        // entries must not make thousands of warnings).
        let mut problems = Problems::default();
        let entries: Option<Vec<(String, &Value, String)>> = match (table, turned) {
            (Some(Value::Object(table)), false) => {
                Some(table.iter().map(|(bone, entry)| (bone.clone(), entry, format!("{at}.{bone}"))).collect())
            }
            (Some(Value::Array(table)), true) => Some(
                table
                    .iter()
                    .enumerate()
                    .filter_map(|(i, entry)| match entry.get("bone").and_then(Value::as_str) {
                        Some(bone) => Some((bone.to_owned(), entry, format!("{at}[{i}]"))),
                        None => {
                            let why = "ignored: the entry names no bone (`\"bone\": \"hips\"`)";
                            problems.tell(format!("{at}[{i}].bone"), why);
                            None
                        }
                    })
                    .collect(),
            ),
            _ => {
                let shape = if turned { "a list of `bone` and `node`" } else { "an object of `node`s by bone name" };
                let why = format!("ignored: no bone table here (VRM's is {shape}); the bones are found by their names");
                problems.tell(at, why);
                None
            }
        };
        let bones = entries.map(|entries| {
            entries
                .into_iter()
                .filter_map(|(bone, entry, at)| match node(root, entry, &at) {
                    Ok(node) => Some((bone, node)),
                    Err((at, why)) => {
                        problems.tell(at, why);
                        None
                    }
                })
                .collect()
        });
        problems.warn(warnings, at, |more| format!("{more} more entries ignored as the ones above"));
        Some(Self { turned, bones, at })
    }

    /// `rig` declared a humanoid avatar ([`Rig::humanoid`]) with the table's bones; a table
    /// that makes no person's skeleton ([`BoneMap::declared`]) is warned of, and the bones are
    /// then found by their names.
    pub(crate) fn apply(&self, rig: Rig, warnings: &mut Warnings) -> Rig {
        let Some(bones) = &self.bones else { return rig.with_humanoid(Vec::new()) };
        let at = |n: usize| rig.from_source_index(u32::try_from(n).ok()?);
        let bones = bones.iter().filter_map(|(bone, n)| Some((bone.clone(), at(*n)?))).collect();
        let rig = rig.with_humanoid(bones);
        if let Some(Err(error)) = BoneMap::declared(&rig) {
            warn(warnings, self.at, format!("ignored, the bones are found by their names: {error}"));
        }
        rig
    }
}

/// The glTF node a bone's `entry` (at `at`) names, or where and why not.
fn node(root: &Root, entry: &Value, at: &str) -> Result<usize, (String, String)> {
    let Some(node) = entry.get("node") else {
        return Err((at.to_owned(), "ignored: a bone's entry gives its `node` (`{ \"node\": 3 }`)".to_owned()));
    };
    match node.as_u64().and_then(|n| usize::try_from(n).ok()) {
        Some(index) if index < root.nodes.len() => Ok(index),
        Some(index) => {
            Err((format!("{at}.node"), format!("ignored: the file has no node {index} (it has {})", root.nodes.len())))
        }
        None => Err((format!("{at}.node"), format!("ignored: `node` is a node's index (0, 1, ...), not {node}"))),
    }
}
