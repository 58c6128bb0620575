//! Material variants through a crowd: each instance drawn in the variant its host named,
//! listed in one batch per level and variant (own materials first, then the variants in their
//! order, each in the order the instances were added; those placed mirrored after, apart), and
//! kept by name across a new version of the model.

mod support;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::material::{Material, MaterialVariant, VariantMaterial};
use props_anim::runtime::MeshLod;
use props_anim::{Model, ModelParts};
use props_crowd::{Animates, CrowdSet, InstanceId, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelBatch, ModelId};

/// A triangle model with variants named `names`, variant `k` drawing the triangle in material
/// `k + 1`.
fn model(names: &[&str]) -> Arc<Model> {
    with_material_variants(&support::one_node_model(support::triangle(1), vec![]), names)
}

/// `base` (one triangle primitive) with variants named `names`, variant `k` drawing the
/// triangle in material `k + 1`.
fn with_material_variants(base: &Model, names: &[&str]) -> Arc<Model> {
    let parts = ModelParts {
        rig: Some(base.rig().clone()),
        meshes: base.meshes().to_vec(),
        instances: base.instances().to_vec(),
        materials: vec![Material::default(); 1 + names.len()],
        ..ModelParts::default()
    };
    let variants = (names.iter().enumerate())
        .map(|(k, name)| MaterialVariant {
            name: (*name).to_owned(),
            materials: vec![VariantMaterial { mesh: 0, primitive: 0, material: k as u32 + 1 }],
        })
        .collect();
    Arc::new(Model::new(parts).and_then(|m| m.with_material_variants(variants)).expect("valid"))
}

/// Each batch's variant and the x of its instances, in order.
fn batches(set: &mut CrowdSet) -> Vec<(Option<u8>, Vec<f32>)> {
    leveled(set).into_iter().map(|(_, material_variant, _, xs)| (material_variant, xs)).collect()
}

/// Each batch's level, variant, whether it is mirrored, and the x of its instances, in order.
fn leveled(set: &mut CrowdSet) -> Vec<(u8, Option<u8>, bool, Vec<f32>)> {
    let mut frame = FrameData::default();
    set.animate(&mut frame);
    set.extract(&mut frame);
    let x = |i: u32| frame.instances[i as usize].transform.rows[0][3];
    let batch = |b: &ModelBatch| (b.level, b.material_variant, b.mirrored, b.instances.clone().map(x).collect());
    frame.batches.iter().map(batch).collect()
}

/// A set of `model` with instances at x = 0, 1, ... in the variants named `named`.
fn set_of(model: Arc<Model>, named: &[Option<&str>]) -> (CrowdSet, Vec<InstanceId>) {
    let mut set = CrowdSet::new(PosingConfig::default()).expect("valid");
    set.set_model(PropModel::new(ModelId(0), model), Animates::default()).expect("binds");
    let ids = (named.iter().enumerate())
        .map(|(x, name)| {
            let id = set.add(ModelId(0), Affine3A::from_translation(Vec3::X * x as f32)).expect("added");
            assert!(set.get_mut(id).expect("there").set_material_variant(*name), "{name:?} is a variant");
            id
        })
        .collect();
    (set, ids)
}

#[test]
fn instances_are_listed_by_variant_own_materials_first() {
    let named = [Some("police"), None, Some("taxi"), Some("police"), None];
    let (mut set, ids) = set_of(model(&["taxi", "police"]), &named);
    let listed = batches(&mut set);
    let expected = [(None, vec![1.0, 4.0]), (Some(0), vec![2.0]), (Some(1), vec![0.0, 3.0])];
    assert_eq!(listed, expected, "own materials, then each variant, in the order added");
    // A name the model does not have: refused, the instance in its own materials.
    assert!(!set.get_mut(ids[2]).expect("there").set_material_variant(Some("bus")));
    assert_eq!(batches(&mut set)[0], (None, vec![1.0, 2.0, 4.0]));
    // Removing one moves the last into its place, with its variant.
    assert!(set.remove(ids[0]));
    assert_eq!(batches(&mut set), [(None, vec![4.0, 1.0, 2.0]), (Some(1), vec![3.0])]);
    let names: Vec<&str> = set.model(ModelId(0)).expect("bound").material_variants().collect();
    assert_eq!(names, ["taxi", "police"]);
}

#[test]
fn a_new_version_keeps_each_instance_in_the_variant_of_its_name() {
    let (mut set, _) = set_of(model(&["taxi", "police"]), &[Some("taxi"), Some("police"), None]);
    // The new version lists its variants in another order, and has no "taxi".
    set.set_model(PropModel::new(ModelId(0), model(&["police", "bus"])), Animates::default()).expect("binds");
    assert_eq!(batches(&mut set), [(None, vec![0.0, 2.0]), (Some(0), vec![1.0])]);
}

#[test]
fn batches_are_by_level_then_variant() {
    // Levels straying 1 and 4 cm: at 1080 pixels, level 0 nearer than about 11.6 m.
    let model = with_material_variants(&support::leveled_model(4, &[0.01, 0.04]), &["taxi"]);
    let mut set =
        CrowdSet::new(PosingConfig { mesh_lod: Some(MeshLod::default()), ..PosingConfig::default() }).expect("valid");
    set.set_model(PropModel::new(ModelId(0), model), Animates::default()).expect("binds");
    // Near and far, own materials and taxi, in turn; x says which.
    let placed: [(f32, bool); 5] = [(5.0, true), (40.0, false), (5.0, false), (40.0, true), (6.0, true)];
    for (x, (distance, taxi)) in placed.into_iter().enumerate() {
        let at = Affine3A::from_translation(Vec3::new(x as f32, 0.0, -distance));
        let id = set.add(ModelId(0), at).expect("added");
        set.get_mut(id).expect("there").set_material_variant(taxi.then_some("taxi"));
    }
    let eye = Vec3::new(2.0, 0.0, 0.0);
    set.set_camera(Some(Camera::look_at(eye, eye - Vec3::Z, 0.9, 16.0 / 9.0, (0.1, 10_000.0))));
    set.set_view_height(1080);
    let expected = [
        (0, None, false, vec![2.0]),
        (0, Some(0), false, vec![0.0, 4.0]),
        (1, None, false, vec![1.0]),
        (1, Some(0), false, vec![3.0]),
    ];
    assert_eq!(leveled(&mut set), expected, "finest first; in each level, own materials first");
}

/// Instances whose placements mirror them (a scale of -1 on one axis: a renderer culls their
/// other side) are listed in batches of their own, after the others of their level, by variant;
/// placed unmirrored again, they go back.
#[test]
fn mirrored_placements_are_batched_apart() {
    let (mut set, ids) = set_of(model(&["taxi"]), &[None, Some("taxi"), None]);
    let placed = |x: f32, mirrored: bool| {
        let scale = if mirrored { Vec3::new(-1.0, 1.0, 1.0) } else { Vec3::ONE };
        Affine3A::from_scale_rotation_translation(scale, glam::Quat::IDENTITY, Vec3::X * x)
    };
    set.get_mut(ids[0]).expect("there").set_placement(placed(0.0, true));
    set.get_mut(ids[1]).expect("there").set_placement(placed(1.0, true));
    let expected = [(0, None, false, vec![2.0]), (0, None, true, vec![0.0]), (0, Some(0), true, vec![1.0])];
    assert_eq!(leveled(&mut set), expected);
    set.get_mut(ids[0]).expect("there").set_placement(placed(0.0, false));
    assert_eq!(leveled(&mut set), [(0, None, false, vec![0.0, 2.0]), (0, Some(0), true, vec![1.0])]);
    // A new instance placed mirrored from the start.
    set.add(ModelId(0), placed(3.0, true)).expect("added");
    assert_eq!(leveled(&mut set)[1], (0, None, true, vec![3.0]));
}
