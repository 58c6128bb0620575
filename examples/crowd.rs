//! A host of its own, written from the docs: 200 cars driving round ring roads, each turning
//! its wheels by its own speed, and 50 foxes walking circles in the middle, each at its own
//! phase of the `Walk` clip, which loops for as long as the host runs. No ground or wall: the
//! props draw into a plain pass (depth, clear colour, the renderer's 4x MSAA) the host begins
//! with [`StandalonePass::begin`].
//!
//! `cargo run -p props-examples --example crowd` (add `-- --headless --frames 30 --screenshot
//! crowd.png` without a window).

use std::f32::consts::TAU;

use glam::{Affine3A, Quat, Vec3};
use props_examples::{Example, Gpu};
use props_host::{Animates, Camera, HostConfig, InstanceId, Layer, Lighting, PropHost, SKY};
use props_render::{Clear, Renderer, RendererConfig, StandalonePass};

/// Cars, foxes, and the rings they go round (radii, metres).
const CARS: usize = 200;
const FOXES: usize = 50;
const ROADS: [f32; 4] = [34.0, 40.0, 46.0, 52.0];
const FOX_RINGS: [f32; 5] = [6.0, 9.0, 12.0, 15.0, 18.0];
/// A fox walks this fast (m/s); Fox.glb is in centimetres.
const FOX_SPEED: f32 = 1.0;
const FOX_UNITS: f32 = 0.01;

fn main() -> Result<(), props_examples::Error> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).init();
    props_examples::run::<Crowd>()
}

/// One of the host's movers: where it is on its ring (radius, angle), how fast it goes, and
/// the props instance showing it.
#[derive(Clone, Copy, Debug)]
struct Mover {
    radius: f32,
    angle: f32,
    speed: f32,
    /// A car's wheels' turn, radians; a fox's phase in its walk, seconds.
    turn: f32,
    instance: InstanceId,
}

impl Mover {
    /// Facing along its ring (+Z forward), `scale` times its model.
    fn placement(&self, scale: f32) -> Affine3A {
        let at = Vec3::new(self.radius * self.angle.cos(), 0.0, self.radius * self.angle.sin());
        let heading = Quat::from_rotation_y(-self.angle - self.speed.signum() * TAU / 4.0);
        Affine3A::from_scale_rotation_translation(Vec3::splat(scale), heading, at)
    }
}

struct Crowd {
    renderer: Renderer,
    pass: StandalonePass,
    props: PropHost,
    cars: Vec<Mover>,
    foxes: Vec<Mover>,
    wheel_radius: f32,
    walk: u16,
    last: f32,
}

impl Example for Crowd {
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, props_examples::Error> {
        // The renderer draws into the host's colour format, 4x MSAA and Depth32Float by default.
        let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, RendererConfig::new(format));
        let mut props = PropHost::new(HostConfig::default())?;
        let asset = |name: &str| format!("{}/../assets/{name}", env!("CARGO_MANIFEST_DIR"));
        let wheels = ["wheel_front_left", "wheel_front_right", "wheel_rear_left", "wheel_rear_right"];
        let car =
            props.load_file(asset("car.glb").as_ref(), Animates::default().driver(wheels, Vec3::X), &mut renderer)?;
        // Made in centimetres and placed at 0.01 (`FOX_UNITS`): culled and drawn at its levels at
        // that size.
        let fox = props.load_file(asset("Fox.glb").as_ref(), Animates::default(), &mut renderer)?;
        let car_view = props.model(car.model).ok_or("the car is loaded")?;
        let wheel_radius = car_view.node("wheel_rear_left").ok_or("the car has wheels")?.model.translation.y;
        let walk = props.model(fox.model).and_then(|fox| fox.clip("Walk")).ok_or("the fox walks")?;
        let mut mover = |k: usize, rings: &[f32], speed: f32, turn: f32, model| {
            let (radius, angle) = (rings[k % rings.len()], k as f32 * 2.399_963);
            Some(Mover { radius, angle, speed, turn, instance: props.add(model, Affine3A::IDENTITY)? })
        };
        let cars = (0..CARS).filter_map(|k| mover(k, &ROADS, 6.0 + (k % 7) as f32 * 1.5, 0.0, car.model)).collect();
        let phase = |k: usize| k as f32 * 0.37 * walk.duration;
        let foxes = (0..FOXES).filter_map(|k| mover(k, &FOX_RINGS, -FOX_SPEED, phase(k), fox.model)).collect();
        Ok(Self {
            renderer,
            pass: StandalonePass::new(),
            props,
            cars,
            foxes,
            wheel_radius,
            walk: walk.number,
            last: 0.0,
        })
    }

    fn frame(
        &mut self,
        _: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    ) {
        let dt = (seconds - self.last).clamp(0.0, 0.1);
        self.last = seconds;
        // The host's simulation: each mover along its ring; the props told where, and how.
        for car in &mut self.cars {
            car.angle += car.speed * dt / car.radius;
            car.turn = (car.turn + car.speed.abs() * dt / self.wheel_radius) % TAU;
            if let Some(mut instance) = self.props.get_mut(car.instance) {
                instance.set_placement(car.placement(1.0));
                instance.drivers_mut()[0] = car.turn;
            }
        }
        for fox in &mut self.foxes {
            fox.angle += fox.speed * dt / fox.radius;
            if let Some(mut instance) = self.props.get_mut(fox.instance) {
                instance.set_placement(fox.placement(FOX_UNITS));
                assert!(instance.set_layer(0, Layer::looping(self.walk, seconds + fox.turn)), "the fox walks");
            }
        }
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let camera = Camera::look_at(Vec3::new(0.0, 45.0, 75.0), Vec3::ZERO, 0.8, aspect, (0.5, 500.0));
        self.props.prepare(&mut self.renderer, encoder, (&camera, Lighting::default()), size);
        let mut pass = self.pass.begin(&self.renderer, encoder, (target, size), Clear::color(SKY));
        self.renderer.render(&mut pass);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minute and more into the run every car still rolls and every fox still walks: the
    /// image moves, and each instance's state is the host's.
    #[test]
    fn cars_roll_and_foxes_walk_past_a_minute() {
        props_examples::assert_still_moving::<Crowd>(500);
        let Some(mut run) = props_examples::on_gpu(props_examples::Headless::new((160, 90), Crowd::new)) else {
            return;
        };
        run.frame_at(61.0);
        let crowd = &run.example;
        assert_eq!((crowd.cars.len(), crowd.foxes.len()), (CARS, FOXES));
        assert_eq!(crowd.props.instances().len(), CARS + FOXES);
        for car in &crowd.cars {
            assert_eq!(crowd.props.instances().drivers(car.instance), Some(&[car.turn][..]));
        }
        let walk = crowd.props.model(crowd.props.instances().model_of(crowd.foxes[0].instance).expect("a fox"));
        let walk = walk.and_then(|fox| fox.clip("Walk")).expect("the fox walks");
        for fox in &crowd.foxes {
            let layer = crowd.props.instances().layers(fox.instance).expect("live")[0];
            assert_eq!((layer.clip, layer.time), (walk.number, 61.0 + fox.turn));
            // Looping: a minute is many walks, and the layer shows the clip at the wrapped time.
            assert!(layer.clip_time(walk.duration) < walk.duration);
        }
    }
}
