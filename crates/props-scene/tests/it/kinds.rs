//! A prop kind defined outside the crate, with its public API only, as a game programmer would:
//! beacons on every intersection, their rotor turning faster while the intersection's box is
//! busy... here simply with time. It registers, spawns, steps, is posed and drawn, counted,
//! picked and described, and takes new models, like the built-in kinds.

use std::sync::Arc;

use glam::{Affine3A, Quat, Vec3};
use hecs::{Entity, World};
use props_anim::{Driver, Spec};
use props_crowd::{BoundModel, Convention, PropModel};
use props_frame::{FrameData, ModelId};
use props_scene::town::{roads::LaneId, traffic::Vehicle};
use props_scene::{KindAsset, KindProps, PropInstance, PropKind, SceneError, StepAccess, only_model, town::Town};

use crate::support::{DT, draw, scene, traffic_only, with_threads};

/// A beacon's own component: its rotor angle.
struct Beacon {
    angle: f32,
}

/// The beacons: one per intersection, on the windmill model (its `hub` turns).
struct Beacons {
    turns_per_second: f32,
}

impl PropKind for Beacons {
    fn name(&self) -> &'static str {
        "beacons"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("beacon"),
            units: 1.0,
            place: "intersections",
            role: "beacon",
            variants: false,
            parts: &[("rotor", None)],
            states: &[],
        }
    }

    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let model = only_model(self.name(), models)?;
        let hub = model
            .bindings
            .nodes(&model.model, "rotor", Convention::Named("hub"))
            .map_err(SceneError::of_model("beacon"))?;
        let spec = Spec { drivers: vec![Driver { nodes: hub, axis: Vec3::Z }], ..Spec::default() };
        Ok(vec![BoundModel::new(model.clone(), spec, 0)])
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        let centres: Vec<_> = town.roads.intersections().iter().map(|i| i.centre()).collect();
        for centre in centres {
            let at = Affine3A::from_scale_rotation_translation(
                Vec3::splat(0.2),
                Quat::IDENTITY,
                Vec3::new(centre.x, 0.0, centre.y),
            );
            props.spawn(world, 0, at, (Beacon { angle: 0.0 },));
        }
    }

    fn access(&self) -> StepAccess {
        StepAccess::nothing().writes::<Beacon>().reads::<PropInstance>()
    }

    fn step(&mut self, world: &World, _town: &Town<'_>, props: &mut KindProps, dt: f32) {
        for (beacon, instance) in world.query::<(&mut Beacon, &PropInstance)>().iter() {
            beacon.angle = (beacon.angle + std::f32::consts::TAU * self.turns_per_second * dt) % std::f32::consts::TAU;
            props.of(instance).drivers_mut(instance.index())[0] = beacon.angle;
        }
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let beacon = world.get::<&Beacon>(entity).ok()?;
        Some(format!("beacon at {:.2} rad", beacon.angle))
    }
}

fn beacon_model(id: u32) -> PropModel {
    PropModel::new(ModelId(id), Arc::new(props_scene::kinds::windmills::stand_in().expect("windmill")))
}

#[test]
fn a_kind_defined_outside_the_crate_runs_like_the_built_in_ones() {
    let mut scene = scene(traffic_only(0, 4));
    scene.register(Beacons { turns_per_second: 0.5 }, vec![beacon_model(20)]).expect("beacons register");
    let intersections = scene.roads().intersections().len();
    assert_eq!(scene.count("beacons"), intersections);
    for _ in 0..30 {
        scene.step(DT);
    }
    // Posed by the runtime with their driver, drawn as their own batch.
    let mut frame = FrameData::default();
    draw(&mut scene, &mut frame);
    let batch = frame.batches.iter().find(|b| b.model == ModelId(20)).expect("a batch of beacons");
    assert_eq!(batch.instances.len(), intersections);
    let beacon: Entity = scene.world().query::<(Entity, &Beacon)>().iter().map(|(e, _)| e).next().expect("one");
    let pose = scene.pose_of(beacon).expect("a prop");
    let model = beacon_model(20).model;
    let hub = model.rig().find("hub").expect("hub");
    let turned =
        pose.local_transform(hub).rotation.angle_between(model.pose_at(None, 0.0).local_transform(hub).rotation);
    assert!((turned - std::f32::consts::PI * 0.5).abs() < 1e-3, "half a turn a second, 0.5 s: {turned} rad");
    // Picked and described in its own words.
    let at = Vec3::from(scene.placement_of(beacon).expect("placed").translation);
    let picked = scene.pick(at + Vec3::Y * 50.0, Vec3::NEG_Y).expect("something under the ray");
    let info = scene.describe(picked).expect("a prop");
    assert_eq!(info.kind, "beacons");
    assert!(info.summary.starts_with("beacon at "), "{info:?}");
    // New models: refused when a node is missing, taken otherwise.
    assert!(scene.set_kind_models("beacons", vec![crate::support::models().fox]).is_err());
    scene.set_kind_models("beacons", vec![beacon_model(21)]).expect("another beacon model");
    draw(&mut scene, &mut frame);
    assert!(frame.batches.iter().any(|b| b.model == ModelId(21)));
}

/// A kind that reads the cars every step: how far each has driven, in its own component.
/// It declares what it touches, or (`declared` false) does not, and steps alone.
struct Odometers {
    declared: bool,
}

/// An odometer's own component: the car it follows was last seen at `position` on `lane`.
struct Odometer {
    lane: LaneId,
    position: f32,
    metres: f32,
}

impl PropKind for Odometers {
    fn name(&self) -> &'static str {
        "odometers"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("odometer"),
            units: 1.0,
            place: "cars",
            role: "odometer",
            variants: false,
            parts: &[],
            states: &[],
        }
    }

    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        Ok(vec![BoundModel::new(only_model(self.name(), models)?.clone(), Spec::default(), 0)])
    }

    /// One odometer on each car's entity (the cars' own instance stays theirs).
    fn spawn(&mut self, world: &mut World, _town: &Town<'_>, props: &mut KindProps) {
        let cars: Vec<(Entity, Vehicle)> = world.query::<(Entity, &Vehicle)>().iter().map(|(e, c)| (e, *c)).collect();
        for (entity, car) in cars {
            let odometer = Odometer { lane: car.lane(), position: car.position(), metres: 0.0 };
            props.push(0, Affine3A::IDENTITY);
            world.insert_one(entity, odometer).expect("the car exists");
        }
    }

    fn access(&self) -> StepAccess {
        if self.declared {
            StepAccess::nothing().reads::<Vehicle>().writes::<Odometer>()
        } else {
            StepAccess::everything()
        }
    }

    fn step(&mut self, world: &World, town: &Town<'_>, _props: &mut KindProps, _dt: f32) {
        for (car, odometer) in world.query::<(&Vehicle, &mut Odometer)>().iter() {
            odometer.metres += if car.lane() == odometer.lane {
                car.position() - odometer.position
            } else {
                town.roads.length(odometer.lane) - odometer.position + car.position()
            };
            (odometer.lane, odometer.position) = (car.lane(), car.position());
        }
    }

    fn describe(&self, _world: &World, _town: &Town<'_>, _props: &KindProps, _entity: Entity) -> Option<String> {
        None
    }
}

/// Every odometer's reading, as bits, after `steps` steps on `threads` threads, with beacons
/// (which touch no car) registered before the odometers.
fn odometer_bits(threads: usize, declared: bool, steps: usize) -> Vec<u32> {
    let mut scene = scene(with_threads(traffic_only(60, 5), threads));
    scene.register(Beacons { turns_per_second: 0.5 }, vec![beacon_model(20)]).expect("beacons register");
    scene.register(Odometers { declared }, vec![beacon_model(22)]).expect("odometers register");
    for _ in 0..steps {
        scene.step(DT);
    }
    let mut bits: Vec<u32> = scene.world().query::<&Odometer>().iter().map(|o| o.metres.to_bits()).collect();
    bits.extend(scene.world().query::<&Beacon>().iter().map(|b| b.angle.to_bits()));
    bits
}

/// Kinds step at the same time only when what they declare does not conflict: a kind that
/// reads the cars steps after the traffic has moved them (every odometer reads what the cars
/// drove, as on one thread), beside the beacons; one that declares nothing steps alone.
#[test]
fn kinds_step_at_once_as_they_would_one_after_another() {
    let steps = 240;
    let one = odometer_bits(1, true, steps);
    let driven: f32 = one[..60].iter().map(|b| f32::from_bits(*b)).sum();
    assert!(driven > 100.0, "the cars drove: {driven} m in all");
    for declared in [true, false] {
        assert!(odometer_bits(2, declared, steps) == one, "declared {declared}: two threads differ from one");
    }
}
