//! `cargo xtask bench render`: N windmills rendered offscreen, frame after frame.
//!
//! Per configuration it reports the CPU time to upload and encode a frame, the time from
//! submit until the GPU is idle, palette and instance bytes uploaded, and draw calls; then
//! the same instances drawn without skinning (bind pose, no palette reads), as a ratio; then
//! each as a ratio to the floor (`super::floor`), and both shaded by Lambert
//! (`Shading::Lambert`, the floor's fragment work) too: the vertex path's share of the gap,
//! the rest being the material model's. The configurations a ratio compares are drawn in turn,
//! a frame of each per round, and a ratio is the median of each round's (`super::timing`).
//! Palettes are posed once before measuring: this measures the renderer, not the animation.
//! Then morph rows: a 32x32-quad grid (1089 vertices) with 8 and 64 morph targets, every
//! weight non-zero, against the same grid drawn unmorphed; and the same grids at rest (`rest`:
//! every weight 0, each instance marked `InstanceData::MORPH_AT_REST` as a crowd marks it:
//! what targets cost that move nothing). Then shading rows: the model
//! skinned and shaded with glTF's material model (the renderer's) against the Lambert
//! shading it replaced (`Shading::Lambert`: base colour only), at 1k and 10k instances and
//! at the city's visible count (`cargo xtask bench scene --workload city`: about 48,800
//! props in view). Rows other than the shadow rows draw no shadows. Then shadow rows: the
//! sun's shadow map on against off, at the default town's and the city's counts. Then light
//! rows: the skinned model under 0, 100 and 1,000 point and spot
//! lights scattered over its grid (clustered: a pixel pays for the lights near it; at most
//! `props_render::MAX_LIGHTS` are shaded), at the default town's and the city's counts.

use std::path::PathBuf;

use anyhow::{Context, Result};
use glam::{Affine3A, Quat, Vec3};
use props_anim::light::PlacedLight;
use props_anim::{Model, Pose};
use props_frame::{Camera, Frame, FrameData, Lighting, ModelId};
use props_render::{GpuContext, OffscreenTarget, Renderer, RendererConfig, Shading};

use super::floor::Floor;
use super::timing::{Measured, Subject, measure_alternated, measure_each};
use props_bench::workload::GridWeights;

/// Arguments of `cargo xtask bench render`.
#[derive(clap::Args)]
pub struct RenderArgs {
    /// Instance counts to measure.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
    pub counts: Vec<u32>,
    /// Measured frames per configuration (after 3 warm-up rounds): rounds in which each
    /// configuration a ratio compares draws a frame in turn.
    #[arg(long, default_value_t = 10)]
    pub frames: u32,
    /// Image size.
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Image size.
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// The model to instance.
    #[arg(long, default_value = "assets/windmill.glb")]
    pub model: PathBuf,
    /// Morph target counts of the morph rows (a synthetic grid; none given: no morph rows;
    /// likewise for the other rows' lists).
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "8,64")]
    pub morph_targets: Vec<usize>,
    /// Instance counts of the morph rows.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "1000,10000")]
    pub morph_counts: Vec<u32>,
    /// Instance counts of the shading rows (the last: the city's visible count).
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "1000,10000,48800")]
    pub shading_counts: Vec<u32>,
    /// Point and spot lights of the light rows.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "0,100,1000")]
    pub light_counts: Vec<u32>,
    /// Instance counts of the light rows.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "1000,48800")]
    pub light_instances: Vec<u32>,
    /// What to draw: `windmills` (the model's grid and the rows above) or `city` (the scene
    /// bench's city frame, with mesh LOD and without it: `super::city`).
    #[arg(long, default_value = "windmills", value_parser = ["windmills", "city"])]
    pub workload: String,
    /// The city's mesh LOD: the most a level's error may span, in pixels (`MeshLod`'s
    /// `max_error_px`; the game's `--lod-error-px`).
    #[arg(long, value_name = "PX", default_value_t = props_anim::runtime::MeshLod::default().max_error_px)]
    pub max_error_px: f32,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A windmill or morph row: one count of one model, its five configurations drawn in turn.
struct Row {
    model: String,
    count: u32,
    floor: Measured,
    /// Skinned (posed) and in the bind pose, under the material model and under Lambert.
    skinned: Measured,
    unskinned: Measured,
    lambert: Measured,
    bind_lambert: Measured,
}

/// Runs the benchmark.
pub fn run(args: &RenderArgs) -> Result<()> {
    if args.workload == "city" {
        return super::city::run(args);
    }
    let model = props_gltf::import_file(&args.model, &props_gltf::Limits::default())?.model;
    let gpu = pollster::block_on(GpuContext::headless()).context("no GPU adapter")?;
    let adapter = gpu.adapter_description();
    let target = OffscreenTarget::new(&gpu.device, (args.width, args.height));
    let mut rows = Vec::new();
    let name = args.model.file_stem().map_or_else(|| "model".to_owned(), |s| s.to_string_lossy().into_owned());
    let mut workloads = vec![(name, model, args.counts.clone())];
    for &targets in &args.morph_targets {
        for (weights, name) in [(GridWeights::Breathing, ""), (GridWeights::Resting, " rest")] {
            workloads.push((
                format!("morph x{targets}{name}"),
                props_bench::workload::morph_grid(32, targets, weights),
                args.morph_counts.clone(),
            ));
        }
    }
    for (name, model, counts) in &workloads {
        for &count in counts {
            let frame = frame_of(model, count);
            let floor = Floor::new(&gpu.device, &target, model, &frame)?;
            let floor = Subject::Floor(Box::new(floor), grid_camera(count, target.size()));
            let subject =
                |skinning, shading| subject(&gpu, &target, (model, &frame, count, &[]), (skinning, shading, false));
            let [floor, skinned, unskinned, lambert, bind_lambert] = measure_each(
                &gpu,
                &target,
                [
                    floor,
                    subject(true, Shading::Pbr)?,
                    subject(false, Shading::Pbr)?,
                    subject(true, Shading::Lambert)?,
                    subject(false, Shading::Lambert)?,
                ],
                args.frames,
            );
            rows.push(Row { model: name.clone(), count, floor, skinned, unskinned, lambert, bind_lambert });
        }
    }
    let mut shading_rows = Vec::new();
    let (name, model, _) = &workloads[0];
    for &count in &args.shading_counts {
        let frame = frame_of(model, count);
        let subject = |shading| subject(&gpu, &target, (model, &frame, count, &[]), (true, shading, false));
        let [pbr, lambert] =
            measure_each(&gpu, &target, [subject(Shading::Pbr)?, subject(Shading::Lambert)?], args.frames);
        shading_rows.push((name.clone(), count, pbr, lambert));
    }
    let mut shadow_rows = Vec::new();
    for &count in &args.light_instances {
        let frame = frame_of(model, count);
        let subject = |shadows| subject(&gpu, &target, (model, &frame, count, &[]), (true, Shading::Pbr, shadows));
        let [off, on] = measure_each(&gpu, &target, [subject(false)?, subject(true)?], args.frames);
        shadow_rows.push((name.clone(), count, off, on));
    }
    let mut light_rows = Vec::new();
    for &count in &args.light_instances {
        let frame = frame_of(model, count);
        let lights: Vec<Vec<PlacedLight>> = args.light_counts.iter().map(|&n| scattered_lights(count, n)).collect();
        let subjects = lights
            .iter()
            .map(|lights| subject(&gpu, &target, (model, &frame, count, lights), (true, Shading::Pbr, false)))
            .collect::<Result<Vec<_>>>()?;
        let measured = measure_alternated(&gpu, &target, subjects, args.frames);
        // Each row's ratio is to the same instances without lights, drawn in the same rounds.
        let unlit = lights.iter().position(Vec::is_empty);
        for (lights, lit) in lights.iter().zip(&measured) {
            let ratio = unlit.map_or(f64::NAN, |u| lit.times(&measured[u]));
            light_rows.push((name.clone(), count, lights.len(), lit.stats, lit.encode_ms, lit.gpu_ms, ratio));
        }
    }
    if args.json {
        let rows: Vec<_> = rows
            .iter()
            .map(|Row { model, count, floor: f, skinned: s, unskinned: u, lambert: l, bind_lambert: bl }| {
                serde_json::json!({
                    "model": model, "instances": count, "draw_calls": s.stats.draw_calls, "palette_bytes": s.stats.palette_bytes,
                    "triangles": s.stats.all_passes().triangles, "vertices": s.stats.all_passes().vertices,
                    "instance_bytes": s.stats.instance_bytes, "encode_ms": s.encode_ms, "gpu_ms": s.gpu_ms,
                    "unskinned_encode_ms": u.encode_ms, "unskinned_gpu_ms": u.gpu_ms,
                    "ratio": (s.encode_ms + s.gpu_ms) / (u.encode_ms + u.gpu_ms),
                    "floor_gpu_ms": f.gpu_ms, "floor_vertices": f.stats.main_pass.vertices, "floor_ratio": s.times(f), "unskinned_floor_ratio": u.times(f),
                    "lambert_gpu_ms": l.gpu_ms, "lambert_floor_ratio": l.times(f),
                    "unskinned_lambert_gpu_ms": bl.gpu_ms, "unskinned_lambert_floor_ratio": bl.times(f),
                    "pass_ms": s.pass_ms, "unskinned_pass_ms": u.pass_ms,
                })
            })
            .collect();
        let shading: Vec<_> = shading_rows
            .iter()
            .map(|(model, n, p, l)| {
                serde_json::json!({
                    "model": model, "instances": n, "pbr_encode_ms": p.encode_ms, "pbr_gpu_ms": p.gpu_ms,
                    "lambert_encode_ms": l.encode_ms, "lambert_gpu_ms": l.gpu_ms, "gpu_ratio": p.times(l),
                })
            })
            .collect();
        let lights: Vec<_> = light_rows
            .iter()
            .map(|(model, n, lights, stats, encode_ms, gpu_ms, ratio)| {
                serde_json::json!({
                    "model": model, "instances": n, "lights": lights, "lights_shaded": stats.lights,
                    "light_bytes": stats.light_bytes, "encode_ms": encode_ms, "gpu_ms": gpu_ms, "gpu_ratio": ratio,
                })
            })
            .collect();
        let shadows: Vec<_> = shadow_rows
            .iter()
            .map(|(model, n, off, on)| {
                serde_json::json!({
                    "model": model, "instances": n, "off_encode_ms": off.encode_ms, "off_gpu_ms": off.gpu_ms,
                    "on_encode_ms": on.encode_ms, "on_gpu_ms": on.gpu_ms, "shadow_draw_calls": on.stats.shadow_draw_calls,
                    "gpu_ratio": on.times(off),
                })
            })
            .collect();
        let json = serde_json::json!({
            "adapter": adapter, "width": args.width, "height": args.height, "rows": rows, "shading": shading,
            "shadows": shadows, "lights": lights,
        });
        println!("{json}");
        return Ok(());
    }
    println!(
        "render benchmark on {adapter}, {}x{}, median of {} frames; the configurations a ratio compares are \
         drawn in turn, a frame each, and it is the median of each round's",
        args.width, args.height, args.frames
    );
    println!("ratio: (encode + gpu) over the same instances drawn in their bind pose (no skinning, no morph)");
    println!("floor: the simplest pipeline drawing the same instances (one mesh of positions alone, welded, in");
    println!("vertex-cache order: floor vert; one draw, a storage-buffer matrix each, Lambert by face, 4x MSAA);");
    println!("x floor: gpu ms over the floor's, skinned and in the bind pose; lamb x fl and bind lamb: the same under");
    println!("the floor's Lambert (the vertex path's share; the rest is the material model's); pass ms: the main");
    println!("pass's GPU time by timestamp queries, skinned and in the bind pose (- without them)");
    println!(
        "{:<10} {:>9} {:>6} {:>10} {:>10} {:>13} {:>12} {:>10} {:>10} {:>14} {:>14} {:>8} {:>9} {:>10} {:>9} {:>9} {:>9} {:>10} {:>8} {:>9}",
        "model",
        "instances",
        "draws",
        "triangles",
        "vertices",
        "palette B/fr",
        "instance B",
        "encode ms",
        "gpu ms",
        "unskinned enc",
        "unskinned gpu",
        "ratio",
        "floor gpu",
        "floor vert",
        "x floor",
        "bind x fl",
        "lamb x fl",
        "bind lamb",
        "pass ms",
        "bind pass"
    );
    for Row { model, count, floor: f, skinned: s, unskinned: u, lambert, bind_lambert } in &rows {
        let ratio = (s.encode_ms + s.gpu_ms) / (u.encode_ms + u.gpu_ms);
        println!(
            "{model:<10} {count:>9} {:>6} {:>10} {:>10} {:>13} {:>12} {:>10.3} {:>10.2} {:>14.3} {:>14.2} {ratio:>8.2} {:>9.2} {:>10} {:>9.2} {:>9.2} {:>9.2} {:>10.2} {:>8} {:>9}",
            s.stats.draw_calls,
            s.stats.all_passes().triangles,
            s.stats.all_passes().vertices,
            s.stats.palette_bytes,
            s.stats.instance_bytes,
            s.encode_ms,
            s.gpu_ms,
            u.encode_ms,
            u.gpu_ms,
            f.gpu_ms,
            f.stats.main_pass.vertices,
            s.times(f),
            u.times(f),
            lambert.times(f),
            bind_lambert.times(f),
            s.pass_ms.map_or_else(|| "-".to_owned(), |ms| format!("{:.2}", ms[0])),
            u.pass_ms.map_or_else(|| "-".to_owned(), |ms| format!("{:.2}", ms[0])),
        );
    }
    println!("shading: glTF's material model against the Lambert shading it replaced (gpu ratio: pbr over lambert)");
    println!(
        "{:<10} {:>9} {:>10} {:>10} {:>12} {:>12} {:>8}",
        "model", "instances", "pbr enc", "pbr gpu", "lambert enc", "lambert gpu", "ratio"
    );
    for (model, count, p, l) in &shading_rows {
        println!(
            "{model:<10} {count:>9} {:>10.3} {:>10.2} {:>12.3} {:>12.2} {:>8.2}",
            p.encode_ms,
            p.gpu_ms,
            l.encode_ms,
            l.gpu_ms,
            p.times(l)
        );
    }
    println!("shadows: the sun's shadow map on against off (gpu ratio: on over off)");
    println!(
        "{:<10} {:>9} {:>10} {:>10} {:>10} {:>10} {:>12} {:>8}",
        "model", "instances", "off enc", "off gpu", "on enc", "on gpu", "shadow draws", "ratio"
    );
    for (model, count, off, on) in &shadow_rows {
        println!(
            "{model:<10} {count:>9} {:>10.3} {:>10.2} {:>10.3} {:>10.2} {:>12} {:>8.2}",
            off.encode_ms,
            off.gpu_ms,
            on.encode_ms,
            on.gpu_ms,
            on.stats.shadow_draw_calls,
            on.times(off)
        );
    }
    println!("lights: point and spot lights over the grid (gpu ratio: over the same instances without lights)");
    println!(
        "{:<10} {:>9} {:>7} {:>7} {:>12} {:>10} {:>10} {:>8}",
        "model", "instances", "lights", "shaded", "light B/fr", "encode ms", "gpu ms", "ratio"
    );
    for (model, count, lights, stats, encode_ms, gpu_ms, ratio) in &light_rows {
        println!(
            "{model:<10} {count:>9} {lights:>7} {:>7} {:>12} {encode_ms:>10.3} {gpu_ms:>10.2} {ratio:>8.2}",
            stats.lights, stats.light_bytes,
        );
    }
    Ok(())
}

/// `lights` lamps over the grid of `count` instances ([`frame_of`]'s), 8 m up: every other
/// one a point light, the rest spots pointing down, each reaching 20 m.
fn scattered_lights(count: u32, lights: u32) -> Vec<PlacedLight> {
    let side = (count as f32).sqrt().ceil() * 25.0;
    let mut seed = 0x9e37_79b9_u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as f32 / u32::MAX as f32
    };
    (0..lights)
        .map(|k| PlacedLight {
            position: Vec3::new(next() * side, 8.0, -next() * side),
            direction: Vec3::NEG_Y,
            color: Vec3::new(1.0, 0.85, 0.6) * 150.0,
            range: Some(20.0),
            cone: (k % 2 == 1).then_some([0.4, 0.9]),
        })
        .collect()
}

/// `count` instances in a square grid, each in its own pose of the first clip (those whose
/// weights are all zero marked so, by `FrameData::push_posed`).
fn frame_of(model: &Model, count: u32) -> FrameData {
    let mut frame = FrameData::default();
    let side = (count as f32).sqrt().ceil() as u32;
    let mut pose = Pose::from_rest(model.rig());
    let clip = model.clips().first();
    for i in 0..count {
        let (x, z) = ((i % side) as f32 * 25.0, (i / side) as f32 * -25.0);
        if let Some(clip) = clip {
            clip.sample(clip.duration() * (i as f32 * 0.618_034).fract(), &mut pose);
        }
        pose.compute_world(model.rig());
        let transform = Affine3A::from_rotation_translation(Quat::from_rotation_y(0.2), Vec3::new(x, 0.0, z));
        frame.push_posed(model, &pose, &transform);
    }
    frame.end_batch(ModelId(0));
    frame
}

/// The camera over [`frame_of`]'s grid of `count` instances, for a target of `(w, h)`.
fn grid_camera(count: u32, (w, h): (u32, u32)) -> Camera {
    let side = (count as f32).sqrt().ceil() * 25.0;
    let eye = Vec3::new(side * 0.5, side * 0.35 + 40.0, side * 0.25 + 60.0);
    Camera::look_at(eye, Vec3::new(side * 0.5, 0.0, -side * 0.5), 0.9, w as f32 / h as f32, (1.0, 10.0 * side))
}

/// The renderer drawing `count` instances of `model` (`frame_data`) under `lights`, skinned or
/// not, shaded as `shading` says, with the sun's shadows or without, seen by the grid's camera.
fn subject<'a>(
    gpu: &GpuContext,
    target: &OffscreenTarget,
    (model, frame_data, count, lights): (&Model, &'a FrameData, u32, &'a [PlacedLight]),
    (skinning, shading, shadows): (bool, Shading, bool),
) -> Result<Subject<'a>> {
    let config = RendererConfig {
        skinning,
        shading,
        shadows,
        pass_timing: true,
        ..RendererConfig::new(props_render::OFFSCREEN_FORMAT)
    };
    let mut renderer = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, config);
    renderer.set_model(ModelId(0), model).context("uploading the model")?;
    let camera = grid_camera(count, target.size());
    let frame = Frame { lights, ..frame_data.to_frame(camera, Lighting::default(), props_frame::SKY) };
    Ok(Subject::renderer(renderer, frame))
}
