//! Foxes walking loops in the parks between the roads. Each fox walks at its own pace, now and
//! then runs, and, when its model has an idle clip (`Idle`, else `Survey`, or bound as `idle`),
//! now and then stands still and looks about; its speed eases between these. Its gait follows
//! the speed: the `Walk` and `Run` clips play at the rates their strides call for (measured
//! from the clips themselves, [`props_anim::gait`]: the speed at rate 1 that keeps a planted
//! foot still), blended across the middle of the way between the two gaits' own speeds and
//! kept in phase, so the feet do not slide at any speed; standing still and moving off
//! crossfade with the idle clip over [`FADE_TIME`] (clip layers of the animation runtime), so
//! the pose never jumps.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use glam::{Affine3A, Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::gait::{Gaits, Stride};
use props_anim::{Layer, Model, PlayMode, Playback, Spec};
use props_crowd::{BoundModel, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::facing;
use crate::kind::{KindAsset, KindProps, ModelPick, PropInstance, PropKind, at_most, some_models};
use crate::rng::{Rng, Stream};
use crate::stand_in_kit::{ChannelSpec, SyntheticError, build, node, step, swing};
use crate::town::Town;

/// Length of the crossfade between standing and moving, seconds.
pub const FADE_TIME: f32 = 0.3;
/// The speeds at rate 1 assumed for the walk and the run of a model whose clips show no
/// stride (no skin, or no foot that is planted and moves), metres per second.
const ASSUMED_SPEEDS: [f32; 2] = [1.0, 3.0];
/// How fast a fox changes speed, m/s².
const SPEED_CHANGE: f32 = 2.5;
/// Park loop radius as a fraction of the block size.
const LOOP_RADIUS: f32 = 0.28;
/// Radial distance between the paths of foxes sharing a park, metres.
const PATH_SPACING: f32 = 1.2;
/// Paths per park: foxes beyond one per park take the next path out.
const PATHS: usize = 8;

/// A standing fox starts to walk above this speed, m/s.
const MOVE_ABOVE: f32 = 0.3;
/// A fox easing to a stop stands (its idle clip) below this speed, m/s.
const STAND_BELOW: f32 = 0.15;

/// A fox's gait: which of its clips leads its pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gait {
    /// The `Walk` clip (the run's weight under a half).
    Walk,
    /// The `Run` clip (its weight a half or more).
    Run,
    /// Standing still, the idle clip (`Idle` or `Survey`).
    Idle,
}

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

/// A fox's animation state: its gaits' shared phase, the run's weight over the walk, and the
/// idle clip's over both.
#[derive(Clone, Debug, PartialEq)]
pub struct FoxGait {
    /// The walk's and the run's phase (0 to 1 over a step cycle).
    phase: f32,
    /// The run's weight over the walk: where the speed lies between their speeds.
    run: f32,
    /// The idle clip's weight over the gaits: rises to 1 over [`FADE_TIME`] once the fox
    /// stands, falls to 0 as it moves off.
    idle: f32,
    /// Whether it stands (or is settling to stand).
    standing: bool,
    idle_playback: Playback,
}

impl FoxGait {
    /// The clip that leads the pose.
    #[must_use]
    pub fn gait(&self) -> Gait {
        match (self.standing, self.run >= 0.5) {
            (true, _) => Gait::Idle,
            (false, true) => Gait::Run,
            (false, false) => Gait::Walk,
        }
    }

    /// The run's weight over the walk (0: walking, 1: running).
    #[must_use]
    pub fn run_weight(&self) -> f32 {
        self.run
    }

    /// The idle clip's weight over the gaits (0: moving, 1: standing), easing over
    /// [`FADE_TIME`].
    #[must_use]
    pub fn idle_weight(&self) -> f32 {
        self.idle
    }
}

/// What the foxes of one model play: its gaits (walk and run, slowest first) and the
/// clip index in [`Spec::clips`] of each, and its idle clip's duration (0 without one).
#[derive(Clone, Debug)]
struct FoxModel {
    gaits: Gaits,
    spec_clips: [u16; 2],
    idle: f32,
    /// The model's scale in the town: metres per model unit.
    scale: f32,
    /// The walk's and the run's own speeds, m/s (what keeps their planted feet still at rate 1).
    speeds: [f32; 2],
}

/// Fox `index`: on the loop of park `index % parks`, walking at its own pace (a multiple of
/// its model's walking speed), its gaits at a random phase.
fn fox(index: usize, parks: &[Vec2], block: f32, seed: u64, model: &FoxModel) -> (Fox, FoxGait) {
    let mut rng = Rng::stream(seed, Stream::Fox, index as u64);
    let (phase, idle_phase) = (rng.next_f32(), rng.range(0.0, model.idle.max(0.0)));
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
    let gait = FoxGait { phase, run: 0.0, idle: 0.0, standing: false, idle_playback: Playback::looping(idle_phase) };
    (fox, gait)
}

/// Where a fox stands: on the ground, facing its way, `scale` times the model.
fn placement(fox: &Fox, scale: f32) -> Affine3A {
    let (sin, cos) = fox.angle.sin_cos();
    let at = fox.park + Vec2::new(cos, sin) * fox.radius;
    facing(Vec2::new(-sin, cos) * fox.direction, scale, Vec3::new(at.x, 0.0, at.y))
}

/// Moves every fox along its loop, updates its behaviour and gait, and sets its layers: the
/// slower gait around its speed, the faster over it by how far the speed lies between theirs
/// (both in phase), and the idle clip over them at its weight.
fn update(world: &World, models: &[FoxModel], foxes: &mut KindProps, dt: f32) {
    let fade_step = dt / FADE_TIME;
    for (fox, anim, instance) in world.query::<(&mut Fox, &mut FoxGait, &PropInstance)>().iter() {
        let model = &models[instance.model()];
        let foxes = foxes.of(instance);
        let scale = foxes.prop().scale;
        let can_rest = model.idle > 0.0;
        if !can_rest && anim.standing {
            // Its model changed to one without an idle clip: it walks at once.
            (anim.standing, anim.idle) = (false, 0.0);
            (fox.resting, fox.target_speed) = (false, fox.pace * model.speeds[0]);
        }
        behave(fox, model.speeds, can_rest, dt);
        fox.angle = PlayMode::Loop.wrap(fox.angle + fox.direction * fox.speed * dt / fox.radius, TAU);
        foxes.set_placement(instance.index(), placement(fox, scale));

        anim.standing = match anim.standing {
            false => fox.resting && fox.speed < STAND_BELOW,
            true => fox.speed <= MOVE_ABOVE,
        };
        let idle_target = if anim.standing { 1.0 } else { 0.0 };
        anim.idle += (idle_target - anim.idle).clamp(-fade_step, fade_step);
        let speed = fox.speed / model.scale.max(f32::EPSILON);
        let [slow, fast] = model.gaits.advance(&mut anim.phase, speed, dt);
        anim.run = if fast.gait > slow.gait { fast.weight } else { f32::from(u8::from(slow.gait > 0)) };
        anim.idle_playback.advance(dt, model.idle);
        let layers = foxes.layers_mut(instance.index());
        let gait = |layer: props_anim::gait::GaitLayer| Layer {
            weight: layer.weight,
            ..Layer::clip(model.spec_clips[layer.gait], layer.time)
        };
        layers[0] = gait(slow);
        layers[1] = if fast.weight > 0.0 { gait(fast) } else { Layer::NONE };
        layers[2] = match can_rest {
            true => Layer { weight: anim.idle, ..Layer::clip(2, anim.idle_playback.clip_time(model.idle)) },
            false => Layer::NONE,
        };
    }
}

/// Clip layers per fox: the slower gait, the faster over it, the idle clip over both.
const FOX_LAYERS: usize = 3;

/// The foxes (the animals): `count` of them, in the parks of the town's blocks, each showing one
/// of the animal models (picked per fox from the town's seed). Clips, in [`Spec::clips`] order:
/// `Walk`, `Run` and, if the model has one, the idle clip.
pub struct Foxes {
    count: usize,
    /// Per model, what its foxes play.
    models: Vec<FoxModel>,
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
        Self { count, models: Vec::new() }
    }

    /// Measures each model's gaits from its clips.
    fn measure(&mut self, props: &KindProps) {
        self.models = props
            .crowds()
            .iter()
            .map(|crowd| {
                let rig = crowd.model();
                let (model, clips) = (&*rig.prop.model, &rig.spec.clips);
                let scale = rig.prop.scale;
                let gait_clips = [clips[0], clips[1]];
                let gaits = Gaits::new(model, &gait_clips).unwrap_or_else(|| {
                    let assumed = |k: usize| {
                        let duration = model.clips()[gait_clips[k]].duration();
                        (gait_clips[k], Stride::assumed(duration, ASSUMED_SPEEDS[k] / scale.max(f32::EPSILON)))
                    };
                    Gaits::from_strides(vec![assumed(0), assumed(1)])
                });
                let spec_clips = [0, 1].map(|g| if gaits.clip(g) == gait_clips[0] { 0 } else { 1 });
                let idle = clips.get(2).map_or(0.0, |&c| model.clips()[c].duration());
                let speeds = [0, gaits.len().saturating_sub(1)].map(|g| gaits.stride(g).speed * scale);
                FoxModel { gaits, spec_clips, idle, scale, speeds }
            })
            .collect();
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
            drawn_at: 1.0,
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
            let clip = |state, default| b.clip(f, state, default).map_err(SceneError::of_model("fox"));
            let mut clips = vec![clip("walk", "Walk")?, clip("run", "Run")?];
            // The idle clip is optional: bound by a sidecar (then it must exist), else by name.
            let idle = match b.clips.contains_key("idle") {
                true => Some(clip("idle", "Idle")?),
                false => f.find_clip("Idle").or_else(|| f.find_clip("Survey")),
            };
            clips.extend(idle);
            Ok(BoundModel::new(fox.clone(), Spec { clips, ..Spec::default() }, FOX_LAYERS))
        };
        some_models(self.name(), models)?.iter().map(rig).collect()
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
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
        StepAccess::nothing().writes::<Fox>().writes::<FoxGait>().reads::<PropInstance>()
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
        let (fox, gait) = (world.get::<&Fox>(entity).ok()?, world.get::<&FoxGait>(entity).ok()?);
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
