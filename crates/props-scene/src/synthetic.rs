//! Small synthetic models with the node and clip names of the real assets (see
//! `assets/README.md`), built with the animation core's API: for tests, benchmarks and running
//! a scene without the asset files. Each has one triangle on every node that carries a mesh in
//! the real model, so palettes have realistic lengths (windmill 6, car 5, traffic light 5, fox
//! 7 joints plus 1 node slot).

use std::f32::consts::{FRAC_PI_2, PI, TAU};
use std::sync::Arc;

use glam::{Quat, Vec3};
use props_anim::{
    Channel, Influences, Interpolation, Keyframes, Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive,
    RestTransform, Rig, SourceNode, Transform,
};
use props_frame::ModelId;

use crate::config::SceneConfig;
use crate::kind::{KindAsset, KindWithModels};
use crate::models::PropModel;

/// Why a synthetic model could not be built (a bug in this module).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SyntheticError {
    /// The node hierarchy.
    #[error(transparent)]
    Rig(#[from] props_anim::RigError),
    /// A clip.
    #[error("clip channel {0}: {1}")]
    Clip(usize, props_anim::ClipError),
    /// The skin.
    #[error(transparent)]
    Skin(#[from] props_anim::SkinError),
    /// Cross-references.
    #[error(transparent)]
    Model(#[from] props_anim::ModelError),
}

/// A node: name, rest translation, rotation and scale, children by index.
struct Node {
    name: &'static str,
    translation: Vec3,
    rotation: Quat,
    scale: Vec3,
    children: &'static [u32],
    mesh: bool,
}

const fn node(name: &'static str, translation: Vec3, children: &'static [u32], mesh: bool) -> Node {
    Node { name, translation, rotation: Quat::IDENTITY, scale: Vec3::ONE, children, mesh }
}

/// A clip channel description: node index, times, keyframes.
type ChannelSpec = (u32, Interpolation, Vec<f32>, Keyframes);

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
fn build(
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
            props_anim::Clip::new(Some(name.to_owned()), channels, &rig).map_err(|(i, e)| SyntheticError::Clip(i, e))
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
fn spin(node: u32, axis: Vec3, duration: f32, turns: f32) -> ChannelSpec {
    let times: Vec<f32> = (0..=4).map(|k| k as f32 * duration / 4.0).collect();
    let keys = (0..=4).map(|k| Quat::from_axis_angle(axis, k as f32 * turns * TAU / 4.0)).collect();
    (node, Interpolation::Linear, times, Keyframes::Rotation(keys))
}

/// Linear rotation keys swinging `amplitude` radians each way about `axis`, one cycle over
/// `duration`, starting at `phase` of a cycle.
fn swing(node: u32, axis: Vec3, duration: f32, amplitude: f32, phase: f32) -> ChannelSpec {
    let times: Vec<f32> = (0..=8).map(|k| k as f32 * duration / 8.0).collect();
    let keys =
        (0..=8).map(|k| Quat::from_axis_angle(axis, amplitude * ((k as f32 / 8.0 + phase) * TAU).sin())).collect();
    (node, Interpolation::Linear, times, Keyframes::Rotation(keys))
}

/// Lamps whose lens glows by an animated material: per lamp its node (whose triangle gets the
/// lamp's own material, named as the node) and lit colour; per clip, at each key time, which lamp is lit.
struct Glow<'a> {
    lamps: &'a [(u32, [f32; 3])],
    clips: Vec<(&'a str, Vec<f32>, Vec<usize>)>,
}

/// `model` with `glow`'s lamps: each lamp's triangle gets a material of its own, whose
/// emissive factor clips of `glow` animate (STEP: the lamp's colour when lit, else black).
fn with_glow(model: Model, glow: &Glow<'_>) -> Result<Model, SyntheticError> {
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
                props_anim::PropertyChannel::new(ids[k], Interpolation::Step, times.clone(), 3, values)
                    .map_err(|e| SyntheticError::Clip(k, e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let clip = props_anim::Clip::new(Some((*name).to_owned()), Vec::new(), &rig)
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
            props_anim::Material::matte(name, [0.1, 0.1, 0.1, 1.0])
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

/// The windmill: `tower` → `nacelle` (14 m up) → `hub` (0.7 m up, 1 m forward) → three blades;
/// clip `spin` (one turn in 4 s, clockwise from the front).
pub fn windmill() -> Result<Model, SyntheticError> {
    let blade = |name, angle: f32| Node {
        rotation: Quat::from_rotation_z(angle),
        ..node(name, Vec3::new(0.0, 0.0, 0.3), &[], true)
    };
    let nodes = [
        node("tower", Vec3::ZERO, &[1], true),
        node("nacelle", Vec3::new(0.0, 14.0, 0.0), &[2], true),
        node("hub", Vec3::new(0.0, 0.7, 1.0), &[3, 4, 5], true),
        blade("blade_0", 0.0),
        blade("blade_1", TAU / 3.0),
        blade("blade_2", 2.0 * TAU / 3.0),
    ];
    build(&nodes, vec![("spin", vec![spin(2, Vec3::NEG_Z, 4.0, 1.0)])], None)
}

/// The car: `body` with steering pivots over the front wheels and the rear wheels (radius
/// 0.33 m, axles 1.3 m either side of the centre); clip `drive`.
pub fn car() -> Result<Model, SyntheticError> {
    car_built(false)
}

/// The car with a door: `body` also carries `door_left` (hinged at its front edge), and a
/// `doors` clip swings it open 70 degrees about Y over one second.
pub fn car_with_doors() -> Result<Model, SyntheticError> {
    car_built(true)
}

/// The car, with a door and its clip or not.
fn car_built(door: bool) -> Result<Model, SyntheticError> {
    let (x, y, z) = (0.78, 0.33, 1.3);
    let body_children: &'static [u32] = if door { &[1, 2, 5, 6, 7] } else { &[1, 2, 5, 6] };
    let mut nodes = vec![
        node("body", Vec3::ZERO, body_children, true),
        node("steer_front_left", Vec3::new(x, y, z), &[3], false),
        node("steer_front_right", Vec3::new(-x, y, z), &[4], false),
        node("wheel_front_left", Vec3::ZERO, &[], true),
        node("wheel_front_right", Vec3::ZERO, &[], true),
        node("wheel_rear_left", Vec3::new(x, y, -z), &[], true),
        node("wheel_rear_right", Vec3::new(-x, y, -z), &[], true),
    ];
    let drive = [3, 4, 5, 6].map(|wheel| spin(wheel, Vec3::X, 1.0, 1.0)).to_vec();
    let mut clips = vec![("drive", drive)];
    if door {
        nodes.push(node("door_left", Vec3::new(0.9, 0.7, 0.6), &[], true));
        let open = Keyframes::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_y(70f32.to_radians())]);
        clips.push(("doors", vec![(7, Interpolation::Linear, vec![0.0, 1.0], open)]));
    }
    build(&nodes, clips, None)
}

/// The bus: `body` with steering pivots over the front wheels and the rear wheels (radius
/// 0.5 m, axles at +3.4 m and -3.2 m) and two doors on its right side, `door_front` and
/// `door_rear`; clips `drive`, `door_front` and `door_rear` (each door slides 1 m back over
/// 1.2 s), as `assets/bus.glb`. The `door_front` clip also lifts the body 0.3 m (a stray key, as
/// exporters write when they bake a whole action), which the buses' door mask must keep off.
pub fn bus() -> Result<Model, SyntheticError> {
    let (x, y) = (1.05, 0.5);
    let nodes = [
        node("body", Vec3::ZERO, &[1, 2, 5, 6, 7, 8], true),
        node("steer_front_left", Vec3::new(x, y, 3.4), &[3], false),
        node("steer_front_right", Vec3::new(-x, y, 3.4), &[4], false),
        node("wheel_front_left", Vec3::ZERO, &[], true),
        node("wheel_front_right", Vec3::ZERO, &[], true),
        node("wheel_rear_left", Vec3::new(x, y, -3.2), &[], true),
        node("wheel_rear_right", Vec3::new(-x, y, -3.2), &[], true),
        node("door_front", Vec3::new(-1.25, 0.0, 4.7), &[], true),
        node("door_rear", Vec3::new(-1.25, 0.0, 0.3), &[], true),
    ];
    let slide = |door: u32, z: f32| {
        let keys = vec![Vec3::new(-1.25, 0.0, z), Vec3::new(-1.37, 0.0, z), Vec3::new(-1.37, 0.0, z - 1.0)];
        vec![(door, Interpolation::Linear, vec![0.0, 0.36, 1.2], Keyframes::Translation(keys))]
    };
    let drive = [3, 4, 5, 6].map(|wheel| spin(wheel, Vec3::X, 2.0, 1.0)).to_vec();
    let mut front = slide(7, 4.7);
    let lift = Keyframes::Translation(vec![Vec3::ZERO, Vec3::Y * 0.3]);
    front.push((0, Interpolation::Linear, vec![0.0, 1.2], lift));
    build(&nodes, vec![("drive", drive), ("door_front", front), ("door_rear", slide(8, 0.3))], None)
}

/// The traffic light: `pole` → `housing` → `lamp_red` / `lamp_amber` / `lamp_green`, each lens
/// of its own material, dark at rest; clips `cycle` (10 s), `green`, `amber`, `red` light the
/// lamps by animating their emissive factor.
pub fn traffic_light() -> Result<Model, SyntheticError> {
    let nodes = [
        node("pole", Vec3::ZERO, &[1], true),
        node("housing", Vec3::new(0.0, 3.1, 0.0), &[2, 3, 4], true),
        node("lamp_red", Vec3::new(0.0, 0.3, 0.13), &[], true),
        node("lamp_amber", Vec3::new(0.0, 0.0, 0.13), &[], true),
        node("lamp_green", Vec3::new(0.0, -0.3, 0.13), &[], true),
    ];
    let (red, amber, green) = (0, 1, 2);
    let lamps = [(2, [1.0, 0.06, 0.03]), (3, [1.0, 0.5, 0.0]), (4, [0.1, 1.0, 0.3])];
    let hold = |lit: usize| (vec![0.0], vec![lit]);
    let clips = vec![
        ("cycle", vec![0.0, 4.0, 5.0, 10.0], vec![green, amber, red, red]),
        ("green", hold(green).0, hold(green).1),
        ("amber", hold(amber).0, hold(amber).1),
        ("red", hold(red).0, hold(red).1),
    ];
    with_glow(build(&nodes, Vec::new(), None)?, &Glow { lamps: &lamps, clips })
}

/// The house: one static node, `building`.
pub fn building() -> Result<Model, SyntheticError> {
    build(&[node("building", Vec3::ZERO, &[], true)], Vec::new(), None)
}

/// The street lamp: `pole` → `head`, static.
pub fn street_lamp() -> Result<Model, SyntheticError> {
    let nodes = [node("pole", Vec3::ZERO, &[1], true), node("head", Vec3::new(0.0, 5.9, 1.6), &[], true)];
    build(&nodes, Vec::new(), None)
}

/// A small skinned quadruped with the Fox's clip names: `Survey`, `Walk` (0.7 s) and `Run`
/// (1.16 s), which animate the same joints differently so that a crossfade shows.
pub fn fox() -> Result<Model, SyntheticError> {
    let leg = |name, x: f32, z: f32| node(name, Vec3::new(x, -0.1, z), &[], false);
    let nodes = [
        node("root", Vec3::ZERO, &[1, 8], false),
        node("hips", Vec3::new(0.0, 0.4, -0.2), &[2, 4, 5], false),
        node("spine", Vec3::new(0.0, 0.05, 0.4), &[3, 6, 7], false),
        node("head", Vec3::new(0.0, 0.15, 0.2), &[], false),
        leg("leg_back_left", 0.1, 0.0),
        leg("leg_back_right", -0.1, 0.0),
        leg("leg_front_left", 0.1, 0.0),
        leg("leg_front_right", -0.1, 0.0),
        node("fox", Vec3::ZERO, &[], false),
    ];
    let gait = |duration: f32, legs: f32, back: f32| {
        let mut channels: Vec<ChannelSpec> = [(4, 0.0), (5, 0.5), (6, 0.5), (7, 0.0)]
            .map(|(n, phase)| swing(n, Vec3::X, duration, legs, phase))
            .to_vec();
        channels.push(swing(2, Vec3::X, duration, back, 0.25));
        channels.push(swing(3, Vec3::Y, duration, back * 0.5, 0.0));
        channels
    };
    let survey = vec![swing(3, Vec3::Y, 3.4, FRAC_PI_2 * 0.5, 0.0)];
    let clips = vec![("Survey", survey), ("Walk", gait(0.7, 0.35, 0.05)), ("Run", gait(1.16, 0.9, PI * 0.08))];
    build(&nodes, clips, Some((&[1, 2, 3, 4, 5, 6, 7], 8)))
}

/// The synthetic stand-in of a kind's asset, by its stem (`windmill`, `car`,
/// `traffic_light`, `Fox`, `bus`, `street_lamp`, `building`), as the model the renderer knows
/// as `id`, in metres; `None` for a stem with no stand-in, or a kind with no base asset.
pub fn model_for(asset: &KindAsset, id: ModelId) -> Result<Option<PropModel>, SyntheticError> {
    let model = match asset.stem {
        Some("windmill") => windmill()?,
        Some("car") => car()?,
        Some("traffic_light") => traffic_light()?,
        Some("Fox") => fox()?,
        Some("bus") => bus()?,
        Some("street_lamp") => street_lamp()?,
        Some("building") => building()?,
        _ => return Ok(None),
    };
    Ok(Some(PropModel::new(id, Arc::new(model))))
}

/// The town's kinds for `config` ([`crate::kinds::town`]), each with its synthetic stand-in,
/// the renderer ids numbered in order from 0 (windmill 0, car 1, traffic light 2, fox 3, bus 4,
/// street lamp 5, house 6):
/// for [`crate::Scene::new`].
pub fn town(config: &SceneConfig) -> Result<Vec<KindWithModels>, SyntheticError> {
    crate::kinds::town(config)
        .into_iter()
        .enumerate()
        .map(|(id, kind)| {
            let model = model_for(&kind.asset(), ModelId(id as u32))?;
            Ok((kind, model.into_iter().collect()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_town_kind_has_a_stand_in() {
        let town = town(&SceneConfig::default()).expect("builds");
        for (kind, models) in &town {
            let expected = usize::from(kind.asset().stem.is_some());
            assert_eq!(models.len(), expected, "{}: one stand-in per kind with a base asset", kind.name());
        }
    }

    #[test]
    fn synthetic_models_have_the_asset_names_and_palettes() {
        let (windmill, car, light, fox) = (
            windmill().expect("builds"),
            car().expect("builds"),
            traffic_light().expect("builds"),
            fox().expect("builds"),
        );
        assert_eq!(windmill.palette_len(), 6);
        assert_eq!(car.palette_len(), 5);
        // Five node matrices, and one slot of the lamps' animated emissive factors (9 values).
        assert_eq!(light.palette_len(), 6);
        assert_eq!(fox.palette_len(), 8);
        for name in ["tower", "nacelle", "hub", "blade_0", "blade_1", "blade_2"] {
            assert!(windmill.rig().find(name).is_some(), "{name}");
        }
        for clip in ["cycle", "green", "amber", "red"] {
            assert!(light.find_clip(clip).is_some(), "{clip}");
        }
        for clip in ["Survey", "Walk", "Run"] {
            assert!(fox.find_clip(clip).is_some(), "{clip}");
        }
        let walk = &fox.clips()[fox.find_clip("Walk").unwrap_or_default()];
        assert!((walk.duration() - 0.7).abs() < 1e-6);
    }
}
