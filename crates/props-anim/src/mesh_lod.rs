//! Mesh LOD: which level of detail ([`crate::Lod`]) each instance is drawn at. An instance
//! takes the coarsest level whose error, seen from the eye, spans at most
//! [`MeshLod::max_error_px`] pixels; one a pixel across takes the coarsest of all. It also
//! takes no level of more triangles than [`MeshLod::max_triangles_per_px`] times the pixels
//! its culling sphere covers where a coarser one strays at most
//! [`MeshLod::DENSE_ERROR_FACTOR`] times as far: triangles smaller than a pixel show little a
//! coarser level's would not, but a box in place of a sphere 70 pixels across would.
//!
//! Hysteresis keeps a prop from flickering between two levels as the camera hovers at the
//! distance where they meet: a prop turns finer as soon as its level's error passes the
//! threshold, but coarser only once the coarser level's error is under
//! [`MeshLod::hysteresis`] of it (at the default 0.7, 43% farther than where it turned finer).

/// How instances pick their level of detail.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshLod {
    /// The most a level's error may span on screen, in pixels (default 1).
    pub max_error_px: f32,
    /// A prop turns coarser only once the coarser level's error spans at most this share of
    /// [`MeshLod::max_error_px`] (0 to 1; default 0.7).
    pub hysteresis: f32,
    /// A prop whose culling sphere spans at most this many pixels across takes the coarsest
    /// level (default 1: at 2, the city's far windmills, drawn coarsest, lost a visible share
    /// of their haze at 640x360).
    pub smallest_px: f32,
    /// Levels are picked as on a view at least this many pixels tall (default 720). On a
    /// shorter view each prop is fewer pixels, and a level whose error spans a pixel of them
    /// loses a visible share of the prop: the city's 640x360 still, drawn with the levels its
    /// own pixels pick, scores FLIP 0.036 against full detail, 0.029 with these
    /// (`cargo xtask lod-quality`). A view this tall or taller is unaffected.
    pub min_view_px: f32,
    /// A prop takes a coarser level while its level has more triangles than this many times
    /// the pixels its culling sphere covers, if the coarser one strays at most
    /// [`MeshLod::DENSE_ERROR_FACTOR`] times [`MeshLod::max_error_px`] (default 4; 0 turns it
    /// off). A scan's noise weighs in its levels' errors: a 300,000-triangle rock kept its full
    /// detail until it was 27 pixels tall, 400 triangles a pixel. At 1 a triangle a pixel, the
    /// city's 640x360 still scored FLIP 0.0305 against full detail (0.0273 at 4, 0.0252
    /// without the cap: `cargo xtask lod-quality`).
    pub max_triangles_per_px: f32,
}

impl MeshLod {
    /// A level too dense for a prop's pixels gives way to a coarser one straying at most this
    /// many times [`MeshLod::max_error_px`].
    pub const DENSE_ERROR_FACTOR: f32 = 2.0;
}

impl Default for MeshLod {
    fn default() -> Self {
        Self { max_error_px: 1.0, hysteresis: 0.7, smallest_px: 1.0, min_view_px: 720.0, max_triangles_per_px: 4.0 }
    }
}

/// Mesh LOD as a view sees it: [`MeshLod`] and the pixels one world unit spans one unit in
/// front of the eye.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LodView {
    pub(crate) lod: MeshLod,
    pub(crate) pixels_per_unit: f32,
}

impl LodView {
    /// The level an instance at `distance` from the eye (its sphere's centre), with a sphere
    /// of `radius`, is drawn at, when it was drawn at `current` (`levels`: each level's error
    /// in world units and triangles, level 0's first). Whatever `current` is, the result is a
    /// level.
    #[cfg(test)]
    pub(crate) fn pick(&self, levels: Levels<'_>, current: u8, distance: f32, radius: f32) -> u8 {
        self.thresholds(levels, radius).pick(current, distance)
    }

    /// The distances at which a crowd's instances (spheres of `radius`, of these `levels`)
    /// change level, for [`Thresholds::pick`]: computed once a frame, so that picking is a
    /// few comparisons an instance.
    pub(crate) fn thresholds(&self, (errors, triangles): Levels<'_>, radius: f32) -> Thresholds {
        let mut thresholds = Thresholds {
            finer: [f32::INFINITY; MAX_LEVELS],
            coarser: [f32::INFINITY; MAX_LEVELS],
            ..Thresholds::default()
        };
        let last = errors.len().clamp(1, MAX_LEVELS) - 1;
        thresholds.last = last as u8;
        // Level k's error spans `max_error_px` pixels where the sphere's nearest point is
        // error x pixels_per_unit / max_error_px away; nearer than 1 cm counts as 1 cm.
        let px = self.pixels_per_unit / self.lod.max_error_px;
        let from = |near: f32| if near <= 0.01 { f32::NEG_INFINITY } else { near + radius };
        // Level k - 1 has more triangles than `max_triangles_per_px` times the pixels the
        // sphere covers, pi (radius x pixels_per_unit / distance)^2, from this distance on.
        let dense = |k: usize| match triangles.get(k - 1) {
            Some(&t) if t > 0 && self.lod.max_triangles_per_px > 0.0 => {
                radius * self.pixels_per_unit * (std::f32::consts::PI * self.lod.max_triangles_per_px / t as f32).sqrt()
            }
            _ => f32::INFINITY,
        };
        for (k, error) in errors.iter().enumerate().take(last + 1).skip(1) {
            let near = error * px;
            let dense = dense(k).max(from(near / MeshLod::DENSE_ERROR_FACTOR));
            (thresholds.finer[k], thresholds.coarser[k]) =
                (from(near).min(dense), from(near / self.lod.hysteresis).min(dense / self.lod.hysteresis));
        }
        // Two radii span `smallest_px` pixels from here on.
        thresholds.smallest = if self.lod.smallest_px > 0.0 {
            2.0 * radius * self.pixels_per_unit / self.lod.smallest_px
        } else {
            f32::INFINITY
        };
        thresholds
    }
}

/// Most levels a crowd picks among (a model's most, `crate::Model::MAX_LOD_LEVELS`).
const MAX_LEVELS: usize = 8;

/// A model's levels as mesh LOD picks among them: each one's error (world units) and its
/// triangles, level 0's first (a level without a count has no cap on its triangles).
pub(crate) type Levels<'a> = (&'a [f32], &'a [u32]);

/// Where a crowd's instances change level ([`LodView::thresholds`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Thresholds {
    /// Per level, the distance from which it is within the error allowed.
    finer: [f32; MAX_LEVELS],
    /// Per level, the distance from which an instance turns to it from a finer one.
    coarser: [f32; MAX_LEVELS],
    /// The distance from which an instance spans a pixel or so: the last level.
    smallest: f32,
    last: u8,
}

impl Thresholds {
    /// The level of an instance at `distance` from the eye (its centre) drawn at `current`.
    #[inline]
    pub(crate) fn pick(&self, current: u8, distance: f32) -> u8 {
        if distance >= self.smallest {
            return self.last;
        }
        let current = current.min(self.last);
        // The coarsest level within the error, and the coarsest it would turn to: how many
        // thresholds are behind (level 0's, and those past the last, never are), eight
        // comparisons at once.
        let within = |limits: &[f32; MAX_LEVELS]| limits.iter().map(|&d| u8::from(d <= distance)).sum::<u8>();
        let fits = within(&self.finer);
        if fits < current { fits } else { within(&self.coarser).max(current) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Levels of 1, 2 and 4 cm error, seen by a view where 1 m spans 1000 pixels at 1 m.
    fn view() -> (LodView, [f32; 4]) {
        (LodView { lod: MeshLod::default(), pixels_per_unit: 1000.0 }, [0.0, 0.01, 0.02, 0.04])
    }

    #[test]
    fn the_coarsest_level_within_a_pixel_is_taken() {
        let (view, errors) = view();
        // At 10 m (plus the sphere's 1 m), a 1 cm error spans 1 pixel.
        assert_eq!(view.pick((&errors, &[]), 1, 11.0, 1.0), 1);
        assert_eq!(view.pick((&errors, &[]), 1, 9.0, 1.0), 0, "1.25 pixels: too much");
        assert_eq!(view.pick((&errors, &[]), 0, 11.0, 1.0), 0, "coarser only at 0.7 pixels");
        assert_eq!(view.pick((&errors, &[]), 0, 15.5, 1.0), 1, "0.69 pixels");
        assert_eq!(view.pick((&errors, &[]), 0, 100.0, 1.0), 3);
        assert_eq!(view.pick((&errors, &[]), 0, 25.0, 1.0), 1, "level 2 spans 0.83 pixels: above 0.7");
        assert_eq!(view.pick((&errors, &[]), 2, 25.0, 1.0), 2, "level 2 kept: under a pixel");
        assert_eq!(view.pick((&[0.0], &[]), 0, 1e6, 1.0), 0, "no levels: the full mesh");
        assert_eq!(view.pick((&errors, &[]), 9, 1e6, 1.0), 3, "a level past the last reads as the last");
    }

    /// A prop moving out and back in crosses to a finer level nearer than it crossed to the
    /// coarser one: between the two, its level stays whatever it was.
    #[test]
    fn levels_turn_finer_at_the_threshold_and_coarser_well_past_it() {
        let (view, errors) = view();
        let mut level = 0;
        let mut coarser_at = None;
        for d in (5..100).map(|d| d as f32) {
            let next = view.pick((&errors, &[]), level, d, 1.0);
            if next > 0 && coarser_at.is_none() {
                coarser_at = Some(d);
            }
            level = next;
        }
        let mut finer_at = None;
        for d in (5..100).rev().map(|d| d as f32) {
            let next = view.pick((&errors, &[]), level, d, 1.0);
            if next == 0 && finer_at.is_none() {
                finer_at = Some(d);
            }
            level = next;
        }
        let (out, back) = (coarser_at.expect("turned coarser"), finer_at.expect("turned finer"));
        // Level 1 spans a pixel at 11 m, 0.7 pixels at 15.3 m.
        assert_eq!((out, back), (16.0, 10.0));
        for hover in [11.0, 12.0, 13.0, 14.0, 15.0] {
            assert_eq!(view.pick((&errors, &[]), 0, hover, 1.0), 0);
            assert_eq!(view.pick((&errors, &[]), 1, hover, 1.0), 1);
        }
    }

    #[test]
    fn a_prop_a_pixel_across_takes_the_coarsest_level() {
        let (view, errors) = view();
        // A sphere of 5 cm radius spans a pixel at 100 m.
        assert_eq!(view.pick((&errors, &[]), 0, 100.0, 0.05), 3);
        let view = LodView { lod: MeshLod { smallest_px: 2.0, ..view.lod }, ..view };
        assert_eq!(view.pick((&errors, &[]), 0, 50.0, 0.05), 3, "two pixels, where asked");
        assert_eq!(view.pick((&errors, &[]), 0, 45.0, 0.05), 2, "2.2 pixels across: by its error");
    }

    /// A prop takes no level of more triangles than (here) a pixel's worth of its sphere where
    /// a coarser one strays at most two pixels: levels of 100k, 10k, 1k and 100 triangles.
    #[test]
    fn a_level_of_more_triangles_than_pixels_turns_coarser() {
        let (view, _) = view();
        let view = LodView { lod: MeshLod { max_triangles_per_px: 1.0, ..view.lod }, ..view };
        let (errors, triangles) = ([0.0, 0.02, 0.04, 0.08], [100_000, 10_000, 1_000, 100]);
        let levels = (&errors[..], &triangles[..]);
        // A sphere of 1 m covers pi (1000 / d)^2 pixels: 100k at 5.6 m, 10k at 17.7 m, 1k at
        // 56 m. Levels 1 and 2 stray two pixels at 11 m and 21 m (their near sides at 10 and
        // 20 m): level 1 from 11 m, 2 from 21 m, 3 from 56 m.
        assert_eq!(view.pick(levels, 0, 10.0, 1.0), 0);
        assert_eq!(view.pick(levels, 0, 16.0, 1.0), 1, "past 11 m / 0.7");
        assert_eq!(view.pick(levels, 3, 12.0, 1.0), 1, "finer as soon as it fits");
        assert_eq!(view.pick(levels, 0, 35.0, 1.0), 2);
        assert_eq!(view.pick(levels, 0, 100.0, 1.0), 3);
        // By their errors alone, a pixel: level 2 at 100 m.
        let off = LodView { lod: MeshLod { max_triangles_per_px: 0.0, ..view.lod }, ..view };
        assert_eq!(off.pick(levels, 0, 100.0, 1.0), 2);
        // Levels straying a metre (ten pixels at 100 m) are not taken for their triangles.
        assert_eq!(MeshLod::DENSE_ERROR_FACTOR, 2.0);
        let far = ([0.0, 1.0, 2.0, 4.0], triangles);
        assert_eq!(view.pick((&far.0, &far.1), 0, 100.0, 1.0), 0);
    }
}
