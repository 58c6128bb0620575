//! What a legged model's clips say about its gait, measured from the clips themselves: where
//! its feet are, when each is planted, and the ground speed at rate 1 that keeps a planted
//! foot still ([`Stride`]); and its gaits played by speed, each at the rate its speed calls
//! for, the two around the speed blended across a band between theirs and kept in phase, as
//! Unreal's sync groups keep them ([`Gaits`]). A kind walks any model's clips at the rate its
//! speed calls for, with no speed written by hand; [`ik`] holds planted feet where they came
//! down.
//!
//! The feet are the lowest joints of the leg chains: the joints that come near the lowest
//! point any joint reaches in the clip, less those with such a joint below them in their
//! chain (a foot's toe, not its ankle). A foot is planted while it is within a tenth of its
//! own lift of its lowest; the speed is what the planted feet travel backwards (the median of
//! their velocities), plus what the skeleton's root travels (a clip that is not "in place").

pub mod ik;
mod walker;

pub use walker::Walker;

use glam::{Affine3A, Vec3};

use crate::clip::interpolate::Interpolation;
use crate::clip::{Channel, Clip, Keyframes};
use crate::{Model, NodeId, Pose};

/// Samples of a clip's cycle.
const SAMPLES: usize = 120;
/// A joint is a foot when it comes within this fraction of the model's height of the lowest
/// point the clip reaches.
const FOOT_REACH: f32 = 0.06;
/// A foot is planted while it is within this fraction of its lift above its lowest.
const PLANTED: f32 = 0.1;
/// The part of the way from one gait's speed to the next's over which the faster is blended
/// in (centred): outside it one clip plays alone, which costs half the posing and lets
/// instances at nearby speeds share their poses.
pub const BLEND_BAND: f32 = 0.3;
/// A clip shows no walking when its ground speed is under this fraction of the model's height
/// per second (a fox surveying about shuffles its feet).
const STILL: f32 = 0.05;
/// A clip moves its root when the root travels at least this fraction of the ground speed.
const TRAVELS: f32 = 0.05;

/// One clip's stride: its feet, when each is planted, and its ground speed at rate 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Stride {
    /// The feet, lowest joints of the leg chains, in the rig's order.
    pub feet: Vec<NodeId>,
    /// The skeleton's root joint (its hips, on most rigs): the joint with the fewest
    /// ancestors.
    pub root: Option<NodeId>,
    /// Per foot, the phases of the cycle (0 to 1, the clip's time over its duration) during
    /// which it is planted, as `[start, end)` ranges (an `end` past 1 wraps round).
    pub contacts: Vec<Vec<(f32, f32)>>,
    /// Ground speed at rate 1 that keeps a planted foot still, model units per second: the
    /// speed to move the model at while the clip plays in place.
    pub speed: f32,
    /// The direction of travel, a horizontal unit vector in model space.
    pub forward: Vec3,
    /// What the skeleton's root travels per second at rate 1, model units (zero for a clip
    /// "in place").
    pub travel: Vec3,
    /// The clip's duration, seconds.
    pub duration: f32,
}

impl Stride {
    /// The stride assumed for a clip of `duration` seconds that shows none: `speed` at rate 1,
    /// forwards along +Z (the way glTF models face), no foot known.
    #[must_use]
    pub fn assumed(duration: f32, speed: f32) -> Self {
        Self {
            feet: Vec::new(),
            root: None,
            contacts: Vec::new(),
            speed,
            forward: Vec3::Z,
            travel: Vec3::ZERO,
            duration,
        }
    }

    /// Distance covered per cycle, model units.
    #[must_use]
    pub fn length(&self) -> f32 {
        self.speed * self.duration
    }

    /// Whether the clip moves the skeleton's root (is not "in place").
    #[must_use]
    pub fn moves_root(&self) -> bool {
        self.travel.length() > TRAVELS * self.speed.max(f32::EPSILON)
    }

    /// Whether foot `foot` is planted at `phase` (0 to 1).
    #[must_use]
    #[inline]
    pub fn planted(&self, foot: usize, phase: f32) -> bool {
        let phase = cycle(phase);
        self.contacts
            .get(foot)
            .is_some_and(|ranges| ranges.iter().any(|&(start, end)| (start..end).contains(&phase) || phase + 1.0 < end))
    }
}

/// `phase` wrapped into a cycle, 0 to 1 (`rem_euclid(1.0)`, without its division where
/// `phase` is already in range or a cycle past it: the gaits of 10,000 props wrap every step).
#[inline]
fn cycle(phase: f32) -> f32 {
    match phase {
        p if (0.0..1.0).contains(&p) => p,
        p if (1.0..2.0).contains(&p) => p - 1.0,
        // A tiny negative phase rounds up to 1 itself: that is the start.
        p => Some(p.rem_euclid(1.0)).filter(|&p| p < 1.0).unwrap_or(0.0),
    }
}

/// The stride of clip `clip` of `model`, or `None` when it shows no walking: no skin, no
/// clip of that index or of no duration, no foot that is ever planted, or a ground speed
/// under a twentieth of the model's height a second.
#[must_use]
pub fn stride(model: &Model, clip: usize) -> Option<Stride> {
    let duration = model.clips().get(clip)?.duration();
    let rig = model.rig();
    let mut joints: Vec<NodeId> = model.skins().iter().flat_map(|skin| skin.joints().iter().copied()).collect();
    joints.sort_unstable();
    joints.dedup();
    if joints.is_empty() || duration <= 0.0 {
        return None;
    }
    // Every joint's position at SAMPLES + 1 times, the last at the clip's end.
    let mut positions = vec![Vec3::ZERO; joints.len() * (SAMPLES + 1)];
    for i in 0..=SAMPLES {
        let pose = model.pose_at(Some(clip), duration * i as f32 / SAMPLES as f32);
        for (j, &joint) in joints.iter().enumerate() {
            positions[j * (SAMPLES + 1) + i] = pose.world_matrix(joint).translation.into();
        }
    }
    let track = |j: usize| &positions[j * (SAMPLES + 1)..(j + 1) * (SAMPLES + 1)];
    let lowest = |j: usize| track(j).iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    let ground = (0..joints.len()).map(lowest).fold(f32::INFINITY, f32::min);
    let top = (0..joints.len()).map(|j| track(j)[0].y).fold(f32::NEG_INFINITY, f32::max);
    let height = top - ground;
    if height.is_nan() || height <= 0.0 {
        return None;
    }
    let near_ground: Vec<usize> = (0..joints.len()).filter(|&j| lowest(j) <= ground + FOOT_REACH * height).collect();
    // The feet: near-ground joints with none below them. Each near-ground joint marks its
    // ancestors, up to one marked already (whose ancestors are): linear in the nodes, however
    // long the chains.
    let mut above_one = vec![false; rig.len()];
    for &k in &near_ground {
        let mut node = rig.parent(joints[k]);
        while let Some(n) = node.filter(|n| !above_one[n.index()]) {
            above_one[n.index()] = true;
            node = rig.parent(n);
        }
    }
    let feet: Vec<usize> = near_ground.iter().copied().filter(|&j| !above_one[joints[j].index()]).collect();
    // The skeleton's root: the joint with the fewest ancestors.
    let depths = rig.depths();
    let root = (0..joints.len()).min_by_key(|&j| depths[joints[j].index()])?;
    let horizontal = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let travel = horizontal(track(root)[SAMPLES] - track(root)[0]) / duration;

    // Planted samples of each foot, and what the planted feet travel: the median of their
    // velocities, each component (the few samples of a foot landing or lifting, still near
    // the ground but moving forward, do not pull it).
    let step = duration / SAMPLES as f32;
    let mut planted = Vec::with_capacity(feet.len());
    let mut velocities = Vec::new();
    for &f in &feet {
        let track = track(f);
        let low = lowest(f);
        let lift = track.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max) - low;
        let down: Vec<bool> = track[..SAMPLES].iter().map(|p| p.y - low <= PLANTED * lift).collect();
        for i in 0..SAMPLES {
            if down[i] && down[(i + 1) % SAMPLES] {
                velocities.push(horizontal(track[i + 1] - track[i]) / step);
            }
        }
        planted.push(down);
    }
    if velocities.is_empty() {
        return None;
    }
    let median = |component: fn(&Vec3) -> f32| {
        let mut values: Vec<f32> = velocities.iter().map(component).collect();
        values.sort_by(f32::total_cmp);
        values[values.len() / 2]
    };
    let planted_velocity = Vec3::new(median(|v| v.x), 0.0, median(|v| v.z));
    let ground_velocity = travel - planted_velocity;
    let speed = ground_velocity.length();
    if speed < STILL * height {
        return None;
    }
    let forward = ground_velocity.try_normalize()?;
    let contacts = planted.iter().map(|down| ranges(down)).collect();
    let feet = feet.iter().map(|&f| joints[f]).collect();
    Some(Stride { feet, root: Some(joints[root]), contacts, speed, forward, travel, duration })
}

/// The runs of `true` in a looped sequence of samples, as phase ranges (one that wraps round
/// the end ends past 1).
fn ranges(down: &[bool]) -> Vec<(f32, f32)> {
    let n = down.len();
    if down.iter().all(|&d| d) {
        return vec![(0.0, 1.0)];
    }
    // Start where a run begins after a lifted sample, so no run is split by the loop's seam.
    let Some(first) = (0..n).find(|&i| down[i] && !down[(i + n - 1) % n]) else { return Vec::new() };
    let mut runs = Vec::new();
    let mut i = first;
    while i < first + n {
        if down[i % n] {
            let start = i;
            while i < first + n && down[i % n] {
                i += 1;
            }
            runs.push((start as f32 / n as f32, i as f32 / n as f32));
        } else {
            i += 1;
        }
    }
    let mut runs: Vec<(f32, f32)> = runs
        .into_iter()
        .map(|(start, end)| if start >= 1.0 { (start - 1.0, end - 1.0) } else { (start, end) })
        .collect();
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    runs
}

/// Clip `clip` of `model` played in place: its skeleton root's translation keys carried back
/// along the root's travel (`stride.travel`, measured from the clip), so that the clip no
/// longer moves the root forward and the game moves the prop instead, at the stride's speed
/// (which the travel is part of: the planted feet stay still either way). `None` when the
/// clip stays in place ([`Stride::moves_root`]) or its travel is not in its root's own
/// translation keys (an ancestor carries it, say).
#[must_use]
pub fn in_place(model: &Model, clip: usize, stride: &Stride) -> Option<Clip> {
    let (original, root) = (model.clips().get(clip)?, stride.root?);
    if !stride.moves_root() {
        return None;
    }
    let rig = model.rig();
    let mut rest = Pose::from_rest(rig);
    rest.compute_world(rig);
    // The travel is in model space: the root's keys are in its parent's.
    let parent = rig.parent(root).map_or(Affine3A::IDENTITY, |p| rest.world_matrix(p));
    let travel = parent.inverse().transform_vector3(stride.travel);
    let mut carried = false;
    let channels = original
        .channels()
        .iter()
        .map(|channel| match channel.keyframes() {
            Keyframes::Translation(values) if channel.node() == root => {
                carried = true;
                let keys = channel.keys();
                let cubic = keys.interpolation() == Interpolation::CubicSpline;
                let per_key = if cubic { 3 } else { 1 };
                let back = values
                    .iter()
                    .enumerate()
                    .map(|(k, &value)| match (cubic, k % per_key) {
                        // A cubic spline's tangents are velocities: the travel's is constant.
                        (true, 0 | 2) => value - travel,
                        _ => value - travel * keys.times()[k / per_key],
                    })
                    .collect();
                Channel::new(root, keys.interpolation(), keys.times().to_vec(), Keyframes::Translation(back))
                    .unwrap_or_else(|_| channel.clone())
            }
            _ => channel.clone(),
        })
        .collect();
    if !carried {
        return None;
    }
    let clip = Clip::new(original.name().map(str::to_owned), channels, rig).ok()?;
    clip.with_properties(original.property_channels().to_vec(), rig).ok()
}

/// `model` with its clips `clips` (indices: a walk, a run, ...) played in place where they move
/// its skeleton's root ([`in_place`]): the in-place versions added after its own clips and
/// `clips` pointed at them, for a game that moves the prop at the clip's speed itself. `None`
/// when every one is in place already.
#[must_use]
pub fn played_in_place(model: &Model, clips: &mut [usize]) -> Option<Model> {
    // Each clip once, where two slots name it (an animal whose run is its walk).
    let moved: Vec<(usize, Clip)> = clips
        .iter()
        .enumerate()
        .filter(|&(k, clip)| !clips[..k].contains(clip))
        .filter_map(|(k, &clip)| Some((k, in_place(model, clip, &stride(model, clip)?)?)))
        .collect();
    if moved.is_empty() {
        return None;
    }
    let first = model.clips().len();
    let with = model.with_clips(moved.iter().map(|(_, clip)| clip.clone()));
    let was: Vec<usize> = moved.iter().map(|&(k, _)| clips[k]).collect();
    for slot in clips.iter_mut() {
        if let Some(n) = was.iter().position(|&clip| clip == *slot) {
            *slot = first + n;
        }
    }
    Some(with)
}

/// A model's gaits, slowest first (a walk, then a run), played by speed.
#[derive(Clone, Debug, PartialEq)]
pub struct Gaits {
    gaits: Vec<Gait>,
}

/// One gait: its clip, its stride, and the phase at which its reference foot lands.
#[derive(Clone, Debug, PartialEq)]
struct Gait {
    clip: usize,
    stride: Stride,
    /// The phase of the clip at which the first gait's first foot lands: the clips are
    /// played from their landings, so blended ones put the same foot down together.
    landing: f32,
}

/// One clip of a gait blend: which gait, at what clip time, and its weight over the ones
/// before it (the first at 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaitLayer {
    /// The gait's index among the [`Gaits`] (its clip: [`Gaits::clip`]).
    pub gait: usize,
    /// The clip time, seconds.
    pub time: f32,
    /// The weight it is blended in with over the layers before it.
    pub weight: f32,
}

impl Gaits {
    /// The gaits of `clips` of `model`, slowest first, or `None` when one of them shows no
    /// stride ([`stride`]).
    #[must_use]
    pub fn new(model: &Model, clips: &[usize]) -> Option<Self> {
        let strides = clips.iter().map(|&clip| Some((clip, stride(model, clip)?))).collect::<Option<Vec<_>>>()?;
        Some(Self::from_strides(strides))
    }

    /// The gaits of clips with these strides (a clip's index, its stride), slowest first.
    #[must_use]
    pub fn from_strides(strides: Vec<(usize, Stride)>) -> Self {
        let mut gaits: Vec<Gait> =
            strides.into_iter().map(|(clip, stride)| Gait { clip, stride, landing: 0.0 }).collect();
        gaits.sort_by(|a, b| a.stride.speed.total_cmp(&b.stride.speed));
        let reference = gaits.first().and_then(|g| g.stride.feet.first().copied());
        for gait in &mut gaits {
            let foot = gait.stride.feet.iter().position(|&f| Some(f) == reference);
            gait.landing = foot.and_then(|f| gait.stride.contacts[f].first()).map_or(0.0, |&(start, _)| start);
        }
        Self { gaits }
    }

    /// How many gaits there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.gaits.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.gaits.is_empty()
    }

    /// Gait `gait`'s clip.
    #[must_use]
    pub fn clip(&self, gait: usize) -> usize {
        self.gaits[gait].clip
    }

    /// Gait `gait`'s stride.
    #[must_use]
    #[inline]
    pub fn stride(&self, gait: usize) -> &Stride {
        &self.gaits[gait].stride
    }

    /// The two gaits around `speed` (model units per second) and the faster one's weight over
    /// the slower (0 to 1): it rises across the middle [`BLEND_BAND`] of the way from the
    /// slower gait's speed to the faster's; below the slowest gait, the slowest alone; above
    /// the fastest, the fastest alone. Each gait alone plays at the rate its speed calls for,
    /// so its feet stay planted; the band is where one turns into the other.
    #[must_use]
    #[inline]
    pub fn around(&self, speed: f32) -> (usize, usize, f32) {
        let last = self.gaits.len().saturating_sub(1);
        let above = self.gaits.iter().position(|g| g.stride.speed > speed).unwrap_or(self.gaits.len());
        match above {
            0 => (0, 0, 0.0),
            k if k > last => (last, last, 0.0),
            k => {
                let (slow, fast) = (self.gaits[k - 1].stride.speed, self.gaits[k].stride.speed);
                let way = (speed - slow) / (fast - slow).max(f32::EPSILON);
                (k - 1, k, ((way - 0.5) / BLEND_BAND + 0.5).clamp(0.0, 1.0))
            }
        }
    }

    /// Advances the shared `phase` (0 to 1, the cycle of the gaits around the speed) by `dt`
    /// seconds at `speed` (model units per second) and returns the two layers to pose (both of
    /// weight 0 when there is no gait): the slower gait at weight 1, the faster blended over it by how far the speed is between
    /// theirs. The cycle covers the blend of their strides' lengths, so a planted foot stays
    /// still at any speed.
    #[inline]
    pub fn advance(&self, phase: &mut f32, speed: f32, dt: f32) -> [GaitLayer; 2] {
        if self.gaits.is_empty() {
            return [GaitLayer { gait: 0, time: 0.0, weight: 0.0 }; 2];
        }
        let (slow, fast, blend) = self.around(speed);
        let length = self.gaits[slow].stride.length() * (1.0 - blend) + self.gaits[fast].stride.length() * blend;
        if length > 0.0 && speed.is_finite() && dt.is_finite() {
            *phase = cycle(*phase + speed.max(0.0) * dt / length);
        }
        let layer = |gait: usize, weight: f32| {
            let g = &self.gaits[gait];
            GaitLayer { gait, time: cycle(*phase + g.landing) * g.stride.duration, weight }
        };
        [layer(slow, 1.0), layer(fast, if fast == slow { 0.0 } else { blend })]
    }
}
