//! A host's own device, watched as `GpuContext` watches its own (`DeviceHealth::watch`): an
//! error outside any error scope is counted, not a panic, and a destroyed device is noted lost.

use props_render::DeviceHealth;

#[test]
fn a_watched_device_counts_errors_and_notes_its_loss_without_panicking() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // The host's own device, on the same adapter: nobody else handles its errors.
    let descriptor = wgpu::DeviceDescriptor { label: Some("a host's device"), ..Default::default() };
    let (device, _queue) = pollster::block_on(gpu.adapter.request_device(&descriptor)).expect("a device");
    let health = DeviceHealth::watch(&device);
    assert_eq!((health.uncaptured_errors(), health.is_lost()), (0, false));
    // Mapped for reading and for writing at once: invalid without a feature nobody asked for.
    let _buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("invalid"),
        size: 16,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::MAP_WRITE,
        mapped_at_creation: false,
    });
    assert_eq!(health.uncaptured_errors(), 1, "the error is counted (wgpu's default handler panics)");
    device.destroy();
    let _ = device.poll(wgpu::PollType::Poll);
    assert!(health.is_lost(), "a destroyed device is lost");
}
