//! A prop kind defined outside the crate, with its public API only, as a game programmer would:
//! beacons on every intersection, their rotor turning faster while the intersection's box is
//! busy... here simply with time. It registers, spawns, steps, is posed and drawn, counted,
//! picked and described, and takes new models, like the built-in kinds.

use std::sync::Arc;

use glam::{Affine3A, Quat, Vec3};
use hecs::Entity;
use props_anim::{Driver, Spec};
use props_frame::{FrameData, ModelId};
use props_scene::{
    Convention, PropInfo, PropInstance, PropKind, PropModel, Props, Rig, Scene, SceneError, Town, only_model, synthetic,
};

use crate::support::{DT, draw, scene, traffic_only};

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

    fn rig(&self, models: &[PropModel]) -> Result<Vec<Rig>, SceneError> {
        let model = only_model(self.name(), models)?;
        let hub = model.bindings.nodes(&model.model, "beacon", "rotor", Convention::Named("hub"))?;
        let spec = Spec { drivers: vec![Driver { nodes: hub, axis: Vec3::Z }], ..Spec::default() };
        Ok(vec![Rig::new(model.clone(), spec, 0)])
    }

    fn spawn(&mut self, town: &mut Town<'_>, props: &mut Props) {
        let centres: Vec<_> = town.roads.intersections().iter().map(|i| i.centre()).collect();
        for centre in centres {
            let at = Affine3A::from_scale_rotation_translation(
                Vec3::splat(0.2),
                Quat::IDENTITY,
                Vec3::new(centre.x, 0.0, centre.y),
            );
            props.spawn(town.world, 0, at, (Beacon { angle: 0.0 },));
        }
    }

    fn step(&mut self, town: &mut Town<'_>, props: &mut Props, dt: f32) {
        for (beacon, instance) in town.world.query_mut::<(&mut Beacon, &PropInstance)>() {
            beacon.angle = (beacon.angle + std::f32::consts::TAU * self.turns_per_second * dt) % std::f32::consts::TAU;
            props.of(instance).drivers_mut(instance.index())[0] = beacon.angle;
        }
    }

    fn describe(&self, scene: &Scene, entity: Entity) -> Option<PropInfo> {
        let beacon = scene.world().get::<&Beacon>(entity).ok()?;
        Some(PropInfo::Other { kind: self.name(), summary: format!("beacon at {:.2} rad", beacon.angle) })
    }
}

fn beacon_model(id: u32) -> PropModel {
    PropModel::new(ModelId(id), Arc::new(synthetic::windmill().expect("windmill")))
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
    assert!(matches!(scene.describe(picked), Some(PropInfo::Other { kind: "beacons", .. })));
    // New models: refused when a node is missing, taken otherwise.
    assert!(scene.set_kind_models("beacons", vec![crate::support::models().fox]).is_err());
    scene.set_kind_models("beacons", vec![beacon_model(21)]).expect("another beacon model");
    draw(&mut scene, &mut frame);
    assert!(frame.batches.iter().any(|b| b.model == ModelId(21)));
}
