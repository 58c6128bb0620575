//! [`Crowd`]: many instances of one [`ClipProgram`], evaluated into one palette buffer (the
//! one uploaded), on the calling thread or on [`Workers`], optionally with update-rate LOD.
//!
//! Per instance the crowd keeps only its key cursors (none when the clip's keys are evenly
//! spaced); the caller owns the clip times (from a [`crate::Playback`] each, say) and the
//! palette buffer. No allocation per frame.

use rayon::prelude::*;

use crate::lod::is_due;
use crate::palette::JointMatrix;
use crate::program::{ClipProgram, Scratch};
use crate::workers::Workers;

/// Which instances to evaluate this frame: every one, or those due under update-rate LOD.
#[derive(Clone, Copy, Debug)]
pub enum Due<'a> {
    /// Every instance.
    All,
    /// Instance `i` updates every `rates[i]` frames (see [`crate::is_due`]); this is frame
    /// `frame`. Instances not due keep the palette already in the buffer.
    Rates {
        /// Frames between updates, per instance.
        rates: &'a [u8],
        /// The frame number.
        frame: u64,
    },
}

/// Key cursors and per-thread scratch for `len` instances of one program.
#[derive(Clone, Debug)]
pub struct Crowd {
    len: usize,
    cursor_len: usize,
    palette_len: usize,
    cursors: Vec<u32>,
    scratches: Vec<Scratch>,
}

/// Evaluates a contiguous run of instances starting at `first`, four at a time
/// ([`ClipProgram::write_palettes4`]) and the last few one by one; returns how many were due.
fn run(
    program: &ClipProgram,
    first: usize,
    times: &[f32],
    cursors: &mut [u32],
    scratch: &mut Scratch,
    out: &mut [JointMatrix],
    due: Due<'_>,
) -> usize {
    let (palette_len, cursor_len) = (program.palette_len(), program.cursor_len());
    let (mut batch, mut filled, mut evaluated) = ([0; 4], 0, 0);
    for i in 0..times.len() {
        if let Due::Rates { rates, frame } = due
            && !is_due(frame, first + i, rates[first + i])
        {
            continue;
        }
        batch[filled] = i;
        filled += 1;
        evaluated += 1;
        if filled == 4 {
            let lane_times = [times[batch[0]], times[batch[1]], times[batch[2]], times[batch[3]]];
            program.write_palettes4(lane_times, batch, cursors, scratch, out);
            filled = 0;
        }
    }
    for &i in &batch[..filled] {
        let cursors = &mut cursors[i * cursor_len..(i + 1) * cursor_len];
        program.write_palette(times[i], cursors, scratch, &mut out[i * palette_len..(i + 1) * palette_len]);
    }
    evaluated
}

impl Crowd {
    /// State for `len` instances of `program`, with scratch for `chunks` runs evaluated in
    /// parallel (a few per worker thread balances the load; 1 for one thread).
    #[must_use]
    pub fn new(program: &ClipProgram, len: usize, chunks: usize) -> Self {
        Self {
            len,
            cursor_len: program.cursor_len(),
            palette_len: program.palette_len(),
            cursors: vec![0; len * program.cursor_len()],
            scratches: (0..chunks.max(1)).map(|_| program.scratch()).collect(),
        }
    }

    /// Instances.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for no instances.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of state kept per instance (its key cursors).
    #[must_use]
    pub fn bytes_per_instance(&self) -> usize {
        self.cursor_len * size_of::<u32>()
    }

    fn check(&self, program: &ClipProgram, times: &[f32], out: &[JointMatrix]) {
        assert!(
            program.palette_len() == self.palette_len && program.cursor_len() == self.cursor_len,
            "crowd made for another program"
        );
        assert_eq!(times.len(), self.len, "one clip time per instance");
        assert_eq!(out.len(), self.len * self.palette_len, "one palette per instance");
    }

    /// Writes every due instance's palette on this thread: instance `i` at clip time
    /// `times[i]` into `out[i * palette_len..]`. Returns the instances evaluated.
    ///
    /// # Panics
    /// If the lengths do not match the crowd and the program it was made for.
    pub fn update(&mut self, program: &ClipProgram, times: &[f32], out: &mut [JointMatrix], due: Due<'_>) -> usize {
        self.check(program, times, out);
        run(program, 0, times, &mut self.cursors, &mut self.scratches[0], out, due)
    }

    /// Like [`Crowd::update`], split into contiguous runs over `workers`' threads. Bitwise
    /// the same palettes as [`Crowd::update`].
    ///
    /// # Panics
    /// If the lengths do not match the crowd and the program it was made for.
    pub fn par_update(
        &mut self,
        program: &ClipProgram,
        workers: &Workers,
        times: &[f32],
        out: &mut [JointMatrix],
        due: Due<'_>,
    ) -> usize {
        self.check(program, times, out);
        if self.len == 0 {
            return 0;
        }
        // Runs of whole batches of four: only the last run evaluates instances one by one.
        let chunk = self.len.div_ceil(self.scratches.len()).next_multiple_of(4);
        let (palette_len, cursor_len) = (self.palette_len, self.cursor_len);
        let scratches = &mut self.scratches;
        let cursors = &mut self.cursors;
        workers.install(|| {
            let runs =
                out.par_chunks_mut(chunk * palette_len).zip(times.par_chunks(chunk)).zip(scratches.par_iter_mut());
            if cursor_len == 0 {
                runs.enumerate()
                    .map(|(k, ((out, times), scratch))| run(program, k * chunk, times, &mut [], scratch, out, due))
                    .sum()
            } else {
                runs.zip(cursors.par_chunks_mut(chunk * cursor_len))
                    .enumerate()
                    .map(|(k, (((out, times), scratch), cursors))| {
                        run(program, k * chunk, times, cursors, scratch, out, due)
                    })
                    .sum()
            }
        })
    }
}
