//! The baseline must compute the same palettes as the project's path, or comparing their
//! speed means nothing. (Correctness of both against an independent reference is proven by
//! props-gltf's oracle tests.)

use props_anim::JointMatrix;
use props_bench::naive;
use props_bench::workload::{self, ClipCrowd};

fn assert_same_palettes(model: &props_anim::Model, clip: usize) {
    let mut crowd = ClipCrowd::new(model, clip, 7);
    let mut expected = vec![JointMatrix::IDENTITY; model.palette_len()];
    for frame in 0..40 {
        let time = frame as f32 * 0.07;
        crowd.evaluate(time);
        for (phase, actual) in crowd.phases.iter().zip(crowd.palettes.chunks_exact(model.palette_len())) {
            naive::evaluate(model, &model.clips()[clip], time + phase, &mut expected);
            for (a, e) in actual.iter().zip(&expected) {
                for (x, y) in a.to_array().iter().zip(e.to_array()) {
                    assert!((x - y).abs() < 1e-3, "frame {frame}: {x} vs {y}");
                }
            }
        }
    }
}

#[test]
fn naive_baseline_agrees_on_fox() {
    let fox = workload::fox();
    for clip in 0..fox.clips().len() {
        assert_same_palettes(&fox, clip);
    }
}

#[test]
fn naive_baseline_agrees_on_the_synthetic_rig() {
    assert_same_palettes(&workload::synthetic(250), 0);
}
