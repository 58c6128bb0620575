//! Splitting a frame's palette into windows no larger than one binding may be.
//!
//! Most frames fit one window. When the palettes of a frame exceed the adapter's largest
//! storage binding, instances are drawn in runs, each run binding the window of the palette
//! buffer that holds its instances' matrices.

use std::ops::Range;

use props_frame::InstanceData;

/// Window starts are multiples of this many matrices: 16 x 48 bytes = 768 bytes, a multiple
/// of every storage-buffer offset alignment wgpu allows (at most 256).
pub const WINDOW_ALIGNMENT: u32 = 16;

/// A run of consecutive instances whose palettes all lie in one window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// First matrix of the window (a multiple of [`WINDOW_ALIGNMENT`]).
    pub window_start: u32,
    /// The instances, a range of the frame's instance list.
    pub instances: Range<u32>,
    /// The level of detail they are drawn at (their batch's).
    pub level: u8,
    /// The material variant they are drawn in (their batch's).
    pub material_variant: Option<u8>,
    /// Their placements mirror them (their batch's).
    pub mirrored: bool,
}

/// How windows may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Windows {
    /// Anywhere, at multiples of [`WINDOW_ALIGNMENT`] (a storage buffer bound at an offset).
    Sliding,
    /// One window starting at matrix 0 (a palette texture, addressed absolutely).
    Fixed,
}

/// Splits `instances` (indices `range` of the frame's instance list) into runs whose palettes
/// (`palette_len` matrices from each instance's base) fit in windows of `capacity` matrices.
/// Instances whose palette cannot fit any window are skipped and counted in the return value.
pub fn split(
    instances: &[InstanceData],
    range: Range<u32>,
    palette_len: u32,
    (capacity, windows): (u32, Windows),
    runs: &mut Vec<Run>,
) -> u32 {
    let mut skipped = 0;
    let mut current: Option<Run> = None;
    for index in range {
        let base = instances[index as usize].palette_base;
        let end = u64::from(base) + u64::from(palette_len);
        let fits = |start: u32| base >= start && end <= u64::from(start) + u64::from(capacity);
        match &mut current {
            Some(run) if fits(run.window_start) && run.instances.end == index => run.instances.end = index + 1,
            _ => {
                let start = match windows {
                    Windows::Sliding => base - base % WINDOW_ALIGNMENT,
                    Windows::Fixed => 0,
                };
                if !fits(start) {
                    skipped += 1;
                    continue;
                }
                runs.extend(current.take());
                current = Some(Run {
                    window_start: start,
                    instances: index..index + 1,
                    level: 0,
                    material_variant: None,
                    mirrored: false,
                });
            }
        }
    }
    runs.extend(current);
    skipped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instances(bases: &[u32]) -> Vec<InstanceData> {
        bases.iter().map(|&b| InstanceData::new(&glam::Affine3A::IDENTITY, b)).collect()
    }

    #[test]
    fn everything_fits_one_window() {
        let list = instances(&[0, 25, 50, 75]);
        let mut runs = Vec::new();
        assert_eq!(split(&list, 0..4, 25, (1000, Windows::Sliding), &mut runs), 0);
        assert_eq!(
            runs,
            vec![Run { window_start: 0, instances: 0..4, level: 0, material_variant: None, mirrored: false }]
        );
    }

    #[test]
    fn large_frames_split_into_aligned_windows() {
        let list = instances(&[0, 25, 50, 75]);
        let mut runs = Vec::new();
        assert_eq!(split(&list, 0..4, 25, (60, Windows::Sliding), &mut runs), 0);
        assert_eq!(
            runs,
            vec![
                Run { window_start: 0, instances: 0..2, level: 0, material_variant: None, mirrored: false },
                Run { window_start: 48, instances: 2..4, level: 0, material_variant: None, mirrored: false }
            ]
        );
        for run in &runs {
            for i in run.instances.clone() {
                let base = list[i as usize].palette_base;
                assert!(base >= run.window_start && base + 25 <= run.window_start + 60);
            }
        }
    }

    #[test]
    fn a_fixed_window_starts_at_zero() {
        let list = instances(&[0, 25, 50, 75]);
        let mut runs = Vec::new();
        assert_eq!(split(&list, 0..4, 25, (60, Windows::Fixed), &mut runs), 2);
        assert_eq!(
            runs,
            vec![Run { window_start: 0, instances: 0..2, level: 0, material_variant: None, mirrored: false }]
        );
    }

    #[test]
    fn palettes_larger_than_a_window_are_skipped() {
        let list = instances(&[0, 100]);
        let mut runs = Vec::new();
        assert_eq!(split(&list, 0..2, 100, (64, Windows::Sliding), &mut runs), 2);
        assert!(runs.is_empty());
    }
}
