//! [`StandalonePass`]: a pass over a colour target it clears, with a depth buffer and an MSAA
//! target of its own. How the game, stills, tests, benchmarks and a host without a pass of
//! its own draw; a host with its own pass calls [`Renderer::prepare`] and
//! [`Renderer::render`] as this does.

use props_frame::Frame;

use crate::{FrameStats, Renderer};

/// Depth and MSAA textures of one target size, made on one device in one renderer's formats.
struct Attachments {
    size: (u32, u32),
    /// The device and the (colour, depth, samples) they were made for.
    device: wgpu::Device,
    formats: (wgpu::TextureFormat, wgpu::TextureFormat, u32),
    depth: wgpu::TextureView,
    msaa: Option<wgpu::TextureView>,
}

/// A pass with its own depth buffer (and, when the renderer multisamples, an MSAA target
/// resolved into the caller's colour target), recreated when the size, the device or the
/// renderer's formats change (a new renderer after a resize or a lost device): a host without
/// a pass of its own begins one ([`StandalonePass::begin`]) and draws into it, or has a whole
/// frame drawn ([`StandalonePass::draw`]).
#[derive(Default)]
pub struct StandalonePass {
    attachments: Option<Attachments>,
}

/// What a [`StandalonePass`] clears its targets to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clear {
    /// The colour (linear).
    pub color: wgpu::Color,
    /// The depth; `None`: the farthest the renderer's depth test keeps (0 for a reversed
    /// depth, else 1).
    pub depth: Option<f32>,
}

impl Clear {
    /// Clears to `color` and the farthest depth.
    #[must_use]
    pub fn color([r, g, b, a]: [f64; 4]) -> Self {
        Self { color: wgpu::Color { r, g, b, a }, depth: None }
    }
}

impl StandalonePass {
    /// A pass with no attachments yet (made on the first use).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Begins a render pass over `target` (a view of `size` pixels in the renderer's colour
    /// format) and this pass's depth (and MSAA) targets, cleared as `clear` says, in the
    /// renderer's formats and sample count: the caller records its own draws into it, then the
    /// props' ([`Renderer::render`], after [`Renderer::prepare`] recorded the frame's uploads
    /// and shadow passes into `encoder`). The pass is timed where the renderer times passes
    /// ([`crate::RendererConfig::pass_timing`]): then, once it has ended, the caller calls
    /// [`Renderer::resolve_pass_times`] (without timing, that call does nothing).
    pub fn begin<'e>(
        &mut self,
        renderer: &Renderer,
        encoder: &'e mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        clear: Clear,
    ) -> wgpu::RenderPass<'e> {
        let attachments = self.attachments(renderer, size);
        let (view, resolve_target) = match &attachments.msaa {
            Some(msaa) => (msaa, Some(target)),
            None => (target, None),
        };
        // Reversed depth (nearer is greater) starts from 0, the usual from 1.
        let reversed = matches!(
            renderer.config().depth_compare,
            wgpu::CompareFunction::Greater | wgpu::CompareFunction::GreaterEqual
        );
        let depth = clear.depth.unwrap_or(if reversed { 0.0 } else { 1.0 });
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("props"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear.color), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &attachments.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(depth), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: renderer.main_pass_timestamps(),
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// Prepares `frame` with `renderer` and records its shadow passes and its pass into
    /// `encoder`, drawing into `target` (a view of `size` pixels in the renderer's colour
    /// format) cleared to the frame's `clear_color`.
    pub fn draw(
        &mut self,
        renderer: &mut Renderer,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        frame: &Frame<'_>,
    ) -> FrameStats {
        let stats = renderer.prepare(encoder, frame, size);
        let mut pass = self.begin(renderer, encoder, (target, size), Clear::color(frame.clear_color));
        renderer.render(&mut pass);
        drop(pass);
        renderer.resolve_pass_times(encoder, true);
        stats
    }

    /// The attachments for `size`, (re)created when the size, the device or the formats
    /// changed.
    fn attachments(&mut self, renderer: &Renderer, size: (u32, u32)) -> &Attachments {
        let size = (size.0.max(1), size.1.max(1));
        let config = renderer.config();
        let formats = (config.color_format, config.depth_format, config.sample_count);
        let fits = |a: &mut Attachments| a.size == size && a.formats == formats && &a.device == renderer.device();
        if let Some(attachments) = self.attachments.take_if(fits) {
            return self.attachments.insert(attachments);
        }
        let attachment = |label, format, sample_count| {
            renderer
                .device()
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        let msaa =
            (config.sample_count > 1).then(|| attachment("msaa color", config.color_format, config.sample_count));
        let depth = attachment("depth", config.depth_format, config.sample_count);
        self.attachments.insert(Attachments { size, device: renderer.device().clone(), formats, depth, msaa })
    }
}
