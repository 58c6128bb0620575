//! Animated glTF props in a host's own game: one [`PropHost`] loads models through the gate
//! (each file checked, its report returned), keeps the host's instances (each placed and
//! animated from the host's simulation, by id: clips on layers, nodes turned by the host's
//! values, morph weights and material values set directly, all named in [`Animates`]), watches
//! a mods folder ([`HostEvent`]s say what loaded, replaced or was refused, with the report; a
//! model's id stays the same across versions), poses what the camera sees with sharing,
//! update-rate LOD and a CPU budget, picks by ray, and lists the frame for
//! [`props_render::Renderer`], which draws into the host's own render pass with the host's
//! depth. No ECS needed.
//!
//! A frame is: the host's state into the instances ([`PropHost::get_mut`]), then
//! [`PropHost::prepare`] (pose, list, upload, record the shadow passes into the host's
//! encoder), then the host begins its pass and calls [`props_render::Renderer::render`].
//! Nothing advances time on its own: each frame the host sets every playing layer from its
//! clock (`Layer::looping(clip, seconds)`, the seconds its game has run, phase added). The
//! renderer is made once with the host's colour format, depth format and sample count: it
//! multisamples 4x unless told otherwise (or unless the adapter cannot: read back
//! [`props_render::Renderer::sample_count`]), so a host drawing without MSAA says
//! `sample_count: 1`. A host without a pass of its own begins one with
//! [`props_render::StandalonePass`].
//!
//! The device: request [`props_render::optional_features`] of the adapter's features and
//! `required_limits: adapter.limits()` (the material slots past the 11th, and the palette in a
//! storage buffer, need more than wgpu's defaults), or let [`props_render::GpuContext`] make
//! the instance, adapter and device (`pollster::block_on(GpuContext::headless())` offscreen).
//! The public API speaks wgpu 30 and glam 0.34: a host uses those versions. The crates log
//! through `tracing` and never print: install a subscriber to see a model's warnings and any
//! GPU error. On a device it watches, a GPU error is logged and counted, never a panic, and a
//! lost device is noted: [`props_render::GpuContext`] watches its own; a host that makes its own
//! device watches it with [`props_render::DeviceHealth::watch`] (else wgpu's default handler
//! panics), polls it once a frame (`device.poll(wgpu::PollType::Poll)`), and on
//! [`props_render::DeviceHealth::is_lost`] makes a new device and renderer and calls
//! [`PropHost::upload_all`].
//!
//! ```no_run
//! # fn run(
//! #     (adapter, device, queue): (&wgpu::Adapter, &wgpu::Device, &wgpu::Queue),
//! #     (color, depth): (&wgpu::TextureView, &wgpu::TextureView),
//! #     seconds: f32,
//! # ) -> Result<(), Box<dyn std::error::Error>> {
//! use glam::{Affine3A, Vec3};
//! use props_host::{Animates, Camera, HostConfig, Layer, Lighting, PropHost};
//! use props_render::{Renderer, RendererConfig};
//!
//! // Once: the renderer in the host's formats and samples (those of the pass it draws into).
//! let config = RendererConfig {
//!     depth_format: wgpu::TextureFormat::Depth32Float,
//!     sample_count: 4,
//!     ..RendererConfig::new(wgpu::TextureFormat::Bgra8UnormSrgb)
//! };
//! let mut renderer = Renderer::new(adapter, device, queue, config);
//! let mut props = PropHost::new(HostConfig::default())?;
//! // The wheels turn about X with one value per car (a driver sets their rotation, over any
//! // clip's); the `indicate_left` clip blinks a lamp on a layer.
//! let wheels = ["wheel_front_left", "wheel_front_right", "wheel_rear_left", "wheel_rear_right"];
//! let animates = Animates::default().clips(["indicate_left"]).driver(wheels, Vec3::X);
//! let car = props.load_file("assets/car.glb".as_ref(), animates, &mut renderer)?;
//! for issue in &car.report.issues {
//!     eprintln!("car.glb: {issue}");
//! }
//! // What the host needs of the model: its clips' numbers and lengths, a wheel's radius.
//! let model = props.model(car.model).expect("loaded");
//! let indicate = model.clip("indicate_left").expect("the car blinks").number;
//! let wheel_radius = model.node("wheel_rear_left").expect("a wheel").model.translation.y;
//! let id = props.add(car.model, Affine3A::from_translation(Vec3::new(0.0, 0.0, -10.0))).expect("loaded");
//!
//! // Each frame: the host's state in; posed, listed and uploaded; drawn into the host's pass.
//! let camera = Camera::look_at(Vec3::new(0.0, 3.0, 5.0), Vec3::ZERO, 0.9, 16.0 / 9.0, (0.1, 500.0));
//! let mut car_instance = props.get_mut(id).expect("added");
//! // Radians, from its speed, kept within a turn: an angle growing for hours loses precision.
//! car_instance.drivers_mut()[0] = (12.0 * seconds / wheel_radius).rem_euclid(std::f32::consts::TAU);
//! // The host's clock, every frame: the clip loops however long the game runs (an `f32` clock
//! // keeps a millisecond for four hours; a longer session wraps its `f64` clock first).
//! assert!(car_instance.set_layer(0, Layer::looping(indicate, seconds)), "the car has a layer 0");
//! let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
//! let (posed, drawn) = props.prepare(&mut renderer, &mut encoder, (&camera, Lighting::default()), (1280, 720));
//! // What the frame costs: props posed, draw calls, triangles per pass (the main pass's, each
//! // shadow cascade's), GPU times with `RendererConfig::pass_timing`.
//! let shadow_triangles: u64 = drawn.shadow_passes.iter().map(|pass| pass.triangles).sum();
//! eprintln!("{} posed, {} triangles drawn, {shadow_triangles} cast", posed.posed, drawn.main_pass.triangles);
//! // The host's pass (its MSAA colour and depth, 4x as the renderer was told), after prepare,
//! // with the renderer's timestamps in it (none unless it times passes).
//! let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
//!     color_attachments: &[Some(wgpu::RenderPassColorAttachment {
//!         view: color,
//!         depth_slice: None,
//!         resolve_target: None,
//!         ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
//!     })],
//!     depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
//!         view: depth,
//!         depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
//!         stencil_ops: None,
//!     }),
//!     timestamp_writes: renderer.main_pass_timestamps(),
//!     ..Default::default()
//! });
//! // ... the host's own draws, then the props':
//! renderer.render(&mut pass);
//! drop(pass);
//! renderer.resolve_pass_times(&mut encoder, true);
//! queue.submit([encoder.finish()]);
//! # Ok(())
//! # }
//! ```
//!
//! Liveries: a model's material variants (`KHR_materials_variants`) are listed by name by
//! [`PropHost::model`]'s `material_variants`, and
//! `props.get_mut(id)?.set_material_variant(Some("taxi"))` draws an instance in one (each
//! variant in view is a batch of its own: a draw call per part).
//!
//! Units: a model's units are glTF's metres, and an instance's placement may scale it (a
//! model made in centimetres, such as `Fox.glb`, about 80 units tall, is placed at 0.01, and
//! declared so: [`PropHost::set_metres_per_unit`], so that near the camera it is posed every
//! frame and its feet are planted as a model in metres is); each instance is culled and drawn
//! at its levels of detail at its placement's scale.
//!
//! Walkers: people and animals loaded with [`Animates::gaits`] walk at the speed the host
//! sets each frame ([`InstanceMut::set_gait`], the host moving them along their way) once
//! [`PropHost::advance`] is called: their walk and run play at the rates their strides call
//! for, a standing clip fading in when they stop, their feet planted near the camera (on the
//! host's terrain: [`PropHost::set_ground`]); [`CrowdSet::gait`], [`CrowdSet::feet_down`]
//! and [`CrowdSet::pinned_feet`] read them (footsteps, and where near the camera). Any humanoid walks with another model's clips, retargeted to its
//! skeleton: `Animates::default().gaits("Walk", "Run", ["Idle"]).clips_from(pedestrian)` for
//! an avatar with no walk of its own ([`Animates::clips_from`]), and for the mods of its name;
//! a mod replacing the pedestrian (a new walk) walks the avatar anew.
//!
//! Hot reload: [`PropHost::watch_mods`] once, then [`PropHost::poll_mods`] at each frame
//! boundary. The workspace's `examples/` run it all: `crowd.rs` (cars, and foxes walking and
//! running by their speeds, in a plain pass: the smallest whole host), `host_sim.rs` (a host's own vehicles, no ECS), `embed.rs` (props in a host's pass
//! with its ground and wall), `mods.rs` (hot reload), `stream.rs` (models read on loading
//! threads).
//!
//! Loading while the game runs (a district streamed in): [`PropHost::reader`] hands out a
//! [`ModelReader`] for a loading thread, which reads, checks and uploads a file there
//! ([`ModelReader::read_file`]); [`PropHost::add_read`] then adds it between two frames, no
//! upload left to do there. Mods arrive the same way on their own ([`PropHost::poll_mods`]).
//! The device needs no polling for it: the loading thread's uploads are done when
//! `read_file` returns.
//!
//! Memory: a model loaded from a file keeps no decoded pixels once it is on the GPU, which
//! draws from its own copy (a mod's do the same): a mod shown in its place keeps that copy
//! aside for when it goes, and [`PropHost::upload_all`] (a new device) reads the file again
//! for them. One loaded from memory ([`PropHost::load_slice`]) keeps them.
//!
//! A game whose instances live elsewhere (its own ECS) keeps the same models and mod rules
//! with a [`Shelf`] and a [`Stage`] of its own: the demo game's `hecs` town does
//! ([`Shelf::release_own_pixels`] for its own models' pixels).

mod error;
mod host;
mod ids;
mod mods;
mod own_pixels;
mod reader;
mod shelf;
mod swap;
mod uploads;

pub use error::{HostError, LoadError};
pub use host::{HostConfig, Loaded, PropHost};
pub use mods::HostEvent;
pub use props_anim::NodeId;
pub use props_anim::property::{MaterialField, PropertyTarget};
/// [`PosingConfig`]'s parts, to configure it from here.
pub use props_anim::runtime::{MeshLod, Quantization, UpdateRateLod};
pub use props_anim::{Blend, Layer};
pub use props_crowd::gaited::{Gait, GaitState};
pub use props_crowd::{
    Animates, AnimationStats, BindError, ClipInfo, CrowdSet, Ground, InstanceId, InstanceMut, ModelView, NodeRest,
    PosingConfig,
};
pub use props_frame::{Camera, FrameData, Lighting, ModelId, SKY};
pub use props_gltf::gate::Refused;
pub use props_gltf::validate::Report;
pub use props_mods::ModConfig;
pub use reader::{ModelReader, ReadModel};
pub use shelf::{AddError, Arrival, Shelf, Stage, UploadError, Version};
