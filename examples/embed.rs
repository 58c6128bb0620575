//! Props in a host's own pass: the host draws its ground and a wall with its own pipeline and
//! depth buffer ([`props_examples::world`]), then the props renderer records two spinning
//! windmills into the same pass, one behind the wall (hidden below its top by the host's
//! depth) and one in front. The host's ground receives the windmills' shadows.
//!
//! `cargo run -p props-examples --example embed` (add `-- --headless --frames 30 --screenshot
//! embed.png` without a window).

use glam::{Affine3A, Vec3};
use props_examples::world::{self, HostWorld};
use props_examples::{Example, Gpu};
use props_host::Lighting;
use props_host::{Animates, HostConfig, InstanceId, Layer, PropHost};
use props_render::Renderer;

/// Where the windmills stand: behind the wall, and in front of it.
const WINDMILLS: [Vec3; 2] = [Vec3::new(-2.0, 0.0, -8.0), Vec3::new(3.0, 0.0, 5.0)];

fn main() -> Result<(), props_examples::Error> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).init();
    props_examples::run::<Embed>()
}

/// The host's world and the props: renderer, models and instances.
struct Embed {
    world: HostWorld,
    renderer: Renderer,
    props: PropHost,
    windmills: Vec<InstanceId>,
}

impl Example for Embed {
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, props_examples::Error> {
        // A renderer drawing into the host's format, depth and samples; the windmill admitted
        // through the gate, its report's issues logged (a refusal says what and where).
        let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, world::renderer_config(format));
        if renderer.sample_count() != world::SAMPLES {
            return Err("the adapter cannot multisample 4x".into());
        }
        let mut props = PropHost::new(HostConfig::default())?;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/windmill.glb");
        let windmill = props.load_file(path.as_ref(), Animates::default().clips(["spin"]), &mut renderer)?;
        for issue in &windmill.report.issues {
            tracing::warn!(%issue, "windmill.glb");
        }
        let windmills = WINDMILLS.iter().filter_map(|at| props.add(windmill.model, Affine3A::from_translation(*at)));
        let windmills = windmills.collect();
        Ok(Self { world: HostWorld::new(&gpu.device, format, &renderer), renderer, props, windmills })
    }

    fn frame(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    ) {
        // Props: each windmill's rotor at its own phase; posed, listed and uploaded.
        let camera = world::camera(size);
        for (k, &id) in self.windmills.iter().enumerate() {
            if let Some(mut windmill) = self.props.get_mut(id) {
                assert!(windmill.set_layer(0, Layer::looping(0, seconds + k as f32 * 0.7)), "the windmill spins");
            }
        }
        self.props.prepare(&mut self.renderer, encoder, (&camera, Lighting::default()), size);

        // The host's pass: its clear, depth and MSAA target, its ground and wall; then the props.
        let mut pass =
            self.world.begin_pass((&gpu.device, &gpu.queue), encoder, (target, size), (&camera, &self.renderer));
        self.renderer.render(&mut pass);
    }
}

#[cfg(test)]
mod tests {
    use props_examples::world::checks::{is_color, over_the_wall, pixel_at};
    use props_examples::world::{WALL_COLOR, WINDMILL_TOWER};

    use super::*;

    /// A minute and more into the run it still moves: every clip it plays loops.
    #[test]
    fn it_still_moves_past_a_minute() {
        props_examples::assert_still_moving::<Embed>(100);
    }

    /// The front windmill's tower casts its shadow on the host's ground: where the sun's ray
    /// through the tower meets the ground, the ground is darker than beside it.
    #[test]
    fn the_props_shadows_fall_on_the_hosts_ground() {
        let Some(image) = props_examples::on_gpu(props_examples::headless::<Embed>((640, 360), 3)) else { return };
        let sun = Lighting::default().direction;
        for height in [3.0, 4.5, 6.0] {
            // Where the sun's ray through the tower at `height` meets the ground.
            let shadow = WINDMILLS[1] + Vec3::Y * height - sun * (height / sun.y);
            let beside = shadow - Vec3::X * 3.0;
            let (dark, lit) = (pixel_at(&image, shadow)[1], pixel_at(&image, beside)[1]);
            assert!(
                f32::from(dark) < 0.85 * f32::from(lit),
                "at {height} m: the shadow {dark}, the ground beside {lit}"
            );
        }
    }

    /// The windmill behind the wall is hidden where the wall stands before it (the host's
    /// depth), shows above the wall, and the one in front is drawn over the wall's side.
    #[test]
    fn the_hosts_depth_hides_props_behind_its_wall() {
        let Some(image) = props_examples::on_gpu(props_examples::headless::<Embed>((320, 180), 3)) else { return };
        let behind = WINDMILLS[0] + Vec3::new(0.0, 2.0, 0.0);
        let front = WINDMILLS[1] + Vec3::new(0.0, 2.0, 0.0);
        let above = WINDMILLS[0] + Vec3::new(0.0, WINDMILL_TOWER, 0.0);
        let size = image.dimensions();
        assert!(over_the_wall(size, behind) && over_the_wall(size, front) && !over_the_wall(size, above));
        let hidden = pixel_at(&image, behind);
        assert!(is_color(hidden, WALL_COLOR), "the wall hides the tower behind it, not {hidden:?}");
        for p in [front, above] {
            let pixel = pixel_at(&image, p);
            assert!(pixel.iter().all(|&c| c > 150), "a white tower at {p}, not {pixel:?}");
        }
    }
}
