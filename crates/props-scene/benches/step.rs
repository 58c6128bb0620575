//! One simulation step and one extraction of the default town, with the default 300 windmills
//! and with 100k, on the synthetic models (same palette sizes as the real windmill and car);
//! extraction with shared windmill poses (the default one-degree step) and exact ones, after
//! the nacelles have turned into the wind (windmills start at random headings; a real
//! benchmark run first simulates [`SETTLE`] seconds, the quick test run does not); and a
//! thousand foxes stepped with and without update-rate LOD.
//! `cargo test` runs each once in test mode, so the benchmark never rots.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use props_anim::UpdateRateLod;
use props_frame::FrameData;
use props_scene::{Scene, SceneConfig, Viewer, synthetic};

/// The game's fixed step.
const DT: f32 = 1.0 / 60.0;
/// Seconds simulated before measuring, so that every nacelle faces the wind (at the nacelles'
/// yaw rate, half a turn takes under 11 s).
const SETTLE: f32 = 12.0;

fn scene(c: &mut Criterion) {
    let settle = if std::env::args().any(|a| a == "--bench") { (SETTLE / DT) as usize } else { 0 };
    for windmills in [300, props_scene::MAX_WINDMILLS] {
        let mut group = c.benchmark_group("scene");
        for (extract, windmill_pose_step) in
            [("extract", SceneConfig::default().windmill_pose_step), ("extract_exact", None)]
        {
            let models = synthetic::models().expect("synthetic models build");
            let config = SceneConfig { windmills, seed: 1, windmill_pose_step, ..SceneConfig::default() };
            let mut scene = Scene::new(config, models).expect("scene builds");
            for _ in 0..settle {
                scene.step(DT);
            }
            let mut frame = FrameData::default();
            group.throughput(Throughput::Elements(scene.counts().instances as u64));
            if windmill_pose_step.is_some() {
                group.bench_function(BenchmarkId::new("step", windmills), |b| b.iter(|| scene.step(DT)));
            }
            group.bench_function(BenchmarkId::new(extract, windmills), |b| {
                b.iter(|| {
                    frame.clear();
                    scene.extract(&mut frame);
                });
            });
        }
        group.finish();
    }
}

/// A thousand foxes stepped with every pose computed, and with update-rate LOD seen from a
/// camera above the town's edge (as the game's starting view).
fn foxes(c: &mut Criterion) {
    let mut group = c.benchmark_group("foxes");
    let eye = Vec3::new(0.0, 80.0, 160.0);
    let camera = props_frame::Camera::look_at(eye, Vec3::ZERO, 0.8, 16.0 / 9.0, (0.5, 5000.0));
    let viewer = Viewer { eye, view_projection: camera.view_projection, lod: UpdateRateLod::default() };
    for (name, viewer) in [("step", None), ("step_lod", Some(viewer))] {
        let models = synthetic::models().expect("synthetic models build");
        let config = SceneConfig { foxes: 1000, cars: 0, windmills: 0, seed: 1, ..SceneConfig::default() };
        let mut scene = Scene::new(config, models).expect("scene builds");
        scene.set_viewer(viewer);
        group.throughput(Throughput::Elements(1000));
        group.bench_function(BenchmarkId::new(name, 1000), |b| b.iter(|| scene.step(DT)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = scene, foxes
}
criterion_main!(benches);
