//! The windowed front end: a winit window with a wgpu surface (vsync), a [`Screen`] (the demo
//! town, or the model previewer with `--preview FILE`) drawn into it with its egui HUD on top,
//! and input turned into camera moves and commands.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use glam::Vec2;
use props_render::{FrameStats, GpuContext};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

use crate::cli::Args;
use crate::controls::{self, Command, Drag};
use crate::demo::Demo;
use crate::gpu::Gpu;
use crate::hud::HudInput;
use crate::preview::Preview;
use crate::screen::Screen;
use crate::shutdown::Shutdown;

/// Runs the demo (or the previewer) in a window until it is closed, `--frames` / `--run-for` is reached, or
/// Ctrl-C / SIGTERM arrives.
pub fn run(args: Args, shutdown: Shutdown) -> anyhow::Result<()> {
    let event_loop = EventLoop::new().context("no window system (use --headless to run without a window)")?;
    let mut app = App { args, shutdown, state: None, error: None };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The application before and after its window exists.
struct App {
    args: Args,
    shutdown: Shutdown,
    state: Option<Running>,
    error: Option<anyhow::Error>,
}

/// Everything that lives while the window does.
struct Running {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    adapter: String,
    screen: Box<dyn Screen>,
    egui: Egui,
    input: Input,
    stats: FrameStats,
    show_hud: bool,
    /// Where to write the next frame shown (F12).
    screenshot: Option<PathBuf>,
    /// `--screenshot`: where to write the last frame of a `--frames` run.
    final_shot: Option<PathBuf>,
    /// `--frames`.
    last_frame_number: Option<u64>,
    started: Instant,
    last_frame: Instant,
    frames: u64,
}

/// The HUD's egui state.
struct Egui {
    context: egui::Context,
    winit: egui_winit::State,
    renderer: egui_wgpu::Renderer,
}

/// Input state between events.
#[derive(Default)]
struct Input {
    held: BTreeSet<winit::keyboard::KeyCode>,
    drag: Drag,
    cursor: Option<Vec2>,
    /// Where the left button went down, for telling a click from a drag.
    pressed_at: Option<Vec2>,
}

/// How far the cursor may move between press and release for a click, pixels.
const CLICK_SLOP: f32 = 4.0;

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match Running::new(event_loop, &self.args) {
            Ok(running) => self.state = Some(running),
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(state) = &mut self.state else { return };
        let consumed = state.egui.winit.on_window_event(&state.window, &event).consumed;
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => state.resize(size),
            WindowEvent::RedrawRequested => {
                if let Err(error) = state.redraw() {
                    self.error = Some(error);
                    event_loop.exit();
                } else if state.finished(&self.args) {
                    event_loop.exit();
                }
            }
            WindowEvent::KeyboardInput { event, .. } if !consumed => {
                let PhysicalKey::Code(key) = event.physical_key else { return };
                if event.state == ElementState::Pressed {
                    state.input.held.insert(key);
                    if !event.repeat {
                        match controls::command_for(key) {
                            Some(Command::Demo(action)) => state.screen.act(action),
                            Some(Command::ToggleHud) => state.show_hud = !state.show_hud,
                            Some(Command::Screenshot) => state.screenshot = Some(crate::screenshot::named_now()),
                            Some(Command::Quit) => event_loop.exit(),
                            None => {}
                        }
                    }
                } else {
                    state.input.held.remove(&key);
                }
            }
            WindowEvent::MouseInput { state: button_state, button, .. } => {
                // A left click that did not drag picks what is under the cursor.
                match (button_state, button) {
                    (ElementState::Pressed, MouseButton::Left) if !consumed => {
                        state.input.pressed_at = state.input.cursor
                    }
                    (ElementState::Released, MouseButton::Left) => {
                        if let (Some(from), Some(at)) = (state.input.pressed_at.take(), state.input.cursor)
                            && (at - from).length() < CLICK_SLOP
                        {
                            let (width, height) = (state.config.width.max(1) as f32, state.config.height.max(1) as f32);
                            state.screen.click(Vec2::new(2.0 * at.x / width - 1.0, 1.0 - 2.0 * at.y / height));
                        }
                    }
                    _ => {}
                }
                state.input.drag = match (button_state, button) {
                    (ElementState::Pressed, _) if consumed => Drag::Idle,
                    (ElementState::Pressed, MouseButton::Left) => Drag::Orbit,
                    (ElementState::Pressed, MouseButton::Right | MouseButton::Middle) => Drag::Pan,
                    _ => Drag::Idle,
                };
            }
            WindowEvent::CursorMoved { position, .. } => {
                let at = Vec2::new(position.x as f32, position.y as f32);
                if let Some(previous) = state.input.cursor.replace(at) {
                    controls::move_with_mouse(state.screen.camera_mut(), state.input.drag, at - previous);
                }
            }
            WindowEvent::MouseWheel { delta, .. } if !consumed => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                // Towards what is under the cursor (the centre without one).
                let (width, height) = (state.config.width.max(1) as f32, state.config.height.max(1) as f32);
                let ndc = state
                    .input
                    .cursor
                    .map_or(Vec2::ZERO, |c| Vec2::new(2.0 * c.x / width - 1.0, 1.0 - 2.0 * c.y / height));
                state.screen.camera_mut().zoom_towards(steps, width / height, ndc);
            }
            WindowEvent::Focused(false) => state.input = Input::default(),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.shutdown.requested() {
            event_loop.exit();
        } else if let Some(state) = &self.state {
            state.window.request_redraw();
        }
    }
}

impl Running {
    fn new(event_loop: &ActiveEventLoop, args: &Args) -> anyhow::Result<Self> {
        let title = match &args.preview {
            Some(file) => format!("preview: {}", file.display()),
            None => "animated props".to_owned(),
        };
        let attributes =
            Window::default_attributes().with_title(title).with_inner_size(PhysicalSize::new(args.size.0, args.size.1));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let instance = wgpu::Instance::new(
            wgpu::InstanceDescriptor::new_with_display_handle(Box::new(event_loop.owned_display_handle())).with_env(),
        );
        let surface = instance.create_surface(Arc::clone(&window))?;
        let context = pollster::block_on(GpuContext::with_instance(instance, Some(&surface)))?;
        let adapter = context.adapter_description();
        tracing::info!(adapter = %adapter, "rendering to a window");
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&context.adapter, size.width.max(1), size.height.max(1))
            .context("the adapter cannot present to this window")?;
        // An sRGB view, so the renderer's linear output is encoded like the offscreen images.
        config.format = config.format.add_srgb_suffix();
        // egui blends in gamma space: it draws through a non-sRGB view of the same texture,
        // where the device can view a surface so (not OpenGL's: there it draws into the sRGB
        // view, and blends its translucent panels in linear space).
        let hud_format = config.format.remove_srgb_suffix();
        let views =
            context.adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::SURFACE_VIEW_FORMATS);
        if hud_format != config.format && views {
            config.view_formats = vec![hud_format];
        }
        config.present_mode = wgpu::PresentMode::AutoVsync;
        // F12 copies the frame shown, where the surface allows it.
        if surface.get_capabilities(&context.adapter).usages.contains(wgpu::TextureUsages::COPY_SRC) {
            config.usage |= wgpu::TextureUsages::COPY_SRC;
        }
        surface.configure(&context.device, &config);
        let mut gpu = Gpu::new(context, args.renderer_config(config.format), args.lose_device_after);
        let screen: Box<dyn Screen> = match &args.preview {
            Some(_) => Box::new(Preview::open(args, &mut gpu.renderer)),
            None => Box::new(Demo::new(args, &mut gpu)?),
        };
        let egui = Egui::new(&window, &gpu, &config);
        let now = Instant::now();
        Ok(Self {
            window,
            surface,
            config,
            gpu,
            adapter,
            screen,
            egui,
            input: Input::default(),
            stats: FrameStats::default(),
            show_hud: true,
            screenshot: None,
            final_shot: args.screenshot.clone(),
            last_frame_number: args.frames,
            started: now,
            last_frame: now,
            frames: 0,
        })
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        // A minimized window has a zero size: keep the old configuration until it returns.
        if size.width > 0 && size.height > 0 {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(&self.gpu.context.device, &self.config);
        }
    }

    /// Whether `--frames` or `--run-for` is reached.
    fn finished(&self, args: &Args) -> bool {
        args.frames.is_some_and(|n| self.frames >= n)
            || args.run_for.is_some_and(|s| self.started.elapsed().as_secs_f64() >= s)
    }

    /// Whether the frame being drawn is the last of a `--frames` run (its `--screenshot`).
    fn is_last_frame(&self) -> bool {
        self.last_frame_number.is_some_and(|n| self.frames + 1 == n)
    }

    /// Writes the frame just drawn (HUD included) to `path`; a failure is logged.
    fn save_screenshot(&self, texture: &wgpu::Texture, path: &Path) {
        if !self.config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
            tracing::warn!("this window's surface cannot be copied: no screenshot");
            return;
        }
        let (device, queue) = (&self.gpu.context.device, &self.gpu.context.queue);
        let saved = props_render::read_texture_rgba8(device, queue, texture)
            .map_err(anyhow::Error::from)
            .and_then(|rgba| crate::screenshot::save(&rgba, texture.width(), texture.height(), path));
        match saved {
            Ok(()) => tracing::info!(path = %path.display(), "screenshot written"),
            Err(error) => tracing::warn!(error = %error, "screenshot failed"),
        }
    }

    fn redraw(&mut self) -> anyhow::Result<()> {
        if self.gpu.recover(Some(&self.surface))? {
            self.surface.configure(&self.gpu.context.device, &self.config);
            // A new HUD on the new device: egui sends its textures again only to a new context.
            self.egui = Egui::new(&self.window, &self.gpu, &self.config);
            self.adapter = self.gpu.context.adapter_description();
            self.screen.upload_all(&mut self.gpu.renderer)?;
        }
        let now = Instant::now();
        let elapsed = now - self.last_frame;
        self.last_frame = now;
        controls::move_with_keys(self.screen.camera_mut(), &self.input.held, elapsed.as_secs_f32());
        // A suboptimal texture is still drawn and presented; the surface is reconfigured after.
        let size = self.window.inner_size();
        let (texture, suboptimal) = match self.surface_texture(size) {
            Some((texture, suboptimal)) => (Some(texture), suboptimal),
            None => (None, false),
        };
        let views = texture.as_ref().map(|texture| {
            let view_as = |format| {
                texture.texture.create_view(&wgpu::TextureViewDescriptor { format: Some(format), ..Default::default() })
            };
            (view_as(self.config.format), view_as(hud_format(&self.config)))
        });
        let target_size = (self.config.width, self.config.height);
        let target = views.as_ref().map(|(view, _)| (view, target_size));
        let drawn = self.screen.frame(&mut self.gpu, elapsed, target)?;
        let (Some((mut encoder, stats)), Some(texture), Some((_, hud_view))) = (drawn, texture, views) else {
            return Ok(());
        };
        self.stats = stats;
        let hud_buffers = self.record_hud(&mut encoder, &hud_view);
        let drawing = Instant::now();
        self.gpu.context.queue.submit(hud_buffers.into_iter().chain([encoder.finish()]));
        let shot = self.screenshot.take().or_else(|| self.is_last_frame().then(|| self.final_shot.clone()).flatten());
        if let Some(path) = shot {
            self.save_screenshot(&texture.texture, &path);
        }
        self.gpu.context.queue.present(texture);
        self.screen.drawn_in(drawing.elapsed());
        if suboptimal {
            self.surface.configure(&self.gpu.context.device, &self.config);
        }
        self.gpu.frame_drawn();
        self.frames += 1;
        Ok(())
    }

    /// The surface's next texture and whether it is suboptimal; `None` (nothing to draw this
    /// frame) while the window is minimized or the surface unavailable, which reconfigures it
    /// when it is outdated, lost or refused.
    fn surface_texture(&mut self, size: PhysicalSize<u32>) -> Option<(wgpu::SurfaceTexture, bool)> {
        if size.width == 0 || size.height == 0 {
            return None;
        }
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) => Some((texture, false)),
            wgpu::CurrentSurfaceTexture::Suboptimal(texture) => Some((texture, true)),
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => None,
            status @ (wgpu::CurrentSurfaceTexture::Outdated
            | wgpu::CurrentSurfaceTexture::Lost
            | wgpu::CurrentSurfaceTexture::Validation) => {
                if matches!(status, wgpu::CurrentSurfaceTexture::Validation) {
                    tracing::warn!("the surface texture could not be acquired; reconfiguring the surface");
                }
                self.surface.configure(&self.gpu.context.device, &self.config);
                None
            }
        }
    }

    /// Runs the HUD and records its drawing over the frame; returns egui's own command
    /// buffers (texture uploads), to submit first.
    fn record_hud(&mut self, encoder: &mut wgpu::CommandEncoder, view: &wgpu::TextureView) -> Vec<wgpu::CommandBuffer> {
        let raw = self.egui.winit.take_egui_input(&self.window);
        let input = HudInput {
            adapter: &self.adapter,
            stats: self.stats,
            gpu_models: self.gpu.renderer.model_count(),
            gpu_errors: self.gpu.context.uncaptured_errors(),
        };
        let (screen, show_hud) = (&mut self.screen, self.show_hud);
        let mut output = self.egui.context.run_pass(raw, |ctx| {
            if show_hud {
                screen.ui(ctx, &input);
            }
        });
        self.egui.winit.handle_platform_output(&self.window, output.platform_output);
        let primitives = self.egui.context.tessellate(output.shapes, output.pixels_per_point);
        let (device, queue) = (&self.gpu.context.device, &self.gpu.context.queue);
        for (id, deltas) in output.textures_delta.set.drain() {
            for delta in &deltas {
                self.egui.renderer.update_texture(device, queue, id, delta);
            }
        }
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point: output.pixels_per_point,
        };
        let buffers = self.egui.renderer.update_buffers(device, queue, encoder, &primitives, &screen);
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("hud"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            })
            .forget_lifetime();
        self.egui.renderer.render(&mut pass, &primitives, &screen);
        drop(pass);
        for id in output.textures_delta.free.drain() {
            self.egui.renderer.free_texture(&id);
        }
        buffers
    }
}

impl Egui {
    /// The HUD for `window` on `gpu`, drawing through the surface's view in [`hud_format`]:
    /// a non-sRGB one where the device has it (egui blends in gamma space).
    fn new(window: &Window, gpu: &Gpu, config: &wgpu::SurfaceConfiguration) -> Self {
        let context = egui::Context::default();
        let winit = egui_winit::State::new(
            context.clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.max_texture_dimension() as usize),
        );
        let renderer =
            egui_wgpu::Renderer::new(&gpu.context.device, hud_format(config), egui_wgpu::RendererOptions::default());
        Self { context, winit, renderer }
    }
}

/// The format the HUD draws in: the surface's other view, where it has one, else its own.
fn hud_format(config: &wgpu::SurfaceConfiguration) -> wgpu::TextureFormat {
    config.view_formats.first().copied().unwrap_or(config.format)
}
