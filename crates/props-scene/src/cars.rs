//! Car props: placed on their lane, wheels rolling with the car's speed and front wheels
//! steering with the curvature of the lane under the front axle, all by the animation
//! runtime's drivers (the `drive` clip is not used).

use std::f32::consts::TAU;

use glam::{Affine3A, Vec3};
use hecs::World;

use crate::PropInstance;
use crate::crowds::PropCrowd;
use crate::facing;
use crate::models::{Animated, CarGeometry};
use crate::roads::RoadNetwork;
use crate::traffic::Car;

/// Time constant of the steering: how quickly the wheels follow the road's curvature, seconds.
const STEER_TIME: f32 = 0.25;
/// Largest steering angle, radians.
const MAX_STEER: f32 = 0.7;
/// A car standing still this long opens its doors (if its model has a `doors` clip), seconds.
pub const DOORS_AFTER: f32 = 2.0;

/// The wheel state of a car.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CarWheels {
    spin: f32,
    curvature: f32,
    /// How long the car has stood still, seconds.
    still: f32,
    /// Where its `doors` clip is: 0 closed, its length open.
    doors: f32,
}

impl CarWheels {
    /// Roll angle of every wheel about its X axis, radians in `[0, 2 pi)`; positive rolls forward.
    #[must_use]
    pub fn spin(&self) -> f32 {
        self.spin
    }

    /// Curvature the front wheels are steered for (1/m, positive to the left).
    #[must_use]
    pub fn curvature(&self) -> f32 {
        self.curvature
    }

    /// Time into the `doors` clip of a car model that has one: 0 while closed, growing to the
    /// clip's length as they open once the car has stood still [`DOORS_AFTER`] seconds,
    /// going back as they close when it moves.
    #[must_use]
    pub fn doors(&self) -> f32 {
        self.doors
    }
}

/// Steering angle about +Y of a front wheel `offset` metres left of the centreline, for a path
/// of `curvature` and a car of `wheelbase` (Ackermann: the inner wheel turns more).
fn steer_angle(curvature: f32, wheelbase: f32, offset: f32) -> f32 {
    let denominator = (1.0 - curvature * offset).max(0.1);
    (wheelbase * curvature / denominator).atan().clamp(-MAX_STEER, MAX_STEER)
}

/// Where `car` stands: on its lane, facing along it, `scale` times the model.
pub(crate) fn placement(car: &Car, roads: &RoadNetwork, scale: f32) -> Affine3A {
    let (at, direction) = roads.lane(car.lane()).sample(car.position());
    facing(direction, scale, Vec3::new(at.x, 0.0, at.y))
}

/// Car paints, sRGB, picked per car from the town's seed (white, silver, black, red, blue,
/// green, yellow, orange, by how common they are on roads).
const PAINTS: [[u8; 3]; 12] = [
    [236, 236, 232],
    [236, 236, 232],
    [180, 182, 186],
    [180, 182, 186],
    [34, 34, 38],
    [34, 34, 38],
    [170, 24, 30],
    [26, 64, 160],
    [26, 64, 160],
    [40, 110, 60],
    [220, 180, 30],
    [220, 110, 30],
];

/// The paint of a car whose random draw is `pick` (fully painted: alpha 255).
pub(crate) fn paint(pick: u64) -> [u8; 4] {
    let [r, g, b] = PAINTS[(pick % PAINTS.len() as u64) as usize];
    [r, g, b, 255]
}

/// Which of the car models a car shows: picked from a random number drawn when it was
/// spawned, so the choice is seeded, and made again the same way when the models change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CarModel {
    /// The car's spawn number.
    number: u64,
    pick: u32,
    variant: u16,
}

impl CarModel {
    /// The model car number `number` shows among `models` (at least one), picked by `pick`.
    pub fn new(number: u64, pick: u32, models: usize) -> Self {
        Self { number, pick, variant: (pick as usize % models.max(1)) as u16 }
    }

    /// The index of its model (its crowd).
    pub fn variant(self) -> usize {
        usize::from(self.variant)
    }
}

/// Moves every car into the crowds of a new set of car models (one per model, in
/// [`crate::models::Rigs::cars`] order), keeping its placement and wheel state: each car's
/// model is picked again among the new ones, cars in spawn order.
pub(crate) fn recompile(world: &mut World, rigs: &[(Animated, CarGeometry)], crowds: &mut Vec<PropCrowd>) {
    let Some(first) = crowds.first() else { return };
    let mut next: Vec<PropCrowd> =
        rigs.iter().map(|(animated, _)| first.empty_like(animated.clone(), animated.spec.clips.len())).collect();
    let mut cars: Vec<(hecs::Entity, CarModel, u32)> = world
        .query_mut::<(hecs::Entity, &CarModel, &PropInstance)>()
        .into_iter()
        .map(|(e, m, i)| (e, *m, i.0))
        .collect();
    cars.sort_by_key(|(_, model, _)| model.number);
    for (entity, model, instance) in cars {
        let old = &crowds[model.variant()];
        let moved = CarModel::new(model.number, model.pick, next.len());
        let crowd = &mut next[moved.variant()];
        let j = crowd.push(old.placement(instance));
        crowd.drivers_mut(j).copy_from_slice(old.drivers(instance));
        crowd.set_tint(j, old.tint(instance));
        if let Ok(mut component) = world.get::<&mut CarModel>(entity) {
            *component = moved;
        }
        if let Ok(mut component) = world.get::<&mut PropInstance>(entity) {
            component.0 = j;
        }
    }
    *crowds = next;
}

/// Places every car on its lane and rolls and steers its wheels, each with its model's
/// geometry and scale.
pub(crate) fn animate(
    world: &mut World,
    roads: &RoadNetwork,
    rigs: &[(Animated, CarGeometry)],
    crowds: &mut [PropCrowd],
    dt: f32,
) {
    let steer_ease = 1.0 - (-dt / STEER_TIME).exp();
    for (car, wheels, model, instance) in world.query_mut::<(&Car, &mut CarWheels, &CarModel, &PropInstance)>() {
        let (cars, geometry) = (&mut crowds[model.variant()], &rigs[model.variant()].1);
        let s = cars.prop().scale;
        let (radius, wheelbase, front_axle) =
            (geometry.wheel_radius * s, geometry.wheelbase * s, geometry.front_axle * s);
        cars.set_placement(instance.0, placement(car, roads, s));
        let lane = roads.lane(car.lane());
        wheels.spin = (wheels.spin + car.speed() * dt / radius).rem_euclid(TAU);
        // The front wheels steer for the lane they are over, which may already be the next one.
        let ahead = if car.position() + front_axle > lane.length() { roads.lane(car.next_lane()) } else { lane };
        wheels.curvature += (ahead.curvature() - wheels.curvature) * steer_ease;
        let [left, right] = geometry.pivot_offset.map(|offset| steer_angle(wheels.curvature, wheelbase, offset * s));
        cars.drivers_mut(instance.0).copy_from_slice(&[wheels.spin, left, right]);
        if let Some(length) = geometry.doors {
            wheels.still = if car.is_standing() { wheels.still + dt } else { 0.0 };
            let opening = wheels.still >= DOORS_AFTER;
            wheels.doors = (wheels.doors + if opening { dt } else { -dt }).clamp(0.0, length);
            cars.layers_mut(instance.0)[0] = props_anim::Layer::clip(0, wheels.doors);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ackermann_inner_wheel_turns_more() {
        // A left turn (positive curvature): the left wheel (positive offset) is inside.
        let (left, right) = (steer_angle(0.1, 2.6, 0.78), steer_angle(0.1, 2.6, -0.78));
        assert!(left > right && right > 0.0);
        assert_eq!(steer_angle(0.0, 2.6, 0.78), 0.0);
        assert!(steer_angle(-0.1, 2.6, 0.78) < 0.0);
    }
}
