//! [`Scene`]: the town's `hecs` world, its resources, and the fixed order of its systems.

use glam::{Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::{AnimationBudget, Crowd, Pose, Program, Sharing, View, Workers};
use props_frame::{FrameData, ModelId};

use crate::PropInstance;
use crate::animals::{self, FOX_LAYERS};
use crate::camera::SceneCamera;
use crate::cars;
use crate::config::{MAX_GRID, MAX_WINDMILLS, SceneConfig};
use crate::crowds::PropCrowd;
use crate::error::SceneError;
use crate::extract::AnimationStats;
use crate::models::{PropModel, Rigs, SceneModels};
use crate::rng::{Rng, Stream};
use crate::roads::{IntersectionId, LaneId, RoadNetwork};
use crate::signals::{self, SignalOverride, Signals, TrafficLight};
use crate::terrain::Terrain;
use crate::traffic::{self, Car, TrafficState, TrafficStats};
use crate::wind::{self, Layout, MAX_SCALE, Wind, WindField, Windmill};

/// Flat ground beyond the town's outermost boxes (its corners included), metres.
const TOWN_MARGIN: f32 = 15.0;
/// The first ring of windmills stands this far beyond the flat ground, metres.
const HILLS_OFFSET: f32 = 50.0;
/// Smallest grid picked for the cars asked for.
const MIN_AUTO_GRID: usize = 3;
/// Parallel runs per worker thread (several, so that uneven runs even out).
const RUNS_PER_THREAD: usize = 4;

/// Every prop model's instances on the animation runtime, in drawing order.
#[derive(Clone, Debug)]
pub(crate) struct Crowds {
    pub windmill: PropCrowd,
    /// One crowd per car model ([`SceneModels::car`] first, then the extra ones).
    pub cars: Vec<PropCrowd>,
    pub light: PropCrowd,
    pub fox: PropCrowd,
}

impl Crowds {
    /// Every crowd: windmills, each car model's, lights, foxes.
    pub fn each_mut(&mut self) -> impl Iterator<Item = &mut PropCrowd> {
        std::iter::once(&mut self.windmill)
            .chain(&mut self.cars)
            .chain(std::iter::once(&mut self.light))
            .chain(std::iter::once(&mut self.fox))
    }

    /// Every crowd, in [`Crowds::each_mut`]'s order.
    pub fn each(&self) -> impl Iterator<Item = &PropCrowd> {
        std::iter::once(&self.windmill)
            .chain(&self.cars)
            .chain(std::iter::once(&self.light))
            .chain(std::iter::once(&self.fox))
    }
}

/// The demo town: roads, signals, cars, windmills on the hills, foxes in the parks.
///
/// Per rendered frame: [`Scene::step`] a fixed `dt` some number of times (for example 1/60 s;
/// [`crate::FixedStep`] turns real time into a number of steps), then [`Scene::animate`] (the
/// poses of what the camera sees) and [`Scene::extract`] (its instances). The same
/// configuration, models and sequence of calls give bitwise the same state on the same
/// platform, whatever the number of threads (random choices use a portable integer generator;
/// `f32` sines and exponentials come from the platform's maths library).
pub struct Scene {
    config: SceneConfig,
    rigs: Rigs,
    pub(crate) world: World,
    pub(crate) roads: RoadNetwork,
    signals: Signals,
    traffic: TrafficState,
    wind: WindField,
    terrain: Terrain,
    layout: Layout,
    /// Windmill entities by layout index: removal pops the newest.
    windmills: Vec<Entity>,
    pub(crate) crowds: Crowds,
    camera: Option<SceneCamera>,
    budget: Option<AnimationBudget>,
    workers: Option<Workers>,
    /// Frames posed so far (update-rate LOD staggers by it).
    frames: u64,
    pub(crate) animation: AnimationStats,
    cars_spawned: u64,
    time: f64,
    steps: u64,
}

/// The grid `config` asks for: its own, or the smallest from [`MIN_AUTO_GRID`] on which the
/// cars take at most half the room.
fn town_grid(config: &SceneConfig) -> usize {
    let d = &config.driving;
    config.grid.unwrap_or_else(|| {
        (MIN_AUTO_GRID..MAX_GRID)
            .find(|&grid| {
                let roads = RoadNetwork::grid(grid, config.block, d.speed_limit, d.lateral_acceleration);
                traffic::capacity(&roads, d) >= config.cars.saturating_mul(2)
            })
            .unwrap_or(MAX_GRID)
    })
}

impl Scene {
    /// Builds the town for `config` with the game's `models`: checks the configuration, looks
    /// up every node and clip the scene drives (see [`SceneModels`]), and spawns every prop,
    /// ready to animate.
    pub fn new(config: SceneConfig, models: SceneModels) -> Result<Self, SceneError> {
        config.validate()?;
        let rigs = Rigs::resolve(models)?;
        let threads = match config.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        };
        let workers = if threads > 1 {
            Some(Workers::new(threads).map_err(|e| SceneError::Workers(e.to_string()))?)
        } else {
            None
        };
        let runs = if threads > 1 { threads * RUNS_PER_THREAD } else { 1 };
        let quantized = config.sharing.map_or(Sharing::None, Sharing::Quantized);
        let exact = if config.sharing.is_some() { Sharing::Exact } else { Sharing::None };
        let crowds = Crowds {
            windmill: PropCrowd::new(rigs.windmill.clone(), 0, quantized, MAX_SCALE, runs),
            cars: rigs
                .cars
                .iter()
                .map(|(car, _)| PropCrowd::new(car.clone(), car.spec.clips.len(), quantized, 1.0, runs))
                .collect(),
            light: PropCrowd::new(rigs.light.clone(), 1, exact, 1.0, runs),
            fox: PropCrowd::new(rigs.fox.clone(), FOX_LAYERS, quantized, 1.0, runs),
        };
        let d = &config.driving;
        let roads = RoadNetwork::grid(town_grid(&config), config.block, d.speed_limit, d.lateral_acceleration);
        let terrain = Terrain::new(roads.half_extent() * std::f32::consts::SQRT_2 + TOWN_MARGIN, config.seed);
        let layout = Layout {
            inner_radius: terrain.flat_radius() + HILLS_OFFSET,
            spacing: config.windmill_spacing,
            seed: config.seed,
        };
        let mut scene = Self {
            signals: Signals::new(&roads, config.seed),
            wind: WindField::new(&config.wind, config.seed),
            traffic: TrafficState::default(),
            world: World::new(),
            windmills: Vec::new(),
            crowds,
            camera: None,
            budget: config.animation_budget_ms.map(AnimationBudget::new),
            workers,
            frames: 0,
            animation: AnimationStats::default(),
            cars_spawned: 0,
            time: 0.0,
            steps: 0,
            config,
            rigs,
            roads,
            terrain,
            layout,
        };
        signals::spawn_lights(&mut scene.world, &scene.roads, &mut scene.crowds.light);
        let mut rng = Rng::stream(config.seed, Stream::CarSpawn, 0);
        for (lane, position) in traffic::spawn_places(&scene.roads, &config.driving, config.cars, &mut rng)? {
            scene.insert_car(lane, position, 0.0);
        }
        let parks: Vec<Vec2> = scene.roads.block_centres().collect();
        for i in 0..config.foxes {
            let (fox, gait) = animals::fox(i, &parks, config.block, config.seed, scene.rigs.fox_durations);
            let instance = PropInstance(scene.crowds.fox.push(glam::Affine3A::IDENTITY));
            scene.world.spawn((fox, gait, instance));
        }
        scene.add_windmills(config.windmills);
        scene.simulate_props(0.0);
        tracing::debug!(
            windmills = config.windmills,
            cars = config.cars,
            foxes = config.foxes,
            lanes = scene.roads.lanes().len(),
            threads,
            "scene built"
        );
        Ok(scene)
    }

    /// Advances the simulation by `dt` seconds: moves every prop and sets its animation state
    /// (clip layers, driver angles, placement). Poses are made by [`Scene::animate`], once per
    /// rendered frame, not here.
    ///
    /// `dt` is meant to be fixed (the simulation is tuned and tested at 1/60 s); the scene has
    /// no clock or accumulator of its own. Systems run in this order: traffic observation
    /// (lane occupancy), signals, car following, cars' wheels, lights, wind and windmills,
    /// foxes. Allocation-free once buffers have grown.
    pub fn step(&mut self, dt: f32) {
        self.time += f64::from(dt);
        self.steps += 1;
        traffic::observe(&mut self.world, &self.roads, &self.config.driving, &mut self.traffic);
        signals::update(&mut self.signals, &self.roads, &self.traffic.occupancy, dt);
        traffic::drive(&mut self.world, &self.roads, &self.signals, &self.config.driving, &mut self.traffic, dt);
        self.simulate_props(dt);
    }

    /// The systems that set props' placements and animation states (run by [`Scene::step`],
    /// and with `dt = 0` when the scene is built).
    fn simulate_props(&mut self, dt: f32) {
        let c = &mut self.crowds;
        cars::animate(&mut self.world, &self.roads, &self.rigs.cars, &mut c.cars, dt);
        signals::animate_lights(&mut self.world, &self.signals, &mut c.light);
        wind::update(&mut self.world, &self.wind, &mut c.windmill, self.time, self.steps, dt);
        animals::update(&mut self.world, self.rigs.fox_durations, &mut c.fox, dt);
    }

    /// The camera culling and update-rate LOD measure from, with the budget's pressure.
    #[must_use]
    pub fn view(&self) -> Option<View> {
        let pressure = self.budget.map_or(0, |b| b.pressure());
        self.camera.map(|c| View::new(c.eye, c.view_projection, self.config.lod, pressure))
    }

    /// Poses every prop the camera may see ([`Scene::set_camera`]; all of them without one)
    /// into `frame.palettes`, sharing palettes as [`SceneConfig::sharing`] says, far ones
    /// every few frames ([`SceneConfig::lod`], stretched by the budget): the animation
    /// runtime's one path from clip to palette, on the scene's worker threads. Then call
    /// [`Scene::extract`] with the same frame. Allocation-free once buffers have grown.
    pub fn animate(&mut self, frame: &mut FrameData) -> AnimationStats {
        self.frames += 1;
        let (view, number) = (self.view(), self.frames);
        let (crowds, workers, palettes) = (&mut self.crowds, self.workers.as_ref(), &mut frame.palettes);
        let mut pose_all = || {
            let mut stats = AnimationStats::default();
            for crowd in crowds.each_mut() {
                let posed = crowd.update(view.as_ref(), number, workers, palettes);
                stats.add(&posed, crowd.palette_len());
            }
            stats
        };
        // One hand-over to the pool per frame: nested parallel work inside stays on it.
        let mut stats = match workers {
            Some(workers) => workers.install(pose_all),
            None => pose_all(),
        };
        stats.pressure = view.map_or(0, |v| v.pressure);
        self.animation = stats;
        stats
    }

    /// Takes how long the last [`Scene::animate`] took, for the CPU budget
    /// ([`SceneConfig::animation_budget_ms`]; nothing without one).
    pub fn record_animation_time(&mut self, milliseconds: f32) {
        if let Some(budget) = &mut self.budget {
            budget.record(milliseconds);
        }
    }

    /// Sets the camera of the next frames: what is outside its view is not posed or drawn,
    /// and far props are posed less often ([`SceneConfig::lod`]). `None` (the default): every
    /// prop is posed every frame.
    pub fn set_camera(&mut self, camera: Option<SceneCamera>) {
        self.camera = camera;
    }

    fn insert_car(&mut self, lane: LaneId, position: f32, speed: f32) -> Entity {
        let rng = Rng::stream(self.config.seed, Stream::Car, self.cars_spawned);
        let number = self.cars_spawned;
        let mut draws = Rng::stream(self.config.seed, Stream::CarModel, number);
        let pick = (draws.next_u64() >> 32) as u32;
        let paint = cars::paint(draws.next_u64() >> 32);
        self.cars_spawned += 1;
        let car = Car::new(&self.roads, lane, position, speed, rng);
        let model = cars::CarModel::new(number, pick, self.crowds.cars.len());
        let crowd = &mut self.crowds.cars[model.variant()];
        let placement = cars::placement(&car, &self.roads, crowd.prop().scale);
        let instance = PropInstance(crowd.push(placement));
        crowd.set_tint(instance.0, paint);
        self.world.spawn((car, cars::CarWheels::default(), model, instance))
    }

    /// Adds a car at `position` metres (its centre) along `lane`, driving at `speed` m/s. Refused when the lane does not exist, the position is off the
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
        let mills = &mut self.crowds.windmill;
        let scale = mills.prop().scale;
        let batch: Vec<_> = (start..end)
            .map(|i| {
                let (mill, placement) = self.layout.windmill(i as u32, &self.terrain, &self.wind, scale);
                let instance = mills.push(placement);
                mills.drivers_mut(instance).copy_from_slice(&[mill.yaw(), mill.rotor_angle()]);
                (mill, PropInstance(instance))
            })
            .collect();
        self.windmills.extend(self.world.spawn_batch(batch));
        end - start
    }

    /// Removes up to `count` windmills, newest first; returns how many were removed.
    pub fn remove_windmills(&mut self, count: usize) -> usize {
        let keep = self.windmills.len().saturating_sub(count);
        let removed = self.windmills.len() - keep;
        for entity in self.windmills.drain(keep..).rev() {
            // Every entity in the list is alive: only this method despawns windmills.
            let _ = self.world.despawn(entity);
            self.crowds.windmill.pop();
        }
        removed
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
        signals::animate_lights(&mut self.world, &self.signals, &mut self.crowds.light);
        Ok(())
    }

    /// Replaces the models (after a hot reload, say). Every node and clip is looked up again
    /// first; on error the scene keeps its old models. Every prop keeps its state.
    pub fn set_models(&mut self, models: SceneModels) -> Result<(), SceneError> {
        self.rigs = Rigs::resolve(models)?;
        let r = &self.rigs;
        let c = &mut self.crowds;
        for (crowd, animated) in [(&mut c.windmill, &r.windmill), (&mut c.light, &r.light), (&mut c.fox, &r.fox)] {
            crowd.recompile(animated.clone());
        }
        cars::recompile(&mut self.world, &r.cars, &mut c.cars);
        Ok(())
    }

    /// Where the first prop drawn with the model of renderer id `id` stands, if any (to show
    /// a player where a model is).
    #[must_use]
    pub fn first_prop_of(&self, id: ModelId) -> Option<Vec3> {
        let crowd = self.crowds.each().find(|c| c.prop().id == id && c.len() > 0)?;
        Some(crowd.placement(0).translation.into())
    }

    /// The sphere a prop stays within in any pose (its culling sphere); `None` for an entity
    /// that is not a prop.
    pub(crate) fn bound_of(&self, entity: Entity) -> Option<(Vec3, f32)> {
        self.instance_of(entity).map(|(crowd, i)| crowd.bound(i))
    }

    /// The crowd of `entity`'s model and its instance number; `None` for no prop.
    fn instance_of(&self, entity: Entity) -> Option<(&PropCrowd, u32)> {
        let instance = self.world.get::<&PropInstance>(entity).ok()?.0;
        let c = &self.crowds;
        let crowd = if self.world.satisfies::<&Windmill>(entity) {
            &c.windmill
        } else if let Ok(model) = self.world.get::<&cars::CarModel>(entity) {
            &c.cars[model.variant()]
        } else if self.world.satisfies::<&TrafficLight>(entity) {
            &c.light
        } else {
            &c.fox
        };
        Some((crowd, instance))
    }

    /// A prop's pose now, evaluated on the general `Pose` path from its exact animation state
    /// (the reference the runtime's palettes match; shared poses are within the quantization
    /// of it), for inspection and tools; `None` for an entity that is not a prop. Allocates.
    #[must_use]
    pub fn pose_of(&self, entity: Entity) -> Option<Pose> {
        self.instance_of(entity).map(|(crowd, i)| crowd.pose(i))
    }

    /// The renderer id of the model a prop is drawn with; `None` for an entity that is not a
    /// prop.
    #[must_use]
    pub fn model_of(&self, entity: Entity) -> Option<ModelId> {
        self.instance_of(entity).map(|(crowd, _)| crowd.prop().id)
    }

    /// Where a prop stands (its model-to-world transform); `None` for an entity that is not a
    /// prop.
    #[must_use]
    pub fn placement_of(&self, entity: Entity) -> Option<glam::Affine3A> {
        self.instance_of(entity).map(|(crowd, i)| crowd.placement(i))
    }

    /// The configuration the scene was built with.
    #[must_use]
    pub fn config(&self) -> &SceneConfig {
        &self.config
    }

    /// The entities, for inspection: query the public components ([`Car`], [`crate::CarWheels`],
    /// [`Windmill`], [`Fox`], [`crate::FoxGait`], [`TrafficLight`]); a prop's pose and
    /// placement are [`Scene::pose_of`] and [`Scene::placement_of`].
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

    /// What the last [`Scene::animate`] did.
    #[must_use]
    pub fn animation_stats(&self) -> AnimationStats {
        self.animation
    }

    /// Each prop model (windmill, each car model, traffic light, fox) with the program it is compiled to
    /// and the crowd of its instances' animation states, for tools and benchmarks (the
    /// crowd's `stats` are the last frame's for that model).
    pub fn crowds(&self) -> impl Iterator<Item = (&PropModel, &Program, &Crowd)> {
        self.crowds.each().map(PropCrowd::parts)
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
