//! Foxes walking loops in the parks between the roads. Each fox walks at its own pace, now and
//! then runs, and, when its model has an idle clip (`Idle`, else `Survey`, or bound as `idle`),
//! now and then stands still and looks about; its speed eases between these. Its gait follows
//! the speed as every legged kind's does ([`props_crowd::gaited`]): `Walk` and `Run` at the
//! rates their strides call for, blended in phase, crossfading with the idle clip when it
//! stands.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use glam::{Affine3A, Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::clip::PlayMode;
use props_anim::{Model, Spec};
use props_crowd::{BoundModel, Ground, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::facing;
use crate::kind::{KindAsset, KindProps, ModelPick, PropInstance, PropKind, at_most, some_models};
use crate::kinds::legged;
use crate::rng::{Rng, Stream};
use crate::stand_in_kit::{ChannelSpec, SyntheticError, build, node, step, swing};
use crate::town::Town;
use props_crowd::gaited::{self, GaitState, GaitedModel};

/// How fast a fox changes speed, m/s².
const SPEED_CHANGE: f32 = 2.5;
/// Park loop radius as a fraction of the block size.
const LOOP_RADIUS: f32 = 0.28;
/// Radial distance between the paths of foxes sharing a park, metres.
const PATH_SPACING: f32 = 1.2;
/// Paths per park: foxes beyond one per park take the next path out.
const PATHS: usize = 8;
/// The idle clip's index in [`Spec::clips`].
const IDLE: u16 = 2;

/// A fox and where it is on its park loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fox {
    park: Vec2,
    radius: f32,
    /// +1 counter-clockwise seen from above, -1 clockwise.
    direction: f32,
    angle: f32,
    speed: f32,
    target_speed: f32,
    pace: f32,
    running: bool,
    resting: bool,
    timer: f32,
    rng: Rng,
}

impl Fox {
    /// Speed along the loop, m/s.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// The speed it is easing towards, m/s.
    #[must_use]
    pub fn target_speed(&self) -> f32 {
        self.target_speed
    }

    /// Position on the ground, (x, z).
    #[must_use]
    pub fn position(&self) -> Vec2 {
        self.park + Vec2::new(self.angle.cos(), self.angle.sin()) * self.radius
    }

    /// Unit direction of travel, (x, z).
    #[must_use]
    pub fn heading(&self) -> Vec2 {
        Vec2::new(-self.angle.sin(), self.angle.cos()) * self.direction
    }
}

/// Fox `index`: on the loop of park `index % parks`, walking at its own pace (a multiple of
/// its model's walking speed), its gaits at a random phase.
fn fox(index: usize, parks: &[Vec2], block: f32, seed: u64, model: &GaitedModel) -> (Fox, GaitState) {
    let mut rng = Rng::stream(seed, Stream::Fox, index as u64);
    let (phase, idle_phase) = (rng.next_f32(), rng.range(0.0, model.standing_duration(IDLE)));
    let lane = (index / parks.len().max(1)) % PATHS;
    let pace = rng.range(0.85, 1.15);
    let walk = model.speeds[0] * pace;
    let fox = Fox {
        park: parks.get(index % parks.len().max(1)).copied().unwrap_or_default(),
        radius: block * LOOP_RADIUS + lane as f32 * PATH_SPACING,
        direction: if rng.below(2) == 0 { 1.0 } else { -1.0 },
        angle: rng.angle(),
        speed: walk,
        target_speed: walk,
        pace,
        running: false,
        resting: false,
        timer: rng.range(1.0, 8.0),
        rng,
    };
    (fox, GaitState::new(phase, idle_phase))
}

/// Where a fox stands: on the ground, facing its way, `scale` times the model.
fn placement(fox: &Fox, scale: f32) -> Affine3A {
    let (sin, cos) = fox.angle.sin_cos();
    let at = fox.park + Vec2::new(cos, sin) * fox.radius;
    facing(Vec2::new(-sin, cos) * fox.direction, scale, Vec3::new(at.x, 0.0, at.y))
}

/// Moves every fox along its loop, updates its behaviour and sets its layers by its speed
/// ([`GaitedModel::animate`]), the idle clip over the gaits while it rests.
fn update(world: &World, models: &[GaitedModel], foxes: &mut KindProps, dt: f32) {
    for (fox, gait, instance) in world.query::<(&mut Fox, &mut GaitState, &PropInstance)>().iter() {
        let model = &models[instance.model()];
        let foxes = foxes.of(instance);
        let scale = foxes.prop().scale;
        let can_rest = model.can_stand(IDLE);
        if !can_rest && fox.resting {
            // Its model changed to one without an idle clip: it walks at once.
            (fox.resting, fox.target_speed) = (false, fox.pace * model.speeds[0]);
        }
        behave(fox, model.speeds, can_rest, dt);
        fox.angle = PlayMode::Loop.wrap(fox.angle + fox.direction * fox.speed * dt / fox.radius, TAU);
        foxes.set_placement(instance.index(), placement(fox, scale));
        let rest = fox.resting.then_some(IDLE);
        model.animate(gait, (fox.speed, rest), dt, foxes.layers_mut(instance.index()));
        foxes.set_planted(instance.index(), dt, || model.planted(gait));
    }
}

/// The foxes (the animals): `count` of them, in the parks of the town's blocks, each showing one
/// of the animal models (picked per fox from the town's seed). Clips, in [`Spec::clips`] order:
/// `Walk`, `Run` and, if the model has one, the idle clip.
pub struct Foxes {
    count: usize,
    /// Per model, what its foxes play.
    models: Vec<GaitedModel>,
    /// The ground their feet are planted on (once spawned).
    ground: Option<Ground>,
}

/// Most foxes the town holds.
pub const MAX_FOXES: usize = 100_000;
/// Foxes the town starts with unless the game says otherwise.
pub const DEFAULT_FOXES: usize = 12;

impl Default for Foxes {
    fn default() -> Self {
        Self::new(DEFAULT_FOXES)
    }
}

impl Foxes {
    /// `count` foxes.
    pub fn new(count: usize) -> Self {
        Self { count, models: Vec::new(), ground: None }
    }

    /// Measures each model's gaits from its clips.
    fn measure(&mut self, props: &mut KindProps) {
        self.models = legged::measure_all(props, self.ground.as_ref());
    }
}

impl PropKind for Foxes {
    fn name(&self) -> &'static str {
        "foxes"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("Fox"),
            units: 0.01,
            place: "parks",
            role: "animal",
            variants: true,
            parts: &[],
            states: &["walk", "run", "idle"],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn count(&self) -> Option<usize> {
        Some(self.count)
    }

    fn set_count(&mut self, count: usize) -> Result<(), SceneError> {
        self.count = at_most(self.name(), count, MAX_FOXES)?;
        Ok(())
    }

    /// Every animal model (at least one): foxes pick among them.
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let rig = |fox: &PropModel| {
            let (f, b) = (&*fox.model, &fox.bindings);
            let clip = |state, default| b.clip(f, state, default).map_err(SceneError::of_model("animal"));
            // The run and idle clips are optional: bound by a sidecar (then they must exist),
            // else by name. Without a run, the walk quickens.
            let walk = clip("walk", "Walk")?;
            let run = match b.clips.contains_key("run") {
                true => clip("run", "Run")?,
                false => f.find_clip("Run").unwrap_or(walk),
            };
            let idle = match b.clips.contains_key("idle") {
                true => Some(clip("idle", "Idle")?),
                false => f.find_clip("Idle").or_else(|| f.find_clip("Survey")),
            };
            let mut clips = vec![walk, run];
            clips.extend(idle);
            let fox = gaited::played_in_place(fox.clone(), &mut clips[..2]);
            Ok(BoundModel::new(fox, Spec { clips, ..Spec::default() }, gaited::LAYERS))
        };
        some_models(self.name(), models)?.iter().map(rig).collect()
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        self.ground = Some(legged::ground_of(town));
        self.measure(props);
        let parks: Vec<Vec2> = town.roads.block_centres().collect();
        for i in 0..self.count {
            let pick = ModelPick::new(i as u64, (town.rng(self.name(), i as u64).next_u64() >> 32) as u32);
            let model = pick.model(props.crowds().len());
            let (fox, gait) = fox(i, &parks, town.config.block, town.config.seed, &self.models[model]);
            props.spawn(world, model, Affine3A::IDENTITY, (fox, gait, pick));
        }
        update(world, &self.models, props, 0.0);
    }

    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<Fox>().writes::<GaitState>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, _town: &Town<'_>, props: &mut KindProps, dt: f32) {
        update(world, &self.models, props, dt);
    }

    /// Every fox picks again among the new models, keeping its state and placement.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, rigs: Vec<BoundModel>) {
        props.repick(world, rigs);
        self.measure(props);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let (fox, gait) = (world.get::<&Fox>(entity).ok()?, world.get::<&GaitState>(entity).ok()?);
        Some(format!(
            "fox: {:?} at {:.1} m/s (run weight {:.2}, idle weight {:.2})",
            gait.gait(),
            fox.speed(),
            gait.run_weight(),
            gait.idle_weight()
        ))
    }
}

/// Walk for a while, sometimes run or (`can_rest`) stand for a while, and walk again after;
/// ease the speed towards the chosen pace times the gait's own speed (`speeds`: the walk's and
/// the run's, m/s).
fn behave(fox: &mut Fox, speeds: [f32; 2], can_rest: bool, dt: f32) {
    fox.timer -= dt;
    if fox.timer <= 0.0 {
        let draw = fox.rng.next_f32();
        let walking = !fox.running && !fox.resting;
        (fox.running, fox.resting) = (walking && draw < 0.45, walking && can_rest && (0.45..0.65).contains(&draw));
        fox.timer = match (fox.running, fox.resting) {
            (true, _) => fox.rng.range(2.0, 4.0),
            (_, true) => fox.rng.range(3.0, 7.0),
            _ => fox.rng.range(4.0, 10.0),
        };
    }
    let pace = match (fox.running, fox.resting) {
        (true, _) => speeds[1],
        (_, true) => 0.0,
        _ => speeds[0],
    };
    fox.target_speed = fox.pace * pace;
    let change = SPEED_CHANGE * dt;
    fox.speed += (fox.target_speed - fox.speed).clamp(-change, change);
}

/// A small skinned quadruped with the Fox's clip names: `Survey`, `Walk` (0.7 s, each leg's
/// end planted half the cycle, 0.7 m a cycle: 1 m/s) and `Run` (1.16 s, 2.4 m a cycle, the
/// front legs carried by a pitching spine: about 1.7 m/s), which animate the same joints
/// differently so that a blend shows.
pub fn stand_in() -> Result<Model, SyntheticError> {
    let leg = |name, x: f32, z: f32| node(name, Vec3::new(x, -0.1, z), &[], false);
    let nodes = [
        node("root", Vec3::ZERO, &[1, 8], false),
        node("hips", Vec3::new(0.0, 0.4, -0.2), &[2, 4, 5], false),
        node("spine", Vec3::new(0.0, 0.05, 0.4), &[3, 6, 7], false),
        node("head", Vec3::new(0.0, 0.15, 0.2), &[], false),
        leg("leg_back_left", 0.1, 0.0),
        leg("leg_back_right", -0.1, 0.0),
        leg("leg_front_left", 0.1, 0.0),
        leg("leg_front_right", -0.1, 0.0),
        node("fox", Vec3::ZERO, &[], false),
    ];
    let gait = |duration: f32, stride: f32, back: f32| {
        let mut channels: Vec<ChannelSpec> = [(4, 0.1, 0.0), (5, -0.1, 0.5), (6, 0.1, 0.5), (7, -0.1, 0.0)]
            .map(|(n, x, phase)| step(n, Vec3::new(x, -0.1, 0.0), duration, (stride, 0.06), phase))
            .to_vec();
        channels.push(swing(2, Vec3::X, duration, back, 0.25));
        channels.push(swing(3, Vec3::Y, duration, back * 0.5, 0.0));
        channels
    };
    let survey = vec![swing(3, Vec3::Y, 3.4, FRAC_PI_2 * 0.5, 0.0)];
    let clips = vec![("Survey", survey), ("Walk", gait(0.7, 0.35, 0.05)), ("Run", gait(1.16, 1.2, PI * 0.08))];
    build(&nodes, clips, Some((&[1, 2, 3, 4, 5, 6, 7], 8)))
}
