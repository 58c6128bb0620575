//! GPU buffers that grow geometrically and are reused frame after frame.

/// A buffer whose capacity at least doubles when a frame needs more, and never shrinks, so a
/// steady scene allocates nothing per frame.
pub struct GrowableBuffer {
    buffer: wgpu::Buffer,
    label: &'static str,
    usage: wgpu::BufferUsages,
    /// Bumped on every reallocation, so bind groups know to rebuild.
    generation: u64,
}

impl GrowableBuffer {
    /// An empty buffer (of a small initial capacity) with `usage` plus `COPY_DST`.
    #[must_use]
    pub fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = Self::allocate(device, label, usage, 4096);
        Self { buffer, label, usage, generation: 0 }
    }

    fn allocate(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages, size: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size, usage, mapped_at_creation: false })
    }

    /// Makes room for `size` bytes; returns true when the buffer was reallocated.
    pub fn reserve(&mut self, device: &wgpu::Device, size: u64) -> bool {
        if size <= self.buffer.size() {
            return false;
        }
        let capacity = size.max(self.buffer.size() * 2).next_multiple_of(256);
        tracing::debug!(buffer = self.label, bytes = capacity, "growing GPU buffer");
        self.buffer = Self::allocate(device, self.label, self.usage, capacity);
        self.generation += 1;
        true
    }

    /// Writes `data` at offset 0, growing first if needed.
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[u8]) {
        self.reserve(device, data.len() as u64);
        if !data.is_empty() {
            queue.write_buffer(&self.buffer, 0, data);
        }
    }

    /// The current buffer.
    #[must_use]
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// Changes on every reallocation.
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }
}
