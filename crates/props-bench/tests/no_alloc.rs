//! Zero allocations per frame on the fast path, proven with a counting global allocator: after
//! warm-up, frames on one thread (every instance, update-rate LOD, shared poses) never raise
//! the heap's peak above where it stood. On worker threads the crowd allocates nothing
//! either, but rayon's work queues may swap a small block now and then: bounded, freed at
//! once, never growing (see `Workers::install`). Its own test binary (one test), so that
//! nothing else allocates meanwhile; the single-thread checks run before any worker thread
//! exists, since the allocator counts every thread.

use glam::Vec3;
use peak_alloc::PeakAlloc;
use props_anim::clip::PlayMode;
use props_anim::{
    Layer, Model,
    runtime::Crowd,
    runtime::PaletteBuffer,
    runtime::Program,
    runtime::Workers,
    runtime::{Quantization, Sharing},
    runtime::{UpdateRateLod, View},
};
use props_bench::workload;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

const N: usize = 64;

/// Runs 120 warm-up frames (every quantized time seen), then asserts on the heap over 120 more.
fn check(label: &str, mut frame: impl FnMut(u64), transient: usize) {
    for f in 0..120 {
        frame(f);
    }
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    for f in 120..240 {
        frame(f);
    }
    let peak = HEAP.peak_usage() - before;
    assert!(peak <= transient, "{label}: frames allocated {peak} bytes");
    assert_eq!(HEAP.current_usage(), before, "{label}: memory grew");
}

/// Crowds of every kind (unshared, unshared with LOD and culling, shared) over a line of
/// instances in front of a camera.
fn crowds(program: &Program, runs: usize) -> Vec<(Crowd, Option<View>)> {
    let projection = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 1000.0);
    let look = glam::camera::rh::view::look_at_mat4(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
    let view = View::new(Vec3::ZERO, projection * look, UpdateRateLod::default(), 1);
    let kinds = [
        (Sharing::None, None),
        (Sharing::None, Some(view)),
        (Sharing::Quantized(Quantization { time: 1.0 / 30.0, ..Quantization::default() }), Some(view)),
    ];
    kinds
        .into_iter()
        .map(|(sharing, view)| {
            let mut crowd = Crowd::new(program, 1, sharing, 1.0, runs);
            for i in 0..N {
                crowd.push(Vec3::new(0.0, 0.0, 10.0 - 5.0 * i as f32));
            }
            (crowd, view)
        })
        .collect()
}

fn frame(
    program: &Program,
    phases: &[f32],
    crowds: &mut [(Crowd, Option<View>)],
    workers: Option<&Workers>,
    f: u64,
    palettes: &mut PaletteBuffer,
) {
    palettes.clear();
    for (crowd, view) in crowds {
        for (i, phase) in phases.iter().enumerate() {
            crowd.layers_mut(i)[0] = Layer::once(0, PlayMode::Loop.wrap(f as f32 / 60.0 + phase, program.duration(0)));
        }
        crowd.update(program, view.as_ref(), f, workers, palettes);
    }
}

fn one_thread(model: &Model, clip: usize) {
    let program = Program::for_clip(model, clip);
    let phases = workload::phases(N, program.duration(0), 1);
    let mut crowds = crowds(&program, 1);
    let mut palettes = PaletteBuffer::default();
    check("one thread", |f| frame(&program, &phases, &mut crowds, None, f, &mut palettes), 0);
}

fn workers(model: &Model, clip: usize, pool: &Workers) {
    let program = Program::for_clip(model, clip);
    let phases = workload::phases(N, program.duration(0), 1);
    let mut crowds = crowds(&program, 8);
    let mut palettes = PaletteBuffer::default();
    // The frame loop runs on a pool thread (see `Workers::install`).
    pool.install(|| {
        check("workers", |f| frame(&program, &phases, &mut crowds, Some(pool), f, &mut palettes), 4096);
    });
}

#[test]
fn frames_allocate_nothing() {
    let models = [(workload::fox(), 1), (workload::synthetic(250), 0), (workload::windmill(), 0)];
    for (model, clip) in &models {
        one_thread(model, *clip);
    }
    let pool = Workers::new(2).expect("workers start");
    for (model, clip) in &models {
        workers(model, *clip, &pool);
    }
}
