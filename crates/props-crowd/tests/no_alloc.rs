//! Zero allocations per frame with mesh LOD, spring bones and walkers, proven with a counting
//! global allocator: after warm-up, a camera dollying over a crowd (so that props change
//! level, both ways, every few frames, and haired ones come near and go, their hair swung
//! close up over an additive layer; walkers speeding up and slowing down, their footsteps read) never raises the
//! heap's peak. Its own test binary (one test), so that nothing else allocates
//! meanwhile.

mod support;

use peak_alloc::PeakAlloc;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::{Layer, Model};
use props_crowd::{Animates, CrowdSet, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelId};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// A unit-sized model with four coarser levels.
fn model() -> Arc<Model> {
    support::leveled_model(16, &[0.02, 0.04, 0.08, 0.16])
}

#[test]
fn frames_with_mesh_lod_and_springs_allocate_nothing() {
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    set.set_model(PropModel::new(ModelId(0), model()), Animates::default()).expect("binds");
    for k in 0..4000 {
        let at = Vec3::new((k % 40) as f32 * 3.0 - 60.0, 0.0, -((k / 40) as f32) * 3.0);
        set.add(ModelId(0), Affine3A::from_translation(at));
    }
    set.set_model(PropModel::new(ModelId(1), support::haired()), Animates::default()).expect("binds");
    for k in 0..100 {
        let at = Vec3::new((k % 10) as f32 * 2.0 - 10.0, 0.0, -((k / 10) as f32) * 20.0);
        let haired = set.add(ModelId(1), Affine3A::from_translation(at)).expect("added");
        // Its clip played additively: close up, its reference is sampled every frame.
        let additive = Layer::looping(0, k as f32 * 0.1).additive();
        assert!(set.get_mut(haired).is_some_and(|mut h| h.set_layer(0, additive)), "a layer 0 and a clip 0");
    }
    let gaits = Animates::default().gaits("Walk", "Run", ["Idle"]);
    set.set_model(PropModel::new(ModelId(2), support::walker()), gaits).expect("binds");
    let walkers: Vec<_> = (0..50)
        .filter_map(|k| set.add(ModelId(2), Affine3A::from_translation(Vec3::new(k as f32 - 25.0, 0.0, -5.0))))
        .collect();
    set.set_view_height(1080);
    let mut frame = FrameData::default();
    frame.palettes.reserve(2 * 4004 + 2 * 4 * 154);
    frame.instances.reserve(4200);
    frame.batches.reserve(8);
    let (mut levels_seen, mut close_ups) = ([false; 5], 0);
    // Returns how many props were posed close up.
    let mut run = |set: &mut CrowdSet, n: usize, levels_seen: &mut [bool; 5]| {
        // Back and forth along the crowd, 2 m a frame.
        let z = 20.0 - ((n % 200) as f32 - 100.0).abs() * 2.0;
        let eye = Vec3::new(0.0, 5.0, z);
        set.set_camera(Some(Camera::look_at(eye, eye - Vec3::Z, 0.9, 16.0 / 9.0, (0.1, 1000.0))));
        frame.clear();
        for (k, &walker) in walkers.iter().enumerate() {
            let speed = ((n + k) % 120) as f32 * 0.03;
            assert!(set.get_mut(walker).is_some_and(|mut w| w.set_gait(speed, Some(2))));
        }
        set.advance(1.0 / 60.0);
        let close_ups = set.animate(&mut frame).close_ups;
        set.extract(&mut frame);
        // Read as a host reads footsteps (this walker has no feet to pin: the reading is what
        // is measured).
        let pinned: usize = walkers.iter().filter_map(|&w| set.pinned_feet(w)).map(Iterator::count).sum();
        std::hint::black_box(pinned);
        for batch in &frame.batches {
            levels_seen[usize::from(batch.level)] = true;
        }
        close_ups
    };
    for n in 0..400 {
        close_ups += run(&mut set, n, &mut levels_seen);
    }
    assert_eq!(levels_seen, [true; 5], "every level is drawn");
    assert!(close_ups > 400, "haired props come near and are swung close up: {close_ups}");
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    for n in 400..800 {
        run(&mut set, n, &mut levels_seen);
    }
    assert_eq!(HEAP.peak_usage() - before, 0, "frames with mesh LOD, springs and walkers allocated");
    assert_eq!(HEAP.current_usage(), before, "frames with mesh LOD, springs and walkers: memory grew");
}
