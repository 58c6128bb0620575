//! Finding the key segment for a time: binary search for random access, a cursor for
//! forward playback. Both return the same [`Segment`] for the same time.

/// Where a time falls among a channel's keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segment {
    /// Before the first key, at or after the last, or a single key: hold key `index`.
    Hold {
        /// Key to hold.
        index: usize,
    },
    /// Between key `index` (inclusive) and `index + 1` (exclusive), at fraction `u` in `[0, 1)`.
    Between {
        /// The key at or before the time.
        index: usize,
        /// Normalized position between the two keys.
        u: f32,
    },
}

impl Segment {
    /// Finds the segment by binary search. `times` must be non-empty and strictly increasing.
    #[must_use]
    pub fn search(times: &[f32], time: f32) -> Self {
        let index = times.partition_point(|&t| t <= time);
        Self::at(times, index.saturating_sub(1), time)
    }

    /// The segment for `time` given `index`, the last key with `times[index] <= time`
    /// (or 0 when `time` is before the first key).
    fn at(times: &[f32], index: usize, time: f32) -> Self {
        let last = times.len() - 1;
        if index >= last || time < times[0] {
            let index = if time < times[0] { 0 } else { last };
            return Self::Hold { index };
        }
        let (t0, t1) = (times[index], times[index + 1]);
        Self::Between { index, u: (time - t0) / (t1 - t0) }
    }

    /// Duration of the segment in seconds (0 when holding).
    #[must_use]
    pub fn duration(self, times: &[f32]) -> f32 {
        match self {
            Self::Hold { .. } => 0.0,
            Self::Between { index, .. } => times[index + 1] - times[index],
        }
    }
}

/// A remembered key index for forward playback of one channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyCursor {
    index: u32,
}

impl KeyCursor {
    /// Finds the segment for `time`, stepping forward from the previous position; falls back
    /// to binary search when time went backwards (a loop wrapped, a seek). Same answer as
    /// [`Segment::search`].
    pub fn seek(&mut self, times: &[f32], time: f32) -> Segment {
        let mut index = self.index as usize;
        if index >= times.len() || times[index] > time {
            index = times.partition_point(|&t| t <= time).saturating_sub(1);
        } else {
            while index + 1 < times.len() && times[index + 1] <= time {
                index += 1;
            }
        }
        self.index = index as u32;
        Segment::at(times, index, time)
    }
}
