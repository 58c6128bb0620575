//! Vehicle following: no overlaps in dense traffic, stopping at red, going on green, wheels and
//! steering.

use std::f32::consts::TAU;

use props_scene::kinds::cars::CarWheels;
use props_scene::town::roads::{LaneKind, Turn};
use props_scene::town::signals::SignalOverride;
use props_scene::{
    Scene,
    town::{roads::IntersectionId, roads::LaneId},
};

use crate::support::{DT, Models, assert_no_overlap, car, cars, scene, spawn_car, traffic_only};

/// The centre intersection of the default 3 x 3 grid, and its approach from +Z.
const CENTRE: IntersectionId = IntersectionId(4);
const NORTH: usize = 0;

fn approach_lane(scene: &Scene, intersection: IntersectionId, approach: usize) -> LaneId {
    scene.roads().intersections()[intersection.index()].approaches()[approach].expect("the centre has four approaches")
}

#[test]
fn dense_traffic_never_overlaps() {
    let mut scene = scene(traffic_only(140, 11));
    let length = scene.config().driving.car_length;
    let start: Vec<f32> = cars(&scene).iter().map(|(_, c)| c.position()).collect();
    assert_eq!(start.len(), 140);
    let mut travelled = 0.0;
    for step in 0..3000 {
        scene.step(DT);
        assert_no_overlap(&scene, step);
        travelled += cars(&scene).iter().map(|(_, c)| c.speed() * DT).sum::<f32>();
    }
    // Not a gridlock from the start: the fleet drove a fair distance.
    assert!(travelled > 140.0 * 10.0 * length, "travelled {travelled} m");
    // The IDM does the work; the safety net is an exception.
    let clamps = scene.traffic_stats().safety_clamps;
    assert!(clamps < 140 * 3000 / 1000, "{clamps} safety clamps");
}

#[test]
fn default_traffic_keeps_moving() {
    let mut scene = scene(traffic_only(40, 3));
    let mut distance = [0.0_f32; 40];
    for step in 0..60 * 90 {
        scene.step(DT);
        assert_no_overlap(&scene, step);
        for (d, (_, c)) in distance.iter_mut().zip(cars(&scene)) {
            *d += c.speed() * DT;
        }
    }
    // In 90 s every car drove at least a few blocks' worth of road.
    for (i, d) in distance.iter().enumerate() {
        assert!(*d > 150.0, "car {i} drove only {d} m");
    }
    assert_eq!(scene.traffic_stats().safety_clamps, 0);
}

#[test]
fn a_car_stops_at_red_stays_stopped_and_goes_on_green() {
    let mut scene = scene(traffic_only(0, 1));
    scene.set_signal_override(CENTRE, Some(SignalOverride::AllRed)).expect("intersection exists");
    let lane = approach_lane(&scene, CENTRE, NORTH);
    let line = scene.roads().lane(lane).length();
    let half = scene.config().driving.car_length * 0.5;
    let entity = spawn_car(&mut scene, lane, 10.0, 13.0).expect("room on an empty road");
    let mut stopped_at = None;
    for step in 0..60 * 40 {
        scene.step(DT);
        let c = car(&scene, entity);
        assert_eq!(c.lane(), lane, "step {step}: crossed the stop line on red");
        assert!(c.position() + half <= line, "step {step}: front past the stop line");
        if c.speed() == 0.0 && stopped_at.is_none() {
            stopped_at = Some(c.position());
        }
        if let Some(at) = stopped_at {
            assert_eq!(c.speed(), 0.0, "step {step}: moved again while red");
            assert_eq!(c.position(), at);
        }
    }
    let at = stopped_at.expect("the car stopped");
    // It stopped close to the line, about the IDM's minimum gap before it.
    let gap = line - (at + half);
    assert!((0.0..=scene.config().driving.min_gap + 0.5).contains(&gap), "stopped {gap} m before the line");
    assert_eq!(scene.traffic_stats().safety_clamps, 0, "the IDM braked in time by itself");

    scene.set_signal_override(CENTRE, Some(SignalOverride::Green(NORTH))).expect("intersection exists");
    for _ in 0..60 * 10 {
        scene.step(DT);
    }
    let c = car(&scene, entity);
    assert_ne!(c.lane(), lane, "went across on green");
    assert!(c.speed() > 1.0);
}

#[test]
fn a_queue_forms_at_red_and_clears_on_green() {
    let mut scene = scene(traffic_only(0, 2));
    scene.set_signal_override(CENTRE, Some(SignalOverride::AllRed)).expect("intersection exists");
    let lane = approach_lane(&scene, CENTRE, NORTH);
    let queue: Vec<_> =
        (0..5).map(|k| spawn_car(&mut scene, lane, 5.0 + 12.0 * k as f32, 8.0).expect("spaced cars fit")).collect();
    for step in 0..60 * 30 {
        scene.step(DT);
        assert_no_overlap(&scene, step);
    }
    let d = scene.config().driving;
    let mut positions: Vec<f32> = queue
        .iter()
        .map(|&e| car(&scene, e))
        .map(|c| {
            assert_eq!(c.speed(), 0.0);
            c.position()
        })
        .collect();
    positions.sort_by(f32::total_cmp);
    for pair in positions.windows(2) {
        let bumper_gap = pair[1] - pair[0] - d.car_length;
        assert!((d.min_gap - 0.1..d.min_gap + 0.5).contains(&bumper_gap), "queue gap {bumper_gap}");
    }
    scene.set_signal_override(CENTRE, Some(SignalOverride::Green(NORTH))).expect("intersection exists");
    for step in 0..60 * 25 {
        scene.step(DT);
        assert_no_overlap(&scene, step);
    }
    for &e in &queue {
        assert_ne!(car(&scene, e).lane(), lane, "the whole queue went on green");
    }
}

#[test]
fn green_traffic_keeps_moving() {
    let mut scene = scene(traffic_only(0, 4));
    scene.set_signal_override(CENTRE, Some(SignalOverride::Green(NORTH))).expect("intersection exists");
    let lane = approach_lane(&scene, CENTRE, NORTH);
    let entity = spawn_car(&mut scene, lane, 5.0, 0.0).expect("room");
    let mut previous = car(&scene, entity).position();
    for step in 1..60 * 15 {
        scene.step(DT);
        let c = car(&scene, entity);
        if c.lane() != lane {
            assert!(c.speed() > 1.0, "still moving after the line");
            return;
        }
        assert!(c.position() > previous, "step {step}: not advancing on green");
        previous = c.position();
    }
    panic!("the car never crossed the stop line on green");
}

#[test]
fn wheels_roll_with_speed_and_steer_into_turns() {
    let mut scene = scene(traffic_only(0, 5));
    let left = scene
        .roads()
        .lanes()
        .iter()
        .position(|l| matches!(l.kind(), LaneKind::Connector { turn: Turn::Left, .. }))
        .expect("a left turn exists");
    let entity = spawn_car(&mut scene, LaneId(left as u32), 0.5, 4.0).expect("room");
    let mut rolled = 0.0;
    let mut spin = 0.0;
    for _ in 0..40 {
        scene.step(DT);
        let after = car(&scene, entity);
        rolled += after.speed() * DT;
        spin = scene.world().get::<&CarWheels>(entity).expect("wheels").spin();
    }
    // Speed times dt over the wheel radius (0.33 m on the synthetic car), modulo a turn.
    let expected = (rolled / 0.33).rem_euclid(TAU);
    let error = (spin - expected).abs().min(TAU - (spin - expected).abs());
    assert!(error < 0.05, "spin {spin}, expected {expected}");

    let wheels = *scene.world().get::<&CarWheels>(entity).expect("wheels");
    assert!(wheels.curvature() > 0.0, "steering left into a left turn");
    let pose = scene.pose_of(entity).expect("a car has a pose");
    let model = props_scene::kinds::cars::stand_in().expect("car");
    let pivot = model.rig().find("steer_front_left").expect("pivot");
    let (axis, angle) = pose.local_transform(pivot).rotation.to_axis_angle();
    assert!(axis.y > 0.99 && angle > 0.05, "left pivot turned about +Y by {angle}");
}

/// A car model with a `doors` clip opens its doors once stopped at a red light for
/// `DOORS_AFTER` seconds (its door node turns as the clip says, over the driving pose) and
/// closes them when it drives on; the base car, without the clip, just waits.
#[test]
fn doors_open_when_a_car_has_stood_still_and_close_when_it_goes() {
    let doors = props_crowd::PropModel::new(
        props_frame::ModelId(1),
        std::sync::Arc::new(props_scene::kinds::cars::stand_in_with_doors().expect("car")),
    );
    let models = Models { car: doors, ..crate::support::models() };
    let config = traffic_only(0, 1);
    let mut scene = Scene::new(config.clone(), models.town()).expect("a car with doors drives");
    scene.set_signal_override(CENTRE, Some(SignalOverride::AllRed)).expect("intersection exists");
    let lane = approach_lane(&scene, CENTRE, NORTH);
    let entity = spawn_car(&mut scene, lane, 10.0, 13.0).expect("room on an empty road");
    let door = scene
        .crowds()
        .find(|(prop, _, _)| prop.model.rig().find("door_left").is_some())
        .expect("the car")
        .0
        .model
        .clone();
    let door_node = door.rig().find("door_left").expect("a door");
    let door_angle = |scene: &Scene| {
        let pose = scene.pose_of(entity).expect("a car");
        pose.local_transform(door_node).rotation.angle_between(glam::Quat::IDENTITY).to_degrees()
    };
    let mut open_at = None;
    for step in 0..60 * 30 {
        scene.step(DT);
        let c = car(&scene, entity);
        let wheels = *scene.world().get::<&CarWheels>(entity).expect("wheels");
        if c.speed() > 0.05 {
            assert_eq!(wheels.doors(), 0.0, "step {step}: doors open while driving to the light");
        }
        if wheels.doors() >= 1.0 && open_at.is_none() {
            open_at = Some(step);
        }
    }
    assert!(open_at.is_some(), "the doors opened at the red light");
    assert!((door_angle(&scene) - 70.0).abs() < 0.5, "open: {} degrees", door_angle(&scene));
    scene.set_signal_override(CENTRE, Some(SignalOverride::Green(NORTH))).expect("intersection exists");
    for _ in 0..60 * 3 {
        scene.step(DT);
    }
    assert!(car(&scene, entity).speed() > 1.0, "drove on");
    assert!(door_angle(&scene) < 0.5, "closed again: {} degrees", door_angle(&scene));
}

/// The traffic figures a player sees: a queue at red is all waiting with no speed; on green it
/// drives into the intersection, counted once per car entering it.
#[test]
fn traffic_figures_count_waiting_cars_speed_and_throughput() {
    let mut scene = scene(traffic_only(0, 2));
    scene.set_signal_override(CENTRE, Some(SignalOverride::AllRed)).expect("intersection exists");
    let lane = approach_lane(&scene, CENTRE, NORTH);
    for k in 0..4 {
        spawn_car(&mut scene, lane, 5.0 + 12.0 * k as f32, 8.0).expect("spaced cars fit");
    }
    for _ in 0..60 * 30 {
        scene.step(DT);
    }
    let red = scene.traffic_stats();
    assert_eq!((red.waiting, red.mean_speed, red.intersections_entered), (4, 0.0, 0), "{red:?}");
    scene.set_signal_override(CENTRE, Some(SignalOverride::Green(NORTH))).expect("intersection exists");
    for _ in 0..60 * 20 {
        scene.step(DT);
    }
    let green = scene.traffic_stats();
    assert!(green.intersections_entered >= 4, "{green:?}");
    assert!(green.waiting < 4 && green.mean_speed > 1.0, "{green:?}");
}

/// A car standing still is not placed again (queues at red lights are long), yet every car is
/// always drawn where it is: after a run with queues, each car's placement is the one its
/// lane and position give.
#[test]
fn every_car_is_drawn_where_it_is() {
    let mut scene = scene(traffic_only(140, 11));
    let mut most_standing = 0;
    for step in 0..1500 {
        scene.step(DT);
        let standing = cars(&scene).iter().filter(|(_, c)| c.is_standing()).count();
        most_standing = most_standing.max(standing);
        if step % 100 != 99 {
            continue;
        }
        for (entity, car) in cars(&scene) {
            let drawn = scene.placement_of(entity).expect("a car is a prop");
            let scale = drawn.matrix3.y_axis.length();
            let there = car.placement(scene.roads(), scale);
            let off = (drawn.translation - there.translation).length();
            let turned = (drawn.matrix3.z_axis - there.matrix3.z_axis).length();
            assert!(off < 1e-4 && turned < 1e-4, "step {step}: a car is drawn {off} m off, facing {turned} off");
        }
    }
    assert!(most_standing > 20, "queues formed: at most {most_standing} cars stood at once");
}

/// Cars near the end of their lane indicate the side the next lane leads to: over a minute of
/// traffic both sides are indicated, and a car whose next lane leads on straight indicates
/// nothing.
#[test]
fn cars_indicate_the_side_they_turn_to() {
    use props_scene::vehicle_lights::{Indicator, turn_ahead};
    let mut scene = scene(traffic_only(30, 3));
    let (mut left, mut right) = (0, 0);
    for _ in 0..60 * 60 {
        scene.step(DT);
        for (_, car) in cars(&scene) {
            let roads = scene.roads();
            let turn = turn_ahead(&car, roads);
            let (_, heading) = roads.sample(car.lane(), roads.length(car.lane()));
            let (_, leads) = roads.sample(car.next_lane(), roads.length(car.next_lane()));
            // The turn's sine, by the cross product of the two headings (x, z): its sign says
            // which way the car's heading turns about +Y.
            let sine = heading.x * leads.y - heading.y * leads.x;
            match turn {
                Indicator::Left => {
                    left += 1;
                    assert!(sine < -0.3, "indicating left for a turn of sine {sine}");
                }
                Indicator::Right => {
                    right += 1;
                    assert!(sine > 0.3, "indicating right for a turn of sine {sine}");
                }
                Indicator::Off => assert!(
                    sine.abs() <= 0.3 || roads.length(car.lane()) - car.position() > 35.0,
                    "a turn of sine {sine} near the lane's end is not indicated"
                ),
            }
        }
    }
    assert!(left > 0 && right > 0, "left {left}, right {right} car-steps indicating");
}
