//! xorshift64*: a small seeded generator, so that every fuzzed input can be made again from
//! the run's seed and its index.

/// The generator's state.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value; 0 is remapped).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        // SplitMix64 of the seed: nearby seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Self((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 for `n` 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { ((self.next_u64() >> 32) as usize) % n }
    }
}
