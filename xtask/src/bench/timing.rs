//! How `cargo xtask bench render` times frames: configurations drawn in turn, frame by frame.
//!
//! This machine's GPU time drifts by a third over seconds (a shared host; lavapipe runs on
//! its cores), so two configurations measured one after the other compare the host's moods
//! as much as themselves: the floor's 10,000 windmills read 218 to 353 ms in four runs. Drawn
//! in turn, a frame of each per round, both see the same moment, and a ratio is the median of
//! each round's ratio ([`Measured::times`]).

use std::time::Instant;

use props_frame::{Camera, Frame};
use props_render::{FrameStats, GpuContext, OffscreenTarget, PassTimes, Renderer, StandalonePass};

use super::floor::Floor;
use super::median;

/// Rounds drawn before timing: pipelines compiled, buffers grown, timestamps flowing.
const WARM_UP: u32 = 3;

/// Timings of one configuration.
pub(super) struct Measured {
    /// What its last frame cost.
    pub(super) stats: FrameStats,
    /// Median milliseconds to upload and encode a frame.
    pub(super) encode_ms: f64,
    /// Median milliseconds from submit until the GPU is idle.
    pub(super) gpu_ms: f64,
    /// Each timed frame's milliseconds from submit until idle, in round order.
    gpu_samples: Vec<f64>,
    /// Median GPU milliseconds of the main pass and of each shadow cascade's, from timestamp
    /// queries (0 where a pass was not drawn; `None` where the adapter has no timestamps).
    pub(super) pass_ms: Option<[f64; 4]>,
}

impl Measured {
    /// How many times `base`'s GPU time this configuration's is: the median of each round's
    /// ratio, both drawn in the same rounds ([`measure_alternated`]).
    pub(super) fn times(&self, base: &Measured) -> f64 {
        debug_assert_eq!(self.gpu_samples.len(), base.gpu_samples.len(), "measured in the same rounds");
        let mut ratios: Vec<f64> = self.gpu_samples.iter().zip(&base.gpu_samples).map(|(a, b)| a / b).collect();
        median(&mut ratios)
    }
}

/// What the bench draws: the floor, or the renderer drawing a frame.
pub(super) enum Subject<'a> {
    /// The floor ([`Floor`]) seen by the camera.
    Floor(Box<Floor>, Camera),
    /// A renderer of one configuration drawing a frame.
    Renderer(Box<Drawing<'a>>),
}

/// A renderer drawing `frame`, and what its frames reported.
pub(super) struct Drawing<'a> {
    renderer: Renderer,
    frame: Frame<'a>,
    pass: StandalonePass,
    /// The last frame's stats.
    stats: FrameStats,
    /// Each frame's pass times, as read back.
    times: Vec<Option<PassTimes>>,
}

impl<'a> Subject<'a> {
    /// The renderer drawing `frame`.
    pub(super) fn renderer(renderer: Renderer, frame: Frame<'a>) -> Self {
        Subject::Renderer(Box::new(Drawing {
            renderer,
            frame,
            pass: StandalonePass::new(),
            stats: FrameStats::default(),
            times: Vec::new(),
        }))
    }

    /// Records one frame into `encoder`, drawn into `target`.
    fn record(&mut self, gpu: &GpuContext, target: &OffscreenTarget, encoder: &mut wgpu::CommandEncoder) {
        match self {
            Subject::Floor(floor, camera) => floor.draw(&gpu.queue, encoder, target, camera),
            Subject::Renderer(drawing) => {
                let Drawing { renderer, frame, pass, stats, times } = &mut **drawing;
                *stats = pass.draw(renderer, encoder, (target.view(), target.size()), frame);
                times.push(stats.pass_times);
            }
        }
    }

    /// What it measured, from its frames' encode and GPU milliseconds.
    fn measured(self, (mut encode, gpu_samples): (Vec<f64>, Vec<f64>)) -> Measured {
        let gpu_ms = median(&mut gpu_samples.clone());
        let encode_ms = median(&mut encode);
        match self {
            Subject::Floor(floor, _) => {
                let count = floor.submitted();
                let instances = floor.instances();
                let stats = FrameStats { draw_calls: 1, instances, main_pass: count, ..FrameStats::default() };
                Measured { stats, encode_ms, gpu_ms, gpu_samples, pass_ms: None }
            }
            Subject::Renderer(drawing) => {
                let Drawing { stats, times, .. } = *drawing;
                // Times are read back a frame or more late: skip the warm-up's.
                let times: Vec<PassTimes> = times.iter().skip(WARM_UP as usize).flatten().copied().collect();
                let pass_ms = (!times.is_empty()).then(|| {
                    let passes = |t: &PassTimes| -> [Option<u64>; 4] {
                        let [near, mid, far] = t.shadow_ns;
                        [t.main_ns, near, mid, far]
                    };
                    std::array::from_fn(|i| {
                        let mut ms: Vec<f64> =
                            times.iter().map(|t| passes(t)[i].map_or(0.0, |ns| ns as f64 / 1e6)).collect();
                        median(&mut ms)
                    })
                });
                Measured { stats, encode_ms, gpu_ms, gpu_samples, pass_ms }
            }
        }
    }
}

/// Times `frames` rounds (after [`WARM_UP`]) of `subjects`, a frame of each per round, each
/// round starting one subject later (none always follows the same one), each frame submitted
/// and waited for: what each measured, in `subjects`' order.
pub(super) fn measure_alternated(
    gpu: &GpuContext,
    target: &OffscreenTarget,
    mut subjects: Vec<Subject<'_>>,
    frames: u32,
) -> Vec<Measured> {
    let count = subjects.len();
    let mut timings = vec![(Vec::new(), Vec::new()); count];
    for round in 0..WARM_UP + frames {
        for k in 0..count {
            let subject = (round as usize + k) % count;
            let start = Instant::now();
            let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
            subjects[subject].record(gpu, target, &mut encoder);
            let commands = encoder.finish();
            let encoded = Instant::now();
            gpu.queue.submit([commands]);
            let _ = gpu.device.poll(wgpu::PollType::wait_indefinitely());
            let done = Instant::now();
            if round >= WARM_UP {
                let (encode, wait) = &mut timings[subject];
                encode.push((encoded - start).as_secs_f64() * 1e3);
                wait.push((done - encoded).as_secs_f64() * 1e3);
            }
        }
    }
    subjects.into_iter().zip(timings).map(|(subject, timing)| subject.measured(timing)).collect()
}

/// [`measure_alternated`]'s `N` measurements, as an array.
pub(super) fn measure_each<const N: usize>(
    gpu: &GpuContext,
    target: &OffscreenTarget,
    subjects: [Subject<'_>; N],
    frames: u32,
) -> [Measured; N] {
    let Ok(measured) = measure_alternated(gpu, target, subjects.into(), frames).try_into() else {
        unreachable!("one measurement per subject")
    };
    measured
}

/// Pass times as `main/near/mid/far` milliseconds, or `-` without timestamps.
pub(super) fn pass_summary(pass_ms: Option<[f64; 4]>) -> String {
    pass_ms.map_or_else(|| "-".to_owned(), |ms| ms.map(|m| format!("{m:.2}")).join("/"))
}
