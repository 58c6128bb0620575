//! Zero allocations per frame on the fast path, proven with a counting global allocator: after
//! warm-up, frames on one thread (every instance, update-rate LOD, shared poses) never raise
//! the heap's peak above where it stood. On worker threads the crowd allocates nothing
//! either, but rayon's work queues may swap a small block now and then: bounded, freed at
//! once, never growing (see `Workers::install`). Its own test binary (one test), so that
//! nothing else allocates meanwhile; the single-thread checks run before any worker thread
//! exists, since the allocator counts every thread.

use peak_alloc::PeakAlloc;
use props_anim::{ClipProgram, Crowd, Due, JointMatrix, Model, PlayMode, SharedPalettes, Sharing, Workers};
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

fn set_times(program: &ClipProgram, phases: &[f32], f: u64, times: &mut [f32]) {
    for (t, p) in times.iter_mut().zip(phases) {
        *t = PlayMode::Loop.wrap(f as f32 / 60.0 + p, program.duration());
    }
}

fn one_thread(model: &Model, clip: usize) {
    let program = ClipProgram::new(model, clip);
    let phases = workload::phases(N, program.duration(), 1);
    let mut times = vec![0.0; N];
    let mut out = vec![JointMatrix::IDENTITY; N * program.palette_len()];
    let mut crowd = Crowd::new(&program, N, 1);
    let rates: Vec<u8> = (0..N).map(|i| [1, 2, 4][i % 3]).collect();
    let mut shared = SharedPalettes::new(Sharing::Quantized { step: 1.0 / 30.0 });
    let mut scratch = program.scratch();
    let mut palettes = Vec::new();
    check(
        "one thread",
        |f| {
            set_times(&program, &phases, f, &mut times);
            crowd.update(&program, &times, &mut out, Due::All);
            crowd.update(&program, &times, &mut out, Due::Rates { rates: &rates, frame: f });
            shared.clear();
            palettes.clear();
            for &t in &times {
                std::hint::black_box(shared.palette_base(&program, t, &mut scratch, &mut palettes));
            }
        },
        0,
    );
}

fn workers(model: &Model, clip: usize, pool: &Workers) {
    let program = ClipProgram::new(model, clip);
    let phases = workload::phases(N, program.duration(), 1);
    let mut times = vec![0.0; N];
    let mut out = vec![JointMatrix::IDENTITY; N * program.palette_len()];
    let mut crowd = Crowd::new(&program, N, 8);
    let rates: Vec<u8> = (0..N).map(|i| [1, 2, 4][i % 3]).collect();
    // The frame loop runs on a pool thread (see `Workers::install`).
    pool.install(|| {
        check(
            "workers",
            |f| {
                set_times(&program, &phases, f, &mut times);
                crowd.par_update(&program, pool, &times, &mut out, Due::All);
                crowd.par_update(&program, pool, &times, &mut out, Due::Rates { rates: &rates, frame: f });
            },
            4096,
        );
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
