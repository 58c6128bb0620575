//! The mod lot plays what the game loads onto it: a morph-animated glTF file, imported as a
//! mod is, moves on the lot through the animation runtime, its instance's palette carrying
//! the clip's weights, which the GPU applies. Reference: three.js's oracle gives weights
//! 0.7233 and 0.2767 at 2.1 s (tests/oracle/AnimatedMorphCube.anim0.json).

use std::sync::Arc;

use props_anim::JointMatrix;
use props_crowd::PropModel;
use props_frame::{FrameData, ModelId};
use props_scene::{Scene, SceneConfig, synthetic};

use crate::support::root;

#[test]
fn the_lot_plays_morph_animation() {
    let path = root().join("tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf");
    let model = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("imports").model;
    let model = Arc::new(model);
    let config = SceneConfig::default()
        .with_count("windmills", 0)
        .with_count("cars", 0)
        .with_count("foxes", 0)
        .with_count("buses", 0);
    let mut scene = Scene::new(config, synthetic::town().expect("stand-ins")).expect("a town");
    let id = ModelId(40);
    scene.set_kind_models("lot_models", vec![PropModel::new(id, Arc::clone(&model))]).expect("the lot takes it");
    scene.step(2.099_998_7);
    let mut frame = FrameData::default();
    scene.animate(&mut frame);
    scene.extract(&mut frame);
    let batch = frame.batches.iter().find(|b| b.model == id).expect("the lot model is drawn");
    let base = frame.instances[batch.instances.start as usize].palette_base as usize;
    let slots = &frame.palettes[base + model.weight_slot()..base + model.palette_len()];
    let weights: Vec<f32> = slots.iter().flat_map(JointMatrix::to_array).take(model.morph_weight_count()).collect();
    let expected = [0.723_308_4, 0.276_691_6];
    assert!(weights.iter().zip(expected).all(|(w, e)| (w - e).abs() < 1e-5), "weights {weights:?}");
}
