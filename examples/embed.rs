//! Props in a host's own pass: the host draws its ground and a wall with its own pipeline and
//! depth buffer, then the props renderer records two spinning windmills into the same pass,
//! one behind the wall (hidden below its top by the host's depth) and one in front.
//!
//! `cargo run -p props-examples --example embed` (add `-- --headless --frames 30 --screenshot
//! embed.png` without a window).

use glam::{Affine3A, Vec3};
use props_examples::{Example, Gpu};
use props_render::{Camera, FrameData, Light, ModelId, Renderer, RendererConfig};

/// The host's depth format and samples per pixel; the props renderer is told both.
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
const SAMPLES: u32 = 4;
/// The wall's half width, height and half thickness, metres; its colour (linear).
const WALL: Vec3 = Vec3::new(6.0, 5.0, 0.3);
const WALL_COLOR: [f32; 3] = [0.30, 0.05, 0.05];
/// Where the windmills stand: behind the wall, and in front of it.
const WINDMILLS: [Vec3; 2] = [Vec3::new(-2.0, 0.0, -8.0), Vec3::new(3.0, 0.0, 5.0)];
const WINDMILL: ModelId = ModelId(0);

fn main() -> Result<(), props_examples::Error> {
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).init();
    props_examples::run::<Embed>()
}

/// The host's scene (ground, wall, their pipeline, its depth and MSAA targets) and the props.
struct Embed {
    pipeline: wgpu::RenderPipeline,
    vertices: wgpu::Buffer,
    vertex_count: u32,
    globals: wgpu::Buffer,
    group: wgpu::BindGroup,
    targets: Option<((u32, u32), wgpu::TextureView, wgpu::TextureView)>,
    format: wgpu::TextureFormat,
    // The props: renderer, model and the frame's instances.
    props: Renderer,
    windmill: props_anim::Model,
    frame: FrameData,
}

/// The camera the host sees its scene with, for a view of `size`.
fn camera(size: (u32, u32)) -> Camera {
    let aspect = size.0 as f32 / size.1.max(1) as f32;
    Camera::look_at(Vec3::new(0.0, 7.0, 36.0), Vec3::new(0.0, 6.0, 0.0), 50f32.to_radians(), aspect, (0.5, 500.0))
}

impl Example for Embed {
    fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, props_examples::Error> {
        // Props: a renderer drawing into the host's format, depth and samples; a model admitted
        // through the gate, its report's issues logged (a refusal says what and where).
        let config = RendererConfig { depth_format: DEPTH, sample_count: SAMPLES, ..RendererConfig::new(format) };
        let mut props = Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, config);
        if props.sample_count() != SAMPLES {
            return Err("the adapter cannot multisample 4x".into());
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/windmill.glb");
        let admitted = props_gltf::gate::admit_file(path.as_ref(), &props_gltf::Limits::default())?;
        for issue in &admitted.report.issues {
            tracing::warn!(%issue, "windmill.glb");
        }
        let windmill = admitted.import.model;
        props.set_model(WINDMILL, &windmill)?;

        // The host's own: a ground and a wall of flat colours, drawn with its own pipeline.
        let ground = [0.05, 0.20, 0.04];
        let mut vertices = quad(
            [
                Vec3::new(-60.0, 0.0, 60.0),
                Vec3::new(60.0, 0.0, 60.0),
                Vec3::new(60.0, 0.0, -60.0),
                Vec3::new(-60.0, 0.0, -60.0),
            ],
            ground,
        );
        let corner = |x: f32, y: f32, z: f32| Vec3::new(x * WALL.x, y * WALL.y, z * WALL.z);
        for [a, b, c, d] in [
            [corner(-1.0, 0.0, 1.0), corner(1.0, 0.0, 1.0), corner(1.0, 1.0, 1.0), corner(-1.0, 1.0, 1.0)],
            [corner(1.0, 0.0, -1.0), corner(-1.0, 0.0, -1.0), corner(-1.0, 1.0, -1.0), corner(1.0, 1.0, -1.0)],
            [corner(-1.0, 1.0, 1.0), corner(1.0, 1.0, 1.0), corner(1.0, 1.0, -1.0), corner(-1.0, 1.0, -1.0)],
        ] {
            vertices.extend(quad([a, b, c, d], WALL_COLOR));
        }
        let device = &gpu.device;
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
        let (pipeline, group) = host_pipeline(device, format, &globals);
        Ok(Self {
            pipeline,
            vertices: vertex_buffer,
            vertex_count: vertices.len() as u32,
            globals,
            group,
            targets: None,
            format,
            props,
            windmill,
            frame: FrameData::default(),
        })
    }

    fn frame(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        (target, size): (&wgpu::TextureView, (u32, u32)),
        seconds: f32,
    ) {
        let camera = camera(size);
        gpu.queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&camera.view_projection.to_cols_array()));

        // Props: pose each windmill (its rotor at its own phase), then upload the frame.
        let spin = self.windmill.find_clip("spin");
        self.frame.clear();
        for (k, at) in WINDMILLS.iter().enumerate() {
            let pose = self.windmill.pose_at(spin, seconds + k as f32 * 0.7);
            let palette = self.frame.push_instance(&Affine3A::from_translation(*at), self.windmill.palette_len());
            self.windmill.write_palettes(&pose, palette);
        }
        self.frame.end_batch(WINDMILL);
        self.props.prepare(encoder, &self.frame.frame(camera, Light::default(), props_render::SKY), size);

        // The host's pass: its clear, its depth, its MSAA target; its scene, then the props.
        let (depth, msaa) = self.targets(&gpu.device, size);
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("host pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: msaa,
                depth_slice: None,
                resolve_target: Some(target),
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.4, g: 0.6, b: 0.9, a: 1.0 }),
                    store: wgpu::StoreOp::Store,
                },
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
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.draw(0..self.vertex_count, 0..1);
        self.props.render(&mut pass);
    }
}

impl Embed {
    /// The host's depth and MSAA targets for `size`, made anew when it changes.
    fn targets(&mut self, device: &wgpu::Device, size: (u32, u32)) -> (&wgpu::TextureView, &wgpu::TextureView) {
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
        let (_, depth, msaa) = self.targets.as_ref().expect("made above");
        (depth, msaa)
    }
}

/// Two triangles of colour `color` over corners `[a, b, c, d]` (counter-clockwise seen from
/// their front), as the host's vertices: position, then colour.
fn quad([a, b, c, d]: [Vec3; 4], color: [f32; 3]) -> Vec<[f32; 6]> {
    [a, b, c, a, c, d].iter().map(|p| [p.x, p.y, p.z, color[0], color[1], color[2]]).collect()
}

/// The host's pipeline: flat-coloured triangles, depth-tested and written.
fn host_pipeline(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    globals: &wgpu::Buffer,
) -> (wgpu::RenderPipeline, wgpu::BindGroup) {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("host"),
        source: wgpu::ShaderSource::Wgsl(
            "@group(0) @binding(0) var<uniform> view_proj: mat4x4<f32>;
             struct Out { @builtin(position) clip: vec4<f32>, @location(0) color: vec3<f32> };
             @vertex fn vs(@location(0) p: vec3<f32>, @location(1) c: vec3<f32>) -> Out {
                 return Out(view_proj * vec4<f32>(p, 1.0), c);
             }
             @fragment fn fs(in: Out) -> @location(0) vec4<f32> { return vec4<f32>(in.color, 1.0); }"
                .into(),
        ),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("host"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 24,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
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
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
    });
    (pipeline, group)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sRGB-encoded pixel where world point `p` shows in `image`.
    fn pixel_at(image: &image::RgbaImage, p: Vec3) -> [u8; 3] {
        let ndc = camera(image.dimensions()).view_projection.project_point3(p);
        let (x, y) = ((ndc.x * 0.5 + 0.5) * image.width() as f32, (0.5 - ndc.y * 0.5) * image.height() as f32);
        let [r, g, b, _] = image.get_pixel(x as u32, y as u32).0;
        [r, g, b]
    }

    /// Within 2 of `expected` (linear) once encoded to sRGB.
    fn is_color(pixel: [u8; 3], expected: [f32; 3]) -> bool {
        let encode = |c: f32| if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
        pixel.iter().zip(expected).all(|(&p, c)| (f32::from(p) - encode(c) * 255.0).abs() <= 2.0)
    }

    /// The windmill behind the wall is hidden where the wall stands before it (the host's
    /// depth), shows above the wall, and the one in front is drawn over the wall's side.
    #[test]
    fn the_hosts_depth_hides_props_behind_its_wall() {
        let image = match props_examples::headless::<Embed>((320, 180), 3) {
            Ok(image) => image,
            Err(error) if std::env::var_os("CI").is_none() => return eprintln!("skipped, no GPU: {error:#}"),
            Err(error) => panic!("{error:#}"),
        };
        let behind = WINDMILLS[0] + Vec3::new(0.0, 2.0, 0.0);
        let front = WINDMILLS[1] + Vec3::new(0.0, 2.0, 0.0);
        let above = WINDMILLS[0] + Vec3::new(0.0, 12.0, 0.0);
        // Which of them the wall's face covers in the image: the eye's ray through them meets it.
        let eye = camera(image.dimensions()).eye;
        let over_the_wall = |p: Vec3| {
            let hit = eye + (p - eye) * ((WALL.z - eye.z) / (p.z - eye.z));
            hit.x.abs() < WALL.x && (0.0..WALL.y).contains(&hit.y)
        };
        assert!(over_the_wall(behind) && over_the_wall(front) && !over_the_wall(above));
        let hidden = pixel_at(&image, behind);
        assert!(is_color(hidden, WALL_COLOR), "the wall hides the tower behind it, not {hidden:?}");
        for p in [front, above] {
            let pixel = pixel_at(&image, p);
            assert!(pixel.iter().all(|&c| c > 150), "a white tower at {p}, not {pixel:?}");
        }
    }
}
