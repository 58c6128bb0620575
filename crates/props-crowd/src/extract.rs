//! Extraction: what crowds posed, as plain frame data (instances with their palettes' offsets
//! and whether their morph weights are all zero, one batch per model, level of detail and
//! material variant, the lit lights near the camera).

use glam::Vec3;
use props_anim::JointMatrix;
use props_anim::runtime::Workers;
use props_frame::{FrameData, InstanceData};

use crate::model_crowd::ModelCrowd;

/// Instances extracted in one part, at least: fewer are written on the calling thread.
const MIN_EXTRACT_PART: usize = 4096;
/// Parts per worker thread (several, so that a thread held up elsewhere is made up for).
const PARTS_PER_THREAD: usize = 2;

/// Appends the instances the last posing of `crowds` saw into `frame`, with the offsets of
/// their palettes, one batch per crowd, level of detail and material variant in order, and the
/// lit lights of those within
/// [`props_frame::LIGHT_DISTANCE`] of `eye`. With `workers`, written in parts at once.
/// Allocation-free once the frame's buffers have grown.
pub(crate) fn extract<'a, I>(
    crowds: impl Fn() -> I + Sync,
    workers: Option<&Workers>,
    eye: Option<Vec3>,
    frame: &mut FrameData,
) where
    I: Iterator<Item = &'a ModelCrowd>,
{
    let total: usize = crowds().map(ModelCrowd::visible_len).sum();
    let palettes: &[JointMatrix] = &frame.palettes;
    let out = frame.instances.grow(total);
    // The new instances from number `first` on, into `out`: every crowd's, back to back.
    let write = |first: usize, out: &mut [InstanceData]| {
        let mut at = 0;
        for crowd in crowds() {
            let len = crowd.visible_len();
            let (from, to) = (first.max(at), (first + out.len()).min(at + len));
            if from < to {
                crowd.extract_into(from - at, palettes, &mut out[from - first..to - first]);
            }
            at += len;
        }
    };
    match workers {
        Some(pool) if total >= 2 * MIN_EXTRACT_PART => {
            let part = total.div_ceil(pool.threads() * PARTS_PER_THREAD).max(MIN_EXTRACT_PART);
            pool.for_each_chunk_mut(out, part, |k, out| write(k * part, out));
        }
        _ => write(0, out),
    }
    for crowd in crowds() {
        for group in crowd.batches() {
            frame.add_batch(crowd.model_id(), group);
        }
        crowd.lights_into(&frame.palettes, eye, &mut frame.lights);
    }
}
