//! Pose evaluation (sample + hierarchy + palette) per frame for crowds of instances, the
//! project's path beside the naive baseline in the same run. Throughput is in joints, so
//! criterion's "time per element" is the time per joint per frame.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use props_anim::Model;
use props_bench::naive;
use props_bench::workload::{self, Crowd};

/// One frame's step, 60 Hz.
const DT: f32 = 1.0 / 60.0;

fn bench_model(c: &mut Criterion, name: &str, model: &Model, clip: usize, instances: usize) {
    let mut group = c.benchmark_group(format!("pose/{name}x{instances}"));
    let mut crowd = Crowd::new(model, clip, instances);
    group.throughput(Throughput::Elements(crowd.joints() as u64));
    let mut time = 0.0;
    group.bench_function(BenchmarkId::from_parameter("project"), |b| {
        b.iter(|| {
            time += DT;
            crowd.evaluate(time);
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
