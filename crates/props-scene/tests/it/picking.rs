//! Picking: a ray from a camera through a prop picks that prop (the nearest along the ray),
//! a ray into the sky none; and the picked prop is described.

use glam::Vec3;
use props_scene::SceneConfig;

use crate::support::{DT, cars, scene_with_buses};

#[test]
fn a_ray_through_a_prop_picks_it_and_says_what_it_does() {
    let mut scene = scene_with_buses(
        SceneConfig::default().with_count("cars", 8).with_count("windmills", 20).with_count("foxes", 4),
        2,
    );
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
        // Each kind says what its prop is doing in its own words.
        let opening = match info.kind {
            "cars" => "car ",
            "windmills" => "windmill: wind ",
            "traffic_lights" => "traffic light: ",
            "foxes" => "fox: ",
            "buses" => "bus ",
            "street_lamps" => "street lamp ",
            "houses" => "house on block ",
            "pedestrians" => "person: ",
            kind => panic!("a prop of an unknown kind {kind}"),
        };
        assert!(info.summary.starts_with(opening), "{info:?}");
    }
    assert!(picked > 20, "{picked} props picked by a ray through them");
    assert_eq!(scene.pick(eye, Vec3::Y), None, "the sky");
    let (car, state) = cars(&scene)[0];
    let waiting = if state.is_standing() { "waiting" } else { "driving" };
    let says = format!("car {waiting} at {:.0} km/h on lane {}", state.speed() * 3.6, state.lane().0);
    assert_eq!(scene.describe(car).map(|info| (info.kind, info.summary)), Some(("cars", says)));
}
