//! People: they keep to the sidewalks, stand about now and then, wait at the kerb and cross
//! only on the walk phase, when no car is in the box; their gaits follow their speed.

use std::collections::BTreeMap;

use glam::Vec2;
use props_scene::kinds::gaited::{Gait, GaitState};
use props_scene::kinds::pedestrians::{Activity, Person};
use props_scene::town::crossings::{CrossingUse, SIDEWALK};
use props_scene::town::signals::SignalPhase;
use props_scene::town::traffic::Vehicle;
use props_scene::{Scene, SceneConfig};

use crate::support::{DT, scene};

/// How far off the sidewalk's walking line a person walks: its lane, at most 0.6 m towards or
/// away from its block's centre along the corner's diagonal.
const OFF_LINE: f32 = 0.6 * std::f32::consts::FRAC_1_SQRT_2 + 1e-3;

fn town(seed: u64) -> Scene {
    scene(
        SceneConfig { seed, ..SceneConfig::default() }
            .with_count("pedestrians", 80)
            .with_count("cars", 40)
            .with_count("windmills", 0)
            .with_count("foxes", 0),
    )
}

#[test]
fn people_keep_to_the_sidewalks_and_cross_only_on_the_walk_phase_with_the_box_empty() {
    let mut scene = town(3);
    let lines: (Vec<f32>, Vec<f32>) =
        scene.roads().intersections().iter().map(|i| (i.centre().x, i.centre().y)).unzip();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut previous: Vec<Activity> = Vec::new();
    for step in 0..60 * 150 {
        scene.step(DT);
        let roads = scene.roads();
        let busy: Vec<bool> = {
            let mut busy = vec![false; roads.intersections().len()];
            for car in scene.world().query::<&Vehicle>().iter() {
                if let Some(at) = roads.crosses(car.lane()) {
                    busy[at.index()] = true;
                }
            }
            busy
        };
        let mut now = Vec::new();
        for (person, crossing, gait) in scene.world().query::<(&Person, &CrossingUse, &GaitState)>().iter() {
            let at = person.position();
            let activity = person.activity();
            match (activity, *crossing) {
                (Activity::Crossing, CrossingUse::Crossing(i)) => {
                    let phase = scene.signals().signal(i).phase();
                    assert!(
                        matches!(phase, SignalPhase::Walk(_) | SignalPhase::WalkClearance(_)),
                        "step {step}: crossing at intersection {} on {phase:?}",
                        i.index()
                    );
                    assert!(!busy[i.index()], "step {step}: a car in the box of {} with a walker crossing", i.index());
                    let off = (at - roads.intersections()[i.index()].centre()).abs();
                    assert!(off.max_element() <= SIDEWALK + OFF_LINE, "step {step}: {at} off the crossing {off}");
                }
                (Activity::Waiting, CrossingUse::Waiting(_)) => {
                    assert!(person.speed() == 0.0 && gait.gait() != Gait::Run)
                }
                (Activity::Walking | Activity::Standing, CrossingUse::Away) => {
                    let nearest = |lines: &[f32], v: f32| lines.iter().map(|l| (v - l).abs()).fold(f32::MAX, f32::min);
                    let off = nearest(&lines.0, at.x).min(nearest(&lines.1, at.y));
                    assert!((off - SIDEWALK).abs() <= OFF_LINE, "step {step}: {at} is {off} m from a road's centre");
                }
                other => panic!("step {step}: {other:?}"),
            }
            now.push(activity);
        }
        for (was, is) in previous.iter().zip(&now) {
            let change = match (was, is) {
                (Activity::Walking, Activity::Waiting) => "waited",
                (Activity::Waiting, Activity::Crossing) => "crossed",
                (Activity::Walking, Activity::Standing) => "stood",
                _ => continue,
            };
            *counts.entry(change).or_default() += 1;
        }
        previous = now;
    }
    for change in ["waited", "crossed", "stood"] {
        assert!(counts.get(change).copied().unwrap_or(0) >= 5, "{counts:?}: people {change} too seldom in 150 s");
    }
}

#[test]
fn walkers_stop_at_the_kerb_and_walk_in_step_with_their_speed() {
    let mut scene = town(8);
    let speeds = |scene: &Scene| -> Vec<(Activity, f32, Vec2)> {
        scene.world().query::<&Person>().iter().map(|p| (p.activity(), p.speed(), p.position())).collect()
    };
    let mut before = speeds(&scene);
    let mut arrivals = 0;
    for step in 0..60 * 60 {
        scene.step(DT);
        let after = speeds(&scene);
        for ((was, speed, from), (is, _, to)) in before.iter().zip(&after) {
            if *was == Activity::Walking && *is == Activity::Waiting {
                arrivals += 1;
                assert!(*speed <= 0.25, "step {step}: arrived at the kerb at {speed} m/s");
            }
            if *was == Activity::Walking && *is == Activity::Walking {
                // Moved as far as its speed says (within a frame's worth at a corner's turn).
                assert!(
                    from.distance(*to) <= speed * DT * 1.5 + 1e-3 + 2.0 * 0.6,
                    "step {step}: jumped {from} -> {to}"
                );
            }
        }
        before = after;
    }
    assert!(arrivals >= 5, "{arrivals} people reached a kerb to cross in 60 s");
}
