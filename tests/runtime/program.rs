//! The runtime's fast path ([`Program`], [`Crowd`]) against the general pose path
//! ([`props_anim::pose_state`]) on every sample and generated test model and the demo assets,
//! for states of every kind: one clip, crossfades, additive and masked layers, drivers. The
//! pose path is the one proven against three.js by props-gltf's oracle tests (to 1e-4 of the
//! model's size); the fast path agrees with it to 1e-6 of the model's size. Results do not
//! depend on which instances share a batch, nor on the thread count.

use std::path::{Path, PathBuf};

use glam::Vec3;
use props_anim::property::PropertyId;
use props_anim::runtime::LaneState;
use props_anim::{
    Blend, Driver, JointMatrix, Layer, Mask, Model, Pose, Spec, ValueTarget, pose_state,
    runtime::Crowd,
    runtime::PaletteBuffer,
    runtime::Program,
    runtime::Workers,
    runtime::{Quantization, Sharing},
    runtime::{UpdateRateLod, View},
};
use props_bench::workload;

/// The largest difference of a vertex allowed, relative to the model's size. Two `f32`
/// evaluations of a hierarchy differ by about an ulp per level, so a rig deeper than
/// [`DEEP`] levels (the 301-joint case's 100-joint arms: 1.06e-6 measured) gets twice this.
pub(crate) const TOLERANCE: f32 = 1e-6;
/// Depth from which a rig gets twice [`TOLERANCE`].
const DEEP: usize = 64;

/// The number of levels of the deepest node of `model`'s rig.
fn depth(model: &Model) -> usize {
    let rig = model.rig();
    let mut depths = vec![0; rig.len()];
    for node in rig.nodes() {
        depths[node.index()] = rig.parent(node).map_or(1, |p| depths[p.index()] + 1);
    }
    depths.into_iter().max().unwrap_or(0)
}

pub(crate) fn models() -> Vec<(PathBuf, Model)> {
    fn visit(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("broken") {
                visit(&path, out);
            } else if path.extension().is_some_and(|e| e == "gltf" || e == "glb" || e == "vrm") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    visit(&root.join("tests/models"), &mut paths);
    visit(&root.join("assets"), &mut paths);
    paths.sort();
    let models: Vec<_> = paths
        .into_iter()
        .map(|p| {
            let model = props_gltf::import_file(&p, &props_gltf::Limits::default()).expect("test model imports").model;
            (p, model)
        })
        .collect();
    assert!(models.len() >= 15, "found only {} models", models.len());
    models
}

/// Every clip, two drivers (on the first TRS node and one halfway down the rig, about X and a
/// slanted axis), a mask (the subtree of a node a third of the way down), and values set
/// directly: the last morph weight and the last animated property, where the model has them.
fn spec(model: &Model) -> Spec {
    let rig = model.rig();
    let trs: Vec<_> = rig.nodes().filter(|&n| rig.rest(n).as_trs().is_some()).collect();
    let pick = |fraction: usize| trs.get(trs.len() * fraction / 6).copied();
    let drivers = [(pick(0), Vec3::X), (pick(3), Vec3::new(0.6, 0.0, 0.8))]
        .into_iter()
        .filter_map(|(node, axis)| Some(Driver { nodes: vec![node?], axis }))
        .collect();
    let masks = pick(2).map(|node| Mask::subtree(rig, node)).into_iter().collect();
    let weights = rig.morph_defaults().len();
    let properties = rig.properties().len() as u32;
    let values = [
        weights.checked_sub(1).map(ValueTarget::MorphWeight),
        properties.checked_sub(1).map(|p| ValueTarget::Property(PropertyId(p))),
    ];
    Spec { clips: (0..model.clips().len()).collect(), drivers, masks, values: values.into_iter().flatten().collect() }
}

/// An instance's driver values at `t`: the angles (or none turned), then its values set
/// directly (between 0.1 and 0.9).
fn driver_values(model: &Model, spec: &Spec, t: f32, turned: bool) -> Vec<f32> {
    let angles = (0..spec.drivers.len()).map(|d| if turned { (t * 40.0 - 20.0) * (d as f32 + 1.0) } else { 0.0 });
    let values = spec.driver_values(model.rig()) - spec.drivers.len();
    angles.chain((0..values).map(|v| 0.1 + 0.8 * ((t + v as f32 * 0.31) % 1.0))).collect()
}

/// A family of states of one signature, by time `t` in [0, 1]: what the test sweeps.
fn states(model: &Model, spec: &Spec, t: f32) -> Vec<(Vec<Layer>, Vec<f32>)> {
    let clips = spec.clips.len() as u16;
    let time = |c: u16, t: f32| model.clips()[spec.clips[c as usize]].duration() * (t * 1.3 - 0.1);
    let drivers = driver_values(model, spec, t, true);
    let still = driver_values(model, spec, t, false);
    let mut states = vec![(vec![], drivers.clone())];
    for c in 0..clips {
        let next = (c + 1) % clips;
        states.push((vec![Layer::once(c, time(c, t))], still.clone()));
        let fade = Layer { weight: 0.2 + 0.6 * t, ..Layer::once(next, time(next, 1.0 - t)) };
        states.push((vec![Layer::once(c, time(c, t)), fade], drivers.clone()));
        let add = Layer { blend: Blend::Additive, weight: 0.7, ..Layer::once(next, time(next, t)) };
        states.push((vec![Layer::once(c, time(c, t)), add], still.clone()));
        if !spec.masks.is_empty() {
            let masked = Layer { mask: 0, weight: 0.9, ..Layer::once(next, time(next, t * 0.5)) };
            states.push((vec![Layer { weight: 0.5, ..Layer::once(c, time(c, t)) }, masked], drivers.clone()));
        }
    }
    states
}

/// Largest distance between a vertex drawn with palette `a` and with `b` (skinned primitives
/// with their joints, weights as stored; rigid ones with their node slot).
pub(crate) fn vertex_error(model: &Model, a: &[JointMatrix], b: &[JointMatrix]) -> f32 {
    let (mut at_a, mut at_b) = (Vec::new(), Vec::new());
    props_anim::skinning::model_positions(model, a, &mut at_a);
    props_anim::skinning::model_positions(model, b, &mut at_b);
    at_a.iter().zip(&at_b).map(|(p, q)| p.distance(*q)).fold(0.0, f32::max)
}

#[test]
fn the_fast_path_equals_the_pose_path_on_every_test_model() {
    let (mut checked, mut worst, mut morph_states, mut set_values) = (0, 0.0f32, 0, [0; 2]);
    for (path, model) in models() {
        let mut model_worst = 0.0f32;
        let tolerance = if depth(&model) > DEEP { 2.0 * TOLERANCE } else { TOLERANCE };
        let spec = spec(&model);
        let program = Program::new(&model, &spec);
        let mut scratch = program.scratch();
        let (mut pose, mut sample) = (Pose::from_rest(model.rig()), Pose::from_rest(model.rig()));
        let len = program.palette_len();
        let mut expected = vec![JointMatrix::IDENTITY; len];
        let mut got = vec![JointMatrix::IDENTITY; 4 * len];
        // The model's size: the radius no pose of it leaves.
        let size = model.pose_bounds().radius.max(1e-6) as f32;
        for step in 0..=24 {
            // Four lanes of one signature, each at its own time.
            let lanes: [Vec<(Vec<Layer>, Vec<f32>)>; 4] =
                std::array::from_fn(|k| states(&model, &spec, (step as f32 + k as f32 * 0.37) / 24.0));
            for s in 0..lanes[0].len() {
                let lane = |k: usize| LaneState { layers: &lanes[k][s].0, drivers: &lanes[k][s].1, palette: k * len };
                program.write_palettes4(std::array::from_fn(lane), &mut scratch, &mut got);
                for (k, lane) in lanes.iter().enumerate() {
                    let (layers, drivers) = &lane[s];
                    pose_state(&model, &spec, layers, drivers, &mut pose, &mut sample);
                    model.write_palettes(&pose, &mut expected);
                    let palette = &got[k * len..(k + 1) * len];
                    let error = vertex_error(&model, &expected, palette) / size;
                    // Morph weights, packed after the matrices: the same to 1e-6 too.
                    let weights = |p: &[JointMatrix]| {
                        p[model.weight_slot()..].iter().flat_map(JointMatrix::to_array).collect::<Vec<_>>()
                    };
                    let weight_error =
                        weights(&expected).iter().zip(weights(palette)).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
                    assert!(
                        weight_error <= TOLERANCE,
                        "{}: state {layers:?}: morph weights off by {weight_error:e}",
                        path.display()
                    );
                    morph_states += usize::from(model.morph_weight_count() > 0);
                    for (count, property) in set_values.iter_mut().zip([false, true]) {
                        *count +=
                            spec.values.iter().filter(|v| matches!(v, ValueTarget::Property(_)) == property).count();
                    }
                    worst = worst.max(error);
                    model_worst = model_worst.max(error);
                    assert!(
                        error <= tolerance,
                        "{}: state {layers:?} {drivers:?}: vertices off by {error:e} of the model's size",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{}: worst {model_worst:.2e}", path.file_name().unwrap_or_default().to_string_lossy());
    }
    eprintln!("{checked} states ({morph_states} with morph weights), worst difference {worst:.2e} of the model's size");
    assert!(checked > 5000);
    assert!(morph_states > 1000, "morph weights compared in {morph_states} states only");
    let [weights_set, properties_set] = set_values;
    assert!(weights_set > 1000 && properties_set > 1000, "values set directly: {set_values:?} states only");
}

/// A node every clip holds still away from its rest (a single key, or keys all alike) is blended
/// from its rest like any other where the layers' weights fall short of 1, on both paths: three.js's
/// mixer mixes each property's original value back in by what its weights leave.
#[test]
fn a_node_every_clip_holds_still_blends_from_its_rest_at_part_weight() {
    use glam::Quat;
    use props_anim::clip::interpolate::Interpolation;
    use props_anim::clip::{Channel, Clip, Keyframes};
    use props_anim::{Mesh, MeshInstance, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform};

    let node = |children: &[u32], translation: Vec3| SourceNode {
        name: None,
        children: children.to_vec(),
        rest: RestTransform::Trs(Transform { translation, ..Transform::IDENTITY }),
        morph_weights: Vec::new(),
    };
    let rig = Rig::from_source_nodes(&[node(&[1], Vec3::ZERO), node(&[], Vec3::Y)]).expect("rig");
    let held = Quat::from_rotation_z(1.2);
    // Both clips move the root and hold the child at the same turn: one key, and two alike.
    let clip = |name: &str, rise: f32, keys: usize| {
        let root = Keyframes::Translation(vec![Vec3::ZERO, Vec3::new(0.0, rise, 0.0)]);
        let root = Channel::new(NodeId(0), Interpolation::Linear, vec![0.0, 1.0], root).expect("channel");
        let times = (0..keys).map(|k| k as f32).collect();
        let child = Channel::new(NodeId(1), Interpolation::Linear, times, Keyframes::Rotation(vec![held; keys]));
        Clip::new(Some(name.into()), vec![root, child.expect("channel")], &rig).expect("clip")
    };
    let triangle = Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], Vec::new(), vec![0, 1, 2], None);
    let model = Model::new(ModelParts {
        clips: vec![clip("up", 1.0, 1), clip("down", -1.0, 2)],
        meshes: vec![Mesh { name: None, primitives: vec![triangle] }],
        instances: vec![MeshInstance { node: NodeId(1), mesh: 0, skin: None }],
        rig: Some(rig),
        ..ModelParts::default()
    })
    .expect("valid");
    let spec = Spec::all_clips(&model);
    let program = Program::new(&model, &spec);
    let mut scratch = program.scratch();
    let (mut pose, mut sample) = (Pose::from_rest(model.rig()), Pose::from_rest(model.rig()));
    let len = program.palette_len();
    let states = [
        vec![Layer { weight: 0.5, ..Layer::once(0, 0.5) }],
        vec![Layer { weight: 0.3, ..Layer::once(0, 0.25) }, Layer { weight: 0.2, ..Layer::once(1, 0.75) }],
        vec![Layer::once(0, 0.5)],
        vec![],
    ];
    let mut got = vec![JointMatrix::IDENTITY; 4 * len];
    let lane = |k: usize| LaneState { layers: &states[k], drivers: &[], palette: k * len };
    program.write_palettes4(std::array::from_fn(lane), &mut scratch, &mut got);
    for (k, layers) in states.iter().enumerate() {
        pose_state(&model, &spec, layers, &[], &mut pose, &mut sample);
        // One layer: what three.js's mixer gives (layers after the first blend over it in turn).
        if layers.len() <= 1 {
            let weight = layers.first().map_or(0.0, |l| l.weight);
            let turn = pose.local_transform(NodeId(1)).rotation;
            let expected = Quat::IDENTITY.slerp(held, weight);
            assert!(turn.angle_between(expected) < 1e-5, "{layers:?}: the pose path turns the child by {turn:?}");
        }
        let mut expected = vec![JointMatrix::IDENTITY; len];
        model.write_palettes(&pose, &mut expected);
        let error = vertex_error(&model, &expected, &got[k * len..(k + 1) * len]);
        assert!(error <= TOLERANCE, "{layers:?}: the fast path is off by {error:e}");
    }
}

/// A looping layer is its clip at its running time wrapped by the clip's duration, bit for bit,
/// on both paths; a layer that does not loop holds the clip's last key past its end.
#[test]
fn a_looping_layer_plays_its_clip_at_the_wrapped_time() {
    let mut looped = 0;
    for (path, model) in models() {
        let spec = spec(&model);
        let program = Program::new(&model, &spec);
        let mut scratch = program.scratch();
        let (mut pose, mut sample) = (Pose::from_rest(model.rig()), Pose::from_rest(model.rig()));
        let len = program.palette_len();
        let drivers = vec![0.0; spec.driver_values(model.rig())];
        let poses = |layers: [&[Layer]; 4], scratch: &mut _| {
            let mut out = vec![JointMatrix::IDENTITY; 4 * len];
            let lane = |k: usize| LaneState { layers: layers[k], drivers: &drivers, palette: k * len };
            program.write_palettes4(std::array::from_fn(lane), scratch, &mut out);
            out
        };
        for c in 0..spec.clips.len() as u16 {
            let duration = model.clips()[spec.clips[c as usize]].duration();
            if duration <= 0.0 {
                continue;
            }
            for seconds in [0.25 * duration, 61.0, 3601.7] {
                let wrapped = props_anim::clip::PlayMode::Loop.wrap(seconds, duration);
                let (looping, clip) = ([Layer::looping(c, seconds)], [Layer::once(c, wrapped)]);
                let fast = poses([&looping, &clip, &looping, &clip], &mut scratch);
                assert_eq!(fast[..len], fast[len..2 * len], "{}: clip {c} at {seconds} s", path.display());
                let mut general = |layers: &[Layer]| {
                    pose_state(&model, &spec, layers, &drivers, &mut pose, &mut sample);
                    let mut palette = vec![JointMatrix::IDENTITY; len];
                    model.write_palettes(&pose, &mut palette);
                    palette
                };
                assert_eq!(general(&looping), general(&clip), "{}: clip {c} at {seconds} s", path.display());
                // Held at the end: the last key, a minute or an hour after it.
                let (end, late) = ([Layer::once(c, duration)], [Layer::once(c, duration + seconds)]);
                let held = poses([&end, &late, &end, &late], &mut scratch);
                assert_eq!(held[..len], held[len..2 * len], "{}: clip {c} held", path.display());
                looped += 1;
            }
        }
    }
    assert!(looped > 100, "{looped} clips and times looped");
}

#[test]
fn an_instance_gives_the_same_bits_whatever_shares_its_batch() {
    let bits = |m: &[JointMatrix]| m.iter().flat_map(|m| m.to_array().map(f32::to_bits)).collect::<Vec<_>>();
    for (path, model) in models() {
        let spec = spec(&model);
        let program = Program::new(&model, &spec);
        let len = program.palette_len();
        let mut scratch = program.scratch();
        let all: Vec<_> = (0..8).map(|k| states(&model, &spec, k as f32 / 7.0)).collect();
        for (s, _) in all[0].iter().enumerate() {
            let lane =
                |k: usize, at: usize| LaneState { layers: &all[k][s].0, drivers: &all[k][s].1, palette: at * len };
            let mut alone = vec![JointMatrix::IDENTITY; len];
            let mut mixed = vec![JointMatrix::IDENTITY; 4 * len];
            program.write_palettes4([lane(3, 0); 4], &mut scratch, &mut alone);
            program.write_palettes4([lane(6, 0), lane(3, 1), lane(0, 2), lane(5, 3)], &mut scratch, &mut mixed);
            assert!(bits(&alone) == bits(&mixed[len..2 * len]), "{}: state family {s}", path.display());
        }
    }
}

/// A crowd of foxes crossfading from Walk to Run, on 1, 2 and 3 threads, shared or not:
/// every frame's palettes are bitwise the same, whether written into a new buffer each frame
/// or over the last frame's (first poisoned with NaN); LOD keeps the last pose of far
/// instances and culling drops those out of view.
#[test]
fn crowds_are_the_same_on_any_thread_count_and_lod_and_culling_keep_their_promises() {
    let fox = workload::fox();
    let spec = Spec {
        clips: vec![fox.find_clip("Walk").expect("Walk"), fox.find_clip("Run").expect("Run")],
        ..Spec::default()
    };
    let program = Program::new(&fox, &spec);
    // Enough for the workers to take part (the crowd keeps small frames on one thread).
    let n = 601;
    let phases = workload::phases(n, 1.0, 3);
    let frame_palettes = |crowd: &mut Crowd, workers: Option<&Workers>, frame: u64, palettes: &mut PaletteBuffer| {
        for (i, phase) in phases.iter().enumerate() {
            let t = frame as f32 * 0.05 + phase;
            let walk = Layer::once(0, props_anim::clip::PlayMode::Loop.wrap(t, program.duration(0)));
            let run = Layer {
                weight: (i as f32 / n as f32),
                ..Layer::once(1, props_anim::clip::PlayMode::Loop.wrap(t, program.duration(1)))
            };
            crowd.layers_mut(i).copy_from_slice(&[walk, run]);
        }
        palettes.clear();
        crowd.update(&program, None, frame, workers, palettes);
        let mut by_instance: Vec<(usize, Vec<u32>)> = crowd
            .visible()
            .map(|(i, base)| {
                let base = base as usize;
                (
                    i,
                    palettes[base..base + program.palette_len()]
                        .iter()
                        .flat_map(|m| m.to_array().map(f32::to_bits))
                        .collect(),
                )
            })
            .collect();
        by_instance.sort();
        by_instance
    };
    for sharing in [Sharing::None, Sharing::Quantized(Quantization::default())] {
        let mut reference = Crowd::new(&program, 2, sharing, 200.0, 1);
        for i in 0..n {
            reference.push(Vec3::new(i as f32, 0.0, 0.0));
        }
        let frames: Vec<_> =
            (0..10).map(|f| frame_palettes(&mut reference, None, f, &mut PaletteBuffer::default())).collect();
        for threads in [1, 2, 3] {
            let workers = Workers::new(threads).expect("workers start");
            let mut crowd = Crowd::new(&program, 2, sharing, 200.0, threads * 3);
            for i in 0..n {
                crowd.push(Vec3::new(i as f32, 0.0, 0.0));
            }
            let mut reused = PaletteBuffer::default();
            reused.grow(2 * n * program.palette_len()).fill(JointMatrix { rows: [[f32::NAN; 4]; 3] });
            for (f, expected) in frames.iter().enumerate() {
                assert!(
                    frame_palettes(&mut crowd, Some(&workers), f as u64, &mut reused) == *expected,
                    "{sharing:?}, {threads} threads, frame {f}"
                );
            }
        }
    }
    // LOD and culling: instances far along +X are deferred; those behind the eye are culled.
    // A line of instances from behind the eye to 340 m in front.
    let m = 37;
    let mut crowd = Crowd::new(&program, 2, Sharing::None, 1.0, 1);
    for i in 0..m {
        crowd.push(Vec3::new(0.0, 0.0, -(i as f32) * 10.0 + 20.0));
    }
    let projection = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 1000.0);
    let look = glam::camera::rh::view::look_at_mat4(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
    let view = View::new(Vec3::ZERO, projection * look, UpdateRateLod::default(), 0);
    let mut palettes = PaletteBuffer::default();
    for i in 0..m {
        crowd.layers_mut(i)[0] = Layer::once(0, 0.1);
    }
    crowd.update(&program, Some(&view), 0, None, &mut palettes);
    let first = crowd.stats();
    assert_eq!(first.visible, m - 2, "the two behind the eye are culled");
    assert_eq!(first.deferred, 0, "coming into view, everything is posed");
    for i in 0..m {
        crowd.layers_mut(i)[0] = Layer::once(0, 0.5);
    }
    palettes.clear();
    crowd.update(&program, Some(&view), 1, None, &mut palettes);
    let second = crowd.stats();
    assert!(second.deferred > 0 && second.posed + second.deferred == second.visible, "{second:?}");
    let near = crowd.visible().filter(|&(i, _)| (i as f32) * 10.0 - 20.0 <= 50.0).count();
    assert!(second.posed >= near, "near instances are always posed");
}

/// A crowd large enough to be sifted in parts (culling, update-rate LOD and keys on the
/// workers), seen from inside it so that blocks fall wholly in, wholly out and across the
/// view's edge: on 2 and 3 threads every frame lists the same instances in the same order,
/// with the same palettes and counts, as on one, shared or not.
#[test]
fn a_large_crowd_sifted_in_parts_is_what_one_pass_gives() {
    let fox = workload::fox();
    let spec = Spec { clips: vec![fox.find_clip("Walk").expect("Walk")], ..Spec::default() };
    let program = Program::new(&fox, &spec);
    let (side, spacing) = (150, 4.0);
    let n = side * side;
    let phases = workload::phases(n, 1.0, 5);
    let projection = glam::camera::rh::proj::directx::perspective(1.2, 1.6, 0.1, 1000.0);
    let look = glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 20.0, 0.0), Vec3::new(40.0, 0.0, -90.0), Vec3::Y);
    let lod = UpdateRateLod { near: 40.0, far: 150.0, mid_rate: 2, far_rate: 4 };
    let view = View::new(Vec3::new(0.0, 20.0, 0.0), projection * look, lod, 0);
    let run = |sharing: Sharing, threads: usize| {
        let workers = (threads > 1).then(|| Workers::new(threads).expect("workers start"));
        let mut crowd = Crowd::new(&program, 1, sharing, 1.0, threads * 4);
        for i in 0..n {
            let (x, z) = ((i % side) as f32 - side as f32 / 2.0, (i / side) as f32 - side as f32 / 2.0);
            crowd.push(Vec3::new(x * spacing, 0.0, z * spacing));
        }
        let mut palettes = PaletteBuffer::default();
        let mut frames = Vec::new();
        for frame in 0..4_u64 {
            for (i, phase) in phases.iter().enumerate() {
                let t = props_anim::clip::PlayMode::Loop.wrap(frame as f32 * 0.05 + phase, program.duration(0));
                crowd.layers_mut(i)[0] = Layer::once(0, t);
            }
            palettes.clear();
            let stats = crowd.update(&program, Some(&view), frame, workers.as_ref(), &mut palettes);
            let listed: Vec<(usize, Vec<u32>)> = crowd
                .visible()
                .map(|(i, base)| {
                    let palette = &palettes[base as usize..base as usize + program.palette_len()];
                    (i, palette.iter().flat_map(|m| m.to_array().map(f32::to_bits)).collect())
                })
                .collect();
            frames.push((stats, listed));
        }
        frames
    };
    for sharing in [Sharing::None, Sharing::Exact, Sharing::Quantized(Quantization::default())] {
        let one = run(sharing, 1);
        let (stats, listed) = &one[1];
        assert!(stats.visible > 1000 && stats.visible < n / 2, "{sharing:?}: some in view, most not: {stats:?}");
        assert!(stats.deferred > 0, "{sharing:?}: far instances are deferred: {stats:?}");
        assert!(listed.windows(2).all(|w| w[0].0 < w[1].0), "listed in order");
        for threads in [2, 3] {
            assert!(run(sharing, threads) == one, "{sharing:?}: {threads} threads differ from one");
        }
    }
}

/// Removing an instance from the middle of a crowd moves the last one into its place with its
/// state and its last pose: with update-rate LOD keeping far instances' last palettes, every
/// remaining instance draws the palette it drew before, at its new index, and the crowd
/// still poses each one as a crowd built without the removed one does.
#[test]
fn swap_remove_moves_the_last_instance_with_its_state_and_pose() {
    let fox = workload::fox();
    let spec = Spec { clips: vec![fox.find_clip("Walk").expect("Walk")], ..Spec::default() };
    let program = Program::new(&fox, &spec);
    // Along -Z from the eye: the far ones are deferred on the second frame (their last pose).
    let place = |i: usize| Vec3::new(0.0, 0.0, -5.0 - i as f32 * 60.0);
    let projection = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 1000.0);
    let look = glam::camera::rh::view::look_at_mat4(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
    let view = View::new(Vec3::ZERO, projection * look, UpdateRateLod::default(), 0);
    let palettes_of = |crowd: &Crowd, palettes: &PaletteBuffer| -> Vec<(usize, Vec<u32>)> {
        let mut listed: Vec<_> = crowd
            .visible()
            .map(|(i, base)| {
                let base = base as usize;
                let bits =
                    palettes[base..base + program.palette_len()].iter().flat_map(|m| m.to_array().map(f32::to_bits));
                (i, bits.collect())
            })
            .collect();
        listed.sort();
        listed
    };
    let n = 6;
    let mut crowd = Crowd::new(&program, 1, Sharing::None, 1.0, 1);
    for i in 0..n {
        crowd.push(place(i));
        crowd.layers_mut(i)[0] = Layer::once(0, 0.1 * i as f32);
    }
    let mut palettes = PaletteBuffer::default();
    crowd.update(&program, Some(&view), 0, None, &mut palettes);
    let before = palettes_of(&crowd, &palettes);
    assert_eq!(before.len(), n, "all in view");

    assert!(crowd.swap_remove(1) && !crowd.swap_remove(n - 1), "instance 1 removed, none past the end");
    assert_eq!(crowd.len(), n - 1);
    assert_eq!(crowd.layers(1)[0], Layer::once(0, 0.1 * (n - 1) as f32), "the last instance's state moved");
    // The next frame: the far instances are drawn with their last pose, which moved too.
    for i in 0..n - 1 {
        crowd.layers_mut(i)[0].time += 0.05;
    }
    palettes.clear();
    crowd.update(&program, Some(&view), 1, None, &mut palettes);
    assert!(crowd.stats().deferred > 0, "some were deferred: {:?}", crowd.stats());
    let after = palettes_of(&crowd, &palettes);

    // A crowd built as the remaining instances now stand, given the same two frames.
    let mut fresh = Crowd::new(&program, 1, Sharing::None, 1.0, 1);
    for slot in 0..n - 1 {
        let old = if slot == 1 { n - 1 } else { slot };
        fresh.push(place(old));
        fresh.layers_mut(slot)[0] = Layer::once(0, 0.1 * old as f32);
    }
    let mut fresh_palettes = PaletteBuffer::default();
    fresh.update(&program, Some(&view), 0, None, &mut fresh_palettes);
    for slot in 0..n - 1 {
        fresh.layers_mut(slot)[0].time += 0.05;
    }
    fresh_palettes.clear();
    fresh.update(&program, Some(&view), 1, None, &mut fresh_palettes);
    assert!(after == palettes_of(&fresh, &fresh_palettes), "as a crowd built without it");
}
