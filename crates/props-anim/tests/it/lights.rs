//! A model's lights placed for a posed instance: they ride the mesh node above them, take
//! their animated values from the palette and their file values otherwise.

use std::f32::consts::FRAC_PI_2;

use glam::{Affine3A, Quat, Vec3};
use props_anim::light::{Light, LightInstance, LightKind};
use props_anim::property::{LightField, Properties, PropertyTarget};
use props_anim::{
    Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, Transform,
    clip::interpolate::Interpolation,
    clip::{Channel, Clip, Keyframes, PropertyChannel},
};

use crate::support::{assert_close, rig};

fn triangle() -> Mesh {
    let positions = vec![Vec3::ZERO, Vec3::X, Vec3::Y];
    Mesh { name: None, primitives: vec![Primitive::triangles(positions, vec![Vec3::Z; 3], vec![0, 1, 2], None)] }
}

/// Node 0 (a mesh, turned by clip `turn` a quarter about Y over 1 s) → node 1 (2 m up, a spot
/// light whose intensity clip `turn` raises from 0 to 10) → node 2 (a point light, 1 m ahead);
/// node 3 (beside, no mesh above it) carries a directional light.
fn lamp_model() -> Model {
    let up = Transform { translation: Vec3::Y * 2.0, ..Transform::IDENTITY };
    let ahead = Transform { translation: Vec3::NEG_Z, ..Transform::IDENTITY };
    let beside = Transform { translation: Vec3::X * 5.0, ..Transform::IDENTITY };
    let mut rig = rig(&[(&[1], Transform::IDENTITY), (&[2], up), (&[], ahead), (&[], beside)]);
    let mut properties = Properties::new();
    let intensity = properties.add(PropertyTarget::Light { light: 0, field: LightField::Intensity }, &[0.0]);
    rig.set_properties(properties);
    let turn = Channel::new(
        NodeId(0),
        Interpolation::Linear,
        vec![0.0, 1.0],
        Keyframes::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_y(FRAC_PI_2)]),
    )
    .expect("a rotation channel");
    let brighten = PropertyChannel::new(intensity, Interpolation::Linear, vec![0.0, 1.0], 1, vec![0.0, 10.0])
        .expect("an intensity channel");
    let clip = Clip::new(Some("turn".into()), vec![turn], &rig)
        .and_then(|clip| clip.with_properties(vec![brighten], &rig))
        .expect("a clip");
    let spot = Light {
        name: None,
        kind: LightKind::Spot { inner_cone_angle: 0.2, outer_cone_angle: 0.5 },
        color: [1.0, 0.5, 0.25],
        intensity: 0.0,
        range: Some(12.0),
    };
    let point = Light { name: None, kind: LightKind::Point, color: [1.0; 3], intensity: 3.0, range: None };
    let sun = Light { name: None, kind: LightKind::Directional, color: [1.0; 3], intensity: 5.0, range: None };
    Model::new(ModelParts {
        rig: Some(rig),
        clips: vec![clip],
        meshes: vec![triangle()],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        lights: vec![spot, point, sun],
        light_instances: vec![
            LightInstance { node: NodeId(1), light: 0 },
            LightInstance { node: NodeId(2), light: 1 },
            LightInstance { node: NodeId(3), light: 2 },
        ],
        ..ModelParts::default()
    })
    .expect("a model")
}

fn assert_vec_close(actual: Vec3, expected: Vec3) {
    assert!((actual - expected).length() < 1e-5, "{actual} != {expected}");
}

#[test]
fn lights_ride_their_mesh_node_and_take_animated_values_from_the_palette() {
    let model = lamp_model();
    assert!(model.has_placed_lights());
    let placement = Affine3A::from_translation(Vec3::new(100.0, 0.0, 0.0));
    let packed = props_anim::JointMatrix::from_affine(&placement);
    let mut palette = vec![props_anim::JointMatrix::IDENTITY; model.palette_len()];

    // At rest the spot is dark (left out), the point light lit; the sun is never placed.
    model.write_palettes(&model.pose_at(None, 0.0), &mut palette);
    let rest: Vec<_> = model.placed_lights(&palette, &packed).collect();
    assert_eq!(rest.len(), 1);
    assert_vec_close(rest[0].position, Vec3::new(100.0, 2.0, -1.0));
    assert_vec_close(rest[0].color, Vec3::splat(3.0));
    assert_eq!((rest[0].range, rest[0].cone), (None, None));

    // Half way: the mesh node has turned 45° about Y, carrying both lights; the spot's
    // intensity is 5.
    for (time, intensity) in [(0.5, 5.0), (1.0, 10.0)] {
        let pose = model.pose_at(Some(0), time);
        model.write_palettes(&pose, &mut palette);
        let lit: Vec<_> = model.placed_lights(&palette, &packed).collect();
        assert_eq!(lit.len(), 2, "at {time} s");
        let spot = lit[0];
        assert_vec_close(spot.position, placement.transform_point3(pose.world_matrix(NodeId(1)).translation.into()));
        assert_vec_close(spot.direction, pose.world_matrix(NodeId(1)).transform_vector3(Vec3::NEG_Z));
        assert_vec_close(spot.color, Vec3::new(1.0, 0.5, 0.25) * intensity);
        assert_eq!((spot.range, spot.cone), (Some(12.0), Some([0.2, 0.5])));
        let point = lit[1];
        assert_vec_close(point.position, placement.transform_point3(pose.world_matrix(NodeId(2)).translation.into()));
        assert_close(point.color.x, 3.0, 1e-6);
    }
}
