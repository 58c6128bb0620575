//! The town's seeded pseudo-random generator (SplitMix64): the same numbers on every platform
//! for the same seed, no global state, one stream per entity.

use std::f32::consts::TAU;

use rand_core::{Rng as _, SeedableRng as _};
use rand_xoshiro::SplitMix64;

/// Independent random streams, one per concern, so that adding a fox does not change the cars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    /// Order in which cars fill the road lanes.
    CarSpawn = 1,
    /// One car's own decisions (speed preference, routing).
    Car = 2,
    /// One windmill's site jitter, size and start angles.
    Windmill = 3,
    /// One fox's loop, speed and behaviour.
    Fox = 4,
    /// Signal start phases.
    Signals = 5,
    /// Wind field phases.
    Wind = 6,
    /// Terrain undulation.
    Terrain = 7,
    /// Which of the car models each car shows, and its paint.
    CarModel = 8,
}

/// A SplitMix64 generator (`rand_xoshiro`'s), with the draws the town makes.
///
/// Integer arithmetic only (floats are made from the top 24 bits), so a seed gives the same
/// sequence on every platform. It keeps the generator's 64-bit state itself, so that it is
/// `Copy`, as the components that carry one are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    state: u64,
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 finalizer of `z`, a bijective 64-bit mix: the generator's first output from
/// the state one step before `z`.
fn mix(z: u64) -> u64 {
    SplitMix64::seed_from_u64(z.wrapping_sub(GOLDEN_GAMMA)).next_u64()
}

impl Rng {
    /// A generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self { state: mix(seed) }
    }

    /// The generator of item `index` of `stream` under the scene seed `seed`: streams and items
    /// do not share numbers, and an item's numbers do not depend on how many items exist.
    #[must_use]
    pub(crate) fn stream(seed: u64, stream: Stream, index: u64) -> Self {
        Self::numbered(seed, stream as u64, index)
    }

    /// The generator of item `index` of the stream numbered `stream` under the scene seed
    /// `seed` (the built-in streams are numbered below 256).
    #[must_use]
    pub fn numbered(seed: u64, stream: u64, index: u64) -> Self {
        Self::new(mix(seed ^ mix(stream.wrapping_mul(GOLDEN_GAMMA) ^ mix(index))))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut generator = SplitMix64::seed_from_u64(self.state);
        let next = generator.next_u64();
        self.state = u64::from_le_bytes(generator.state());
        next
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
    }

    /// Uniform in `[low, high)`.
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.next_f32()
    }

    /// Uniform in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// A uniform angle in `[0, 2 pi)`.
    pub fn angle(&mut self) -> f32 {
        self.next_f32() * TAU
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_streams_differ() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        assert_eq!((a.next_u64(), a.next_u64()), (b.next_u64(), b.next_u64()));
        let mut c = Rng::stream(7, Stream::Car, 0);
        let mut d = Rng::stream(7, Stream::Car, 1);
        let mut e = Rng::stream(7, Stream::Fox, 0);
        let (c, d, e) = (c.next_u64(), d.next_u64(), e.next_u64());
        assert!(c != d && c != e && d != e);
    }

    #[test]
    fn known_sequence() {
        assert_eq!(mix(0), 0, "the finalizer fixes 0");
        assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        // SplitMix64 reference values for state 0 after mixing the seed; pins the algorithm
        // so that a refactor cannot silently change every scene.
        let mut rng = Rng { state: 0 };
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ranges() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            let x = rng.next_f32();
            assert!((0.0..1.0).contains(&x));
            assert!(rng.below(3) < 3);
            let r = rng.range(-2.0, 5.0);
            assert!((-2.0..5.0).contains(&r));
        }
        assert_eq!(rng.below(0), 0);
    }
}
