//! People on the sidewalks. Each walks round its block on the sidewalk at its own pace, now
//! and then stands about (`Idle`) or runs a little, and at a corner sometimes crosses to the
//! next block: it slows to a stop at the kerb, waits (`Wait`) for the signals' walk phase, then
//! crosses ([`crate::town::crossings`]: every car approach is red and the box empty while
//! walkers are on a crossing, so cars never meet them there). Its gait follows its speed as
//! every legged kind's does ([`props_crowd::gaited`]): `Walk` and `Run` at the rates their
//! strides call for, blended in phase, crossfading with its standing clip when it stops.

use glam::{Affine3A, Vec2, Vec3};
use hecs::{Entity, World};
use std::sync::Arc;

use props_anim::gait;
use props_anim::humanoid::{BoneMap, with_clips_from};
use props_anim::{Model, Spec};
use props_crowd::{BoundModel, Ground, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::facing;
use crate::kind::{KindAsset, KindProps, ModelPick, PropInstance, PropKind, at_most, some_models};
use crate::kinds::legged;
use crate::rng::Rng;
use crate::stand_in_kit::{SyntheticError, build, node, step, swing};
use crate::town::Town;
use crate::town::crossings::{Corner, CrossingUse, KERB, WALKING_LINE, corners, crossing_height};
use crate::town::roads::IntersectionId;
use props_crowd::gaited::{self, GaitState, GaitedModel};

/// How fast a person changes speed, m/s².
const SPEED_CHANGE: f32 = 1.5;
/// How likely a person is to cross at a corner that has a crossing.
const CROSS_CHANCE: f32 = 0.4;
/// How far people walk to either side of the sidewalk's walking line, metres (along a
/// corner's diagonal: 0.28 m across the sidewalk).
pub const SPREAD: f32 = 0.4;
/// The slowest a person walks the last metres to a kerb, m/s (it stops there).
const KERB_SPEED: f32 = 0.2;
/// How much faster than its pace a person crosses once the walk phase has ended.
const HURRY: f32 = 1.3;
/// The standing clips' indices in [`Spec::clips`]: idling and waiting at a kerb.
const IDLE: u16 = 2;
const WAIT: u16 = 3;

/// Most people the town holds.
pub const MAX_PEDESTRIANS: usize = 100_000;
/// People the town starts with unless the game says otherwise.
pub const DEFAULT_PEDESTRIANS: usize = 40;

/// What a person is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Walking (or running) along its block's sidewalk.
    Walking,
    /// Standing about on the sidewalk.
    Standing,
    /// Waiting at a corner for the walk phase.
    Waiting,
    /// On a crossing.
    Crossing,
}

/// A person and where it is: `along` metres from `start` on a stretch of sidewalk or a
/// crossing, `length` long in `direction`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Person {
    /// The block whose sidewalk it is on (or last was), an index of the town's blocks.
    block: u32,
    /// The corner of that block it walks towards (0 to 3, counter-clockwise).
    corner: u8,
    /// +1: counter-clockwise round its block seen from above; -1: clockwise.
    round: i8,
    /// The block and corner it crosses to from the corner it walks towards, if it will.
    cross_to: Option<BlockCorner>,
    start: Vec2,
    direction: Vec2,
    length: f32,
    along: f32,
    /// How far off the walking line it walks, towards its block's centre, metres.
    lane: f32,
    activity: Activity,
    speed: f32,
    pace: f32,
    running: bool,
    timer: f32,
    rng: Rng,
}

impl Person {
    /// What it is doing.
    #[must_use]
    pub fn activity(&self) -> Activity {
        self.activity
    }

    /// Its speed, m/s.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Where it stands, (x, z).
    #[must_use]
    pub fn position(&self) -> Vec2 {
        self.start + self.direction * self.along.min(self.length)
    }

    /// The way it faces, a unit (x, z).
    #[must_use]
    pub fn heading(&self) -> Vec2 {
        self.direction
    }

    /// Sets off from where it stands towards `end`.
    fn head_for(&mut self, end: Vec2) {
        let start = self.position();
        (self.start, self.along, self.length) = (start, 0.0, start.distance(end));
        self.direction = (end - start).try_normalize().unwrap_or(self.direction);
    }
}

/// A corner of a block's sidewalk: the block (an index of the town's blocks) and the corner
/// (0 to 3, counter-clockwise).
type BlockCorner = (u32, u8);

/// The town's blocks as people see them: each block's sidewalk corners, and from each corner
/// the crossings to the neighbouring blocks' corners (none at the town's edge).
#[derive(Clone, Debug, Default)]
struct Sidewalks {
    centres: Vec<Vec2>,
    corners: Vec<[Corner; 4]>,
    /// Per block and corner, the two crossings (the block and corner across).
    crossings: Vec<[[Option<BlockCorner>; 2]; 4]>,
}

impl Sidewalks {
    fn new(town: &Town<'_>) -> Self {
        let centres: Vec<Vec2> = town.roads.block_centres().collect();
        let corners: Vec<[Corner; 4]> = centres.iter().map(|&c| corners(town.roads, c)).collect();
        // The blocks lie on a grid: `side` x `side`, `block` apart, centred on the origin.
        let side = centres.len().isqrt();
        let find = |at: Vec2| {
            let cell = (at / town.roads.block() + Vec2::splat((side as f32 - 1.0) * 0.5)).round();
            let inside = |v: f32| (0.0..side as f32).contains(&v);
            (inside(cell.x) && inside(cell.y)).then(|| cell.y as usize * side + cell.x as usize)
        };
        let crossings = centres
            .iter()
            .zip(&corners)
            .map(|(&centre, block_corners)| {
                [0, 1, 2, 3].map(|k| {
                    let sign = (block_corners[k].at - centre).signum();
                    let block = town.roads.block();
                    // Across the road along x (to the block beyond in z), then the one along z.
                    [Vec2::new(0.0, sign.y), Vec2::new(sign.x, 0.0)].map(|step| {
                        let other = find(centre + step * block)?;
                        let meets =
                            corners[other].iter().position(|c| c.intersection == block_corners[k].intersection)?;
                        Some((other as u32, meets as u8))
                    })
                })
            })
            .collect();
        Self { centres, corners, crossings }
    }

    /// Corner `corner` of block `block`, moved `lane` metres towards the block's centre.
    fn point(&self, block: u32, corner: u8, lane: f32) -> Vec2 {
        let (centre, at) = (self.centres[block as usize], self.corners[block as usize][usize::from(corner)].at);
        at + (centre - at).normalize_or_zero() * lane
    }

    /// The corner after `corner` going `direction` round the block.
    fn next(corner: u8, direction: i8) -> u8 {
        (i16::from(corner) + i16::from(direction)).rem_euclid(4) as u8
    }
}

/// The people: `count` of them, on the sidewalks of the town's blocks, each showing one of
/// the pedestrian models (picked per person from the town's seed). Clips, in [`Spec::clips`]
/// order: `Walk`, `Run` (the walk again if the model has none), and its standing clips, `Idle`
/// and `Wait` (either standing for the other where only one is bound).
pub struct Pedestrians {
    count: usize,
    /// Per model, what its people play.
    models: Vec<GaitedModel>,
    sidewalks: Sidewalks,
    /// The ground their feet are planted on (once spawned).
    ground: Option<Ground>,
}

impl Default for Pedestrians {
    fn default() -> Self {
        Self::new(DEFAULT_PEDESTRIANS)
    }
}

impl Pedestrians {
    /// `count` people.
    pub fn new(count: usize) -> Self {
        Self { count, models: Vec::new(), sidewalks: Sidewalks::default(), ground: None }
    }

    /// Measures each model's gaits from its clips.
    fn measure(&mut self, props: &mut KindProps) {
        self.models = legged::measure_all(props, self.ground.as_ref());
    }

    /// Person `index`, on the sidewalk of block `index % blocks`, somewhere along it, walking at
    /// its own pace (a multiple of its model's walking speed), its gaits at a random phase.
    fn person(&self, mut rng: Rng, index: usize, model: &GaitedModel) -> (Person, GaitState) {
        let blocks = self.sidewalks.centres.len().max(1);
        let block = (index % blocks) as u32;
        let (phase, standing_time) = (rng.next_f32(), rng.range(0.0, model.standing_duration(IDLE)));
        let round = if rng.below(2) == 0 { 1 } else { -1 };
        let corner = rng.below(4) as u8;
        let lane = rng.range(-SPREAD, SPREAD);
        let from = Sidewalks::next(corner, -round);
        let (start, end) = (self.sidewalks.point(block, from, lane), self.sidewalks.point(block, corner, lane));
        let length = start.distance(end);
        let pace = rng.range(0.85, 1.2);
        let mut person = Person {
            block,
            corner,
            round,
            cross_to: None,
            start,
            direction: (end - start).try_normalize().unwrap_or(Vec2::Y),
            length,
            along: rng.range(0.0, length),
            lane,
            activity: Activity::Walking,
            speed: pace * model.speeds[0],
            pace,
            running: false,
            timer: rng.range(2.0, 10.0),
            rng,
        };
        person.cross_to = self.choose_crossing(&mut person.rng, block, corner);
        (person, GaitState::new(phase, standing_time))
    }

    /// Whether to cross at `corner` of `block`, and where to.
    fn choose_crossing(&self, rng: &mut Rng, block: u32, corner: u8) -> Option<BlockCorner> {
        let options = self.sidewalks.crossings.get(block as usize)?[usize::from(corner)];
        let draw = rng.next_f32();
        let pick = options[rng.below(2) as usize].or(options[0]).or(options[1]);
        (draw < CROSS_CHANCE).then_some(pick).flatten()
    }

    /// One person's step: behaviour, movement and what the signals should see of it.
    fn walk(&self, person: &mut Person, crossing: &mut CrossingUse, town: &Town<'_>, model: &GaitedModel, dt: f32) {
        let walk = person.pace * model.speeds[0];
        let at = || self.intersection(person.block, person.corner);
        let target = match person.activity {
            Activity::Walking => {
                person.timer -= dt;
                if person.timer <= 0.0 {
                    let draw = person.rng.next_f32();
                    person.running = !person.running && draw < 0.08;
                    let stands = !person.running && draw > 0.8 && person.cross_to.is_none();
                    person.timer = match (person.running, stands) {
                        (true, _) => person.rng.range(2.0, 4.0),
                        (_, true) => person.rng.range(3.0, 8.0),
                        _ => person.rng.range(5.0, 15.0),
                    };
                    if stands {
                        person.activity = Activity::Standing;
                    }
                }
                match person.running {
                    true => person.pace * model.speeds[1],
                    false => walk,
                }
            }
            Activity::Standing => {
                person.timer -= dt;
                if person.timer <= 0.0 {
                    person.activity = Activity::Walking;
                    person.timer = person.rng.range(5.0, 15.0);
                }
                0.0
            }
            Activity::Waiting => {
                if town.signals.signal(at()).phase().walk() {
                    person.activity = Activity::Crossing;
                    *crossing = CrossingUse::Crossing(at());
                    walk
                } else {
                    0.0
                }
            }
            Activity::Crossing if town.signals.signal(at()).phase().walk() => walk,
            Activity::Crossing => walk * HURRY,
        };
        let change = SPEED_CHANGE * dt;
        person.speed += (target - person.speed).clamp(-change, change);
        let length = person.length;
        if person.activity == Activity::Walking && person.cross_to.is_some() {
            // Slows to stop at the kerb.
            let remaining = (length - person.along).max(0.0);
            person.speed = person.speed.min((2.0 * SPEED_CHANGE * remaining).sqrt().max(KERB_SPEED));
        }
        if person.activity == Activity::Waiting {
            person.speed = 0.0;
        }
        person.along += person.speed * dt;
        if person.along >= length && matches!(person.activity, Activity::Walking | Activity::Crossing) {
            self.arrive(person, crossing);
        }
    }

    /// The centre of the intersection `person` is at (or by).
    fn centre_of(&self, person: &Person) -> Vec2 {
        let corner = &self.sidewalks.corners[person.block as usize][usize::from(person.corner)];
        corner.at + (corner.at - self.sidewalks.centres[person.block as usize]).signum() * WALKING_LINE
    }

    /// The intersection whose corner `corner` of `block` is.
    fn intersection(&self, block: u32, corner: u8) -> IntersectionId {
        self.sidewalks.corners[block as usize][usize::from(corner)].intersection
    }

    /// At the end of a stretch: a walker at a corner waits to cross or turns along the next
    /// side of its block; a crosser steps onto the other block's sidewalk.
    fn arrive(&self, person: &mut Person, crossing: &mut CrossingUse) {
        person.along = person.length;
        match (person.activity, person.cross_to) {
            (Activity::Walking, Some((block, corner))) => {
                person.activity = Activity::Waiting;
                *crossing = CrossingUse::Waiting(self.intersection(person.block, person.corner));
                (person.block, person.corner, person.cross_to) = (block, corner, None);
                person.head_for(self.sidewalks.point(block, corner, person.lane));
                person.speed = 0.0;
            }
            _ => {
                if person.activity == Activity::Crossing {
                    person.activity = Activity::Walking;
                    *crossing = CrossingUse::Away;
                }
                person.corner = Sidewalks::next(person.corner, person.round);
                person.head_for(self.sidewalks.point(person.block, person.corner, person.lane));
                person.cross_to = self.choose_crossing(&mut person.rng, person.block, person.corner);
            }
        }
    }
}

/// The people's role: what a sidecar names them by, and the kind a file that declares a
/// walking person (a VRM avatar) joins without one.
pub const ROLE: &str = "pedestrian";

impl PropKind for Pedestrians {
    fn name(&self) -> &'static str {
        "pedestrians"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("pedestrian"),
            units: 1.0,
            place: "sidewalks",
            role: ROLE,
            variants: true,
            parts: &[],
            states: &["walk", "run", "idle", "wait"],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn count(&self) -> Option<usize> {
        Some(self.count)
    }

    fn set_count(&mut self, count: usize) -> Result<(), SceneError> {
        self.count = at_most(self.name(), count, MAX_PEDESTRIANS)?;
        Ok(())
    }

    /// Every pedestrian model (at least one): people pick among them. A humanoid without a
    /// walk of its own walks with the first model's that has one (its `Walk`, `Run`, `Idle`
    /// and `Wait`, retargeted to its rig).
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let models = some_models(self.name(), models)?;
        let walker = models.iter().find(|m| walks(m));
        models.iter().map(|person| bind_person(&with_base_clips(person, walker)?)).collect()
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        self.ground = Some(legged::ground_of(town));
        self.measure(props);
        self.sidewalks = Sidewalks::new(town);
        for i in 0..self.count {
            let mut rng = town.rng(self.name(), i as u64);
            let pick = ModelPick::new(i as u64, (rng.next_u64() >> 32) as u32);
            let model = pick.model(props.crowds().len());
            let (person, gait) = self.person(rng, i, &self.models[model]);
            props.spawn(world, model, Affine3A::IDENTITY, (person, gait, pick, CrossingUse::Away));
        }
        self.step(world, town, props, 0.0);
    }

    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<Person>().writes::<GaitState>().writes::<CrossingUse>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps, dt: f32) {
        let mut query = world.query::<(&mut Person, &mut GaitState, &mut CrossingUse, &PropInstance)>();
        for (person, gait, crossing, instance) in query.iter() {
            let model = &self.models[instance.model()];
            self.walk(person, crossing, town, model, dt);
            let crowd = props.of(instance);
            let at = person.position();
            let height = match person.activity {
                // Across the road, from kerb to kerb (dropped at both).
                Activity::Crossing => crossing_height((at - self.centre_of(person)).dot(person.heading()).abs()),
                _ => KERB,
            };
            let ground = Vec3::new(at.x, town.terrain.height(at) + height, at.y);
            crowd.set_placement(instance.index(), facing(person.heading(), crowd.prop().scale, ground));
            let rest = match person.activity {
                Activity::Waiting if model.can_stand(WAIT) => Some(WAIT),
                Activity::Waiting | Activity::Standing => Some(IDLE),
                Activity::Walking | Activity::Crossing => None,
            };
            model.animate(gait, (person.speed, rest), dt, crowd.layers_mut(instance.index()));
            crowd.set_planted(instance.index(), dt, || model.planted(gait));
        }
    }

    /// Every person picks again among the new models, keeping its state and placement.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, rigs: Vec<BoundModel>) {
        props.repick(world, rigs);
        self.measure(props);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let (person, gait) = (world.get::<&Person>(entity).ok()?, world.get::<&GaitState>(entity).ok()?);
        Some(format!(
            "person: {:?} ({:?}) at {:.1} m/s on block {}",
            person.activity(),
            gait.gait(),
            person.speed(),
            person.block
        ))
    }
}

/// Whether `person` has a walk of its own (bound by its sidecar, or named `Walk`).
fn walks(person: &PropModel) -> bool {
    person.bindings.clips.contains_key("walk") || person.model.find_clip("Walk").is_some()
}

/// `person` as it is when it has a walk of its own; else with `walker`'s clips retargeted to
/// its rig (both humanoids mapped by their bones' names, and `person`'s by its sidecar's
/// `[humanoid]` table where it gives one).
fn with_base_clips(person: &PropModel, walker: Option<&PropModel>) -> Result<PropModel, SceneError> {
    if walks(person) {
        return Ok(person.clone());
    }
    let walker = walker.ok_or_else(|| {
        // Replacing the base person takes its clips away with it.
        let why = "no pedestrian model walks: a model replacing the base person (`pedestrian.glb`) must bring its own \
                   `Walk`; one named otherwise is added beside it and walks with its clips";
        SceneError::Retarget(why.to_owned())
    })?;
    let (from, to) = (&*walker.model, &*person.model);
    let to_map =
        person.bindings.bone_map(to.rig()).map_err(|e| SceneError::Retarget(format!("{e} (in its sidecar)")))?;
    let from_map = BoneMap::find(from.rig());
    if !to_map.walks() {
        let fix = "export a walk, or name its bones as Mixamo, Blender's metarig, Rigify, VRM or Unreal do, or give them \
                   in its sidecar's `[humanoid]` table";
        return Err(SceneError::Retarget(format!("its skeleton cannot walk: {to_map} ({fix})")));
    }
    let clips: Vec<usize> =
        ["Walk", "Run", "Idle", "Wait"].into_iter().filter_map(|name| from.find_clip(name)).collect();
    let (model, _) =
        with_clips_from((to, &to_map), (from, &from_map), &clips).map_err(|e| SceneError::Retarget(e.to_string()))?;
    Ok(PropModel { model: Arc::new(model), ..person.clone() })
}

/// `person` bound to its clips: `Walk`, `Run` (else the walk), played in place, and its
/// standing clips.
fn bind_person(person: &PropModel) -> Result<BoundModel, SceneError> {
    let (m, b) = (&*person.model, &person.bindings);
    let clip = |state: &'static str, default: &'static str| {
        b.clip(m, state, default).map_err(SceneError::of_model("pedestrian"))
    };
    // Optional: bound by a sidecar (then it must exist), else by name.
    let optional = |state: &'static str, name: &'static str| match b.clips.contains_key(state) {
        true => clip(state, name).map(Some),
        false => Ok(m.find_clip(name)),
    };
    let walk = clip("walk", "Walk")?;
    if gait::stride(m, walk).is_none() {
        return Err(SceneError::NoStride { clip: m.clips()[walk].name().unwrap_or("Walk").to_owned() });
    }
    let run = optional("run", "Run")?.unwrap_or(walk);
    let (idle, wait) = (optional("idle", "Idle")?, optional("wait", "Wait")?);
    let mut clips = vec![walk, run];
    clips.extend(idle.or(wait).map(|idle| [idle, wait.unwrap_or(idle)]).into_iter().flatten());
    let person = gaited::played_in_place(person.clone(), &mut clips[..2]);
    Ok(BoundModel::new(person, Spec { clips, ..Spec::default() }, gaited::LAYERS))
}

/// A small skinned walker with the pedestrian's node and clip names: legs of hip, knee, ankle
/// and toe (so that its feet can be held by IK), `Walk` (1.05 s, each toe planted half the
/// cycle, 0.63 m a half cycle: 1.2 m/s), `Run` (0.72 s, 1.08 m: 3 m/s), and `Idle` and `Wait`
/// (the head turning), which animate the same joints differently so that a blend shows.
pub fn stand_in() -> Result<Model, SyntheticError> {
    let toe = Vec3::new(0.0, -0.05, 0.13);
    let nodes = [
        node("pedestrian", Vec3::ZERO, &[1, 12], false),
        node("hips", Vec3::new(0.0, 0.95, 0.0), &[2, 4, 8], false),
        node("spine", Vec3::new(0.0, 0.3, 0.0), &[3], false),
        node("head", Vec3::new(0.0, 0.4, 0.0), &[], false),
        node("thigh_l", Vec3::new(0.1, -0.05, 0.0), &[5], false),
        node("shin_l", Vec3::new(0.0, -0.42, 0.0), &[6], false),
        node("foot_l", Vec3::new(0.0, -0.41, 0.0), &[7], false),
        node("toe_l", toe, &[], false),
        node("thigh_r", Vec3::new(-0.1, -0.05, 0.0), &[9], false),
        node("shin_r", Vec3::new(0.0, -0.42, 0.0), &[10], false),
        node("foot_r", Vec3::new(0.0, -0.41, 0.0), &[11], false),
        node("toe_r", toe, &[], false),
        node("body", Vec3::ZERO, &[], false),
    ];
    let gait = |duration: f32, stride: f32, lean: f32| {
        vec![
            step(7, toe, duration, (stride, 0.1), 0.0),
            step(11, toe, duration, (stride, 0.1), 0.5),
            swing(2, Vec3::Y, duration, lean, 0.25),
        ]
    };
    let look = |amplitude: f32| vec![swing(3, Vec3::Y, 4.0, amplitude, 0.0)];
    let clips = vec![
        ("Walk", gait(1.05, 0.63, 0.05)),
        ("Run", gait(0.72, 1.08, 0.12)),
        ("Idle", look(0.2)),
        ("Wait", look(0.6)),
    ];
    build(&nodes, clips, Some((&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 12)))
}
