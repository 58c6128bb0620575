//! Batches of four lanes, how a [`crate::crowd::Crowd`] evaluates a frame: its states grouped by
//! clip signature into batches of four (the last of each padded), evaluated into the palette
//! buffer in runs of whole batches, on the calling thread or one run per worker.

use rayon::prelude::*;

use crate::JointMatrix;
use crate::program::{LaneState, Program, Scratch, signature_code};
use crate::state::Layer;
use crate::workers::Workers;

/// Fewer batches than this are evaluated on the calling thread: handing them to workers
/// costs more than it saves (a few microseconds to wake them).
const MIN_PARALLEL_BATCHES: usize = 64;

/// Up to four states evaluated together: indices into the crowd's states (or distinct keys'),
/// and how many lanes are real (the others repeat the first).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Batch {
    pub(crate) states: [u32; 4],
    pub(crate) filled: u8,
}

/// How the states of one frame are laid out for evaluation.
pub(crate) struct States<'a> {
    pub(crate) layers: &'a [Layer],
    pub(crate) drivers: &'a [f32],
    pub(crate) layers_per: usize,
    pub(crate) drivers_per: usize,
}

impl States<'_> {
    fn lane(&self, state: u32, palette: usize) -> LaneState<'_> {
        let s = state as usize;
        LaneState {
            layers: &self.layers[s * self.layers_per..(s + 1) * self.layers_per],
            drivers: &self.drivers[s * self.drivers_per..(s + 1) * self.drivers_per],
            palette,
        }
    }
}

/// Groups `states` (indices into `layers`, `layers_per` layers each) into batches of four
/// of one signature, in order, the last batch of each signature padded by repeating its
/// first state; `open` is scratch. Returns whether all were of one signature (then the `j`-th
/// state is lane `j % 4` of batch `j / 4`).
pub(crate) fn form_batches(
    states: &[u32],
    layers: &[Layer],
    layers_per: usize,
    open: &mut Vec<(u64, Batch)>,
    batches: &mut Vec<Batch>,
) -> bool {
    let code = |state: u32| {
        let s = state as usize;
        signature_code(&layers[s * layers_per..(s + 1) * layers_per])
    };
    let first = states.first().map(|&s| code(s));
    if states.iter().all(|&s| Some(code(s)) == first) {
        // One signature (the usual case): consecutive states.
        batches.extend(states.chunks(4).map(|chunk| Batch {
            states: std::array::from_fn(|k| chunk.get(k).copied().unwrap_or(chunk[0])),
            filled: chunk.len() as u8,
        }));
        return true;
    }
    open.clear();
    for &state in states {
        let code = code(state);
        let at = match open.iter().position(|(c, _)| *c == code) {
            Some(at) => at,
            None => {
                open.push((code, Batch { states: [state; 4], filled: 0 }));
                open.len() - 1
            }
        };
        let batch = &mut open[at].1;
        batch.states[usize::from(batch.filled)] = state;
        batch.filled += 1;
        if batch.filled == 4 {
            batches.push(open.swap_remove(at).1);
        }
    }
    for (_, mut batch) in open.drain(..) {
        for k in usize::from(batch.filled)..4 {
            batch.states[k] = batch.states[0];
        }
        batches.push(batch);
    }
    false
}

/// Evaluates `batches` into `out` (four palettes per batch, lane `k` of batch `b` at
/// `(4 b + k) * palette_len`), in runs of whole batches over `scratches` (one per run).
pub(crate) fn evaluate(
    program: &Program,
    states: &States<'_>,
    batches: &[Batch],
    scratches: &mut [Scratch],
    workers: Option<&Workers>,
    out: &mut [JointMatrix],
) {
    let p = program.palette_len();
    let run = |batches: &[Batch], scratch: &mut Scratch, out: &mut [JointMatrix]| {
        for (b, batch) in batches.iter().enumerate() {
            let lanes = std::array::from_fn(|k| states.lane(batch.states[k], (4 * b + k) * p));
            program.write_palettes4(lanes, scratch, out);
        }
    };
    match workers {
        Some(workers) if scratches.len() > 1 && batches.len() >= MIN_PARALLEL_BATCHES => {
            let per_run = batches.len().div_ceil(scratches.len()).max(1);
            workers.install(|| {
                out.par_chunks_mut(per_run * 4 * p.max(1))
                    .zip(batches.par_chunks(per_run))
                    .zip(scratches.par_iter_mut())
                    .for_each(|((out, batches), scratch)| run(batches, scratch, out));
            });
        }
        _ => {
            if let Some(scratch) = scratches.first_mut() {
                run(batches, scratch, out);
            }
        }
    }
}
