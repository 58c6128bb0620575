//! The fast path ([`ClipProgram`], [`Crowd`]) against the pose path it replaces, on every
//! sample and generated test model and the demo assets: the pose path is the one proven
//! against three.js by props-gltf's oracle tests (to 1e-4 of the model's size), so agreeing
//! with it to 1e-5 keeps the fast path within the oracle's tolerance; the four-lane
//! evaluation agrees with the single-instance one bitwise.

use std::path::{Path, PathBuf};

use props_anim::{ClipProgram, Crowd, Due, JointMatrix, Model, PlayMode, Pose, Workers};
use props_bench::workload;

fn models() -> Vec<(PathBuf, Model)> {
    fn visit(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("broken") {
                visit(&path, out);
            } else if path.extension().is_some_and(|e| e == "gltf" || e == "glb") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
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

/// The pose path: rest pose, sample, hierarchy, palettes.
fn reference(model: &Model, clip: usize, time: f32, pose: &mut Pose, out: &mut [JointMatrix]) {
    pose.return_to_rest(model.rig());
    model.clips()[clip].sample(time, pose);
    pose.compute_world(model.rig());
    model.write_palettes(pose, out);
}

/// Times to check: a sweep past both ends, every key time and the midpoints between keys.
fn times(model: &Model, clip: usize) -> Vec<f32> {
    let clip = &model.clips()[clip];
    let mut times: Vec<f32> = (0..=240).map(|i| (i as f32 / 200.0 - 0.05) * clip.duration().max(0.1)).collect();
    for channel in clip.channels() {
        times.extend(channel.times());
        times.extend(channel.times().windows(2).map(|w| (w[0] + w[1]) * 0.5));
    }
    times
}

#[test]
fn the_fast_path_equals_the_pose_path_on_every_test_model() {
    let mut checked = 0;
    for (path, model) in models() {
        let mut pose = Pose::from_rest(model.rig());
        let mut expected = vec![JointMatrix::IDENTITY; model.palette_len()];
        let mut got = expected.clone();
        for clip in 0..model.clips().len() {
            let program = ClipProgram::new(&model, clip);
            let mut scratch = program.scratch();
            let mut cursors = vec![0; program.cursor_len()];
            for time in times(&model, clip) {
                reference(&model, clip, time, &mut pose, &mut expected);
                program.write_palette(time, &mut cursors, &mut scratch, &mut got);
                let size = expected.iter().flat_map(|m| m.to_array()).fold(1.0f32, |a, x| a.max(x.abs()));
                for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
                    for (x, y) in e.to_array().iter().zip(g.to_array()) {
                        assert!(
                            (x - y).abs() <= 1e-5 * size,
                            "{}: clip {clip} time {time} matrix {i}: {x} vs {y}",
                            path.display()
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn four_lanes_give_bitwise_the_single_instance_palettes_on_every_test_model() {
    let bits = |m: &[JointMatrix]| m.iter().flat_map(|m| m.to_array().map(f32::to_bits)).collect::<Vec<_>>();
    let mut checked = 0;
    for (path, model) in models() {
        for clip in 0..model.clips().len() {
            let program = ClipProgram::new(&model, clip);
            let (len, cursor_len) = (program.palette_len(), program.cursor_len());
            let mut scratch = program.scratch();
            // Six instances, four of them evaluated together in a scrambled order, each at
            // its own time (lanes fall into different key segments).
            let instances = [4, 1, 5, 2];
            let mut cursors = vec![0; 6 * cursor_len];
            let mut single_cursors = vec![0; cursor_len];
            let mut four = vec![JointMatrix::IDENTITY; 6 * len];
            let mut single = vec![JointMatrix::IDENTITY; len];
            let sweep = times(&model, clip);
            for (k, &time) in sweep.iter().enumerate() {
                let lane_times: [f32; 4] = std::array::from_fn(|l| sweep[(k + 7 * l) % sweep.len()]);
                program.write_palettes4(lane_times, instances, &mut cursors, &mut scratch, &mut four);
                for (&t, &i) in lane_times.iter().zip(&instances) {
                    program.write_palette(t, &mut single_cursors, &mut scratch, &mut single);
                    assert!(
                        bits(&four[i * len..(i + 1) * len]) == bits(&single),
                        "{}: clip {clip} time {t} (lane of instance {i}, step {k} at {time})",
                        path.display()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn threads_give_bitwise_the_same_palettes_and_lod_keeps_the_rest() {
    let fox = workload::fox();
    let clip = fox.find_clip("Run").expect("Run");
    let program = ClipProgram::new(&fox, clip);
    let n = 37;
    let phases = workload::phases(n, program.duration(), 3);
    let len = program.palette_len();
    let mut single = vec![JointMatrix::IDENTITY; n * len];
    let mut crowd = Crowd::new(&program, n, 1);
    let mut outputs = Vec::new();
    for threads in [1, 2, 3] {
        let workers = Workers::new(threads).expect("workers start");
        let mut parallel_crowd = Crowd::new(&program, n, threads * 4);
        let mut out = vec![JointMatrix::IDENTITY; n * len];
        for frame in 0..30 {
            let time = frame as f32 * 0.05;
            let times: Vec<f32> = phases.iter().map(|p| PlayMode::Loop.wrap(time + p, program.duration())).collect();
            crowd.update(&program, &times, &mut single, Due::All);
            assert_eq!(parallel_crowd.par_update(&program, &workers, &times, &mut out, Due::All), n);
            assert_eq!(bytemuck::cast_slice::<_, u32>(&single), bytemuck::cast_slice::<_, u32>(&out));
        }
        outputs.push(out);
    }
    // Update-rate LOD: only the due instances change; the others keep last frame's palette.
    let rates: Vec<u8> = (0..n).map(|i| [1, 2, 4][i % 3]).collect();
    let before = single.clone();
    let times: Vec<f32> = phases.iter().map(|p| PlayMode::Loop.wrap(3.3 + p, program.duration())).collect();
    let evaluated = crowd.update(&program, &times, &mut single, Due::Rates { rates: &rates, frame: 5 });
    let due: Vec<bool> = (0..n).map(|i| props_anim::is_due(5, i, rates[i])).collect();
    assert_eq!(evaluated, due.iter().filter(|d| **d).count());
    for (i, due) in due.iter().enumerate() {
        let range = i * len..(i + 1) * len;
        assert_eq!(!due, single[range.clone()] == before[range], "instance {i}");
    }
}
