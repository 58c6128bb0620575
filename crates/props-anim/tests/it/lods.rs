//! A model's levels of detail: its primitives' levels gathered by error, scaled as the
//! primitives are placed, and checked.

use glam::Vec3;
use props_anim::impostor::Impostor;
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
    assert_eq!(levels(0), [0, 1, 1, 2].map(Some));
    assert_eq!(levels(1), [0, 0, 1, 1].map(Some));
    assert_eq!(model.primitive_level(0, 0, 99), Some(2), "past the last level, the last's");
    assert_eq!(model.lod_triangles(0), 96);
    assert_eq!(model.lod_triangles(2), 32 + 16);
    assert_eq!(model.lod_triangles(3), 16 + 16);
    let plain = self::model(vec![mesh(vec![primitive(8, &[])])]).expect("valid");
    assert_eq!((plain.lod_errors(), plain.primitive_level(0, 0, 3)), (&[0.0][..], Some(0)));
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

/// A twelve-triangle box of one colour, placed by mesh instance `instance`.
fn impostor(instance: u32, error: f32) -> Impostor {
    let positions = vec![Vec3::ZERO; 24];
    let mut primitive = Primitive::triangles(positions, vec![Vec3::Y; 24], (0..36).map(|i| i % 24).collect(), None);
    primitive.colors = vec![glam::Vec4::ONE; 24];
    let material = props_anim::material::Material::default();
    Impostor {
        primitive,
        material,
        instance,
        emission_of: None,
        error,
        morph_reach: 0.0,
        material_variants: Vec::new(),
    }
}

/// An impostor is the model's last level: every primitive makes way for it there and past
/// it, the levels before stay as they were, and at most eight levels are kept in all.
#[test]
fn an_impostor_is_drawn_alone_at_the_last_level() {
    let plain = model(vec![mesh(vec![primitive(64, &[0.1, 0.4])]), mesh(vec![primitive(32, &[0.1])])]).expect("valid");
    let model = plain.clone().with_impostor(impostor(1, 1.5)).expect("valid");
    assert_eq!(model.lod_errors(), [0.0, 0.1, 0.2, 0.4, 1.5]);
    assert_eq!(model.impostor_level(), Some(4));
    assert_eq!((plain.impostor_level(), plain.impostor()), (None, None));
    for (instance, own) in [(0, [0, 1, 1, 2]), (1, [0, 0, 1, 1])] {
        let levels: Vec<_> = (0..6).map(|k| model.primitive_level(instance, 0, k)).collect();
        assert_eq!(levels, [own.map(Some).as_slice(), &[None, None]].concat(), "instance {instance}");
    }
    assert_eq!((0..5).map(|k| model.lod_triangles(k)).collect::<Vec<_>>(), [96, 64, 48, 32, 12]);
    assert!(model.heap_bytes() > plain.heap_bytes(), "its box is counted");
    // Below the coarsest level's error, it is raised to it.
    let low = plain.clone().with_impostor(impostor(0, 0.01)).expect("valid");
    assert_eq!(low.lod_errors().last(), Some(&0.4));
    // Clips added later keep it.
    assert_eq!(model.with_clips([]).impostor_level(), Some(4));
    // Levels of fewer triangles than the box make way for it, which takes their error.
    let thin = self::model(vec![mesh(vec![primitive(64, &[0.1, 0.2, 0.3, 0.4])])]).expect("valid");
    let thin = thin.with_impostor(impostor(0, 1.0)).expect("valid");
    assert_eq!((thin.lod_errors(), thin.lod_triangles(2), thin.lod_triangles(3)), (&[0.0, 0.1, 0.2, 0.3][..], 16, 12));
    // But never under what its morph targets move: the levels morph, the box does not.
    let morphing = self::model(vec![mesh(vec![primitive(64, &[0.1, 0.2, 0.3, 0.4])])]).expect("valid");
    let morphing = morphing.with_impostor(Impostor { morph_reach: 0.7, ..impostor(0, 1.0) }).expect("valid");
    assert_eq!(morphing.lod_errors(), [0.0, 0.1, 0.2, 0.7]);
    // Many levels: seven of the primitives', then the impostor.
    let errors: Vec<f32> = (1..=9).map(|k| k as f32 / 100.0).collect();
    let many = self::model(vec![mesh(vec![primitive(1 << 14, &errors)])]).expect("valid");
    let many = many.with_impostor(impostor(0, 1.0)).expect("valid");
    assert_eq!(many.lod_errors().len(), Model::MAX_LOD_LEVELS);
    assert_eq!(many.lod_errors()[Model::MAX_LOD_LEVELS - 2..], [0.09, 1.0]);
}

/// A level at which a part is left out (its empty last level, whose error is its size) makes
/// way for a box that strays less: the box is nearer and cheaper. A box straying more than
/// the part's size comes after it.
#[test]
fn a_box_nearer_than_a_part_left_out_takes_its_place() {
    let mut part = primitive(64, &[0.1]);
    part.lods.push(Lod { indices: Vec::new(), error: 0.8 });
    let plain = model(vec![mesh(vec![primitive(256, &[0.1, 0.2]), part])]).expect("valid");
    assert_eq!(plain.lod_errors(), [0.0, 0.1, 0.2, 0.8]);
    let near = plain.clone().with_impostor(impostor(0, 0.3)).expect("valid");
    assert_eq!(near.lod_errors(), [0.0, 0.1, 0.2, 0.3], "the part's 0.8 made way for the box");
    let far = plain.with_impostor(impostor(0, 1.0)).expect("valid");
    assert_eq!(far.lod_errors(), [0.0, 0.1, 0.2, 0.8, 1.0]);
    assert_eq!(far.lod_triangles(3), 64, "the large primitive's last level alone");
}

#[test]
fn an_impostor_that_cannot_stand_in_is_refused() {
    let plain = model(vec![mesh(vec![primitive(64, &[0.1])])]).expect("valid");
    let bad = |impostor| match plain.clone().with_impostor(impostor) {
        Err(ModelError::BadImpostor { problem }) => problem,
        other => panic!("accepted: {other:?}"),
    };
    assert!(bad(impostor(1, 1.0)).contains("mesh instance"));
    assert!(bad(Impostor { emission_of: Some(0), ..impostor(0, 1.0) }).contains("material"), "it has none");
    let mut far = impostor(0, 1.0);
    far.primitive.indices[5] = 24;
    assert!(bad(far).contains("whole triangles"));
    let mut uncoloured = impostor(0, 1.0);
    uncoloured.primitive.colors.pop();
    assert!(bad(uncoloured).contains("one a vertex"));
    assert!(bad(impostor(0, f32::NAN)).contains("error"));
    assert!(bad(Impostor { morph_reach: -1.0, ..impostor(0, 1.0) }).contains("morph reach"));
    let mut infinite = impostor(0, 1.0);
    infinite.primitive.positions[3].y = f32::INFINITY;
    assert!(bad(infinite).contains("not finite"));
    let mut textured = impostor(0, 1.0);
    textured.material.base_color_texture = Some(props_anim::material::TextureRef::new(0));
    assert!(bad(textured).contains("textures"));
}
