//! Windmills: rotors follow the wind speed, nacelles turn into the wind, the layout grows and
//! shrinks at its outer edge.

use std::f32::consts::{PI, TAU};

use glam::{Quat, Vec3};
use hecs::Entity;
use props_anim::JointMatrix;
use props_crowd::PosingConfig;
use props_scene::kinds::windmills::{Windmill, WindmillState, Windmills, rotor_speed_for};
use props_scene::{Scene, SceneConfig, WindConfig};

use crate::support::{DT, draw, scene, windmill_count, windmill_state};

const WIND_FROM: f32 = 0.7;

fn windy(speed: f32) -> Scene {
    let config = SceneConfig { seed: 5, wind: WindConfig::steady(speed, WIND_FROM), ..SceneConfig::default() }
        .with_count("windmills", 24)
        .with_count("cars", 0)
        .with_count("foxes", 0);
    scene(config)
}

/// Every windmill, in layout order, with how it moves.
fn mills(scene: &Scene) -> Vec<(Windmill, WindmillState)> {
    let mut mills: Vec<(Entity, Windmill)> =
        scene.world().query::<(Entity, &Windmill)>().iter().map(|(e, m)| (e, *m)).collect();
    mills.sort_by_key(|(_, m)| m.index());
    mills.into_iter().map(|(e, m)| (m, windmill_state(scene, e).expect("a windmill moves"))).collect()
}

fn angle_between(a: f32, b: f32) -> f32 {
    (a - b + PI).rem_euclid(TAU) - PI
}

/// Steps `seconds` and returns how far each rotor turned, radians.
fn run(scene: &mut Scene, seconds: f32) -> Vec<f32> {
    let mut turned = vec![0.0; windmill_count(scene)];
    let mut previous = mills(scene);
    for _ in 0..(seconds / DT) as usize {
        scene.step(DT);
        let now = mills(scene);
        for ((t, a), b) in turned.iter_mut().zip(&previous).zip(&now) {
            *t += (b.1.rotor_angle - a.1.rotor_angle).rem_euclid(TAU);
        }
        previous = now;
    }
    turned
}

#[test]
fn rotors_turn_faster_in_stronger_wind() {
    let (mut calm, mut strong) = (windy(5.0), windy(11.0));
    let (slow, fast) = (run(&mut calm, 40.0), run(&mut strong, 40.0));
    for (i, (s, f)) in slow.iter().zip(&fast).enumerate() {
        assert!(*s > 1.0, "windmill {i} turned {s} rad in a 5 m/s wind");
        assert!(*f > s * 1.8, "windmill {i}: {f} rad at 11 m/s vs {s} at 5 m/s");
    }
    // After eight inertia time constants the rotors run at the wind's speed.
    for (scene, wind) in [(&calm, 5.0), (&strong, 11.0)] {
        for (_, mill) in mills(scene) {
            let target = rotor_speed_for(wind);
            assert!((mill.rotor_speed - target).abs() < 0.01 * target, "{} vs {target}", mill.rotor_speed);
        }
    }
    // No wind below cut-in: the rotors stay still.
    let mut still = windy(1.0);
    assert!(run(&mut still, 5.0).iter().all(|t| *t == 0.0));
}

#[test]
fn nacelles_turn_into_the_wind_and_the_hub_turns_with_the_rotor_angle() {
    let mut scene = windy(8.0);
    let mut errors: Vec<f32> = mills(&scene).iter().map(|(_, m)| angle_between(WIND_FROM, m.yaw).abs()).collect();
    assert!(errors.iter().any(|e| *e > 0.5), "start headings are random");
    for _ in 0..60 * 12 {
        scene.step(DT);
        for (e, (_, m)) in errors.iter_mut().zip(mills(&scene)) {
            let now = angle_between(WIND_FROM, m.yaw).abs();
            assert!(now <= *e + 1e-5, "the nacelle turned away from the wind");
            *e = now;
        }
    }
    assert!(errors.iter().all(|e| *e < 1e-3), "all facing the wind: {errors:?}");

    let model = props_scene::kinds::windmills::stand_in().expect("windmill");
    let (nacelle, hub) = (model.rig().find("nacelle").expect("nacelle"), model.rig().find("hub").expect("hub"));
    let entities: Vec<Entity> = scene.world().query::<(Entity, &Windmill)>().iter().map(|(e, _)| e).collect();
    for entity in entities {
        let mill = windmill_state(&scene, entity).expect("a windmill moves");
        let pose = scene.pose_of(entity).expect("a windmill has a pose");
        // The nacelle keeps its rest translation on top of the tower; only its yaw changes.
        let n = pose.local_transform(nacelle);
        assert!((n.translation - Vec3::new(0.0, 14.0, 0.0)).length() < 1e-6);
        let facing = pose.world_matrix(nacelle).transform_vector3(Vec3::Z);
        assert!((facing - Vec3::new(mill.yaw.sin(), 0.0, mill.yaw.cos())).length() < 1e-4);
        // The hub turns clockwise seen from the front, by the rotor angle.
        let up = pose.local_transform(hub).rotation * Vec3::Y;
        let expected = Vec3::new(mill.rotor_angle.sin(), mill.rotor_angle.cos(), 0.0);
        assert!((up - expected).length() < 1e-4, "{up} vs {expected}");
    }
}

/// Adds up to `count` windmills through the kind; how many were added.
fn add(scene: &mut Scene, count: usize) -> usize {
    scene
        .with_kind(|mills: &mut Windmills, world, town, props| mills.add(world, town, props, count))
        .expect("windmills")
}

/// Removes up to `count` windmills through the kind; how many were removed.
fn remove(scene: &mut Scene, count: usize) -> usize {
    scene.with_kind(|mills: &mut Windmills, world, _, props| mills.remove(world, props, count)).expect("windmills")
}

/// Radius of the outermost windmill ring.
fn extent(scene: &Scene) -> f32 {
    scene.kind::<Windmills>().expect("windmills").extent(scene.world())
}

#[test]
fn windmills_are_added_and_removed_at_the_outer_edge() {
    let mut scene =
        scene(SceneConfig::default().with_count("windmills", 100).with_count("cars", 0).with_count("foxes", 0));
    let before = mills(&scene);
    let ring = extent(&scene);
    assert_eq!(add(&mut scene, 50), 50);
    assert_eq!(windmill_count(&scene), 150);
    assert!(extent(&scene) >= ring);
    let grown: Vec<(Windmill, WindmillState)> = mills(&scene);
    assert_eq!(&grown[..100], &before[..], "the first hundred stand and move as they did");
    assert_eq!(remove(&mut scene, 70), 70);
    let shrunk = mills(&scene);
    assert_eq!(shrunk.len(), 80);
    assert_eq!(&shrunk[..], &grown[..80], "the newest went first; the others keep how they move");
    assert_eq!(remove(&mut scene, 1000), 80);
    assert_eq!(scene.count("windmills"), 0);
    // Sites are spaced out on the hills.
    let spacing = scene.config().windmill_spacing;
    for (i, (a, _)) in grown.iter().enumerate() {
        assert!(scene.terrain().height(a.site()) > 0.0, "windmill {i} stands on the hills");
        for (b, _) in &grown[i + 1..] {
            assert!(a.site().distance(b.site()) > 0.4 * spacing, "windmills {} and {} crowd", a.index(), b.index());
        }
    }
}

#[test]
fn a_hundred_thousand_windmills() {
    let mut scene = scene(
        SceneConfig::default()
            .with_count("windmills", props_scene::kinds::windmills::MAX_WINDMILLS)
            .with_count("cars", 0)
            .with_count("foxes", 0),
    );
    assert_eq!(windmill_count(&scene), 100_000);
    assert_eq!(add(&mut scene, 10), 0, "never beyond the maximum");
    scene.step(DT);
    let mut frame = props_frame::FrameData::default();
    draw(&mut scene, &mut frame);
    assert_eq!(frame.instances.len(), scene.instance_count());
}

/// How far palette `b` puts every vertex of `model` from where palette `a` puts it, matrix by
/// matrix.
fn moved_distances<'a>(
    model: &'a props_anim::Model,
    a: &'a [JointMatrix],
    b: &'a [JointMatrix],
) -> impl Iterator<Item = f32> + 'a {
    let points = model.meshes().iter().flat_map(|m| &m.primitives).flat_map(|p| &p.positions);
    a.iter().zip(b).flat_map(move |(a, b)| {
        let (a, b) = (a.to_affine(), b.to_affine());
        points.clone().map(move |&p| a.transform_point3(p).distance(b.transform_point3(p)))
    })
}

/// The angle of the rotation from `b` to `a`, accurate for small angles too.
fn rotation_angle(a: Quat, b: Quat) -> f32 {
    2.0 * (a * b.inverse()).xyz().length().min(1.0).asin()
}

#[test]
fn shared_windmill_poses_round_the_angles_by_at_most_half_a_step() {
    // A steady wind: after the nacelles have turned into it (at most pi / YAW_RATE seconds),
    // all face one way and the windmills differ only by their rotor angles.
    let config = SceneConfig { seed: 9, wind: WindConfig::steady(9.0, WIND_FROM), ..SceneConfig::default() }
        .with_count("windmills", 2000)
        .with_count("cars", 0)
        .with_count("foxes", 0);
    let step = config.posing.sharing.expect("props share poses by default").angle;
    let mut scene = scene(config);
    for _ in 0..(11.0 / DT) as usize {
        scene.step(DT);
    }
    let mut frame = props_frame::FrameData::default();
    draw(&mut scene, &mut frame);
    let model = props_scene::kinds::windmills::stand_in().expect("synthetic windmill");
    let len = model.palette_len();
    let batch = &frame.batches[0];
    let instances = &frame.instances[batch.instances.start as usize..batch.instances.end as usize];
    let mills: Vec<Entity> = scene.world().query::<(Entity, &Windmill)>().iter().map(|(e, _)| e).collect();
    assert_eq!(mills.len(), instances.len());
    let mut bases: Vec<u32> = instances.iter().map(|i| i.palette_base).collect();
    // The rotations of the nacelle's and the hub's meshes, as their palette slots hold them.
    let slot = |name| {
        let node = model.rig().find(name).expect("driven node");
        model.node_slot(model.instances().iter().position(|i| i.node == node).expect("a mesh on the node"))
    };
    let (nacelle, hub) = (slot("nacelle"), slot("hub"));
    let rotations = |palette: &[JointMatrix]| {
        let rotation = |k: usize| Quat::from_mat3a(&palette[k].to_affine().matrix3);
        let n = rotation(nacelle);
        (n, n.inverse() * rotation(hub))
    };
    let (mut worst_yaw, mut worst_rotor) = (0.0f32, 0.0f32);
    for (&entity, instance) in mills.iter().zip(instances) {
        let placement = scene.placement_of(entity).expect("a windmill");
        assert_eq!(instance.transform, JointMatrix::from_affine(&placement), "instances in windmill order");
        let mut exact = vec![JointMatrix::IDENTITY; len];
        model.write_palettes(&scene.pose_of(entity).expect("a windmill"), &mut exact);
        let start = instance.palette_base as usize;
        let (shared_yaw, shared_rotor) = rotations(&frame.palettes[start..start + len]);
        let (exact_yaw, exact_rotor) = rotations(&exact);
        // Each angle is rounded to the nearest step: off by at most half a step.
        worst_yaw = worst_yaw.max(rotation_angle(shared_yaw, exact_yaw));
        worst_rotor = worst_rotor.max(rotation_angle(shared_rotor, exact_rotor));
    }
    assert!(worst_yaw <= 0.5 * step + 1e-5 && worst_rotor <= 0.5 * step + 1e-5, "{worst_yaw} {worst_rotor}");
    // 2000 rotor angles spread over the turn: some fall close to half-way between steps.
    assert!(worst_rotor > 0.4 * step, "the rotor angles are rounded: {worst_rotor}");
    bases.sort_unstable();
    bases.dedup();
    // One yaw, at most one palette per rotor step: 2000 windmills share at most 360 palettes.
    assert!(bases.len() <= 360, "{} palettes", bases.len());
    // The windmills' palettes come first, back to back, and the counts see the sharing.
    assert_eq!(bases, (0..bases.len() as u32).map(|k| k * len as u32).collect::<Vec<_>>());
    assert_eq!(scene.animation_stats().palette_matrices, frame.palettes.len());
}

#[test]
fn exact_windmill_poses_are_the_poses() {
    let config =
        SceneConfig { posing: PosingConfig { sharing: None, ..PosingConfig::default() }, ..SceneConfig::default() }
            .with_count("windmills", 50)
            .with_count("cars", 0)
            .with_count("foxes", 0);
    let mut scene = scene(config);
    scene.step(DT);
    let mut frame = props_frame::FrameData::default();
    draw(&mut scene, &mut frame);
    let model = props_scene::kinds::windmills::stand_in().expect("synthetic windmill");
    let len = model.palette_len();
    let mills: Vec<Entity> = scene.world().query::<(Entity, &Windmill)>().iter().map(|(e, _)| e).collect();
    for (k, &entity) in mills.iter().enumerate() {
        let mut exact = vec![JointMatrix::IDENTITY; len];
        model.write_palettes(&scene.pose_of(entity).expect("a windmill"), &mut exact);
        let start = frame.instances[k].palette_base as usize;
        assert_eq!(start, k * len, "a palette per windmill");
        assert_eq!(
            frame.instances[k].transform,
            JointMatrix::from_affine(&scene.placement_of(entity).expect("placed"))
        );
        let moved = moved_distances(&model, &exact, &frame.palettes[start..start + len]).fold(0.0, f32::max);
        assert!(moved < 1e-4, "windmill {k} moved {moved} m");
    }
    // Palettes are written four at a time: the last batch is padded; the lights' follow.
    assert_eq!(scene.animation_stats().palette_matrices, frame.palettes.len());
    assert_eq!(frame.instances[mills.len()].palette_base as usize, 52 * len);
}
