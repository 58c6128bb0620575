//! Pose sharing: instances whose states are equal, or equal once quantized, share one palette,
//! evaluated once per frame; each instance carries only the palette's offset.
//!
//! A state is keyed by its layers (clip, blend, mask, time, weight) and its driver values,
//! packed into a `Key` from which the state it stands for is rebuilt and evaluated. Layers
//! beneath one that decides the whole pose (replacing, at full weight, unmasked, of a clip
//! that animates every property the model's clips do) are keyed as off, since they change
//! nothing: everyone standing at one time of the idle shares its pose, whatever walk each
//! stopped in.
//!
//! - [`Sharing::Exact`]: the values' bits, so only equal states share (traffic lights showing
//!   one phase: three palettes however many lights);
//! - [`Sharing::Quantized`]: each clip time rounded to a multiple of [`Quantization::time`]
//!   (clamped to the clip), each weight to a multiple of [`Quantization::weight`], each driver
//!   angle to a multiple of [`Quantization::angle`] (shrunk so that a turn holds a whole
//!   number). Far from the camera the steps are coarser: they double each time the distance
//!   does beyond [`Quantization::coarsen_beyond`] (at most [`MAX_COARSENING`] times), so that
//!   the error stays the same on screen. **Error bound**: every time, weight and angle of the
//!   evaluated state is within half a step of the instance's own; so a point `r` from a
//!   driven node's axis moves by at most `r * angle / 2` (times `2^level` at level `level`),
//!   and a point on a clip by at most half a time step times its speed; seen from the camera,
//!   a point `r` from an axis is off by at most `r * angle / (2 * coarsen_beyond)` radians of
//!   view, at any distance (tested against the general pose path in props-bench's
//!   `tests/it/sharing.rs`).

use crate::playback::PlayMode;
use crate::program::Program;
use crate::state::{Blend, Layer};

/// Which states share a palette.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Sharing {
    /// None: every instance is evaluated for itself (no key, no lookup).
    #[default]
    None,
    /// Only equal states.
    Exact,
    /// States equal once quantized.
    Quantized(Quantization),
}

/// The steps of [`Sharing::Quantized`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantization {
    /// Clip time step, seconds (positive).
    pub time: f32,
    /// Layer weight step (positive; `1 / n` keeps 1 exact).
    pub weight: f32,
    /// Driver angle step, radians (positive).
    pub angle: f32,
    /// Distance from the camera (world units, for a prop at scale 1: as for
    /// [`crate::runtime::UpdateRateLod`]) beyond which the steps double, and double again at
    /// each doubling of the distance ([`Quantization::level`]); infinite: never.
    pub coarsen_beyond: f32,
}

/// The most times steps double with distance: 16 times the step at 16 times
/// [`Quantization::coarsen_beyond`] and beyond.
pub const MAX_COARSENING: u8 = 4;

impl Quantization {
    /// The coarsening level of an instance `distance` from the camera: how many times its
    /// steps double (`floor(log2(distance / coarsen_beyond))`, from 0 to [`MAX_COARSENING`]).
    #[must_use]
    pub fn level(&self, distance: f32) -> u8 {
        let mut level = 0;
        let mut reach = self.coarsen_beyond * 2.0;
        while level < MAX_COARSENING && distance >= reach {
            level += 1;
            reach *= 2.0;
        }
        level
    }

    /// These steps `2^level` times coarser.
    #[must_use]
    pub fn at_level(&self, level: u8) -> Self {
        let k = f32::from(1u16 << level.min(MAX_COARSENING));
        Self { time: self.time * k, weight: self.weight * k, angle: self.angle * k, ..*self }
    }

    /// The steps at coarsening `level`, ready to key states with.
    pub(crate) fn steps(&self, level: u8) -> Steps {
        let q = self.at_level(level);
        // Angles: a whole number of steps per turn, each at most `q.angle`.
        let per_turn = (std::f32::consts::TAU / q.angle).ceil().clamp(1.0, 65_536.0) as u32;
        let angle = std::f32::consts::TAU / per_turn as f32;
        Steps {
            time: q.time,
            weight: q.weight,
            angle,
            per_time: q.time.recip(),
            per_weight: q.weight.recip(),
            per_angle: angle.recip(),
            per_turn,
            level,
        }
    }

    /// The clip time an instance at `time` is drawn at: the nearest multiple of the step,
    /// clamped to the clip (within half a step of `time` for a time inside the clip).
    #[must_use]
    pub fn quantize_time(&self, time: f32, duration: f32) -> f32 {
        let steps = self.steps(0);
        steps.time_of(steps.time_index(time, duration), duration)
    }

    /// The weight a layer of `weight` is drawn with.
    #[must_use]
    pub fn quantize_weight(&self, weight: f32) -> f32 {
        let steps = self.steps(0);
        steps.weight_of(steps.weight_index(weight))
    }

    /// The driver angle an instance at `angle` is drawn at, in `[0, 2 pi)`: the nearest of a
    /// whole number of steps per turn, each at most [`Quantization::angle`] (so within half
    /// a step of `angle`, modulo a turn).
    #[must_use]
    pub fn quantize_angle(&self, angle: f32) -> f32 {
        let steps = self.steps(0);
        steps.angle_of(steps.angle_index(angle))
    }
}

/// `x` rounded to the nearest whole number (halves away from zero but for negative halves),
/// without a call into the maths library; saturating, 0 for NaN.
fn nearest(x: f32) -> i64 {
    let whole = x as i64;
    let fraction = x - whole as f32;
    whole + i64::from(fraction >= 0.5) - i64::from(fraction < -0.5)
}

/// A [`Quantization`] at one coarsening level: steps to key states with, and back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Steps {
    time: f32,
    weight: f32,
    /// The angle step, shrunk to a whole number of steps per turn.
    angle: f32,
    /// Reciprocals of the steps: indices by multiplying (a key per visible instance per
    /// frame; rounding may differ from a division only at a tie, still within half a step).
    per_time: f32,
    per_weight: f32,
    per_angle: f32,
    per_turn: u32,
    level: u8,
}

impl Steps {
    /// The step index of clip time `time` in a clip of `duration` seconds (clamped to it).
    fn time_index(&self, time: f32, duration: f32) -> u32 {
        let last = nearest(duration * self.per_time).max(0);
        nearest(time * self.per_time).clamp(0, last) as u32
    }

    fn time_of(&self, index: u32, duration: f32) -> f32 {
        (index as f32 * self.time).min(duration)
    }

    fn weight_index(&self, weight: f32) -> u32 {
        nearest(weight * self.per_weight) as i32 as u32
    }

    fn weight_of(&self, index: u32) -> f32 {
        index as i32 as f32 * self.weight
    }

    fn angle_index(&self, angle: f32) -> u32 {
        nearest(angle * self.per_angle).rem_euclid(i64::from(self.per_turn)) as u32
    }

    fn angle_of(&self, index: u32) -> f32 {
        index as f32 * self.angle
    }
}

impl Default for Quantization {
    /// 1/60 s, 1/32 of the weight, one degree, doubling beyond 200 world units (metres): a
    /// point 20 m from an axis is at most 0.05 degrees of view off (about a pixel of a
    /// 1280-pixel-wide, 50-degree view).
    fn default() -> Self {
        Self { time: 1.0 / 60.0, weight: 1.0 / 32.0, angle: std::f32::consts::PI / 180.0, coarsen_beyond: 200.0 }
    }
}

/// Words of a key: three per layer (clip, blend and mask; time; weight), one per driver, and
/// the coarsening level. Sixteen (a cache line) hold a car: three light layers and six
/// wheel and steering drivers.
pub(crate) const KEY_WORDS: usize = 16;

/// A state packed for lookup (see the module documentation), with its hash (computed once,
/// when the state is keyed: an instance drawn with its last pose is looked up by it again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Key {
    words: [u32; KEY_WORDS],
    hash: u64,
}

/// Whether a state of `layers` layers and `drivers` drivers fits a key.
#[must_use]
pub fn fits(layers: usize, drivers: usize) -> bool {
    layers * 3 + drivers < KEY_WORDS
}

/// The first layer of `layers` that counts: the topmost that decides the whole pose
/// ([`Program::covers`], at full weight once keyed with `steps`), or 0. Layers under it are
/// keyed as off: a person standing over the walk it stopped in shares the pose of everyone
/// standing at that time. A single layer has none under it: nothing to look at.
fn covering(steps: Option<&Steps>, program: &Program, layers: &[Layer]) -> usize {
    if layers.len() < 2 {
        return 0;
    }
    let full = |layer: &Layer| match steps {
        Some(q) => q.weight_index(layer.weight) == q.weight_index(1.0),
        None => layer.weight == 1.0,
    };
    layers.iter().rposition(|layer| layer.is_active() && full(layer) && program.covers(layer)).unwrap_or(0)
}

impl Key {
    /// The key of a state (which must [`fits`]): its values' bits, or with `steps`, their
    /// step indices at that coarsening level.
    pub fn of(steps: Option<&Steps>, program: &Program, layers: &[Layer], drivers: &[f32]) -> Self {
        let mut words = [0u32; KEY_WORDS];
        let covered = covering(steps, program, layers);
        for (l, layer) in layers.iter().enumerate() {
            let (time, weight) = match steps {
                Some(q) if layer.is_active() => {
                    let duration = program.duration(layer.clip as usize);
                    (q.time_index(layer.clip_time(duration), duration), q.weight_index(layer.weight))
                }
                _ if layer.is_active() => {
                    (layer.clip_time(program.duration(layer.clip as usize)).to_bits(), layer.weight.to_bits())
                }
                _ => (layer.time.to_bits(), layer.weight.to_bits()),
            };
            let active = layer.is_active() && !(steps.is_some() && weight == 0) && l >= covered;
            let clip = if active { u32::from(layer.clip) } else { u32::from(Layer::OFF) };
            let blend = u32::from(layer.blend == Blend::Additive);
            words[l * 3] = clip | blend << 16 | u32::from(layer.mask) << 17;
            (words[l * 3 + 1], words[l * 3 + 2]) = if active { (time, weight) } else { (0, 0) };
        }
        let at = layers.len() * 3;
        // Angles by their steps; values set directly (weights, colours) by their bits: shared
        // only when equal.
        let angles = program.angle_count();
        for (d, &value) in drivers.iter().enumerate() {
            words[at + d] = match steps {
                Some(q) if d < angles => q.angle_index(value),
                _ => value.to_bits(),
            };
        }
        let used = at + drivers.len() + 1;
        words[used - 1] = steps.map_or(0, |q| u32::from(q.level));
        Self { words, hash: hash(&words[..used]) }
    }

    /// Whether it is `other` (every word compared, without branching or a library call).
    fn equals(&self, other: &Self) -> bool {
        self.words.iter().zip(&other.words).fold(0, |diff, (a, b)| diff | (a ^ b)) == 0
    }

    /// The state this key stands for, into `layers` and `drivers` (of the lengths it was made
    /// with); `quantization`: the one it was keyed with, if any.
    pub fn state(
        &self,
        quantization: Option<&Quantization>,
        program: &Program,
        layers: &mut [Layer],
        drivers: &mut [f32],
    ) {
        let words = &self.words;
        let at = layers.len() * 3;
        let steps = quantization.map(|q| q.steps(words[at + drivers.len()] as u8));
        for (l, layer) in layers.iter_mut().enumerate() {
            let packed = words[l * 3];
            let clip = (packed & 0xFFFF) as u16;
            let blend = if packed >> 16 & 1 == 1 { Blend::Additive } else { Blend::Replace };
            let mask = (packed >> 17) as u8;
            let (time, weight) = (words[l * 3 + 1], words[l * 3 + 2]);
            *layer = match &steps {
                _ if clip == Layer::OFF => Layer::NONE,
                Some(q) => {
                    let time = q.time_of(time, program.duration(clip as usize));
                    Layer { clip, time, weight: q.weight_of(weight), blend, mask, mode: PlayMode::Once }
                }
                None => Layer {
                    clip,
                    time: f32::from_bits(time),
                    weight: f32::from_bits(weight),
                    blend,
                    mask,
                    mode: PlayMode::Once,
                },
            };
        }
        let angles = program.angle_count();
        for (d, value) in drivers.iter_mut().enumerate() {
            let word = words[at + d];
            *value = match &steps {
                Some(q) if d < angles => q.angle_of(word),
                _ => f32::from_bits(word),
            };
        }
    }
}

/// No entry in a [`KeyTable`] slot.
const EMPTY: u32 = u32::MAX;

/// The keys met this frame and the palette each got: open addressing, cleared in time
/// proportional to its entries, grown geometrically (nothing allocated once it has grown).
/// Each slot holds a tag of the key's hash beside its value, so that a probe reads the key
/// only when the tags agree.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    /// `(tag, value)`; value [`EMPTY`] for a free slot.
    slots: Vec<(u32, u32)>,
    /// The key of each slot.
    keys: Vec<Key>,
    used: Vec<u32>,
}

impl Default for KeyTable {
    fn default() -> Self {
        Self { slots: vec![(0, EMPTY); 64], keys: vec![Key::default(); 64], used: Vec::new() }
    }
}

/// A hash of a key's words in use.
fn hash(words: &[u32]) -> u64 {
    let mut h = 0u64;
    for &word in words {
        h = (h ^ u64::from(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23);
    }
    h ^ (h >> 29)
}

impl KeyTable {
    /// Forgets every key.
    pub fn clear(&mut self) {
        for &slot in &self.used {
            self.slots[slot as usize].1 = EMPTY;
        }
        self.used.clear();
    }

    /// The value of `key`, inserting `make()` the first time it is met.
    pub fn get_or_insert(&mut self, key: &Key, make: impl FnOnce() -> u32) -> u32 {
        let h = key.hash;
        let tag = (h >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut slot = h as usize & mask;
        loop {
            let (t, value) = self.slots[slot];
            if value == EMPTY {
                break;
            }
            if t == tag && self.keys[slot].equals(key) {
                return value;
            }
            slot = (slot + 1) & mask;
        }
        let value = make();
        self.slots[slot] = (tag, value);
        self.keys[slot] = *key;
        self.used.push(slot as u32);
        if self.used.len() * 2 > self.slots.len() {
            self.grow();
        }
        value
    }

    fn grow(&mut self) {
        let old: Vec<(Key, u32)> =
            self.used.iter().map(|&s| (self.keys[s as usize], self.slots[s as usize].1)).collect();
        let size = self.slots.len() * 2;
        self.slots = vec![(0, EMPTY); size];
        self.keys = vec![Key::default(); size];
        self.used.clear();
        for (key, value) in old {
            self.get_or_insert(&key, || value);
        }
    }
}
