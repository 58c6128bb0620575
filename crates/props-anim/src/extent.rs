//! The box a model's vertices fill over its rest pose and its clips, sampled: what a
//! thumbnail or a preview frames (the culling bound is [`crate::bounds::PoseBounds`], conservative).

use glam::Vec3;

use crate::{JointMatrix, Model, skinning};

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    /// The lowest corner.
    pub min: Vec3,
    /// The highest corner.
    pub max: Vec3,
}

impl Extent {
    /// The smallest box holding `points`; `None` when there are none or one is not finite.
    pub fn of_points(points: impl IntoIterator<Item = Vec3>) -> Option<Self> {
        let mut extent: Option<Self> = None;
        for point in points {
            if !point.is_finite() {
                return None;
            }
            let (min, max) = extent.map_or((point, point), |e| (e.min.min(point), e.max.max(point)));
            extent = Some(Self { min, max });
        }
        extent
    }

    /// The smallest box holding both.
    #[must_use]
    pub fn union(&self, other: &Self) -> Self {
        Self { min: self.min.min(other.min), max: self.max.max(other.max) }
    }

    /// The centre.
    #[must_use]
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// Half the diagonal: the radius of the sphere around [`Extent::center`] holding the box.
    #[must_use]
    pub fn radius(&self) -> f32 {
        (self.max - self.min).length() * 0.5
    }
}

impl Model {
    /// The box holding every vertex in the rest pose and in every clip at `samples` evenly
    /// spaced times (both ends; at least 2), skins and morph weights applied; `None` for a
    /// model without vertices.
    #[must_use]
    pub fn sampled_extent(&self, samples: usize) -> Option<Extent> {
        let mut palette = vec![JointMatrix::IDENTITY; self.palette_len()];
        let mut positions = Vec::new();
        let mut extent_at = |clip: Option<usize>, time: f32| {
            self.write_palettes(&self.pose_at(clip, time), &mut palette);
            skinning::model_positions(self, &palette, &mut positions);
            Extent::of_points(positions.iter().copied())
        };
        let mut extent = extent_at(None, 0.0)?;
        let steps = samples.max(2) - 1;
        for (c, clip) in self.clips().iter().enumerate() {
            for step in 0..=steps {
                let time = clip.duration() * step as f32 / steps as f32;
                extent = extent_at(Some(c), time).map_or(extent, |e| extent.union(&e));
            }
        }
        Some(extent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_holds_its_points() {
        let extent = Extent::of_points([Vec3::new(1.0, -2.0, 0.5), Vec3::new(-1.0, 4.0, 0.5)]).expect("points");
        assert_eq!((extent.min, extent.max), (Vec3::new(-1.0, -2.0, 0.5), Vec3::new(1.0, 4.0, 0.5)));
        assert_eq!(extent.center(), Vec3::new(0.0, 1.0, 0.5));
        assert!((extent.radius() - 40f32.sqrt() / 2.0).abs() < 1e-6);
        assert_eq!(Extent::of_points([]), None);
        assert_eq!(Extent::of_points([Vec3::new(f32::NAN, 0.0, 0.0)]), None);
    }
}
