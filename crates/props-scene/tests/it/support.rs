//! Shared helpers: scenes on synthetic models, snapshots of the cars, the overlap check.

use hecs::Entity;
use props_frame::FrameData;
use props_scene::{Car, LaneId, Scene, SceneConfig, SceneModels, synthetic};

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

/// Asserts that no two cars overlap: in every lane, consecutive cars are at least a car length
/// apart (centre to centre), and so are a lane's front car and the rearmost car of the lane it
/// drives into next.
pub fn assert_no_overlap(scene: &Scene, step: usize) {
    let length = scene.config().driving.car_length;
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
            assert!(gap >= length, "step {step}: lane {index}: cars {gap} m apart, less than a car length");
        }
        if let Some(front) = lane.last()
            && let Some(ahead) = lanes[front.next_lane().index()].first()
        {
            let gap = roads.lane(LaneId(index as u32)).length() - front.position() + ahead.position();
            assert!(gap >= length, "step {step}: lane {index} into {:?}: cars {gap} m apart", front.next_lane());
        }
    }
}
