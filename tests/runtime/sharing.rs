//! Pose sharing's error bound (`props_anim::runtime::Sharing`): every quantized time, weight and angle
//! is within half a step of the instance's own, a shared palette is exactly (to the fast
//! path's tolerance) the pose of the quantized state, and so it is within the bound of the
//! exact pose: a driver angle off by half a step moves a point `r` from the axis by at most
//! `r * step / 2`, a clip time off by half a step moves a point by at most half a step times
//! its speed. The bounds are checked against the general pose path on the demo's windmill and
//! on Fox.glb, and are shown to be approached (the test would notice rounding that is off).

use glam::Vec3;
use props_anim::clip::PlayMode;
use props_anim::{
    Driver, JointMatrix, Layer, Model, Pose, Spec, pose_state,
    runtime::Crowd,
    runtime::PaletteBuffer,
    runtime::Program,
    runtime::{Quantization, Sharing},
    skinning,
};
use props_bench::workload;

use crate::program::{TOLERANCE, vertex_error};

/// The palette of a state on the general path.
fn reference(model: &Model, spec: &Spec, layers: &[Layer], drivers: &[f32]) -> Vec<JointMatrix> {
    let rig = model.rig();
    let (mut pose, mut scratch) = (Pose::from_rest(rig), Pose::from_rest(rig));
    pose_state(model, spec, layers, drivers, &mut pose, &mut scratch);
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&pose, &mut palette);
    palette
}

#[test]
fn quantized_values_are_within_half_a_step() {
    let q = Quantization::default();
    let values = workload::phases(2000, 1.0, 11);
    for &x in &values {
        let (time, duration) = (x * 2.5, 2.5);
        assert!((q.quantize_time(time, duration) - time).abs() <= q.time * 0.5 + 1e-6);
        assert!(q.quantize_time(time, duration) <= duration);
        assert!((q.quantize_weight(x) - x).abs() <= q.weight * 0.5 + 1e-6);
        let angle = (x - 0.5) * 200.0;
        let off = (q.quantize_angle(angle) - angle).rem_euclid(std::f32::consts::TAU);
        let off = off.min(std::f32::consts::TAU - off);
        // Steps are shrunk so that a turn holds a whole number: never longer than asked for.
        assert!(off <= q.angle * 0.5 + 2e-5, "{angle}: off by {off}");
    }
}

/// Evaluates `states` in a crowd sharing as `sharing`; returns each instance's palette.
fn shared_palettes(
    program: &Program,
    layers: usize,
    sharing: Sharing,
    states: &[(Vec<Layer>, Vec<f32>)],
) -> Vec<Vec<JointMatrix>> {
    let mut crowd = Crowd::new(program, layers, sharing, 1.0, 1);
    for (i, (l, d)) in states.iter().enumerate() {
        crowd.push(Vec3::ZERO);
        crowd.layers_mut(i).copy_from_slice(l);
        crowd.drivers_mut(i).copy_from_slice(d);
    }
    let mut palettes = PaletteBuffer::default();
    crowd.update(program, None, 0, None, &mut palettes);
    let p = program.palette_len();
    crowd.visible().map(|(_, base)| palettes[base as usize..base as usize + p].to_vec()).collect()
}

/// The demo's windmill compiled as the scene drives it: nacelle yaw, rotor angle.
fn windmill() -> (Model, Spec, Program) {
    let model = workload::windmill();
    let node = |name| model.rig().find(name).expect("windmill node");
    let spec = Spec {
        drivers: vec![
            Driver { nodes: vec![node("nacelle")], axis: Vec3::Y },
            Driver { nodes: vec![node("hub")], axis: Vec3::NEG_Z },
        ],
        ..Spec::default()
    };
    let program = Program::new(&model, &spec);
    (model, spec, program)
}

#[test]
fn driver_angles_move_points_by_at_most_half_a_step_times_their_reach() {
    let (model, spec, program) = windmill();
    let rig = model.rig();
    let q = Quantization::default();
    let angles = workload::phases(400, std::f32::consts::TAU, 5);
    let states: Vec<(Vec<Layer>, Vec<f32>)> = angles.chunks(2).map(|a| (vec![], vec![a[0] - 3.0, a[1]])).collect();
    let shared = shared_palettes(&program, 0, Sharing::Quantized(q), &states);
    // How far a vertex gets from each driver's axis, over the exact poses.
    let radius = model.pose_bounds().radius as f32;
    let mut reach = [0.0f32; 2];
    let mut worst = 0.0f32;
    for ((layers, drivers), palette) in states.iter().zip(&shared) {
        let quantized = drivers.iter().map(|&a| q.quantize_angle(a)).collect::<Vec<_>>();
        let exact_of_quantized = reference(&model, &spec, layers, &quantized);
        assert!(
            vertex_error(&model, palette, &exact_of_quantized) <= TOLERANCE * radius,
            "the key's state is evaluated"
        );
        let exact = reference(&model, &spec, layers, drivers);
        worst = worst.max(vertex_error(&model, palette, &exact));
        let (mut pose, mut scratch) = (Pose::from_rest(rig), Pose::from_rest(rig));
        pose_state(&model, &spec, layers, drivers, &mut pose, &mut scratch);
        let mut vertices = Vec::new();
        skinning::model_positions(&model, &exact, &mut vertices);
        for (r, driver) in reach.iter_mut().zip(&spec.drivers) {
            let world = pose.world_matrix(driver.nodes[0]);
            let (origin, direction) = (Vec3::from(world.translation), world.transform_vector3(driver.axis).normalize());
            *r = vertices.iter().map(|&p| (p - origin).cross(direction).length()).fold(*r, f32::max);
        }
    }
    let bound = reach.iter().map(|r| r * q.angle * 0.5).sum::<f32>();
    assert!(worst <= bound, "{worst} m beyond the bound {bound} m");
    // Both angles are rounded, at most half a step each: the worst instance comes near (the
    // two reaches are not met by one vertex at once).
    assert!(worst >= 0.3 * bound, "{worst} m: the angles are hardly rounded (bound {bound} m)");
}

#[test]
fn clip_times_move_points_by_at_most_half_a_step_times_their_speed() {
    let fox = workload::fox();
    let clip = fox.find_clip("Run").expect("Run");
    let spec = Spec { clips: vec![clip], ..Spec::default() };
    let program = Program::new(&fox, &spec);
    let q = Quantization::default();
    let duration = program.duration(0);
    // The fastest any vertex moves, by the general path at 1/480 s steps.
    let h = 1.0 / 480.0;
    let at = |t: f32| reference(&fox, &spec, &[Layer::once(0, PlayMode::Loop.wrap(t, duration))], &[]);
    let speed = (0..(duration / h) as usize)
        .map(|k| vertex_error(&fox, &at(k as f32 * h), &at((k + 1) as f32 * h)) / h)
        .fold(0.0, f32::max);
    let bound = q.time * 0.5 * speed;
    let times = workload::phases(300, duration, 9);
    let states: Vec<(Vec<Layer>, Vec<f32>)> = times.iter().map(|&t| (vec![Layer::once(0, t)], vec![])).collect();
    let shared = shared_palettes(&program, 1, Sharing::Quantized(q), &states);
    let mut worst = 0.0f32;
    let radius = fox.pose_bounds().radius as f32;
    for ((layers, _), palette) in states.iter().zip(&shared) {
        let quantized = [Layer::once(0, q.quantize_time(layers[0].time, duration))];
        assert!(vertex_error(&fox, palette, &reference(&fox, &spec, &quantized, &[])) <= TOLERANCE * radius);
        worst = worst.max(vertex_error(&fox, palette, &reference(&fox, &spec, layers, &[])));
    }
    // Finite differences at 1/480 s see the speed to a few percent.
    assert!(worst <= 1.05 * bound, "{worst} beyond the bound {bound} (speed {speed} units/s)");
    assert!(worst >= 0.3 * bound, "{worst}: the times are hardly rounded (bound {bound})");
}

#[test]
fn far_from_the_camera_steps_coarsen_but_the_error_seen_stays_bounded() {
    let (model, spec, program) = windmill();
    let q = Quantization::default();
    let angles = workload::phases(600, std::f32::consts::TAU, 8);
    // Windmills in a line ahead of the camera, from 50 m to 6 km.
    let projection = glam::camera::rh::proj::directx::perspective(0.9, 1.0, 0.5, 10_000.0);
    let look = glam::camera::rh::view::look_at_mat4(Vec3::ZERO, Vec3::NEG_Z, Vec3::Y);
    let view =
        props_anim::runtime::View::new(Vec3::ZERO, projection * look, props_anim::runtime::UpdateRateLod::OFF, 0);
    let distance = |i: usize| 50.0 * 1.016f32.powi(i as i32);
    let mut crowd = Crowd::new(&program, 0, Sharing::Quantized(q), 30.0, 1);
    for (i, a) in angles.chunks(2).enumerate() {
        crowd.push(Vec3::new(0.0, 0.0, -distance(i)));
        crowd.drivers_mut(i).copy_from_slice(&[a[0] - 3.0, a[1]]);
    }
    let mut palettes = PaletteBuffer::default();
    crowd.update(&program, Some(&view), 0, None, &mut palettes);
    let radius = model.pose_bounds().radius as f32;
    let p = program.palette_len();
    let (mut worst_seen, mut worst_far) = (0.0f32, 0.0f32);
    for (i, base) in crowd.visible() {
        let level = q.level(distance(i));
        let coarse = q.at_level(level);
        let drivers = crowd.drivers(i);
        let quantized: Vec<f32> = drivers.iter().map(|&a| coarse.quantize_angle(a)).collect();
        let palette = &palettes[base as usize..base as usize + p];
        let of_quantized = reference(&model, &spec, &[], &quantized);
        assert!(vertex_error(&model, palette, &of_quantized) <= TOLERANCE * radius, "level {level}: the key's state");
        let error = vertex_error(&model, palette, &reference(&model, &spec, &[], drivers));
        // Every point is within `radius` of the origin, so within 2 radius of either axis:
        // off by at most 2 radius * step / 2 per driver at its level.
        assert!(error <= 2.0 * radius * coarse.angle, "level {level}: {error}");
        worst_seen = worst_seen.max(error / distance(i));
        if level == props_anim::runtime::MAX_COARSENING {
            worst_far = worst_far.max(error);
        }
    }
    assert_eq!(crowd.visible().len(), 300);
    // Seen from the camera, the error is what the base step gives at `coarsen_beyond`.
    let bound = 2.0 * radius * q.angle / q.coarsen_beyond;
    assert!(worst_seen <= bound, "{worst_seen} rad of view beyond {bound}");
    // And the far ones are coarser: more than the finest step could make.
    assert!(worst_far > 2.0 * radius * q.angle, "{worst_far}: far steps are not coarser");
}

#[test]
fn a_layer_that_decides_the_pose_hides_the_layers_beneath_it() {
    let fox = workload::fox();
    let clip = |name| fox.find_clip(name).expect(name);
    let head = fox.rig().find("b_Neck_04").expect("the fox's neck");
    let spec = Spec {
        clips: vec![clip("Walk"), clip("Survey")],
        masks: vec![props_anim::Mask::subtree(fox.rig(), head)],
        ..Spec::default()
    };
    let program = Program::new(&fox, &spec);
    let radius = fox.pose_bounds().radius as f32;
    // Whole steps of the quantization apart (1/60 s): each instance is keyed at its own state.
    let walks: Vec<f32> = (0..20).map(|k| (2 * k) as f32 * (1.0 / 60.0)).collect();
    assert!(walks[19] < program.duration(0));
    // Each fox stands (Survey over everything at `over`) over the walk it stopped in.
    let standing = |over: Layer| -> Vec<(Vec<Layer>, Vec<f32>)> {
        walks.iter().map(|&t| (vec![Layer::once(0, t), over], vec![])).collect()
    };
    // Palettes evaluated for `states` (each checked against its own pose).
    let distinct = |sharing: Sharing, states: &[(Vec<Layer>, Vec<f32>)]| {
        let mut crowd = Crowd::new(&program, 2, sharing, 1.0, 1);
        for (i, (layers, _)) in states.iter().enumerate() {
            crowd.push(Vec3::ZERO);
            crowd.layers_mut(i).copy_from_slice(layers);
        }
        let mut palettes = PaletteBuffer::default();
        crowd.update(&program, None, 0, None, &mut palettes);
        let p = program.palette_len();
        for (i, base) in crowd.visible() {
            let palette = &palettes[base as usize..base as usize + p];
            let error = vertex_error(&fox, palette, &reference(&fox, &spec, &states[i].0, &[]));
            assert!(error <= TOLERANCE * radius, "{:?}: {error}", states[i].0);
        }
        crowd.visible().map(|(_, base)| base).collect::<std::collections::HashSet<_>>().len()
    };
    let full = Layer::once(1, 1.0);
    for sharing in [Sharing::Exact, Sharing::Quantized(Quantization::default())] {
        // The walks beneath a full, unmasked replacing layer change nothing: one pose.
        assert_eq!(distinct(sharing, &standing(full)), 1, "{sharing:?}");
        // Beneath a layer at half weight, or masked to the head, each walk shows.
        assert_eq!(distinct(sharing, &standing(Layer { weight: 0.5, ..full })), walks.len(), "{sharing:?}");
        assert_eq!(distinct(sharing, &standing(Layer { mask: 0, ..full })), walks.len(), "{sharing:?}");
        // And additive on top: the walk it adds to shows.
        let additive = Layer { blend: props_anim::Blend::Additive, ..full };
        assert_eq!(distinct(sharing, &standing(additive)), walks.len(), "{sharing:?}");
    }
}

/// A clip covers the layers below only if it animates every property theirs do: the car's
/// `brake` (its brake lights) leaves `night`'s headlights showing, `night` (both) hides
/// `brake`.
#[test]
fn a_layer_hides_the_layers_beneath_only_if_it_animates_their_properties() {
    let car = props_gltf::import_file(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/car.glb"),
        &props_gltf::Limits::default(),
    )
    .expect("car.glb imports")
    .model;
    let clip = |name: &str| car.find_clip(name).expect(name);
    let weights = [0.25, 0.5, 0.75, 1.0];
    let palettes = |below: &str, over: &str| {
        let spec = Spec { clips: vec![clip(below), clip(over)], ..Spec::default() };
        let program = Program::new(&car, &spec);
        let mut crowd = Crowd::new(&program, 2, Sharing::Exact, 1.0, 1);
        for (i, &weight) in weights.iter().enumerate() {
            crowd.push(Vec3::ZERO);
            crowd.layers_mut(i).copy_from_slice(&[Layer { weight, ..Layer::once(0, 0.0) }, Layer::once(1, 0.0)]);
        }
        let mut palettes = PaletteBuffer::default();
        crowd.update(&program, None, 0, None, &mut palettes);
        crowd.visible().map(|(_, base)| base).collect::<std::collections::HashSet<_>>().len()
    };
    assert_eq!(palettes("night", "brake"), weights.len(), "the headlights show beneath the brake lights");
    assert_eq!(palettes("brake", "night"), 1, "night animates the brake lights too");
}
