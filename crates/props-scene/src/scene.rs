//! [`Scene`]: the town's `hecs` world, its resources, and the fixed order of its systems.

use std::any::Any;

use glam::{Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::{Pose, runtime::Crowd, runtime::Program, runtime::View, runtime::Workers};
use props_crowd::{AnimationStats, BoundModel, ModelCrowd, Posing, PropModel, first_hit};
use props_frame::{Camera, DebugLine, FrameData, ModelId};

use crate::access::{self, StepAccess};
use crate::debug_lines;
use crate::error::SceneError;
use crate::kind::{KindProps, KindWithModels, PropInfo, PropInstance, PropKind, Registered, kind_of};
use crate::stepping::Systems;
use crate::town::Town;
use crate::town::bus_stops::BusStops;
use crate::town::crossings::Crossings;
use crate::town::daylight::Daylight;
use crate::town::roads::{IntersectionId, RoadNetwork};
use crate::town::signals::{self, SignalOverride, Signals};
use crate::town::terrain::Terrain;
use crate::town::traffic::{self, TrafficState, TrafficStats};
use crate::town::wind::{Wind, WindField};
use crate::{MAX_GRID, SceneConfig};

/// Flat ground beyond the town's outermost boxes (its corners included), metres.
const TOWN_MARGIN: f32 = 15.0;
/// Smallest grid picked for the cars asked for.
const MIN_AUTO_GRID: usize = 3;

/// A town and the props of its kinds: roads, signals, wind and ground, and every registered
/// [`PropKind`]'s props (the town's, [`crate::kinds::town`], and a game's own), none known by
/// name.
///
/// Per rendered frame: [`Scene::step`] a fixed `dt` some number of times (for example 1/60 s;
/// [`crate::FixedStep`] turns real time into a number of steps), then [`Scene::animate`] (the
/// poses of what the camera sees) and [`Scene::extract`] (its instances). The same
/// configuration, models and sequence of calls give bitwise the same state on the same
/// platform, whatever the number of threads (random choices use a portable integer generator;
/// `f32` sines and exponentials come from the platform's maths library).
pub struct Scene {
    config: SceneConfig,
    pub(crate) world: World,
    pub(crate) roads: RoadNetwork,
    signals: Signals,
    bus_stops: BusStops,
    traffic: TrafficState,
    crossings: Crossings,
    wind: WindField,
    terrain: Terrain,
    daylight: Daylight,
    /// The prop kinds, in registration order (the built-in ones first), each with its props.
    kinds: Vec<Registered>,
    /// Every kind's crowds are posed by one posing: its camera, workers and budget.
    posing: Posing,
    /// The order the systems step in on the workers.
    systems: Systems,
    time: f64,
    steps: u64,
}

/// The grid `config` asks for: its own, or the smallest from [`MIN_AUTO_GRID`] on which
/// `vehicles` take at most half the room.
fn town_grid(config: &SceneConfig, vehicles: usize) -> usize {
    let d = &config.driving;
    config.grid.unwrap_or_else(|| {
        (MIN_AUTO_GRID..MAX_GRID)
            .find(|&grid| {
                let roads = RoadNetwork::grid(grid, config.block, d.speed_limit, d.lateral_acceleration);
                traffic::capacity(&roads, d) >= vehicles.saturating_mul(2)
            })
            .unwrap_or(MAX_GRID)
    })
}

impl Scene {
    /// Builds the town for `config` with `kinds` (usually [`crate::kinds::town`]'s), each with
    /// its models: checks the configuration, sets the counts it asks for, binds every kind's
    /// models (looks up every node and clip it drives; the first missing one is the error),
    /// grows the town to hold the kinds' vehicles, then spawns every kind's props in order,
    /// ready to animate.
    pub fn new(config: SceneConfig, kinds: impl IntoIterator<Item = KindWithModels>) -> Result<Self, SceneError> {
        config.validate()?;
        let mut kinds: Vec<KindWithModels> = kinds.into_iter().collect();
        for (name, &count) in &config.counts {
            let kind = kinds.iter_mut().find(|(kind, _)| kind.name() == name);
            kind.ok_or_else(|| SceneError::NoSuchKind(name.clone()))?.0.set_count(count)?;
        }
        let posing = Posing::new(config.posing)?;
        let threads = posing.workers().map_or(1, Workers::threads);
        let d = &config.driving;
        let vehicles = kinds.iter().map(|(kind, _)| kind.vehicles()).sum();
        let roads =
            RoadNetwork::grid(town_grid(&config, vehicles), config.block, d.speed_limit, d.lateral_acceleration);
        let capacity = traffic::capacity(&roads, d);
        if vehicles > capacity {
            return Err(SceneError::TooManyVehicles { requested: vehicles, capacity });
        }
        let terrain = Terrain::new(roads.half_extent() * std::f32::consts::SQRT_2 + TOWN_MARGIN, config.seed);
        let mut scene = Self {
            signals: Signals::new(&roads, config.seed),
            bus_stops: BusStops::new(&roads),
            wind: WindField::new(&config.wind, config.seed),
            traffic: TrafficState::default(),
            crossings: Crossings::default(),
            daylight: Daylight::new(config.time_of_day, config.day_minutes),
            world: World::new(),
            kinds: Vec::new(),
            posing,
            systems: Systems::default(),
            time: 0.0,
            steps: 0,
            config,
            roads,
            terrain,
        };
        // Every model is rigged before anything spawns: a missing node leaves no half-built town.
        let rigged = kinds
            .into_iter()
            .map(|(kind, models)| kind.bind(&models).map(|rigged| (kind, rigged)))
            .collect::<Result<Vec<_>, _>>()?;
        for (kind, rigged) in rigged {
            if scene.kinds.iter().any(|r| r.kind.name() == kind.name()) {
                return Err(SceneError::DuplicateKind(kind.name()));
            }
            scene.add_kind(kind, rigged);
        }
        tracing::debug!(props = scene.instance_count(), lanes = scene.roads.lanes().len(), threads, "scene built");
        Ok(scene)
    }

    /// Registers one more prop kind (see [`PropKind`]) with its `models`: sets the count
    /// [`SceneConfig::counts`] asks of it, binds them (the error, if one lacks a node or clip
    /// the kind drives, or the kind already is registered), then spawns its props. Its system
    /// runs after the other kinds' every step, and its props are posed, culled, shared,
    /// extracted and picked like theirs.
    pub fn register<K: PropKind>(&mut self, mut kind: K, models: Vec<PropModel>) -> Result<(), SceneError> {
        if self.kinds.iter().any(|r| r.kind.name() == kind.name()) {
            return Err(SceneError::DuplicateKind(kind.name()));
        }
        if let Some(&count) = self.config.counts.get(kind.name()) {
            kind.set_count(count)?;
        }
        let rigs = kind.bind(&models)?;
        self.add_kind(Box::new(kind), rigs);
        Ok(())
    }

    /// Adds a rigged kind and spawns its props.
    fn add_kind(&mut self, mut kind: Box<dyn PropKind>, models: Vec<BoundModel>) {
        let mut props = KindProps::new(self.kinds.len() as u16, models, self.posing.crowd_options());
        let (world, town, _) = self.town();
        kind.spawn(world, &town, &mut props);
        let access = kind.access();
        self.kinds.push(Registered { kind, props, access, group: 0 });
        // The traffic first; a new kind may join groups.
        let traffic = traffic::access();
        let accesses: Vec<&StepAccess> =
            std::iter::once(&traffic).chain(self.kinds.iter().map(|r| &r.access)).collect();
        let groups = access::groups(&accesses);
        for (r, group) in self.kinds.iter_mut().zip(&groups[1..]) {
            r.group = *group;
        }
    }

    /// The town as the kinds see it, read-only.
    fn town_view(&self) -> Town<'_> {
        let Self { roads, signals, bus_stops, wind, terrain, daylight, config, time, steps, .. } = self;
        Town { roads, signals, bus_stops, wind, terrain, daylight, config, time: *time, steps: *steps }
    }

    /// The entities, the town as the kinds' systems see it, and the kinds.
    fn town(&mut self) -> (&mut World, Town<'_>, &mut [Registered]) {
        let Self { world, kinds, roads, signals, bus_stops, wind, terrain, daylight, config, time, steps, .. } = self;
        (world, Town { roads, signals, bus_stops, wind, terrain, daylight, config, time: *time, steps: *steps }, kinds)
    }

    /// The index of the registered kind of type `K`.
    fn index_of<K: PropKind>(&self) -> Option<usize> {
        self.kinds.iter().position(|r| (&*r.kind as &dyn Any).is::<K>())
    }

    /// The registered kind of type `K`, to read its state (`scene.kind::<Windmills>()`).
    #[must_use]
    pub fn kind<K: PropKind>(&self) -> Option<&K> {
        self.kind_and_props::<K>().map(|(kind, _)| kind)
    }

    /// The registered kind of type `K` and its props, to read their states.
    #[must_use]
    pub fn kind_and_props<K: PropKind>(&self) -> Option<(&K, &KindProps)> {
        let Registered { kind, props, .. } = &self.kinds[self.index_of::<K>()?];
        let any: &dyn Any = &**kind;
        Some((any.downcast_ref()?, props))
    }

    /// Calls `f` with the registered kind of type `K`, the entities, the town and the kind's
    /// props (to spawn, remove or change props between steps: `Cars::spawn_at`,
    /// `Windmills::add`); `None` if no such kind is registered.
    pub fn with_kind<K: PropKind, R>(
        &mut self,
        f: impl FnOnce(&mut K, &mut World, &Town<'_>, &mut KindProps) -> R,
    ) -> Option<R> {
        let index = self.index_of::<K>()?;
        let (world, town, kinds) = self.town();
        let Registered { kind, props, .. } = &mut kinds[index];
        let any: &mut dyn Any = &mut **kind;
        Some(f(any.downcast_mut()?, world, &town, props))
    }

    /// Advances the simulation by `dt` seconds: moves every prop and sets its animation state
    /// (clip layers, driver angles, placement). Poses are made by [`Scene::animate`], once per
    /// rendered frame, not here.
    ///
    /// `dt` is meant to be fixed (the simulation is tuned and tested at 1/60 s); the scene has
    /// no clock or accumulator of its own. Systems run as if in this order: traffic observation
    /// (lane occupancy) and the crossings' (who waits, who crosses), signals, vehicle following, then each prop kind's in registration
    /// order. With worker threads, vehicle following and the kinds that touch different
    /// components (see [`PropKind::access`]) step at the same time, with the same result.
    /// Allocation-free once buffers have grown.
    pub fn step(&mut self, dt: f32) {
        self.time += f64::from(dt);
        self.posing.advance(dt);
        self.steps += 1;
        self.daylight.advance(f64::from(dt));
        traffic::observe(&mut self.world, &self.roads, &mut self.traffic);
        self.crossings.observe(&mut self.world, &self.roads);
        signals::update(&mut self.signals, &self.roads, (&self.traffic.occupancy, &self.crossings), dt);
        let Self {
            world,
            roads,
            signals,
            bus_stops,
            traffic,
            wind,
            terrain,
            daylight,
            config,
            kinds,
            posing,
            time,
            steps,
            systems,
            ..
        } = self;
        let town = Town { roads, signals, bus_stops, wind, terrain, daylight, config, time: *time, steps: *steps };
        systems.step(world, &town, traffic, kinds, posing.workers(), dt);
    }

    /// The town's time of day: its hour, and the light, sky and lamps it makes.
    #[must_use]
    pub fn daylight(&self) -> &Daylight {
        &self.daylight
    }

    /// The time of day, to set the hour or the day's length (a HUD's control).
    pub fn daylight_mut(&mut self) -> &mut Daylight {
        &mut self.daylight
    }

    /// The camera culling and update-rate LOD measure from, with the budget's pressure.
    #[must_use]
    pub fn view(&self) -> Option<View> {
        self.posing.view()
    }

    /// Poses every prop the camera may see ([`Scene::set_camera`]; all of them without one)
    /// into `frame.palettes`, sharing palettes as [`props_crowd::PosingConfig::sharing`] says,
    /// far ones every few frames ([`props_crowd::PosingConfig::lod`], stretched by the
    /// budget): the animation runtime's one path from clip to palette, on the scene's worker
    /// threads. Then call [`Scene::extract`] with the same frame. Allocation-free once buffers
    /// have grown.
    pub fn animate(&mut self, frame: &mut FrameData) -> AnimationStats {
        self.posing.animate(&mut self.kinds, frame)
    }

    /// Appends the props the last [`Scene::animate`] posed into `frame` (call it first, with
    /// the same frame): for each model (windmill, each car model, traffic light, fox, then the
    /// game's own kinds', in registration order) its visible instances, each with the offset
    /// of its palette, closed as one batch of that model's `ModelId`. Nothing else should be
    /// left pushed without its `end_batch`. With worker threads, written in parts at once.
    /// The lit point and spot lights of the visible props within `props_frame::LIGHT_DISTANCE`
    /// of the camera are appended to the frame's lights.
    /// Allocation-free once the frame's buffers have grown.
    pub fn extract(&self, frame: &mut FrameData) {
        self.posing.extract(|| self.each_crowd(), frame);
    }

    /// Takes how long the last [`Scene::animate`] took, for the CPU budget
    /// ([`props_crowd::PosingConfig::animation_budget_ms`]; nothing without one).
    pub fn record_animation_time(&mut self, milliseconds: f32) {
        self.posing.record_animation_time(milliseconds);
    }

    /// Sets the camera of the next frames: what is outside its view is not posed or drawn,
    /// and far props are posed less often ([`props_crowd::PosingConfig::lod`]). `None` (the
    /// default): every prop is posed every frame.
    pub fn set_camera(&mut self, camera: Option<Camera>) {
        self.posing.set_camera(camera);
    }

    /// Sets how many pixels high the camera's target is, for mesh LOD
    /// ([`props_crowd::Posing::set_view_height`]).
    pub fn set_view_height(&mut self, pixels: u32) {
        self.posing.set_view_height(pixels);
    }

    /// Appends the bones of the first `limit_per_model` props of each model, posed on the
    /// general path from their exact states (windmills are many).
    pub fn skeleton_lines(&mut self, limit_per_model: usize, lines: &mut Vec<DebugLine>) {
        for crowd in self.kinds.iter_mut().flat_map(|r| r.props.crowds_mut()) {
            crowd.each_pose(limit_per_model, |prop, placement, pose| debug_lines::bones(prop, placement, pose, lines));
        }
    }

    /// Appends the lanes (road lanes light, connectors darker) and, across the end of every
    /// approach lane, its stop line in the colour its signal shows.
    pub fn road_lines(&self, lines: &mut Vec<DebugLine>) {
        debug_lines::roads(&self.roads, &self.signals, lines);
    }

    /// The prop a ray from `origin` along `direction` enters first, by the culling spheres of
    /// the props (their model's pose bound times their scale): the same conservative bound
    /// as culling, so a visible prop can always be picked.
    #[must_use]
    pub fn pick(&self, origin: Vec3, direction: Vec3) -> Option<Entity> {
        let direction = direction.try_normalize()?;
        let bounds = self.world.iter().map(|e| e.entity()).filter_map(|entity| {
            let (crowd, i) = self.instance_of(entity)?;
            let (centre, radius) = crowd.sphere(i);
            Some((entity, centre, radius))
        });
        first_hit(origin, direction, bounds)
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
        let (world, town, kinds) = self.town();
        for Registered { kind, props, .. } in kinds {
            kind.refresh(world, &town, props);
        }
        Ok(())
    }

    /// Replaces the models of the kind named `kind` (after a hot reload, say). Every node and
    /// clip is looked up again first; on error the scene keeps its old models. Every prop keeps
    /// its state.
    pub fn set_kind_models(&mut self, kind: &str, models: Vec<PropModel>) -> Result<(), SceneError> {
        self.set_models_of([(kind, models)])
    }

    /// Replaces the models of several kinds, by name, all or none: every kind's new models
    /// are rigged before any kind takes them (a kind whose props pick among several models,
    /// such as the cars, windmills and foxes, takes any number).
    pub fn set_models_of<'a>(
        &mut self,
        sets: impl IntoIterator<Item = (&'a str, Vec<PropModel>)>,
    ) -> Result<(), SceneError> {
        let sets = sets
            .into_iter()
            .map(|(kind, models)| {
                let index = self.kinds.iter().position(|r| r.kind.name() == kind);
                Ok((index.ok_or_else(|| SceneError::NoSuchKind(kind.to_owned()))?, models))
            })
            .collect::<Result<Vec<_>, SceneError>>()?;
        self.rebind(sets)
    }

    /// Rigs every kind's new models, then, if all succeed, rebinds them.
    fn rebind(&mut self, sets: impl IntoIterator<Item = (usize, Vec<PropModel>)>) -> Result<(), SceneError> {
        let rigged = sets
            .into_iter()
            .map(|(index, models)| self.kinds[index].kind.bind(&models).map(|rigged| (index, rigged)))
            .collect::<Result<Vec<_>, _>>()?;
        for (index, rigged) in rigged {
            let Registered { kind, props, .. } = &mut self.kinds[index];
            kind.rebind(&mut self.world, props, rigged);
        }
        Ok(())
    }

    /// Where the first prop drawn with the model of renderer id `id` stands, if any (to show
    /// a player where a model is).
    #[must_use]
    pub fn first_prop_of(&self, id: ModelId) -> Option<Vec3> {
        let crowd = self.each_crowd().find(|c| c.prop().id == id && !c.is_empty())?;
        Some(crowd.placement(0).translation.into())
    }

    /// Every model's crowd, kind by kind in registration order.
    fn each_crowd(&self) -> impl Iterator<Item = &ModelCrowd> {
        self.kinds.iter().flat_map(|r| r.props.crowds())
    }

    /// The crowd of `entity`'s model and its instance number; `None` for no prop.
    fn instance_of(&self, entity: Entity) -> Option<(&ModelCrowd, u32)> {
        let instance = *self.world.get::<&PropInstance>(entity).ok()?;
        Some(self.kinds[kind_of(&instance)].locate(&instance))
    }

    /// What `entity` is doing, as its kind tells it; `None` for an entity that is not a prop.
    #[must_use]
    pub fn describe(&self, entity: Entity) -> Option<PropInfo> {
        let instance = *self.world.get::<&PropInstance>(entity).ok()?;
        let Registered { kind, props, .. } = &self.kinds[kind_of(&instance)];
        let summary = kind.describe(&self.world, &self.town_view(), props, entity)?;
        Some(PropInfo { kind: kind.name(), summary })
    }

    /// How many props each kind has, in registration order (`("cars", 144)`).
    pub fn counts(&self) -> impl Iterator<Item = (&'static str, usize)> {
        self.kinds.iter().map(|r| (r.kind.name(), r.props.len()))
    }

    /// How many props the kind named `kind` has (0 for no such kind).
    #[must_use]
    pub fn count(&self, kind: &str) -> usize {
        self.counts().find(|(name, _)| *name == kind).map_or(0, |(_, n)| n)
    }

    /// Props of every kind.
    #[must_use]
    pub fn instance_count(&self) -> usize {
        self.kinds.iter().map(|r| r.props.len()).sum()
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

    /// The entities, for inspection: query the kinds' public components ([`crate::town::traffic::Vehicle`], and
    /// those in [`crate::kinds`] and a game's own kinds); a prop's pose and placement are
    /// [`Scene::pose_of`] and [`Scene::placement_of`].
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

    /// Where buses stop.
    #[must_use]
    pub fn bus_stops(&self) -> &BusStops {
        &self.bus_stops
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

    /// What the last [`Scene::animate`] did.
    #[must_use]
    pub fn animation_stats(&self) -> AnimationStats {
        self.posing.stats()
    }

    /// Each prop model, kind by kind in registration order, with the program it is compiled to and the crowd of its instances' animation
    /// states, for tools and benchmarks (the crowd's `stats` are the last frame's for that
    /// model).
    pub fn crowds(&self) -> impl Iterator<Item = (&PropModel, &Program, &Crowd)> {
        self.each_crowd().map(ModelCrowd::parts)
    }
}
