//! A district streamed in while the frames go on, written from the docs: 100 foxes, loaded
//! before the first frame, walk on a grid; `car.glb` and `bus.glb` are read, checked and
//! uploaded on loading threads of their own ([`ModelReader::read_file`]), and each joins the
//! host between two frames as soon as it is ready ([`PropHost::add_read`]), ten placed in a
//! row. No frame waits for a file.
//!
//! `cargo run -p props-examples --example stream` (add `-- --headless --frames 60 --screenshot
//! stream.png` without a window).

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};

use glam::{Affine3A, Vec3};
use props_examples::{Example, Gpu};
use props_host::{Animates, Camera, HostConfig, InstanceId, Layer, Lighting, LoadError, PropHost, ReadModel, SKY};
use props_render::{Clear, Renderer, RendererConfig, StandalonePass};

/// The foxes' grid (a side), and Fox.glb's units: centimetres.
const FOX_SIDE: usize = 10;
const FOX_UNITS: f32 = 0.01;
/// The streamed files, and the row each is placed on: its z and the gap between two, metres.
const STREAMED: [(&str, f32, f32); 2] = [("car.glb", 22.0, 4.0), ("bus.glb", -24.0, 5.0)];
/// Instances placed of each streamed model.
const ROW: usize = 10;

fn asset(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets")).join(name)
}

fn main() -> Result<(), props_examples::Error> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).init();
    props_examples::run::<Stream>()
}

struct Stream {
    renderer: Renderer,
    pass: StandalonePass,
    props: PropHost,
    /// Each fox and its phase in its walk, seconds.
    foxes: Vec<(InstanceId, f32)>,
    walk: u16,
    /// What the loading threads read: the file's place in [`STREAMED`], and the model or why not.
    arrivals: Receiver<(usize, Result<ReadModel, LoadError>)>,
    /// The frame each streamed file joined in, in [`STREAMED`]'s order.
    arrived: [Option<u32>; STREAMED.len()],
    frames: u32,
}

impl Example for Stream {
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, props_examples::Error> {
        let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, RendererConfig::new(format));
        let mut props = PropHost::new(HostConfig::default())?;
        // The foxes, before the first frame, each at its own phase of `Walk`.
        let fox = props.load_file(&asset("Fox.glb"), Animates::default(), &mut renderer)?.model;
        // Made in centimetres, placed at 0.01: rated as a model in metres is.
        if !props.set_metres_per_unit(fox, FOX_UNITS) {
            return Err("the fox is loaded".into());
        }
        let walk = props.model(fox).and_then(|fox| fox.clip("Walk")).ok_or("the fox walks")?;
        let mut foxes = Vec::with_capacity(FOX_SIDE * FOX_SIDE);
        for k in 0..FOX_SIDE * FOX_SIDE {
            let at = Vec3::new((k % FOX_SIDE) as f32 * 3.0 - 13.5, 0.0, (k / FOX_SIDE) as f32 * 3.0 - 13.5);
            let placement = Affine3A::from_scale_rotation_translation(Vec3::splat(FOX_UNITS), Default::default(), at);
            foxes.push((props.add(fox, placement).ok_or("the fox is loaded")?, k as f32 * 0.37 * walk.duration));
        }
        // The district: each file on a loading thread of its own, which ends with its file.
        let (sender, arrivals) = channel();
        let reader = props.reader(&renderer);
        for (k, (name, ..)) in STREAMED.into_iter().enumerate() {
            let (reader, sender) = (reader.clone(), sender.clone());
            // The host gone first, nobody wants the model any more.
            std::thread::spawn(move || drop(sender.send((k, reader.read_file(&asset(name))))));
        }
        let pass = StandalonePass::new();
        Ok(Self { renderer, pass, props, foxes, walk: walk.number, arrivals, arrived: [None; 2], frames: 0 })
    }

    fn frame(
        &mut self,
        _: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    ) {
        // The frame's boundary: what the loading threads finished joins the host, placed.
        while let Ok((k, read)) = self.arrivals.try_recv() {
            let (name, z, gap) = STREAMED[k];
            let added = read.and_then(|read| self.props.add_read(read, Animates::default(), &mut self.renderer));
            match added {
                Ok(loaded) => {
                    for i in 0..ROW {
                        let at = Vec3::new((i as f32 - 4.5) * gap, 0.0, z);
                        self.props.add(loaded.model, Affine3A::from_translation(at));
                    }
                    self.arrived[k] = Some(self.frames);
                }
                Err(error) => tracing::error!(%error, name, "a streamed file did not load"),
            }
        }
        // The host's clock into every fox: nothing advances time but the host.
        for &(id, phase) in &self.foxes {
            if let Some(mut fox) = self.props.get_mut(id) {
                assert!(fox.set_layer(0, Layer::looping(self.walk, seconds + phase)), "the fox walks");
            }
        }
        let aspect = size.0 as f32 / size.1.max(1) as f32;
        let camera = Camera::look_at(Vec3::new(0.0, 35.0, 60.0), Vec3::ZERO, 0.8, aspect, (0.5, 500.0));
        self.props.prepare(&mut self.renderer, encoder, (&camera, Lighting::default()), size);
        let mut pass = self.pass.begin(&self.renderer, encoder, (target, size), Clear::color(SKY));
        self.renderer.render(&mut pass);
        self.frames += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// The district arrives while the foxes walk: the frames go on meanwhile, both models join
    /// with their rows, and the buses, drawn, change the image where they stand.
    #[test]
    fn the_district_joins_while_the_foxes_walk() {
        let Some(mut run) = props_examples::on_gpu(props_examples::Headless::new((320, 180), Stream::new)) else {
            return;
        };
        run.frame_at(0.0);
        let before = run.image().expect("the frame");
        let start = Instant::now();
        while run.example.arrived.contains(&None) {
            assert!(start.elapsed() < Duration::from_secs(20), "the district never came");
            run.frame_at(0.0);
        }
        assert_eq!(run.example.props.instances().len(), FOX_SIDE * FOX_SIDE + 2 * ROW);
        run.frame_at(0.0);
        let after = run.image().expect("the frame");
        // The buses' row, a third of the way down the image.
        let differ = (0..320).filter(|&x| before.get_pixel(x, 60) != after.get_pixel(x, 60)).count();
        assert!(differ > 50, "{differ} pixels of the buses' row changed");
    }

    #[test]
    fn it_still_moves_past_a_minute() {
        props_examples::assert_still_moving::<Stream>(40);
    }
}
