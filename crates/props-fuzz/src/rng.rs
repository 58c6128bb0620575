//! The fuzzer's seeded generator (`rand_xoshiro`'s SplitMix64), so that every fuzzed input can
//! be made again from the run's seed and its index.

use rand_core::{Rng as _, SeedableRng as _};
use rand_xoshiro::SplitMix64;

/// The generator's state.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator for `seed` (any value).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self(SplitMix64::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (0 for `n` 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { ((self.next_u64() >> 32) as usize) % n }
    }
}
