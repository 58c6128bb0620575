//! The pose table of `cargo xtask bench`: every workload evaluated by every method in one
//! run, beside the naive baseline, with medians of whole frames.
//!
//! A frame is the full update of every instance: sample, hierarchy, inverse bind and pack into
//! the buffer that is uploaded. "Joints" are skin joints (the node slot of each mesh instance
//! is extra work not counted), or the palette matrices of a model without skins (the
//! windmill's rigid nodes), so that ns per joint means the same on every row.

use std::time::{Duration, Instant};

use glam::Vec3;
use props_anim::{
    JointMatrix, Layer, Model,
    runtime::Crowd,
    runtime::PaletteBuffer,
    runtime::Program,
    runtime::Workers,
    runtime::{Quantization, Sharing},
    runtime::{UpdateRateLod, View},
};

use crate::naive;
use crate::workload::{self, ClipCrowd};

/// One frame at 60 Hz, seconds.
pub const DT: f32 = 1.0 / 60.0;

/// A crowd to evaluate each frame: a model, the clip everyone plays, how many instances.
pub struct Workload {
    /// Short name for the table.
    pub name: &'static str,
    /// The model.
    pub model: Model,
    /// The clip every instance plays.
    pub clip: usize,
    /// Instances.
    pub instances: usize,
}

impl Workload {
    /// Joints per instance (see the module documentation).
    #[must_use]
    pub fn joints(&self) -> usize {
        match self.model.joint_count() {
            0 => self.model.palette_len(),
            joints => joints,
        }
    }

    /// Seeded phases, one per instance.
    #[must_use]
    pub fn phases(&self, seed: u64) -> Vec<f32> {
        workload::phases(self.instances, self.model.clips()[self.clip].duration(), seed)
    }
}

/// The three workloads: Fox.glb x 1000 (Walk), the generated windmill x 100 000
/// (spin), a synthetic 250-joint rig x 100. `scale` divides the instance counts (1 for the
/// real table; larger for a quick run in tests).
///
/// # Panics
/// If a model is missing or lacks its clip.
#[must_use]
pub fn workloads(scale: usize) -> Vec<Workload> {
    let scale = scale.max(1);
    let fox = workload::fox();
    let walk = fox.find_clip("Walk").expect("Fox has a Walk clip");
    let windmill = workload::windmill();
    let spin = windmill.find_clip("spin").expect("the windmill has a spin clip");
    vec![
        Workload { name: "fox", model: fox, clip: walk, instances: (1000 / scale).max(1) },
        Workload { name: "windmill", model: windmill, clip: spin, instances: (100_000 / scale).max(1) },
        Workload { name: "synthetic250", model: workload::synthetic(250), clip: 0, instances: (100 / scale).max(1) },
    ]
}

/// How long and how to measure.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Seed of the instances' phases.
    pub seed: u64,
    /// At least this many measured frames per row (after warm-up)...
    pub min_frames: usize,
    /// ...and at least this much measured time per row.
    pub min_time: Duration,
    /// Worker threads of the parallel rows (0: one per core).
    pub threads: usize,
    /// Time quantization step of the shared rows, seconds.
    pub step: f32,
}

impl Default for Options {
    fn default() -> Self {
        Self { seed: 7, min_frames: 10, min_time: Duration::from_millis(500), threads: 0, step: 1.0 / 60.0 }
    }
}

/// Radius of the disc the LOD rows spread instances over, metres (distances to a camera at
/// its centre; with [`UpdateRateLod::default`], 3% of instances update every frame, 22% every
/// 2nd, 75% every 4th).
pub const LOD_RADIUS: f32 = 300.0;

/// One row of the table: one workload evaluated by one method.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Workload name.
    pub workload: &'static str,
    /// Method name.
    pub method: String,
    /// Worker threads used.
    pub threads: usize,
    /// Instances.
    pub instances: usize,
    /// Joints per instance.
    pub joints: usize,
    /// Median time of a frame, nanoseconds.
    pub frame_ns: f64,
    /// Fastest frame, nanoseconds (less disturbed by other work on the machine).
    pub best_ns: f64,
    /// Frames measured.
    pub frames: usize,
    /// Bytes of CPU memory per instance (state kept between frames; shared data such as
    /// the model and per-thread scratch is not counted).
    pub cpu_bytes_per_instance: f64,
    /// Palette bytes uploaded per frame, per instance (the renderer's 64-byte instance record
    /// comes on top, the same for every method).
    pub upload_bytes_per_instance: f64,
    /// Pose evaluations per frame (fewer than the instances when poses are shared).
    pub evaluations: usize,
}

impl Row {
    /// Nanoseconds per joint per frame (median frame).
    #[must_use]
    pub fn ns_per_joint(&self) -> f64 {
        self.frame_ns / (self.instances * self.joints) as f64
    }

    /// Nanoseconds per joint per frame (fastest frame).
    #[must_use]
    pub fn best_ns_per_joint(&self) -> f64 {
        self.best_ns / (self.instances * self.joints) as f64
    }

    /// Instances updated per millisecond.
    #[must_use]
    pub fn instances_per_ms(&self) -> f64 {
        self.instances as f64 / (self.frame_ns * 1e-6)
    }
}

/// Median and fastest frame time in ns of `frame(time)` over frames advancing by [`DT`], and
/// the frames measured.
pub fn measure(options: &Options, mut frame: impl FnMut(f32)) -> (f64, f64, usize) {
    let mut time = 0.0f32;
    for _ in 0..3 {
        time += DT;
        frame(time);
    }
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < options.min_frames || start.elapsed() < options.min_time {
        time += DT;
        let t0 = Instant::now();
        frame(time);
        samples.push(t0.elapsed().as_secs_f64() * 1e9);
    }
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], samples[0], samples.len())
}

/// Measures every method on `workload`.
pub fn rows(workload: &Workload, options: &Options) -> Vec<Row> {
    let model = &workload.model;
    let palette_len = model.palette_len();
    let palette_bytes = (palette_len * size_of::<JointMatrix>()) as f64;
    let phases = workload.phases(options.seed);
    let row = |method: &str, threads, (frame_ns, best_ns, frames), cpu_bytes, upload_bytes, evaluations| Row {
        workload: workload.name,
        method: method.to_owned(),
        threads,
        instances: workload.instances,
        joints: workload.joints(),
        frame_ns,
        best_ns,
        frames,
        cpu_bytes_per_instance: cpu_bytes,
        upload_bytes_per_instance: upload_bytes,
        evaluations,
    };
    let mut rows = Vec::new();

    let clip = &model.clips()[workload.clip];
    let mut palettes = vec![JointMatrix::IDENTITY; workload.instances * palette_len];
    let timing = measure(options, |time| {
        for (phase, out) in phases.iter().zip(palettes.chunks_exact_mut(palette_len)) {
            naive::evaluate(model, clip, time + phase, out);
        }
    });
    rows.push(row("naive", 1, timing, 4.0, palette_bytes, workload.instances));
    drop(palettes);

    let mut crowd = ClipCrowd::with_phases(model, workload.clip, phases.clone());
    let timing = measure(options, |time| crowd.evaluate(time));
    rows.push(row("pose", 1, timing, crowd.cpu_bytes_per_instance() as f64, palette_bytes, workload.instances));
    drop(crowd);

    // The runtime (`Crowd`): one thread, then every worker.
    let program = Program::for_clip(model, workload.clip);
    let duration = program.duration(0);
    let n = workload.instances;
    let mut times = vec![0.0; n];
    let workers = Workers::new(options.threads).expect("worker threads start");
    let threads = workers.threads();
    let crowd = |sharing, runs| {
        let mut crowd = Crowd::new(&program, 1, sharing, 1.0, runs);
        // Over a disc around the camera of the LOD rows.
        for r in workload::phases(n, 1.0, options.seed ^ 0x10D) {
            crowd.push(Vec3::new(LOD_RADIUS * r.sqrt(), 0.0, 0.0));
        }
        crowd
    };
    let set_times = |crowd: &mut Crowd, times: &[f32]| {
        for (i, &t) in times.iter().enumerate() {
            crowd.layers_mut(i)[0] = Layer::once(0, t);
        }
    };
    let mut palettes = PaletteBuffer::default();
    let mut one = crowd(Sharing::None, 1);
    let cpu_bytes = one.bytes_per_instance() as f64;
    let timing = measure(options, |time| {
        wrap_times(&phases, time, duration, &mut times);
        set_times(&mut one, &times);
        palettes.clear();
        one.update(&program, None, 0, None, &mut palettes);
    });
    rows.push(row("fast", 1, timing, cpu_bytes, palette_bytes, n));
    drop(one);
    // The frame loop runs inside the pool, as a game's simulation thread would
    // (`Workers::install`): each frame's work is then split without waking a sleeping thread
    // from outside the pool and waiting for it.
    let mut all = crowd(Sharing::None, threads * 4);
    let timing = workers.install(|| {
        measure(options, |time| {
            wrap_times(&phases, time, duration, &mut times);
            set_times(&mut all, &times);
            palettes.clear();
            all.update(&program, None, 0, Some(&workers), &mut palettes);
        })
    });
    rows.push(row("fast", threads, timing, cpu_bytes, palette_bytes, n));

    // Update-rate LOD over the disc of instances around the camera.
    let view = View::everywhere(Vec3::ZERO, UpdateRateLod::default(), 0);
    let mut frame = 0u64;
    let mut posed = 0;
    let timing = workers.install(|| {
        measure(options, |time| {
            wrap_times(&phases, time, duration, &mut times);
            set_times(&mut all, &times);
            frame += 1;
            palettes.clear();
            posed = all.update(&program, Some(&view), frame, Some(&workers), &mut palettes).posed;
        })
    });
    rows.push(row("fast+lod", threads, timing, all.bytes_per_instance() as f64, palette_bytes, posed));
    drop(all);

    // Pose sharing: instances at the same quantized time share one palette.
    let quantization = Quantization { time: options.step, ..Quantization::default() };
    let mut shared = crowd(Sharing::Quantized(quantization), 1);
    let mut posed = 0;
    let timing = measure(options, |time| {
        wrap_times(&phases, time, duration, &mut times);
        set_times(&mut shared, &times);
        palettes.clear();
        posed = shared.update(&program, None, 0, None, &mut palettes).posed;
    });
    let upload = (palettes.len() * size_of::<JointMatrix>() + n * 4) as f64 / n as f64;
    let cpu_bytes = shared.bytes_per_instance() as f64;
    rows.push(row(&format!("shared@{:.4}s", options.step), 1, timing, cpu_bytes, upload, posed));
    rows
}

/// Every instance's clip time at `time` (positive): looped without a libm call (the
/// workloads' times are positive, so truncation is the floor). The fast rows of the table and
/// of the criterion benchmark advance time with it, so both time the same frame.
pub fn wrap_times(phases: &[f32], time: f32, duration: f32, times: &mut [f32]) {
    let inverse = 1.0 / duration;
    for (t, phase) in times.iter_mut().zip(phases) {
        let at = time + phase;
        *t = (at - duration * ((at * inverse) as u32 as f32)).clamp(0.0, duration);
    }
}

/// Largest distance, in model units, between a vertex drawn with its exact palette and with
/// the palette of its quantized time (step `step`), over `samples` times spread over the
/// clip: the error of [`Sharing::Quantized`]. Rigid primitives move with their node slot,
/// skinned ones with their joints (weights as stored).
#[must_use]
pub fn quantization_error(model: &Model, clip: usize, step: f32, samples: usize) -> f32 {
    let program = Program::for_clip(model, clip);
    let quantization = Quantization { time: step, ..Quantization::default() };
    let mut scratch = program.scratch();
    let len = program.palette_len();
    let (mut exact, mut quantized) = (vec![JointMatrix::IDENTITY; len], vec![JointMatrix::IDENTITY; len]);
    let mut worst = 0.0f32;
    let (mut exact_points, mut quantized_points) = (Vec::new(), Vec::new());
    let duration = program.duration(0);
    for time in workload::phases(samples, duration, 99) {
        for (t, out) in [(time, &mut exact), (quantization.quantize_time(time, duration), &mut quantized)] {
            let layers = [Layer::once(0, t)];
            let lane = props_anim::runtime::LaneState { layers: &layers, drivers: &[], palette: 0 };
            program.write_palettes4([lane; 4], &mut scratch, out);
        }
        props_anim::skinning::model_positions(model, &exact, &mut exact_points);
        props_anim::skinning::model_positions(model, &quantized, &mut quantized_points);
        worst = exact_points.iter().zip(&quantized_points).map(|(a, b)| a.distance(*b)).fold(worst, f32::max);
    }
    worst
}

/// The whole table: every workload, every method.
#[must_use]
pub fn table(workloads: &[Workload], options: &Options) -> Vec<Row> {
    workloads.iter().flat_map(|w| rows(w, options)).collect()
}
