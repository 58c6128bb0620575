//! The host's own world, shared by the examples: a ground and a wall of flat colours, drawn
//! with the host's own pipeline into the host's own pass, with its depth buffer (reversed
//! nowhere: `Less`, cleared to 1) and 4x MSAA, seen by a fixed camera. Props are drawn into the
//! same pass after it: one behind the wall is hidden by the host's depth, one in front is
//! drawn over it. The ground receives the props' shadows: its shader reads the props
//! renderer's sun ([`props_render::shaders::sun`]). Not props code: it stands for the host's
//! terrain and buildings.

use glam::Vec3;
use props_host::Camera;
use props_render::{Renderer, RendererConfig};

/// The host's depth format and samples per pixel; the props renderer is told both.
pub const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Samples per pixel of the host's pass.
pub const SAMPLES: u32 = 4;
/// The wall's half width, height and half thickness, metres; it stands at the origin.
pub const WALL: Vec3 = Vec3::new(6.0, 5.0, 0.3);
/// The wall's colour (linear).
pub const WALL_COLOR: [f32; 3] = [0.30, 0.05, 0.05];
/// A height on `assets/windmill.glb`'s white tower above the wall's top, metres.
pub const WINDMILL_TOWER: f32 = 12.0;
/// The ground's colour (linear).
const GROUND_COLOR: [f32; 3] = [0.05, 0.20, 0.04];
/// The sky the pass is cleared to.
const SKY: wgpu::Color = wgpu::Color { r: 0.4, g: 0.6, b: 0.9, a: 1.0 };

/// The host's scene: its pipeline, vertices, camera buffer and targets.
pub struct HostWorld {
    pipeline: wgpu::RenderPipeline,
    vertices: wgpu::Buffer,
    vertex_count: u32,
    globals: wgpu::Buffer,
    group: wgpu::BindGroup,
    targets: Option<((u32, u32), wgpu::TextureView, wgpu::TextureView)>,
    format: wgpu::TextureFormat,
}

/// The camera the host sees its world with, for a view of `size`.
#[must_use]
pub fn camera(size: (u32, u32)) -> Camera {
    let aspect = size.0 as f32 / size.1.max(1) as f32;
    Camera::look_at(Vec3::new(0.0, 7.0, 36.0), Vec3::new(0.0, 6.0, 0.0), 50f32.to_radians(), aspect, (0.5, 500.0))
}

/// How the props renderer must be made to draw into the host's pass: its colour format, and
/// the host's depth format and samples.
#[must_use]
pub fn renderer_config(format: wgpu::TextureFormat) -> RendererConfig {
    RendererConfig { depth_format: DEPTH, sample_count: SAMPLES, ..RendererConfig::new(format) }
}

impl HostWorld {
    /// The ground and the wall on `device`, for colour targets of `format`, the ground shaded
    /// by the sun `props` draws with.
    #[must_use]
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, props: &Renderer) -> Self {
        let mut vertices = quad(
            [
                Vec3::new(-60.0, 0.0, 60.0),
                Vec3::new(60.0, 0.0, 60.0),
                Vec3::new(60.0, 0.0, -60.0),
                Vec3::new(-60.0, 0.0, -60.0),
            ],
            GROUND_COLOR,
            true,
        );
        let corner = |x: f32, y: f32, z: f32| Vec3::new(x * WALL.x, y * WALL.y, z * WALL.z);
        for [a, b, c, d] in [
            [corner(-1.0, 0.0, 1.0), corner(1.0, 0.0, 1.0), corner(1.0, 1.0, 1.0), corner(-1.0, 1.0, 1.0)],
            [corner(1.0, 0.0, -1.0), corner(-1.0, 0.0, -1.0), corner(-1.0, 1.0, -1.0), corner(1.0, 1.0, -1.0)],
            [corner(-1.0, 1.0, 1.0), corner(1.0, 1.0, 1.0), corner(1.0, 1.0, -1.0), corner(-1.0, 1.0, -1.0)],
        ] {
            vertices.extend(quad([a, b, c, d], WALL_COLOR, false));
        }
        let vertex_buffer = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("host scene"),
                contents: bytemuck::cast_slice(&vertices),
                usage: wgpu::BufferUsages::VERTEX,
            },
        );
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("host camera"),
            size: 64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let (pipeline, group) = host_pipeline(device, format, &globals, props.sun_bind_group_layout());
        Self {
            pipeline,
            vertices: vertex_buffer,
            vertex_count: vertices.len() as u32,
            globals,
            group,
            targets: None,
            format,
        }
    }

    /// Begins the host's pass over `target` (`size` pixels) with its clear, depth and MSAA,
    /// and draws the ground and the wall seen by `camera`, under the sun of `props` (after its
    /// `prepare` of this frame); the props draw into it next.
    pub fn begin_pass<'a>(
        &'a mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        encoder: &'a mut wgpu::CommandEncoder,
        (target, size): (&'a wgpu::TextureView, (u32, u32)),
        (camera, props): (&Camera, &Renderer),
    ) -> wgpu::RenderPass<'a> {
        queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&camera.view_projection.to_cols_array()));
        self.targets(device, size);
        let Self { pipeline, vertices, vertex_count, group, targets, .. } = self;
        let (_, depth, msaa) = targets.as_ref().expect("made above");
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("host pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: msaa,
                depth_slice: None,
                resolve_target: Some(target),
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(SKY), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &*group, &[]);
        pass.set_bind_group(1, props.sun_bind_group(), &[]);
        pass.set_vertex_buffer(0, vertices.slice(..));
        pass.draw(0..*vertex_count, 0..1);
        pass
    }

    /// Makes the host's depth and MSAA targets for `size` anew when it changes.
    fn targets(&mut self, device: &wgpu::Device, size: (u32, u32)) {
        if self.targets.as_ref().is_none_or(|(made, ..)| *made != size) {
            let texture = |format| {
                device
                    .create_texture(&wgpu::TextureDescriptor {
                        label: Some("host target"),
                        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: SAMPLES,
                        dimension: wgpu::TextureDimension::D2,
                        format,
                        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                        view_formats: &[],
                    })
                    .create_view(&wgpu::TextureViewDescriptor::default())
            };
            self.targets = Some((size, texture(DEPTH), texture(self.format)));
        }
    }
}

/// Two triangles of colour `color` over corners `[a, b, c, d]` (counter-clockwise seen from
/// their front), as the host's vertices: position, colour, and whether they receive shadows.
fn quad([a, b, c, d]: [Vec3; 4], color: [f32; 3], receives: bool) -> Vec<[f32; 7]> {
    let receives = f32::from(u8::from(receives));
    [a, b, c, a, c, d].iter().map(|p| [p.x, p.y, p.z, color[0], color[1], color[2], receives]).collect()
}

/// The host's shader: flat colours, darkened where the props' shadows fall on a surface that
/// receives them (the ground, facing up).
const HOST_WGSL: &str = "
@group(0) @binding(0) var<uniform> view_proj: mat4x4<f32>;
struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec3<f32>,
    @location(1) world: vec3<f32>,
    @location(2) receives: f32,
};
@vertex fn vs(@location(0) p: vec3<f32>, @location(1) c: vec3<f32>, @location(2) r: f32) -> Out {
    return Out(view_proj * vec4<f32>(p, 1.0), c, p, r);
}
@fragment fn fs(in: Out) -> @location(0) vec4<f32> {
    let sun = select(1.0, sun_visibility(in.world, vec3<f32>(0.0, 1.0, 0.0)), in.receives > 0.5);
    return vec4<f32>(in.color * mix(0.45, 1.0, sun), 1.0);
}";

/// The host's pipeline: flat-coloured triangles, depth-tested and written; its camera in
/// group 0, the props' sun in group 1 (`sun`: its layout).
fn host_pipeline(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    globals: &wgpu::Buffer,
    sun: &wgpu::BindGroupLayout,
) -> (wgpu::RenderPipeline, wgpu::BindGroup) {
    let source = format!("{}\n{HOST_WGSL}", props_render::shaders::sun(1));
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("host"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let camera = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("host camera"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("host"),
        bind_group_layouts: &[Some(&camera), Some(sun)],
        immediate_size: 0,
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("host"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 28,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32],
            })],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: wgpu::MultisampleState { count: SAMPLES, ..Default::default() },
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(format.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("host"),
        layout: &camera,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
    });
    (pipeline, group)
}

/// Checks of a host's image, for the examples' tests.
pub mod checks {
    use glam::Vec3;

    use super::{WALL, camera};

    /// The sRGB-encoded pixel where world point `p` shows in `image` (seen by [`camera`]).
    #[must_use]
    pub fn pixel_at(image: &image::RgbaImage, p: Vec3) -> [u8; 3] {
        let ndc = camera(image.dimensions()).view_projection.project_point3(p);
        let (x, y) = ((ndc.x * 0.5 + 0.5) * image.width() as f32, (0.5 - ndc.y * 0.5) * image.height() as f32);
        let [r, g, b, _] = image.get_pixel(x as u32, y as u32).0;
        [r, g, b]
    }

    /// Within 2 of `expected` (linear) once encoded to sRGB.
    #[must_use]
    pub fn is_color(pixel: [u8; 3], expected: [f32; 3]) -> bool {
        let encode = |c: f32| if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
        pixel.iter().zip(expected).all(|(&p, c)| (f32::from(p) - encode(c) * 255.0).abs() <= 2.0)
    }

    /// Whether the wall's front face lies over world point `p` in an image of `size`: the
    /// eye's ray to `p` meets it.
    #[must_use]
    pub fn over_the_wall(size: (u32, u32), p: Vec3) -> bool {
        let eye = camera(size).eye;
        let hit = eye + (p - eye) * ((WALL.z - eye.z) / (p.z - eye.z));
        hit.x.abs() < WALL.x && (0.0..WALL.y).contains(&hit.y)
    }
}
