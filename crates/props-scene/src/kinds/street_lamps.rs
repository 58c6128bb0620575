//! The street lamps: one on the kerb side of every road lane, a little after the lane's start,
//! its arm reaching over the lane. They light up at dusk (their model's `night` clip,
//! [`crate::night`]) and turn no node: every lamp is in the same state, so with pose sharing
//! every lamp shares one palette. Written with the kind seam's public API alone
//! (a file and a line in [`crate::kinds::town`]), as a game would add its own.

use glam::{Affine3A, Quat, Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::Model;

use props_crowd::{BoundModel, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::heading_yaw;
use crate::kind::{KindAsset, KindProps, PropKind, only_model};
use crate::night;
use crate::stand_in_kit::{SyntheticError, build, node};
use crate::town::Town;
use crate::town::roads::{LANE_WIDTH, LaneId};

/// How far along its lane a lamp stands, as a fraction of the lane's length (clear of the
/// traffic lights at the lane's end and of the bus stops at 60 %).
const ALONG: f32 = 0.3;
/// Distance of a lamp's pole to the right of its lane's centre, metres (on the sidewalk).
const KERB_OFFSET: f32 = LANE_WIDTH * 0.5 + 1.5;

/// A street lamp's own component: the lane it lights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreetLamp {
    lane: LaneId,
}

impl StreetLamp {
    /// The lane it stands beside.
    #[must_use]
    pub fn lane(&self) -> LaneId {
        self.lane
    }
}

/// The street lamps kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreetLamps;

impl PropKind for StreetLamps {
    fn name(&self) -> &'static str {
        "street_lamps"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("street_lamp"),
            units: 1.0,
            place: "roadsides",
            role: "street_lamp",
            variants: false,
            parts: &[],
            states: &[],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let lamp = only_model(self.name(), models)?;
        let (spec, layers) = (night::spec(&lamp.model), night::layers(&lamp.model));
        Ok(vec![BoundModel { discrete: true, ..BoundModel::new(lamp.clone(), spec, layers) }])
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        let scale = Vec3::splat(props.crowd(0).prop().scale);
        for &lane in town.roads.road_lanes() {
            let (at, d) = town.roads.sample(lane, town.roads.length(lane) * ALONG);
            let right = Vec2::new(-d.y, d.x);
            let foot = at + right * KERB_OFFSET;
            // The arm (the model's +Z) reaches back over the lane.
            let rotation = Quat::from_rotation_y(heading_yaw(-right));
            let placement = Affine3A::from_scale_rotation_translation(scale, rotation, Vec3::new(foot.x, 0.0, foot.y));
            props.spawn(world, 0, placement, (StreetLamp { lane },));
        }
    }

    /// Lamps do not move; they light with the town's clock.
    fn access(&self) -> StepAccess {
        StepAccess::nothing()
    }

    fn step(&mut self, _world: &World, town: &Town<'_>, props: &mut KindProps, _dt: f32) {
        let level = town.daylight.lamps();
        for crowd in props.crowds_mut() {
            for i in 0..crowd.len() as u32 {
                if let Some(layer) = crowd.layers_mut(i).first_mut() {
                    *layer = night::layer(level);
                }
            }
        }
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let lamp = world.get::<&StreetLamp>(entity).ok()?;
        Some(format!("street lamp beside lane {}", lamp.lane().0))
    }
}

/// The street lamp: `pole` → `head`, static.
pub fn stand_in() -> Result<Model, SyntheticError> {
    let nodes = [node("pole", Vec3::ZERO, &[1], true), node("head", Vec3::new(0.0, 5.9, 1.6), &[], true)];
    build(&nodes, Vec::new(), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scene, SceneConfig, synthetic};

    /// One lamp per road lane, standing on the kerb side off the asphalt of every lane (the
    /// connectors across the boxes included), its arm reaching back over its own lane.
    #[test]
    fn a_lamp_stands_beside_every_road_lane_off_the_road() {
        let config = SceneConfig::default().with_count("windmills", 0).with_count("foxes", 0);
        let scene = Scene::new(config, synthetic::town().expect("builds")).expect("scene");
        let roads = scene.roads();
        assert_eq!(scene.count("street_lamps"), roads.road_lanes().len());
        let lamps: Vec<(Entity, StreetLamp)> =
            scene.world().query::<(Entity, &StreetLamp)>().iter().map(|(e, l)| (e, *l)).collect();
        for (entity, lamp) in lamps {
            let placement = scene.placement_of(entity).expect("a prop");
            let foot = Vec2::new(placement.translation.x, placement.translation.z);
            for lane in roads.lanes() {
                let steps = (lane.length() as usize).max(1);
                let nearest = (0..=steps)
                    .map(|k| lane.sample(lane.length() * k as f32 / steps as f32).0.distance(foot))
                    .fold(f32::MAX, f32::min);
                assert!(nearest > LANE_WIDTH * 0.5 + 0.5, "a lamp stands {nearest} m from a lane's centre");
            }
            // The arm (+Z) points at the lamp's own lane.
            let arm = placement.transform_point3(Vec3::Z * 1.6);
            let (on_lane, _) = roads.sample(lamp.lane(), roads.length(lamp.lane()) * ALONG);
            assert!(
                Vec2::new(arm.x, arm.z).distance(on_lane) < foot.distance(on_lane),
                "the arm reaches over its lane"
            );
        }
    }
}
