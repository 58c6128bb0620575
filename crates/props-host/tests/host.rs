//! `PropHost` on a real device (lavapipe in CI, where these must run): what a host gets back
//! for a refused file, a second model of one name, a mod over the VRAM budget, and a mod removed
//! whose instances played clips the host's own version lacks.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glam::{Affine3A, Vec3};
use props_frame::FrameData;
use props_host::{Animates, HostConfig, HostEvent, Layer, Lighting, LoadError, Loaded, ModConfig, PropHost, SKY};
use props_render::{Clear, GpuContext, Renderer, RendererConfig, StandalonePass};

/// The first adapter's device; `None` (the test skipped) without one, outside CI.
fn gpu() -> Option<GpuContext> {
    match pollster::block_on(GpuContext::headless()) {
        Ok(gpu) => Some(gpu),
        Err(error) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped, no GPU: {error}");
            None
        }
        Err(error) => panic!("{error}"),
    }
}

/// A renderer on the first adapter; `None` (the test skipped) without one, outside CI.
fn renderer() -> Option<Renderer> {
    let gpu = gpu()?;
    let config = RendererConfig::new(wgpu::TextureFormat::Rgba8UnormSrgb);
    Some(Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, config))
}

fn asset(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets").join(name)
}

/// A fresh, empty folder for mods.
fn mods_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("props-host-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a mods folder");
    folder
}

/// A host with `config` that loaded the windmill and watches a fresh mods folder named after
/// `name`, with `subfolders` made before watching starts (the watcher sees what is in them).
fn watching(
    config: HostConfig,
    name: &str,
    subfolders: &[&str],
    renderer: &mut Renderer,
) -> (PropHost, Loaded, PathBuf) {
    let mut props = PropHost::new(config).expect("a host");
    let windmill = props.load_file(&asset("windmill.glb"), Animates::default(), renderer).expect("loads");
    let folder = mods_folder(name);
    for sub in subfolders {
        std::fs::create_dir_all(folder.join(sub)).expect("a subfolder");
    }
    props.watch_mods(&folder, ModConfig::default(), Duration::from_secs(10), renderer).expect("watching");
    (props, windmill, folder)
}

/// A renderer on `gpu` drawing into [`props_render::OFFSCREEN_FORMAT`] targets.
fn offscreen_renderer(gpu: &GpuContext) -> Renderer {
    Renderer::new(&gpu.adapter, &gpu.device, &gpu.queue, RendererConfig::new(props_render::OFFSCREEN_FORMAT))
}

/// The RGBA8 pixels of `props` drawn by `renderer` from `camera` into a 96 x 96 target.
fn draw(gpu: &GpuContext, props: &mut PropHost, renderer: &mut Renderer, camera: &props_host::Camera) -> Vec<u8> {
    let target = props_render::OffscreenTarget::new(&gpu.device, (96, 96));
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    props.prepare(renderer, &mut encoder, (camera, Lighting::default()), target.size());
    let mut pass = StandalonePass::new();
    let mut pass = pass.begin(renderer, &mut encoder, (target.view(), target.size()), Clear::color(SKY));
    renderer.render(&mut pass);
    drop(pass);
    gpu.queue.submit([encoder.finish()]);
    target.read_rgba8(&gpu.device, &gpu.queue).expect("readback")
}

/// Polls the mods until events come (at most 20 s), and returns them.
fn next_events(props: &mut PropHost, renderer: &mut Renderer) -> Vec<HostEvent> {
    let start = Instant::now();
    let mut events = Vec::new();
    while events.is_empty() {
        assert!(start.elapsed() < Duration::from_secs(20), "no mod event");
        std::thread::sleep(Duration::from_millis(20));
        props.poll_mods(renderer, &mut events);
    }
    events
}

/// Polls the mods until one event comes (at most 20 s).
fn next_event(props: &mut PropHost, renderer: &mut Renderer) -> HostEvent {
    let mut events = next_events(props, renderer);
    assert_eq!(events.len(), 1, "{events:?}");
    events.remove(0)
}

#[test]
fn a_refused_file_comes_back_with_its_report_and_a_name_loads_once() {
    let Some(mut renderer) = renderer() else { return };
    let mut props = PropHost::new(HostConfig::default()).expect("a host");
    let broken = br#"{"asset": {"version": "3.0"}}"#;
    let Err(LoadError::Refused(refused)) = props.load_slice(broken, "future", None, Animates::default(), &mut renderer)
    else {
        panic!("a glTF 3.0 file loads")
    };
    assert_eq!(refused.report.file, Path::new("future"));
    let issue = refused.fatal().next().expect("a fatal issue");
    assert_eq!((issue.code, issue.json_pointer.as_str()), ("UNKNOWN_ASSET_MAJOR_VERSION", "/asset/version"));
    assert_eq!(props.models().count(), 0, "nothing loaded");

    props.load_file(&asset("windmill.glb"), Animates::default(), &mut renderer).expect("the windmill");
    let again = props.load_file(&asset("windmill.glb"), Animates::default(), &mut renderer);
    assert!(matches!(again, Err(LoadError::Duplicate(name)) if name == "windmill"));
}

#[test]
fn a_mod_over_the_vram_budget_is_refused_and_the_model_stays() {
    let Some(mut renderer) = renderer() else { return };
    let setting = "Settings > Mods > GPU memory".to_owned();
    let config = HostConfig { mods_vram_bytes: 1024, mods_vram_setting: setting, ..HostConfig::default() };
    let (mut props, windmill, folder) = watching(config, "budget", &[], &mut renderer);
    let before = renderer.model_footprint(windmill.model);
    std::fs::copy(asset("windmill.glb"), folder.join("windmill.glb")).expect("copy");
    let HostEvent::Refused { path, refused } = next_event(&mut props, &mut renderer) else { panic!("not refused") };
    assert_eq!(path, Path::new("windmill.glb"));
    assert!(refused.fatal().any(|issue| issue.code == "PROPS_GPU"), "{}", refused.report);
    // The fix names the host's own setting.
    assert!(refused.to_string().contains("or raise the budget (Settings > Mods > GPU memory)"), "{refused}");
    assert_eq!(props.models().next().and_then(|(_, _, from_mod)| from_mod), None, "the host's own shows");
    assert_eq!(renderer.model_footprint(windmill.model), before);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn removing_a_mod_stops_the_clips_the_hosts_version_lacks() {
    let Some(mut renderer) = renderer() else { return };
    // The host's windmill, every clip playable; a fox named `windmill` replaces it.
    let (mut props, windmill, folder) = watching(HostConfig::default(), "revert", &[], &mut renderer);
    let clips = props.model(windmill.model).expect("loaded").clips().count();
    let id = props.add(windmill.model, Affine3A::from_translation(Vec3::new(0.0, 0.0, -20.0))).expect("added");
    std::fs::copy(asset("Fox.glb"), folder.join("windmill.glb")).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Replaced { model, .. } if model == windmill.model), "{event:?}");
    // The instance plays the fox's last clip, which the windmill does not have.
    let last = props.model(windmill.model).expect("the fox").clips().count() - 1;
    assert!(last >= clips, "the fox has more clips than the windmill");
    assert!(props.get_mut(id).expect("live").set_layer(0, Layer::once(last as u16, 0.3)));

    std::fs::remove_file(folder.join("windmill.glb")).expect("remove");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Reverted { model, .. } if model == windmill.model), "{event:?}");
    assert!(!props.instances().layers(id).expect("live")[0].is_active(), "the clip it lacks is stopped");
    let mut frame = FrameData::default();
    props.fill_frame(&mut frame);
    assert_eq!(frame.instances.len(), 1, "and the instance is drawn with the windmill");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn of_two_mods_of_one_name_the_first_by_path_shows_whatever_order_they_load_in() {
    let Some(mut renderer) = renderer() else { return };
    let (mut props, windmill, folder) = watching(HostConfig::default(), "order", &["a", "b", "c", "d"], &mut renderer);
    let showing =
        |props: &PropHost| props.models().find_map(|(id, _, from)| (id == windmill.model).then_some(from?.to_owned()));
    let put = |sub: &str, props: &mut PropHost, renderer: &mut Renderer| {
        std::fs::copy(asset("windmill.glb"), folder.join(sub).join("windmill.glb")).expect("copy");
        next_event(props, renderer)
    };
    let remove = |sub: &str, props: &mut PropHost, renderer: &mut Renderer| {
        std::fs::remove_file(folder.join(sub).join("windmill.glb")).expect("remove");
        next_events(props, renderer)
    };
    let path = |sub: &str| Path::new(sub).join("windmill.glb");
    let withdrawn = |event: &HostEvent, sub: &str| matches!(event, HostEvent::Withdrawn { path: p, model: Some(m) } if *p == path(sub) && *m == windmill.model);

    // b first: it shows. Then a, before it by path: a shows. Then c: it waits behind a.
    let event = put("b", &mut props, &mut renderer);
    assert!(
        matches!(&event, HostEvent::Replaced { path: p, model, .. } if *p == path("b") && *model == windmill.model),
        "{event:?}"
    );
    std::fs::copy(asset("windmill.glb"), folder.join("a").join("windmill.glb")).expect("copy");
    let events = next_events(&mut props, &mut renderer);
    assert!(
        matches!(&events[..], [HostEvent::Shadowed { path: waits, by, .. }, HostEvent::Replaced { path: p, .. }]
            if *p == path("a") && *waits == path("b") && *by == path("a")),
        "b waits behind a: {events:?}"
    );
    let event = put("c", &mut props, &mut renderer);
    assert!(
        matches!(&event, HostEvent::Shadowed { path: p, by, .. } if *p == path("c") && *by == path("a")),
        "{event:?}"
    );
    assert_eq!(showing(&props), Some(path("a")));

    // Removing the one showing shows the next by path; removing one waiting changes nothing.
    let events = remove("a", &mut props, &mut renderer);
    assert!(
        matches!(&events[..], [gone, HostEvent::Replaced { path: p, .. }] if withdrawn(gone, "a") && *p == path("b")),
        "{events:?}"
    );
    assert_eq!(showing(&props), Some(path("b")));
    let events = remove("c", &mut props, &mut renderer);
    assert!(matches!(&events[..], [gone] if withdrawn(gone, "c")), "{events:?}");
    assert_eq!(showing(&props), Some(path("b")));
    // d waits behind b, and b's going shows d, not c.
    let event = put("d", &mut props, &mut renderer);
    assert!(
        matches!(&event, HostEvent::Shadowed { path: p, by, .. } if *p == path("d") && *by == path("b")),
        "{event:?}"
    );
    let events = remove("b", &mut props, &mut renderer);
    assert!(
        matches!(&events[..], [gone, HostEvent::Replaced { path: p, .. }] if withdrawn(gone, "b") && *p == path("d")),
        "{events:?}"
    );
    let events = remove("d", &mut props, &mut renderer);
    assert!(matches!(&events[..], [HostEvent::Reverted { model, .. }] if *model == windmill.model), "{events:?}");
    assert_eq!(showing(&props), None, "the host's own shows again");
    let _ = std::fs::remove_dir_all(&folder);
}

/// The crate example, a minute and more into a run: the car's `drive` clip still moves its
/// wheels on a looping layer, where a layer that does not loop holds the clip's last key.
#[test]
fn the_crate_example_still_moves_past_a_minute() {
    let Some(mut renderer) = renderer() else { return };
    let mut props = PropHost::new(HostConfig::default()).expect("a host");
    let car = props.load_file(&asset("car.glb"), Animates::default().clips(["drive"]), &mut renderer).expect("loads");
    let model = props.model(car.model).expect("loaded");
    let drive = model.clip("drive").expect("the car drives");
    assert!(drive.duration < 61.0, "the clip ends before the minute: {}", drive.duration);
    let id = props.add(car.model, Affine3A::IDENTITY).expect("added");
    let mut palettes = |layer: Layer| {
        let mut frame = FrameData::default();
        assert!(props.get_mut(id).expect("live").set_layer(0, layer));
        props.fill_frame(&mut frame);
        frame.palettes.to_vec()
    };
    let (looped, later) = (palettes(Layer::looping(drive.number, 61.0)), palettes(Layer::looping(drive.number, 61.2)));
    assert_ne!(looped, later, "a looping layer moves a minute in");
    let wrapped = props_anim::clip::PlayMode::Loop.wrap(61.0, drive.duration);
    assert_eq!(looped, palettes(Layer::once(drive.number, wrapped)), "it shows the clip at the wrapped time");
    let (held, held_later) = (palettes(Layer::once(drive.number, 61.0)), palettes(Layer::once(drive.number, 61.2)));
    assert_eq!(held, held_later, "a layer that does not loop holds the last key");
}

/// A host that lists the frame itself (`animate`) tells mesh LOD its target's height: the same
/// windmill, at the same distance, is drawn at a coarser level on a shorter target (mesh LOD
/// measures in lines of a target at least 720 tall).
#[test]
fn a_host_calling_animate_sets_the_view_height_mesh_lod_measures_in() {
    let Some(mut renderer) = renderer() else { return };
    let level_seen_on = |pixels: u32, distance: f32, renderer: &mut Renderer| {
        let mut props = PropHost::new(HostConfig::default()).expect("a host");
        let windmill = props.load_file(&asset("windmill.glb"), Animates::default(), renderer).expect("loads");
        props.add(windmill.model, Affine3A::from_translation(Vec3::new(0.0, 0.0, -distance))).expect("added");
        let (eye, target) = (Vec3::new(0.0, 10.0, 0.0), Vec3::new(0.0, 10.0, -distance));
        props.set_camera(Some(props_host::Camera::look_at(eye, target, 0.9, 1.0, (0.1, 2.0 * distance))));
        props.set_view_height(pixels);
        let mut frame = FrameData::default();
        props.fill_frame(&mut frame);
        let [batch] = frame.batches.as_slice() else { panic!("one batch: {:?}", frame.batches) };
        batch.level
    };
    // A kilometre away: levels 2 and 0 (measured).
    let (short, tall) = (level_seen_on(720, 1000.0, &mut renderer), level_seen_on(8640, 1000.0, &mut renderer));
    assert!(short > tall, "720 lines: level {short}; 8640 lines: level {tall}");
}

/// A mod's decoded pixels go once it shows (its texture is on the GPU): the mods' RAM budget
/// counts the rest, so a second mod fits where the two whole would not, and so do two more
/// arriving together. Uploaded to a new device, the mods load again from their files, and
/// their pixels go again.
#[test]
fn a_mod_s_pixels_go_once_it_shows_and_the_budget_counts_the_rest() {
    let Some(mut renderer) = renderer() else { return };
    let fox = props_gltf::import_file(&asset("Fox.glb"), &ModConfig::default_limits()).expect("the fox").model;
    let (whole, pixels) = (fox.heap_bytes(), fox.image_bytes());
    assert!(pixels > whole / 2, "the fox is mostly its texture: {pixels} of {whole} bytes");
    // Room for one fox whole and one without its pixels, not for two whole.
    let config = ModConfig { total_bytes: 2 * whole - pixels / 2, ..ModConfig::default() };
    let mut props = PropHost::new(HostConfig::default()).expect("a host");
    let folder = mods_folder("pixels");
    props.watch_mods(&folder, config, Duration::from_secs(10), &mut renderer).expect("watching");
    let shows = |props: &PropHost, name: &str| {
        let id = props.model_named(name).expect("shown");
        let model = props.model(id).expect("shown");
        (model.model().has_released_pixels(), model.model().image_bytes())
    };

    std::fs::copy(asset("Fox.glb"), folder.join("fox_a.glb")).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Loaded { .. }), "{event:?}");
    assert_eq!(shows(&props, "fox_a"), (true, 0), "its pixels went once it showed");
    std::fs::copy(asset("Fox.glb"), folder.join("fox_b.glb")).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Loaded { .. }), "the second fits beside the first: {event:?}");
    assert_eq!(shows(&props, "fox_b"), (true, 0));
    // Two arriving together, the host busy for two seconds: the second waits for what the
    // shelf keeps of the first.
    for name in ["fox_c.glb", "fox_d.glb"] {
        std::fs::copy(asset("Fox.glb"), folder.join(name)).expect("copy");
    }
    std::thread::sleep(Duration::from_secs(2));
    let mut events = Vec::new();
    while events.len() < 2 {
        events.extend(next_events(&mut props, &mut renderer));
    }
    assert!(events.iter().all(|event| matches!(event, HostEvent::Loaded { .. })), "{events:?}");

    // A new device: all are uploaded (white), then load again from their files.
    props.upload_all(&mut renderer).expect("uploaded again");
    let mut events = Vec::new();
    while events.len() < 4 {
        events.extend(next_events(&mut props, &mut renderer));
    }
    let again: Vec<&Path> = events
        .iter()
        .map(|event| match event {
            HostEvent::Replaced { path, .. } => path.as_path(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(again, ["fox_a.glb", "fox_b.glb", "fox_c.glb", "fox_d.glb"].map(Path::new));
    for name in ["fox_a", "fox_b", "fox_c", "fox_d"] {
        assert_eq!(shows(&props, name), (true, 0), "{name}");
    }
    let _ = std::fs::remove_dir_all(&folder);
}

/// A new version of a mod that the animation refuses leaves the version before on the GPU as
/// it was, texture and all, though its pixels are gone from memory: put back, not uploaded
/// again (it would draw white).
#[test]
fn a_version_the_animation_refuses_leaves_the_textured_one_before_on_the_gpu() {
    let Some(gpu) = gpu() else { return };
    let mut renderer = offscreen_renderer(&gpu);
    let (mut props, windmill, folder) = watching(HostConfig::default(), "put-back", &[], &mut renderer);
    std::fs::copy(asset("Fox.glb"), folder.join("windmill.glb")).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Replaced { .. }), "{event:?}");
    let fox = std::sync::Arc::clone(props.model(windmill.model).expect("the fox").model());
    assert!(fox.has_released_pixels());
    // An instance plays the fox's last clip, which the windmill lacks, from its start.
    let id = props.add(windmill.model, Affine3A::IDENTITY).expect("added");
    assert!(props.get_mut(id).expect("live").set_layer(0, Layer::once(fox.clips().len() as u16 - 1, 0.0)));
    let camera = props_render::framing_camera(&fox.sampled_extent(2).expect("vertices"), 1.0);
    let draw = |props: &mut PropHost, renderer: &mut Renderer| draw(&gpu, props, renderer, &camera);
    let before = draw(&mut props, &mut renderer);

    // The mod's next version is the windmill, without that clip: refused.
    std::fs::copy(asset("windmill.glb"), folder.join("windmill.glb")).expect("copy");
    let HostEvent::Refused { refused, .. } = next_event(&mut props, &mut renderer) else { panic!("not refused") };
    assert!(refused.fatal().any(|issue| issue.code == props_mods::RIG_CODE), "{refused}");
    assert!(std::sync::Arc::ptr_eq(props.model(windmill.model).expect("the fox").model(), &fox));
    let after = draw(&mut props, &mut renderer);
    let differ = before.iter().zip(&after).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} bytes differ: the fox is drawn as it was");
    // Uploaded again, from its released pixels, it draws otherwise (white).
    renderer.set_model(windmill.model, &fox).expect("uploads");
    let white = draw(&mut props, &mut renderer);
    let differ = before.iter().zip(&white).filter(|(a, b)| a != b).count();
    assert!(differ > before.len() / 50, "only {differ} bytes differ");
    let _ = std::fs::remove_dir_all(&folder);
}

/// The host's own model, loaded from its file, keeps no decoded pixels once it is on the GPU,
/// and is drawn textured still: after a new upload (its file read again), after a mod shown in
/// its place goes (its GPU copy put back, though the file is gone), and after a mod that
/// showed across a new upload goes (its copy made again at that upload, the file gone since).
#[test]
fn the_host_s_own_pixels_go_once_on_the_gpu_and_come_back_from_its_copy_or_its_file() {
    let Some(gpu) = gpu() else { return };
    let mut renderer = offscreen_renderer(&gpu);
    let mut props = PropHost::new(HostConfig::default()).expect("a host");
    let own = mods_folder("own-file").join("Fox.glb");
    std::fs::copy(asset("Fox.glb"), &own).expect("copy");
    let fox = props.load_file(&own, Animates::default(), &mut renderer).expect("loads").model;
    let model = std::sync::Arc::clone(props.model(fox).expect("the fox").model());
    assert!(model.has_released_pixels(), "its pixels went once it was on the GPU");
    assert_eq!(model.pixel_bytes(), 0);
    let folder = mods_folder("own-pixels");
    props.watch_mods(&folder, ModConfig::default(), Duration::from_secs(10), &mut renderer).expect("watching");
    props.add(fox, Affine3A::IDENTITY).expect("added");
    let camera = props_render::framing_camera(&model.sampled_extent(2).expect("vertices"), 1.0);
    let draw = |props: &mut PropHost, renderer: &mut Renderer| draw(&gpu, props, renderer, &camera);
    let differ = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(a, b)| a != b).count();
    let textured = draw(&mut props, &mut renderer);
    // Uploaded from what the host keeps, it is white: the pixels show in this view.
    renderer.set_model(fox, &model).expect("uploads");
    let white = draw(&mut props, &mut renderer);
    assert!(differ(&textured, &white) > textured.len() / 50, "only {} bytes differ", differ(&textured, &white));

    // A new device: the file is read again for its pixels.
    props.upload_all(&mut renderer).expect("uploaded again");
    assert_eq!(differ(&textured, &draw(&mut props, &mut renderer)), 0, "textured after a new upload");

    // A mod in its place, then gone: the GPU copy kept aside shows again (there is no file).
    std::fs::remove_file(&own).expect("removed");
    let windmill = folder.join("Fox.glb");
    std::fs::copy(asset("windmill.glb"), &windmill).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Replaced { .. }), "{event:?}");
    assert!(differ(&textured, &draw(&mut props, &mut renderer)) > 0, "the windmill shows");
    std::fs::remove_file(&windmill).expect("removed");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Reverted { .. }), "{event:?}");
    assert_eq!(differ(&textured, &draw(&mut props, &mut renderer)), 0, "its own copy, put back");
    assert!(props.model(fox).expect("the fox").model().has_released_pixels(), "without pixels still");

    // A mod in its place across a new upload, then gone: its copy made again from the file at
    // the new upload, not on the frame the mod goes (the file is gone by then).
    std::fs::copy(asset("Fox.glb"), &own).expect("copy");
    std::fs::copy(asset("windmill.glb"), &windmill).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Replaced { .. }), "{event:?}");
    props.upload_all(&mut renderer).expect("uploaded again");
    std::fs::remove_file(&own).expect("removed");
    std::fs::remove_file(&windmill).expect("removed");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Reverted { .. }), "{event:?}");
    assert_eq!(differ(&textured, &draw(&mut props, &mut renderer)), 0, "its copy made at the new upload");
    let _ = std::fs::remove_dir_all(&folder);
    let _ = std::fs::remove_dir_all(own.parent().expect("its folder"));
}

/// A new version refused because a clip the instances play is gone says why the file's clip
/// is gone: the issue that left it out.
#[test]
fn a_refusal_for_a_missing_clip_names_the_issue_that_left_it_out() {
    let Some(mut renderer) = renderer() else { return };
    let (mut props, windmill, folder) = watching(HostConfig::default(), "dropped-clip", &[], &mut renderer);
    std::fs::copy(asset("Fox.glb"), folder.join("windmill.glb")).expect("copy");
    let event = next_event(&mut props, &mut renderer);
    assert!(matches!(event, HostEvent::Replaced { .. }), "{event:?}");
    // An instance plays the fox's first animation.
    let survey = props.model(windmill.model).expect("the fox").clip("Survey").expect("the fox's first clip");
    let id = props.add(windmill.model, Affine3A::IDENTITY).expect("added");
    assert!(props.get_mut(id).expect("live").set_layer(0, Layer::once(survey.number, 0.0)));

    // The next version's first animation turns a node the file lacks: it is left out, and the
    // fox has a clip fewer, the one played.
    let mut fox = std::fs::read(asset("Fox.glb")).expect("the fox");
    let channel = br#""target":{"node":11,"#;
    let at = fox.windows(channel.len()).position(|w| w == channel).expect("a channel turning node 11");
    fox[at + 17..at + 19].copy_from_slice(b"99");
    std::fs::write(folder.join("windmill.glb"), fox).expect("write");
    let HostEvent::Refused { refused, .. } = next_event(&mut props, &mut renderer) else { panic!("not refused") };
    let message = refused.to_string();
    assert!(message.contains("error[PROPS_RIG]"), "{message}");
    assert!(message.contains("(the file's clips are not all read: /animations/0/channels/2"), "{message}");
    let _ = std::fs::remove_dir_all(&folder);
}

/// A mod's model uploads on a thread of its own: the poll that takes its arrival returns
/// before the upload is done (the host's frames go on), and its event comes with a later
/// poll. Uploaded for a renderer replaced meanwhile (a lost device), it uploads again for the
/// new one.
#[test]
fn a_mod_uploads_off_the_frame_and_again_for_a_renderer_made_meanwhile() {
    let Some(gpu) = gpu() else { return };
    let mut first = offscreen_renderer(&gpu);
    let (mut props, _, folder) = watching(HostConfig::default(), "ahead", &[], &mut first);
    std::fs::copy(asset("Fox.glb"), folder.join("fox.glb")).expect("copy");
    let (start, mut events) = (Instant::now(), Vec::new());
    while props.pending_mods() == 0 {
        assert!(start.elapsed() < Duration::from_secs(20), "the fox never arrived");
        std::thread::sleep(Duration::from_millis(20));
        props.poll_mods(&mut first, &mut events);
    }
    assert!(events.is_empty(), "the poll that took the fox's arrival did not upload it: {events:?}");

    let mut second = offscreen_renderer(&gpu);
    props.upload_all(&mut second).expect("uploaded again");
    let HostEvent::Loaded { model, .. } = next_event(&mut props, &mut second) else { panic!("not loaded") };
    assert_eq!(props.pending_mods(), 0);
    assert!(second.model_footprint(model).is_some(), "the fox is on the new renderer");
    assert!(first.model_footprint(model).is_none(), "and not on the one before");
    let _ = std::fs::remove_dir_all(&folder);
}

/// A host's own model read and uploaded on a loading thread ([`PropHost::reader`]) is added
/// between two frames and drawn; one read for a renderer since replaced (a lost device) is
/// uploaded again for the new one.
#[test]
fn a_model_read_on_a_loading_thread_is_added_and_drawn() {
    let Some(gpu) = gpu() else { return };
    let mut renderer = offscreen_renderer(&gpu);
    let mut props = PropHost::new(HostConfig::default()).expect("a host");
    let reader = props.reader(&renderer);
    let path = asset("Fox.glb");
    let read = std::thread::spawn(move || reader.read_file(&path)).join().expect("no panic").expect("read");
    assert_eq!(read.name(), "Fox");
    let fox = props.add_read(read, Animates::default(), &mut renderer).expect("added");
    assert!(renderer.model_footprint(fox.model).is_some());
    props.add(fox.model, Affine3A::from_scale(Vec3::splat(0.01))).expect("placed");
    let camera =
        props_frame::Camera::look_at(Vec3::new(0.0, 0.5, 2.0), Vec3::new(0.0, 0.4, 0.0), 0.8, 1.0, (0.1, 50.0));
    let target = props_render::OffscreenTarget::new(&gpu.device, (64, 64));
    let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    props.prepare(&mut renderer, &mut encoder, (&camera, Lighting::default()), target.size());
    let mut pass = StandalonePass::new();
    let mut pass = pass.begin(&renderer, &mut encoder, (target.view(), target.size()), Clear::color(SKY));
    renderer.render(&mut pass);
    drop(pass);
    gpu.queue.submit([encoder.finish()]);
    let pixels = target.read_rgba8(&gpu.device, &gpu.queue).expect("readback");
    let sky = &pixels[..4];
    let fox_pixels = pixels.chunks(4).filter(|pixel| pixel != &sky).count();
    assert!(fox_pixels > 100, "the fox covers {fox_pixels} pixels");

    let read = props.reader(&renderer).read_file(&asset("car.glb")).expect("read");
    let mut second = offscreen_renderer(&gpu);
    props.upload_all(&mut second).expect("uploaded again");
    let car = props.add_read(read, Animates::default(), &mut second).expect("added");
    assert!(second.model_footprint(car.model).is_some(), "the car is on the new renderer");
    assert!(renderer.model_footprint(car.model).is_none());
}

/// What goes to a loading thread and back is `Send` (and the readers `Sync`), as the docs say:
/// a host's loading threads rely on it.
#[test]
fn what_loading_threads_take_and_give_back_is_send() {
    fn send<T: Send>() {}
    fn shared<T: Send + Sync + Clone>() {}
    shared::<props_host::ModelReader>();
    shared::<props_render::ModelUploader>();
    send::<props_host::ReadModel>();
    send::<props_render::UploadedModel>();
    send::<LoadError>();
}

/// A district streamed out: its model unloaded takes its instances with it, frees its name for
/// the next load, and is gone from the host; unloading it again does nothing.
#[test]
fn an_unloaded_model_takes_its_instances_and_frees_its_name() {
    let Some(mut renderer) = renderer() else { return };
    let mut props = PropHost::new(HostConfig::default()).expect("a host");
    let fox = props.load_file(&asset("Fox.glb"), Animates::default(), &mut renderer).expect("the fox").model;
    let instances: Vec<_> =
        (0..3).map(|k| props.add(fox, Affine3A::from_translation(Vec3::X * k as f32)).expect("added")).collect();
    assert!(renderer.model_footprint(fox).is_some());
    assert_eq!(props.unload(fox, &mut renderer), Some(3));
    assert!(props.model(fox).is_none() && props.model_named("Fox").is_none());
    assert!(renderer.model_footprint(fox).is_none(), "its GPU copy dropped");
    assert!(instances.iter().all(|&i| props.get_mut(i).is_none()), "its instances went with it");
    assert_eq!(props.unload(fox, &mut renderer), None, "nothing left to unload");
    let again = props.load_file(&asset("Fox.glb"), Animates::default(), &mut renderer).expect("loads again");
    assert!(props.add(again.model, Affine3A::IDENTITY).is_some());
}
