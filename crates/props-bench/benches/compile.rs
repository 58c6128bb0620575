//! What compiling a model for the fast path costs ([`Program::new`], once per model and
//! version, when a mod arrives): a chain of `n` nodes whose one clip turns each node on keys
//! of its own times and holds it moved by a one-key channel, the shape of a hostile file at the
//! importer's limits. Throughput is in nodes, so criterion's "time per element" stays flat
//! while the compile is linear in the clip's size.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use props_anim::Transform;
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Channel, Clip, Keyframes};
use props_anim::runtime::Program;
use props_anim::{Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Spec};

/// The chain of `n` nodes, a triangle on its last, and its clip.
fn chain(n: usize) -> Model {
    let node = |k: usize| SourceNode {
        name: None,
        children: if k + 1 < n { vec![k as u32 + 1] } else { vec![] },
        rest: RestTransform::Trs(Transform::IDENTITY),
        morph_weights: vec![],
    };
    let rig = Rig::from_source_nodes(&(0..n).map(node).collect::<Vec<_>>()).expect("a chain");
    let channels = (0..n).flat_map(|k| {
        let (node, end) = (NodeId(k as u32), 1.0 + k as f32 * 1e-3);
        let turn = Keyframes::Rotation(vec![Quat::IDENTITY, Quat::from_rotation_x(0.1)]);
        let turn = Channel::new(node, Interpolation::Linear, vec![0.0, end], turn).expect("a channel");
        let held = Keyframes::Translation(vec![Vec3::X]);
        [turn, Channel::new(node, Interpolation::Linear, vec![0.0], held).expect("a channel")]
    });
    let clip = Clip::new(None, channels.collect(), &rig).expect("a clip");
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![], vec![0, 1, 2], None);
    let parts = ModelParts {
        rig: Some(rig),
        clips: vec![clip],
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(n as u32 - 1), mesh: 0, skin: None }],
        ..ModelParts::default()
    };
    Model::new(parts).expect("a model")
}

fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile");
    group.sample_size(10);
    for n in [2_000, 20_000] {
        let model = chain(n);
        let spec = Spec::all_clips(&model);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("chain", n), &model, |b, model| b.iter(|| Program::new(model, &spec)));
    }
    group.finish();
}

criterion_group!(benches, compile);
criterion_main!(benches);
