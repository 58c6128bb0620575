//! Node constraints' cost on the fast path: 1,000 instances of the VRM 1.0 avatar whose
//! twist bones, eyes, cuff, sleeve and strap follow other bones
//! (`tests/models/humanoids/constraints_vrm1.vrm`: 2 roll, 3 aim, 2 rotation constraints on
//! 36 nodes), each at its own time of its clip, posed by the runtime's crowd on one thread:
//! the file as it is and the same file without its constraints, in the same run. Throughput is
//! in instances, so criterion's "time per element" is the time per instance per frame; the
//! difference of the two is the constraints'.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use props_anim::runtime::{Crowd, PaletteBuffer, Program, Sharing};
use props_anim::{Layer, Model};

/// One frame's step, 60 Hz.
const DT: f32 = 1.0 / 60.0;
const INSTANCES: usize = 1000;

/// The avatar, with or without its constraints.
fn avatar(constrained: bool) -> Model {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/humanoids/constraints_vrm1.vrm");
    let bytes = std::fs::read(&path).expect("the avatar");
    let bytes = if constrained {
        bytes
    } else {
        let chunks = props_gltf::glb::read(&bytes).0.expect("a GLB file");
        let mut json: serde_json::Value = serde_json::from_slice(chunks.json).expect("JSON");
        for node in json["nodes"].as_array_mut().expect("nodes") {
            if let Some(extensions) = node.get_mut("extensions").and_then(|e| e.as_object_mut()) {
                extensions.remove("VRMC_node_constraint");
            }
        }
        props_gltf::glb::write(json.to_string().as_bytes(), chunks.bin).expect("a GLB file")
    };
    let limits = props_gltf::Limits::default();
    let model = props_gltf::import_slice(&bytes, None, &path, &limits).expect("the avatar").model;
    assert_eq!(model.rig().constraints().is_empty(), !constrained);
    model
}

fn constraints(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("fast/constraints_vrm1x{INSTANCES}"));
    group.throughput(Throughput::Elements(INSTANCES as u64));
    for (name, constrained) in [("without", false), ("with", true)] {
        let model = avatar(constrained);
        let program = Program::for_clip(&model, 0);
        let duration = program.duration(0);
        let mut crowd = Crowd::new(&program, 1, Sharing::None, 1.0, 4);
        for _ in 0..INSTANCES {
            crowd.push(glam::Vec3::ZERO);
        }
        let mut out = PaletteBuffer::default();
        let mut time = 0.0;
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                time += DT;
                for i in 0..INSTANCES {
                    crowd.layers_mut(i)[0] = Layer::once(0, (time + i as f32 * 0.013) % duration);
                }
                out.clear();
                crowd.update(&program, None, 0, None, &mut out);
            });
        });
    }
    group.finish();
}

criterion_group!(benches, constraints);
criterion_main!(benches);
