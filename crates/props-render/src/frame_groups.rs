//! The group-0 bind groups of a frame: globals, palette, palette windows, sky, lights, shadow
//! maps, the ground's shadow heights and the specular lobe's directional albedo, for the main
//! pass and for each cascade's shadow pass (its own globals, and the stand-in for the maps it
//! draws into, which it cannot read meanwhile).

use crate::ground_shadow::GroundShadow;
use crate::growable_buffer::GrowableBuffer;
use crate::light_clusters::LightClusters;
use crate::palette_store::PaletteStore;
use crate::shadows::{CASCADES, ShadowMap};
use crate::sky::SkyLight;

/// The group-0 bind groups of the main pass and of each cascade's shadow pass.
#[derive(Clone)]
pub(crate) struct FrameGroups {
    /// The main pass's.
    pub(crate) main: wgpu::BindGroup,
    /// Each cascade's shadow pass's, nearest first.
    pub(crate) shadow: [wgpu::BindGroup; CASCADES],
}

/// What the groups bind besides the globals.
pub(crate) struct FrameResources<'a> {
    pub(crate) layout: &'a wgpu::BindGroupLayout,
    pub(crate) palette: &'a PaletteStore,
    pub(crate) windows: &'a GrowableBuffer,
    pub(crate) sky: &'a SkyLight,
    pub(crate) lights: &'a LightClusters,
    pub(crate) shadows: &'a ShadowMap,
    pub(crate) ground: &'a GroundShadow,
}

impl FrameGroups {
    /// The groups of `resources`, the main pass's with `globals`, each shadow pass's with its
    /// own of `shadow_globals`.
    pub(crate) fn new(
        device: &wgpu::Device,
        resources: &FrameResources<'_>,
        (globals, shadow_globals): (&wgpu::Buffer, &[wgpu::Buffer; CASCADES]),
    ) -> Self {
        let FrameResources { layout, palette, windows, sky, lights, shadows, ground } = resources;
        let group = |globals: &wgpu::Buffer, shadow_map: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("frame"),
                layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: palette.binding() },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: windows.buffer(),
                            offset: 0,
                            size: wgpu::BufferSize::new(16),
                        }),
                    },
                    wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&sky.view) },
                    wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::Sampler(&sky.sampler) },
                    wgpu::BindGroupEntry { binding: 5, resource: lights.lights().as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 6, resource: wgpu::BindingResource::TextureView(lights.view()) },
                    wgpu::BindGroupEntry { binding: 7, resource: wgpu::BindingResource::TextureView(shadow_map) },
                    wgpu::BindGroupEntry { binding: 8, resource: wgpu::BindingResource::Sampler(&shadows.sampler) },
                    wgpu::BindGroupEntry { binding: 9, resource: wgpu::BindingResource::TextureView(&ground.view) },
                    wgpu::BindGroupEntry { binding: 10, resource: wgpu::BindingResource::Sampler(&ground.sampler) },
                    wgpu::BindGroupEntry { binding: 11, resource: sky.directional_albedo.as_entire_binding() },
                ],
            })
        };
        Self {
            main: group(globals, &shadows.maps),
            shadow: std::array::from_fn(|k| group(&shadow_globals[k], &shadows.stand_in)),
        }
    }
}
