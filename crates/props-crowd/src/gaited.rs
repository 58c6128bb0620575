//! How a legged model's props (people, animals) animate from their speed: its walk and run
//! clips play at the rates their strides call for (measured from the clips themselves,
//! [`props_anim::gait`]: the speed at rate 1 that keeps a planted foot still), the run blended
//! over the walk across the middle of the way between their own speeds and both kept in phase,
//! so the feet do not slide at any speed; standing still and moving off crossfade with a
//! standing clip (idling, waiting) over [`FADE_TIME`], so the pose never jumps. Near the
//! camera, the feet the leading gait plants stay where they came down (two-bone IK). A
//! [`crate::CrowdSet`] animates its walkers so ([`crate::Animates::gaits`]); the demo town's
//! people and foxes too.

use std::sync::Arc;

use props_anim::clip::Playback;

use props_anim::gait::ik::Leg;
use props_anim::gait::{self, GaitLayer, Gaits, Stride};
use props_anim::humanoid::BoneMap;
use props_anim::{Layer, NodeId};

use crate::{Ground, ModelCrowd, PropModel};

/// Length of the crossfade between standing and moving, seconds.
pub const FADE_TIME: f32 = 0.3;
/// The speeds at rate 1 assumed for the walk and the run of a model whose clips show no
/// stride (no skin, or no foot that is planted and moves), metres per second.
const ASSUMED_SPEEDS: [f32; 2] = [1.0, 3.0];
/// A standing prop starts to walk above this speed, m/s.
const MOVE_ABOVE: f32 = 0.3;
/// A prop easing to a stop stands (its standing clip) below this speed, m/s.
const STAND_BELOW: f32 = 0.15;
/// Clip layers a legged prop's gaits take (its first): the slower gait, the faster over it, the
/// standing clip over both.
pub const LAYERS: usize = 3;

/// Which of its clips leads a prop's pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gait {
    /// The `Walk` clip (the run's weight under a half).
    Walk,
    /// The `Run` clip (its weight a half or more).
    Run,
    /// Standing still: a standing clip (idling or waiting).
    Idle,
}

/// A legged prop's animation state (a component): its gaits' shared phase, the run's weight
/// over the walk, and the standing clip's over both.
#[derive(Clone, Debug, PartialEq)]
pub struct GaitState {
    /// The walk's and the run's phase (0 to 1 over a step cycle).
    phase: f32,
    /// The run's weight over the walk: where the speed lies between their speeds.
    run: f32,
    /// The standing clip's weight over the gaits: rises to 1 over [`FADE_TIME`] once the prop
    /// stands, falls to 0 as it moves off.
    idle: f32,
    /// Whether it stands (or is settling to stand).
    standing: bool,
    /// The standing clip it shows (its index in the kind's `Spec::clips`).
    standing_clip: u16,
    idle_playback: Playback,
    /// The gait that leads the pose (an index of the model's gaits) and its clip time: whose
    /// feet are planted.
    lead: (u8, f32),
}

impl GaitState {
    /// Walking, its gaits at `phase` (0 to 1) and its standing clips at `standing_time`
    /// seconds.
    #[must_use]
    pub fn new(phase: f32, standing_time: f32) -> Self {
        Self {
            phase,
            run: 0.0,
            idle: 0.0,
            standing: false,
            standing_clip: 2,
            idle_playback: Playback::looping(standing_time),
            lead: (0, 0.0),
        }
    }

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

    /// The standing clip's weight over the gaits (0: moving, 1: standing), easing over
    /// [`FADE_TIME`].
    #[must_use]
    pub fn idle_weight(&self) -> f32 {
        self.idle
    }

    /// Whether it is standing (or settling to stand).
    #[must_use]
    pub fn standing(&self) -> bool {
        self.standing
    }
}

/// `prop` with its gait clips (`clips`: walk and run, indices of its model's clips) played in
/// place where they move its skeleton's root ([`props_anim::gait::in_place`]): the in-place
/// versions added to its model and `clips` pointed at them, so that whoever moves the prop at
/// the clip's speed does not move it twice.
#[must_use]
pub fn played_in_place(prop: PropModel, clips: &mut [usize]) -> PropModel {
    match gait::played_in_place(&prop.model, clips) {
        Some(model) => PropModel { model: Arc::new(model), ..prop },
        None => prop,
    }
}

/// What the legged props of one model play: its gaits (walk and run, slowest first), the
/// `Spec::clips` index of each, and the durations of its standing clips.
#[derive(Clone, Debug)]
pub struct GaitedModel {
    gaits: Gaits,
    spec_clips: [u16; 2],
    /// Per `Spec::clips` index from 2 on, the standing clip's duration (0: none bound).
    standing: Vec<f32>,
    /// The model's scale in the town: metres per model unit.
    scale: f32,
    /// The walk's and the run's own speeds, m/s (what keeps their planted feet still at rate 1).
    pub speeds: [f32; 2],
    /// The feet its crowd holds on the ground near the camera (the walk's, in its order).
    feet: Vec<NodeId>,
}

impl GaitedModel {
    /// Measures the gaits of `crowd`'s model, bound with its `Spec::clips` as walk, run, then
    /// its standing clips.
    #[must_use]
    pub fn measure(crowd: &ModelCrowd) -> Self {
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
        let standing = clips.iter().skip(2).map(|&c| model.clips()[c].duration()).collect();
        let speeds = [0, gaits.len().saturating_sub(1)].map(|g| gaits.stride(g).speed * scale);
        // As many as a crowd holds (a bit each of `planted`'s mask).
        let mut feet = gaits.stride(0).feet.clone();
        feet.truncate(crate::close_up::MAX_FEET);
        Self { gaits, spec_clips, standing, scale, speeds, feet }
    }

    /// Measures the gaits of `crowd`'s model ([`GaitedModel::measure`]) and has the crowd hold
    /// their feet on `ground` near the camera (two-bone IK on the leg above each foot, where
    /// the rig has one; the legs found by the bones' names, or the model's
    /// [`crate::Bindings::humanoid`] table).
    #[must_use]
    pub fn holding_feet(crowd: &mut ModelCrowd, ground: Option<&Ground>) -> Self {
        let mut model = Self::measure(crowd);
        let prop = crowd.prop();
        let rig = prop.model.rig().clone();
        let map = prop.bindings.bone_map(&rig).unwrap_or_else(|_| BoneMap::find(&rig));
        let legs: Vec<(NodeId, Leg)> =
            model.feet.iter().filter_map(|&foot| Some((foot, Leg::of(&rig, &map, foot)?))).collect();
        model.feet = legs.iter().map(|&(foot, _)| foot).collect();
        crowd.set_feet(legs);
        crowd.set_ground(ground.cloned());
        model
    }

    /// The duration of standing clip `clip` (its `Spec::clips` index, 2 or more; 0 for a
    /// one-key pose), 0 when none is bound there.
    #[must_use]
    pub fn standing_duration(&self, clip: u16) -> f32 {
        self.standing.get(usize::from(clip).wrapping_sub(2)).copied().unwrap_or(0.0)
    }

    /// The feet it plants, in the order of [`GaitedModel::planted`]'s bits.
    #[must_use]
    pub fn feet(&self) -> &[NodeId] {
        &self.feet
    }

    /// Whether standing clip `clip` is bound.
    #[must_use]
    pub fn can_stand(&self, clip: u16) -> bool {
        usize::from(clip).checked_sub(2).is_some_and(|k| k < self.standing.len())
    }

    /// Advances `state` by `dt` for a prop moving at `speed` m/s that wants to stand showing
    /// standing clip `rest` (`None`: it wants to move), and sets its [`LAYERS`] layers: the
    /// slower gait around its speed, the faster over it by how far the speed lies between
    /// theirs (both in phase), and the standing clip over them at its weight. A `dt` not
    /// finite or below 0 is taken as 0 (a clock that went back moves nothing back).
    pub fn animate(&self, state: &mut GaitState, (speed, rest): (f32, Option<u16>), dt: f32, layers: &mut [Layer]) {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let rest = rest.filter(|&clip| self.can_stand(clip));
        if rest.is_none() && state.standing && !self.can_stand(state.standing_clip) {
            // Its model changed to one without the standing clip: it moves at once.
            (state.standing, state.idle) = (false, 0.0);
        }
        state.standing = match (state.standing, rest) {
            (false, Some(clip)) if speed < STAND_BELOW => {
                state.standing_clip = clip;
                true
            }
            (false, _) => false,
            (true, _) => speed <= MOVE_ABOVE,
        };
        let fade_step = dt / FADE_TIME;
        let idle_target = if state.standing { 1.0 } else { 0.0 };
        state.idle += (idle_target - state.idle).clamp(-fade_step, fade_step);
        let [slow, fast] = self.gaits.advance(&mut state.phase, speed / self.scale.max(f32::EPSILON), dt);
        state.run = if fast.gait > slow.gait { fast.weight } else { f32::from(u8::from(slow.gait > 0)) };
        let duration = self.standing_duration(state.standing_clip);
        state.idle_playback.advance(dt, duration);
        let gait =
            |layer: GaitLayer| Layer { weight: layer.weight, ..Layer::once(self.spec_clips[layer.gait], layer.time) };
        layers[0] = gait(slow);
        layers[1] = if fast.weight > 0.0 { gait(fast) } else { Layer::NONE };
        layers[2] = match self.can_stand(state.standing_clip) {
            true => Layer {
                weight: state.idle,
                ..Layer::once(state.standing_clip, state.idle_playback.clip_time(duration))
            },
            false => Layer::NONE,
        };
        let lead = if fast.weight >= 0.5 { fast } else { slow };
        state.lead = (lead.gait as u8, lead.time);
    }

    /// Which of a prop's feet are planted (bit `k`: foot `k` of the crowd's,
    /// [`GaitedModel::holding_feet`]) as [`GaitedModel::animate`] last left its `state`: as
    /// the leading gait plants them, every one while it stands.
    #[must_use]
    pub fn planted(&self, state: &GaitState) -> u8 {
        let (gait, time) = state.lead;
        let stride = self.gaits.stride(usize::from(gait));
        let phase = time / stride.duration.max(f32::EPSILON);
        self.feet.iter().enumerate().fold(0, |mask, (k, foot)| {
            let index = stride.feet.iter().position(|f| f == foot);
            let down = state.idle >= 0.5 || index.is_some_and(|f| stride.planted(f, phase));
            mask | (u8::from(down) << k)
        })
    }
}
