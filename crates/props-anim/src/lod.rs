//! Update-rate LOD (like Unreal's update-rate optimization): far or off-screen instances are
//! re-evaluated only every few frames and keep their last palette in between. Instances are
//! staggered by index, so an equal share of each rate is due every frame and the cost stays
//! even from frame to frame. Pure: the caller says how far and whether visible.

/// How often instances update, by distance and visibility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpdateRateLod {
    /// Up to this distance (world units), every frame.
    pub near: f32,
    /// Up to this distance, every `mid_rate` frames; beyond, every `far_rate` frames.
    pub far: f32,
    /// Frames between updates between `near` and `far`.
    pub mid_rate: u8,
    /// Frames between updates beyond `far`.
    pub far_rate: u8,
    /// Frames between updates of instances not in view.
    pub hidden_rate: u8,
}

impl Default for UpdateRateLod {
    /// Every frame within 50 m, every 2nd to 150 m, every 4th beyond, every 8th off-screen.
    fn default() -> Self {
        Self { near: 50.0, far: 150.0, mid_rate: 2, far_rate: 4, hidden_rate: 8 }
    }
}

impl UpdateRateLod {
    /// Every instance every frame (LOD off).
    pub const OFF: Self = Self { near: f32::INFINITY, far: f32::INFINITY, mid_rate: 1, far_rate: 1, hidden_rate: 1 };

    /// Frames between updates of an instance `distance` away, in view or not.
    #[must_use]
    pub fn rate(&self, distance: f32, visible: bool) -> u8 {
        let rate = if !visible {
            self.hidden_rate
        } else if distance <= self.near {
            1
        } else if distance <= self.far {
            self.mid_rate
        } else {
            self.far_rate
        };
        rate.max(1)
    }
}

/// Whether instance `index` updating every `rate` frames is due in frame `frame`.
#[must_use]
pub fn is_due(frame: u64, index: usize, rate: u8) -> bool {
    rate <= 1 || frame.wrapping_add(index as u64).is_multiple_of(u64::from(rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_follow_distance_and_visibility() {
        let lod = UpdateRateLod::default();
        assert_eq!(lod.rate(10.0, true), 1);
        assert_eq!(lod.rate(100.0, true), 2);
        assert_eq!(lod.rate(1000.0, true), 4);
        assert_eq!(lod.rate(10.0, false), 8);
        assert_eq!(UpdateRateLod::OFF.rate(1e9, false), 1);
    }

    #[test]
    fn every_instance_is_due_once_per_period_and_the_load_is_even() {
        for rate in 1..=8u8 {
            for frame in 0..16u64 {
                let due = (0..64).filter(|&i| is_due(frame, i, rate)).count();
                let share = 64 / usize::from(rate);
                assert!(due == share || due == share + 1, "rate {rate} frame {frame}: {due} due");
            }
            for index in 0..10 {
                assert_eq!((0..u64::from(rate)).filter(|&f| is_due(f, index, rate)).count(), 1);
            }
        }
    }
}
