//! The same seed gives bitwise the same scene; another seed a different one.

use props_frame::FrameData;
use props_scene::{Car, Fox, Scene, SceneConfig, Windmill};

use crate::support::{DT, scene};

/// Every simulated number and every palette and instance matrix, as bits.
fn fingerprint(scene: &mut Scene) -> Vec<u32> {
    let mut bits = Vec::new();
    for car in scene.world().query::<&Car>().iter() {
        bits.extend([car.lane().0, car.next_lane().0, car.position().to_bits(), car.speed().to_bits()]);
    }
    for mill in scene.world().query::<&Windmill>().iter() {
        bits.extend([mill.yaw().to_bits(), mill.rotor_angle().to_bits(), mill.rotor_speed().to_bits()]);
    }
    for fox in scene.world().query::<&Fox>().iter() {
        bits.extend([fox.position().x.to_bits(), fox.position().y.to_bits(), fox.speed().to_bits()]);
    }
    let mut frame = FrameData::default();
    scene.extract(&mut frame);
    bits.extend(frame.palettes.iter().flat_map(|m| m.to_array().map(f32::to_bits)));
    bits.extend(frame.instances.iter().flat_map(|i| i.transform.to_array().map(f32::to_bits)));
    bits
}

fn run(seed: u64, steps: usize) -> Vec<u32> {
    let mut scene = scene(SceneConfig { seed, windmills: 150, ..SceneConfig::default() });
    for _ in 0..steps {
        scene.step(DT);
    }
    fingerprint(&mut scene)
}

#[test]
fn same_seed_same_state_bit_for_bit() {
    let (a, b) = (run(7, 900), run(7, 900));
    assert_eq!(a.len(), b.len());
    assert!(a == b, "two runs of seed 7 differ");
}

#[test]
fn another_seed_another_state() {
    let (a, b) = (run(7, 60), run(8, 60));
    assert_ne!(a, b);
}
