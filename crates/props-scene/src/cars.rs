//! Car props: placed on their lane, wheels rolling with the car's speed and front wheels
//! steering with the curvature of the lane under the front axle, all by procedural overrides
//! of the car model's nodes (the `drive` clip is not used).

use std::f32::consts::TAU;

use glam::{Affine3A, Quat, Vec3};
use hecs::World;
use props_anim::Pose;

use crate::models::CarRig;
use crate::roads::RoadNetwork;
use crate::traffic::Car;
use crate::{Placement, heading_yaw};

/// Time constant of the steering: how quickly the wheels follow the road's curvature, seconds.
const STEER_TIME: f32 = 0.25;
/// Largest steering angle, radians.
const MAX_STEER: f32 = 0.7;

/// The wheel state of a car.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CarWheels {
    spin: f32,
    curvature: f32,
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
}

/// Steering angle about +Y of a front wheel `offset` metres left of the centreline, for a path
/// of `curvature` and a car of `wheelbase` (Ackermann: the inner wheel turns more).
fn steer_angle(curvature: f32, wheelbase: f32, offset: f32) -> f32 {
    let denominator = (1.0 - curvature * offset).max(0.1);
    (wheelbase * curvature / denominator).atan().clamp(-MAX_STEER, MAX_STEER)
}

/// Places every car on its lane, rolls and steers its wheels, and poses it.
pub(crate) fn animate(world: &mut World, roads: &RoadNetwork, rig: &CarRig, dt: f32) {
    let model = &rig.prop.model;
    let steer_ease = 1.0 - (-dt / STEER_TIME).exp();
    let s = rig.prop.scale;
    let (scale, radius, wheelbase, front_axle) =
        (Vec3::splat(s), rig.wheel_radius * s, rig.wheelbase * s, rig.front_axle * s);
    for (car, wheels, placement, pose) in world.query_mut::<(&Car, &mut CarWheels, &mut Placement, &mut Pose)>() {
        let lane = roads.lane(car.lane());
        let (at, direction) = lane.sample(car.position());
        placement.0 = Affine3A::from_scale_rotation_translation(
            scale,
            Quat::from_rotation_y(heading_yaw(direction)),
            Vec3::new(at.x, 0.0, at.y),
        );
        wheels.spin = (wheels.spin + car.speed() * dt / radius).rem_euclid(TAU);
        // The front wheels steer for the lane they are over, which may already be the next one.
        let ahead = if car.position() + front_axle > lane.length() { roads.lane(car.next_lane()) } else { lane };
        wheels.curvature += (ahead.curvature() - wheels.curvature) * steer_ease;

        let roll = Quat::from_rotation_x(wheels.spin);
        for (pivot, offset) in rig.steer.iter().zip(rig.pivot_offset) {
            let steer = steer_angle(wheels.curvature, wheelbase, offset * s);
            pose.set_local_transform(pivot.id, pivot.rotated(Quat::from_rotation_y(steer)));
        }
        for wheel in &rig.wheels {
            pose.set_local_transform(wheel.id, wheel.rotated(roll));
        }
        pose.compute_world(model.rig());
    }
}

/// A fresh car prop's other components (its pose is set by the next [`animate`]).
pub(crate) fn car_components(rig: &CarRig) -> (CarWheels, Placement, Pose) {
    (CarWheels::default(), Placement(Affine3A::IDENTITY), Pose::from_rest(rig.prop.model.rig()))
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
