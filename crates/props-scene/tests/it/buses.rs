//! The bus, a prop kind registered on top of the built-in ones: it stops at its stops within a
//! tolerance, opens and closes its doors there (a layer masked to the doors, over the driving
//! pose), cars queue behind it and never pass through it, and the town stays deterministic.

use hecs::Entity;
use props_frame::FrameData;
use props_scene::kinds::buses::{AT_STOP, BUS_LENGTH, Bus, BusState, Buses};
use props_scene::{PropInfo, SceneError, town::traffic::Vehicle};

use crate::extract::check_against_the_pose_path;
use crate::support::{DT, assert_no_overlap, bus_model, draw, exact, scene_with_buses, traffic_only, with_threads};

/// Every bus with its car state and bus state.
fn buses(scene: &props_scene::Scene) -> Vec<(Entity, Vehicle, Bus)> {
    scene.world().query::<(Entity, &Vehicle, &Bus)>().iter().map(|(e, c, b)| (e, *c, *b)).collect()
}

/// Where the stop of `lane` is (a bus's front stops there), if it has one.
fn stop_of(scene: &props_scene::Scene, lane: props_scene::town::roads::LaneId) -> Option<f32> {
    scene.bus_stops().iter().find(|(l, _)| *l == lane).map(|(_, at)| at)
}

#[test]
fn a_bus_stops_at_its_stop_opens_and_closes_its_doors_and_drives_on() {
    let mut scene = scene_with_buses(traffic_only(0, 7), 1);
    let (bus, ..) = buses(&scene)[0];
    let door_time = 1.2;
    let (mut dwells, mut stops_served, mut was_dwelling, mut doors_full) = (0, 0, false, false);
    let mut moved_with_doors_open = false;
    for step in 0..(240.0 / DT) as usize {
        scene.step(DT);
        let (car, state) =
            (*scene.world().get::<&Vehicle>(bus).expect("a bus"), *scene.world().get::<&Bus>(bus).expect("a bus"));
        let dwelling = matches!(state.state(), BusState::Dwelling(_));
        if dwelling {
            let front = stop_of(&scene, car.lane()).expect("dwelling on a lane with a stop");
            let off = car.position() + BUS_LENGTH * 0.5 - front;
            assert!(off.abs() <= AT_STOP, "step {step}: dwelling {off} m from the stop");
            assert!(car.is_standing(), "step {step}: dwelling at {} m/s", car.speed());
            doors_full |= (state.doors() - door_time).abs() < 1e-4;
            if !was_dwelling {
                dwells += 1;
            }
        }
        if was_dwelling && !dwelling {
            stops_served += 1;
        }
        moved_with_doors_open |= state.doors() > 0.0 && !car.is_standing();
        was_dwelling = dwelling;
    }
    assert!(dwells >= 2, "the bus dwelt at {dwells} stops in 4 minutes");
    assert!(stops_served >= 1 && doors_full, "served {stops_served}, doors fully open {doors_full}");
    assert!(!moved_with_doors_open, "a bus never moves with its doors open");
}

#[test]
fn the_door_layer_moves_the_doors_only_over_the_driving_pose() {
    // No pose sharing: every palette is its own state's, exactly.
    let mut scene = scene_with_buses(exact(traffic_only(0, 7)), 1);
    let (bus, ..) = buses(&scene)[0];
    let model = bus_model().model;
    let node = |name| model.rig().find(name).expect("a node");
    let rest = model.pose_at(None, 0.0);
    let mut checked_open = false;
    for _ in 0..(120.0 / DT) as usize {
        scene.step(DT);
        let doors = scene.world().get::<&Bus>(bus).expect("a bus").doors();
        let pose = scene.pose_of(bus).expect("a prop");
        let at = |name| pose.world_matrix(node(name)).translation;
        // The stray body key of the door clip is masked off: the body never lifts.
        assert!((at("body") - rest.world_matrix(node("body")).translation).length() < 1e-6);
        if doors >= 1.2 - 1e-4 {
            let slid = rest.world_matrix(node("door_front")).translation.z - at("door_front").z;
            assert!((slid - 1.0).abs() < 1e-4, "open front door slid {slid} m");
            checked_open = true;
        } else if doors == 0.0 {
            assert!((at("door_rear") - rest.world_matrix(node("door_rear")).translation).length() < 1e-6);
        }
    }
    assert!(checked_open, "the doors opened");
    // The runtime's palettes match the general pose path, the bus's included.
    let mut frame = FrameData::default();
    draw(&mut scene, &mut frame);
    assert!(frame.batches.iter().any(|b| b.model.0 == 4), "the bus is drawn");
    check_against_the_pose_path(&scene, &frame, 1e-5);
}

#[test]
fn cars_queue_behind_a_stopped_bus_and_never_pass_through_it() {
    let mut scene = scene_with_buses(traffic_only(120, 3), 8);
    assert_eq!(scene.count("buses"), 8);
    let mut queued = 0;
    for step in 0..(180.0 / DT) as usize {
        scene.step(DT);
        assert_no_overlap(&scene, step);
        let d = scene.config().driving;
        for (_, bus, state) in buses(&scene) {
            if !matches!(state.state(), BusState::Dwelling(_)) {
                continue;
            }
            // A car standing right behind a dwelling bus, on its lane.
            let behind = scene.world().query::<&Vehicle>().iter().any(|car| {
                let gap = bus.position() - car.position() - (bus.length() + car.length()) * 0.5;
                car.lane() == bus.lane() && car.length() < BUS_LENGTH && car.is_standing() && gap < 2.0 * d.min_gap
            });
            queued += usize::from(behind);
        }
    }
    assert!(queued > 0, "no car ever waited behind a bus at its stop");
}

#[test]
fn buses_are_counted_picked_described_and_deterministic() {
    let run = |threads| {
        let mut scene = scene_with_buses(with_threads(traffic_only(40, 11), threads), 4);
        let mut frame = FrameData::default();
        for _ in 0..600 {
            scene.step(DT);
            draw(&mut scene, &mut frame);
        }
        let bits: Vec<u32> = buses(&scene)
            .iter()
            .flat_map(|(_, c, b)| [c.lane().0, c.position().to_bits(), c.speed().to_bits(), b.doors().to_bits()])
            .chain(frame.palettes.iter().flat_map(|m| m.to_array().map(f32::to_bits)))
            .collect();
        (scene, bits)
    };
    let (scene, one) = run(1);
    assert_eq!(one, run(2).1, "the same seed gives the same buses on any thread count");
    assert_eq!(scene.count("buses"), 4);
    let (bus, car, _) = buses(&scene)[0];
    let lane = format!("on lane {},", car.lane().0);
    assert!(
        matches!(scene.describe(bus), Some(PropInfo { kind: "buses", summary }) if summary.contains(&lane)),
        "{:?}",
        scene.describe(bus)
    );
    let placement = scene.placement_of(bus).expect("a prop");
    let eye = glam::Vec3::from(placement.translation) + glam::Vec3::new(0.0, 30.0, 0.0);
    assert_eq!(scene.pick(eye, glam::Vec3::NEG_Y), Some(bus), "a ray straight down onto the bus picks it");
}

#[test]
fn a_kind_is_registered_once_and_its_models_are_checked() {
    // The town without its buses, to register them.
    let config = traffic_only(0, 1);
    let kinds = crate::support::models().town().into_iter().filter(|(kind, _)| kind.name() != "buses");
    let mut scene = props_scene::Scene::new(config.clone(), kinds).expect("scene");
    let windmill = crate::support::models().windmill;
    let missing = scene.register(Buses::new(1), vec![windmill]);
    assert!(matches!(missing, Err(SceneError::Bind { model: "bus", .. })), "{missing:?}");
    assert_eq!(scene.count("buses"), 0);
    scene.register(Buses::new(1), vec![bus_model()]).expect("registers");
    let again = scene.register(Buses::new(1), vec![bus_model()]);
    assert!(matches!(again, Err(SceneError::DuplicateKind("buses"))), "{again:?}");
    // New models for the kind: rigged first, the old ones kept on error.
    let bad = scene.set_kind_models("buses", vec![crate::support::models().car]);
    assert!(bad.is_err());
    scene.set_kind_models("buses", vec![bus_model()]).expect("the same model again");
    assert_eq!(scene.count("buses"), 1);
}
