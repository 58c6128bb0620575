//! Shared helpers: scenes on synthetic models, snapshots of the cars, the overlap check.

use std::sync::Arc;

use hecs::Entity;
use props_frame::{FrameData, ModelId};
use props_scene::{Buses, Car, LaneId, PropModel, Scene, SceneConfig, SceneModels, synthetic};

/// The fixed step the game uses.
pub const DT: f32 = 1.0 / 60.0;

/// The synthetic models.
pub fn models() -> SceneModels {
    synthetic::models().expect("synthetic models build")
}

/// A scene on the synthetic models.
pub fn scene(config: SceneConfig) -> Scene {
    Scene::new(config, models()).expect("scene builds")
}

/// The synthetic bus, renderer id 4.
pub fn bus_model() -> PropModel {
    PropModel::new(ModelId(4), Arc::new(synthetic::bus().expect("the synthetic bus builds")))
}

/// A scene on the synthetic models with `buses` buses registered.
pub fn scene_with_buses(config: SceneConfig, buses: usize) -> Scene {
    let mut scene = scene(config);
    scene.register(Buses::new(buses), vec![bus_model()]).expect("the bus kind registers");
    scene
}

/// One frame of `scene` into `frame`: posed and extracted, as the game draws it.
pub fn draw(scene: &mut Scene, frame: &mut FrameData) {
    frame.clear();
    scene.animate(frame);
    scene.extract(frame);
}

/// A configuration with only cars (no windmills, no foxes), for traffic tests.
pub fn traffic_only(cars: usize, seed: u64) -> SceneConfig {
    SceneConfig { cars, windmills: 0, foxes: 0, seed, ..SceneConfig::default() }
}

/// Every car, in world order.
pub fn cars(scene: &Scene) -> Vec<(Entity, Car)> {
    scene.world().query::<(Entity, &Car)>().iter().map(|(e, c)| (e, *c)).collect()
}

/// One car's state.
pub fn car(scene: &Scene, entity: Entity) -> Car {
    *scene.world().get::<&Car>(entity).expect("car exists")
}

/// Asserts that no two vehicles overlap: in every lane, consecutive vehicles are at least half
/// their lengths apart (centre to centre), and so are a lane's front vehicle and the rearmost
/// one of the lane it drives into next.
pub fn assert_no_overlap(scene: &Scene, step: usize) {
    let apart = |a: &Car, b: &Car| (a.length() + b.length()) * 0.5;
    let roads = scene.roads();
    let mut lanes: Vec<Vec<Car>> = vec![Vec::new(); roads.lanes().len()];
    for (_, car) in cars(scene) {
        lanes[car.lane().index()].push(car);
    }
    for lane in &mut lanes {
        lane.sort_by(|a, b| a.position().total_cmp(&b.position()));
    }
    for (index, lane) in lanes.iter().enumerate() {
        for pair in lane.windows(2) {
            let gap = pair[1].position() - pair[0].position();
            assert!(gap >= apart(&pair[0], &pair[1]), "step {step}: lane {index}: vehicles {gap} m apart, overlapping");
        }
        if let Some(front) = lane.last()
            && let Some(ahead) = lanes[front.next_lane().index()].first()
        {
            let gap = roads.lane(LaneId(index as u32)).length() - front.position() + ahead.position();
            let next = front.next_lane();
            assert!(gap >= apart(front, ahead), "step {step}: lane {index} into {next:?}: vehicles {gap} m apart");
        }
    }
}
