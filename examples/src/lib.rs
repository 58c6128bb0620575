//! The toy host the examples share: a wgpu device of its own, a window (winit) or a headless
//! target, and a frame loop that hands each example an encoder and a colour target. None of
//! this is props code: it stands for the engine a game programmer already has. Each example
//! says how it draws into it with [`Example`].
//!
//! Every example takes `--headless --frames N --screenshot FILE.png` (no window: N frames at
//! 30 per simulated second, the last written to the file) and `--size WIDTHxHEIGHT`.

pub mod world;

use std::path::PathBuf;
use std::sync::Arc;

use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

/// What the examples fail with: any error, shown to the user.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Simulated seconds per frame of a headless run.
pub const HEADLESS_STEP: f32 = 1.0 / 30.0;

/// The host's command line.
#[derive(Clone, Debug, clap::Parser)]
pub struct Args {
    /// Draw offscreen, without a window.
    #[arg(long)]
    pub headless: bool,
    /// Exit after this many frames.
    #[arg(long)]
    pub frames: Option<u32>,
    /// Write the last frame of a headless run to this PNG file.
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Image or window size, `WIDTHxHEIGHT`.
    #[arg(long, default_value = "960x540", value_parser = parse_size)]
    pub size: (u32, u32),
}

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text.split_once('x').ok_or("expected WIDTHxHEIGHT")?;
    let parse = |s: &str| s.parse::<u32>().ok().filter(|n| (1..=8192).contains(n)).ok_or("sides of 1 to 8192");
    Ok((parse(w)?, parse(h)?))
}

/// The host's GPU: its adapter, device and queue.
pub struct Gpu {
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device everything is drawn with, the props included.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// An adapter and device on `instance` (able to present to `surface`, if given), chosen
    /// as `WGPU_BACKEND` and `WGPU_ADAPTER_NAME` say.
    fn new(instance: &wgpu::Instance, surface: Option<&wgpu::Surface<'_>>) -> Result<Self, Error> {
        let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(instance, surface))
            .map_err(|e| format!("no GPU adapter (install a Vulkan driver, e.g. Debian's mesa-vulkan-drivers): {e}"))?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("host device"),
            // What the props draw better with, where the adapter has it.
            required_features: props_render::optional_features(adapter.features()),
            required_limits: adapter.limits(),
            ..Default::default()
        }))?;
        Ok(Self { adapter, device, queue })
    }
}

/// An example: a scene the host draws each frame.
pub trait Example: Sized {
    /// Sets the example up on `gpu` for colour targets of `format`.
    ///
    /// # Errors
    /// When a model does not load, or the device refuses it.
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, Error>;

    /// Records the frame `seconds` into the run into `encoder`, drawing into `target`, a
    /// view of `size` pixels (cleared by nobody before).
    fn frame(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    );
}

/// Runs example `E` as the command line says: in a window, or headless. (The example's
/// `main` installs its tracing subscriber, as a host does.)
///
/// # Errors
/// When no GPU is found, the example does not start, or the screenshot cannot be written.
pub fn run<E: Example>() -> Result<(), Error> {
    let args = <Args as clap::Parser>::parse();
    if args.headless {
        let image = headless::<E>(args.size, args.frames.unwrap_or(1))?;
        if let Some(path) = &args.screenshot {
            image.save(path).map_err(|e| format!("writing {}: {e}", path.display()))?;
        }
        return Ok(());
    }
    if args.screenshot.is_some() {
        return Err("--screenshot needs --headless".into());
    }
    let event_loop = EventLoop::new()?;
    let mut app = App::<E> { args, window: None, error: None, frames: 0, start: std::time::Instant::now() };
    event_loop.run_app(&mut app)?;
    app.error.map_or(Ok(()), Err)
}

/// Draws `frames` frames of example `E` offscreen at `size` (sRGB RGBA8) and returns the last.
///
/// # Errors
/// When no GPU is found, the example does not start, or the image cannot be read back.
pub fn headless<E: Example>(size: (u32, u32), frames: u32) -> Result<image::RgbaImage, Error> {
    let mut run = Headless::new(size, E::new)?;
    for _ in 0..frames.max(1) {
        run.frame();
    }
    run.image()
}

/// An example drawn offscreen frame by frame, [`HEADLESS_STEP`] apart, for tests that act
/// between frames (write a mod file, read the example's state).
pub struct Headless<E> {
    /// The device.
    pub gpu: Gpu,
    target: props_render::OffscreenTarget,
    size: (u32, u32),
    frames: u32,
    /// The example.
    pub example: E,
}

impl<E: Example> Headless<E> {
    /// An offscreen target of `size` and the example `make` sets up on its device.
    ///
    /// # Errors
    /// When no GPU is found, or the example does not start.
    pub fn new(
        size: (u32, u32),
        make: impl FnOnce(&Gpu, wgpu::TextureFormat) -> Result<E, Error>,
    ) -> Result<Self, Error> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let gpu = Gpu::new(&instance, None)?;
        let target = props_render::OffscreenTarget::new(&gpu.device, size);
        let example = make(&gpu, props_render::OFFSCREEN_FORMAT)?;
        Ok(Self { gpu, target, size, frames: 0, example })
    }

    /// Draws the next frame, [`HEADLESS_STEP`] after the last.
    pub fn frame(&mut self) {
        self.frame_at(self.frames as f32 * HEADLESS_STEP);
    }

    /// Draws a frame `seconds` into the run: a test that waits on the wall clock (for a mod
    /// file to load) checks its image at a time it chose, not at however many frames passed.
    pub fn frame_at(&mut self, seconds: f32) {
        let mut encoder = self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        self.example.frame(&self.gpu, &mut encoder, (self.target.view(), self.size), seconds);
        self.gpu.queue.submit([encoder.finish()]);
        self.frames += 1;
    }

    /// The last frame drawn (sRGB RGBA8).
    ///
    /// # Errors
    /// When the image cannot be read back.
    pub fn image(&self) -> Result<image::RgbaImage, Error> {
        let pixels = self.target.read_rgba8(&self.gpu.device, &self.gpu.queue)?;
        let image = image::RgbaImage::from_raw(self.size.0, self.size.1, pixels);
        Ok(image.ok_or("the image read back is not of the target's size")?)
    }
}

/// What a test of an example makes of `result`: its value; `None`, with a note, when there is
/// no GPU outside CI (the test skips); under CI (`CI` set) a failure, as every error is.
///
/// # Panics
/// On an error under CI.
#[must_use]
pub fn on_gpu<T>(result: Result<T, Error>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(error) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped, no GPU: {error:#}");
            None
        }
        Err(error) => panic!("{error:#}"),
    }
}

/// Pixels of an image of `size` that example `E` draws differently at `seconds` and a fifth of
/// a second later (wall-clock frames at those times): how much it still moves then. Its tests
/// ask it past a minute, after every clip it plays has ended at least once.
///
/// # Errors
/// When no GPU is found, the example does not start, or an image cannot be read back.
pub fn moving_pixels<E: Example>(size: (u32, u32), seconds: f32) -> Result<usize, Error> {
    let mut run = Headless::new(size, E::new)?;
    run.frame_at(seconds);
    let before = run.image()?;
    run.frame_at(seconds + 0.2);
    let after = run.image()?;
    Ok(before.pixels().zip(after.pixels()).filter(|(a, b)| a != b).count())
}

/// Asserts that example `E` still moves a minute and more into its run (at 61 s: after every
/// clip it plays has ended at least once), by at least `pixels` of a 320x180 image in a fifth
/// of a second; skips without a GPU outside CI.
///
/// # Panics
/// When it moves less, or on an error under CI.
pub fn assert_still_moving<E: Example>(pixels: usize) {
    let Some(moving) = on_gpu(moving_pixels::<E>((320, 180), 61.0)) else { return };
    assert!(moving >= pixels, "{moving} pixels moved in a fifth of a second, a minute in");
}

/// A window presenting example `E`.
struct App<E> {
    args: Args,
    window: Option<Windowed<E>>,
    error: Option<Error>,
    frames: u32,
    start: std::time::Instant,
}

/// What a window holds.
struct Windowed<E> {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    example: E,
}

impl<E: Example> Windowed<E> {
    fn new(event_loop: &ActiveEventLoop, size: (u32, u32)) -> Result<Self, Error> {
        let attributes = Window::default_attributes()
            .with_title("props in a host")
            .with_inner_size(PhysicalSize::new(size.0, size.1));
        let window = Arc::new(event_loop.create_window(attributes)?);
        let instance = wgpu::Instance::new(
            wgpu::InstanceDescriptor::new_with_display_handle(Box::new(event_loop.owned_display_handle())).with_env(),
        );
        let surface = instance.create_surface(Arc::clone(&window))?;
        let gpu = Gpu::new(&instance, Some(&surface))?;
        let inner = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, inner.width.max(1), inner.height.max(1))
            .ok_or("the adapter cannot present to this window")?;
        config.format = config.format.add_srgb_suffix();
        surface.configure(&gpu.device, &config);
        let example = E::new(&gpu, config.format)?;
        Ok(Self { window, surface, config, gpu, example })
    }

    fn redraw(&mut self, seconds: f32) {
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) | wgpu::CurrentSurfaceTexture::Suboptimal(texture) => texture,
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => return,
            _ => {
                self.surface.configure(&self.gpu.device, &self.config);
                return;
            }
        };
        let view = texture.texture.create_view(&wgpu::TextureViewDescriptor::default());
        let mut encoder = self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let size = (self.config.width, self.config.height);
        self.example.frame(&self.gpu, &mut encoder, (&view, size), seconds);
        self.gpu.queue.submit([encoder.finish()]);
        self.gpu.queue.present(texture);
    }
}

impl<E: Example> ApplicationHandler for App<E> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        match Windowed::new(event_loop, self.args.size) {
            Ok(window) => self.window = Some(window),
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(windowed) = &mut self.window else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                (windowed.config.width, windowed.config.height) = (size.width, size.height);
                windowed.surface.configure(&windowed.gpu.device, &windowed.config);
            }
            WindowEvent::RedrawRequested => {
                windowed.redraw(self.start.elapsed().as_secs_f32());
                self.frames += 1;
                if self.args.frames.is_some_and(|n| self.frames >= n) {
                    event_loop.exit();
                }
                windowed.window.request_redraw();
            }
            _ => {}
        }
    }
}
