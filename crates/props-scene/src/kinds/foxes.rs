//! Foxes walking loops in the parks between the roads. Each fox walks at its own pace, now and
//! then runs, and, when its model has an idle clip (`Idle`, else `Survey`, or bound as `idle`),
//! now and then stands still and looks about; its speed eases between these, and its gait
//! follows the speed (with hysteresis). The `Walk` and `Run` clips play at rates matched to the
//! speed, the idle clip at its own; a gait change crossfades from one clip to the other over
//! [`FADE_TIME`] (two clip layers of the animation runtime, the new gait's weight rising from 0
//! to 1), so the pose never jumps.

use std::f32::consts::{FRAC_PI_2, PI, TAU};

use glam::{Affine3A, Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::{Layer, Model, PlayMode, Playback, Spec};
use props_crowd::{BoundModel, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::facing;
use crate::kind::{KindAsset, KindProps, ModelPick, PropInstance, PropKind, at_most, some_models};
use crate::rng::{Rng, Stream};
use crate::synthetic::{ChannelSpec, SyntheticError, build, node, swing};
use crate::town::Town;

/// Length of a gait crossfade, seconds.
pub const FADE_TIME: f32 = 0.3;
/// Walking speed at pace 1, m/s; also the speed at which the `Walk` clip plays at rate 1.
pub const WALK_SPEED: f32 = 1.0;
/// Running speed at pace 1, m/s; also the speed at which the `Run` clip plays at rate 1.
pub const RUN_SPEED: f32 = 3.2;
/// A walking fox breaks into a run above this speed, m/s.
const RUN_ABOVE: f32 = 2.2;
/// A running fox drops to a walk below this speed, m/s.
const WALK_BELOW: f32 = 1.8;
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

/// A fox's gait: which clip leads its animation (the value is the clip's index in the foxes'
/// clips: `Walk`, `Run`, then the idle clip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gait {
    /// The `Walk` clip.
    Walk = 0,
    /// The `Run` clip.
    Run = 1,
    /// Standing still, the idle clip (`Idle` or `Survey`).
    Idle = 2,
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

/// A fox's animation state: the gait clips' playback and the crossfade between two of them.
#[derive(Clone, Debug, PartialEq)]
pub struct FoxGait {
    gait: Gait,
    /// The gait faded from.
    from: Gait,
    /// Weight of the current gait's clip; below 1 while fading in from `from`.
    fade: f32,
    playback: [Playback; 3],
}

impl FoxGait {
    /// The current gait.
    #[must_use]
    pub fn gait(&self) -> Gait {
        self.gait
    }

    /// Weight of the current gait's clip in the pose: 0 right at a gait change, rising to 1
    /// over [`FADE_TIME`].
    #[must_use]
    pub fn blend_weight(&self) -> f32 {
        self.fade
    }

    /// Playback of a gait's clip.
    #[must_use]
    pub fn playback(&self, gait: Gait) -> &Playback {
        &self.playback[gait as usize]
    }

    /// Switches to `gait` if it differs. A settled pose starts fading from weight 0 (the pose
    /// is unchanged at first); reversing mid-fade keeps the pose continuous by swapping roles.
    /// (A third gait mid-fade, which the speeds never allow, fades from the heavier of the two.)
    fn change_to(&mut self, gait: Gait) {
        if gait == self.gait {
            return;
        }
        if self.fade >= 1.0 || gait != self.from {
            self.from = if self.fade >= 0.5 { self.gait } else { self.from };
            self.fade = 0.0;
        } else {
            self.from = self.gait;
            self.fade = 1.0 - self.fade;
        }
        self.gait = gait;
    }
}

/// Fox `index`: on the loop of park `index % parks`, walking at its own pace, its clips
/// (of `durations` seconds) at random phases.
fn fox(index: usize, parks: &[Vec2], block: f32, seed: u64, durations: [f32; 3]) -> (Fox, FoxGait) {
    let mut rng = Rng::stream(seed, Stream::Fox, index as u64);
    let phases = durations.map(|d| rng.range(0.0, d));
    let lane = (index / parks.len().max(1)) % PATHS;
    let pace = rng.range(0.85, 1.15);
    let fox = Fox {
        park: parks.get(index % parks.len().max(1)).copied().unwrap_or_default(),
        radius: block * LOOP_RADIUS + lane as f32 * PATH_SPACING,
        direction: if rng.below(2) == 0 { 1.0 } else { -1.0 },
        angle: rng.angle(),
        speed: WALK_SPEED * pace,
        target_speed: WALK_SPEED * pace,
        pace,
        running: false,
        resting: false,
        timer: rng.range(1.0, 8.0),
        rng,
    };
    (fox, FoxGait { gait: Gait::Walk, from: Gait::Walk, fade: 1.0, playback: phases.map(Playback::looping) })
}

/// Where a fox stands: on the ground, facing its way, `scale` times the model.
fn placement(fox: &Fox, scale: f32) -> Affine3A {
    let (sin, cos) = fox.angle.sin_cos();
    let at = fox.park + Vec2::new(cos, sin) * fox.radius;
    facing(Vec2::new(-sin, cos) * fox.direction, scale, Vec3::new(at.x, 0.0, at.y))
}

/// Moves every fox along its loop, updates its behaviour and gait, and sets its layers: the
/// gait's clip, or while fading, the old gait's clip under the new one at the fade's weight.
/// `durations`: per model, the `Walk`, `Run` and idle clips' (the idle's 0 when the model has
/// none: its foxes never stand).
fn update(world: &World, durations: &[[f32; 3]], foxes: &mut KindProps, dt: f32) {
    let fade_step = dt / FADE_TIME;
    for (fox, anim, instance) in world.query::<(&mut Fox, &mut FoxGait, &PropInstance)>().iter() {
        let durations = durations[instance.model()];
        let foxes = foxes.of(instance);
        let scale = foxes.prop().scale;
        let can_rest = durations[Gait::Idle as usize] > 0.0;
        if !can_rest && (anim.gait == Gait::Idle || anim.from == Gait::Idle) {
            // Its model changed to one without an idle clip: it walks at once.
            (anim.gait, anim.from, anim.fade) = (Gait::Walk, Gait::Walk, 1.0);
            (fox.resting, fox.target_speed) = (false, fox.pace * WALK_SPEED);
        }
        behave(fox, can_rest, dt);
        fox.angle = PlayMode::Loop.wrap(fox.angle + fox.direction * fox.speed * dt / fox.radius, TAU);
        foxes.set_placement(instance.index(), placement(fox, scale));

        let was = anim.gait;
        let gait = match was {
            Gait::Walk if fox.speed > RUN_ABOVE => Gait::Run,
            Gait::Run if fox.speed < WALK_BELOW => Gait::Walk,
            Gait::Walk if fox.resting && fox.speed < STAND_BELOW => Gait::Idle,
            Gait::Idle if fox.speed > MOVE_ABOVE => Gait::Walk,
            same => same,
        };
        if gait == was {
            anim.fade = (anim.fade + fade_step).min(1.0);
        } else {
            anim.change_to(gait);
        }
        // Walk and Run at rates matched to the speed; the idle clip at its own.
        let rates = [fox.speed / WALK_SPEED, fox.speed / RUN_SPEED, 1.0];
        for ((playback, duration), rate) in anim.playback.iter_mut().zip(durations).zip(rates) {
            playback.speed = rate;
            playback.advance(dt, duration);
        }
        let layer =
            |gait: Gait| Layer::clip(gait as u16, anim.playback[gait as usize].clip_time(durations[gait as usize]));
        let layers = foxes.layers_mut(instance.index());
        if anim.fade < 1.0 {
            layers[0] = layer(anim.from);
            layers[1] = Layer { weight: anim.fade, ..layer(anim.gait) };
        } else {
            layers[0] = layer(anim.gait);
            layers[1] = Layer::NONE;
        }
    }
}

/// Clip layers per fox: the gait, and the gait faded into.
const FOX_LAYERS: usize = 2;

/// The foxes (the animals): `count` of them, in the parks of the town's blocks, each showing one
/// of the animal models (picked per fox from the town's seed). Clips, in [`Spec::clips`] order:
/// `Walk`, `Run` and, if the model has one, the idle clip (a [`Gait`]'s index).
pub struct Foxes {
    count: usize,
    /// Per model, the durations of its `Walk`, `Run` and idle clips, seconds (0 for an idle
    /// clip it does not have).
    durations: Vec<[f32; 3]>,
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
        Self { count, durations: Vec::new() }
    }

    /// Measures each model's clips.
    fn measure(&mut self, props: &KindProps) {
        self.durations = props
            .crowds()
            .iter()
            .map(|crowd| {
                let rig = crowd.model();
                let clips = rig.prop.model.clips();
                [0, 1, 2].map(|k| rig.spec.clips.get(k).map_or(0.0, |&c| clips[c].duration()))
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
            let (fox, gait) = fox(i, &parks, town.config.block, town.config.seed, self.durations[model]);
            props.spawn(world, model, Affine3A::IDENTITY, (fox, gait, pick));
        }
        update(world, &self.durations, props, 0.0);
    }

    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<Fox>().writes::<FoxGait>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, _town: &Town<'_>, props: &mut KindProps, dt: f32) {
        update(world, &self.durations, props, dt);
    }

    /// Every fox picks again among the new models, keeping its state and placement.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, rigs: Vec<BoundModel>) {
        props.repick(world, rigs);
        self.measure(props);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let (fox, gait) = (world.get::<&Fox>(entity).ok()?, world.get::<&FoxGait>(entity).ok()?);
        let (speed, weight) = (fox.speed(), gait.blend_weight());
        Some(format!(
            "fox: {:?} at {speed:.1} m/s (clip weight {weight:.2}, the other {:.2})",
            gait.gait(),
            1.0 - weight
        ))
    }
}

/// Walk for a while, sometimes run or (`can_rest`) stand for a while, and walk again after;
/// ease the speed towards the chosen pace.
fn behave(fox: &mut Fox, can_rest: bool, dt: f32) {
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
        let pace = match (fox.running, fox.resting) {
            (true, _) => RUN_SPEED,
            (_, true) => 0.0,
            _ => WALK_SPEED,
        };
        fox.target_speed = fox.pace * pace;
    }
    let change = SPEED_CHANGE * dt;
    fox.speed += (fox.target_speed - fox.speed).clamp(-change, change);
}

/// A small skinned quadruped with the Fox's clip names: `Survey`, `Walk` (0.7 s) and `Run`
/// (1.16 s), which animate the same joints differently so that a crossfade shows.
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
    let gait = |duration: f32, legs: f32, back: f32| {
        let mut channels: Vec<ChannelSpec> = [(4, 0.0), (5, 0.5), (6, 0.5), (7, 0.0)]
            .map(|(n, phase)| swing(n, Vec3::X, duration, legs, phase))
            .to_vec();
        channels.push(swing(2, Vec3::X, duration, back, 0.25));
        channels.push(swing(3, Vec3::Y, duration, back * 0.5, 0.0));
        channels
    };
    let survey = vec![swing(3, Vec3::Y, 3.4, FRAC_PI_2 * 0.5, 0.0)];
    let clips = vec![("Survey", survey), ("Walk", gait(0.7, 0.35, 0.05)), ("Run", gait(1.16, 0.9, PI * 0.08))];
    build(&nodes, clips, Some((&[1, 2, 3, 4, 5, 6, 7], 8)))
}
