//! Foxes: the gaits follow the speed (the run blended over the walk by where the speed lies
//! between their own speeds, measured from the clips), standing still and moving off crossfade
//! with the idle clip without a pop, and update-rate LOD poses far foxes less often, culling
//! unseen ones, without changing how they move; the CPU budget stretches the far rates, never
//! the near ones.

use hecs::Entity;
use props_anim::gait::Gaits;
use props_anim::{JointMatrix, runtime::UpdateRateLod};
use props_crowd::PosingConfig;
use props_crowd::gaited::{FADE_TIME, Gait, GaitState};
use props_frame::FrameData;
use props_scene::kinds::foxes::Fox;
use props_scene::{Scene, SceneConfig};

use crate::support::{DT, draw, scene};

/// Palette length of the synthetic fox: 7 joints and the skinned mesh's node slot.
const FOX_PALETTE: usize = 8;

/// Each fox's palette (model space), in world order.
fn palettes(scene: &mut Scene, frame: &mut FrameData) -> Vec<Vec<JointMatrix>> {
    draw(scene, frame);
    let Some(batch) = frame.batches.iter().find(|b| b.model == props_frame::ModelId(3)) else { return Vec::new() };
    frame.instances[batch.instances.start as usize..batch.instances.end as usize]
        .iter()
        .map(|i| frame.palettes[i.palette_base as usize..i.palette_base as usize + FOX_PALETTE].to_vec())
        .collect()
}

fn largest_change(a: &[JointMatrix], b: &[JointMatrix]) -> f32 {
    a.iter()
        .zip(b)
        .flat_map(|(a, b)| a.to_array().into_iter().zip(b.to_array()).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f32::max)
}

/// The stand-in fox's walking and running speeds, m/s: what its clips' strides measure.
fn stand_in_speeds() -> [f32; 2] {
    let model = props_scene::kinds::foxes::stand_in().expect("fox");
    let clips = ["Walk", "Run"].map(|name| model.find_clip(name).expect("clip"));
    let gaits = Gaits::new(&model, &clips).expect("strides");
    [gaits.stride(0).speed, gaits.stride(1).speed]
}

#[test]
fn gaits_follow_the_speed_and_standing_crossfades_without_a_pop() {
    let mut scene = scene(
        SceneConfig { seed: 21, ..SceneConfig::default() }
            .with_count("foxes", 12)
            .with_count("cars", 0)
            .with_count("windmills", 0),
    );
    let [walk, run] = stand_in_speeds();
    // The walk's feet step 1 m/s; the run's 2.07, less where its pitching spine carries the
    // front feet forward while planted.
    assert!((walk - 1.0).abs() < 0.02 && (1.5..2.1).contains(&run), "{walk} {run}: the stand-in's strides");
    let mut frame = FrameData::default();
    let foxes: Vec<Entity> = scene.world().query::<(Entity, &Fox)>().iter().map(|(e, _)| e).collect();
    // Per fox: gait, run weight, idle weight, speed.
    let state = |scene: &Scene| -> Vec<(Gait, f32, f32, f32)> {
        foxes
            .iter()
            .map(|&e| {
                let gait = scene.world().get::<&GaitState>(e).expect("gait");
                let speed = scene.world().get::<&Fox>(e).expect("fox").speed();
                (gait.gait(), gait.run_weight(), gait.idle_weight(), speed)
            })
            .collect()
    };
    let mut previous = state(&scene);
    let mut previous_palettes = palettes(&mut scene, &mut frame);
    let (mut stands, mut runs) = (0, 0);
    let mut steady_change = 0.0_f32;
    let mut fading_change = 0.0_f32;
    for step in 0..60 * 90 {
        scene.step(DT);
        let now = state(&scene);
        let now_palettes = palettes(&mut scene, &mut frame);
        for (f, ((was, is), (pa, pb))) in
            previous.iter().zip(&now).zip(previous_palettes.iter().zip(&now_palettes)).enumerate()
        {
            let change = largest_change(pa, pb);
            let (gait, run_weight, idle, speed) = *is;
            // The run's weight rises across the middle of the way from the walk's speed to the
            // run's.
            let way = (speed - walk) / (run - walk);
            let expected = ((way - 0.5) / props_anim::gait::BLEND_BAND + 0.5).clamp(0.0, 1.0);
            assert!(
                (run_weight - expected).abs() < 1e-3,
                "step {step}: fox {f} run weight {run_weight} at {speed} m/s"
            );
            // The idle clip fades in and out over the fade time, never faster.
            assert!((idle - was.2).abs() <= DT / FADE_TIME + 1e-5, "step {step}: fox {f} idle {} to {idle}", was.2);
            if gait == Gait::Idle && was.0 != Gait::Idle {
                stands += 1;
                assert!(speed < 0.15, "step {step}: fox {f} stands at {speed} m/s");
            }
            if was.0 == Gait::Idle && gait != Gait::Idle {
                assert_eq!(gait, Gait::Walk, "step {step}: a standing fox walks off");
            }
            if run_weight >= 1.0 && was.1 < 1.0 {
                runs += 1;
            }
            if (idle > 0.0 && idle < 1.0) || (was.2 > 0.0 && was.2 < 1.0) {
                fading_change = fading_change.max(change);
            } else {
                steady_change = steady_change.max(change);
            }
        }
        previous = now;
        previous_palettes = now_palettes;
    }
    assert!(runs >= 2, "foxes broke into a full run {runs} times in 90 s");
    assert!(stands >= 2, "foxes stood still {stands} times in 90 s");
    // No pop: while fading, the pose moves per step about as much as when settled, far less
    // than switching clips outright would.
    let hard = hard_switch_pop();
    assert!(fading_change <= 2.0 * steady_change, "fading {fading_change} vs steady {steady_change}");
    assert!(fading_change < 0.5 * hard, "fading {fading_change} vs a hard switch {hard}");
}

/// The largest one-step change a hard switch between Walk and Run would make: both clips
/// sampled at the same instant, over a second of instants.
fn hard_switch_pop() -> f32 {
    let model = props_scene::kinds::foxes::stand_in().expect("fox");
    let rig = model.rig();
    let clip = |name| &model.clips()[model.find_clip(name).expect("clip")];
    let palette = |name, time| {
        let mut pose = props_anim::Pose::from_rest(rig);
        clip(name).sample(time, &mut pose);
        pose.compute_world(rig);
        let mut out = vec![JointMatrix::IDENTITY; model.palette_len()];
        model.write_palettes(&pose, &mut out);
        out
    };
    (0..20)
        .map(|k| k as f32 * 0.05)
        .map(|t| largest_change(&palette("Walk", t), &palette("Run", t)))
        .fold(0.0, f32::max)
}

/// A camera at `eye` looking at `target`.
fn camera(eye: glam::Vec3, target: glam::Vec3) -> props_frame::Camera {
    props_frame::Camera::look_at(eye, target, 0.8, 16.0 / 9.0, (0.5, 5000.0))
}

/// For `frames` frames of a step each, per fox drawn: in how many its palette changed.
fn pose_changes(scene: &mut Scene, frames: usize) -> Vec<usize> {
    let mut frame = FrameData::default();
    let mut previous = palettes(scene, &mut frame);
    let mut changes = vec![0; previous.len()];
    for _ in 0..frames {
        scene.step(DT);
        let now = palettes(scene, &mut frame);
        assert_eq!(now.len(), previous.len());
        for (count, (a, b)) in changes.iter_mut().zip(previous.iter().zip(&now)) {
            *count += usize::from(a != b);
        }
        previous = now;
    }
    changes
}

/// Foxes only, every one posed exactly (no sharing), with `lod`.
fn foxes(lod: UpdateRateLod, budget: Option<f32>) -> Scene {
    let config = SceneConfig {
        seed: 4,
        posing: PosingConfig { sharing: None, lod, animation_budget_ms: budget, ..PosingConfig::default() },
        ..SceneConfig::default()
    }
    .with_count("foxes", 12)
    .with_count("cars", 0)
    .with_count("windmills", 0);
    scene(config)
}

#[test]
fn update_rate_lod_poses_far_foxes_every_few_frames_culls_unseen_ones_and_changes_nothing_else() {
    let lod = UpdateRateLod { near: 1000.0, far: 2000.0, ..UpdateRateLod::default() };
    let [mut plain, mut near, mut away] = [0; 3].map(|_| foxes(lod, None));
    // High above the town looking down at it: every fox in view, at 400 m or so.
    let (above, centre) = (glam::Vec3::new(0.0, 400.0, 1.0), glam::Vec3::ZERO);
    near.set_camera(Some(camera(above, centre)));
    let mut mid = foxes(UpdateRateLod { near: 10.0, ..lod }, None);
    mid.set_camera(Some(camera(above, centre)));
    // Far out, looking away from the town: every fox out of view.
    away.set_camera(Some(camera(glam::Vec3::new(0.0, 10.0, 3000.0), glam::Vec3::new(0.0, 10.0, 6000.0))));
    let frames = 8 * 30;
    let every = pose_changes(&mut plain, frames);
    assert_eq!(every, vec![frames; 12], "without a camera every fox is posed every frame");
    assert_eq!(pose_changes(&mut near, frames), every, "near and in view: every frame");
    assert_eq!(pose_changes(&mut mid, frames), vec![frames / 2; 12], "in view, mid distance: every 2nd frame");
    assert!(pose_changes(&mut away, frames).is_empty(), "out of view: not drawn");
    assert_eq!(away.animation_stats().posed, 0, "out of view: not posed");
    assert_eq!(away.animation_stats().visible, 0);
    let stats = mid.animation_stats();
    assert_eq!(stats.visible, mid.instance_count(), "foxes and traffic lights");
    assert_eq!(stats.deferred + stats.posed, stats.visible);
    // Only poses are skipped: the foxes walk and run exactly as without a camera.
    let state = |scene: &Scene| -> Vec<(glam::Vec2, f32)> {
        scene.world().query::<&Fox>().iter().map(|f| (f.position(), f.speed())).collect()
    };
    assert_eq!(state(&plain), state(&away));
    assert_eq!(state(&plain), state(&mid));
    // A pose, when due, is the pose without a camera at that frame: every fox is due once in
    // two frames, so over two frames each one's palette equals the plain scene's once.
    let mut frame = FrameData::default();
    let mut matched = [0usize; 12];
    for _ in 0..2 {
        plain.step(DT);
        mid.step(DT);
        let (a, b) = (palettes(&mut plain, &mut frame), palettes(&mut mid, &mut frame));
        for (m, (a, b)) in matched.iter_mut().zip(a.iter().zip(&b)) {
            *m += usize::from(a == b);
        }
    }
    assert_eq!(matched, [1; 12]);
}

#[test]
fn the_budget_stretches_far_rates_only_while_over_and_never_touches_near_foxes() {
    let (above, centre) = (glam::Vec3::new(0.0, 400.0, 1.0), glam::Vec3::ZERO);
    // Every fox at mid distance: posed every 2nd frame without pressure.
    let mut scene = foxes(UpdateRateLod { near: 10.0, far: 2000.0, ..UpdateRateLod::default() }, Some(1.0));
    scene.set_camera(Some(camera(above, centre)));
    let mut frame = FrameData::default();
    for _ in 0..props_anim::runtime::MAX_PRESSURE {
        scene.step(DT);
        draw(&mut scene, &mut frame);
        scene.record_animation_time(5.0);
    }
    // Full pressure: every 2 * 2^4 = 32nd frame. The traffic lights (in view, as far) too.
    let (frames, props) = (64, scene.instance_count());
    let mut posed = 0;
    for _ in 0..frames {
        scene.step(DT);
        draw(&mut scene, &mut frame);
        let stats = scene.animation_stats();
        assert_eq!(stats.pressure, props_anim::runtime::MAX_PRESSURE);
        assert_eq!(stats.visible, props, "deferred props are still drawn");
        posed += stats.posed;
        scene.record_animation_time(5.0);
    }
    assert_eq!(posed, props * frames / 32);
    // Under budget the pressure eases off.
    for _ in 0..props_anim::runtime::MAX_PRESSURE {
        scene.record_animation_time(0.1);
    }
    scene.step(DT);
    draw(&mut scene, &mut frame);
    assert_eq!(scene.animation_stats().pressure, 0);

    // Near foxes are posed every frame whatever the pressure.
    let mut near = foxes(UpdateRateLod { near: 1000.0, far: 2000.0, ..UpdateRateLod::default() }, Some(1.0));
    near.set_camera(Some(camera(above, centre)));
    for _ in 0..props_anim::runtime::MAX_PRESSURE {
        near.record_animation_time(5.0);
    }
    for _ in 0..8 {
        near.step(DT);
        draw(&mut near, &mut frame);
        assert_eq!(near.animation_stats().posed, near.instance_count());
        assert_eq!(near.animation_stats().pressure, props_anim::runtime::MAX_PRESSURE);
    }
}
