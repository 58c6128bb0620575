//! [`PassTimer`]: the GPU time of each pass of a frame, from timestamp queries, read back
//! without stalling (a few frames late).
//!
//! Each pass written this frame has its pair of queries resolved in the encoder that wrote
//! them, never later: Vulkan waits for a query's result when it is copied, so a pair copied
//! from a pass that never ran (shadows off, a host that left out the main pass's writes, an
//! encoder dropped) would wait forever.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::shadows::CASCADES;

/// Passes timed: the main pass, then each shadow cascade.
const PASSES: usize = 1 + CASCADES;
/// Bytes from one pass's pair of resolved timestamps to the next: where a resolve may write.
const PAIR_STRIDE: u64 = wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT;
/// Where the main pass's pair lies; cascade `c`'s is `1 + c`.
const MAIN: usize = 0;
/// The read-back buffer's map, as its callback reports it.
const PENDING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

/// GPU time of a frame's passes, nanoseconds; `None` for a pass not timed in that frame (not
/// drawn, or a host's main pass begun without [`crate::Renderer::main_pass_timestamps`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassTimes {
    /// The pass the props are drawn into.
    pub main_ns: Option<u64>,
    /// Each shadow cascade's depth pass, nearest first.
    pub shadow_ns: [Option<u64>; CASCADES],
}

/// Where the read-back buffer is in its round trip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Readback {
    /// Free: this frame's times may be copied into it.
    Free,
    /// A copy was recorded (with the passes it holds); mapped once submitted.
    Copied(u8),
    /// Mapping (with the passes it holds): read once the flag says it is mapped.
    Mapping(u8),
}

/// Timestamp queries around each pass, resolved and copied to a buffer read back once mapped.
pub(crate) struct PassTimer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// Nanoseconds a timestamp tick lasts.
    period: f32,
    /// Passes whose queries were resolved this frame (bit `i`: pass `i`).
    written: AtomicU8,
    /// What the map callback reported: [`PENDING`], [`MAPPED`] or [`FAILED`].
    mapped: Arc<AtomicU8>,
    state: Readback,
    /// The last times read back.
    latest: Option<PassTimes>,
}

impl PassTimer {
    /// A timer on `device`, or `None` when it cannot write timestamps in passes.
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2 * PASSES as u32,
        });
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: PAIR_STRIDE * PASSES as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        Some(Self {
            queries,
            resolved: buffer(
                "pass timestamps resolved",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            readback: buffer("pass timestamps read back", wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST),
            period: queue.get_timestamp_period(),
            written: AtomicU8::new(0),
            mapped: Arc::new(AtomicU8::new(PENDING)),
            state: Readback::Free,
            latest: None,
        })
    }

    /// The writes around pass `pass` (0: main, `1 + c`: cascade `c`).
    fn writes(&self, pass: usize) -> wgpu::RenderPassTimestampWrites<'_> {
        wgpu::RenderPassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(2 * pass as u32),
            end_of_pass_write_index: Some(2 * pass as u32 + 1),
        }
    }

    /// The writes around cascade `cascade`'s shadow pass.
    pub(crate) fn shadow_writes(&self, cascade: usize) -> wgpu::RenderPassTimestampWrites<'_> {
        self.writes(1 + cascade)
    }

    /// The writes around the main pass.
    pub(crate) fn main_writes(&self) -> wgpu::RenderPassTimestampWrites<'_> {
        self.writes(MAIN)
    }

    /// Starts a frame: reads back what an earlier frame's copy holds once it is mapped, and
    /// maps the last frame's copy (submitted by now). Returns the latest times read.
    pub(crate) fn begin_frame(&mut self) -> Option<PassTimes> {
        self.written.store(0, Ordering::Relaxed);
        match self.state {
            Readback::Copied(passes) => {
                let mapped = Arc::clone(&self.mapped);
                mapped.store(PENDING, Ordering::Release);
                self.readback.slice(..).map_async(wgpu::MapMode::Read, move |result| {
                    mapped.store(if result.is_ok() { MAPPED } else { FAILED }, Ordering::Release);
                });
                self.state = Readback::Mapping(passes);
            }
            Readback::Mapping(passes) => match self.mapped.load(Ordering::Acquire) {
                MAPPED => {
                    self.latest = self.read(passes);
                    self.readback.unmap();
                    self.state = Readback::Free;
                }
                FAILED => self.state = Readback::Free,
                _ => {}
            },
            Readback::Free => {}
        }
        self.latest
    }

    /// The times of `passes` (bit `i`: pass `i`) in the mapped read-back buffer.
    fn read(&self, passes: u8) -> Option<PassTimes> {
        let view = self.readback.slice(..).get_mapped_range().ok()?;
        let tick = |pass: usize, end: usize| {
            let at = pass * PAIR_STRIDE as usize + 8 * end;
            u64::from_le_bytes(view[at..at + 8].try_into().expect("8 bytes"))
        };
        let pass_ns = |pass: usize| {
            let ticks = tick(pass, 1).saturating_sub(tick(pass, 0));
            (passes & (1 << pass) != 0).then(|| (ticks as f64 * f64::from(self.period)) as u64)
        };
        Some(PassTimes { main_ns: pass_ns(MAIN), shadow_ns: std::array::from_fn(|c| pass_ns(1 + c)) })
    }

    /// Resolves pass `pass`'s pair, written by `encoder` (in a pass that has ended).
    fn resolve(&self, encoder: &mut wgpu::CommandEncoder, pass: usize) {
        let first = 2 * pass as u32;
        encoder.resolve_query_set(&self.queries, first..first + 2, &self.resolved, PAIR_STRIDE * pass as u64);
        self.written.fetch_or(1 << pass, Ordering::Relaxed);
    }

    /// Resolves cascade `cascade`'s pair, its pass just recorded into `encoder`.
    pub(crate) fn resolve_shadow(&self, encoder: &mut wgpu::CommandEncoder, cascade: usize) {
        self.resolve(encoder, 1 + cascade);
    }

    /// Resolves the main pass's pair (the pass has ended in `encoder`), and copies this
    /// frame's resolved times for reading back, when the read-back buffer is free.
    pub(crate) fn finish_frame(&mut self, encoder: &mut wgpu::CommandEncoder, main_written: bool) {
        if main_written {
            self.resolve(encoder, MAIN);
        }
        let written = self.written.load(Ordering::Relaxed);
        if self.state == Readback::Free && written != 0 {
            encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.readback, 0, PAIR_STRIDE * PASSES as u64);
            self.state = Readback::Copied(written);
        }
    }
}
