//! A tiny deterministic random generator for the damage tests (shared with the mutation
//! test binary, `tests/mutations.rs`, through `#[path]`).

/// xorshift64.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next pseudo-random number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
