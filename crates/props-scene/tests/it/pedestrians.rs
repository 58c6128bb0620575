//! People: they keep to the sidewalks, stand about now and then, wait at the kerb and cross
//! only on the walk phase, when no car is in the box; their gaits follow their speed.

use std::collections::BTreeMap;

use glam::Vec2;
use props_crowd::gaited::{Gait, GaitState};
use props_scene::kinds::pedestrians::SPREAD;
use props_scene::kinds::pedestrians::{Activity, Person};
use props_scene::town::crossings::{CrossingUse, KERB, ROAD_LIFT, WALKING_LINE};
use props_scene::town::signals::SignalPhase;
use props_scene::town::traffic::Vehicle;
use props_scene::{Scene, SceneConfig};

use crate::support::{DT, scene};

/// How far off the sidewalk's walking line a person walks: its lane, at most [`SPREAD`]
/// towards or away from its block's centre along the corner's diagonal.
const OFF_LINE: f32 = SPREAD * std::f32::consts::FRAC_1_SQRT_2 + 1e-3;

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
        for (entity, person, crossing, gait) in
            scene.world().query::<(hecs::Entity, &Person, &CrossingUse, &GaitState)>().iter()
        {
            let at = person.position();
            // On the sidewalk's top, or between it and the asphalt on a crossing.
            let height = scene.placement_of(entity).expect("placed").translation.y;
            match person.activity() {
                Activity::Crossing => {
                    assert!((ROAD_LIFT - 1e-5..=KERB + 1e-5).contains(&height), "step {step}: {height}")
                }
                _ => assert!((height - KERB).abs() < 1e-5, "step {step}: {height} m up on the sidewalk"),
            }
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
                    assert!(off.max_element() <= WALKING_LINE + OFF_LINE, "step {step}: {at} off the crossing {off}");
                }
                (Activity::Waiting, CrossingUse::Waiting(_)) => {
                    assert!(person.speed() == 0.0 && gait.gait() != Gait::Run)
                }
                (Activity::Walking | Activity::Standing, CrossingUse::Away) => {
                    let nearest = |lines: &[f32], v: f32| lines.iter().map(|l| (v - l).abs()).fold(f32::MAX, f32::min);
                    let off = nearest(&lines.0, at.x).min(nearest(&lines.1, at.y));
                    assert!(
                        (off - WALKING_LINE).abs() <= OFF_LINE,
                        "step {step}: {at} is {off} m from a road's centre"
                    );
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
                // Moved as far as its speed says (which may grow by a step's acceleration).
                assert!(from.distance(*to) <= speed * DT * 1.5 + 1e-3, "step {step}: jumped {from} -> {to}");
            }
        }
        before = after;
    }
    assert!(arrivals >= 5, "{arrivals} people reached a kerb to cross in 60 s");
}

/// The stand-in's body and skeleton walking by turning its legs (each thigh swinging 0.35 rad
/// either way in a 1 s cycle, its knee bending up to 0.7 rad as it swings forward; a run
/// of 0.5 rad in 0.7 s), as
/// exported walks do: the stand-in's own walk moves its toes by translation keys, which
/// retargeting (by rotations) does not carry, so a person given it would glide.
fn leg_walker(base: &props_anim::Model) -> props_anim::Model {
    use glam::Quat;
    use props_anim::clip::interpolate::Interpolation;
    use props_anim::clip::{Channel, Clip, Keyframes};

    let rig = base.rig();
    let gait = |name: &str, duration: f32, swing: f32| {
        let times: Vec<f32> = (0..=32).map(|k| k as f32 * duration / 32.0).collect();
        let turning = |node: &str, angle: &dyn Fn(f32) -> f32| {
            let keys = times.iter().map(|&t| Quat::from_rotation_x(angle(t / duration))).collect();
            let node = rig.find(node).expect("a leg joint");
            Channel::new(node, Interpolation::Linear, times.clone(), Keyframes::Rotation(keys)).expect("a channel")
        };
        let mut channels = Vec::new();
        for (side, phase) in [("l", 0.0), ("r", 0.5)] {
            let cycle = move |u: f32| (u + phase) * std::f32::consts::TAU;
            channels.push(turning(&format!("thigh_{side}"), &|u| -swing * cycle(u).sin()));
            channels.push(turning(&format!("shin_{side}"), &|u| 2.0 * swing * cycle(u).cos().max(0.0)));
        }
        Clip::new(Some(name.to_owned()), channels, rig).expect("a gait")
    };
    let parts = props_anim::ModelParts {
        rig: Some(rig.clone()),
        skins: base.skins().to_vec(),
        meshes: base.meshes().to_vec(),
        instances: base.instances().to_vec(),
        ..props_anim::ModelParts::default()
    };
    let clips = [gait("Walk", 1.0, 0.35), gait("Run", 0.7, 0.5)];
    props_anim::Model::new(parts).expect("a walker").with_clips(clips)
}

/// A person without clips whose bones' names follow no convention the game knows walks with
/// the base person's clips once its sidecar's `[humanoid]` table names its bones; without the
/// table it is refused, naming the bones not found. A base whose walk does not retarget (the
/// stand-in's, by translation keys) leaves it gliding: refused, saying so.
#[test]
fn a_humanoid_named_by_its_sidecar_walks_with_the_base_clips() {
    use std::sync::Arc;

    use props_anim::{Model, ModelParts, Rig, SourceNode};
    use props_crowd::{Bindings, PropModel};

    let stand_in = props_scene::kinds::pedestrians::stand_in().expect("stand-in");
    let base = leg_walker(&stand_in);
    let rig = base.rig();
    // The stand-in's skeleton with its joints renamed `j0`, `j1`, ..., and no clips.
    let nodes: Vec<SourceNode> = rig
        .nodes()
        .map(|node| SourceNode {
            name: Some(format!("j{}", node.index())),
            children: rig.nodes().filter(|&c| rig.parent(c) == Some(node)).map(|c| rig.source_index(c)).collect(),
            rest: *rig.rest(node),
            morph_weights: vec![],
        })
        .collect();
    let renamed = Model::new(ModelParts {
        rig: Some(Rig::from_source_nodes(&nodes).expect("a rig")),
        skins: base.skins().to_vec(),
        meshes: base.meshes().to_vec(),
        instances: base.instances().to_vec(),
        ..ModelParts::default()
    })
    .expect("a model");
    let j = |name: &str| format!("j{}", rig.find(name).expect("a joint").index());
    let table: Vec<(String, String)> = [
        ("hips", "hips"),
        ("leftUpperLeg", "thigh_l"),
        ("leftLowerLeg", "shin_l"),
        ("leftFoot", "foot_l"),
        ("leftToes", "toe_l"),
        ("rightUpperLeg", "thigh_r"),
        ("rightLowerLeg", "shin_r"),
        ("rightFoot", "foot_r"),
        ("rightToes", "toe_r"),
    ]
    .map(|(bone, node)| (bone.to_owned(), j(node)))
    .to_vec();
    let mut scene = town(5);
    let person = |humanoid: Vec<(String, String)>| {
        let bindings = Bindings { humanoid: humanoid.into_iter().collect(), ..Bindings::default() };
        PropModel::new(props_frame::ModelId(9), Arc::new(renamed.clone())).with_bindings(bindings)
    };
    let base_model = PropModel::new(props_frame::ModelId(7), Arc::new(base.clone()));
    let refused = scene.set_kind_models("pedestrians", vec![base_model.clone(), person(Vec::new())]);
    let message = refused.expect_err("no walk, no bones found").to_string();
    assert!(message.contains("no clip `Walk`") && message.contains("leftUpperLeg"), "{message}");
    let gliding = PropModel::new(props_frame::ModelId(7), Arc::new(stand_in.clone()));
    let refused = scene.set_kind_models("pedestrians", vec![gliding, person(table.clone())]);
    let message = refused.expect_err("its walk, retargeted, moves no foot").to_string();
    assert!(message.contains("shows no stride") && message.contains("it would glide"), "{message}");
    scene.set_kind_models("pedestrians", vec![base_model, person(table)]).expect("walks with the base clips");
    for _ in 0..120 {
        scene.step(DT);
    }
    let (_, props) = scene.kind_and_props::<props_scene::kinds::pedestrians::Pedestrians>().expect("people");
    let renamed = &props.crowds()[1].prop().model;
    assert!(renamed.find_clip("Walk").is_some() && renamed.find_clip("Run").is_some(), "the base clips, retargeted");
    assert!(!props.crowds()[1].is_empty(), "people pick the renamed person too");
}
