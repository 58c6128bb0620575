//! The pose table of `cargo xtask bench`: every workload evaluated by every method in one
//! run, beside the naive baseline, with medians of whole frames.
//!
//! A frame is the full update of every instance: sample, hierarchy, inverse bind and pack into
//! the buffer that is uploaded. "Joints" are skin joints (the node slot of each mesh instance
//! is extra work not counted), or the palette matrices of a model without skins (the
//! windmill's rigid nodes), so that ns per joint means the same on every row.

use std::time::{Duration, Instant};

use props_anim::{JointMatrix, Model};

use crate::naive;
use crate::workload::{self, Crowd};

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
}

impl Default for Options {
    fn default() -> Self {
        Self { seed: 7, min_frames: 10, min_time: Duration::from_millis(500) }
    }
}

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
    /// Nanoseconds per joint per frame.
    #[must_use]
    pub fn ns_per_joint(&self) -> f64 {
        self.frame_ns / (self.instances * self.joints) as f64
    }

    /// Instances updated per millisecond.
    #[must_use]
    pub fn instances_per_ms(&self) -> f64 {
        self.instances as f64 / (self.frame_ns * 1e-6)
    }
}

/// Median frame time in ns of `frame(time)` over frames advancing by [`DT`].
pub fn measure(options: &Options, mut frame: impl FnMut(f32)) -> (f64, usize) {
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
    (samples[samples.len() / 2], samples.len())
}

/// Measures every method on `workload`.
pub fn rows(workload: &Workload, options: &Options) -> Vec<Row> {
    let model = &workload.model;
    let palette_len = model.palette_len();
    let palette_bytes = (palette_len * size_of::<JointMatrix>()) as f64;
    let phases = workload.phases(options.seed);
    let row = |method: &str, threads, (frame_ns, frames), cpu_bytes, upload_bytes, evaluations| Row {
        workload: workload.name,
        method: method.to_owned(),
        threads,
        instances: workload.instances,
        joints: workload.joints(),
        frame_ns,
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

    let mut crowd = Crowd::with_phases(model, workload.clip, phases.clone());
    let timing = measure(options, |time| crowd.evaluate(time));
    rows.push(row("pose", 1, timing, crowd.cpu_bytes_per_instance() as f64, palette_bytes, workload.instances));
    rows
}

/// The whole table: every workload, every method.
#[must_use]
pub fn table(workloads: &[Workload], options: &Options) -> Vec<Row> {
    workloads.iter().flat_map(|w| rows(w, options)).collect()
}
