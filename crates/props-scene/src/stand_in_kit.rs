//! The pieces the kinds build their stand-ins from ([`crate::PropKind::stand_in`]): small
//! synthetic models with the node and clip names of the real assets (see
//! `assets/README.md`), built with the animation core's API: one triangle on every node that carries a
//! mesh in the real model, so palettes have realistic lengths (windmill 6, car 5, traffic
//! light 5, fox 7 joints plus 1 node slot), rotations that spin and swing, lamps that glow.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};
use props_anim::{
    Influences, Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform,
    clip::interpolate::Interpolation,
    clip::{Channel, Keyframes},
};

/// Why a synthetic model could not be built (a bug in this module).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SyntheticError {
    /// The node hierarchy.
    #[error(transparent)]
    Rig(#[from] props_anim::RigError),
    /// A clip.
    #[error("clip channel {0}: {1}")]
    Clip(usize, props_anim::clip::ClipError),
    /// The skin.
    #[error(transparent)]
    Skin(#[from] props_anim::SkinError),
    /// Cross-references.
    #[error(transparent)]
    Model(#[from] props_anim::ModelError),
}

/// A node: name, rest translation, rotation and scale, children by index.
pub(crate) struct Node {
    pub(crate) name: &'static str,
    pub(crate) translation: Vec3,
    pub(crate) rotation: Quat,
    pub(crate) scale: Vec3,
    pub(crate) children: &'static [u32],
    pub(crate) mesh: bool,
}

pub(crate) const fn node(name: &'static str, translation: Vec3, children: &'static [u32], mesh: bool) -> Node {
    Node { name, translation, rotation: Quat::IDENTITY, scale: Vec3::ONE, children, mesh }
}

/// A clip channel description: node index, times, keyframes.
pub(crate) type ChannelSpec = (u32, Interpolation, Vec<f32>, Keyframes);

fn triangle(skinned: bool) -> Mesh {
    let positions = vec![Vec3::ZERO, Vec3::X * 0.2, Vec3::Y * 0.2];
    let influences = skinned.then(|| Influences {
        joints: vec![[0, 1, 0, 0, 0, 0, 0, 0]; 3],
        weights: vec![[0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]; 3],
        sets: 1,
        ..Influences::default()
    });
    Mesh {
        name: None,
        primitives: vec![Primitive {
            influences,
            ..Primitive::triangles(positions, vec![Vec3::Z; 3], vec![0, 1, 2], None)
        }],
    }
}

/// Builds a model from nodes (source order = rig order: parents listed first), clips and
/// optionally a skin over `joints` carried by the node named `skinned`.
pub(crate) fn build(
    nodes: &[Node],
    clips: Vec<(&str, Vec<ChannelSpec>)>,
    skin: Option<(&[u32], u32)>,
) -> Result<Model, SyntheticError> {
    let source: Vec<SourceNode> = nodes
        .iter()
        .map(|n| SourceNode {
            name: Some(n.name.to_owned()),
            children: n.children.to_vec(),
            rest: RestTransform::Trs(Transform { translation: n.translation, rotation: n.rotation, scale: n.scale }),
            morph_weights: Vec::new(),
        })
        .collect();
    let rig = Rig::from_source_nodes(&source)?;
    let id = |source: u32| rig.from_source_index(source).unwrap_or(NodeId(source));
    let clips = clips
        .into_iter()
        .map(|(name, channels)| {
            let channels = channels
                .into_iter()
                .enumerate()
                .map(|(i, (n, interp, times, keys))| {
                    Channel::new(id(n), interp, times, keys).map_err(|e| SyntheticError::Clip(i, e))
                })
                .collect::<Result<Vec<_>, _>>()?;
            props_anim::clip::Clip::new(Some(name.to_owned()), channels, &rig)
                .map_err(|(i, e)| SyntheticError::Clip(i, e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut instances: Vec<MeshInstance> = (0u32..)
        .zip(nodes)
        .filter(|(_, n)| n.mesh)
        .map(|(i, _)| MeshInstance { node: id(i), mesh: 0, skin: None })
        .collect();
    let mut meshes = vec![triangle(false)];
    let mut skins = Vec::new();
    if let Some((joints, carrier)) = skin {
        skins.push(props_anim::Skin::new(None, joints.iter().map(|&j| id(j)).collect(), None, &rig)?);
        meshes.push(triangle(true));
        instances.push(MeshInstance { node: id(carrier), mesh: 1, skin: Some(0) });
    }
    Ok(Model::new(ModelParts { rig: Some(rig), skins, clips, meshes, instances, ..ModelParts::default() })?)
}

/// Linear rotation keys turning `turns` times about `axis` over `duration` (5 keys a turn).
pub(crate) fn spin(node: u32, axis: Vec3, duration: f32, turns: f32) -> ChannelSpec {
    let times: Vec<f32> = (0..=4).map(|k| k as f32 * duration / 4.0).collect();
    let keys = (0..=4).map(|k| Quat::from_axis_angle(axis, k as f32 * turns * TAU / 4.0)).collect();
    (node, Interpolation::Linear, times, Keyframes::Rotation(keys))
}

/// Linear rotation keys swinging `amplitude` radians each way about `axis`, one cycle over
/// `duration`, starting at `phase` of a cycle.
pub(crate) fn swing(node: u32, axis: Vec3, duration: f32, amplitude: f32, phase: f32) -> ChannelSpec {
    let times: Vec<f32> = (0..=8).map(|k| k as f32 * duration / 8.0).collect();
    let keys =
        (0..=8).map(|k| Quat::from_axis_angle(axis, amplitude * ((k as f32 / 8.0 + phase) * TAU).sin())).collect();
    (node, Interpolation::Linear, times, Keyframes::Rotation(keys))
}

/// Linear translation keys of a foot stepping at `at` (its rest position): planted for the
/// first half of a cycle of `duration`, sliding back from `stride / 2` ahead to as far behind
/// (along +Z, the way the model faces), then swinging forward `lift` up; starting at `phase`
/// of a cycle.
pub(crate) fn step(node: u32, at: Vec3, duration: f32, (stride, lift): (f32, f32), phase: f32) -> ChannelSpec {
    const KEYS: u32 = 16;
    let times: Vec<f32> = (0..=KEYS).map(|k| k as f32 * duration / KEYS as f32).collect();
    let foot = |u: f32| match u {
        u if u < 0.5 => at + Vec3::new(0.0, 0.0, stride * (0.5 - 2.0 * u)),
        u => {
            let swing = 2.0 * (u - 0.5);
            at + Vec3::new(0.0, lift * (swing * PI).sin(), stride * (swing - 0.5))
        }
    };
    let keys = (0..=KEYS).map(|k| foot((k as f32 / KEYS as f32 + phase).rem_euclid(1.0))).collect();
    (node, Interpolation::Linear, times, Keyframes::Translation(keys))
}

/// Lamps whose lens glows by an animated material: per lamp its node (whose triangle gets the
/// lamp's own material, named as the node) and lit colour; per clip, at each key time, which lamp is lit.
pub(crate) struct Glow<'a> {
    pub(crate) lamps: &'a [(u32, [f32; 3])],
    pub(crate) clips: Vec<(&'a str, Vec<f32>, Vec<usize>)>,
}

/// `model` with `glow`'s lamps: each lamp's triangle gets a material of its own, whose
/// emissive factor clips of `glow` animate (STEP: the lamp's colour when lit, else black).
pub(crate) fn with_glow(model: Model, glow: &Glow<'_>) -> Result<Model, SyntheticError> {
    let mut rig = model.rig().clone();
    let id = |source: u32| rig.from_source_index(source).unwrap_or(NodeId(source));
    let mut properties = props_anim::property::Properties::new();
    let ids: Vec<_> = (0u32..)
        .zip(glow.lamps)
        .map(|(m, _)| {
            let field = props_anim::property::MaterialField::Emissive;
            properties.add(props_anim::property::PropertyTarget::Material { material: m, field }, &[0.0; 3])
        })
        .collect();
    let lamp_nodes: Vec<NodeId> = glow.lamps.iter().map(|&(node, _)| id(node)).collect();
    rig.set_properties(properties);
    let mut clips = Vec::new();
    for (name, times, lit) in &glow.clips {
        let channels = (0..glow.lamps.len())
            .map(|k| {
                let values = lit.iter().flat_map(|&l| if l == k { glow.lamps[k].1 } else { [0.0; 3] }).collect();
                props_anim::clip::PropertyChannel::new(ids[k], Interpolation::Step, times.clone(), 3, values)
                    .map_err(|e| SyntheticError::Clip(k, e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let clip = props_anim::clip::Clip::new(Some((*name).to_owned()), Vec::new(), &rig)
            .and_then(|clip| clip.with_properties(channels, &rig))
            .map_err(|(i, e)| SyntheticError::Clip(i, e))?;
        clips.push(clip);
    }
    let mut meshes = model.meshes().to_vec();
    let mut instances = model.instances().to_vec();
    let materials = (0u32..)
        .zip(glow.lamps)
        .map(|(m, _)| {
            let mut mesh = triangle(false);
            mesh.primitives[0].material = Some(m);
            meshes.push(mesh);
            // Named as its lamp's node, as the real assets name them.
            let name = rig.name(lamp_nodes[m as usize]).unwrap_or("lamp");
            props_anim::material::Material::matte(name, [0.1, 0.1, 0.1, 1.0])
        })
        .collect();
    let first_lamp_mesh = model.meshes().len() as u32;
    for instance in &mut instances {
        if let Some(k) = lamp_nodes.iter().position(|&n| n == instance.node) {
            instance.mesh = first_lamp_mesh + k as u32;
        }
    }
    Ok(Model::new(ModelParts {
        rig: Some(rig),
        skins: model.skins().to_vec(),
        clips,
        meshes,
        materials,
        instances,
        ..ModelParts::default()
    })?)
}
