//! Construction errors: missing nodes and clips, out-of-range configuration.

use std::sync::Arc;

use props_frame::ModelId;
use props_scene::{PropModel, Scene, SceneConfig, SceneError, synthetic};

use crate::support::models;

#[test]
fn a_model_lacking_a_driven_node_or_clip_is_refused_by_name() {
    let car = || PropModel::new(ModelId(9), Arc::new(synthetic::car().expect("car")));
    let config = SceneConfig::default();
    let cases = [
        (
            props_scene::SceneModels { windmill: car(), ..models() },
            SceneError::MissingNode { model: "windmill", node: "nacelle" },
        ),
        (
            props_scene::SceneModels { traffic_light: car(), ..models() },
            SceneError::MissingClip { model: "traffic light", clip: "green" },
        ),
        (props_scene::SceneModels { fox: car(), ..models() }, SceneError::MissingClip { model: "fox", clip: "Walk" }),
    ];
    for (models, expected) in cases {
        let error = Scene::new(config, models).err().expect("refused");
        assert_eq!(error, expected);
        assert!(error.to_string().contains("has no"), "{error}");
    }
    let windmill = PropModel::new(ModelId(9), Arc::new(synthetic::windmill().expect("windmill")));
    let error = Scene::new(config, props_scene::SceneModels { car: windmill, ..models() }).err().expect("refused");
    assert_eq!(error, SceneError::MissingNode { model: "car", node: "steer_front_left" });
}

#[test]
fn out_of_range_configurations_are_refused() {
    let refused = |config: SceneConfig| Scene::new(config, models()).err().expect("refused");
    assert!(matches!(
        refused(SceneConfig { grid: Some(1), ..SceneConfig::default() }),
        SceneError::InvalidConfig { field: "grid", .. }
    ));
    assert!(matches!(
        refused(SceneConfig { windmills: props_scene::MAX_WINDMILLS + 1, ..SceneConfig::default() }),
        SceneError::TooManyWindmills { .. }
    ));
    let crowded = SceneConfig { cars: 5000, grid: Some(3), ..SceneConfig::default() };
    assert!(matches!(refused(crowded), SceneError::TooManyCars { .. }));
    assert!(matches!(
        refused(SceneConfig { cars: 10_000_000, ..SceneConfig::default() }),
        SceneError::TooManyCars { .. }
    ));
    assert!(matches!(
        refused(SceneConfig { foxes: props_scene::MAX_FOXES + 1, ..SceneConfig::default() }),
        SceneError::InvalidConfig { field: "foxes", .. }
    ));
    let no_budget = SceneConfig { animation_budget_ms: Some(0.0), ..SceneConfig::default() };
    assert!(matches!(refused(no_budget), SceneError::InvalidConfig { field: "animation_budget_ms", .. }));
    let mut nan_wind = SceneConfig::default();
    nan_wind.wind.mean_speed = f32::NAN;
    assert!(matches!(refused(nan_wind), SceneError::InvalidConfig { field: "wind", .. }));
}

#[test]
fn models_can_be_replaced() {
    let mut scene = Scene::new(SceneConfig { windmills: 10, ..SceneConfig::default() }, models()).expect("scene");
    let replaced = props_scene::SceneModels { windmill: models().windmill.with_scale(2.0), ..models() };
    scene.set_models(replaced).expect("same names");
    let bad = props_scene::SceneModels { fox: models().car, ..models() };
    assert!(scene.set_models(bad).is_err());
    scene.step(1.0 / 60.0);
    let mut frame = props_frame::FrameData::default();
    crate::support::draw(&mut scene, &mut frame);
    assert_eq!(frame.batches.len(), 4);
}

#[test]
fn the_town_grows_with_the_cars() {
    let small = Scene::new(SceneConfig { cars: 40, ..SceneConfig::default() }, models()).expect("scene");
    let big = Scene::new(SceneConfig { cars: 4000, windmills: 0, foxes: 0, ..SceneConfig::default() }, models())
        .expect("the grid grows to hold 4000 cars");
    assert_eq!(small.roads().intersections().len(), 9, "the default town is 3 x 3");
    let lanes = |scene: &Scene| scene.roads().road_lanes().len();
    assert!(lanes(&big) > 10 * lanes(&small));
    assert_eq!(big.counts().cars, 4000);
    // The cars take at most half the room the spawn spacing gives.
    let sized =
        SceneConfig { cars: 2000, grid: Some(big.roads().intersections().len().isqrt()), ..SceneConfig::default() };
    assert!(Scene::new(sized, models()).is_ok());
}
