//! Pose sharing: instances whose states are equal, or equal once quantized, share one palette,
//! evaluated once per frame; each instance carries only the palette's offset.
//!
//! A state is keyed by its layers (clip, blend, mask, time, weight) and its driver values,
//! packed into a [`Key`] from which the state it stands for is rebuilt and evaluated:
//!
//! - [`Sharing::Exact`]: the values' bits, so only equal states share (traffic lights showing
//!   one phase: three palettes however many lights);
//! - [`Sharing::Quantized`]: each clip time rounded to a multiple of [`Quantization::time`]
//!   (clamped to the clip), each weight to a multiple of [`Quantization::weight`], each driver
//!   angle to a multiple of [`Quantization::angle`] (shrunk so that a turn holds a whole
//!   number). **Error bound**: every time, weight and angle of the evaluated state is within
//!   half a step of the instance's own; so a point `r` from a driven node's axis moves by at
//!   most `r * angle / 2`, and a point on a clip moves by at most half a time step times its
//!   speed (tested against the general pose path in props-bench's `tests/it/sharing.rs`).

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
}

impl Quantization {
    /// The step index of clip time `time` in a clip of `duration` seconds (clamped to it).
    fn time_index(&self, time: f32, duration: f32) -> u32 {
        let steps = (duration / self.time).round().max(0.0) as u32;
        ((time / self.time).round().max(0.0) as u32).min(steps)
    }

    /// The clip time an instance at `time` is drawn at: the nearest multiple of the step,
    /// clamped to the clip (within half a step of `time` for a time inside the clip).
    #[must_use]
    pub fn quantize_time(&self, time: f32, duration: f32) -> f32 {
        (self.time_index(time, duration) as f32 * self.time).min(duration)
    }

    /// The weight a layer of `weight` is drawn with.
    #[must_use]
    pub fn quantize_weight(&self, weight: f32) -> f32 {
        (weight / self.weight).round() * self.weight
    }

    /// The step index of a driver angle (a whole number of steps per turn).
    fn angle_index(&self, angle: f32) -> u32 {
        let (per_turn, step) = angle_steps(self.angle);
        ((angle / step).round() as i64).rem_euclid(i64::from(per_turn)) as u32
    }

    /// The driver angle an instance at `angle` is drawn at, in `[0, 2 pi)`: the nearest of a
    /// whole number of steps per turn, each at most [`Quantization::angle`] (so within half
    /// a step of `angle`, modulo a turn).
    #[must_use]
    pub fn quantize_angle(&self, angle: f32) -> f32 {
        self.angle_index(angle) as f32 * angle_steps(self.angle).1
    }
}

impl Default for Quantization {
    /// 1/60 s, 1/32 of the weight, one degree.
    fn default() -> Self {
        Self { time: 1.0 / 60.0, weight: 1.0 / 32.0, angle: std::f32::consts::PI / 180.0 }
    }
}

/// Words of a key: three per layer (clip, blend and mask; time; weight), one per driver.
pub const KEY_WORDS: usize = 12;

/// A state packed for lookup (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Key([u32; KEY_WORDS]);

/// Whether a state of `layers` layers and `drivers` drivers fits a key.
#[must_use]
pub fn fits(layers: usize, drivers: usize) -> bool {
    layers * 3 + drivers <= KEY_WORDS
}

/// Angles rounded to a whole number of steps per turn.
fn angle_steps(step: f32) -> (u32, f32) {
    let per_turn = (std::f32::consts::TAU / step).ceil().clamp(1.0, 65_536.0) as u32;
    (per_turn, std::f32::consts::TAU / per_turn as f32)
}

impl Key {
    /// The key of a state (which must [`fits`]).
    pub fn of(sharing: Sharing, program: &Program, layers: &[Layer], drivers: &[f32]) -> Self {
        let mut words = [0u32; KEY_WORDS];
        for (l, layer) in layers.iter().enumerate() {
            let (time, weight) = match sharing {
                Sharing::Quantized(q) if layer.is_active() => {
                    let time = q.time_index(layer.time, program.duration(layer.clip as usize));
                    (time, (layer.weight / q.weight).round() as i32 as u32)
                }
                _ => (layer.time.to_bits(), layer.weight.to_bits()),
            };
            let active = layer.is_active() && !(matches!(sharing, Sharing::Quantized(_)) && weight == 0);
            let clip = if active { u32::from(layer.clip) } else { u32::from(Layer::OFF) };
            let blend = u32::from(layer.blend == Blend::Additive);
            words[l * 3] = clip | blend << 16 | u32::from(layer.mask) << 17;
            (words[l * 3 + 1], words[l * 3 + 2]) = if active { (time, weight) } else { (0, 0) };
        }
        for (d, &angle) in drivers.iter().enumerate() {
            words[layers.len() * 3 + d] = match sharing {
                Sharing::Quantized(q) => q.angle_index(angle),
                _ => angle.to_bits(),
            };
        }
        Self(words)
    }

    /// The state this key stands for, into `layers` and `drivers` (of the lengths it was made
    /// with).
    pub fn state(&self, sharing: Sharing, program: &Program, layers: &mut [Layer], drivers: &mut [f32]) {
        let words = &self.0;
        for (l, layer) in layers.iter_mut().enumerate() {
            let packed = words[l * 3];
            let clip = (packed & 0xFFFF) as u16;
            let blend = if packed >> 16 & 1 == 1 { Blend::Additive } else { Blend::Replace };
            let mask = (packed >> 17) as u8;
            let (time, weight) = (words[l * 3 + 1], words[l * 3 + 2]);
            *layer = match sharing {
                _ if clip == Layer::OFF => Layer::NONE,
                Sharing::Quantized(q) => {
                    let time = (time as f32 * q.time).min(program.duration(clip as usize));
                    Layer { clip, time, weight: weight as i32 as f32 * q.weight, blend, mask }
                }
                _ => Layer { clip, time: f32::from_bits(time), weight: f32::from_bits(weight), blend, mask },
            };
        }
        for (d, angle) in drivers.iter_mut().enumerate() {
            let word = words[layers.len() * 3 + d];
            *angle = match sharing {
                Sharing::Quantized(q) => word as f32 * angle_steps(q.angle).1,
                _ => f32::from_bits(word),
            };
        }
    }
}

/// No entry in a [`KeyTable`] slot.
const EMPTY: u32 = u32::MAX;

/// The keys met this frame and the palette each got: open addressing, cleared in time
/// proportional to its entries, grown geometrically (nothing allocated once it has grown).
#[derive(Clone, Debug)]
pub(crate) struct KeyTable {
    /// `(key, value)`; value [`EMPTY`] for a free slot.
    slots: Vec<(Key, u32)>,
    used: Vec<u32>,
}

impl Default for KeyTable {
    fn default() -> Self {
        Self { slots: vec![(Key::default(), EMPTY); 64], used: Vec::new() }
    }
}

/// A hash of a key's first `words` words (the others are zero).
fn hash(key: &Key, words: usize) -> usize {
    let mut h = 0u64;
    for &word in &key.0[..words] {
        h = (h ^ u64::from(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23);
    }
    (h ^ (h >> 32)) as usize
}

impl KeyTable {
    /// Forgets every key.
    pub fn clear(&mut self) {
        for &slot in &self.used {
            self.slots[slot as usize].1 = EMPTY;
        }
        self.used.clear();
    }

    /// The value of `key` (whose words past `words` are zero), inserting `make()` the first
    /// time it is met.
    pub fn get_or_insert(&mut self, key: &Key, words: usize, make: impl FnOnce() -> u32) -> u32 {
        let mask = self.slots.len() - 1;
        let mut slot = hash(key, words) & mask;
        loop {
            let (k, value) = &self.slots[slot];
            if *value == EMPTY {
                break;
            }
            if k == key {
                return *value;
            }
            slot = (slot + 1) & mask;
        }
        let value = make();
        self.slots[slot] = (*key, value);
        self.used.push(slot as u32);
        if self.used.len() * 2 > self.slots.len() {
            self.grow(words);
        }
        value
    }

    fn grow(&mut self, words: usize) {
        let old: Vec<(Key, u32)> = self.used.iter().map(|&s| self.slots[s as usize]).collect();
        self.slots = vec![(Key::default(), EMPTY); self.slots.len() * 2];
        self.used.clear();
        let mask = self.slots.len() - 1;
        for (key, value) in old {
            let mut slot = hash(&key, words) & mask;
            while self.slots[slot].1 != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = (key, value);
            self.used.push(slot as u32);
        }
    }
}
