//! Spring bones' cost on close-up instances: 100 instances of the VRM 1.0 avatar with a
//! ponytail, a lock and a tail (`tests/models/humanoids/springs_vrm1.vrm`: 7 joints, 6
//! colliders), each moving, posed at rest and written into its palette, without and with a
//! step of its springs in the same run. Throughput is in instances, so criterion's "time per
//! element" is the time per instance per frame; the difference of the two is the springs'.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::{Affine3A, Quat, Vec3};
use props_anim::spring::SpringState;
use props_anim::{JointMatrix, Model, Pose};

/// One frame's step, 60 Hz.
const DT: f32 = 1.0 / 60.0;
const INSTANCES: usize = 100;

/// Instance `i`'s placement at frame `f`: walking in a circle of its own.
fn placement(i: usize, f: u32) -> Affine3A {
    let angle = f as f32 * 0.02 + i as f32;
    Affine3A::from_rotation_translation(Quat::from_rotation_y(angle), Vec3::new(angle.cos(), 0.0, angle.sin()) * 3.0)
}

fn frame(model: &Model, (pose, palette): (&mut Pose, &mut [JointMatrix]), states: Option<&mut [SpringState]>, f: u32) {
    let (rig, springs) = (model.rig(), model.springs());
    match states {
        Some(states) => {
            for (i, state) in states.iter_mut().enumerate() {
                pose.return_to_rest(rig);
                pose.compute_world(rig);
                springs.step(rig, pose, &placement(i, f), state, DT);
                model.write_palettes(pose, palette);
            }
        }
        None => {
            for _ in 0..INSTANCES {
                pose.return_to_rest(rig);
                pose.compute_world(rig);
                model.write_palettes(pose, palette);
            }
        }
    }
}

fn springs(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/humanoids/springs_vrm1.vrm");
    let model = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the avatar").model;
    let mut group = c.benchmark_group(format!("close-up/springs_vrm1x{INSTANCES}"));
    group.throughput(Throughput::Elements(INSTANCES as u64));
    let mut pose = Pose::from_rest(model.rig());
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    let mut states = vec![model.springs().state(); INSTANCES];
    let mut f = 0;
    group.bench_function(BenchmarkId::from_parameter("pose"), |b| {
        b.iter(|| {
            f += 1;
            frame(&model, (&mut pose, &mut palette), None, f);
        });
    });
    group.bench_function(BenchmarkId::from_parameter("pose+springs"), |b| {
        b.iter(|| {
            f += 1;
            frame(&model, (&mut pose, &mut palette), Some(&mut states), f);
        });
    });
    group.finish();
}

criterion_group!(benches, springs);
criterion_main!(benches);
