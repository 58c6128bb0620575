//! The sun as a host's own shader sees it: the frame's globals (sun, ambient, camera) and the
//! props' shadow maps in one bind group, so that the host's terrain and buildings are lit by
//! the same sun and receive the props' shadows and the ground's (the WGSL that reads it:
//! [`crate::shaders::sun`]).

use crate::ground_shadow::GroundShadow;
use crate::shadows::ShadowMap;

/// The layout and the bind group a host binds for [`crate::shaders::sun`].
pub(crate) struct HostSun {
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) group: wgpu::BindGroup,
}

impl HostSun {
    /// The group over the renderer's `globals` buffer, `shadows`' maps and sampler, and the
    /// `ground`'s shadow heights.
    pub(crate) fn new(
        device: &wgpu::Device,
        globals: &wgpu::Buffer,
        shadows: &ShadowMap,
        ground: &GroundShadow,
    ) -> Self {
        let fragment = wgpu::ShaderStages::FRAGMENT;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("host sun"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: fragment,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: fragment,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2Array,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: fragment,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: fragment,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 4,
                    visibility: fragment,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let group = Self::group(device, &layout, (globals, shadows, ground));
        Self { layout, group }
    }

    /// The group made again over a new ground shadow texture, in the same layout (the host's
    /// pipelines keep theirs).
    pub(crate) fn rebind(
        &mut self,
        device: &wgpu::Device,
        globals: &wgpu::Buffer,
        shadows: &ShadowMap,
        ground: &GroundShadow,
    ) {
        self.group = Self::group(device, &self.layout, (globals, shadows, ground));
    }

    fn group(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        (globals, shadows, ground): (&wgpu::Buffer, &ShadowMap, &GroundShadow),
    ) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("host sun"),
            layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&shadows.maps) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&shadows.sampler) },
                wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&ground.view) },
                wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::Sampler(&ground.sampler) },
            ],
        })
    }
}
