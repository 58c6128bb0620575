//! Pose sharing for props whose pose is a pure function of (clip, time), such as windmills
//! playing `spin` or traffic lights holding a phase: instances at the same clip time share
//! one palette, evaluated once per frame; each instance carries only the palette's offset
//! (`props_frame::FrameData::push_shared_instance`).
//!
//! [`Sharing::Exact`] shares only bitwise-equal times (a traffic light's phases: one palette
//! per phase however many lights). [`Sharing::Quantized`] rounds every time to a multiple of
//! `step`, so at most `duration / step + 1` distinct poses are evaluated per frame whatever the
//! instance count, at the price of a time error of at most `step / 2` (for a rotation at
//! angular speed `w`, an angle error of at most `w step / 2`; measured by
//! `cargo xtask bench`).

use crate::palette::JointMatrix;
use crate::program::{ClipProgram, Scratch};

/// Which clip times share a palette.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sharing {
    /// Only equal times (no approximation).
    Exact,
    /// Times rounded to the nearest multiple of `step` seconds (and clamped to the clip).
    Quantized {
        /// The quantization step, seconds (positive).
        step: f32,
    },
}

const EMPTY: u32 = u32::MAX;

fn hash(key: u32) -> usize {
    ((u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> 32) as usize
}

/// The palettes shared this frame, by time key (see the module documentation). Reuse it
/// frame after frame: once its table has grown, nothing is allocated.
#[derive(Clone, Debug)]
pub struct SharedPalettes {
    sharing: Sharing,
    /// Open addressing: `(key, palette base)`, base [`EMPTY`] for a free slot.
    table: Vec<(u32, u32)>,
    /// Occupied slots, to clear them quickly.
    used: Vec<u32>,
    /// Key cursors for evaluating (any start gives the same result).
    cursors: Vec<u32>,
}

impl SharedPalettes {
    /// An empty set of shared palettes.
    #[must_use]
    pub fn new(sharing: Sharing) -> Self {
        Self { sharing, table: vec![(0, EMPTY); 64], used: Vec::new(), cursors: Vec::new() }
    }

    /// The sharing mode.
    #[must_use]
    pub fn sharing(&self) -> Sharing {
        self.sharing
    }

    /// Forgets this frame's palettes (call when the palette buffer is cleared).
    pub fn clear(&mut self) {
        for &slot in &self.used {
            self.table[slot as usize].1 = EMPTY;
        }
        self.used.clear();
    }

    /// Distinct poses evaluated since the last [`SharedPalettes::clear`].
    #[must_use]
    pub fn evaluations(&self) -> usize {
        self.used.len()
    }

    /// The clip time an instance at `time` is drawn at, and its key.
    #[must_use]
    pub fn quantize(&self, time: f32, duration: f32) -> (f32, u32) {
        match self.sharing {
            Sharing::Exact => (time, time.to_bits()),
            Sharing::Quantized { step } => {
                let k = (time / step).round().max(0.0) as u32;
                ((k as f32 * step).min(duration), k)
            }
        }
    }

    /// The base (index in `palettes`) of the palette for clip time `time`: evaluated with
    /// `program` and appended to `palettes` the first time its key is seen this frame.
    pub fn palette_base(
        &mut self,
        program: &ClipProgram,
        time: f32,
        scratch: &mut Scratch,
        palettes: &mut Vec<JointMatrix>,
    ) -> u32 {
        let (time, key) = self.quantize(time, program.duration());
        let mask = self.table.len() - 1;
        let mut slot = hash(key) & mask;
        loop {
            let (k, base) = self.table[slot];
            if base == EMPTY {
                break;
            }
            if k == key {
                return base;
            }
            slot = (slot + 1) & mask;
        }
        let base = palettes.len();
        palettes.resize(base + program.palette_len(), JointMatrix::IDENTITY);
        self.cursors.resize(program.cursor_len(), 0);
        program.write_palette(time, &mut self.cursors, scratch, &mut palettes[base..]);
        self.table[slot] = (key, base as u32);
        self.used.push(slot as u32);
        if self.used.len() * 2 > self.table.len() {
            self.grow();
        }
        base as u32
    }

    fn grow(&mut self) {
        let old: Vec<(u32, u32)> = self.used.iter().map(|&s| self.table[s as usize]).collect();
        self.table = vec![(0, EMPTY); self.table.len() * 2];
        self.used.clear();
        let mask = self.table.len() - 1;
        for (key, base) in old {
            let mut slot = hash(key) & mask;
            while self.table[slot].1 != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.table[slot] = (key, base);
            self.used.push(slot as u32);
        }
    }
}
