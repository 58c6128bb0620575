//! A crowd binds a model's clips by the names its first version gave them: a new version (a
//! mod, a hot reload) that lists them in another order plays the same clip under each number;
//! a clip it lacks cannot be played (a version lacking one an instance plays is refused); clips
//! it adds come after the named ones. A first version whose clips are not all named, each
//! once, is bound by number.

mod support;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::clip::interpolate::Interpolation;
use props_anim::clip::{Channel, Clip, Keyframes};
use props_anim::{Layer, Model, ModelParts, NodeId};
use props_crowd::{Animates, BindError, CrowdSet, InstanceId, PosingConfig, PropModel};
use props_frame::ModelId;

/// A one-node triangle whose clips, named as given, each hold the node at its own `x`.
fn model(clips: &[(Option<&str>, f32)]) -> Arc<Model> {
    let base = support::one_node_model(support::triangle(1), vec![]);
    let clip = |&(name, x): &(Option<&str>, f32)| {
        let keys = Keyframes::Translation(vec![Vec3::new(x, 0.0, 0.0)]);
        let channel = Channel::new(NodeId(0), Interpolation::Linear, vec![0.0], keys).expect("a channel");
        Clip::new(name.map(str::to_owned), vec![channel], base.rig()).expect("a clip")
    };
    let parts = ModelParts {
        rig: Some(base.rig().clone()),
        clips: clips.iter().map(clip).collect(),
        meshes: base.meshes().to_vec(),
        instances: base.instances().to_vec(),
        ..ModelParts::default()
    };
    Arc::new(Model::new(parts).expect("valid"))
}

/// Where `id`'s node stands now: the `x` of the clip it plays.
fn shown(set: &CrowdSet, id: InstanceId) -> f32 {
    set.pose_of(id).expect("the instance").local_transform(NodeId(0)).translation.x
}

/// A set with the first version of model 0 and one instance playing clip number `clip`.
fn playing(first: Arc<Model>, clip: u16) -> (CrowdSet, InstanceId) {
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    set.set_model(PropModel::new(ModelId(0), first), Animates::default()).expect("binds");
    let id = set.add(ModelId(0), Affine3A::IDENTITY).expect("an instance");
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::looping(clip, 0.0)));
    (set, id)
}

#[test]
fn a_new_version_plays_each_clip_number_by_the_first_versions_name() {
    let (mut set, fox) = playing(model(&[(Some("Survey"), 1.0), (Some("Walk"), 2.0), (Some("Run"), 3.0)]), 1);
    assert_eq!(shown(&set, fox), 2.0);

    // Listed in another order, with a clip of its own: `Walk` is still number 1, the new clip
    // comes after the three named ones.
    let reordered = model(&[(Some("Run"), 30.0), (Some("Jump"), 40.0), (Some("Walk"), 20.0), (Some("Survey"), 10.0)]);
    set.set_model(PropModel::new(ModelId(0), reordered), Animates::default()).expect("binds by name");
    assert_eq!(shown(&set, fox), 20.0, "clip number 1 is the new version's `Walk`");
    let view = set.model(ModelId(0)).expect("the model");
    let numbers: Vec<(u16, Option<String>)> = view.clips().map(|c| (c.number, c.name)).collect();
    let names = ["Survey", "Walk", "Run", "Jump"].map(|n| Some(n.to_owned()));
    assert_eq!(numbers, (0..4).zip(names).collect::<Vec<_>>());

    // A version without `Survey`, which no instance plays, binds: `Survey` is not listed and
    // cannot be played, the others keep their numbers.
    let lacking = model(&[(Some("Run"), 300.0), (Some("Walk"), 200.0)]);
    set.set_model(PropModel::new(ModelId(0), lacking), Animates::default()).expect("binds without `Survey`");
    assert_eq!(shown(&set, fox), 200.0);
    let view = set.model(ModelId(0)).expect("the model");
    let numbers: Vec<(u16, Option<String>)> = view.clips().map(|c| (c.number, c.name)).collect();
    assert_eq!(numbers, [(1, Some("Walk".to_owned())), (2, Some("Run".to_owned()))]);
    assert_eq!(view.clip("Survey"), None);
    let mut instance = set.get_mut(fox).expect("the instance");
    assert!(!instance.set_layer(0, Layer::looping(0, 0.0)), "`Survey` is not there to play");
    assert!(!instance.set_layer(0, Layer::looping(3, 0.0)), "nor `Jump`");
    assert!(!instance.set_layer(0, Layer::looping(2, f32::NAN)), "nor a time that is not a number");
    assert!(!instance.set_layer(0, Layer::looping(2, 0.0).with_weight(f32::INFINITY)), "nor such a weight");
    assert!(instance.set_layer(0, Layer::looping(2, 0.0)));
    assert_eq!(shown(&set, fox), 300.0);

    // One without `Run`, which the instance plays, is refused by its name, and nothing changes.
    let lacking = model(&[(Some("Survey"), 1000.0), (Some("Walk"), 2000.0)]);
    let refused = set.set_model(PropModel::new(ModelId(0), lacking), Animates::default());
    assert_eq!(refused, Err(BindError::MissingClip("Run".to_owned())));
    assert_eq!(shown(&set, fox), 300.0);
    assert!(refused.expect_err("refused").to_string().contains("`Run`"));

    // `Survey` back: it plays under its number again.
    let whole = model(&[(Some("Survey"), 1.5), (Some("Walk"), 2.5), (Some("Run"), 3.5)]);
    set.set_model(PropModel::new(ModelId(0), whole), Animates::default()).expect("binds");
    assert!(set.get_mut(fox).expect("the instance").set_layer(0, Layer::looping(0, 0.0)));
    assert_eq!(shown(&set, fox), 1.5);
}

/// A version with no clips at all, or none of the first's, binds while no instance plays one.
#[test]
fn a_version_without_the_first_versions_clips_binds_while_none_is_played() {
    let (mut set, id) = playing(model(&[(Some("Walk"), 1.0), (Some("Run"), 2.0)]), 0);
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::NONE));
    for next in [model(&[]), model(&[(Some("Spin"), 5.0)])] {
        set.set_model(PropModel::new(ModelId(0), next.clone()), Animates::default()).expect("binds");
        let numbers: Vec<(u16, Option<String>)> =
            set.model(ModelId(0)).expect("the model").clips().map(|c| (c.number, c.name)).collect();
        let expected: Vec<_> = next.clips().iter().map(|c| (2, c.name().map(str::to_owned))).collect();
        assert_eq!(numbers, expected, "its own clips come after the first's two");
        assert_eq!(shown(&set, id), 0.0, "at rest");
    }
}

#[test]
fn clips_not_all_named_once_are_bound_by_number() {
    for first in [
        model(&[(None, 1.0), (Some("Walk"), 2.0)]),
        model(&[(Some("Walk"), 1.0), (Some("Walk"), 2.0)]),
        model(&[(Some(""), 1.0), (Some("Walk"), 2.0)]),
    ] {
        let (mut set, id) = playing(first, 1);
        assert_eq!(shown(&set, id), 2.0);
        let next = model(&[(Some("Walk"), 5.0), (Some("Run"), 6.0)]);
        set.set_model(PropModel::new(ModelId(0), next), Animates::default()).expect("binds by number");
        assert_eq!(shown(&set, id), 6.0, "clip number 1 is the new version's second clip");
        // Fewer clips than a number played: refused.
        let one = model(&[(Some("Walk"), 7.0)]);
        let refused = set.set_model(PropModel::new(ModelId(0), one), Animates::default());
        assert_eq!(refused, Err(BindError::FewerClips { played: 1, has: 1 }));
    }
}

#[test]
fn going_back_to_an_earlier_version_stops_only_the_clips_it_lacks() {
    let first = model(&[(Some("Walk"), 1.0), (Some("Run"), 2.0)]);
    let (mut set, walker) = playing(Arc::clone(&first), 1);
    let runner = walker;
    let modded = model(&[(Some("Run"), 20.0), (Some("Walk"), 10.0), (Some("Jump"), 30.0)]);
    set.set_model(PropModel::new(ModelId(0), modded), Animates::default()).expect("binds");
    let jumper = set.add(ModelId(0), Affine3A::IDENTITY).expect("an instance");
    assert!(set.get_mut(jumper).expect("the instance").set_layer(0, Layer::looping(2, 0.0)));
    assert_eq!((shown(&set, runner), shown(&set, jumper)), (20.0, 30.0));

    set.revert_model(PropModel::new(ModelId(0), first), Animates::default()).expect("reverts");
    assert_eq!(shown(&set, runner), 2.0, "`Run` plays on");
    assert_eq!(set.layers(jumper).expect("the instance")[0], Layer::NONE, "`Jump` is gone: its layer stops");
}

/// Clips a later version adds keep their numbers by name too, in every version after it.
#[test]
fn clips_a_new_version_adds_keep_their_numbers_by_name() {
    let (mut set, id) = playing(model(&[(Some("Walk"), 1.0)]), 0);
    let added = model(&[(Some("Jump"), 2.0), (Some("Walk"), 1.0), (Some("Wave"), 3.0)]);
    set.set_model(PropModel::new(ModelId(0), added), Animates::default()).expect("binds");
    let wave = set.model(ModelId(0)).expect("the model").clip("Wave").expect("waves");
    assert_eq!(wave.number, 2);
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::looping(wave.number, 0.0)));
    assert_eq!(shown(&set, id), 3.0);

    // Without `Jump` (number 1) and with `Wave` first, `Wave` is still number 2.
    let next = model(&[(Some("Wave"), 30.0), (Some("Walk"), 10.0), (None, 40.0)]);
    set.set_model(PropModel::new(ModelId(0), next), Animates::default()).expect("binds");
    assert_eq!(shown(&set, id), 30.0);
    let view = set.model(ModelId(0)).expect("the model");
    let numbers: Vec<(u16, Option<String>)> = view.clips().map(|c| (c.number, c.name)).collect();
    // Its unnamed clip comes after every name known.
    assert_eq!(numbers, [(0, Some("Walk".into())), (2, Some("Wave".into())), (3, None)]);
}

/// A later version's clip without a name keeps its number as long as versions list such clips
/// in the same order: a new name does not take it.
#[test]
fn a_clip_without_a_name_keeps_its_number_among_such_clips() {
    let (mut set, id) = playing(model(&[(Some("Walk"), 1.0)]), 0);
    let unnamed = model(&[(Some("Walk"), 1.0), (None, 2.0)]);
    set.set_model(PropModel::new(ModelId(0), unnamed), Animates::default()).expect("binds");
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::looping(1, 0.0)));
    assert_eq!(shown(&set, id), 2.0);
    let named = model(&[(Some("Idle"), 3.0), (Some("Walk"), 1.0), (None, 20.0)]);
    set.set_model(PropModel::new(ModelId(0), named), Animates::default()).expect("binds");
    assert_eq!(shown(&set, id), 20.0, "number 1 is still the clip without a name");
    assert_eq!(set.model(ModelId(0)).expect("the model").clip("Idle").map(|c| c.number), Some(2));
}

/// A host naming the clips it plays stops the layers past them in a new version, as before.
#[test]
fn named_clips_stop_the_layers_past_them() {
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    let first = model(&[(Some("A"), 1.0), (Some("B"), 2.0)]);
    set.set_model(PropModel::new(ModelId(0), first.clone()), Animates::default().clips(["A", "B"])).expect("binds");
    let id = set.add(ModelId(0), Affine3A::IDENTITY).expect("an instance");
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::looping(1, 0.0)));
    set.set_model(PropModel::new(ModelId(0), first), Animates::default().clips(["A"])).expect("binds");
    assert_eq!(set.layers(id).expect("the instance")[0], Layer::NONE);
}

/// However many clip names versions bring, numbers stay below `Layer::OFF`, and going back
/// to the first version leaves its clips playable under their numbers.
#[test]
fn clip_numbers_stay_below_what_a_layer_can_play() {
    let (mut set, id) = playing(model(&[(Some("Walk"), 1.0)]), 0);
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::NONE));
    let names: Vec<String> = (0..usize::from(Layer::OFF) + 100).map(|k| format!("clip {k}")).collect();
    let clips: Vec<(Option<&str>, f32)> = names.iter().map(|n| (Some(n.as_str()), 5.0)).collect();
    set.set_model(PropModel::new(ModelId(0), model(&clips)), Animates::default()).expect("binds");
    let numbers = set.model(ModelId(0)).expect("the model").clips().map(|c| c.number).max();
    assert_eq!(numbers, Some(Layer::OFF - 1));
    set.revert_model(PropModel::new(ModelId(0), model(&[(Some("Walk"), 1.0)])), Animates::default()).expect("reverts");
    assert!(set.get_mut(id).expect("the instance").set_layer(0, Layer::looping(0, 0.0)));
    assert_eq!(shown(&set, id), 1.0);
    assert_eq!(set.model(ModelId(0)).expect("the model").clips().count(), 1);
}
