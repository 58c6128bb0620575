//! The fuzzer's seeded generator, `rand_xoshiro`'s SplitMix64, so that every fuzzed input can
//! be made again from the run's seed and its index, and the one draw it adds ([`Below`]).

use rand_core::{Rng as _, SeedableRng as _};
use rand_xoshiro::SplitMix64;

/// A generator for `seed` (any value).
#[must_use]
pub fn seeded(seed: u64) -> SplitMix64 {
    SplitMix64::seed_from_u64(seed)
}

/// A number below a bound, from the top 32 bits of the next draw.
pub trait Below {
    /// A number in `0..n` (0 for `n` 0).
    fn below(&mut self, n: usize) -> usize;
}

impl Below for SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { ((self.next_u64() >> 32) as usize) % n }
    }
}
