//! A model's levels of detail: its primitives' levels gathered by error, scaled as the
//! primitives are placed, and checked.

use glam::Vec3;
use props_anim::{Lod, Mesh, MeshInstance, Model, ModelError, ModelParts, NodeId, Primitive, Transform};

use crate::support::rig;

/// A primitive of `triangles` triangles (over as many vertices as it needs) with levels of
/// these errors, each of half the triangles before.
fn primitive(triangles: u32, errors: &[f32]) -> Primitive {
    let positions = vec![Vec3::ZERO; 3 * triangles as usize];
    let mut p = Primitive::triangles(positions, Vec::new(), (0..3 * triangles).collect(), None);
    p.lods = errors
        .iter()
        .enumerate()
        .map(|(k, &error)| Lod { indices: (0..3 * (triangles >> (k + 1))).collect(), error })
        .collect();
    p
}

/// Two nodes, the second twice the first's size, each carrying one mesh.
fn model(meshes: Vec<Mesh>) -> Result<Model, ModelError> {
    let rig = rig(&[(&[1], Transform::IDENTITY), (&[], Transform { scale: Vec3::splat(2.0), ..Transform::IDENTITY })]);
    let instances = (0..meshes.len() as u32).map(|m| MeshInstance { node: NodeId(m), mesh: m, skin: None }).collect();
    Model::new(ModelParts { rig: Some(rig), meshes, instances, ..ModelParts::default() })
}

fn mesh(primitives: Vec<Primitive>) -> Mesh {
    Mesh { name: None, primitives }
}

/// The model's levels are its primitives' errors scaled by their nodes; at each, every
/// primitive draws its coarsest level within it.
#[test]
fn levels_gather_the_primitives_errors_as_they_are_placed() {
    let model = model(vec![mesh(vec![primitive(64, &[0.1, 0.4])]), mesh(vec![primitive(32, &[0.1])])]).expect("valid");
    // The second mesh's node doubles it: its 0.1 is 0.2.
    assert_eq!(model.lod_errors(), [0.0, 0.1, 0.2, 0.4]);
    let levels = |instance| (0..4).map(|k| model.primitive_level(instance, 0, k)).collect::<Vec<_>>();
    assert_eq!(levels(0), [0, 1, 1, 2]);
    assert_eq!(levels(1), [0, 0, 1, 1]);
    assert_eq!(model.primitive_level(0, 0, 99), 2, "past the last level, the last's");
    assert_eq!(model.lod_triangles(0), 96);
    assert_eq!(model.lod_triangles(2), 32 + 16);
    assert_eq!(model.lod_triangles(3), 16 + 16);
    let plain = self::model(vec![mesh(vec![primitive(8, &[])])]).expect("valid");
    assert_eq!((plain.lod_errors(), plain.primitive_level(0, 0, 3)), (&[0.0][..], 0));
}

/// More distinct errors than a model has levels: as many spread among them, the largest last.
#[test]
fn many_errors_are_spread_over_at_most_eight_levels() {
    let errors: Vec<f32> = (1..=6).map(|k| k as f32 / 100.0).collect();
    let model =
        model(vec![mesh(vec![primitive(256, &errors), primitive(256, &[0.015, 0.025, 0.035])])]).expect("valid");
    assert_eq!(model.lod_errors().len(), Model::MAX_LOD_LEVELS);
    assert_eq!(model.lod_errors().last(), Some(&0.06));
    assert!(model.lod_errors().windows(2).all(|w| w[0] < w[1]), "{:?}", model.lod_errors());
}

/// Levels that are not triangle lists over the primitive's vertices, or closer than the one
/// before, are refused: a renderer draws them by their indices and picks them by their errors.
#[test]
fn bad_levels_are_refused() {
    let mut past_the_end = primitive(4, &[0.1]);
    past_the_end.lods[0].indices = vec![0, 1, 12];
    let mut closer = primitive(8, &[0.2, 0.1]);
    closer.lods[1].error = 0.1;
    let mut partial = primitive(4, &[0.1]);
    partial.lods[0].indices.pop();
    for (bad, level) in [(past_the_end, 1), (closer, 2), (partial, 1)] {
        match model(vec![mesh(vec![bad])]) {
            Err(ModelError::BadLod { mesh: 0, primitive: 0, level: l, .. }) => assert_eq!(l, level),
            other => panic!("{other:?}"),
        }
    }
}
