//! The seam of the scene: what a kind of prop is (its asset, its components, its systems, the
//! clips it plays on simulation events, what a player is told about it), defined in one file by
//! implementing [`PropKind`] and registered with the scene. The town's kinds (`kinds/`) are
//! registered the same way as a game's own; the bus (`kinds/buses.rs`) is the worked example.
//!
//! The scene owns each kind's [`Props`]: one animation-runtime crowd per model of the kind. A
//! kind spawns its entities through [`Props::spawn`] (which links each to its instance), and
//! each step its system writes their placements and animation states (clip layers, driver
//! angles). A kind declares the components its step reads and writes ([`PropKind::access`]):
//! kinds that do not conflict step at the same time on the scene's worker threads. Posing,
//! culling, pose sharing, extraction and picking are the scene's, the same for every kind.

use std::any::Any;

use glam::Affine3A;
use hecs::{DynamicBundle, Entity, EntityBuilder, World};
use props_anim::Quantization;

use crate::access::Access;
use crate::animation::crowds::PropCrowd;
use crate::error::SceneError;
use crate::models::{KindModel, PropModel};
use crate::town::Town;

/// The one model of a kind that shows one (`models` must hold exactly one): for
/// [`PropKind::rig`].
pub fn only_model<'a>(kind: &'static str, models: &'a [PropModel]) -> Result<&'a PropModel, SceneError> {
    match models {
        [model] => Ok(model),
        _ => Err(SceneError::ModelCount { kind, expected: "one", found: models.len() }),
    }
}

/// The models of a kind whose props pick among one or more (`models` must not be empty): for
/// [`PropKind::rig`].
pub fn some_models<'a>(kind: &'static str, models: &'a [PropModel]) -> Result<&'a [PropModel], SceneError> {
    if models.is_empty() {
        return Err(SceneError::ModelCount { kind, expected: "one or more", found: 0 });
    }
    Ok(models)
}

/// Which of its kind's models a prop shows, when the kind has several (cars, windmills,
/// foxes: a mod adds variety): picked from a random number drawn when it was spawned, so the
/// choice is seeded, and made again the same way when the models change ([`Props::repick`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelPick {
    /// The prop's spawn number (props are picked again in this order).
    number: u64,
    pick: u32,
}

impl ModelPick {
    /// The pick of prop number `number` of its kind, from the random draw `pick`.
    #[must_use]
    pub fn new(number: u64, pick: u32) -> Self {
        Self { number, pick }
    }

    /// The model it shows among `models` (at least one).
    #[must_use]
    pub fn model(self, models: usize) -> usize {
        self.pick as usize % models.max(1)
    }
}

/// The asset a kind's props show, and how a mod takes its place: declared by the kind, so that
/// the game, `cargo xtask check-assets` and the mods' sidecars iterate the registered kinds
/// instead of naming them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindAsset {
    /// The file stem of its base asset (`assets/<stem>.glb`), and the name of a mod that
    /// replaces it (case-sensitive). `None` for a kind whose models all come from mods: it
    /// shows every mod that no other kind claims by name or role (the mod lot,
    /// [`crate::kinds::lot`]), and has no props until one comes.
    pub stem: Option<&'static str>,
    /// Metres per unit of the base asset (Fox.glb is in centimetres: 0.01).
    pub units: f32,
    /// How much larger than life its props are drawn (traffic lights twice, so that a player
    /// reads them from the town's overview).
    pub drawn_at: f32,
    /// Where its props stand, in a word or two (`hills`), for what a mod's log line says.
    pub place: &'static str,
    /// The role a mod's sidecar names to be shown by this kind (`role = "car"`).
    pub role: &'static str,
    /// Whether a mod of its role named other than its stem adds a model beside it (its props
    /// pick among the models, seeded) instead of replacing it.
    pub variants: bool,
    /// The node parts a sidecar may bind (`[nodes]`), and how many nodes each takes (`None`:
    /// any number, at least one); see [`crate::Bindings`].
    pub parts: &'static [(&'static str, Option<usize>)],
    /// The clip states a sidecar may bind (`[clips]`).
    pub states: &'static [&'static str],
}

/// A kind of prop. See the module documentation; `kinds/buses.rs` is a complete example.
pub trait PropKind: Any + Send + Sync {
    /// Its name, plural and lower case (`buses`): how status lines and the HUD count it.
    fn name(&self) -> &'static str;

    /// Its base asset, and how mods take its place.
    fn asset(&self) -> KindAsset;

    /// Compiles its models (one or more; a kind that shows one model per prop gets one) for
    /// what it animates: looks up the nodes and clips it drives. The first missing one is the
    /// error, and nothing changes.
    fn rig(&self, models: &[PropModel]) -> Result<Vec<KindModel>, SceneError>;

    /// Spawns its props into `world`, once, when it is registered.
    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut Props);

    /// The components of `world` its [`PropKind::step`] reads and writes (by default all of
    /// them: it steps alone). Kinds that do not conflict step at the same time; one that
    /// touches [`crate::Vehicle`]s steps after the traffic has moved them (vehicle following
    /// writes them), as on one thread.
    fn access(&self) -> Access {
        Access::everything()
    }

    /// Its systems for one step of `dt` seconds: move its props and set their animation states.
    /// It queries `world` only for the components its [`PropKind::access`] declares.
    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut Props, dt: f32);

    /// Shows at once a change the game made to the town between steps (a signal forced), as
    /// the next step would. By default nothing: the next step shows it.
    fn refresh(&mut self, world: &World, town: &Town<'_>, props: &mut Props) {
        let _ = (world, town, props);
    }

    /// Takes new versions of its models ([`PropKind::rig`] accepted them), keeping every prop's
    /// state. By default each model's instances move to its new version, in order (a kind
    /// whose props pick among a varying number of models calls [`Props::repick`]).
    fn rebind(&mut self, world: &mut World, props: &mut Props, models: Vec<KindModel>) {
        let _ = world;
        props.recompile(models);
    }

    /// What a player who picked `entity`, one of its props (in `props`), is told it is doing,
    /// in a few words (`bus at its stop at 0 km/h on lane 12, doors 100 % open`).
    fn describe(&self, world: &World, town: &Town<'_>, props: &Props, entity: Entity) -> Option<String>;
}

/// A kind with the models it shows, as [`crate::Scene::new`] takes them.
pub type KindWithModels = (Box<dyn PropKind>, Vec<PropModel>);

/// What a picked prop is doing, as its kind tells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropInfo {
    /// The kind's name ([`PropKind::name`]).
    pub kind: &'static str,
    /// What it is doing, in a few words for a player ([`PropKind::describe`]).
    pub summary: String,
}

/// The component linking a prop entity to its instance: its kind (registration order), its
/// model within the kind, its instance in that model's crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropInstance {
    kind: u16,
    model: u16,
    index: u32,
}

impl PropInstance {
    /// Which of its kind's models it shows.
    #[must_use]
    pub fn model(&self) -> usize {
        usize::from(self.model)
    }

    /// Its instance number in that model's crowd.
    #[must_use]
    pub fn index(&self) -> u32 {
        self.index
    }
}

/// A kind's props on the animation runtime: one crowd per model.
#[derive(Clone, Debug)]
pub struct Props {
    kind: u16,
    crowds: Vec<PropCrowd>,
    /// The scene's pose sharing, for new crowds.
    sharing: Option<Quantization>,
    /// Parallel runs each crowd poses in.
    runs: usize,
}

impl Props {
    /// No props yet of kind number `kind`, one crowd per rig in `rigs`, sharing poses by
    /// `sharing` in `runs` parallel runs.
    pub(crate) fn new(kind: u16, rigs: Vec<KindModel>, sharing: Option<Quantization>, runs: usize) -> Self {
        let mut props = Self { kind, crowds: Vec::new(), sharing, runs };
        props.crowds = props.empty_crowds(rigs);
        props
    }

    /// Spawns an entity with `components`, showing model `model` of the kind at `placement`
    /// (no clip playing, drivers 0); returns it. Its [`PropInstance`] is added.
    pub fn spawn(
        &mut self,
        world: &mut World,
        model: usize,
        placement: Affine3A,
        components: impl DynamicBundle,
    ) -> Entity {
        let instance = self.push(model, placement);
        let mut builder = EntityBuilder::new();
        builder.add_bundle(components).add(instance);
        world.spawn(builder.build())
    }

    /// Adds an instance of model `model` at `placement`, for an entity spawned by the caller.
    pub fn push(&mut self, model: usize, placement: Affine3A) -> PropInstance {
        let index = self.crowds[model].push(placement);
        PropInstance { kind: self.kind, model: model as u16, index }
    }

    /// Whether `instance` is one of this kind's (another kind's entities may carry the same
    /// components: a bus has a car's wheels).
    #[must_use]
    pub fn owns(&self, instance: &PropInstance) -> bool {
        instance.kind == self.kind
    }

    /// The number of its kind (registration order).
    pub(crate) fn number(&self) -> usize {
        usize::from(self.kind)
    }

    /// The crowd of model `model`.
    #[must_use]
    pub fn crowd(&self, model: usize) -> &PropCrowd {
        &self.crowds[model]
    }

    /// The crowd of model `model`, to set states and placements.
    pub fn crowd_mut(&mut self, model: usize) -> &mut PropCrowd {
        &mut self.crowds[model]
    }

    /// The crowd an instance is in, to set its state.
    pub fn of(&mut self, instance: &PropInstance) -> &mut PropCrowd {
        &mut self.crowds[instance.model()]
    }

    /// Every model's crowd.
    #[must_use]
    pub fn crowds(&self) -> &[PropCrowd] {
        &self.crowds
    }

    /// Every model's crowd, to pose.
    pub(crate) fn crowds_mut(&mut self) -> &mut [PropCrowd] {
        &mut self.crowds
    }

    /// Props in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.crowds.iter().map(PropCrowd::len).sum()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// New, empty crowds for `rigs`.
    fn empty_crowds(&self, rigs: Vec<KindModel>) -> Vec<PropCrowd> {
        rigs.into_iter().map(|rig| PropCrowd::new(rig, self.sharing, self.runs)).collect()
    }

    /// Drops every prop's instance and starts empty crowds for `rigs` (any number, none
    /// included), for a kind that spawns its props again when its models change (the mod
    /// lot). The caller despawns the entities that showed the old instances.
    pub fn replace(&mut self, rigs: Vec<KindModel>) {
        self.crowds = self.empty_crowds(rigs);
    }

    /// Moves every model's instances to the model's new version: one rig per model, in order,
    /// as many as before (what a kind with a fixed number of models rigs; one that picks among
    /// a varying number calls [`Props::repick`]).
    pub fn recompile(&mut self, rigs: Vec<KindModel>) {
        debug_assert_eq!(rigs.len(), self.crowds.len(), "one new rig per model");
        let mut next = self.empty_crowds(rigs);
        for (crowd, old) in next.iter_mut().zip(&self.crowds) {
            crowd.take_instances(old);
        }
        self.crowds = next;
    }

    /// Moves every prop of this kind that carries a [`ModelPick`] into new crowds for `rigs`
    /// (any number), each showing the model its pick gives among them, in spawn order,
    /// keeping its state, placement and paint.
    pub fn repick(&mut self, world: &mut World, rigs: Vec<KindModel>) {
        let mut next = self.empty_crowds(rigs);
        let mut props: Vec<(Entity, ModelPick, PropInstance)> = world
            .query_mut::<(Entity, &ModelPick, &PropInstance)>()
            .into_iter()
            .filter(|(_, _, instance)| self.owns(instance))
            .map(|(e, m, i)| (e, *m, *i))
            .collect();
        props.sort_by_key(|(_, pick, _)| pick.number);
        for (entity, pick, instance) in props {
            let model = pick.model(next.len());
            let index = next[model].push_copy(&self.crowds[instance.model()], instance.index);
            if let Ok(mut link) = world.get::<&mut PropInstance>(entity) {
                *link = PropInstance { kind: self.kind, model: model as u16, index };
            }
        }
        self.crowds = next;
    }
}

/// A registered kind with its props.
pub(crate) struct Registered {
    pub kind: Box<dyn PropKind>,
    pub props: Props,
    /// What its step touches, asked once, when it was registered.
    pub access: Access,
    /// The group it steps in ([`crate::access::groups`]; 0 is the traffic's).
    pub group: usize,
}

impl Registered {
    /// The crowd and instance number of `instance` (one of this kind's).
    pub fn locate(&self, instance: &PropInstance) -> (&PropCrowd, u32) {
        (&self.props.crowds[instance.model()], instance.index)
    }
}

/// The kind number of `instance`.
pub(crate) fn kind_of(instance: &PropInstance) -> usize {
    usize::from(instance.kind)
}
