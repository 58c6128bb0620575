//! The ground: flat where the town is, rising into a ring of rolling hills around it. A pure
//! function of position and seed, so the game can mesh the same ground the props stand on.

use std::f32::consts::TAU;

use glam::Vec2;

use crate::rng::{Rng, Stream};

/// Height of the hill crests, metres.
pub const HILL_HEIGHT: f32 = 28.0;
/// Distance over which the ground rises from the town to the crests, metres.
const RISE: f32 = 80.0;
/// Wavelength of the undulation along a radius, metres.
const RADIAL_WAVELENGTH: f32 = 260.0;
/// Hills around the ring.
const LOBES: f32 = 7.0;

/// The height field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terrain {
    flat_radius: f32,
    phases: [f32; 2],
}

impl Terrain {
    /// Flat within `flat_radius` of the origin, hills beyond; undulation seeded.
    #[must_use]
    pub fn new(flat_radius: f32, seed: u64) -> Self {
        let mut rng = Rng::stream(seed, Stream::Terrain, 0);
        Self { flat_radius, phases: [rng.angle(), rng.angle()] }
    }

    /// Radius of the flat town area, metres.
    #[must_use]
    pub fn flat_radius(&self) -> f32 {
        self.flat_radius
    }

    /// Radius from which the hills reach their full height, metres.
    #[must_use]
    pub fn hills_radius(&self) -> f32 {
        self.flat_radius + RISE
    }

    /// Ground height at `at` (x, z), metres; 0 in the town, never negative.
    #[must_use]
    pub fn height(&self, at: Vec2) -> f32 {
        // The town is flat: most props stand there, and are asked every step.
        if at.length_squared() <= self.flat_radius * self.flat_radius {
            return 0.0;
        }
        let r = at.length();
        let t = ((r - self.flat_radius) / RISE).clamp(0.0, 1.0);
        let rise = t * t * (3.0 - 2.0 * t);
        if rise == 0.0 {
            return 0.0;
        }
        let around = (LOBES * at.y.atan2(at.x) + self.phases[0]).sin();
        let along = (r / RADIAL_WAVELENGTH * TAU + self.phases[1]).cos();
        HILL_HEIGHT * rise * (0.7 + 0.3 * around * along)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_town_and_hills_around() {
        let terrain = Terrain::new(150.0, 3);
        assert_eq!(terrain.height(Vec2::new(100.0, -80.0)), 0.0);
        for k in 0..64 {
            let a = k as f32 / 64.0 * TAU;
            let h = terrain.height(Vec2::new(a.cos(), a.sin()) * 400.0);
            assert!((0.4 * HILL_HEIGHT..=HILL_HEIGHT).contains(&h), "{h}");
        }
    }
}
