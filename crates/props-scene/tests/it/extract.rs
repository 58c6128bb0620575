//! Extraction: one batch per model, every instance's palette the pose the general `Pose`
//! path gives its state (traffic lights sharing one per phase), culling that keeps what
//! reaches into view, no buffer growth in a steady scene.

use std::collections::HashMap;

use glam::{Affine3A, Vec3};
use hecs::Entity;
use props_anim::{JointMatrix, Model};
use props_crowd::PosingConfig;
use props_frame::{FrameData, InstanceData, ModelId};
use props_scene::{Scene, SceneConfig};

use crate::support::{DT, draw, scene};

/// The largest distance between where palettes `a` and `b` put any vertex of `model`, over
/// its size (its pose bound: no vertex of any pose is farther from its origin).
pub fn vertex_error(model: &Model, a: &[JointMatrix], b: &[JointMatrix]) -> f32 {
    let (a, b) = (posed_vertices(model, a), posed_vertices(model, b));
    let moved = a.iter().zip(&b).map(|(a, b)| a.distance(*b)).fold(0.0, f32::max);
    moved / model.pose_bounds().radius as f32
}

/// Every vertex of `model` posed by `palette` (model space).
fn posed_vertices(model: &Model, palette: &[JointMatrix]) -> Vec<Vec3> {
    let mut out = Vec::new();
    props_anim::skinning::model_positions(model, palette, &mut out);
    out
}

/// Every prop entity (of any kind) by the bits of its placement.
fn props_by_placement(scene: &Scene) -> HashMap<[u32; 12], Entity> {
    let key = |a: Affine3A| JointMatrix::from_affine(&a).to_array().map(f32::to_bits);
    let entities = scene.world().iter().map(|e| e.entity());
    entities.filter_map(|e| Some((key(scene.placement_of(e)?), e))).collect()
}

/// Checks every instance of `frame` against the reference pose of its prop; returns the
/// distinct palettes of each batch.
pub fn check_against_the_pose_path(scene: &Scene, frame: &FrameData, tolerance: f32) -> Vec<usize> {
    let models: HashMap<ModelId, &Model> = scene.crowds().map(|(prop, _, _)| (prop.id, &*prop.model)).collect();
    let props = props_by_placement(scene);
    let mut distinct = Vec::new();
    for batch in &frame.batches {
        let model = models[&batch.model];
        let len = model.palette_len();
        let instances = &frame.instances[batch.instances.start as usize..batch.instances.end as usize];
        let mut bases: Vec<u32> = instances.iter().map(|i| i.palette_base).collect();
        for instance in instances {
            let InstanceData { transform, palette_base, .. } = *instance;
            let entity = props[&transform.to_array().map(f32::to_bits)];
            let mut expected = vec![JointMatrix::IDENTITY; len];
            model.write_palettes(&scene.pose_of(entity).expect("a prop"), &mut expected);
            let start = palette_base as usize;
            let error = vertex_error(model, &frame.palettes[start..start + len], &expected);
            assert!(error <= tolerance, "model {:?}: an instance is {error} of the model's size off", batch.model);
        }
        bases.sort_unstable();
        bases.dedup();
        distinct.push(bases.len());
    }
    distinct
}

#[test]
fn every_instance_shows_the_pose_of_its_state() {
    // Exact: every prop posed for itself.
    let mut exact = scene(SceneConfig {
        posing: PosingConfig { sharing: None, ..PosingConfig::default() },
        ..SceneConfig::default()
    });
    let mut frame = FrameData::default();
    for _ in 0..30 {
        exact.step(DT);
    }
    draw(&mut exact, &mut frame);
    let counts: Vec<(&str, usize)> = exact.counts().collect();
    let (lights, lamps) = (exact.count("traffic_lights"), exact.roads().road_lanes().len());
    let houses = exact.roads().block_centres().len() * 4;
    let town = [("windmills", 300), ("cars", 40), ("traffic_lights", lights), ("foxes", 12), ("buses", 0)];
    let lot_and_after = [("street_lamps", lamps), ("houses", houses), ("pedestrians", 40), ("lot_models", 0)];
    assert_eq!(counts, [&town[..], &lot_and_after[..]].concat(), "the lot holds no model until a mod comes");
    let ids: Vec<ModelId> = frame.batches.iter().map(|b| b.model).collect();
    assert_eq!(ids, [0, 1, 2, 3, 5, 6, 7].map(ModelId), "one batch per model shown (no buses)");
    assert_eq!(frame.instances.len(), exact.instance_count(), "no camera: everything is drawn");
    let distinct = check_against_the_pose_path(&exact, &frame, 1e-5);
    assert_eq!(distinct, [300, 40, lights, 12, lamps, houses, 40], "a palette each");
    let stats = exact.animation_stats();
    assert_eq!(stats.posed, exact.instance_count());
    assert_eq!(stats.palette_matrices, frame.palettes.len());

    // Shared (the default): lights share one palette per phase exactly; the rest are within
    // the quantization of their states (1/60 s, 1/32 of a weight, one degree): two drivers
    // each off by at most half a degree move a point at most 2 * 0.0087 of its distance from
    // the origin, half a frame of a clip less than that.
    let mut shared = scene(SceneConfig::default());
    for _ in 0..30 {
        shared.step(DT);
    }
    draw(&mut shared, &mut frame);
    let distinct = check_against_the_pose_path(&shared, &frame, 0.02);
    assert!(distinct[2] <= 3, "traffic lights: one palette per phase, not {}", distinct[2]);
    assert_eq!((distinct[4], distinct[5]), (1, 1), "street lamps and houses: one palette for all");
    let stats = shared.animation_stats();
    assert!(stats.posed < exact.instance_count(), "sharing poses fewer: {}", stats.posed);
    assert_eq!(stats.palette_matrices, frame.palettes.len());
}

#[test]
fn what_the_camera_cannot_see_is_neither_posed_nor_drawn() {
    let mut scene = scene(SceneConfig {
        posing: PosingConfig { sharing: None, ..PosingConfig::default() },
        ..SceneConfig::default()
    });
    let mut frame = FrameData::default();
    // At the town's edge looking out over one side of the hills.
    let eye = Vec3::new(0.0, 30.0, 0.0);
    let camera = props_frame::Camera::look_at(eye, Vec3::new(400.0, 0.0, 0.0), 0.8, 16.0 / 9.0, (0.5, 5000.0));
    scene.set_camera(Some(camera));
    scene.step(DT);
    draw(&mut scene, &mut frame);
    let stats = scene.animation_stats();
    let total = scene.instance_count();
    assert_eq!(stats.visible, frame.instances.len());
    assert!(stats.visible > 0 && stats.visible < total / 2, "{} of {total} in view", stats.visible);
    check_against_the_pose_path(&scene, &frame, 1e-5);
    // Every prop any of whose vertices is in view is drawn: a prop's every vertex, in the
    // pose the general path gives, tested against the frustum.
    let models: HashMap<ModelId, &Model> = scene.crowds().map(|(prop, _, _)| (prop.id, &*prop.model)).collect();
    let drawn: std::collections::HashSet<[u32; 12]> =
        frame.instances.iter().map(|i| i.transform.to_array().map(f32::to_bits)).collect();
    let inside = |p: Vec3| {
        let c = camera.view_projection * p.extend(1.0);
        c.w > 0.0 && c.x.abs() <= c.w && c.y.abs() <= c.w && (0.0..=c.w).contains(&c.z)
    };
    let mut checked = 0;
    for (key, entity) in props_by_placement(&scene) {
        let model = models[&scene.model_of(entity).expect("a prop")];
        let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
        model.write_palettes(&scene.pose_of(entity).expect("a prop"), &mut palette);
        let placement = scene.placement_of(entity).expect("a prop");
        let seen = posed_vertices(model, &palette).into_iter().any(|p| inside(placement.transform_point3(p)));
        if seen {
            assert!(drawn.contains(&key), "a prop reaching into view was culled");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn steady_frames_do_not_grow_buffers() {
    let mut scene = scene(SceneConfig::default());
    let mut frame = FrameData::default();
    let mut lines = Vec::new();
    let frame_step = |scene: &mut Scene, frame: &mut FrameData, lines: &mut Vec<_>| {
        scene.step(DT);
        draw(scene, frame);
        lines.clear();
        scene.road_lines(lines);
        scene.skeleton_lines(4, lines);
    };
    for _ in 0..120 {
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

/// Every instance record and batch of one frame, as bits.
fn records(frame: &FrameData) -> (Vec<u32>, Vec<(ModelId, std::ops::Range<u32>)>) {
    let bits = frame
        .instances
        .iter()
        .flat_map(|i| {
            i.transform.to_array().map(f32::to_bits).into_iter().chain([i.palette_base, u32::from_le_bytes(i.tint)])
        })
        .collect();
    (bits, frame.batches.iter().map(|b| (b.model, b.instances.clone())).collect())
}

/// Enough props in view to be extracted in parts on the workers: on 2 and 3 threads the
/// frame's instance records and batches are those of one thread, bit for bit, though the
/// frame's buffer held garbage from before.
#[test]
fn extraction_in_parts_is_extraction_in_one() {
    let frame_on = |threads: usize| {
        let mut scene = scene(
            SceneConfig { posing: PosingConfig { threads, ..PosingConfig::default() }, ..SceneConfig::default() }
                .with_count("windmills", 12_000),
        );
        let mut frame = FrameData::default();
        let garbage = InstanceData { palette_base: u32::MAX, tint: [7; 4], ..InstanceData::default() };
        frame.instances.grow(2 * scene.instance_count()).fill(garbage);
        for _ in 0..3 {
            scene.step(DT);
            draw(&mut scene, &mut frame);
        }
        assert_eq!(frame.instances.len(), scene.instance_count(), "no camera: everything is drawn");
        records(&frame)
    };
    let one = frame_on(1);
    assert!(one.0.len() / 14 > 12_000, "more than a part's worth of instances");
    for threads in [2, 3] {
        assert!(frame_on(threads) == one, "{threads} threads differ from one");
    }
}
