//! Running without a window: offscreen frames at the configured size, for tests, tools and
//! servers, until `--frames` or `--run-for` is reached or Ctrl-C / SIGTERM arrives;
//! `--screenshot` saves the last frame. The town, or with `--preview FILE` the previewer (its
//! clip, time and treadmill as asked, without its HUD).

use std::time::{Duration, Instant};

use anyhow::Context as _;
use props_render::{FrameStats, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget};

use crate::cli::Args;
use crate::demo::Demo;
use crate::gpu::Gpu;
use crate::preview::Preview;
use crate::screen::Screen;
use crate::shutdown::Shutdown;

/// Frame period when following the wall clock (no `--fixed-dt`): do not spin faster.
const FRAME_PERIOD: Duration = Duration::from_micros(16_667);
/// Interval of the status log line.
const STATUS_EVERY: Duration = Duration::from_secs(5);

/// Runs the demo (or, with `--preview FILE`, the previewer) offscreen.
pub fn run(args: &Args, shutdown: &Shutdown) -> anyhow::Result<()> {
    let context = pollster::block_on(GpuContext::headless())?;
    tracing::info!(adapter = %context.adapter_description(), "rendering offscreen");
    let mut gpu = Gpu::new(context, args.renderer_config(OFFSCREEN_FORMAT), args.lose_device_after);
    if args.preview.is_some() {
        let mut preview = Preview::open(args, &mut gpu.renderer);
        let run = drive(args, shutdown, &mut gpu, &mut preview, |_, _, _, _, _| {})?;
        tracing::info!(frames = run.frames, seconds = format!("{:.2}", run.seconds), "headless preview finished");
        return Ok(());
    }
    let mut demo = Demo::new(args, &mut gpu)?;
    let run = drive(args, shutdown, &mut gpu, &mut demo, status)?;
    tracing::info!(
        frames = run.frames,
        seconds = format!("{:.2}", run.seconds),
        sim_seconds = format!("{:.2}", demo.sim_time()),
        reached = format!("{:.2}", demo.reached_rate().unwrap_or(0.0)),
        gpu_models = gpu.renderer.model_count(),
        gpu_errors = gpu.context.uncaptured_errors(),
        mods = demo.mod_count(),
        phase_ms = %phase_summary(&demo),
        gpu_pass_ms = %demo.timings.pass_summary(),
        triangles = run.submitted.triangles,
        vertices = run.submitted.vertices,
        "headless run finished"
    );
    Ok(())
}

/// The frames since the last status line.
#[derive(Clone, Copy, Debug, Default)]
struct Interval {
    /// Frames drawn.
    frames: u64,
    /// Wall-clock seconds it spans.
    seconds: f64,
    /// The slowest of them, from the frame before's start to its start: a hitch (a mod's
    /// upload, say) that the smoothed frame rate hides.
    slowest: Duration,
}

/// What a headless run did.
struct Run {
    /// Frames drawn.
    frames: u64,
    /// Wall-clock seconds it took.
    seconds: f64,
    /// What the last frame drawn submitted, all passes together.
    submitted: props_render::PassCount,
}

/// Draws `screen`'s frames offscreen until `--frames` or `--run-for` is reached or a shutdown
/// is asked for, logging `status` every [`STATUS_EVERY`]; writes `--screenshot`.
fn drive<S: Screen>(
    args: &Args,
    shutdown: &Shutdown,
    gpu: &mut Gpu,
    screen: &mut S,
    status: impl Fn(&S, &Gpu, &FrameStats, u64, Interval),
) -> anyhow::Result<Run> {
    let mut target = OffscreenTarget::new(&gpu.context.device, args.size);
    let started = Instant::now();
    let (mut last, mut last_status) = (started, started);
    let mut frames = 0u64;
    let mut interval = Interval::default();
    let mut submitted = props_render::PassCount::default();
    loop {
        if gpu.recover(None)? {
            target = OffscreenTarget::new(&gpu.context.device, args.size);
            screen.upload_all(&mut gpu.renderer)?;
        }
        let now = Instant::now();
        interval.slowest = interval.slowest.max(now - last);
        let drawn = screen.frame(gpu, now - last, Some((target.view(), target.size())))?;
        let (encoder, stats) = drawn.context("an offscreen frame is always drawn")?;
        last = now;
        let drawing = Instant::now();
        gpu.context.queue.submit([encoder.finish()]);
        // Wait for the GPU, so that a slow adapter cannot queue up frames without bound.
        let waited = gpu.context.device.poll(wgpu::PollType::wait_indefinitely());
        screen.drawn_in(drawing.elapsed());
        match waited {
            Ok(_) => {
                gpu.frame_drawn();
                frames += 1;
                interval.frames += 1;
                submitted = stats.all_passes();
            }
            // A lost device is recovered at the next frame; this one is not counted.
            Err(error) => tracing::warn!(%error, "waiting for the GPU failed"),
        }
        if now - last_status >= STATUS_EVERY {
            interval.seconds = (now - last_status).as_secs_f64();
            last_status = now;
            status(screen, gpu, &stats, frames, interval);
            interval = Interval::default();
        }
        let out_of_frames = args.frames.is_some_and(|n| frames >= n);
        let out_of_time = args.run_for.is_some_and(|s| started.elapsed().as_secs_f64() >= s);
        if out_of_frames || out_of_time || shutdown.requested() {
            break;
        }
        if args.fixed_dt.is_none() {
            std::thread::sleep(FRAME_PERIOD.saturating_sub(now.elapsed()));
        }
    }
    if let Some(path) = &args.screenshot {
        let rgba = target.read_rgba8(&gpu.context.device, &gpu.context.queue)?;
        let (width, height) = target.size();
        image::save_buffer(path, &rgba, width, height, image::ExtendedColorType::Rgba8)
            .with_context(|| format!("writing the screenshot {}", path.display()))?;
        tracing::info!(path = %path.display(), width, height, "screenshot written");
    }
    Ok(Run { frames, seconds: started.elapsed().as_secs_f64(), submitted })
}

/// The town's status line: `fps` and `slowest_ms` over the frames since the last one
/// (`interval`), the rest as of the last frame (times smoothed).
fn status(demo: &Demo, gpu: &Gpu, stats: &FrameStats, frames: u64, interval: Interval) {
    let animation = demo.animation_stats();
    let fps = if interval.seconds > 0.0 { interval.frames as f64 / interval.seconds } else { 0.0 };
    tracing::info!(
        frames,
        fps = format!("{fps:.1}"),
        slowest_ms = format!("{:.1}", interval.slowest.as_secs_f64() * 1000.0),
        time_scale = demo.time_scale,
        reached = format!("{:.2}", demo.reached_rate().unwrap_or(0.0)),
        props = demo.prop_count(),
        kinds = %kind_summary(demo),
        instances = stats.instances,
        posed = animation.posed,
        deferred = animation.deferred,
        close_ups = animation.close_ups,
        joints = animation.palette_matrices,
        draw_calls = stats.draw_calls,
        shadow_draw_calls = stats.shadow_draw_calls,
        triangles = %pass_summary(stats, |pass| pass.triangles),
        vertices = %pass_summary(stats, |pass| pass.vertices),
        phase_ms = %phase_summary(demo),
        gpu_pass_ms = %demo.timings.pass_summary(),
        lights = stats.lights,
        gpu_models = gpu.renderer.model_count(),
        gpu_errors = gpu.context.uncaptured_errors(),
        "status"
    );
}

/// The smoothed phase times, `simulate/animate/extract/upload/draw` in milliseconds.
fn phase_summary(demo: &Demo) -> String {
    let [simulate, animate, extract, upload, draw] = demo.timings.ms;
    format!("{simulate:.2}/{animate:.2}/{extract:.2}/{upload:.2}/{draw:.2}")
}

/// What each pass submitted, `main/cascade 1/cascade 2/cascade 3` (one of `count`'s numbers
/// of each pass).
fn pass_summary(stats: &FrameStats, count: impl Fn(&props_render::PassCount) -> u64) -> String {
    let passes = std::iter::once(&stats.main_pass).chain(&stats.shadow_passes);
    passes.map(|pass| count(pass).to_string()).collect::<Vec<_>>().join("/")
}

/// Every kind the town has with its number of props, `windmills=300 cars=40 ...`, in the
/// scene's order: the status line lists the kinds it finds.
fn kind_summary(demo: &Demo) -> String {
    let counts = demo.counts().map(|(kind, n)| format!("{kind}={n}"));
    counts.collect::<Vec<_>>().join(" ")
}
