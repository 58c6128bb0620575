//! Pose evaluation (sample + hierarchy + palette) per frame for crowds of instances: the pose
//! path, the fast path (one thread and all cores) and the naive baseline in the same run. Throughput is in joints, so
//! criterion's "time per element" is the time per joint per frame.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use props_anim::{Layer, Model, runtime::PaletteBuffer, runtime::Program, runtime::Sharing, runtime::Workers};
use props_bench::naive;
use props_bench::table::wrap_times;
use props_bench::workload::{self, ClipCrowd};

/// One frame's step, 60 Hz.
const DT: f32 = 1.0 / 60.0;

fn bench_model(c: &mut Criterion, name: &str, model: &Model, clip: usize, instances: usize) {
    let mut group = c.benchmark_group(format!("pose/{name}x{instances}"));
    let mut crowd = ClipCrowd::new(model, clip, instances);
    group.throughput(Throughput::Elements(crowd.joints() as u64));
    let mut time = 0.0;
    group.bench_function(BenchmarkId::from_parameter("project"), |b| {
        b.iter(|| {
            time += DT;
            crowd.evaluate(time);
        });
    });
    // The runtime: compiled model, palettes written in place, on one thread and on workers.
    let program = Program::for_clip(model, clip);
    let duration = program.duration(0);
    let mut times = vec![0.0; instances];
    let workers = Workers::new(0).expect("worker threads start");
    let mut fast = props_anim::runtime::Crowd::new(&program, 1, Sharing::None, 1.0, workers.threads() * 4);
    for _ in 0..instances {
        fast.push(glam::Vec3::ZERO);
    }
    let mut out = PaletteBuffer::default();
    let mut frame = |fast: &mut props_anim::runtime::Crowd, time: f32, times: &mut [f32], workers: Option<&Workers>| {
        wrap_times(&crowd.phases, time, duration, times);
        for (i, &t) in times.iter().enumerate() {
            fast.layers_mut(i)[0] = Layer::once(0, t);
        }
        out.clear();
        fast.update(&program, None, 0, workers, &mut out);
    };
    let mut time = 0.0;
    group.bench_function(BenchmarkId::from_parameter("fast"), |b| {
        b.iter(|| {
            time += DT;
            frame(&mut fast, time, &mut times, None);
        });
    });
    // The frame loop inside the pool, as a game's simulation thread would run it.
    group.bench_function(BenchmarkId::from_parameter(format!("fast-{}-threads", workers.threads())), |b| {
        workers.install(|| {
            b.iter(|| {
                time += DT;
                frame(&mut fast, time, &mut times, Some(&workers));
            });
        });
    });
    let clip_ref = &model.clips()[clip];
    let mut palettes = crowd.palettes.clone();
    let mut time = 0.0;
    group.bench_function(BenchmarkId::from_parameter("naive"), |b| {
        b.iter(|| {
            time += DT;
            for (phase, out) in crowd.phases.iter().zip(palettes.chunks_exact_mut(model.palette_len())) {
                naive::evaluate(model, clip_ref, time + phase, out);
            }
        });
    });
    group.finish();
}

fn pose(c: &mut Criterion) {
    let fox = workload::fox();
    let walk = fox.find_clip("Walk").expect("Fox has a Walk clip");
    bench_model(c, "fox", &fox, walk, 1000);
    let synthetic = workload::synthetic(250);
    bench_model(c, "synthetic250", &synthetic, 0, 100);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = pose
}
criterion_main!(benches);
