//! The scene without the town: a host's own instances in a `CrowdSet`, placed, animated,
//! removed and picked by id, posed by the same runtime as the scene's kinds.

use std::collections::HashMap;
use std::sync::Arc;

use crate::extract::vertex_error;
use glam::{Affine3A, Quat, Vec3};
use props_anim::{JointMatrix, Layer, Model};
use props_crowd::{Animates, BindError, CrowdSet, InstanceId, PosingConfig, PropModel};
use props_frame::{FrameData, ModelId};

const WINDMILL: ModelId = ModelId(3);
const FOX: ModelId = ModelId(7);

/// A set of windmills (the clip `spin`, the nacelle driven about Y) and foxes (`Walk`, `Run`),
/// every pose exact.
fn set() -> (CrowdSet, Arc<Model>, Arc<Model>) {
    let mut set = CrowdSet::new(PosingConfig { sharing: None, ..PosingConfig::default() }).expect("a set");
    let windmill = Arc::new(props_scene::kinds::windmills::stand_in().expect("windmill"));
    let fox = Arc::new(props_scene::kinds::foxes::stand_in().expect("fox"));
    let turning = Animates::default().clips(["spin"]).driver(["nacelle"], Vec3::Y);
    set.set_model(PropModel::new(WINDMILL, Arc::clone(&windmill)), turning).expect("rigged");
    let walking = Animates::default().clips(["Walk", "Run"]).layers(2);
    set.set_model(PropModel::new(FOX, Arc::clone(&fox)).with_scale(0.01), walking).expect("rigged");
    (set, windmill, fox)
}

fn at(x: f32, yaw: f32) -> Affine3A {
    Affine3A::from_rotation_translation(Quat::from_rotation_y(yaw), Vec3::new(x, 0.0, 0.0))
}

/// The fox (in centimetres) at `x`, in metres.
fn small_at(x: f32) -> Affine3A {
    Affine3A::from_scale_rotation_translation(Vec3::splat(0.01), Quat::IDENTITY, Vec3::new(x, 0.0, 0.0))
}

/// Adds `n` windmills along +X, each turned and playing `spin` at its own time.
fn windmills(set: &mut CrowdSet, n: usize) -> Vec<InstanceId> {
    (0..n)
        .map(|k| {
            let id = set.add(WINDMILL, at(40.0 * k as f32, 0.1 * k as f32)).expect("a windmill model");
            let mut windmill = set.get_mut(id).expect("just added");
            assert!(windmill.set_layer(0, Layer::once(0, 0.37 * k as f32)));
            windmill.drivers_mut()[0] = 0.5 * k as f32;
            id
        })
        .collect()
}

/// Poses and extracts the set; checks that every instance drawn has the palette the general
/// `Pose` path gives its exact state (up to the fast path's rounding), and that the drawn instances are exactly `expected`.
fn check_frame(set: &mut CrowdSet, expected: &[InstanceId]) {
    let mut frame = FrameData::default();
    set.animate(&mut frame);
    set.extract(&mut frame);
    let key = |a: Affine3A| JointMatrix::from_affine(&a).to_array().map(f32::to_bits);
    let by_placement: HashMap<_, _> = expected.iter().map(|&id| (key(set.placement(id).expect("live")), id)).collect();
    assert_eq!(frame.instances.len(), expected.len(), "one instance per live prop");
    for batch in &frame.batches {
        let model = set.models().find(|m| m.id == batch.model).expect("a model of the set").model.clone();
        let len = model.palette_len();
        for instance in &frame.instances[batch.instances.start as usize..batch.instances.end as usize] {
            let id = by_placement[&instance.transform.to_array().map(f32::to_bits)];
            assert_eq!(set.model_of(id), Some(batch.model));
            let mut reference = vec![JointMatrix::IDENTITY; len];
            model.write_palettes(&set.pose_of(id).expect("live"), &mut reference);
            let start = instance.palette_base as usize;
            let error = vertex_error(&model, &frame.palettes[start..start + len], &reference);
            assert!(error <= 1e-5, "{id:?} is {error} of its model's size off its pose");
        }
    }
}

#[test]
fn instances_pose_as_the_pose_path_and_removing_one_leaves_the_others_as_they_were() {
    let (mut set, _, _) = set();
    let mut ids = windmills(&mut set, 5);
    let fox = set.add(FOX, small_at(-10.0)).expect("a fox model");
    let walk = set.model(FOX).and_then(|fox| fox.clip("Run")).expect("Run is played").number;
    let mut running = set.get_mut(fox).expect("live");
    assert!(running.set_layer(1, Layer { weight: 0.5, ..Layer::once(walk, 0.2) }));
    assert!(!running.set_layer(1, Layer::once(2, 0.0)), "the fox plays two clips: no clip 2");
    assert!(!running.set_layer(2, Layer::once(0, 0.0)), "and has two layers: no layer 2");
    ids.push(fox);
    check_frame(&mut set, &ids);

    // The last windmill moves into the removed one's place; its id still finds it.
    let (last, state) = (ids[4], set.drivers(ids[4]).expect("live").to_vec());
    assert!(set.remove(ids[1]));
    assert_eq!(set.drivers(last), Some(&state[..]), "the moved instance keeps its state");
    assert!(!set.remove(ids[1]) && set.get_mut(ids[1]).is_none(), "a removed id is stale");
    let removed = ids.remove(1);
    check_frame(&mut set, &ids);

    // Its slot is taken again under another id.
    let again = set.add(WINDMILL, at(500.0, 0.0)).expect("a windmill model");
    assert_ne!(again, removed);
    assert!(set.placement(removed).is_none());
    ids.push(again);
    check_frame(&mut set, &ids);
    assert_eq!(set.len(), ids.len());
}

#[test]
fn a_new_version_keeps_every_instance_and_one_missing_a_clip_changes_nothing() {
    let (mut set, windmill, fox) = set();
    let ids = windmills(&mut set, 3);
    let states: Vec<Vec<f32>> = ids.iter().map(|&id| set.drivers(id).expect("live").to_vec()).collect();

    // The fox has no `spin`: refused, and the windmills stay as they were.
    let turning = Animates::default().clips(["spin"]).driver(["nacelle"], Vec3::Y);
    let refused = set.set_model(PropModel::new(WINDMILL, fox), turning.clone());
    assert_eq!(refused, Err(BindError::MissingClip("spin".to_owned())));
    assert!(Arc::ptr_eq(&set.models().next().expect("the windmill").model, &windmill));

    // Another version with the names: every instance keeps its id and state.
    let version = Arc::new(props_scene::kinds::windmills::stand_in().expect("windmill"));
    set.set_model(PropModel::new(WINDMILL, Arc::clone(&version)), turning).expect("rigged");
    assert!(Arc::ptr_eq(&set.models().next().expect("the windmill").model, &version));
    for (id, state) in ids.iter().zip(&states) {
        assert_eq!(set.drivers(*id), Some(&state[..]));
    }
    check_frame(&mut set, &ids);
}

#[test]
fn removing_a_model_removes_its_instances_and_keeps_the_others() {
    let (mut set, _, _) = set();
    let fox = set.add(FOX, small_at(-10.0)).expect("a fox model");
    let later = Arc::new(props_scene::kinds::cars::stand_in().expect("car"));
    set.set_model(PropModel::new(ModelId(9), later), Animates::default()).expect("rigged");
    let car = set.add(ModelId(9), at(-30.0, 0.0)).expect("a car model");
    assert_eq!(set.remove_model(FOX), Some(1));
    assert!(set.placement(fox).is_none(), "the fox's instance went with it");
    assert_eq!(set.remove_model(FOX), None);
    assert!(set.add(FOX, Affine3A::IDENTITY).is_none(), "no such model any more");
    assert_eq!(set.model_of(car), Some(ModelId(9)), "the car, added after, is still found");
    check_frame(&mut set, &[car]);
}

#[test]
fn a_ray_picks_the_nearest_instance_it_meets() {
    let (mut set, _, _) = set();
    let ids = windmills(&mut set, 3);
    let (origin, along_x) = (Vec3::new(-100.0, 14.0, 0.0), Vec3::X);
    assert_eq!(set.pick(origin, along_x), Some(ids[0]));
    assert!(set.remove(ids[0]));
    assert_eq!(set.pick(origin, along_x), Some(ids[1]));
    assert_eq!(set.pick(origin, -along_x), None, "nothing behind the origin");
}

#[test]
fn material_values_set_per_instance_reach_its_palette_and_are_shared_only_when_equal() {
    use props_anim::property::MaterialField;
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    let light = Arc::new(props_scene::kinds::traffic_lights::stand_in().expect("traffic light"));
    let animates = Animates::default().clips(["red"]).material_value("lamp_green", MaterialField::Emissive);
    set.set_model(PropModel::new(ModelId(1), Arc::clone(&light)), animates).expect("rigged");
    let missing = Animates::default().material_value("lamp_blue", MaterialField::Emissive);
    let refused = set.set_model(PropModel::new(ModelId(2), Arc::clone(&light)), missing);
    assert_eq!(refused, Err(BindError::NotAnimated("lamp_blue".to_owned())));

    // Three lights showing red; the host lights the green lamp of the second as well, at half.
    let ids: Vec<InstanceId> = (0..3).map(|k| set.add(ModelId(1), at(10.0 * k as f32, 0.0)).expect("added")).collect();
    for &id in &ids {
        assert!(set.get_mut(id).expect("live").set_layer(0, Layer::once(0, 0.0)));
    }
    set.get_mut(ids[1]).expect("live").values_mut().copy_from_slice(&[0.05, 0.5, 0.15]);
    let mut frame = FrameData::default();
    set.animate(&mut frame);
    set.extract(&mut frame);
    let base = |id: InstanceId| {
        let placement = JointMatrix::from_affine(&set.placement(id).expect("live"));
        frame.instances.iter().find(|i| i.transform == placement).expect("drawn").palette_base as usize
    };
    assert_eq!(base(ids[0]), base(ids[2]), "equal states share one palette");
    assert_ne!(base(ids[0]), base(ids[1]), "the one with its own value does not");
    // Each palette's values (after the matrices) are the general path's for its state.
    let len = light.palette_len();
    for &id in &ids {
        let mut reference = vec![JointMatrix::IDENTITY; len];
        light.write_palettes(&set.pose_of(id).expect("live"), &mut reference);
        let got = &frame.palettes[base(id)..base(id) + len];
        assert_eq!(&got[light.weight_slot()..], &reference[light.weight_slot()..], "{id:?}'s values");
    }
    let lit = set.pose_of(ids[1]).expect("live");
    let green = props_anim::property::PropertyId(2);
    assert_eq!(lit.property(green), &[0.05, 0.5, 0.15], "the green lamp's emissive as set");
}
