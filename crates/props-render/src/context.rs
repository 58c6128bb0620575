//! Finding an adapter and device, deciding what the adapter can do, and following the
//! device's health (errors outside error scopes, device loss).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::shaders::PaletteAccess;

/// Why no GPU could be used.
#[derive(Debug, thiserror::Error)]
pub enum ContextError {
    /// No adapter matched (no GPU and no software rasterizer such as lavapipe).
    #[error("no GPU adapter found (install a Vulkan driver, e.g. Debian's mesa-vulkan-drivers): {0}")]
    NoAdapter(#[from] wgpu::RequestAdapterError),
    /// The adapter refused to create a device.
    #[error("the GPU adapter refused to create a device: {0}")]
    Device(#[from] wgpu::RequestDeviceError),
}

/// How the palette is bound: decided from the adapter, or forced (tests, debugging).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PaletteMode {
    /// Storage buffer when the adapter reads storage buffers in the vertex stage and the
    /// device's limits have room for them, else texture ([`preferred_palette_access`]).
    #[default]
    Auto,
    /// Force one access mode.
    Force(PaletteAccess),
}

/// The optional device features the renderer uses, of those in `available` (an adapter's
/// features): a host requests them with its device to get them, as [`GpuContext`] does. The
/// GPU block formats KTX2 textures are uploaded in (without them, they are decoded to RGBA8:
/// four to eight times the memory), `TIMESTAMP_QUERY` (pass times) and `DUAL_SOURCE_BLENDING`
/// (glass tints what shows through it; without it, by the mean of its channels).
#[must_use]
pub fn optional_features(available: wgpu::Features) -> wgpu::Features {
    crate::texture::block_features(available)
        | (available & (wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::DUAL_SOURCE_BLENDING))
}

/// An instance, adapter, device and queue, plus what the renderer needs to know about them.
///
/// The device never panics on an error: it is watched ([`DeviceHealth::watch`]), so errors
/// outside an error scope are logged and counted ([`GpuContext::uncaptured_errors`]) instead of
/// reaching wgpu's default handler, which panics; a lost device is noted
/// ([`GpuContext::is_lost`]) so that the caller can recreate it ([`GpuContext::recreate`]).
pub struct GpuContext {
    /// The wgpu instance.
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    health: DeviceHealth,
}

/// What a device's callbacks report, from any thread: whether it was lost and how many GPU
/// errors happened outside an error scope. A host that makes its own device watches it
/// ([`DeviceHealth::watch`]) as [`GpuContext`] does, or wgpu's default handler panics on the
/// first such error.
#[derive(Clone, Debug, Default)]
pub struct DeviceHealth(Arc<Health>);

#[derive(Debug, Default)]
struct Health {
    lost: AtomicBool,
    errors: AtomicU64,
}

impl DeviceHealth {
    /// Follows `device` from now on: each error outside an error scope is logged (with
    /// `tracing`) and counted instead of panicking, and its loss is noted. wgpu reports a loss
    /// and errors when the device is polled (`device.poll(wgpu::PollType::Poll)` once a frame)
    /// or a submission fails. Replaces any handler the device had.
    #[must_use]
    pub fn watch(device: &wgpu::Device) -> Self {
        let health = Self::default();
        let errors = Arc::clone(&health.0);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            errors.errors.fetch_add(1, Ordering::Relaxed);
            tracing::error!(%error, "GPU error outside an error scope (ignored)");
        }));
        let lost = Arc::clone(&health.0);
        device.set_device_lost_callback(move |reason, message| {
            lost.lost.store(true, Ordering::Release);
            tracing::warn!(?reason, %message, "the GPU device was lost");
        });
        health
    }

    /// Whether the device was lost (a driver reset, a removed GPU, `destroy`): nothing drawn
    /// on it shows any more; a new device, renderer and upload of every model are needed.
    #[must_use]
    pub fn is_lost(&self) -> bool {
        self.0.lost.load(Ordering::Acquire)
    }

    /// GPU errors that happened outside any error scope so far (each also logged).
    #[must_use]
    pub fn uncaptured_errors(&self) -> u64 {
        self.0.errors.load(Ordering::Relaxed)
    }
}

impl GpuContext {
    /// A context without a window (offscreen rendering, tests, `--headless`). Honors the
    /// `WGPU_BACKEND`, `WGPU_ADAPTER_NAME` and `WGPU_POWER_PREF` environment variables.
    pub async fn headless() -> Result<Self, ContextError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::with_instance(instance, None).await
    }

    /// A context on `instance`, able to present to `surface` if given.
    pub async fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, ContextError> {
        let adapter = wgpu::util::initialize_adapter_from_env_or_default(&instance, surface).await?;
        let info = adapter.get_info();
        tracing::info!(name = %info.name, backend = ?info.backend, device_type = ?info.device_type, driver = %info.driver, "GPU adapter chosen");
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("props-render device"),
                required_features: optional_features(adapter.features()),
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await?;
        let health = DeviceHealth::watch(&device);
        Ok(Self { instance, adapter, device, queue, health })
    }

    /// A new adapter and device from the same instance (able to present to `surface`), for
    /// when this one is lost: everything uploaded must be uploaded again.
    pub async fn recreate(&self, surface: Option<&wgpu::Surface<'_>>) -> Result<Self, ContextError> {
        Self::with_instance(self.instance.clone(), surface).await
    }

    /// Whether the device was lost (a driver reset, a removed GPU, `destroy`): nothing drawn
    /// on it shows any more.
    #[must_use]
    pub fn is_lost(&self) -> bool {
        self.health.is_lost()
    }

    /// GPU errors that happened outside any error scope so far (each also logged).
    #[must_use]
    pub fn uncaptured_errors(&self) -> u64 {
        self.health.uncaptured_errors()
    }

    /// A one-line description of the adapter, for logs, HUDs and test messages.
    #[must_use]
    pub fn adapter_description(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }
}

/// The palette access `device` of `adapter` supports best: storage buffers where the adapter
/// reads them in the vertex stage and the device's limits (which its host requested: WebGL2's
/// have none) have room for the vertex stage's three (the palette, at a dynamic offset, and a
/// model's two per-vertex tables), else textures.
#[must_use]
pub fn preferred_palette_access(adapter: &wgpu::Adapter, device: &wgpu::Device) -> PaletteAccess {
    let downlevel = adapter.get_downlevel_capabilities();
    let limits = device.limits();
    if downlevel.flags.contains(wgpu::DownlevelFlags::VERTEX_STORAGE)
        && limits.max_storage_buffers_per_shader_stage >= 3
        && limits.max_dynamic_storage_buffers_per_pipeline_layout >= 1
    {
        PaletteAccess::StorageBuffer
    } else {
        PaletteAccess::Texture
    }
}
