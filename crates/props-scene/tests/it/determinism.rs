//! The same seed gives bitwise the same scene, whatever the number of threads stepping and
//! posing it; another seed a different one.

use props_crowd::PosingConfig;
use props_frame::FrameData;
use props_scene::kinds::foxes::Fox;
use props_scene::kinds::windmills::Windmill;
use props_scene::{Scene, SceneConfig, town::traffic::Vehicle};

use crate::support::{DT, draw, scene_with_buses, windmill_state};

/// Every simulated number and every palette and instance matrix, as bits.
fn fingerprint(scene: &mut Scene) -> Vec<u32> {
    let mut bits = Vec::new();
    for car in scene.world().query::<&Vehicle>().iter() {
        bits.extend([car.lane().0, car.next_lane().0, car.position().to_bits(), car.speed().to_bits()]);
    }
    let mills: Vec<hecs::Entity> = scene.world().query::<(hecs::Entity, &Windmill)>().iter().map(|(e, _)| e).collect();
    for state in mills.into_iter().filter_map(|e| windmill_state(scene, e)) {
        bits.extend([state.yaw.to_bits(), state.rotor_angle.to_bits(), state.rotor_speed.to_bits()]);
    }
    for fox in scene.world().query::<&Fox>().iter() {
        bits.extend([fox.position().x.to_bits(), fox.position().y.to_bits(), fox.speed().to_bits()]);
    }
    let mut frame = FrameData::default();
    draw(scene, &mut frame);
    bits.extend(frame.palettes.iter().flat_map(|m| m.to_array().map(f32::to_bits)));
    bits.extend(frame.instances.iter().flat_map(|i| i.transform.to_array().map(f32::to_bits)));
    bits
}

fn run_on(seed: u64, steps: usize, threads: usize, sharing: Option<props_anim::runtime::Quantization>) -> Vec<u32> {
    // Buses too: their kind and the cars' step after the traffic, in one group of systems.
    let mut scene = scene_with_buses(
        SceneConfig {
            seed,
            posing: PosingConfig { threads, sharing, ..PosingConfig::default() },
            ..SceneConfig::default()
        }
        .with_count("windmills", 400),
        3,
    );
    let mut frame = FrameData::default();
    for _ in 0..steps {
        scene.step(DT);
        // Posed every frame, as the game does (the runtime keeps no state that changes the
        // simulation, but a frame's palettes must not depend on the frames before either).
        draw(&mut scene, &mut frame);
    }
    fingerprint(&mut scene)
}

fn run(seed: u64, steps: usize) -> Vec<u32> {
    run_on(seed, steps, 1, PosingConfig::default().sharing)
}

#[test]
fn same_seed_same_state_bit_for_bit() {
    let (a, b) = (run(7, 900), run(7, 900));
    assert_eq!(a.len(), b.len());
    assert!(a == b, "two runs of seed 7 differ");
}

#[test]
fn any_number_of_threads_gives_the_same_bits() {
    // Unshared, 400 windmills: enough batches for the workers to take part.
    for sharing in [None, PosingConfig::default().sharing] {
        let one = run_on(3, 60, 1, sharing);
        for threads in [2, 3] {
            assert!(run_on(3, 60, threads, sharing) == one, "{threads} threads differ from one");
        }
    }
}

#[test]
fn another_seed_another_state() {
    let (a, b) = (run(7, 60), run(8, 60));
    assert_ne!(a, b);
}
