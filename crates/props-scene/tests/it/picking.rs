//! Picking: a ray from a camera through a prop picks that prop (the nearest along the ray),
//! a ray into the sky none; and the picked prop is described.

use glam::Vec3;
use props_scene::{PropInfo, SceneConfig};

use crate::support::{DT, cars, scene_with_buses};

#[test]
fn a_ray_through_a_prop_picks_it_and_says_what_it_does() {
    let mut scene = scene_with_buses(SceneConfig { cars: 8, windmills: 20, foxes: 4, ..SceneConfig::default() }, 2);
    for _ in 0..120 {
        scene.step(DT);
    }
    let eye = Vec3::new(0.0, 40.0, 0.0);
    let mut picked = 0;
    for entity in scene.world().iter().map(|e| e.entity()).collect::<Vec<_>>() {
        let Some(placement) = scene.placement_of(entity) else { continue };
        let at = Vec3::from(placement.translation);
        let hit = scene.pick(eye, at - eye).expect("a prop on the ray");
        // Another prop nearer along the same ray may be hit first: then it is in front.
        if hit != entity {
            let other = Vec3::from(scene.placement_of(hit).expect("a prop").translation);
            assert!((other - eye).length() <= (at - eye).length() + 30.0, "{hit:?} is behind {entity:?}");
            continue;
        }
        picked += 1;
        let info = scene.describe(entity).expect("a prop");
        match info {
            PropInfo::Car { speed, waiting, .. } => assert!(speed >= 0.0 && waiting == (speed < 0.1)),
            PropInfo::Windmill { wind, rotor_rpm } => assert!(wind >= 0.0 && rotor_rpm >= 0.0),
            PropInfo::TrafficLight { .. } => {}
            PropInfo::Other { kind, summary } => assert!(kind == "buses" && summary.starts_with("bus "), "{summary}"),
            PropInfo::Fox { weight, .. } => assert!((0.0..=1.0).contains(&weight)),
        }
    }
    assert!(picked > 20, "{picked} props picked by a ray through them");
    assert_eq!(scene.pick(eye, Vec3::Y), None, "the sky");
    let (car, _) = cars(&scene)[0];
    assert!(matches!(scene.describe(car), Some(PropInfo::Car { .. })));
}
