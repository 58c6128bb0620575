//! The houses: four per block, one in each corner clear of the roads and of the park in the
//! middle where the foxes walk, facing the road in front of it, wall paint varied per house
//! (the model's materials named `paint`). Static props: with pose sharing every house of a
//! model shares one palette. A mod of the `house` role adds a design: each house picks among
//! the house models, seeded.

use glam::{Affine3A, Quat, Vec2, Vec3};
use hecs::{Entity, World};
use props_anim::Model;

use props_crowd::{BoundModel, PropModel};

use crate::access::StepAccess;
use crate::error::SceneError;
use crate::kind::{KindAsset, KindProps, ModelPick, PropKind, some_models};
use crate::night;
use crate::stand_in_kit::{SyntheticError, build, node};
use crate::town::Town;

/// Where a house stands in its block, as a fraction of the block's side from its centre,
/// along x and z (the corners; the roads run along the block's edges).
const CORNER: f32 = 0.33;

/// Wall paints, sRGB, with full strength.
const PAINTS: [[u8; 4]; 6] = [
    [230, 214, 180, 255],
    [206, 170, 140, 255],
    [190, 200, 206, 255],
    [236, 232, 224, 255],
    [170, 120, 96, 255],
    [214, 200, 150, 255],
];

/// A house's own component: the block it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct House {
    block: u32,
}

impl House {
    /// The block it stands on (in the order of `RoadNetwork::block_centres`).
    #[must_use]
    pub fn block(&self) -> u32 {
        self.block
    }
}

/// The houses kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct Houses;

/// When a house's windows light up: after the town's lamp level passes `after`, fully lit
/// 0.3 later; `never` for a house whose people are away (one in four).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lights {
    after: f32,
    never: bool,
}

impl PropKind for Houses {
    fn name(&self) -> &'static str {
        "houses"
    }

    fn asset(&self) -> KindAsset {
        KindAsset {
            stem: Some("building"),
            units: 1.0,
            place: "blocks",
            role: "house",
            variants: true,
            parts: &[],
            states: &[],
        }
    }

    fn stand_in(&self) -> Option<Result<Model, SyntheticError>> {
        Some(stand_in())
    }

    /// Every house model (at least one): houses pick among them.
    fn bind(&self, models: &[PropModel]) -> Result<Vec<BoundModel>, SceneError> {
        let rig = |house: &PropModel| {
            let (spec, layers) = (night::spec(&house.model), night::layers(&house.model));
            BoundModel { discrete: true, ..BoundModel::new(house.clone(), spec, layers) }
        };
        Ok(some_models(self.name(), models)?.iter().map(rig).collect())
    }

    fn spawn(&mut self, world: &mut World, town: &Town<'_>, props: &mut KindProps) {
        for (number, (house, placement, paint)) in lay_out(town).into_iter().enumerate() {
            let pick = ModelPick::new(number as u64, (town.rng(self.name(), number as u64).next_u64() >> 32) as u32);
            let model = pick.model(props.crowds().len());
            let scale = props.crowd(model).prop().scale;
            let placement = placement * Affine3A::from_scale(Vec3::splat(scale));
            // When its windows light up as the town's lamps do: a little later, or never.
            let dusk = town.rng("house_lights", number as u64).next_u64();
            let lights = Lights { after: (dusk % 1000) as f32 / 1000.0 * 0.7, never: dusk >> 62 == 0 };
            let entity = props.spawn(world, model, placement, (house, pick, lights));
            if let Ok(instance) = world.get::<&crate::PropInstance>(entity) {
                props.crowd_mut(model).set_tint(instance.index(), paint);
            }
        }
    }

    /// Houses do not move; their windows light with the town's clock.
    fn access(&self) -> StepAccess {
        StepAccess::nothing().reads::<Lights>().reads::<crate::PropInstance>()
    }

    fn step(&mut self, world: &World, town: &Town<'_>, props: &mut KindProps, _dt: f32) {
        let level = town.daylight.lamps();
        for (lights, instance) in world.query::<(&Lights, &crate::PropInstance)>().iter() {
            if !props.owns(instance) {
                continue;
            }
            let lit = if lights.never { 0.0 } else { ((level - lights.after) / 0.3).clamp(0.0, 1.0) };
            if let Some(layer) = props.of(instance).layers_mut(instance.index()).first_mut() {
                *layer = night::layer(lit);
            }
        }
    }

    /// Every house picks again among the new models, keeping its placement and paint.
    fn rebind(&mut self, world: &mut World, props: &mut KindProps, models: Vec<BoundModel>) {
        props.repick(world, models);
    }

    fn describe(&self, world: &World, _town: &Town<'_>, _props: &KindProps, entity: Entity) -> Option<String> {
        let house = world.get::<&House>(entity).ok()?;
        Some(format!("house on block {}", house.block()))
    }
}

/// Four houses per block, in its corners, each facing the nearer road along z, with a paint
/// picked from the block's index (deterministic for a town).
fn lay_out(town: &Town<'_>) -> Vec<(House, Affine3A, [u8; 4])> {
    let block = town.roads.block();
    let mut houses = Vec::new();
    for (b, centre) in town.roads.block_centres().enumerate() {
        for (c, (x, z)) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)].into_iter().enumerate() {
            let at = centre + Vec2::new(x, z) * (block * CORNER);
            // The house's front (+Z) towards the road beyond its corner along z.
            let turn = if z > 0.0 { Quat::IDENTITY } else { Quat::from_rotation_y(std::f32::consts::PI) };
            let placement = Affine3A::from_rotation_translation(turn, Vec3::new(at.x, town.terrain.height(at), at.y));
            houses.push((House { block: b as u32 }, placement, PAINTS[(b * 4 + c) % PAINTS.len()]));
        }
    }
    houses
}

/// The house: one static node, `building`.
pub fn stand_in() -> Result<Model, SyntheticError> {
    build(&[node("building", Vec3::ZERO, &[], true)], Vec::new(), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::town::roads::LANE_WIDTH;
    use crate::{Scene, SceneConfig, synthetic};

    /// Houses stand off the roads and out of the parks: no lane passes within the house's
    /// half-diagonal (6.4 m) plus a lane's width, and every house is farther from its block's
    /// centre than the foxes' widest loop.
    #[test]
    fn houses_stand_clear_of_roads_and_parks() {
        let config = SceneConfig::default().with_count("windmills", 0);
        let scene = Scene::new(config, synthetic::town().expect("builds")).expect("scene");
        let roads = scene.roads();
        assert_eq!(scene.count("houses"), roads.block_centres().len() * 4);
        let block = roads.block();
        let houses: Vec<Entity> = scene.world().query::<(Entity, &House)>().iter().map(|(e, _)| e).collect();
        for entity in houses {
            let placement = scene.placement_of(entity).expect("a prop");
            let at = Vec2::new(placement.translation.x, placement.translation.z);
            for lane in roads.lanes() {
                for point in lane.points() {
                    assert!(point.distance(at) > 6.4 + LANE_WIDTH, "a lane at {point} runs through the house at {at}");
                }
            }
            let centre =
                roads.block_centres().min_by(|a, b| a.distance(at).total_cmp(&b.distance(at))).expect("a block");
            assert!(centre.distance(at) > block * 0.28 + 8.0 * 1.2 + 6.4, "the house at {at} stands in the park");
        }
    }
}
