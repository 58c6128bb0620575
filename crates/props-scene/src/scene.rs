//! [`Scene`]: the town's `hecs` world, its resources, and the fixed order of its systems.

use std::sync::{Arc, Mutex, PoisonError};

use glam::Vec2;
use hecs::{Entity, World};
use props_anim::Pose;

use crate::animals::{self, Fox};
use crate::cars;
use crate::config::{MAX_WINDMILLS, SceneConfig};
use crate::error::SceneError;
use crate::models::{Rigs, SceneModels};
use crate::rng::{Rng, Stream};
use crate::roads::{IntersectionId, LaneId, RoadNetwork};
use crate::shared_windmills::{AngleSteps, SharedWindmills};
use crate::signals::{self, SignalOverride, Signals, TrafficLight};
use crate::terrain::Terrain;
use crate::traffic::{self, Car, TrafficState, TrafficStats};
use crate::viewer::Viewer;
use crate::wind::{self, Layout, Wind, WindField, Windmill};

/// Flat ground beyond the town's outermost boxes (its corners included), metres.
const TOWN_MARGIN: f32 = 15.0;
/// The first ring of windmills stands this far beyond the flat ground, metres.
const HILLS_OFFSET: f32 = 50.0;

/// The demo town: roads, signals, cars, windmills on the hills, foxes in the parks.
///
/// Call [`Scene::step`] with a fixed `dt` (for example 1/60 s; [`crate::FixedStep`] turns real
/// time into a number of steps), then [`Scene::extract`] once per rendered frame. The same
/// configuration, models and sequence of calls give bitwise the same state on the same
/// platform (random choices use a portable integer generator; `f32` sines and exponentials
/// come from the platform's maths library).
pub struct Scene {
    config: SceneConfig,
    pub(crate) rigs: Rigs,
    pub(crate) world: World,
    pub(crate) roads: RoadNetwork,
    signals: Signals,
    traffic: TrafficState,
    wind: WindField,
    terrain: Terrain,
    layout: Layout,
    /// Windmill entities by layout index: removal pops the newest.
    windmills: Vec<Entity>,
    fox_scratch: Pose,
    /// Update-rate LOD's camera; `None`: every prop posed every step.
    viewer: Option<Viewer>,
    /// A windmill pose rebuilt on demand (windmills store two angles, not a pose each; see
    /// [`Scene::pose_of`] and [`Scene::skeleton_lines`]). Behind a mutex so that those can take
    /// `&self`.
    windmill_pose: Mutex<Pose>,
    /// The windmills' shared palettes, when [`SceneConfig::windmill_pose_step`] is set.
    pub(crate) shared_windmills: Option<SharedWindmills>,
    cars_spawned: u64,
    time: f64,
    steps: u64,
}

impl Scene {
    /// Builds the town for `config` with the game's `models`: checks the configuration, looks
    /// up every node and clip the scene drives (see [`SceneModels`]), and spawns every prop in
    /// its first pose, ready to extract.
    pub fn new(config: SceneConfig, models: SceneModels) -> Result<Self, SceneError> {
        config.validate()?;
        let rigs = Rigs::resolve(models)?;
        let d = &config.driving;
        let roads = RoadNetwork::grid(config.grid, config.block, d.speed_limit, d.lateral_acceleration);
        let terrain = Terrain::new(roads.half_extent() * std::f32::consts::SQRT_2 + TOWN_MARGIN, config.seed);
        let layout = Layout {
            inner_radius: terrain.flat_radius() + HILLS_OFFSET,
            spacing: config.windmill_spacing,
            seed: config.seed,
        };
        let mut scene = Self {
            signals: Signals::new(&roads, config.seed),
            wind: WindField::new(&config.wind, config.seed),
            fox_scratch: Pose::from_rest(rigs.fox.prop.model.rig()),
            viewer: None,
            windmill_pose: Mutex::new(Pose::from_rest(rigs.windmill.prop.model.rig())),
            shared_windmills: config.windmill_pose_step.map(|step| SharedWindmills::new(AngleSteps::new(step))),
            traffic: TrafficState::default(),
            world: World::new(),
            windmills: Vec::new(),
            cars_spawned: 0,
            time: 0.0,
            steps: 0,
            config,
            rigs,
            roads,
            terrain,
            layout,
        };
        signals::spawn_lights(&mut scene.world, &scene.roads, &scene.rigs.light);
        let mut rng = Rng::stream(config.seed, Stream::CarSpawn, 0);
        for (lane, position) in traffic::spawn_places(&scene.roads, &config.driving, config.cars, &mut rng)? {
            scene.insert_car(lane, position, 0.0);
        }
        let parks: Vec<Vec2> = scene.roads.block_centres().collect();
        let foxes = (0..config.foxes).map(|i| animals::fox(i, &parks, config.block, config.seed, &scene.rigs.fox));
        scene.world.spawn_batch(foxes);
        scene.add_windmills(config.windmills);
        scene.animate(0.0, false);
        tracing::debug!(
            windmills = config.windmills,
            cars = config.cars,
            foxes = config.foxes,
            lanes = scene.roads.lanes().len(),
            "scene built"
        );
        Ok(scene)
    }

    /// Advances the simulation by `dt` seconds and re-poses every prop.
    ///
    /// `dt` is meant to be fixed (the simulation is tuned and tested at 1/60 s); the scene has
    /// no clock or accumulator of its own. Systems run in this order: traffic observation
    /// (lane occupancy), signals, car following, car animation, light animation, wind and
    /// windmills, foxes. Allocation-free once buffers have grown.
    pub fn step(&mut self, dt: f32) {
        self.time += f64::from(dt);
        self.steps += 1;
        traffic::observe(&mut self.world, &self.roads, &self.config.driving, &mut self.traffic);
        signals::update(&mut self.signals, &self.roads, &self.traffic.occupancy, dt);
        traffic::drive(&mut self.world, &self.roads, &self.signals, &self.config.driving, &mut self.traffic, dt);
        self.animate(dt, true);
    }

    /// The systems that move props' nodes and placements (run by [`Scene::step`], and with
    /// `dt = 0` when the scene or its models change). `lod`: skip the poses update-rate LOD
    /// does not want this step (never when models change: every prop needs a pose of its new
    /// rig at once).
    fn animate(&mut self, dt: f32, lod: bool) {
        cars::animate(&mut self.world, &self.roads, &self.rigs.car, dt);
        signals::animate_lights(&mut self.world, &self.signals, &self.rigs.light);
        wind::update(&mut self.world, &self.wind, self.time, dt);
        let viewer = self.viewer.as_ref().filter(|_| lod);
        animals::update(&mut self.world, &self.rigs.fox, &mut self.fox_scratch, viewer, self.steps, dt);
    }

    fn insert_car(&mut self, lane: LaneId, position: f32, speed: f32) -> Entity {
        let rng = Rng::stream(self.config.seed, Stream::Car, self.cars_spawned);
        self.cars_spawned += 1;
        let car = Car::new(&self.roads, lane, position, speed, rng);
        let (wheels, placement, pose) = cars::car_components(&self.rigs.car);
        self.world.spawn((car, wheels, placement, pose))
    }

    /// Adds a car at `position` metres (its centre) along `lane`, driving at `speed` m/s,
    /// posed at the next step. Refused when the lane does not exist, the position is off the
    /// lane, or another car is nearer than a car length plus the safety gap.
    pub fn spawn_car(&mut self, lane: LaneId, position: f32, speed: f32) -> Result<Entity, SceneError> {
        let no_room = |reason| SceneError::NoRoomForCar { lane: lane.0, position, reason };
        let on_lane = self.roads.lanes().get(lane.index()).ok_or(no_room("no such lane"))?;
        if !(0.0..=on_lane.length()).contains(&position) || !speed.is_finite() || speed < 0.0 {
            return Err(no_room("position off the lane or speed not a finite non-negative number"));
        }
        let at = on_lane.sample(position).0;
        let clearance = self.config.driving.car_length + self.config.driving.safety_gap;
        let crowded = self.world.query_mut::<&Car>().into_iter().any(|other| {
            let other_at = self.roads.lane(other.lane()).sample(other.position()).0;
            let same_lane_gap = if other.lane() == lane { (other.position() - position).abs() } else { f32::INFINITY };
            other_at.distance(at) < clearance || same_lane_gap < clearance
        });
        if crowded {
            return Err(no_room("too close to another car"));
        }
        Ok(self.insert_car(lane, position, speed))
    }

    /// Adds up to `count` windmills on the next free sites of the ring layout (never beyond
    /// [`MAX_WINDMILLS`] in all); returns how many were added.
    pub fn add_windmills(&mut self, count: usize) -> usize {
        let start = self.windmills.len();
        let end = (start + count).min(MAX_WINDMILLS);
        let (layout, terrain, scale) = (&self.layout, &self.terrain, self.rigs.windmill.prop.scale);
        let batch: Vec<_> = (start..end).map(|i| layout.windmill(i as u32, terrain, scale)).collect();
        self.windmills.extend(self.world.spawn_batch(batch));
        end - start
    }

    /// Removes up to `count` windmills, newest first; returns how many were removed.
    pub fn remove_windmills(&mut self, count: usize) -> usize {
        let keep = self.windmills.len().saturating_sub(count);
        let removed = self.windmills.len() - keep;
        for entity in self.windmills.drain(keep..) {
            // Every entity in the list is alive: only this method despawns windmills.
            let _ = self.world.despawn(entity);
        }
        removed
    }

    /// Sets the camera that update-rate LOD measures from (see [`Viewer`]): far or unseen
    /// foxes are then posed only every few steps, keeping their last pose in between (their
    /// movement and clips still advance every step). `None` (the default) poses every prop
    /// every step. Call it each frame with the frame's camera.
    pub fn set_viewer(&mut self, viewer: Option<Viewer>) {
        self.viewer = viewer;
    }

    /// Forces an intersection's signal state, or with `None` returns it to its cycle.
    pub fn set_signal_override(
        &mut self,
        intersection: IntersectionId,
        hold: Option<SignalOverride>,
    ) -> Result<(), SceneError> {
        if intersection.index() >= self.roads.intersections().len() {
            return Err(SceneError::NoSuchIntersection(intersection.0));
        }
        self.signals.set_override(intersection, hold);
        signals::animate_lights(&mut self.world, &self.signals, &self.rigs.light);
        Ok(())
    }

    /// Replaces the models (after a hot reload, say). Every node and clip is looked up again
    /// first; on error the scene keeps its old models. Poses are rebuilt for the new rigs.
    pub fn set_models(&mut self, models: SceneModels) -> Result<(), SceneError> {
        self.rigs = Rigs::resolve(models)?;
        let rest = |model: &Arc<props_anim::Model>| Pose::from_rest(model.rig());
        let r = &self.rigs;
        self.world.query_mut::<(&Car, &mut Pose)>().into_iter().for_each(|(_, p)| *p = rest(&r.car.prop.model));
        self.world
            .query_mut::<(&TrafficLight, &mut Pose)>()
            .into_iter()
            .for_each(|(_, p)| *p = rest(&r.light.prop.model));
        self.world.query_mut::<(&Fox, &mut Pose)>().into_iter().for_each(|(_, p)| *p = rest(&r.fox.prop.model));
        self.fox_scratch = rest(&r.fox.prop.model);
        self.windmill_pose = Mutex::new(rest(&r.windmill.prop.model));
        self.animate(0.0, false);
        Ok(())
    }

    /// Runs `f` with the scene's windmill pose (other nodes at rest).
    pub(crate) fn with_windmill_pose<R>(&self, f: impl FnOnce(&mut Pose) -> R) -> R {
        // A panic while the lock was held leaves nothing half-done that matters: every use
        // sets both overridden nodes before reading the pose.
        f(&mut self.windmill_pose.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// A copy of a prop's current pose (computed on demand for a windmill), for inspection and
    /// tools; `None` for an entity that is not a prop. Allocates.
    #[must_use]
    pub fn pose_of(&self, entity: Entity) -> Option<Pose> {
        if let Ok(mill) = self.world.get::<&Windmill>(entity) {
            return Some(self.with_windmill_pose(|pose| {
                wind::pose(&self.rigs.windmill, &mill, pose);
                pose.clone()
            }));
        }
        self.world.get::<&Pose>(entity).ok().map(|pose| (*pose).clone())
    }

    /// The configuration the scene was built with.
    #[must_use]
    pub fn config(&self) -> &SceneConfig {
        &self.config
    }

    /// The entities, for inspection: query the public components ([`Car`], [`crate::CarWheels`],
    /// [`Windmill`], [`Fox`], [`crate::FoxGait`], [`TrafficLight`], [`crate::Placement`], and
    /// `props_anim::Pose` on every prop but windmills: see [`Scene::pose_of`]).
    #[must_use]
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The road network.
    #[must_use]
    pub fn roads(&self) -> &RoadNetwork {
        &self.roads
    }

    /// The signal controllers.
    #[must_use]
    pub fn signals(&self) -> &Signals {
        &self.signals
    }

    /// The ground height field.
    #[must_use]
    pub fn terrain(&self) -> &Terrain {
        &self.terrain
    }

    /// The wind at `at` (x, z) now.
    #[must_use]
    pub fn wind_at(&self, at: Vec2) -> Wind {
        self.wind.sample(at, self.time)
    }

    /// Simulated seconds so far (`f64`, so that long sessions keep their precision).
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counters of the traffic system.
    #[must_use]
    pub fn traffic_stats(&self) -> TrafficStats {
        self.traffic.stats
    }

    /// Windmills standing.
    #[must_use]
    pub fn windmill_count(&self) -> usize {
        self.windmills.len()
    }

    /// Radius of the outermost windmill ring now, metres (for placing the camera).
    #[must_use]
    pub fn windmill_extent(&self) -> f32 {
        self.windmills
            .last()
            .and_then(|e| self.world.get::<&Windmill>(*e).ok().map(|m| m.site().length()))
            .unwrap_or(self.layout.inner_radius)
            .max(self.layout.inner_radius)
    }
}
