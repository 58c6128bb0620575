//! Mip chains drawn on the GPU (`shaders/mipmaps.wgsl`): a texture's upload writes its largest
//! level only and leaves the rest to the device, so that a modder's 2048 x 2048 textures do
//! not stop the frame's thread while their levels are averaged (a tenth of a second each on
//! the CPU, for an sRGB one).

/// The pipelines that draw a level of an RGBA8 texture from the level above it, sRGB and
/// linear.
pub(crate) struct Mipmaps {
    layout: wgpu::BindGroupLayout,
    srgb: wgpu::RenderPipeline,
    linear: wgpu::RenderPipeline,
}

/// The texture usages a texture needs for [`Mipmaps::draw`] to make its levels.
pub(crate) const USAGES: wgpu::TextureUsages =
    wgpu::TextureUsages::TEXTURE_BINDING.union(wgpu::TextureUsages::RENDER_ATTACHMENT);

impl Mipmaps {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("mipmaps"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../shaders/mipmaps.wgsl").into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("mipmaps"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("mipmaps"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |format: wgpu::TextureFormat| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("mipmaps"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    buffers: &[],
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    targets: &[Some(format.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let srgb = pipeline(wgpu::TextureFormat::Rgba8UnormSrgb);
        let linear = pipeline(wgpu::TextureFormat::Rgba8Unorm);
        Self { layout, srgb, linear }
    }

    /// Draws every level of `texture` below its largest from the one above it, in
    /// `encoder`. `texture` is RGBA8, sRGB or linear (its format says which way colour
    /// averages), with [`USAGES`].
    pub(crate) fn draw(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture) {
        let pipeline = if texture.format().is_srgb() { &self.srgb } else { &self.linear };
        let level = |level: u32| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("mip level"),
                base_mip_level: level,
                mip_level_count: Some(1),
                ..Default::default()
            })
        };
        for target in 1..texture.mip_level_count() {
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("mip level above"),
                layout: &self.layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&level(target - 1)),
                }],
            });
            let view = level(target);
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("mip level"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    // Every texel is drawn.
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::GpuContext;

    fn to_linear(c: u8) -> f32 {
        let c = f32::from(c) / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    }

    fn to_srgb(c: f32) -> f32 {
        255.0 * if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
    }

    /// The texel at `(x, y)` of the level below `above` (`width` x `height`, RGBA8), by the
    /// box filter's definition, unrounded.
    fn expected(above: &[u8], (width, height): (u32, u32), (x, y): (u32, u32), srgb: bool) -> [f32; 4] {
        let texel = |x: u32, y: u32| &above[((y.min(height - 1) * width + x.min(width - 1)) * 4) as usize..][..4];
        let quad = [texel(2 * x, 2 * y), texel(2 * x + 1, 2 * y), texel(2 * x, 2 * y + 1), texel(2 * x + 1, 2 * y + 1)];
        std::array::from_fn(|c| {
            if srgb && c < 3 {
                to_srgb(quad.iter().map(|t| to_linear(t[c])).sum::<f32>() / 4.0)
            } else {
                quad.iter().map(|t| f32::from(t[c])).sum::<f32>() / 4.0
            }
        })
    }

    /// Every level of `texture` (RGBA8 with `COPY_SRC`), read back, largest first.
    fn levels(gpu: &GpuContext, texture: &wgpu::Texture) -> Vec<(Vec<u8>, (u32, u32))> {
        (0..texture.mip_level_count())
            .map(|level| {
                let size = texture.size().mip_level_size(level, wgpu::TextureDimension::D2);
                let (width, height) = (size.width, size.height);
                let row = (4 * width).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
                let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size: u64::from(row * height),
                    usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: false,
                });
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                encoder.copy_texture_to_buffer(
                    wgpu::TexelCopyTextureInfo { mip_level: level, ..texture.as_image_copy() },
                    wgpu::TexelCopyBufferInfo {
                        buffer: &buffer,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(row),
                            rows_per_image: None,
                        },
                    },
                    size,
                );
                gpu.queue.submit([encoder.finish()]);
                buffer.slice(..).map_async(wgpu::MapMode::Read, |mapped| mapped.expect("the buffer maps"));
                gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("the device finishes");
                let mapped = buffer.slice(..).get_mapped_range().expect("the buffer is mapped");
                let texels = mapped.chunks(row as usize).flat_map(|r| &r[..(4 * width) as usize]).copied().collect();
                (texels, (width, height))
            })
            .collect()
    }

    /// Each level drawn is the 2x2 box filter of the level above (in linear space for sRGB
    /// colour, odd edges repeating their last texel), to the byte, on a texture of odd sizes
    /// and random texels.
    #[test]
    fn each_level_averages_the_blocks_of_the_level_above() {
        let gpu = match pollster::block_on(GpuContext::headless()) {
            Ok(gpu) => gpu,
            Err(error) => {
                assert!(std::env::var_os("CI").is_none(), "no GPU adapter under CI: {error}");
                eprintln!("SKIPPED: no GPU adapter ({error}); install mesa-vulkan-drivers");
                return;
            }
        };
        let mipmaps = Mipmaps::new(&gpu.device);
        let (width, height) = (37, 10);
        let mut seed = 1u32;
        let texels: Vec<u8> = (0..width * height * 4)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 24) as u8
            })
            .collect();
        for format in [wgpu::TextureFormat::Rgba8UnormSrgb, wgpu::TextureFormat::Rgba8Unorm] {
            let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: None,
                size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                mip_level_count: 6,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: USAGES | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
            gpu.queue.write_texture(
                texture.as_image_copy(),
                &texels,
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(4 * width), rows_per_image: None },
                texture.size(),
            );
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            mipmaps.draw(&gpu.device, &mut encoder, &texture);
            gpu.queue.submit([encoder.finish()]);
            let levels = levels(&gpu, &texture);
            assert_eq!(levels[0].0, texels);
            let sizes: Vec<(u32, u32)> = levels.iter().map(|(_, size)| *size).collect();
            assert_eq!(sizes, [(37, 10), (18, 5), (9, 2), (4, 1), (2, 1), (1, 1)]);
            let (mut sum, mut count) = (0.0, 0);
            for pair in levels.windows(2) {
                let ((above, above_size), (level, (w, h))) = (&pair[0], &pair[1]);
                for (k, texel) in level.chunks(4).enumerate() {
                    let at = (k as u32 % w, k as u32 / w);
                    let expected = expected(above, *above_size, at, format.is_srgb());
                    for (c, (&got, want)) in texel.iter().zip(expected).enumerate() {
                        // The device rounds to the nearest byte; its sRGB conversions may be
                        // approximate (lavapipe's are within 0.82 of a byte), so an sRGB
                        // colour may be a byte off.
                        let allowed = if format.is_srgb() && c < 3 { 1.0 } else { 0.5 + 1e-3 };
                        let off = (f32::from(got) - want).abs();
                        assert!(
                            off <= allowed,
                            "{format:?} level {w}x{h} texel {at:?} channel {c}: {got}, expected {want}"
                        );
                        (sum, count) = (sum + off, count + 1);
                    }
                }
            }
            // Rounding alone is off by a quarter of a byte on average; an approximation, or a
            // filter off by half a texel, by more.
            assert!(sum / count as f32 <= 0.3, "{format:?}: off by {} of a byte on average", sum / count as f32);
        }
    }
}
