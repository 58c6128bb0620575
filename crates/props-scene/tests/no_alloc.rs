//! Zero allocations per frame in the scene, proven with a counting global allocator: after
//! warm-up, frames of a host's own instances on a `CrowdSet`, and frames of the town (steps, posing with sharing, LOD and culling from the game's
//! first view, extraction) never raise the heap's peak above where it stood. With worker
//! threads the scene allocates nothing either, but handing the frame's posing to the pool
//! may make rayon swap a small block of its job queue now and then: bounded, freed at once,
//! never growing (see `props_anim::runtime::Workers::install`). Its own test binary (one test), so
//! that nothing else allocates meanwhile; the single-thread scene runs before any worker
//! thread exists, since the allocator counts every thread.

use peak_alloc::PeakAlloc;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::Layer;
use props_crowd::{Animates, CrowdSet, PosingConfig, PropModel};
use props_frame::{FrameData, ModelId, OrbitCamera};
use props_scene::{Scene, SceneConfig, synthetic};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

const DT: f32 = 1.0 / 60.0;

/// A town with every kind of prop (buses registered on top), seen from the game's first view.
fn town(threads: usize) -> Scene {
    let mut scene = town_of(2000, threads);
    let view = OrbitCamera::overview(scene.terrain().flat_radius());
    let camera = view.to_camera(16.0 / 9.0);
    scene.set_camera(Some(camera));
    scene
}

/// A town of 400 people, seen from a street corner: people near the camera, their feet held
/// on the ground by IK.
fn street(threads: usize) -> Scene {
    let config = SceneConfig { posing: PosingConfig { threads, ..PosingConfig::default() }, ..SceneConfig::default() }
        .with_count("windmills", 200)
        .with_count("pedestrians", 400);
    let mut scene = Scene::new(config, synthetic::town().expect("synthetic models")).expect("scene");
    let corner = scene.roads().intersections()[0].centre();
    // On the kerb, looking along the sidewalk.
    let eye = Vec3::new(corner.x + 8.0, 1.7, corner.y - 2.0);
    let target = Vec3::new(corner.x + 5.0, 0.0, corner.y + 40.0);
    scene.set_camera(Some(props_frame::Camera::look_at(eye, target, 0.9, 16.0 / 9.0, (0.1, 5000.0))));
    scene
}

/// A town with `windmills` windmills and every kind of prop, without a camera.
fn town_of(windmills: usize, threads: usize) -> Scene {
    let config = SceneConfig { posing: PosingConfig { threads, ..PosingConfig::default() }, ..SceneConfig::default() }
        .with_count("windmills", windmills)
        .with_count("cars", 300)
        .with_count("foxes", 200)
        .with_count("buses", 12);
    Scene::new(config.clone(), synthetic::town().expect("synthetic models")).expect("scene")
}

/// Runs `warm_up` frames, then asserts on the heap over `measured` more. The frame's buffers
/// (the caller's) are reserved for the most a frame can hold, so that only the scene is
/// measured.
fn check(label: &str, scene: &mut Scene, transient: usize, (warm_up, measured): (usize, usize)) {
    let mut frame = FrameData::default();
    let most: usize = scene.crowds().map(|(_, program, crowd)| 2 * (crowd.len() + 4) * program.palette_len()).sum();
    frame.palettes.reserve(most);
    frame.instances.reserve(scene.instance_count());
    frame.batches.reserve(5);
    let mut run = |scene: &mut Scene| {
        scene.step(DT);
        frame.clear();
        scene.animate(&mut frame);
        scene.record_animation_time(0.5);
        scene.extract(&mut frame);
    };
    for _ in 0..warm_up {
        run(scene);
    }
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    for _ in 0..measured {
        run(scene);
    }
    let peak = HEAP.peak_usage() - before;
    assert!(peak <= transient, "{label}: frames allocated {peak} bytes");
    assert_eq!(HEAP.current_usage(), before, "{label}: memory grew");
}

/// A host's frames on a [`CrowdSet`]: 2,000 windmills whose rotors and nacelles the host turns
/// each frame, posed with sharing and extracted, never raise the heap's peak.
fn check_crowd_set() {
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    let windmill = Arc::new(props_scene::kinds::windmills::stand_in().expect("windmill"));
    let animates = Animates::default().clips(["spin"]).driver(["nacelle"], Vec3::Y);
    set.set_model(PropModel::new(ModelId(0), windmill), animates).expect("rigged");
    let ids: Vec<_> = (0..2000)
        .map(|k| {
            let at = Vec3::new((k % 50) as f32 * 30.0, 0.0, (k / 50) as f32 * 30.0);
            set.add(ModelId(0), Affine3A::from_translation(at)).expect("the windmill")
        })
        .collect();
    let mut frame = FrameData::default();
    frame.palettes.reserve(2 * (ids.len() + 4) * 6);
    frame.instances.reserve(ids.len());
    frame.batches.reserve(1);
    let mut run = |set: &mut CrowdSet, time: f32| {
        for (k, &id) in ids.iter().enumerate() {
            let mut windmill = set.get_mut(id).expect("live");
            assert!(windmill.set_layer(0, Layer::once(0, time + k as f32 * 0.01)));
            windmill.drivers_mut()[0] = time * 0.1;
        }
        frame.clear();
        set.animate(&mut frame);
        set.extract(&mut frame);
    };
    for n in 0..300 {
        run(&mut set, n as f32 / 60.0);
    }
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    for n in 300..600 {
        run(&mut set, n as f32 / 60.0);
    }
    assert_eq!(HEAP.peak_usage() - before, 0, "a host's frames on a crowd set allocated");
    assert_eq!(HEAP.current_usage(), before, "a host's frames on a crowd set: memory grew");
}

#[test]
fn frames_allocate_nothing() {
    check_crowd_set();
    check("one thread", &mut town(1), 0, (600, 300));
    check("workers", &mut town(2), 4096, (600, 300));
    let mut street = street(1);
    check("feet held near the camera", &mut street, 0, (600, 300));
    assert!(street.animation_stats().close_ups > 0, "people near the camera have their feet held");
    // Enough instances in view to be sifted and extracted in parts on the workers. Their
    // windmills drift apart for longer, so the pose-sharing key tables (sized to the most
    // distinct poses met) take until about frame 180 to stop growing.
    check("workers, in parts", &mut town_of(12_000, 2), 4096, (400, 200));
}
