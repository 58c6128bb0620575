//! Shared helpers: scenes on synthetic models, snapshots of the cars, the overlap check.

use std::sync::Arc;

use hecs::Entity;
use props_crowd::{PosingConfig, PropModel};
use props_frame::{FrameData, ModelId};
use props_scene::kinds::cars::Cars;
use props_scene::kinds::windmills::{WindmillState, Windmills};
use props_scene::{
    KindWithModels, Scene, SceneConfig, SceneError, kinds, synthetic,
    town::{roads::LaneId, traffic::Vehicle},
};

/// The fixed step the game uses.
pub const DT: f32 = 1.0 / 60.0;

/// The models of the town's kinds, by kind, to swap one in a test.
#[derive(Clone, Debug)]
pub struct Models {
    pub windmill: PropModel,
    pub car: PropModel,
    /// More car models: cars pick among `car` and these.
    pub extra_cars: Vec<PropModel>,
    pub traffic_light: PropModel,
    pub fox: PropModel,
    pub bus: PropModel,
}

impl Models {
    /// The town's kinds, each with its models here (by its asset's stem), or its synthetic
    /// stand-in (a kind the tests do not swap models of).
    pub fn town(&self) -> Vec<KindWithModels> {
        kinds::town()
            .into_iter()
            .enumerate()
            .map(|(number, kind)| {
                let models = match kind.asset().stem {
                    Some("windmill") => vec![self.windmill.clone()],
                    Some("car") => std::iter::once(self.car.clone()).chain(self.extra_cars.iter().cloned()).collect(),
                    Some("traffic_light") => vec![self.traffic_light.clone()],
                    Some("Fox") => vec![self.fox.clone()],
                    Some("bus") => vec![self.bus.clone()],
                    _ => synthetic::model_for(&*kind, ModelId(number as u32))
                        .expect("synthetic models build")
                        .into_iter()
                        .collect(),
                };
                (kind, models)
            })
            .collect()
    }

    /// The models here by kind name, to hand a scene of the town's kinds.
    pub fn sets(&self) -> Vec<(&'static str, Vec<PropModel>)> {
        self.town().into_iter().map(|(kind, models)| (kind.name(), models)).collect()
    }
}

/// The synthetic models, renderer ids 0 (windmill), 1 (car), 2 (traffic light), 3 (fox) and
/// 4 (bus).
pub fn models() -> Models {
    let prop = |id, model: Result<props_anim::Model, synthetic::SyntheticError>| {
        PropModel::new(ModelId(id), Arc::new(model.expect("synthetic models build")))
    };
    Models {
        windmill: prop(0, kinds::windmills::stand_in()),
        car: prop(1, kinds::cars::stand_in()),
        extra_cars: Vec::new(),
        traffic_light: prop(2, kinds::traffic_lights::stand_in()),
        fox: prop(3, kinds::foxes::stand_in()),
        bus: prop(4, kinds::buses::stand_in()),
    }
}

/// A scene on the synthetic models (no buses unless `config` counts some).
pub fn scene(mut config: SceneConfig) -> Scene {
    config.counts.entry("buses".to_owned()).or_insert(0);
    Scene::new(config.clone(), models().town()).expect("scene builds")
}

/// The synthetic bus, renderer id 4.
pub fn bus_model() -> PropModel {
    models().bus
}

/// A scene on the synthetic models with `buses` buses.
pub fn scene_with_buses(config: SceneConfig, buses: usize) -> Scene {
    scene(config.with_count("buses", buses))
}

/// Adds a car through the cars kind (see `Cars::spawn_at`).
pub fn spawn_car(scene: &mut Scene, lane: LaneId, position: f32, speed: f32) -> Result<Entity, SceneError> {
    scene
        .with_kind(|cars: &mut Cars, world, town, props| cars.spawn_at(world, town, props, lane, position, speed))
        .expect("the town has cars")
}

/// How the windmill `entity` moves now.
pub fn windmill_state(scene: &Scene, entity: Entity) -> Option<WindmillState> {
    let (mills, props) = scene.kind_and_props::<Windmills>()?;
    mills.state_of(scene.world(), props, entity)
}

/// Windmills standing.
pub fn windmill_count(scene: &Scene) -> usize {
    scene.kind::<Windmills>().map_or(0, Windmills::len)
}

/// One frame of `scene` into `frame`: posed and extracted, as the game draws it.
pub fn draw(scene: &mut Scene, frame: &mut FrameData) {
    frame.clear();
    scene.animate(frame);
    scene.extract(frame);
}

/// A configuration with only cars (no windmills, foxes or people), for traffic tests.
pub fn traffic_only(cars: usize, seed: u64) -> SceneConfig {
    SceneConfig { seed, ..SceneConfig::default() }
        .with_count("cars", cars)
        .with_count("windmills", 0)
        .with_count("foxes", 0)
        .with_count("pedestrians", 0)
}

/// Every car, in world order.
pub fn cars(scene: &Scene) -> Vec<(Entity, Vehicle)> {
    scene.world().query::<(Entity, &Vehicle)>().iter().map(|(e, c)| (e, *c)).collect()
}

/// One car's state.
pub fn car(scene: &Scene, entity: Entity) -> Vehicle {
    *scene.world().get::<&Vehicle>(entity).expect("car exists")
}

/// Asserts that no two vehicles overlap: in every lane, consecutive vehicles are at least half
/// their lengths apart (centre to centre), and so are a lane's front vehicle and the rearmost
/// one of the lane it drives into next.
pub fn assert_no_overlap(scene: &Scene, step: usize) {
    let apart = |a: &Vehicle, b: &Vehicle| (a.length() + b.length()) * 0.5;
    let roads = scene.roads();
    let mut lanes: Vec<Vec<Vehicle>> = vec![Vec::new(); roads.lanes().len()];
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

/// `config` posed on `threads` threads.
pub fn with_threads(config: SceneConfig, threads: usize) -> SceneConfig {
    SceneConfig { posing: PosingConfig { threads, ..config.posing }, ..config }
}

/// `config` with every pose exact (no sharing).
pub fn exact(config: SceneConfig) -> SceneConfig {
    SceneConfig { posing: PosingConfig { sharing: None, ..config.posing }, ..config }
}

/// The town's default configuration without buses (a kind counted by default), for a scene
/// built directly.
pub fn no_buses() -> SceneConfig {
    SceneConfig::default().with_count("buses", 0)
}
