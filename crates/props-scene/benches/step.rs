//! The real `Scene` on the synthetic models (same palette sizes as the game's windmill and
//! car): one simulation step, and one frame's posing and extraction, of the default town and
//! of the city (100k windmills, 10k cars, 10k foxes), exactly (no sharing, LOD or culling)
//! and shared (pose sharing, update-rate LOD and culling, seen from the game's first view).
//! A real benchmark run first simulates [`SETTLE`] seconds (windmills start at random
//! headings) and measures the city too; `cargo test` runs the default town once in test
//! mode, so the benchmark never rots. `cargo xtask bench scene` prints the same measurements
//! as a table, with the kernel beside them.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use props_crowd::PosingConfig;
use props_frame::{FrameData, OrbitCamera};
use props_scene::{Scene, SceneConfig, synthetic};

/// The game's fixed step.
const DT: f32 = 1.0 / 60.0;
/// Seconds simulated before measuring, so that every nacelle faces the wind.
const SETTLE: f32 = 12.0;

fn scene(c: &mut Criterion) {
    let bench = std::env::args().any(|a| a == "--bench");
    let city =
        SceneConfig::default().with_count("windmills", 100_000).with_count("cars", 10_000).with_count("foxes", 10_000);
    let workloads = [("default", SceneConfig::default()), ("city", city)];
    for (workload, config) in workloads.into_iter().take(if bench { 2 } else { 1 }) {
        let mut group = c.benchmark_group(format!("scene_{workload}"));
        for (mode, sharing) in [("exact", None), ("shared", PosingConfig::default().sharing)] {
            let config = SceneConfig { seed: 1, posing: PosingConfig { sharing, ..config.posing }, ..config.clone() };
            let mut scene = Scene::new(config, synthetic::town().expect("synthetic models build")).expect("scene");
            if sharing.is_some() {
                let camera = OrbitCamera::overview(scene.terrain().flat_radius()).to_camera(16.0 / 9.0);
                scene.set_camera(Some(camera));
            }
            for _ in 0..if bench { (SETTLE / DT) as usize } else { 0 } {
                scene.step(DT);
            }
            let mut frame = FrameData::default();
            group.throughput(Throughput::Elements(scene.instance_count() as u64));
            if sharing.is_none() {
                group.bench_function(BenchmarkId::new("step", workload), |b| b.iter(|| scene.step(DT)));
            }
            group.bench_function(BenchmarkId::new(format!("animate_extract_{mode}"), workload), |b| {
                b.iter(|| {
                    frame.clear();
                    scene.animate(&mut frame);
                    scene.extract(&mut frame);
                });
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = scene
}
criterion_main!(benches);
