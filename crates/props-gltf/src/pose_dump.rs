//! Pose dump: a model posed at given times, in the JSON shape of the project's three.js
//! oracle (`gltf-anim-oracle/1`), computed entirely by this project's own code.
//!
//! Time semantics are the oracle's: each frame starts from the rest pose, the clip is sampled
//! at `clamp(time, 0, duration)`, and frames are independent of each other.

use glam::{Affine3A, Mat4, Vec3};
use props_anim::{
    JointMatrix, Model, NodeId, Pose,
    clip::{Clip, Keyframes, PlayMode},
    skinning,
};
use serde::{Deserialize, Serialize};

use crate::Import;

/// The format tag written into every dump.
pub const FORMAT: &str = "gltf-anim-oracle/1";

/// A whole dump: one frame per requested time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PoseDump {
    /// Always [`FORMAT`].
    pub format: String,
    /// Who computed it.
    pub oracle: String,
    /// The posed file, as given.
    pub file: String,
    /// The clip, or `None` for the rest pose.
    pub animation: Option<DumpedClip>,
    /// The frames, in the order the times were given.
    pub frames: Vec<PoseFrame>,
}

/// Which clip was played.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DumpedClip {
    /// glTF animation index.
    pub index: usize,
    /// Its name, if any.
    pub name: Option<String>,
    /// Duration in seconds (last key over all channels).
    pub duration: f64,
}

/// The pose at one time.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PoseFrame {
    /// Requested time in seconds (may be negative or past the end).
    pub time: f64,
    /// Time actually sampled: `clamp(time, 0, duration)`; `None` for the rest pose.
    pub clip_time: Option<f64>,
    /// Every node of the scene, ascending glTF index.
    pub nodes: Vec<DumpedNode>,
    /// Every primitive of every mesh node of the scene, by (node, primitive).
    pub primitives: Vec<DumpedPrimitive>,
    /// The value of every property the clip animates, by JSON pointer: its node channels' as
    /// `/nodes/N/translation` and the like, then its `KHR_animation_pointer` targets'. Empty
    /// for the rest pose.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointers: Vec<DumpedPointer>,
}

/// One animated property's value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DumpedPointer {
    /// Its JSON pointer in the file.
    pub pointer: String,
    /// Its value: one number per component (a boolean as 1 or 0, a rotation as `x, y, z, w`).
    pub value: Vec<f64>,
}

/// One node's world matrix.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DumpedNode {
    /// glTF node index.
    pub node: u32,
    /// World matrix, column-major (glTF `matrix` layout).
    pub world_matrix: Vec<f64>,
}

/// One primitive's world-space vertex positions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DumpedPrimitive {
    /// glTF node index.
    pub node: u32,
    /// glTF mesh index.
    pub mesh: u32,
    /// Primitive index within the mesh.
    pub primitive: u32,
    /// Number of vertices (the POSITION accessor's count).
    pub vertex_count: usize,
    /// Whether it was skinned (node has a skin and the primitive has joints).
    pub skinned: bool,
    /// World positions `x, y, z` per vertex, in POSITION accessor order.
    pub world: Vec<f64>,
    /// The same as three.js draws them (the oracle's own skinning, with a vertex bound to no
    /// joint put on its first), where a reference has them; never in this project's dumps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub three_world: Option<Vec<f64>>,
}

/// Poses `import` with glTF animation `animation` (or the rest pose for `None`) at each of
/// `times`.
///
/// # Panics
/// If the model has no clip of glTF animation `animation` (it does not exist, or it was
/// dropped: [`Import::clip_of_animation`]).
#[must_use]
pub fn dump(import: &Import, file: &str, animation: Option<usize>, times: &[f32]) -> PoseDump {
    let model = &import.model;
    let clip = animation.map(|index| {
        let clip = import.clip_of_animation(crate::index_u32(index)).expect("a clip of the animation");
        (index, &model.clips()[clip])
    });
    let mut pose = Pose::from_rest(model.rig());
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    let mut positions = Vec::new();
    let frames = times
        .iter()
        .map(|&time| {
            pose.return_to_rest(model.rig());
            let clip_time = clip.map(|(_, clip)| {
                let clip_time = PlayMode::Once.wrap(time, clip.duration());
                clip.sample(clip_time, &mut pose);
                f64::from(clip_time)
            });
            pose.compute_world(model.rig());
            model.write_palettes(&pose, &mut palette);
            PoseFrame {
                time: f64::from(time),
                clip_time,
                nodes: dump_nodes(import, &pose),
                primitives: dump_primitives(model, &pose, &palette, &mut positions),
                pointers: clip.map(|(_, clip)| dump_pointers(import, clip, &pose)).unwrap_or_default(),
            }
        })
        .collect();
    PoseDump {
        format: FORMAT.to_owned(),
        oracle: "props-gltf pose_dump (props-anim sampling, hierarchy and CPU skinning)".to_owned(),
        file: file.to_owned(),
        animation: clip.map(|(index, clip)| DumpedClip {
            index,
            name: clip.name().map(str::to_owned),
            duration: f64::from(clip.duration()),
        }),
        frames,
    }
}

fn dump_pointers(import: &Import, clip: &Clip, pose: &Pose) -> Vec<DumpedPointer> {
    let rig = import.model.rig();
    let numbers = |values: &[f32]| values.iter().map(|&x| f64::from(x)).collect();
    let nodes = clip.channels().iter().map(|channel| {
        let node = channel.node();
        let local = pose.local_transform(node);
        let value = match channel.keyframes() {
            Keyframes::Translation(_) => numbers(&local.translation.to_array()),
            Keyframes::Rotation(_) => numbers(&local.rotation.to_array()),
            Keyframes::Scale(_) => numbers(&local.scale.to_array()),
            Keyframes::MorphWeights { .. } => numbers(pose.morph_weights(node)),
        };
        let pointer = format!("/nodes/{}/{}", rig.source_index(node), channel.keyframes().property_name());
        DumpedPointer { pointer, value }
    });
    let properties = clip.property_channels().iter().map(|channel| {
        let id = channel.property();
        let pointer = import.property_pointers.get(id.0 as usize).cloned().unwrap_or_default();
        DumpedPointer { pointer, value: numbers(pose.property(id)) }
    });
    nodes.chain(properties).collect()
}

fn dump_nodes(import: &Import, pose: &Pose) -> Vec<DumpedNode> {
    let rig = import.model.rig();
    let nodes = import.scene_nodes.iter().filter_map(|&source| Some((source, rig.from_source_index(source)?)));
    nodes.map(|(node, id)| DumpedNode { node, world_matrix: column_major(&pose.world_matrix(id)) }).collect()
}

fn dump_primitives(
    model: &Model,
    pose: &Pose,
    palette: &[JointMatrix],
    positions: &mut Vec<Vec3>,
) -> Vec<DumpedPrimitive> {
    let rig = model.rig();
    let mut instances: Vec<_> = model.instances().iter().enumerate().collect();
    instances.sort_by_key(|(_, instance)| rig.source_index(instance.node));
    let mut out = Vec::new();
    for (slot, instance) in instances {
        let node: NodeId = instance.node;
        let weights = pose.morph_weights(node);
        for (index, primitive) in (0u32..).zip(&model.meshes()[instance.mesh as usize].primitives) {
            let skin = instance.skin.filter(|_| primitive.influences.is_some());
            match skin {
                Some(skin) => {
                    skinning::skin_positions(primitive, &palette[model.palette_range(skin)], weights, positions);
                }
                None => {
                    let node_world = palette[model.node_slot(slot)].to_affine();
                    skinning::rigid_positions(primitive, &node_world, weights, positions);
                }
            }
            out.push(DumpedPrimitive {
                node: rig.source_index(node),
                mesh: instance.mesh,
                primitive: index,
                vertex_count: positions.len(),
                skinned: skin.is_some(),
                world: positions.iter().flat_map(|p| p.to_array()).map(f64::from).collect(),
                three_world: None,
            });
        }
    }
    out
}

fn column_major(m: &Affine3A) -> Vec<f64> {
    Mat4::from(*m).to_cols_array().iter().map(|&x| f64::from(x)).collect()
}
