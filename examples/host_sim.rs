//! A host with its own simulation and no ECS: a `Vec` of vehicles driving along two lanes,
//! one behind the host's wall and one in front ([`props_examples::world`]), each speeding up
//! and slowing down. Each frame the host moves them, turns each car's wheels by its own speed,
//! steers a little and lights the tail lamps of those braking (a material value set per
//! instance), and hands that state to the props ([`PropHost`]), which pose what the camera sees
//! and list it for the renderer. A car that reaches the end of its lane is removed and a new one is added at the
//! start: ids of the others stay valid.
//!
//! `cargo run -p props-examples --example host_sim` (add `-- --headless --frames 60
//! --screenshot host_sim.png` without a window).

use glam::{Affine3A, Quat, Vec3};
use props_examples::world::{self, HostWorld};
use props_examples::{Example, Gpu};
use props_host::{Animates, HostConfig, InstanceId, MaterialField, PropHost};
use props_host::{Lighting, ModelId};
use props_render::Renderer;

/// The lanes (their z), each car's lane, start and speed (m/s), and the paints.
const BEHIND: f32 = -8.0;
const FRONT: f32 = 2.0;
const CARS: [(f32, f32, f32); 6] = [
    (BEHIND, -3.0, 4.0),
    (BEHIND, 14.0, 9.0),
    (BEHIND, -22.0, 6.0),
    (FRONT, 2.0, -3.0),
    (FRONT, -14.0, -7.0),
    (FRONT, 20.0, -5.0),
];
const PAINTS: [[u8; 4]; 3] = [[200, 30, 30, 255], [30, 60, 200, 255], [230, 200, 40, 255]];
/// Where a lane ends (|x|), metres.
const LANE_END: f32 = 30.0;
/// The tail lamps' emissive colour while braking, and otherwise (linear).
const BRAKING: [f32; 3] = [1.0, 0.05, 0.03];
const DARK: [f32; 3] = [0.0; 3];

fn main() -> Result<(), props_examples::Error> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).init();
    props_examples::run::<HostSim>()
}

/// One of the host's vehicles: its own state, and the props instance showing it.
#[derive(Clone, Copy, Debug)]
struct Vehicle {
    lane: f32,
    x: f32,
    /// Its cruising speed (signed: the direction), and its speed now, m/s.
    cruise: f32,
    speed: f32,
    /// Whether it is slowing down.
    braking: bool,
    /// How far its wheels have turned, radians.
    wheel_angle: f32,
    paint: [u8; 4],
    instance: InstanceId,
}

impl Vehicle {
    /// Its model-to-world transform: facing along its lane in its direction of travel.
    fn placement(&self) -> Affine3A {
        let yaw = if self.cruise >= 0.0 { std::f32::consts::FRAC_PI_2 } else { -std::f32::consts::FRAC_PI_2 };
        Affine3A::from_rotation_translation(Quat::from_rotation_y(yaw), Vec3::new(self.x, 0.0, self.lane))
    }
}

struct HostSim {
    world: HostWorld,
    renderer: Renderer,
    props: PropHost,
    car: ModelId,
    wheel_radius: f32,
    vehicles: Vec<Vehicle>,
    last: f32,
}

impl Example for HostSim {
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, props_examples::Error> {
        let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, world::renderer_config(format));
        let mut props = PropHost::new(HostConfig::default())?;
        // Driver 0 rolls the four wheels about X, driver 1 turns the front pivots about Y; the
        // tail lamps' emissive colour is set per car (three values).
        let wheels = ["wheel_front_left", "wheel_front_right", "wheel_rear_left", "wheel_rear_right"];
        let steering = ["steer_front_left", "steer_front_right"];
        let animates = Animates::default()
            .driver(wheels, Vec3::X)
            .driver(steering, Vec3::Y)
            .material_value("taillight", MaterialField::Emissive);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/car.glb");
        let car = props.load_file(path.as_ref(), animates, &mut renderer)?.model;
        // The wheels' radius: how high their centres stand at rest.
        let wheel = props.model(car).and_then(|car| car.node("wheel_rear_left")).ok_or("the car has its wheels")?;
        let wheel_radius = wheel.model.translation.y.max(0.1);
        let mut sim = Self {
            world: HostWorld::new(&gpu.device, format, &renderer),
            renderer,
            props,
            car,
            wheel_radius,
            vehicles: Vec::new(),
            last: 0.0,
        };
        for (k, &(lane, x, speed)) in CARS.iter().enumerate() {
            sim.spawn(lane, x, speed, PAINTS[k % PAINTS.len()])?;
        }
        Ok(sim)
    }

    fn frame(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    ) {
        let dt = (seconds - self.last).clamp(0.0, 0.1);
        self.last = seconds;
        self.step(dt, seconds);
        let camera = world::camera(size);
        self.props.prepare(&mut self.renderer, encoder, (&camera, Lighting::default()), size);
        let mut pass =
            self.world.begin_pass((&gpu.device, &gpu.queue), encoder, (target, size), (&camera, &self.renderer));
        self.renderer.render(&mut pass);
    }
}

impl HostSim {
    /// Adds a vehicle and the instance showing it.
    fn spawn(&mut self, lane: f32, x: f32, speed: f32, paint: [u8; 4]) -> Result<(), props_examples::Error> {
        let instance = self.props.add(self.car, Affine3A::IDENTITY).ok_or("the car model is loaded")?;
        let vehicle = Vehicle { lane, x, cruise: speed, speed, braking: false, wheel_angle: 0.0, paint, instance };
        if let Some(mut car) = self.props.get_mut(instance) {
            car.set_placement(vehicle.placement());
            car.set_tint(paint);
        }
        self.vehicles.push(vehicle);
        Ok(())
    }

    /// The host's simulation: moves every vehicle `dt` seconds at a speed that swings about
    /// its cruise, sets its instance's placement, wheels, steering and tail lamps; a vehicle
    /// past its lane's end is removed and one starts over.
    fn step(&mut self, dt: f32, seconds: f32) {
        for vehicle in &mut self.vehicles {
            let phase = 0.7 * seconds + vehicle.cruise;
            vehicle.speed = vehicle.cruise * (0.75 + 0.25 * phase.sin());
            vehicle.braking = phase.cos() < 0.0;
            vehicle.x += vehicle.speed * dt;
            vehicle.wheel_angle += vehicle.speed.abs() * dt / self.wheel_radius;
            if let Some(mut car) = self.props.get_mut(vehicle.instance) {
                car.set_placement(vehicle.placement());
                let drivers = car.drivers_mut();
                drivers[0] = vehicle.wheel_angle;
                drivers[1] = 0.15 * (seconds * 0.8 + vehicle.lane).sin();
                car.values_mut().copy_from_slice(if vehicle.braking { &BRAKING } else { &DARK });
            }
        }
        let gone: Vec<Vehicle> = self.vehicles.iter().copied().filter(|v| v.x.abs() > LANE_END).collect();
        self.vehicles.retain(|v| v.x.abs() <= LANE_END);
        for vehicle in gone {
            self.props.remove(vehicle.instance);
            let start = -LANE_END * vehicle.cruise.signum();
            if let Err(error) = self.spawn(vehicle.lane, start, vehicle.cruise, vehicle.paint) {
                tracing::error!(%error, "a car could not start over");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use props_examples::Headless;
    use props_examples::world::WALL_COLOR;
    use props_examples::world::checks::{is_color, over_the_wall, pixel_at};
    use props_host::PropertyTarget;

    use super::*;

    /// A minute and more into the run it still moves: every clip it plays loops.
    #[test]
    fn it_still_moves_past_a_minute() {
        props_examples::assert_still_moving::<HostSim>(100);
    }

    /// A point on a car's painted side, metres above its origin.
    const BODY: Vec3 = Vec3::new(0.0, 0.5, 0.0);

    fn run(frames: u32) -> Option<Headless<HostSim>> {
        let mut run = props_examples::on_gpu(Headless::new((320, 180), HostSim::new))?;
        for _ in 0..frames {
            run.frame();
        }
        Some(run)
    }

    /// The host's own vehicles are drawn where its simulation put them: behind the wall hidden
    /// by the host's depth, in front of it drawn over it; a ray from the eye picks the car it
    /// meets first.
    #[test]
    fn the_hosts_vehicles_show_where_its_simulation_puts_them() {
        let Some(run) = run(3) else { return };
        let image = run.image().expect("the frame");
        let size = image.dimensions();
        let sim = &run.example;
        let at = |v: &Vehicle| Vec3::new(v.x, 0.0, v.lane) + BODY;
        let behind = sim.vehicles.iter().find(|v| v.lane == BEHIND && over_the_wall(size, at(v))).expect("one behind");
        let front = sim.vehicles.iter().find(|v| v.lane == FRONT && over_the_wall(size, at(v))).expect("one in front");
        let hidden = pixel_at(&image, at(behind));
        assert!(is_color(hidden, WALL_COLOR), "the wall hides the car behind it, not {hidden:?}");
        let drawn = pixel_at(&image, at(front));
        assert!(!is_color(drawn, WALL_COLOR), "the car in front is drawn over the wall");
        let [r, g, b] = drawn;
        let paint = front.paint;
        let strongest = |c: [u8; 3]| (0..3).max_by_key(|&k| c[k]).expect("three channels");
        assert_eq!(strongest([r, g, b]), strongest([paint[0], paint[1], paint[2]]), "in its paint: {drawn:?}");

        let eye = world::camera(size).eye;
        assert_eq!(sim.props.pick(eye, at(front) - eye), Some(front.instance), "the ray meets the front car first");
    }

    /// Each car's wheels turn by the angle its own speed rolls them, about their axle, its tail
    /// lamps glow while it brakes, and cars that left their lane were replaced without
    /// disturbing the others' ids.
    #[test]
    fn wheels_turn_by_the_hosts_speeds_and_ids_survive_cars_coming_and_going() {
        let frames = 150;
        let Some(run) = run(frames) else { return };
        let sim = &run.example;
        assert_eq!(sim.vehicles.len(), CARS.len());
        assert_eq!(sim.props.instances().len(), CARS.len(), "one instance per vehicle: those removed are gone");
        let started_over =
            sim.vehicles.iter().filter(|v| v.wheel_angle < v.cruise.abs() * 0.5 * 4.0 / sim.wheel_radius);
        assert!(started_over.count() >= 1, "some car reached the end of its lane in {frames} frames");

        let model = sim.props.model(sim.car).expect("the car").model();
        let wheel = model.rig().find("wheel_front_left").expect("a wheel");
        let pivot = model.rig().find("steer_front_left").expect("a pivot");
        let material =
            model.materials().iter().position(|m| m.name.as_deref() == Some("taillight")).expect("tail lamps");
        let target = PropertyTarget::Material { material: material as u32, field: MaterialField::Emissive };
        let taillight = model.rig().properties().find(target).expect("the night clip animates the tail lamps");
        for vehicle in &sim.vehicles {
            let drivers = sim.props.instances().drivers(vehicle.instance).expect("live");
            assert_eq!(drivers[0], vehicle.wheel_angle);
            let lamps = if vehicle.braking { BRAKING } else { DARK };
            assert_eq!(sim.props.instances().values(vehicle.instance), Some(&lamps[..]));
            let pose = sim.props.instances().pose_of(vehicle.instance).expect("live");
            // The wheel's rotation relative to its pivot: its rest turned by the angle about X.
            let turned = pose.world_matrix(pivot).inverse() * pose.world_matrix(wheel);
            let rest = model.rig().rest_matrix(wheel);
            let expected = rest * Affine3A::from_rotation_x(vehicle.wheel_angle);
            assert!(turned.abs_diff_eq(expected, 1e-4), "{turned:?} is not {expected:?}");
            // The tail lamps' material, as the host set it.
            assert_eq!(pose.property(taillight), &lamps, "braking: {}", vehicle.braking);
        }
        let braking = sim.vehicles.iter().filter(|v| v.braking).count();
        assert!(braking > 0 && braking < sim.vehicles.len(), "some cars brake and some do not: {braking}");
    }
}
