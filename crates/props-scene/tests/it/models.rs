//! Construction errors: missing nodes and clips, out-of-range configuration.

use std::sync::Arc;

use props_crowd::{BindError, CrowdError, PosingConfig, PropModel};
use props_frame::ModelId;
use props_scene::kinds::windmills::Windmills;
use props_scene::{Scene, SceneConfig, SceneError};

use crate::support::{Models, models, no_buses, windmill_state};

#[test]
fn a_model_lacking_a_driven_node_or_clip_is_refused_by_name() {
    let car = || PropModel::new(ModelId(9), Arc::new(props_scene::kinds::cars::stand_in().expect("car")));
    let config = no_buses();
    let cases = [
        (
            Models { windmill: car(), ..models() },
            SceneError::Bind { model: "windmill", error: BindError::MissingNode("nacelle".into()) },
        ),
        (
            Models { traffic_light: car(), ..models() },
            SceneError::Bind { model: "traffic light", error: BindError::MissingClip("green".into()) },
        ),
        (
            Models { fox: car(), ..models() },
            SceneError::Bind { model: "animal", error: BindError::MissingClip("Walk".into()) },
        ),
    ];
    for (models, expected) in cases {
        let error = Scene::new(config.clone(), models.town()).err().expect("refused");
        assert_eq!(error, expected);
        assert!(error.to_string().contains("has no"), "{error}");
    }
    let windmill = PropModel::new(ModelId(9), Arc::new(props_scene::kinds::windmills::stand_in().expect("windmill")));
    let error = Scene::new(config.clone(), Models { car: windmill, ..models() }.town()).err().expect("refused");
    // The car's wheels are found by their naming convention, `wheel_*`.
    assert_eq!(error, SceneError::Bind { model: "car", error: BindError::MissingNode("wheel_*".into()) });
}

/// Bindings name what the scene drives: a car whose only bound wheel is the rear left one
/// turns that wheel as it drives and leaves the others at rest; an unknown bound name is
/// refused by name; a fox's gaits can be bound to other clips.
#[test]
fn bound_names_are_what_the_scene_drives() {
    let car = Arc::new(props_scene::kinds::cars::stand_in().expect("car"));
    let bindings = props_crowd::Bindings {
        nodes: [("wheels".to_owned(), vec!["wheel_rear_left".to_owned()])].into(),
        ..props_crowd::Bindings::default()
    };
    let bound = PropModel::new(ModelId(1), Arc::clone(&car)).with_bindings(bindings);
    let config = no_buses().with_count("cars", 1).with_count("windmills", 0).with_count("foxes", 0);
    let mut scene = Scene::new(config.clone(), Models { car: bound, ..models() }.town()).expect("bound");
    for _ in 0..30 {
        scene.step(crate::support::DT);
    }
    let (entity, _) = crate::support::cars(&scene)[0];
    let pose = scene.pose_of(entity).expect("a car");
    let rig = car.rig();
    let turned = |name: &str| {
        let node = rig.find(name).expect("node");
        let rest = rig.rest(node).as_trs().expect("TRS").rotation;
        pose.local_transform(node).rotation.angle_between(rest) > 1e-3
    };
    assert!(turned("wheel_rear_left"), "the bound wheel rolls");
    assert!(!turned("wheel_front_left") && !turned("wheel_rear_right"), "unbound wheels stay at rest");

    let unknown = props_crowd::Bindings {
        nodes: [("steer".to_owned(), vec!["steer_front_left".to_owned(), "axle".to_owned()])].into(),
        ..props_crowd::Bindings::default()
    };
    let refused = PropModel::new(ModelId(1), Arc::clone(&car)).with_bindings(unknown);
    let error = Scene::new(config.clone(), Models { car: refused, ..models() }.town()).err().expect("refused");
    assert_eq!(error, SceneError::Bind { model: "car", error: BindError::MissingNode("axle".into()) });

    let fox = models().fox;
    let swapped = props_crowd::Bindings {
        clips: [("walk".to_owned(), "Run".to_owned()), ("run".to_owned(), "Walk".to_owned())].into(),
        ..props_crowd::Bindings::default()
    };
    let fox = fox.with_bindings(swapped);
    Scene::new(config.clone(), Models { fox, ..models() }.town()).expect("gaits bound to other clips");
}

#[test]
fn out_of_range_configurations_are_refused() {
    let refused = |config: SceneConfig| Scene::new(config.clone(), models().town()).err().expect("refused");
    assert!(matches!(
        refused(SceneConfig { grid: Some(1), ..no_buses() }),
        SceneError::InvalidConfig { field: "grid", .. }
    ));
    assert!(matches!(
        refused(no_buses().with_count("windmills", props_scene::kinds::windmills::MAX_WINDMILLS + 1)),
        SceneError::TooMany { kind: "windmills", .. }
    ));
    let crowded = SceneConfig { grid: Some(3), ..no_buses() }.with_count("cars", 5000);
    assert!(matches!(refused(crowded), SceneError::TooManyVehicles { .. }));
    assert!(matches!(refused(no_buses().with_count("cars", 10_000_000)), SceneError::TooManyVehicles { .. }));
    assert!(matches!(
        refused(no_buses().with_count("foxes", props_scene::kinds::foxes::MAX_FOXES + 1)),
        SceneError::TooMany { kind: "foxes", .. }
    ));
    let no_budget = SceneConfig {
        posing: PosingConfig { animation_budget_ms: Some(0.0), ..PosingConfig::default() },
        ..no_buses()
    };
    assert!(matches!(
        refused(no_budget),
        SceneError::Posing(CrowdError::InvalidConfig { field: "animation_budget_ms", .. })
    ));
    let mut nan_wind = no_buses();
    nan_wind.wind.mean_speed = f32::NAN;
    assert!(matches!(refused(nan_wind), SceneError::InvalidConfig { field: "wind", .. }));
}

#[test]
fn models_can_be_replaced() {
    let config = no_buses().with_count("windmills", 10);
    let mut scene = Scene::new(config.clone(), models().town()).expect("scene");
    let replaced = Models { windmill: models().windmill.with_scale(2.0), ..models() };
    scene.set_models_of(replaced.sets()).expect("same names");
    let bad = Models { fox: models().car, ..models() };
    assert!(scene.set_models_of(bad.sets()).is_err());
    scene.step(1.0 / 60.0);
    let mut frame = props_frame::FrameData::default();
    crate::support::draw(&mut scene, &mut frame);
    assert_eq!(frame.batches.len(), 7, "one batch per model with props (no buses)");
}

#[test]
fn the_town_grows_with_the_cars() {
    let small = crate::support::scene(no_buses().with_count("cars", 40));
    let big =
        crate::support::scene(no_buses().with_count("cars", 4000).with_count("windmills", 0).with_count("foxes", 0));
    assert_eq!(small.roads().intersections().len(), 9, "the default town is 3 x 3");
    let lanes = |scene: &Scene| scene.roads().road_lanes().len();
    assert!(lanes(&big) > 10 * lanes(&small));
    assert_eq!(big.count("cars"), 4000);
    // The cars take at most half the room the spawn spacing gives.
    let sized =
        SceneConfig { grid: Some(big.roads().intersections().len().isqrt()), ..no_buses() }.with_count("cars", 2000);
    assert!(Scene::new(sized, models().town()).is_ok());
}

/// The first prop of a model is where the scene placed it; a model without props has none.
#[test]
fn the_first_prop_of_a_model_can_be_found() {
    let mut scene =
        crate::support::scene(no_buses().with_count("cars", 3).with_count("windmills", 0).with_count("foxes", 0));
    scene.step(crate::support::DT);
    let (first, _) = crate::support::cars(&scene).into_iter().min_by_key(|(e, _)| e.id()).expect("cars");
    let car_id = models().car.id;
    let at = scene.first_prop_of(car_id).expect("a car");
    let placed = scene.placement_of(first).expect("placed").translation;
    assert!((at - glam::Vec3::from(placed)).length() < 1e-4, "{at} vs {placed}");
    assert_eq!(scene.first_prop_of(models().windmill.id), None, "no windmills");
}

/// Car models coexist: each car shows one of them, picked from the seed (the same seed picks
/// the same way), every model's cars are drawn as its own batch, and when the models change
/// every car keeps driving where it was, in one of the new models.
#[test]
fn car_models_coexist_and_each_car_keeps_its_pick() {
    let second = PropModel::new(ModelId(7), Arc::new(props_scene::kinds::cars::stand_in().expect("car")));
    let two = Models { extra_cars: vec![second], ..models() };
    let config =
        SceneConfig { seed: 5, ..no_buses() }.with_count("cars", 60).with_count("windmills", 0).with_count("foxes", 0);
    let ids_of = |scene: &Scene| -> Vec<u32> {
        crate::support::cars(scene).iter().map(|(e, _)| scene.model_of(*e).expect("a prop").0).collect()
    };
    let mut scene = Scene::new(config.clone(), two.clone().town()).expect("two car models");
    let picks = ids_of(&scene);
    let second_count = picks.iter().filter(|&&id| id == 7).count();
    assert!((15..=45).contains(&second_count), "{second_count} of 60 cars show the second model");
    assert_eq!(ids_of(&Scene::new(config.clone(), two.clone().town()).expect("again")), picks, "seeded");
    let other_seed = Scene::new(SceneConfig { seed: 6, ..config.clone() }, two.town()).expect("other seed");
    assert_ne!(ids_of(&other_seed), picks, "another seed picks otherwise");

    let mut frame = props_frame::FrameData::default();
    crate::support::draw(&mut scene, &mut frame);
    let batch_ids: Vec<u32> = frame.batches.iter().map(|b| b.model.0).collect();
    assert!(batch_ids.contains(&1) && batch_ids.contains(&7), "{batch_ids:?}");
    assert_eq!(scene.count("cars"), 60);

    for _ in 0..20 {
        scene.step(crate::support::DT);
    }
    let before: Vec<_> =
        crate::support::cars(&scene).iter().map(|(e, _)| scene.placement_of(*e).expect("placed")).collect();
    scene.set_models_of(models().sets()).expect("back to one car model");
    let after: Vec<_> =
        crate::support::cars(&scene).iter().map(|(e, _)| scene.placement_of(*e).expect("placed")).collect();
    assert_eq!(before, after, "every car stays where it was");
    assert!(ids_of(&scene).iter().all(|&id| id == 1), "every car shows the one model left");
}

/// Windmill and animal models coexist as the cars' do: each windmill and fox shows one of its
/// kind's models, seeded; new models (all kinds at once) keep every prop where it was, and a
/// refused set changes nothing. Windmills are still removed newest first whatever they show.
#[test]
fn windmill_and_animal_models_coexist_and_are_picked_again() {
    let windmill_b = PropModel::new(ModelId(8), Arc::new(props_scene::kinds::windmills::stand_in().expect("windmill")));
    let fox_b = PropModel::new(ModelId(9), Arc::new(props_scene::kinds::foxes::stand_in().expect("fox")));
    let config = SceneConfig { seed: 3, ..no_buses() }
        .with_count("cars", 0)
        .with_count("windmills", 200)
        .with_count("foxes", 40);
    let mut scene = Scene::new(config.clone(), models().town()).expect("scene");
    let m = models();
    let shown = |scene: &Scene, id: u32| {
        scene.crowds().filter(|(p, _, _)| p.id.0 == id).map(|(_, _, c)| c.len()).sum::<usize>()
    };
    let where_all = |scene: &Scene| -> Vec<glam::Affine3A> {
        scene.world().iter().filter_map(|e| scene.placement_of(e.entity())).collect()
    };
    let moving = |scene: &Scene| -> Vec<props_scene::kinds::windmills::WindmillState> {
        scene.world().iter().filter_map(|e| windmill_state(scene, e.entity())).collect()
    };
    for _ in 0..60 {
        scene.step(crate::support::DT);
    }
    let (before, turning) = (where_all(&scene), moving(&scene));
    assert!(turning.len() == 200 && turning.iter().all(|m| m.rotor_speed > 0.0), "the rotors have spun up");
    scene
        .set_models_of([("windmills", vec![m.windmill.clone(), windmill_b]), ("foxes", vec![m.fox.clone(), fox_b])])
        .expect("two of each");
    assert_eq!(where_all(&scene), before, "every prop stays where it was");
    assert_eq!(moving(&scene), turning, "every windmill turns on as it did");
    let (mills, foxes) = (shown(&scene, 8), shown(&scene, 9));
    assert!(
        (50..=150).contains(&mills) && (8..=32).contains(&foxes),
        "{mills} windmills, {foxes} foxes picked the new models"
    );
    assert_eq!(shown(&scene, m.windmill.id.0) + mills, 200);
    // A refused set (a car is no animal) leaves both kinds as they are.
    let refused = scene.set_models_of([("windmills", vec![m.windmill.clone()]), ("foxes", vec![m.car.clone()])]);
    assert!(refused.is_err());
    assert_eq!(shown(&scene, 8), mills, "the windmills kept their models too");
    for _ in 0..120 {
        scene.step(crate::support::DT);
    }
    let mut frame = props_frame::FrameData::default();
    crate::support::draw(&mut scene, &mut frame);
    assert_eq!(frame.instances.len(), scene.instance_count());
    let removed = scene.with_kind(|mills: &mut Windmills, world, _, props| mills.remove(world, props, 150));
    assert_eq!(removed, Some(150));
    assert_eq!(scene.count("windmills"), 50);
    let left = scene.world().query::<&props_scene::kinds::windmills::Windmill>().iter().map(|m| m.index()).max();
    assert_eq!(left, Some(49), "the newest went first");
    // The same seed picks the same way.
    let mut again = Scene::new(config.clone(), models().town()).expect("scene");
    let m2 = models();
    again
        .set_models_of([
            (
                "windmills",
                vec![
                    m2.windmill.clone(),
                    PropModel::new(ModelId(8), Arc::new(props_scene::kinds::windmills::stand_in().expect("w"))),
                ],
            ),
            (
                "foxes",
                vec![
                    m2.fox.clone(),
                    PropModel::new(ModelId(9), Arc::new(props_scene::kinds::foxes::stand_in().expect("f"))),
                ],
            ),
        ])
        .expect("two of each");
    assert_eq!((shown(&again, 8), shown(&again, 9)), (mills, foxes), "seeded");
}

/// The stand-in car with material variants `taxi` and `police` (a modder's liveries), bound
/// by `bindings`.
fn car_with_liveries(bindings: props_crowd::Bindings) -> PropModel {
    let stand_in = props_scene::kinds::cars::stand_in().expect("car");
    let painted = |material| props_anim::material::VariantMaterial { mesh: 0, primitive: 0, material };
    let variants = ["taxi", "police"]
        .map(|name| props_anim::material::MaterialVariant { name: name.to_owned(), materials: vec![painted(0)] });
    // The stand-in with a material for its liveries to name.
    let parts = props_anim::ModelParts {
        rig: Some(stand_in.rig().clone()),
        skins: stand_in.skins().to_vec(),
        clips: stand_in.clips().to_vec(),
        meshes: stand_in.meshes().to_vec(),
        instances: stand_in.instances().to_vec(),
        materials: vec![props_anim::material::Material::default()],
        ..props_anim::ModelParts::default()
    };
    let car = props_anim::Model::new(parts).and_then(|car| car.with_material_variants(variants.to_vec()));
    let car = car.expect("valid variants");
    PropModel { bindings, ..PropModel::new(ModelId(1), Arc::new(car)) }
}

/// A town of 60 cars of `car`.
fn sixty_cars(car: PropModel) -> Scene {
    let config = no_buses().with_count("cars", 60).with_count("windmills", 0).with_count("foxes", 0);
    Scene::new(config, Models { car, ..models() }.town()).expect("bound")
}

/// How many of the town's cars show their own materials, `taxi` and `police`.
fn liveries_shown(scene: &mut Scene) -> [usize; 3] {
    let mut frame = props_frame::FrameData::default();
    scene.animate(&mut frame);
    scene.extract(&mut frame);
    let cars = frame.batches.iter().filter(|b| b.model == ModelId(1));
    let mut counts = [0; 3];
    for batch in cars {
        counts[batch.material_variant.map_or(0, |v| usize::from(v) + 1)] += batch.instances.len();
    }
    counts
}

/// A car model with material variants (a modder's liveries): the town's cars show its own
/// materials and each variant, spread among them, each car in its own as it drives.
#[test]
fn cars_show_every_material_variant_of_their_model() {
    let mut scene = sixty_cars(car_with_liveries(props_crowd::Bindings::default()));
    let before = liveries_shown(&mut scene);
    assert_eq!(before.iter().sum::<usize>(), 60, "every car: {before:?}");
    assert!(before.iter().all(|&n| n >= 10), "own materials, taxi and police each on some cars: {before:?}");
    for _ in 0..30 {
        scene.step(crate::support::DT);
    }
    assert_eq!(liveries_shown(&mut scene), before, "each car keeps its livery as it drives");
}

/// A sidecar's `material_variants` line (the model's bindings) says which liveries the cars
/// wear, each as often as it is listed.
#[test]
fn cars_wear_the_material_variants_their_bindings_list() {
    let bindings = |names: &[&str]| props_crowd::Bindings {
        material_variants: names.iter().map(|&n| n.to_owned()).collect(),
        ..props_crowd::Bindings::default()
    };
    let police = liveries_shown(&mut sixty_cars(car_with_liveries(bindings(&["police"]))));
    assert_eq!(police, [0, 0, 60], "every car a police car");
    let mostly_taxis = liveries_shown(&mut sixty_cars(car_with_liveries(bindings(&["taxi", "taxi", "police"]))));
    assert_eq!(mostly_taxis[0], 0, "none in its own materials: {mostly_taxis:?}");
    assert!(mostly_taxis[1] > mostly_taxis[2] && mostly_taxis[2] >= 10, "twice as many taxis: {mostly_taxis:?}");
}

/// A model replaced by one drawn at another scale (a mod's units, or its size fitted to the
/// kind's) takes the props placed once with the old one's: the windmills stand twice as tall.
#[test]
fn a_replaced_model_s_scale_takes_the_props_placed_before() {
    let mut scene = Scene::new(no_buses().with_count("windmills", 10), models().town()).expect("scene");
    let scales = |scene: &Scene| -> Vec<f32> {
        let windmill = models().windmill.id;
        let entities: Vec<hecs::Entity> = scene.world().iter().map(|e| e.entity()).collect();
        let mills = entities.into_iter().filter(|&e| scene.model_of(e) == Some(windmill));
        mills.map(|e| scene.placement_of(e).expect("placed").matrix3.y_axis.length()).collect()
    };
    let before = scales(&scene);
    assert_eq!(before.len(), 10);
    let replaced = Models { windmill: models().windmill.with_scale(2.0), ..models() };
    scene.set_models_of(replaced.sets()).expect("same names");
    let after = scales(&scene);
    assert_eq!(after.len(), 10);
    for (was, now) in before.iter().zip(&after) {
        assert!((now / was - 2.0).abs() < 1e-5, "{was} -> {now}");
    }
}
