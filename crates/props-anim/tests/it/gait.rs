//! Strides measured from clips, on a two-legged walker whose true speeds are known: each foot
//! slides back a set distance over its stance, then swings forward lifted; and gaits played by
//! speed, blended and in phase.

use glam::Vec3;
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Channel, Clip, Keyframes};
use props_anim::gait::{Gaits, stride};
use props_anim::{Model, ModelParts, NodeId, Rig, Skin, Transform};

use crate::support::{assert_close, rig};

/// Root, hips one unit up, and a foot on each side one unit below them.
fn walker_rig() -> Rig {
    let at = |x: f32, y: f32| Transform { translation: Vec3::new(x, y, 0.0), ..Transform::IDENTITY };
    rig(&[(&[1], Transform::IDENTITY), (&[2, 3], at(0.0, 1.0)), (&[], at(0.1, -1.0)), (&[], at(-0.1, -1.0))])
}

fn node(rig: &Rig, source: u32) -> NodeId {
    rig.from_source_index(source).expect("node")
}

/// A translation channel of `node` through `keys` (time, position).
fn track(rig: &Rig, source: u32, keys: &[(f32, [f32; 3])]) -> Channel {
    let times = keys.iter().map(|k| k.0).collect();
    let values = keys.iter().map(|k| Vec3::from_array(k.1)).collect();
    Channel::new(node(rig, source), Interpolation::Linear, times, Keyframes::Translation(values)).expect("channel")
}

/// The walker with three clips:
/// - `Walk` (1 s): each foot slides back from z = 0.3 to -0.3 over half a second on the
///   ground (speed 1.2), the other half it swings forward 0.2 up; the right foot half a cycle
///   after the left.
/// - `Run` (0.6 s): from z = 0.5 to -0.5 over 0.3 s (speed 10/3), swinging 0.3 up; the left
///   foot lands at a quarter of the cycle.
/// - `Travel` (1 s): `Walk` with the hips moving forward at 1.2 a second: a clip not "in
///   place", its feet still on the ground in model space while planted.
fn walker() -> Model {
    let rig = walker_rig();
    let walk = vec![
        track(
            &rig,
            2,
            &[(0.0, [0.1, -1.0, 0.3]), (0.5, [0.1, -1.0, -0.3]), (0.75, [0.1, -0.8, 0.0]), (1.0, [0.1, -1.0, 0.3])],
        ),
        track(
            &rig,
            3,
            &[
                (0.0, [-0.1, -1.0, -0.3]),
                (0.25, [-0.1, -0.8, 0.0]),
                (0.5, [-0.1, -1.0, 0.3]),
                (1.0, [-0.1, -1.0, -0.3]),
            ],
        ),
    ];
    let run = vec![
        track(
            &rig,
            2,
            &[(0.0, [0.1, -0.7, 0.0]), (0.15, [0.1, -1.0, 0.5]), (0.45, [0.1, -1.0, -0.5]), (0.6, [0.1, -0.7, 0.0])],
        ),
        track(
            &rig,
            3,
            &[
                (0.0, [-0.1, -1.0, 0.0]),
                (0.15, [-0.1, -1.0, -0.5]),
                (0.3, [-0.1, -0.7, 0.0]),
                (0.45, [-0.1, -1.0, 0.5]),
                (0.6, [-0.1, -1.0, 0.0]),
            ],
        ),
    ];
    // Travelling: the hips forward 1.2 a second, each foot as in Walk but carried back by as
    // much while planted, so it stays put in model space.
    let travel = vec![
        track(&rig, 1, &[(0.0, [0.0, 1.0, 0.0]), (1.0, [0.0, 1.0, 1.2])]),
        track(
            &rig,
            2,
            &[(0.0, [0.1, -1.0, 0.3]), (0.5, [0.1, -1.0, -0.9]), (0.75, [0.1, -0.8, -0.9]), (1.0, [0.1, -1.0, -0.9])],
        ),
        track(
            &rig,
            3,
            &[
                (0.0, [-0.1, -1.0, -0.3]),
                (0.25, [-0.1, -0.8, 0.0]),
                (0.5, [-0.1, -1.0, -0.3]),
                (1.0, [-0.1, -1.0, -0.9]),
            ],
        ),
    ];
    let clip = |name: &str, channels| Clip::new(Some(name.into()), channels, &rig).expect("clip");
    let clips = vec![clip("Walk", walk), clip("Run", run), clip("Travel", travel)];
    let skin = Skin::new(None, vec![node(&rig, 1), node(&rig, 2), node(&rig, 3)], None, &rig).expect("skin");
    Model::new(ModelParts { rig: Some(rig), skins: vec![skin], clips, ..ModelParts::default() }).expect("model")
}

#[test]
fn a_walk_s_speed_is_what_keeps_its_planted_feet_still() {
    let model = walker();
    let walk = stride(&model, 0).expect("a stride");
    let feet = [node(model.rig(), 2), node(model.rig(), 3)];
    assert_eq!(walk.feet, feet, "the lowest joints of the legs, not the hips");
    assert_close(walk.speed, 1.2, 0.01);
    assert!(walk.forward.abs_diff_eq(Vec3::Z, 1e-3), "{}", walk.forward);
    assert_close(walk.length(), 1.2, 0.01);
    assert!(!walk.moves_root());
    // Planted over its stance (the first half for the left foot, the second for the right),
    // lifted mid-swing.
    for phase in [0.1, 0.25, 0.4] {
        assert!(walk.planted(0, phase) && !walk.planted(1, phase), "{phase}");
        assert!(walk.planted(1, phase + 0.5) && !walk.planted(0, phase + 0.5), "{phase}");
    }
    let run = stride(&model, 1).expect("a stride");
    assert_close(run.speed, 10.0 / 3.0, 0.03);
    assert!(run.planted(0, 0.5) && !run.planted(0, 0.0));
}

#[test]
fn a_clip_that_travels_is_measured_with_its_travel() {
    let model = walker();
    let travel = stride(&model, 2).expect("a stride");
    assert!(travel.moves_root());
    assert!(travel.travel.abs_diff_eq(Vec3::new(0.0, 0.0, 1.2), 1e-3), "{}", travel.travel);
    assert_close(travel.speed, 1.2, 0.01);
}

/// Played in place, the travelling clip keeps its stride (the same speed, feet and contacts)
/// and no longer moves the root; a clip in place stays as it is.
#[test]
fn a_travelling_clip_is_played_in_place_at_the_same_speed() {
    let model = walker();
    let travelling = stride(&model, 2).expect("a stride");
    let in_place = props_anim::gait::in_place(&model, 2, &travelling).expect("it travels");
    let model = Model::new(ModelParts { clips: vec![in_place], ..parts(&model) }).expect("a model");
    let still = stride(&model, 0).expect("a stride");
    assert!(!still.moves_root(), "{}", still.travel);
    assert_close(still.speed, travelling.speed, 0.01);
    assert_eq!((still.feet.clone(), still.contacts.len()), (travelling.feet.clone(), travelling.contacts.len()));
    let walk = stride(&walker(), 0).expect("a stride");
    assert!(props_anim::gait::in_place(&walker(), 0, &walk).is_none(), "the walk is in place already");
}

/// A gait slot pair naming one travelling clip twice (an animal whose run is its walk) is
/// played in place once: one clip added, both slots pointed at it.
#[test]
fn a_clip_in_two_slots_is_played_in_place_once() {
    let model = walker();
    let clips = model.clips().len();
    let mut twice = [2, 2];
    let moved = props_anim::gait::played_in_place(&model, &mut twice).expect("clip 2 travels");
    assert_eq!((moved.clips().len(), twice), (clips + 1, [clips, clips]));
    // Only what travels is added: the walk in place stays itself.
    let mut walk_and_travel = [0, 2];
    let moved = props_anim::gait::played_in_place(&model, &mut walk_and_travel).expect("clip 2 travels");
    assert_eq!((moved.clips().len(), walk_and_travel), (clips + 1, [0, clips]));
}

/// `model`'s rig and skin, without its clips.
fn parts(model: &Model) -> ModelParts {
    ModelParts {
        rig: Some(model.rig().clone()),
        skins: model.skins().to_vec(),
        meshes: model.meshes().to_vec(),
        instances: model.instances().to_vec(),
        ..ModelParts::default()
    }
}

#[test]
fn gaits_blend_by_speed_in_phase() {
    let model = walker();
    let gaits = Gaits::new(&model, &[1, 0]).expect("gaits");
    assert_eq!((gaits.clip(0), gaits.clip(1)), (0, 1), "slowest first");
    assert_eq!(gaits.around(0.5), (0, 0, 0.0));
    // The run blends in across the middle of the way from 1.2 to 10/3: from 1.95 to 2.59.
    assert_eq!(gaits.around(1.9), (0, 1, 0.0));
    assert_eq!(gaits.around(2.7), (0, 1, 1.0));
    let (slow, fast, blend) = gaits.around(2.2);
    assert_eq!((slow, fast), (0, 1));
    let way = (2.2 - 1.2) / (10.0 / 3.0 - 1.2);
    assert_close(blend, (way - 0.5) / props_anim::gait::BLEND_BAND + 0.5, 0.01);
    assert_eq!(gaits.around(9.0), (1, 1, 0.0));

    // At the walk's own speed the walk plays at rate 1.
    let mut phase = 0.0;
    let before = gaits.advance(&mut phase, 1.2, 0.0)[0].time;
    let after = gaits.advance(&mut phase, 1.2, 0.1)[0].time;
    assert_close((after - before).rem_euclid(1.0), 0.1, 2e-3);
    // Between the gaits both play, each from where its left foot lands: at one phase the
    // walk and the run are at the same point of their steps.
    let mut phase = 0.0;
    let [walk, run] = gaits.advance(&mut phase, 2.2, 0.0);
    assert_eq!((walk.gait, walk.weight), (0, 1.0));
    assert_eq!(run.gait, 1);
    assert_close(run.weight, blend, 1e-6);
    let landing = |gait: usize| gaits.stride(gait).contacts[0][0].0;
    assert_close(walk.time, landing(0).rem_euclid(1.0) * 1.0, 1e-4);
    assert_close(run.time, landing(1) * 0.6, 1e-4);
    // The cycle covers the blend of the two strides' lengths (1.2 and 2).
    let length = 1.2 * (1.0 - blend) + 2.0 * blend;
    gaits.advance(&mut phase, 2.2, 0.1);
    assert_close(phase, 2.2 * 0.1 / length, 2e-3);
}
