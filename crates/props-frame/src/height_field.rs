//! [`HeightField`]: a ground's heights on a square grid, as a host hands them to the renderer
//! so that its hills shadow everything under the sun (`props_render::Renderer::set_ground_shadow`)
//! at the cost of one lookup a pixel, instead of being drawn into every shadow map. The same
//! heights plant a crowd's feet ([`HeightField::ground_at`] in a `props_crowd::Ground`:
//! `Arc::new(move |p| field.ground_at(p))`).

use glam::Vec2;

/// A ground's heights on a square grid in world space: rows along z, each of
/// [`HeightField::columns`] samples along x, [`HeightField::spacing`] metres apart. Between
/// samples the ground is taken as interpolated (bilinearly).
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField {
    origin: Vec2,
    spacing: f32,
    columns: u32,
    heights: Vec<f32>,
}

/// Why [`HeightField::new`] refused a grid.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HeightFieldError {
    /// Fewer than 2 columns or rows, or heights not a whole number of rows.
    #[error("{len} heights are not rows of {columns} samples, at least 2 by 2")]
    Shape {
        /// Samples given.
        len: usize,
        /// Samples a row.
        columns: u32,
    },
    /// The spacing is not a positive finite number, or the origin or a height is not finite.
    #[error("the spacing ({spacing}) must be positive, and the origin and every height finite")]
    NotFinite {
        /// The spacing given.
        spacing: f32,
    },
}

impl HeightField {
    /// The grid whose sample `(i, j)` (column `i`, row `j`) lies at world x, z =
    /// `origin + spacing * (i, j)` at height `heights[j * columns + i]`, metres.
    ///
    /// # Errors
    /// [`HeightFieldError`] when the heights are not rows of `columns` (at least 2 by 2), or a
    /// number is not finite (or the spacing not positive).
    pub fn new(origin: Vec2, spacing: f32, columns: u32, heights: Vec<f32>) -> Result<Self, HeightFieldError> {
        let (len, width) = (heights.len(), columns as usize);
        if width < 2 || len < 2 * width || len % width != 0 {
            return Err(HeightFieldError::Shape { len, columns });
        }
        let finite = spacing.is_finite() && origin.is_finite() && heights.iter().all(|h| h.is_finite());
        if !finite || spacing <= 0.0 {
            return Err(HeightFieldError::NotFinite { spacing });
        }
        Ok(Self { origin, spacing, columns, heights })
    }

    /// World x and z of sample `(0, 0)`.
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// Metres between neighbouring samples.
    #[must_use]
    pub fn spacing(&self) -> f32 {
        self.spacing
    }

    /// Samples a row (along x).
    #[must_use]
    pub fn columns(&self) -> u32 {
        self.columns
    }

    /// Rows (along z).
    #[must_use]
    pub fn rows(&self) -> u32 {
        (self.heights.len() / self.columns as usize) as u32
    }

    /// The heights, row after row, metres.
    #[must_use]
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// The ground's height at world x, z `p`, bilinear between the four samples around it;
    /// `None` outside the grid.
    #[must_use]
    pub fn height_at(&self, p: Vec2) -> Option<f32> {
        let at = (p - self.origin) / self.spacing;
        let last = self.last();
        (at.cmpge(Vec2::ZERO).all() && at.cmple(last).all()).then(|| self.sample(at))
    }

    /// The ground's height at world x, z `p`, as [`HeightField::height_at`] within the grid and
    /// its nearest edge's beyond it (its origin's for a coordinate that is no number): a height
    /// everywhere, as a crowd's ground needs (`props_crowd::Ground`,
    /// `props_host::PropHost::set_ground`).
    #[must_use]
    pub fn ground_at(&self, p: Vec2) -> f32 {
        let at = (p - self.origin) / self.spacing;
        self.sample(Vec2::select(at.is_nan_mask(), Vec2::ZERO, at).clamp(Vec2::ZERO, self.last()))
    }

    /// The last sample's grid coordinates (column, row).
    fn last(&self) -> Vec2 {
        Vec2::new(self.columns as f32, self.rows() as f32) - 1.0
    }

    /// The height at grid coordinates `at` within `0..=last`, bilinear between the four samples
    /// around it.
    fn sample(&self, at: Vec2) -> f32 {
        // The cell's corner, kept one sample inside the far edges (where `at` may lie).
        let corner = at.floor().min(self.last() - 1.0);
        let f = at - corner;
        let h = |i: f32, j: f32| self.heights[j as usize * self.columns as usize + i as usize];
        let near = h(corner.x, corner.y) * (1.0 - f.x) + h(corner.x + 1.0, corner.y) * f.x;
        let far = h(corner.x, corner.y + 1.0) * (1.0 - f.x) + h(corner.x + 1.0, corner.y + 1.0) * f.x;
        near * (1.0 - f.y) + far * f.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beyond_the_grid_the_ground_is_its_nearest_edge_s() {
        // 3 x 2 samples 1 apart from (-1, -1): heights rising along x.
        let field =
            HeightField::new(Vec2::new(-1.0, -1.0), 1.0, 3, vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0]).expect("a grid");
        assert_eq!(field.ground_at(Vec2::new(-0.5, -0.5)), 0.5, "within: as height_at");
        assert_eq!(field.ground_at(Vec2::new(10.0, 0.0)), 2.0, "past the far edge along x");
        assert_eq!(field.ground_at(Vec2::new(-10.0, 30.0)), 0.0, "past the near corner's edges");
        assert_eq!(field.height_at(Vec2::new(10.0, 0.0)), None);
        assert_eq!(field.ground_at(Vec2::new(f32::NAN, f32::INFINITY)), 0.0, "the origin's row, its far edge");
        assert_eq!(field.ground_at(Vec2::new(f32::INFINITY, f32::NAN)), 2.0);
    }

    #[test]
    fn a_grid_is_whole_rows_of_finite_heights() {
        let ok = HeightField::new(Vec2::new(-1.0, -1.0), 1.0, 3, vec![0.0; 6]).expect("a 3 x 2 grid");
        assert_eq!((ok.columns(), ok.rows(), ok.spacing(), ok.origin()), (3, 2, 1.0, Vec2::new(-1.0, -1.0)));
        for (columns, len) in [(3, 7), (1, 4), (4, 4), (0, 0)] {
            let refused = HeightField::new(Vec2::ZERO, 1.0, columns, vec![0.0; len]);
            assert_eq!(refused, Err(HeightFieldError::Shape { len, columns }));
        }
        for (spacing, height) in [(0.0, 0.0), (-1.0, 0.0), (f32::NAN, 0.0), (1.0, f32::INFINITY)] {
            let refused = HeightField::new(Vec2::ZERO, spacing, 2, vec![height; 4]);
            assert!(matches!(refused, Err(HeightFieldError::NotFinite { .. })), "{spacing} {height}");
        }
    }

    /// Heights between samples are bilinear: exact on a plane, the samples' own on them, none
    /// outside.
    #[test]
    fn heights_between_samples_are_bilinear() {
        let plane = |p: Vec2| 2.0 + 0.5 * p.x - 0.25 * p.y;
        let origin = Vec2::new(-3.0, 1.0);
        let heights = (0..4).flat_map(|j| (0..5).map(move |i| plane(origin + 2.0 * Vec2::new(i as f32, j as f32))));
        let field = HeightField::new(origin, 2.0, 5, heights.collect()).expect("a 5 x 4 grid");
        for p in [origin, Vec2::new(0.3, 2.7), Vec2::new(5.0, 7.0), Vec2::new(-3.0, 7.0), Vec2::new(4.99, 1.0)] {
            let h = field.height_at(p).expect("inside");
            assert!((h - plane(p)).abs() < 1e-5, "{p}: {h} against {}", plane(p));
        }
        for p in [Vec2::new(-3.01, 2.0), Vec2::new(5.01, 2.0), Vec2::new(0.0, 7.01), Vec2::new(0.0, 0.99)] {
            assert_eq!(field.height_at(p), None, "{p}");
        }
    }
}
