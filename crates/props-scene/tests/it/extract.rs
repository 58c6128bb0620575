//! Extraction: one batch per model, consistent palettes (traffic lights sharing one per
//! phase), no buffer growth in a steady scene.

use props_anim::JointMatrix;
use props_frame::{FrameData, ModelId};
use props_scene::{SceneConfig, TrafficLight};

use crate::support::{DT, models, scene};

#[test]
fn one_batch_per_model_with_consistent_palettes() {
    // Exact windmill poses: one palette per windmill (sharing is tested with the windmills).
    let mut scene = scene(SceneConfig { windmill_pose_step: None, ..SceneConfig::default() });
    scene.step(DT);
    let mut frame = FrameData::default();
    scene.extract(&mut frame);
    let counts = scene.counts();
    assert_eq!((counts.windmills, counts.cars, counts.foxes), (300, 40, 12));
    let m = models();
    let expected = [
        (ModelId(0), counts.windmills, m.windmill.model.palette_len()),
        (ModelId(1), counts.cars, m.car.model.palette_len()),
        (ModelId(2), counts.traffic_lights, m.traffic_light.model.palette_len()),
        (ModelId(3), counts.foxes, m.fox.model.palette_len()),
    ];
    assert_eq!(frame.batches.len(), 4);
    assert_eq!(frame.instances.len(), counts.instances);
    assert_eq!(frame.palettes.len(), counts.palette_matrices);
    let mut base = 0;
    for (batch, (id, n, palette_len)) in frame.batches.iter().zip(expected) {
        assert_eq!(batch.model, id);
        assert_eq!(batch.instances.len(), n);
        let instances = &frame.instances[batch.instances.start as usize..batch.instances.end as usize];
        if id == ModelId(2) {
            // Traffic lights share one palette per phase, written before the lights: each
            // light points at the palette of its own pose.
            let lights =
                scene.world().query::<(hecs::Entity, &TrafficLight)>().iter().map(|(e, _)| e).collect::<Vec<_>>();
            assert_eq!(lights.len(), instances.len());
            for (entity, instance) in lights.into_iter().zip(instances) {
                let start = instance.palette_base as usize;
                assert!((base..base + 3 * palette_len).step_by(palette_len).any(|b| b == start), "a phase palette");
                let mut expected = vec![JointMatrix::IDENTITY; palette_len];
                m.traffic_light.model.write_palettes(&scene.pose_of(entity).expect("a prop"), &mut expected);
                assert_eq!(&frame.palettes[start..start + palette_len], &expected[..], "its own phase's palette");
            }
            base += 3 * palette_len;
            continue;
        }
        for instance in instances {
            assert_eq!(instance.palette_base as usize, base, "palettes back to back");
            base += palette_len;
        }
    }
    assert_eq!(base, frame.palettes.len());
    // Instances stand where their props are: windmills on the hills, the rest in town.
    let town = scene.terrain().flat_radius();
    for (k, instance) in frame.instances.iter().enumerate() {
        let t = instance.transform.to_affine().translation;
        let r = glam::Vec2::new(t.x, t.z).length();
        assert_eq!(k < counts.windmills, r > town, "instance {k} at {r} m from the centre");
    }
}

#[test]
fn steady_frames_do_not_grow_buffers() {
    let mut scene = scene(SceneConfig::default());
    let mut frame = FrameData::default();
    let mut lines = Vec::new();
    let frame_step = |scene: &mut props_scene::Scene, frame: &mut FrameData, lines: &mut Vec<_>| {
        scene.step(DT);
        frame.clear();
        lines.clear();
        scene.extract(frame);
        scene.road_lines(lines);
        scene.skeleton_lines(4, lines);
    };
    for _ in 0..5 {
        frame_step(&mut scene, &mut frame, &mut lines);
    }
    let capacities =
        |f: &FrameData, l: &Vec<_>| (f.palettes.capacity(), f.instances.capacity(), f.batches.capacity(), l.capacity());
    let warm = capacities(&frame, &lines);
    for _ in 0..100 {
        frame_step(&mut scene, &mut frame, &mut lines);
        assert_eq!(capacities(&frame, &lines), warm);
    }
    assert!(!lines.is_empty());
}
