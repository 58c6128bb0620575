//! A host of its own, written from the docs: 200 cars driving round ring roads, each turning
//! its wheels by its own speed, and 50 foxes going round circles in the middle, each at a
//! speed of its own that rises and falls (walking, trotting, running, now and then stopping to
//! look about): their gaits follow it, their feet planted. No ground or wall: the props draw
//! into a plain pass (depth, clear colour, the renderer's 4x MSAA) the host begins with
//! [`StandalonePass::begin`].
//!
//! `cargo run -p props-examples --example crowd` (add `-- --headless --frames 30 --screenshot
//! crowd.png` without a window).

use std::f32::consts::TAU;

use glam::{Affine3A, Quat, Vec3};
use props_examples::{Example, Gpu};
use props_host::{Animates, Camera, HostConfig, InstanceId, Lighting, PropHost, SKY};
use props_render::{Clear, Renderer, RendererConfig, StandalonePass};

/// Cars, foxes, and the rings they go round (radii, metres).
const CARS: usize = 200;
const FOXES: usize = 50;
const ROADS: [f32; 4] = [34.0, 40.0, 46.0, 52.0];
const FOX_RINGS: [f32; 5] = [6.0, 9.0, 12.0, 15.0, 18.0];
/// A fox's top speed (m/s); Fox.glb is in centimetres.
const FOX_SPEED: f32 = 3.0;
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
    /// A car's wheels' turn, radians; a fox's phase in its pace's rise and fall, seconds.
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
    /// The fox's standing clip, which it shows while it stops.
    survey: u16,
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
        // Foxes walk and run by their speeds, and stand surveying when they stop. Made in
        // centimetres and placed at 0.01 (`FOX_UNITS`), declared so: near the camera they are
        // posed every frame and their feet planted as a metre-sized model's would be.
        let gaits = Animates::default().gaits("Walk", "Run", ["Survey"]);
        let fox = props.load_file(asset("Fox.glb").as_ref(), gaits, &mut renderer)?;
        if !props.set_metres_per_unit(fox.model, FOX_UNITS) {
            return Err("the fox is loaded".into());
        }
        let car_view = props.model(car.model).ok_or("the car is loaded")?;
        let wheel_radius = car_view.node("wheel_rear_left").ok_or("the car has wheels")?.model.translation.y;
        let survey = props.model(fox.model).and_then(|fox| fox.clip("Survey")).ok_or("the fox surveys")?;
        let mut mover = |k: usize, rings: &[f32], speed: f32, turn: f32, model| {
            let (radius, angle) = (rings[k % rings.len()], k as f32 * 2.399_963);
            Some(Mover { radius, angle, speed, turn, instance: props.add(model, Affine3A::IDENTITY)? })
        };
        let cars = (0..CARS).filter_map(|k| mover(k, &ROADS, 6.0 + (k % 7) as f32 * 1.5, 0.0, car.model)).collect();
        let foxes = (0..FOXES).filter_map(|k| mover(k, &FOX_RINGS, 0.0, k as f32 * 1.37, fox.model)).collect();
        Ok(Self {
            renderer,
            pass: StandalonePass::new(),
            props,
            cars,
            foxes,
            wheel_radius,
            survey: survey.number,
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
            fox.speed = -fox_speed(seconds + fox.turn);
            fox.angle += fox.speed * dt / fox.radius;
            if let Some(mut instance) = self.props.get_mut(fox.instance) {
                instance.set_placement(fox.placement(FOX_UNITS));
                // Stopped, it surveys; moving, its gaits follow its speed.
                assert!(instance.set_gait(fox.speed.abs(), Some(self.survey)), "the fox walks");
            }
        }
        self.props.advance(dt);
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let camera = Camera::look_at(Vec3::new(0.0, 45.0, 75.0), Vec3::ZERO, 0.8, aspect, (0.5, 500.0));
        self.props.prepare(&mut self.renderer, encoder, (&camera, Lighting::default()), size);
        let mut pass = self.pass.begin(&self.renderer, encoder, (target, size), Clear::color(SKY));
        self.renderer.render(&mut pass);
    }
}

/// A fox's speed at `seconds` into its pace's rise and fall (a 20 s cycle): stopped for 4 s,
/// then up to a run and back.
fn fox_speed(seconds: f32) -> f32 {
    let phase = seconds.rem_euclid(20.0);
    if phase < 4.0 { 0.0 } else { FOX_SPEED * (0.5 - 0.5 * ((phase - 4.0) / 16.0 * TAU).cos()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minute and more into the run every car still rolls and every fox still goes its
    /// pace: the image moves, and each instance's state is the host's.
    #[test]
    fn cars_roll_and_foxes_walk_past_a_minute() {
        props_examples::assert_still_moving::<Crowd>(500);
        let Some(mut run) = props_examples::on_gpu(props_examples::Headless::new((160, 90), Crowd::new)) else {
            return;
        };
        run.frame_at(60.0);
        run.frame_at(61.0);
        let crowd = &run.example;
        assert_eq!((crowd.cars.len(), crowd.foxes.len()), (CARS, FOXES));
        assert_eq!(crowd.props.instances().len(), CARS + FOXES);
        for car in &crowd.cars {
            assert_eq!(crowd.props.instances().drivers(car.instance), Some(&[car.turn][..]));
        }
        // Each fox's gait follows its speed: stopped ones survey, fast ones run.
        let mut gaits = std::collections::BTreeSet::new();
        for fox in &crowd.foxes {
            let gait = crowd.props.instances().gait(fox.instance).expect("a walker").gait();
            let speed = fox.speed.abs();
            match gait {
                props_host::Gait::Idle => assert!(speed < 0.35, "standing at {speed} m/s"),
                props_host::Gait::Walk => assert!(speed > 0.0 && speed < 2.0, "walking at {speed} m/s"),
                props_host::Gait::Run => assert!(speed > 1.0, "running at {speed} m/s"),
            }
            gaits.insert(format!("{gait:?}"));
        }
        assert_eq!(gaits.len(), 3, "some stand, some walk, some run: {gaits:?}");
    }
}
