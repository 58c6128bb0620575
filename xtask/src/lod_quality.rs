//! `cargo xtask lod-quality`: what mesh LOD costs in looks, measured with the same renderer,
//! scene and camera with mesh LOD and without it (`--no-mesh-lod`):
//!
//! - **Stills**: the city frame of `cargo xtask bench render --workload city` (100k windmills,
//!   10k cars, 10k foxes; its camera, poses and noon light), mean and 99th-percentile FLIP
//!   between the two, at 1920x1080 and 640x360.
//! - **Popping**: a 240-frame camera dolly towards the default town (from the game's first
//!   view to a fifth of its distance), stepped alike in both; per frame the mean change of a
//!   pixel from the frame before (0 to 1, over R, G and B). A prop turning to another level
//!   changes pixels a frame without LOD would not: the ratio of the two means (with over
//!   without) is how much LOD adds.
//!
//! Offscreen at 4x MSAA with the sun's shadows, as the game draws, props only (no ground). The
//! stills are written to `target/lod-quality/` to look at.

use std::path::Path;

use anyhow::{Context, Result};
use image::RgbaImage;
use props_anim::runtime::MeshLod;
use props_crowd::PosingConfig;
use props_frame::{Camera, FrameData, OrbitCamera};
use props_render::{GpuContext, OffscreenTarget, Renderer, RendererConfig, StandalonePass};
use props_scene::{Scene, SceneConfig};

use crate::bench::{city_frame, load_models};

/// Frames of the dolly.
const DOLLY_FRAMES: usize = 240;
/// The dolly's image size.
const DOLLY_SIZE: (u32, u32) = (640, 360);
/// The game's fixed step.
const DT: f32 = 1.0 / 60.0;

/// Draws `frame` seen by `camera` at noon into a new target of `size` and reads it back.
fn draw(
    gpu: &GpuContext,
    renderer: &mut Renderer,
    (scene, frame, camera): (&Scene, &FrameData, Camera),
    size: (u32, u32),
) -> Result<RgbaImage> {
    let target = OffscreenTarget::new(&gpu.device, size);
    let daylight = scene.daylight();
    let frame = frame.to_frame(camera, daylight.lighting(), daylight.sky_color());
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    StandalonePass::new().draw(renderer, &mut encoder, (target.view(), size), &frame);
    gpu.queue.submit([encoder.finish()]);
    let pixels = target.read_rgba8(&gpu.device, &gpu.queue)?;
    RgbaImage::from_raw(size.0, size.1, pixels).context("an image of the target's size")
}

/// The mean change of a pixel between two images, 0 to 1, over R, G and B.
fn mean_change(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let sum: u64 =
        a.pixels().zip(b.pixels()).map(|(p, q)| (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>()).sum();
    sum as f64 / (3.0 * 255.0 * f64::from(a.width() * a.height()))
}

/// What `cargo xtask lod-quality` is asked.
#[derive(clap::Args, Debug)]
pub struct LodQualityArgs {
    /// Mesh LOD's quality: the most a level's error may span, in pixels (`MeshLod`'s
    /// `max_error_px`; the game's `--lod-error-px`).
    #[arg(long, value_name = "PX", default_value_t = MeshLod::default().max_error_px)]
    pub max_error_px: f32,
}

/// Measures and prints both.
pub fn run(args: &LodQualityArgs) -> Result<()> {
    let mesh_lod = MeshLod { max_error_px: args.max_error_px, ..MeshLod::default() };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let models = load_models(&root.join("assets"))?;
    let gpu = pollster::block_on(GpuContext::headless()).context("no GPU adapter")?;
    let mut renderer =
        Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, RendererConfig::new(props_render::OFFSCREEN_FORMAT));
    for prop in models.iter().flatten() {
        renderer.set_model(prop.id, &prop.model).with_context(|| format!("uploading model {:?}", prop.id))?;
    }
    println!("mesh LOD (levels within {} px) against none, on {}", args.max_error_px, gpu.adapter_description());
    for size in [(1920, 1080), (640, 360)] {
        let (with, with_frame, camera) = city_frame(&models, Some(mesh_lod), size)?;
        let (without, without_frame, _) = city_frame(&models, None, size)?;
        let a = draw(&gpu, &mut renderer, (&with, &with_frame, camera), size)?;
        let b = draw(&gpu, &mut renderer, (&without, &without_frame, camera), size)?;
        let (difference, _) = props_tests::golden::compare(&a, &b);
        let out = root.join("target/lod-quality");
        std::fs::create_dir_all(&out)?;
        for (name, image) in [("lod", &a), ("full", &b)] {
            image.save(out.join(format!("city-{}x{}-{name}.png", size.0, size.1)))?;
        }
        println!(
            "city still {}x{}: mean FLIP {:.4}, 99th percentile {:.4}",
            size.0, size.1, difference.mean, difference.p99
        );
    }
    let town = |mesh_lod| {
        let config = SceneConfig::default();
        let config = SceneConfig { posing: PosingConfig { mesh_lod, ..config.posing }, ..config };
        let kinds = props_scene::kinds::town().into_iter().zip(models.iter().cloned());
        Scene::new(config, kinds.collect::<Vec<_>>())
    };
    let mut scenes = [town(Some(mesh_lod))?, town(None)?];
    let start = OrbitCamera::overview(scenes[0].terrain().flat_radius());
    let mut last: [Option<RgbaImage>; 2] = [None, None];
    let mut change = [0.0; 2];
    let mut frame = FrameData::default();
    for k in 0..DOLLY_FRAMES {
        let t = k as f32 / (DOLLY_FRAMES - 1) as f32;
        let orbit = OrbitCamera { distance: start.distance * (1.0 - 0.8 * t), ..start };
        let camera = orbit.to_camera(DOLLY_SIZE.0 as f32 / DOLLY_SIZE.1 as f32);
        for (scene, (last, change)) in scenes.iter_mut().zip(last.iter_mut().zip(&mut change)) {
            scene.step(DT);
            scene.set_camera(Some(camera));
            scene.set_view_height(DOLLY_SIZE.1);
            frame.clear();
            scene.animate(&mut frame);
            scene.extract(&mut frame);
            let image = draw(&gpu, &mut renderer, (scene, &frame, camera), DOLLY_SIZE)?;
            if let Some(before) = last.as_ref() {
                *change += mean_change(before, &image) / (DOLLY_FRAMES - 1) as f64;
            }
            *last = Some(image);
        }
    }
    println!(
        "dolly of {DOLLY_FRAMES} frames towards the town at {}x{}: mean change of a pixel a frame {:.5} with mesh LOD, \
         {:.5} without ({:.3}x)",
        DOLLY_SIZE.0,
        DOLLY_SIZE.1,
        change[0],
        change[1],
        change[0] / change[1]
    );
    Ok(())
}
