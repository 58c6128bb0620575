//! The seam of the scene: what a kind of prop is (its asset, its components, its systems, the
//! clips it plays on simulation events, what a player is told about it), defined in one file by
//! implementing [`PropKind`] and registered with the scene. The town's kinds (`kinds/`) are
//! registered the same way as a game's own; the bus (`kinds/buses.rs`) is the worked example.
//!
//! The scene owns each kind's [`KindProps`]: one animation-runtime crowd per model of the kind. A
//! kind spawns its entities through [`KindProps::spawn`] (which links each to its instance), and
//! each step its system writes their placements and animation states (clip layers, driver
//! angles). A kind declares the components its step reads and writes ([`PropKind::access`]):
//! kinds that do not conflict step at the same time on the scene's worker threads. Posing,
//! culling, pose sharing, extraction and picking are the scene's, the same for every kind.

use std::any::Any;

use glam::Affine3A;
use hecs::{DynamicBundle, Entity, EntityBuilder, World};
use props_anim::Model;
use props_crowd::{BoundModel, CrowdGroup, CrowdOptions, ModelCrowd, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::stand_in_kit::SyntheticError;
use crate::town::Town;

/// The one model of a kind that shows one (`models` must hold exactly one): for
/// [`PropKind::bind`].
pub fn only_model<'a>(kind: &'static str, models: &'a [PropModel]) -> Result<&'a PropModel, SceneError> {
    match models {
        [model] => Ok(model),
        _ => Err(SceneError::ModelCount { kind, expected: "one", found: models.len() }),
    }
}

/// `count` props of the kind named `kind`, if it takes that many (`max`): for
/// [`PropKind::set_count`].
pub fn at_most(kind: &'static str, count: usize, max: usize) -> Result<usize, SceneError> {
    match count <= max {
        true => Ok(count),
        false => Err(SceneError::TooMany { kind, requested: count, max }),
    }
}

/// The models of a kind whose props pick among one or more (`models` must not be empty): for
/// [`PropKind::bind`].
pub fn some_models<'a>(kind: &'static str, models: &'a [PropModel]) -> Result<&'a [PropModel], SceneError> {
    if models.is_empty() {
        return Err(SceneError::ModelCount { kind, expected: "one or more", found: 0 });
    }
    Ok(models)
}

/// Which of its kind's models a prop shows, when the kind has several (cars, windmills,
/// foxes: a mod adds variety): picked from a random number drawn when it was spawned, so the
/// choice is seeded, and made again the same way when the models change ([`KindProps::repick`]).
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
    /// Metres per unit of the base asset (Fox.glb is in centimetres: 0.01): its models'
    /// [`props_crowd::PropModel::scale`], at which the kind places its props (the traffic
    /// lights at twice it, so that a player reads them from the town's overview).
    pub units: f32,
    /// Where its props stand, in a word or two (`hills`), for what a mod's log line says.
    pub place: &'static str,
    /// The role a mod's sidecar names to be shown by this kind (`role = "car"`).
    pub role: &'static str,
    /// Whether a mod of its role named other than its stem adds a model beside it (its props
    /// pick among the models, seeded) instead of replacing it.
    pub variants: bool,
    /// The node parts a sidecar may bind (`[nodes]`), and how many nodes each takes (`None`:
    /// any number, at least one); see [`props_crowd::Bindings`].
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

    /// A small stand-in for its base asset, with the asset's node and clip names and a triangle
    /// where the asset has a mesh: for tests, benchmarks and a town without the asset files
    /// ([`crate::synthetic`]). `None` for a kind without a base asset (the mod lot).
    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        None
    }

    /// How many props it spawns when it is registered, for a kind whose number the game
    /// chooses (`--count cars=200`): its default, until [`PropKind::set_count`] sets another.
    /// `None` (the default): the town places its props itself (a traffic light at each
    /// signalled intersection).
    fn count(&self) -> Option<usize> {
        None
    }

    /// Sets how many props it spawns when it is registered ([`crate::SceneConfig::counts`]).
    /// An error, and nothing set, for a kind whose number the game cannot choose, or more
    /// props than it takes.
    fn set_count(&mut self, count: usize) -> Result<(), SceneError> {
        let _ = count;
        Err(SceneError::Uncounted(self.name()))
    }

    /// The vehicles it puts on the roads when it spawns, for sizing the town: its grid grows
    /// until they take at most half of the roads' room (0 by default).
    fn vehicles(&self) -> usize {
        0
    }

    /// Binds its models (one or more; a kind that shows one model per prop gets one) to what
    /// it animates: looks up the nodes and clips it drives, by their [`props_crowd::Bindings`]
    /// or its naming conventions. The first missing one is the error, and nothing changes.
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError>;

    /// Spawns its props into `world`, once, when it is registered.
    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps);

    /// The components of `world` its [`PropKind::step`] reads and writes (by default all of
    /// them: it steps alone). Kinds that do not conflict step at the same time; one that
    /// touches [`crate::town::traffic::Vehicle`]s steps after the traffic has moved them (vehicle following
    /// writes them), as on one thread.
    fn access(&self) -> StepAccess {
        StepAccess::everything()
    }

    /// Its systems for one step of `dt` seconds: move its props and set their animation states.
    /// It queries `world` only for the components its [`PropKind::access`] declares.
    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps, dt: f32);

    /// Shows at once a change the game made to the town between steps (a signal forced), as
    /// the next step would. By default nothing: the next step shows it.
    fn refresh(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps) {
        let _ = (world, town, props);
    }

    /// Takes new versions of its models ([`PropKind::bind`] accepted them), keeping every prop's
    /// state. By default each model's instances move to its new version, in order (a kind
    /// whose props pick among a varying number of models calls [`KindProps::repick`]).
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, models: Vec<BoundModel>) {
        let _ = world;
        props.recompile(models);
    }

    /// What a player who picked `entity`, one of its props (in `props`), is told it is doing,
    /// in a few words (`bus at its stop at 0 km/h on lane 12, doors 100 % open`).
    fn describe(&self, world: &World, town: &Town<'_>, props: &KindProps, entity: Entity) -> Option<String>;
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

/// One kind's props on the animation runtime: a crowd per model it shows.
#[derive(Clone, Debug)]
pub struct KindProps {
    kind: u16,
    crowds: Vec<ModelCrowd>,
    /// How the scene poses crowds, for new ones.
    options: CrowdOptions,
}

impl KindProps {
    /// No props yet of kind number `kind`, one crowd per model of `rigs`, posed as `options`
    /// say.
    pub(crate) fn new(kind: u16, rigs: Vec<BoundModel>, options: CrowdOptions) -> Self {
        let mut props = Self { kind, crowds: Vec::new(), options };
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

    /// Adds an instance of model `model` at `placement`, for an entity spawned by the caller,
    /// in the material variant (a livery) its number gives: one of those its model's bindings
    /// list ([`props_crowd::Bindings::material_variants`]), else its own materials or one of
    /// its model's variants, spread among them by a hash of its number.
    pub fn push(&mut self, model: usize, placement: Affine3A) -> PropInstance {
        let crowd = &mut self.crowds[model];
        let index = crowd.push(placement);
        crowd.set_material_variant(index, livery(index, crowd.prop()));
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
    pub fn crowd(&self, model: usize) -> &ModelCrowd {
        &self.crowds[model]
    }

    /// The crowd of model `model`, to set states and placements.
    pub fn crowd_mut(&mut self, model: usize) -> &mut ModelCrowd {
        &mut self.crowds[model]
    }

    /// The crowd an instance is in, to set its state.
    pub fn of(&mut self, instance: &PropInstance) -> &mut ModelCrowd {
        &mut self.crowds[instance.model()]
    }

    /// Every model's crowd.
    #[must_use]
    pub fn crowds(&self) -> &[ModelCrowd] {
        &self.crowds
    }

    /// Every model's crowd, to pose.
    pub(crate) fn crowds_mut(&mut self) -> &mut [ModelCrowd] {
        &mut self.crowds
    }

    /// Props in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.crowds.iter().map(ModelCrowd::len).sum()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// New, empty crowds for `rigs`.
    fn empty_crowds(&self, rigs: Vec<BoundModel>) -> Vec<ModelCrowd> {
        rigs.into_iter().map(|rig| ModelCrowd::new(rig, self.options)).collect()
    }

    /// Drops every prop's instance and starts empty crowds for `rigs` (any number, none
    /// included), for a kind that spawns its props again when its models change (the mod
    /// lot). The caller despawns the entities that showed the old instances.
    pub fn replace(&mut self, rigs: Vec<BoundModel>) {
        self.crowds = self.empty_crowds(rigs);
    }

    /// Moves every model's instances to the model's new version: one rig per model, in order,
    /// as many as before (what a kind with a fixed number of models rigs; one that picks among
    /// a varying number calls [`KindProps::repick`]).
    pub fn recompile(&mut self, rigs: Vec<BoundModel>) {
        debug_assert_eq!(rigs.len(), self.crowds.len(), "one new rig per model");
        let mut next = self.empty_crowds(rigs);
        for (crowd, old) in next.iter_mut().zip(&self.crowds) {
            crowd.take_instances(old);
            for i in 0..crowd.len() as u32 {
                crowd.set_material_variant(i, livery(i, crowd.prop()));
                rescale(crowd, i, old.prop().scale);
            }
        }
        self.crowds = next;
    }

    /// Moves every prop of this kind that carries a [`ModelPick`] into new crowds for `rigs`
    /// (any number), each showing the model its pick gives among them, in spawn order,
    /// keeping its state, placement and paint.
    pub fn repick(&mut self, world: &mut World, rigs: Vec<BoundModel>) {
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
            let material_variant = livery(index, next[model].prop());
            next[model].set_material_variant(index, material_variant);
            rescale(&mut next[model], index, self.crowds[instance.model()].prop().scale);
            if let Ok(mut link) = world.get::<&mut PropInstance>(entity) {
                *link = PropInstance { kind: self.kind, model: model as u16, index };
            }
        }
        self.crowds = next;
    }
}

/// Instance `i` of `crowd`, placed for a model drawn at `before` times its size, placed for
/// its own scale ([`PropModel::scale`]: a mod's units, or its size fitted to the kind's):
/// a prop placed once (a house, a windmill, a car standing at a light) keeps the placement
/// it was given, which carries its model's scale.
fn rescale(crowd: &mut ModelCrowd, i: u32, before: f32) {
    let now = crowd.prop().scale;
    if now != before && before > 0.0 && (now / before).is_finite() {
        let placement = crowd.placement(i) * Affine3A::from_scale(glam::Vec3::splat(now / before));
        crowd.set_placement(i, placement);
    }
}

/// The material variant prop number `index` of `prop` shows (`KHR_materials_variants`: a car's
/// liveries): one of those its bindings list ([`props_crowd::Bindings::material_variants`]),
/// else its own materials or one of its model's variants, spread by a hash of its number, so
/// that a modder's liveries all show in the town (a prop keeps its number, and so its livery,
/// as its kind's models are recompiled; a repick numbers them anew).
fn livery(index: u32, prop: &PropModel) -> Option<u8> {
    let spread = index.wrapping_mul(0x9E37_79B9).rotate_right(16) as usize;
    match &prop.bindings.material_variants[..] {
        [] => (spread % (prop.model.material_variants().len() + 1)).checked_sub(1).map(|v| v as u8),
        listed => prop.model.material_variant(&listed[spread % listed.len()]),
    }
}

/// A registered kind with its props.
pub(crate) struct Registered {
    pub kind: Box<dyn PropKind>,
    pub props: KindProps,
    /// What its step touches, asked once, when it was registered.
    pub access: StepAccess,
    /// The group it steps in ([`crate::access::groups`]; 0 is the traffic's).
    pub group: usize,
}

impl Registered {
    /// The crowd and instance number of `instance` (one of this kind's).
    pub fn locate(&self, instance: &PropInstance) -> (&ModelCrowd, u32) {
        (&self.props.crowds[instance.model()], instance.index)
    }
}

/// A kind's crowds are posed side by side.
impl CrowdGroup for Registered {
    fn crowds(&self) -> &[ModelCrowd] {
        &self.props.crowds
    }

    fn crowds_mut(&mut self) -> &mut [ModelCrowd] {
        &mut self.props.crowds
    }
}

/// The kind number of `instance`.
pub(crate) fn kind_of(instance: &PropInstance) -> usize {
    usize::from(instance.kind)
}
