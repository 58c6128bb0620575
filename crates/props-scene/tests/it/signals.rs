//! Signal phases and the traffic-light props that show them.

use props_anim::property::{MaterialField, PropertyTarget};
use props_scene::kinds::traffic_lights::TrafficLight;
use props_scene::town::signals::{LightState, SignalOverride};

use crate::support::{DT, scene, traffic_only};

#[test]
fn one_approach_at_a_time_and_amber_between_green_and_red() {
    let mut scene = scene(traffic_only(60, 8));
    let intersections = scene.roads().intersections().len();
    let mut previous: Vec<[LightState; 4]> =
        (0..intersections).map(|i| [0, 1, 2, 3].map(|a| scene.signals().signals()[i].state(a))).collect();
    let mut greens = vec![0usize; intersections];
    for step in 0..60 * 120 {
        scene.step(DT);
        for (i, signal) in scene.signals().signals().iter().enumerate() {
            let now = [0, 1, 2, 3].map(|a| signal.state(a));
            let lit = now.iter().filter(|s| **s != LightState::Red).count();
            assert!(lit <= 1, "step {step}: intersection {i} shows {now:?}");
            for (a, (&was, &is)) in previous[i].iter().zip(&now).enumerate() {
                let allowed = matches!(
                    (was, is),
                    (LightState::Green, LightState::Green | LightState::Amber)
                        | (LightState::Amber, LightState::Amber | LightState::Red)
                        | (LightState::Red, LightState::Red | LightState::Green)
                );
                assert!(allowed, "step {step}: intersection {i} approach {a}: {was:?} -> {is:?}");
                if was == LightState::Red && is == LightState::Green {
                    greens[i] += 1;
                }
            }
            previous[i] = now;
        }
    }
    // With traffic about, every intersection gave green to someone new several times.
    for (i, g) in greens.iter().enumerate() {
        assert!(*g >= 3, "intersection {i}: {g} new greens in 120 s");
    }
}

#[test]
fn light_props_show_their_state_through_the_clips() {
    let mut scene = scene(traffic_only(0, 1));
    let model = props_scene::kinds::traffic_lights::stand_in().expect("traffic light");
    // Each lamp's lens has its own material, whose emissive factor the clips animate.
    let glow = |name: &str| {
        let node = model.rig().find(name).expect("lamp node");
        let instance = model.instances().iter().find(|i| i.node == node).expect("a lens");
        let material = model.meshes()[instance.mesh as usize].primitives[0].material.expect("its material");
        let target = PropertyTarget::Material { material, field: MaterialField::Emissive };
        model.rig().properties().find(target).expect("animated")
    };
    let (red, amber, green) = (glow("lamp_red"), glow("lamp_amber"), glow("lamp_green"));
    let intersection = props_scene::town::roads::IntersectionId(4);
    scene.set_signal_override(intersection, Some(SignalOverride::Green(1))).expect("exists");
    scene.step(DT);
    let mut seen = 0;
    for (entity, light) in scene.world().query::<(hecs::Entity, &TrafficLight)>().iter() {
        let pose = scene.pose_of(entity).expect("a light has a pose");
        let lit = |id| pose.property(id).iter().any(|&c| c > 0.0);
        let expected = match light.state() {
            LightState::Green => [false, false, true],
            LightState::Amber => [false, true, false],
            LightState::Red => [true, false, false],
        };
        assert_eq!([lit(red), lit(amber), lit(green)], expected, "{light:?}");
        if light.intersection() == intersection {
            let want = if light.approach() == 1 { LightState::Green } else { LightState::Red };
            assert_eq!(light.state(), want);
            seen += 1;
        }
    }
    assert_eq!(seen, 4, "one light per approach of the centre");
    assert_eq!(scene.count("traffic_lights"), 4 * 2 + 4 * 3 + 4);
}

/// With no car anywhere, every light still cycles: each approach is recalled to green after
/// `RECALL_AFTER` seconds of red, so a player watching any light sees it change.
#[test]
fn every_light_cycles_even_without_traffic() {
    let mut scene = scene(traffic_only(0, 4));
    let intersections = scene.roads().intersections().len();
    let mut longest_red = vec![[0.0f32; 4]; intersections];
    let mut red = vec![[0.0f32; 4]; intersections];
    for _ in 0..(60.0 * 400.0) as usize {
        scene.step(DT);
        for (i, intersection) in scene.roads().intersections().iter().enumerate() {
            for a in (0..4).filter(|&a| intersection.approaches()[a].is_some()) {
                let state = scene.signals().state(props_scene::town::roads::IntersectionId(i as u32), a);
                red[i][a] = if state == LightState::Red { red[i][a] + DT } else { 0.0 };
                longest_red[i][a] = longest_red[i][a].max(red[i][a]);
            }
        }
    }
    // At worst every other approach of a four-way intersection is recalled first.
    let bound = props_scene::town::signals::RECALL_AFTER
        + 3.0
            * (props_scene::town::signals::MIN_GREEN
                + props_scene::town::signals::AMBER
                + props_scene::town::signals::MAX_ALL_RED)
        + props_scene::town::signals::AMBER;
    for (i, approaches) in longest_red.iter().enumerate() {
        for (a, longest) in approaches.iter().enumerate() {
            assert!(*longest < bound, "intersection {i} approach {a}: red for {longest} s");
        }
    }
}
