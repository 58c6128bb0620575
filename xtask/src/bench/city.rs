//! `cargo xtask bench render --workload city`: the scene bench's city frame (100k windmills,
//! 10k cars, 10k foxes and the buses; its camera, visible set and poses, at noon) drawn
//! offscreen as the game draws it (4x MSAA, the sun's shadows), with mesh LOD and without it
//! (`--no-mesh-lod`), in the same run: each scene is stepped for the same simulated time from
//! the same seed, then their frames are drawn in turn, a frame of each per round
//! (`super::timing`). Rows give the triangles and vertices every pass submitted together, and
//! per pass.

use std::path::Path;

use anyhow::{Context, Result};
use props_anim::runtime::MeshLod;
use props_crowd::PosingConfig;
use props_frame::{Camera, FrameData, OrbitCamera};
use props_render::{GpuContext, OffscreenTarget, Renderer, RendererConfig};
use props_scene::{Scene, SceneConfig};

use super::render::RenderArgs;
use super::scene::{city, load_models};
use super::timing::{Measured, Subject, measure_each, pass_summary};

/// The game's fixed step.
const DT: f32 = 1.0 / 60.0;
/// Simulated seconds before the frame is taken (windmills start at random headings).
const SETTLE: f32 = 2.0;

/// The city's frame, posed with mesh LOD or without it, seen from the scene bench's camera
/// for a target of `size` pixels: the scene, its frame and the camera.
pub(crate) fn city_frame(
    models: &[Vec<props_crowd::PropModel>],
    mesh_lod: Option<MeshLod>,
    (width, height): (u32, u32),
) -> Result<(Scene, FrameData, Camera)> {
    let config = city();
    let config = SceneConfig { posing: PosingConfig { mesh_lod, threads: 0, ..config.posing }, ..config };
    let kinds = props_scene::kinds::town().into_iter().zip(models.iter().cloned());
    let mut scene = Scene::new(config, kinds.collect::<Vec<_>>())?;
    let camera = OrbitCamera::overview(scene.terrain().flat_radius()).to_camera(width as f32 / height as f32);
    scene.set_camera(Some(camera));
    scene.set_view_height(height);
    let mut frame = FrameData::default();
    for _ in 0..(SETTLE / DT) as usize {
        scene.step(DT);
        frame.clear();
        scene.animate(&mut frame);
        scene.extract(&mut frame);
    }
    Ok((scene, frame, camera))
}

/// Measures and prints (or writes as JSON) the two rows.
pub fn run(args: &RenderArgs) -> Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let models = load_models(&root.join("assets"))?;
    let gpu = pollster::block_on(GpuContext::headless()).context("no GPU adapter")?;
    let target = OffscreenTarget::new(&gpu.device, (args.width, args.height));
    let size = (args.width, args.height);
    let mesh_lod = MeshLod { max_error_px: args.max_error_px, ..MeshLod::default() };
    let (lod_scene, lod_frame, camera) = city_frame(&models, Some(mesh_lod), size)?;
    let (full_scene, full_frame, _) = city_frame(&models, None, size)?;
    let daylight = lod_scene.daylight();
    let (light, sky) = (daylight.lighting(), daylight.sky_color());
    drop((lod_scene, full_scene));
    // A renderer each: each reads back its own passes' times.
    let renderer = || -> Result<Renderer> {
        let config = RendererConfig { pass_timing: true, ..RendererConfig::new(props_render::OFFSCREEN_FORMAT) };
        let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, config);
        for prop in models.iter().flatten() {
            renderer.set_model(prop.id, &prop.model).with_context(|| format!("uploading model {:?}", prop.id))?;
        }
        Ok(renderer)
    };
    let subjects = [
        Subject::renderer(renderer()?, lod_frame.to_frame(camera, light, sky)),
        Subject::renderer(renderer()?, full_frame.to_frame(camera, light, sky)),
    ];
    let [on, off] = measure_each(&gpu, &target, subjects, args.frames);
    let lod_ratio = on.times(&off);
    let summary = [("city", "on", on), ("city", "off", off)];
    let adapter = gpu.adapter_description();
    if args.json {
        let rows: Vec<_> = summary
            .iter()
            .map(|(workload, lod, Measured { stats, encode_ms, gpu_ms, pass_ms, .. })| {
                let passes: Vec<_> = std::iter::once(&stats.main_pass)
                    .chain(&stats.shadow_passes)
                    .map(|p| serde_json::json!({"triangles": p.triangles, "vertices": p.vertices}))
                    .collect();
                serde_json::json!({
                    "workload": workload, "mesh_lod": lod, "instances": stats.instances,
                    "draw_calls": stats.draw_calls, "shadow_draw_calls": stats.shadow_draw_calls,
                    "triangles": stats.all_passes().triangles, "vertices": stats.all_passes().vertices, "passes": passes,
                    "encode_ms": encode_ms, "gpu_ms": gpu_ms, "floor_gpu_ms": serde_json::Value::Null,
                    "pass_ms": pass_ms,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "adapter": adapter, "width": args.width, "height": args.height,
                "max_error_px": args.max_error_px, "rows": rows,
            })
        );
        return Ok(());
    }
    // The sun's shadows are on; at the overview every prop may lie past their reach.
    let shadows = if summary.iter().all(|(_, _, m)| m.stats.shadow_draw_calls == 0) {
        "shadows on (no caster within their reach of this view)"
    } else {
        "shadows"
    };
    println!(
        "city frame on {adapter}, {}x{}, 4x MSAA, {shadows}, mesh LOD within {} px; median of {} frames, \
         the two drawn in turn",
        args.width, args.height, args.max_error_px, args.frames
    );
    println!("triangles: all passes (main + 3 cascades); per pass: main/near/mid/far cascade, thousands");
    println!("pass ms: each pass's GPU time by timestamp queries, main/near/mid/far cascade (- without them)");
    println!(
        "{:<6} {:>8} {:>9} {:>6} {:>7} {:>12} {:>12} {:>26} {:>10} {:>10} {:>24}",
        "scene",
        "mesh lod",
        "instances",
        "draws",
        "shadow",
        "triangles",
        "vertices",
        "triangles per pass (k)",
        "encode ms",
        "gpu ms",
        "pass ms"
    );
    for (workload, lod, Measured { stats, encode_ms, gpu_ms, pass_ms, .. }) in &summary {
        let per_pass: Vec<String> = std::iter::once(&stats.main_pass)
            .chain(&stats.shadow_passes)
            .map(|p| (p.triangles / 1000).to_string())
            .collect();
        println!(
            "{workload:<6} {lod:>8} {:>9} {:>6} {:>7} {:>12} {:>12} {:>26} {encode_ms:>10.2} {gpu_ms:>10.2} {:>24}",
            stats.instances,
            stats.draw_calls,
            stats.shadow_draw_calls,
            stats.all_passes().triangles,
            stats.all_passes().vertices,
            per_pass.join("/"),
            pass_summary(*pass_ms),
        );
    }
    let (on, off) = (&summary[0].2, &summary[1].2);
    println!(
        "mesh lod: {:.1}x fewer triangles, {lod_ratio:.2}x the gpu time (the median of each round's ratio)",
        off.stats.all_passes().triangles as f64 / on.stats.all_passes().triangles.max(1) as f64,
    );
    Ok(())
}
