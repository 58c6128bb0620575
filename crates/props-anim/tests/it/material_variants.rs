//! Material variants: a model keeps only variants that name its own primitives and materials,
//! at most [`Model::MAX_MATERIAL_VARIANTS`], and keeps them when clips are added; its impostor
//! looks one way in each, or the same in all.

use glam::{Vec3, Vec4};
use props_anim::impostor::{Impostor, ImpostorLook};
use props_anim::material::{Material, MaterialVariant, VariantMaterial};
use props_anim::{Mesh, MeshInstance, Model, ModelError, ModelParts, NodeId, Primitive, Transform};

use crate::support::rig;

/// One node carrying a mesh of two triangle primitives, in materials 0 and 1 of three.
fn model() -> Model {
    let triangle =
        |material| Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], Vec::new(), vec![0, 1, 2], Some(material));
    Model::new(ModelParts {
        rig: Some(rig(&[(&[], Transform::IDENTITY)])),
        meshes: vec![Mesh { name: None, primitives: vec![triangle(0), triangle(1)] }],
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        materials: vec![Material::default(); 3],
        ..ModelParts::default()
    })
    .expect("valid")
}

/// A variant drawing `(mesh, primitive, material)`.
fn material_variant(name: &str, materials: &[(u32, u32, u32)]) -> MaterialVariant {
    let materials = materials.iter().map(|&(mesh, primitive, material)| VariantMaterial { mesh, primitive, material });
    MaterialVariant { name: name.to_owned(), materials: materials.collect() }
}

#[test]
fn a_variant_draws_its_primitives_in_its_materials_and_the_others_in_their_own() {
    let model = model().with_material_variants(vec![
        material_variant("taxi", &[(0, 1, 2)]),
        material_variant("police", &[(0, 0, 2), (0, 1, 0)]),
    ]);
    let model = model.expect("valid variants");
    assert_eq!((model.material_variant("police"), model.material_variant("bus")), (Some(1), None));
    let materials = |v| [model.primitive_material(0, 0, v), model.primitive_material(0, 1, v)];
    assert_eq!(materials(None), [Some(0), Some(1)]);
    assert_eq!(materials(Some(0)), [Some(0), Some(2)]);
    assert_eq!(materials(Some(1)), [Some(2), Some(0)]);
    assert_eq!(materials(Some(5)), [Some(0), Some(1)], "a variant it does not have: its own");
    assert!(model.has_variant_materials(0, 0) && model.has_variant_materials(0, 1));
    let with_clips = model.with_clips([]);
    assert_eq!(with_clips.material_variants(), model.material_variants(), "adding clips keeps its variants");
}

#[test]
fn variants_naming_what_the_model_lacks_are_refused() {
    let problem = |variants| match model().with_material_variants(variants) {
        Err(ModelError::BadMaterialVariant { variant, problem }) => (variant, problem),
        other => panic!("refused, not {other:?}"),
    };
    let fine = material_variant("fine", &[(0, 0, 1)]);
    assert_eq!(
        problem(vec![fine.clone(), material_variant("p", &[(0, 2, 1)])]),
        (1, "it names a primitive the model does not have")
    );
    assert_eq!(problem(vec![material_variant("m", &[(1, 0, 1)])]).1, "it names a primitive the model does not have");
    assert_eq!(problem(vec![material_variant("m", &[(0, 0, 3)])]).1, "it names a material the model does not have");
    assert_eq!(
        problem(vec![material_variant("s", &[(0, 1, 1), (0, 0, 1)])]).1,
        "its primitives are not sorted, each once"
    );
    assert_eq!(
        problem(vec![material_variant("t", &[(0, 0, 1), (0, 0, 2)])]).1,
        "its primitives are not sorted, each once"
    );
    let too_many = vec![fine; Model::MAX_MATERIAL_VARIANTS + 1];
    assert_eq!(problem(too_many).0, Model::MAX_MATERIAL_VARIANTS);
}

/// A box of 24 white vertices with a look in each of `looks` variants (each a grey of its own).
fn impostor(looks: usize) -> Impostor {
    let mut primitive =
        Primitive::triangles(vec![Vec3::ZERO; 24], vec![Vec3::Y; 24], (0..36).map(|i| i % 24).collect(), None);
    primitive.colors = vec![Vec4::ONE; 24];
    let look = |k: usize| ImpostorLook { colors: vec![Vec4::splat(k as f32 / 4.0); 24], material: Material::default() };
    Impostor {
        primitive,
        material: Material::default(),
        instance: 0,
        emission_of: None,
        error: 1.0,
        morph_reach: 0.0,
        material_variants: (0..looks).map(look).collect(),
    }
}

#[test]
fn an_impostor_looks_one_way_in_each_variant_or_the_same_in_all() {
    let variants = vec![material_variant("taxi", &[(0, 1, 2)]), material_variant("police", &[(0, 0, 2)])];
    let with_variants = model().with_material_variants(variants.clone()).expect("valid variants");
    let looking = with_variants.clone().with_impostor(impostor(2)).expect("a look for each variant");
    assert_eq!(looking.impostor().map(|i| i.material_variants.len()), Some(2));
    let plain = with_variants.clone().with_impostor(impostor(0)).expect("valid");
    assert_eq!(looking.heap_bytes() - plain.heap_bytes(), 2 * 24 * 16, "its looks' colours are counted");
    let kept = looking.with_clips([]);
    assert_eq!(kept.impostor(), looking.impostor(), "adding clips keeps its looks");
    with_variants.clone().with_impostor(impostor(0)).expect("no looks: its own in every variant");
    let problem = |result: Result<Model, ModelError>| match result {
        Err(ModelError::BadImpostor { problem }) => problem,
        other => panic!("refused, not {other:?}"),
    };
    let other_variants = "it has a look for other material variants than the model's";
    assert_eq!(problem(with_variants.clone().with_impostor(impostor(1))), other_variants);
    assert_eq!(problem(model().with_impostor(impostor(2))), other_variants, "the model has none");
    assert_eq!(problem(looking.with_material_variants(variants[..1].to_vec())), other_variants, "one taken away");
    let mut short = impostor(2);
    short.material_variants[1].colors.pop();
    assert_eq!(
        problem(with_variants.clone().with_impostor(short)),
        "a material variant's colours are not one finite colour a vertex"
    );
    let mut textured = impostor(2);
    textured.material_variants[0].material.base_color_texture = Some(props_anim::material::TextureRef::new(0));
    assert_eq!(problem(with_variants.with_impostor(textured)), "its material reads textures");
}
