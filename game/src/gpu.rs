//! The GPU as the game holds it: context and renderer, and their recovery when the device is
//! lost (a driver reset, a removed GPU): a new device and renderer from the same instance, onto
//! which the demo uploads its models again. Both front ends go through it.

use anyhow::Context as _;
use props_render::{FrameStats, GpuContext, Renderer, RendererConfig, StandalonePass};

/// The device and the renderer drawing with it.
pub struct Gpu {
    /// Instance, adapter, device, queue.
    pub context: GpuContext,
    /// The renderer on that device.
    pub renderer: Renderer,
    /// The depth and MSAA targets the game's frames are drawn with.
    pass: StandalonePass,
    config: RendererConfig,
    /// Frames drawn, and after how many the device is destroyed (`--lose-device-after`).
    frames: u64,
    lose_after: Option<u64>,
}

impl Gpu {
    /// A renderer of `config` on `context`; with `lose_after`, the device is destroyed after
    /// that many frames (to exercise recovery).
    pub fn new(context: GpuContext, config: RendererConfig, lose_after: Option<u64>) -> Self {
        let renderer = Renderer::new(&context.adapter, &context.device, &context.queue, config);
        Self { context, renderer, pass: StandalonePass::new(), config, frames: 0, lose_after }
    }

    /// Records `frame` into a new encoder, drawn into `target` (a view of `size` pixels),
    /// cleared first.
    pub fn draw(
        &mut self,
        label: &str,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        frame: &props_frame::Frame<'_>,
    ) -> (wgpu::CommandEncoder, FrameStats) {
        let mut encoder =
            self.context.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        let stats = self.pass.draw(&mut self.renderer, &mut encoder, (target, size), frame);
        (encoder, stats)
    }

    /// The largest texture side the device takes: what imports downscale images to.
    pub fn max_texture_dimension(&self) -> u32 {
        self.context.device.limits().max_texture_dimension_2d
    }

    /// Counts a drawn frame (and destroys the device when `--lose-device-after` says so).
    pub fn frame_drawn(&mut self) {
        self.frames += 1;
        if self.lose_after == Some(self.frames) {
            tracing::warn!(frames = self.frames, "destroying the GPU device (--lose-device-after)");
            self.context.device.destroy();
        }
    }

    /// When the device was lost, replaces it and the renderer with new ones (presenting to
    /// `surface`, if given); returns whether it did, in which case every model must be
    /// uploaded again and every resource of the old device (targets, surface configuration,
    /// the HUD's renderer) made anew.
    pub fn recover(&mut self, surface: Option<&wgpu::Surface<'_>>) -> anyhow::Result<bool> {
        // wgpu reports a loss while it maintains the device: give it the chance (a window
        // never waits on the device otherwise). The result tells nothing more.
        let _ = self.context.device.poll(wgpu::PollType::Poll);
        if !self.context.is_lost() {
            return Ok(false);
        }
        tracing::warn!("the GPU device was lost; recreating it");
        let context = pollster::block_on(self.context.recreate(surface)).context("recreating the GPU device")?;
        tracing::info!(adapter = %context.adapter_description(), "GPU device recreated");
        self.renderer = Renderer::new(&context.adapter, &context.device, &context.queue, self.config);
        self.pass = StandalonePass::new();
        self.context = context;
        Ok(true)
    }
}
