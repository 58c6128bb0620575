//! Foxes walking loops in the parks between the roads. Each fox alternates between walking and
//! running at its own pace; its speed eases between the two, and its gait follows the speed
//! (with hysteresis). The `Walk` and `Run` clips play at rates matched to the speed, and a
//! gait change crossfades from one clip to the other over [`FADE_TIME`] with `Pose::blend`, so
//! the pose never jumps.

use std::f32::consts::TAU;

use glam::{Affine3A, Quat, Vec2, Vec3};
use hecs::World;
use props_anim::{ClipCursor, Playback, Pose};

use crate::models::FoxRig;
use crate::rng::{Rng, Stream};
use crate::viewer::{self, Viewer};
use crate::{Placement, heading_yaw};

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

/// A fox's gait: which clip leads its animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gait {
    /// The `Walk` clip.
    Walk = 0,
    /// The `Run` clip.
    Run = 1,
}

impl Gait {
    fn other(self) -> Self {
        match self {
            Self::Walk => Self::Run,
            Self::Run => Self::Walk,
        }
    }
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

/// A fox's animation state: the two gait clips' playback and the crossfade between them.
#[derive(Clone, Debug, PartialEq)]
pub struct FoxGait {
    gait: Gait,
    /// Weight of the current gait's clip; below 1 while fading in from the other.
    fade: f32,
    playback: [Playback; 2],
    cursors: [ClipCursor; 2],
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
    fn change_to(&mut self, gait: Gait) {
        if gait != self.gait {
            self.gait = gait;
            self.fade = if self.fade >= 1.0 { 0.0 } else { 1.0 - self.fade };
        }
    }
}

/// Spawns fox `index`: on the loop of park `index % parks`, walking at its own pace.
pub(crate) fn fox(
    index: usize,
    parks: &[Vec2],
    block: f32,
    seed: u64,
    rig: &FoxRig,
) -> (Fox, FoxGait, Placement, Pose) {
    let mut rng = Rng::stream(seed, Stream::Fox, index as u64);
    let model = &rig.prop.model;
    let clips = rig.clips.map(|c| &model.clips()[c]);
    let phases = clips.map(|c| rng.range(0.0, c.duration()));
    let lane = (index / parks.len().max(1)) % 3;
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
        timer: rng.range(1.0, 8.0),
        rng,
    };
    let gait = FoxGait {
        gait: Gait::Walk,
        fade: 1.0,
        playback: phases.map(Playback::looping),
        cursors: clips.map(ClipCursor::new),
    };
    (fox, gait, Placement(Affine3A::IDENTITY), Pose::from_rest(model.rig()))
}

/// Moves every fox along its loop, updates its behaviour and gait, and poses it (when due
/// under the `viewer`'s update-rate LOD, in step `step`; otherwise it keeps its last pose).
/// `scratch` is a pose of the fox rig reused for the crossfade.
pub(crate) fn update(world: &mut World, rig: &FoxRig, scratch: &mut Pose, viewer: Option<&Viewer>, step: u64, dt: f32) {
    let model = &rig.prop.model;
    let fade_step = dt / FADE_TIME;
    let foxes = world.query_mut::<(&mut Fox, &mut FoxGait, &mut Placement, &mut Pose)>();
    for (index, (fox, anim, placement, pose)) in foxes.into_iter().enumerate() {
        behave(fox, dt);
        fox.angle = (fox.angle + fox.direction * fox.speed * dt / fox.radius).rem_euclid(TAU);
        let at = fox.position();
        placement.0 = Affine3A::from_scale_rotation_translation(
            Vec3::splat(rig.prop.scale),
            Quat::from_rotation_y(heading_yaw(fox.heading())),
            Vec3::new(at.x, 0.0, at.y),
        );

        let was = anim.gait;
        let gait = match was {
            Gait::Walk if fox.speed > RUN_ABOVE => Gait::Run,
            Gait::Run if fox.speed < WALK_BELOW => Gait::Walk,
            same => same,
        };
        if gait == was {
            anim.fade = (anim.fade + fade_step).min(1.0);
        } else {
            anim.change_to(gait);
        }
        let speeds = [WALK_SPEED, RUN_SPEED];
        for ((playback, clip), nominal) in anim.playback.iter_mut().zip(rig.clips).zip(speeds) {
            playback.speed = fox.speed / nominal;
            playback.advance(dt, model.clips()[clip].duration());
        }

        if !viewer::due(viewer, step, index, placement.0.translation.into()) {
            continue;
        }
        let sample = |gait: Gait, cursors: &mut [ClipCursor; 2], into: &mut Pose| {
            let (k, clip) = (gait as usize, &model.clips()[rig.clips[gait as usize]]);
            into.return_to_rest(model.rig());
            clip.sample_with_cursor(anim.playback[k].clip_time(clip.duration()), &mut cursors[k], into);
        };
        if anim.fade < 1.0 {
            sample(anim.gait.other(), &mut anim.cursors, pose);
            sample(anim.gait, &mut anim.cursors, scratch);
            pose.blend(scratch, anim.fade);
        } else {
            sample(anim.gait, &mut anim.cursors, pose);
        }
        pose.compute_world(model.rig());
    }
}

/// Walk for a while, sometimes run for a while; ease the speed towards the chosen pace.
fn behave(fox: &mut Fox, dt: f32) {
    fox.timer -= dt;
    if fox.timer <= 0.0 {
        fox.running = !fox.running && fox.rng.next_f32() < 0.45;
        fox.timer = if fox.running { fox.rng.range(2.0, 4.0) } else { fox.rng.range(4.0, 10.0) };
        fox.target_speed = fox.pace * if fox.running { RUN_SPEED } else { WALK_SPEED };
    }
    let change = SPEED_CHANGE * dt;
    fox.speed += (fox.target_speed - fox.speed).clamp(-change, change);
}
