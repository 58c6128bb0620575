//! Zero allocations per frame on the fast path, proven with a counting global allocator: after
//! warm-up, frames of every kind (one thread, worker threads, update-rate LOD, shared poses)
//! never raise the heap's peak above where it stood (the frame loop runs on a pool thread:
//! see `Workers::install` for the allocation of calls from outside the pool). Its own test binary (one test), so that
//! nothing else allocates meanwhile.

use peak_alloc::PeakAlloc;
use props_anim::{ClipProgram, Crowd, Due, JointMatrix, PlayMode, SharedPalettes, Sharing, Workers};
use props_bench::workload;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

#[test]
fn frames_allocate_nothing() {
    for (model, clip) in [(workload::fox(), 1), (workload::synthetic(250), 0), (workload::windmill(), 0)] {
        let program = ClipProgram::new(&model, clip);
        let n = 200;
        let phases = workload::phases(n, program.duration(), 1);
        let mut times = vec![0.0; n];
        let mut out = vec![JointMatrix::IDENTITY; n * program.palette_len()];
        let workers = Workers::new(2).expect("workers start");
        let pool = &workers;
        let mut crowd = Crowd::new(&program, n, 8);
        let rates: Vec<u8> = (0..n).map(|i| [1, 2, 4][i % 3]).collect();
        let mut shared = SharedPalettes::new(Sharing::Quantized { step: 1.0 / 30.0 });
        let mut scratch = program.scratch();
        let mut palettes = Vec::new();
        let mut frame = |f: u64| {
            let time = f as f32 / 60.0;
            for (t, p) in times.iter_mut().zip(&phases) {
                *t = PlayMode::Loop.wrap(time + p, program.duration());
            }
            crowd.update(&program, &times, &mut out, Due::All);
            crowd.par_update(&program, &workers, &times, &mut out, Due::All);
            crowd.par_update(&program, &workers, &times, &mut out, Due::Rates { rates: &rates, frame: f });
            shared.clear();
            palettes.clear();
            for &t in &times {
                std::hint::black_box(shared.palette_base(&program, t, &mut scratch, &mut palettes));
            }
        };
        // The game's frame loop runs on a pool thread (see `Workers::install`), so parallel
        // work is queued locally, never through the pool's allocating injector.
        pool.install(|| {
            // Warm-up: buffers and the shared table grow to their steady size.
            for f in 0..200 {
                frame(f);
            }
            let before = HEAP.current_usage();
            HEAP.reset_peak_usage();
            for f in 200..400 {
                frame(f);
            }
            assert_eq!(HEAP.peak_usage(), before, "a frame allocated");
            assert_eq!(HEAP.current_usage(), before);
        });
    }
}
