//! A host's walkers ([`props_crowd::Animates::gaits`]) on the demo's pedestrian and on the
//! Fox: moved along their way at any speed, their planted feet stay put in the world (the
//! gaits played at the rates their strides call for, blended in phase), where playing the
//! walk at its own rate slides them; stopped, they fade into a standing clip.

use std::path::Path;
use std::sync::Arc;

use glam::{Affine3A, Quat, Vec3};
use props_anim::Layer;
use props_crowd::gaited::Gait;
use props_crowd::{Animates, CrowdSet, InstanceId, PosingConfig, PropModel};
use props_frame::{Camera, FrameData, ModelId};

/// A demo asset.
fn asset(name: &str) -> props_anim::Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets").join(name);
    props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the asset imports").model
}

/// One walker of `model` (`gaits`: walk, run, standing clips) in units of `scale` metres,
/// placed at that scale; its feet, the way it faces and its walk's stride.
struct Walker {
    set: CrowdSet,
    id: InstanceId,
    scale: f32,
    feet: Vec<props_anim::NodeId>,
    walk: props_anim::gait::Stride,
}

impl Walker {
    fn new(model: props_anim::Model, (walk, run, standing): (&str, &str, &[&str]), scale: f32) -> Self {
        let stride = props_anim::gait::stride(&model, model.find_clip(walk).expect("a walk")).expect("a stride");
        let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
        let animates = Animates::default().gaits(walk, run, standing.iter().copied());
        // Placed at its units: a model made in centimetres placed at 0.01 is as large as it is.
        let prop = PropModel::new(ModelId(0), Arc::new(model)).with_scale(scale);
        set.set_model(prop, animates).expect("walks");
        let id = set.add(ModelId(0), Affine3A::from_scale(Vec3::splat(scale))).expect("a walker");
        let feet = set.feet_down(id).expect("walks").0.to_vec();
        assert!(feet.len() >= 2, "{} feet", feet.len());
        Self { set, id, scale, feet, walk: stride }
    }

    /// How far its planted feet slide, moved at `speed` (world units per second) for 4 s at
    /// 60 frames a second: the mean ground distance a foot covers in a frame while it is down
    /// ([`CrowdSet::feet_down`]), over the distance the walker covers, after the first second.
    /// `near`: the feet as drawn, seen by a camera beside it (held by IK), else as its clips
    /// pose them. `control`: its walk played alone at its own rate instead of its gaits, its
    /// feet down as the walk's stride has them.
    fn slide(&mut self, speed: f32, near: bool, control: bool) -> f32 {
        let dt = 1.0 / 60.0;
        let (mut slid, mut frames) = (0.0, 0);
        let mut last: Option<(Vec<Vec3>, u8)> = None;
        for f in 0..240 {
            let at = self.walk.forward * speed * dt * f as f32;
            let placement = Affine3A::from_scale_rotation_translation(Vec3::splat(self.scale), Quat::IDENTITY, at);
            let mut instance = self.set.get_mut(self.id).expect("the walker");
            instance.set_placement(placement);
            assert!(instance.set_gait(speed, None));
            self.set.advance(dt);
            let down = match control {
                true => {
                    let time = f as f32 * dt;
                    let mut instance = self.set.get_mut(self.id).expect("the walker");
                    for k in 0..3 {
                        assert!(instance.set_layer(k, if k == 0 { Layer::looping(0, time) } else { Layer::NONE }));
                    }
                    let phase = (time / self.walk.duration).fract();
                    let foot = |node| self.walk.feet.iter().position(|&f| f == node);
                    (self.feet.iter().enumerate())
                        .filter(|&(_, &node)| foot(node).is_some_and(|k| self.walk.planted(k, phase)))
                        .fold(0, |mask, (k, _)| mask | (1 << k))
                }
                false => self.set.feet_down(self.id).expect("walks").1,
            };
            let feet: Vec<Vec3> = match near {
                true => self.drawn_feet(at),
                false => self.posed_feet(),
            };
            let feet: Vec<Vec3> = feet.into_iter().map(|foot| placement.transform_point3(foot)).collect();
            if let Some((before, was)) = last.filter(|_| f > 60) {
                for (k, (a, b)) in before.iter().zip(&feet).enumerate() {
                    if was & down & (1 << k) != 0 {
                        slid += (*b - *a).with_y(0.0).length();
                        frames += 1;
                    }
                }
            }
            last = Some((feet, down));
        }
        assert!(frames > 20, "{frames} frames with a foot down");
        slid / frames as f32 / (speed * dt)
    }

    /// Its feet in model space as its clips pose them (the general path).
    fn posed_feet(&self) -> Vec<Vec3> {
        let pose = self.set.pose_of(self.id).expect("the walker");
        self.feet.iter().map(|&foot| pose.world_matrix(foot).translation.into()).collect()
    }

    /// Its feet in model space as drawn: posed and extracted for a camera 3 m beside it, read
    /// back from its palette (a foot's joint matrix times its bind matrix).
    fn drawn_feet(&mut self, at: Vec3) -> Vec<Vec3> {
        let side = Vec3::new(3.0, 1.0, 0.0);
        self.set.set_camera(Some(Camera::look_at(at + side, at, 0.9, 16.0 / 9.0, (0.1, 100.0))));
        let mut frame = FrameData::default();
        self.set.animate(&mut frame);
        self.set.extract(&mut frame);
        let base = frame.instances[0].palette_base as usize;
        let id = self.set.model_of(self.id).expect("the walker");
        let model = Arc::clone(self.set.model(id).expect("the walker's model").model());
        let joint = |foot: props_anim::NodeId| {
            (0..model.skins().len() as u32).find_map(|s| {
                let skin = &model.skins()[s as usize];
                let k = skin.joints().iter().position(|&j| j == foot)?;
                Some((model.palette_range(s).start + k, skin.inverse_bind_matrices()[k]))
            })
        };
        self.feet
            .iter()
            .map(|&foot| {
                let (slot, inverse_bind) = joint(foot).expect("a foot is a joint");
                (frame.palettes[base + slot].to_affine() * inverse_bind.inverse()).translation.into()
            })
            .collect()
    }
}

#[test]
fn walkers_feet_stay_planted_at_any_speed_and_slide_without_their_gaits() {
    let people = [
        ("pedestrian.glb", ("Walk", "Run", &["Idle", "Wait"][..]), 1.0, [0.6, 1.2, 2.0, 3.0, 4.0]),
        // Made in centimetres, placed at 0.01.
        ("Fox.glb", ("Walk", "Run", &["Survey"][..]), 0.01, [0.3, 0.6, 1.2, 2.0, 3.0]),
    ];
    for (name, gaits, scale, speeds) in people {
        let mut walker = Walker::new(asset(name), gaits, scale);
        let posed: Vec<f32> = speeds.iter().map(|&speed| walker.slide(speed, false, false)).collect();
        let held: Vec<f32> = speeds.iter().map(|&speed| walker.slide(speed, true, false)).collect();
        let mut control = Walker::new(asset(name), gaits, scale);
        let sliding: Vec<f32> = speeds.iter().map(|&speed| control.slide(speed, false, true)).collect();
        eprintln!(
            "{name}: planted feet slide {posed:.3?} of the way as posed, {held:.3?} as drawn near; the walk at its \
             own rate: {sliding:.3?}"
        );
        for (k, &speed) in speeds.iter().enumerate() {
            assert!(held[k] < 0.05, "{name} at {speed} per s: its feet slide {:.3} of the way", held[k]);
            // Far from the walk's own speed, the walk at its own rate slides.
            if k == 0 || k + 1 == speeds.len() {
                assert!(sliding[k] > 0.3, "{name} at {speed} per s: the control slides only {:.3}", sliding[k]);
            }
        }
    }
}

#[test]
fn a_walker_that_stops_fades_into_its_standing_clip_and_walks_off_again() {
    let mut walker = Walker::new(asset("pedestrian.glb"), ("Walk", "Run", &["Idle", "Wait"]), 1.0);
    let (set, id) = (&mut walker.set, walker.id);
    let feet = set.feet_down(id).expect("walks").0.len();
    let wait = set.model(ModelId(0)).expect("the person").clip("Wait").expect("a standing clip").number;
    assert_eq!(wait, 3, "numbered walk, run, then the standing clips");
    let mut instance = set.get_mut(id).expect("the walker");
    assert!(!instance.set_gait(0.0, Some(1)), "`Run` is no standing clip");
    assert!(!instance.set_gait(0.0, Some(9)));
    assert!(instance.set_gait(3.5, None));
    for _ in 0..30 {
        set.advance(1.0 / 60.0);
    }
    assert_eq!(set.gait(id).expect("walks").gait(), Gait::Run);
    assert!(set.get_mut(id).expect("the walker").set_gait(0.0, Some(wait)));
    set.advance(0.1);
    let fading = set.gait(id).expect("walks").idle_weight();
    assert!(fading > 0.0 && fading < 1.0, "halfway into the standing clip: {fading}");
    for _ in 0..30 {
        set.advance(1.0 / 60.0);
    }
    let state = set.gait(id).expect("walks");
    assert_eq!((state.gait(), state.idle_weight()), (Gait::Idle, 1.0));
    assert_eq!(set.feet_down(id).expect("walks").1, (1 << feet) - 1, "standing: every foot down");
    let layers = set.layers(id).expect("the walker");
    assert_eq!((layers[2].clip, layers[2].weight), (wait, 1.0), "the standing clip over the gaits");
    assert!(set.get_mut(id).expect("the walker").set_gait(1.2, None));
    for _ in 0..60 {
        set.advance(1.0 / 60.0);
    }
    assert_eq!((set.gait(id).expect("walks").gait(), set.layers(id).expect("layers")[2].weight), (Gait::Walk, 0.0));

    // A one-key pose stands as well as a clip that plays.
    let person = asset("pedestrian.glb");
    let rig = person.rig().clone();
    let hips = rig.find("hips").or_else(|| rig.nodes().nth(1)).expect("a node");
    let keys = props_anim::clip::Keyframes::Rotation(vec![Quat::from_rotation_y(0.3)]);
    let channel =
        props_anim::clip::Channel::new(hips, props_anim::clip::interpolate::Interpolation::Linear, vec![0.0], keys);
    let pose =
        props_anim::clip::Clip::new(Some("Pose".into()), vec![channel.expect("a channel")], &rig).expect("a clip");
    let mut posed = Walker::new(person.with_clips([pose]), ("Walk", "Run", &["Pose"]), 1.0);
    assert!(posed.set.get_mut(posed.id).expect("the walker").set_gait(0.0, Some(2)), "a one-key pose stands");
    for _ in 0..30 {
        posed.set.advance(1.0 / 60.0);
    }
    let layers = posed.set.layers(posed.id).expect("the walker");
    assert_eq!((layers[2].clip, layers[2].weight), (2, 1.0));

    // A model that does not walk has no gait.
    let mut others = CrowdSet::new(PosingConfig::default()).expect("a set");
    others.set_model(PropModel::new(ModelId(1), Arc::new(asset("windmill.glb"))), Animates::default()).expect("binds");
    let windmill = others.add(ModelId(1), Affine3A::IDENTITY).expect("a windmill");
    assert!(!others.get_mut(windmill).expect("the windmill").set_gait(1.0, None));
    assert!(others.gait(windmill).is_none());
}

/// A person without clips of its own (Mixamo's names and bones in centimetres under a scaled
/// armature, Blender's metarig, a VRM 0.x avatar, 3ds Max's Biped with its thighs under its
/// spine, Character Creator's with a pelvis between its hip and thighs) walks with the pedestrian's clips, taken from it and retargeted to its skeleton
/// ([`Animates::clips_from`]), its planted feet held near the camera; a model whose skeleton
/// is no walking person's is refused, saying why.
#[test]
fn any_humanoid_walks_with_another_models_clips() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/humanoids");
    let import =
        |name: &str| props_gltf::import_file(&root.join(name), &props_gltf::Limits::default()).expect("imports").model;
    for name in ["mixamo_person.glb", "metarig_person.glb", "vrm0_person.vrm", "biped_person.glb", "cc_person.glb"] {
        let person = import(name);
        assert!(person.find_clip("Walk").is_none(), "{name} has no walk of its own");
        let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
        let pedestrian = Animates::default().gaits("Walk", "Run", ["Idle"]);
        set.set_model(PropModel::new(ModelId(0), Arc::new(asset("pedestrian.glb"))), pedestrian).expect("walks");
        let walks = Animates::default().gaits("Walk", "Run", ["Idle"]).clips_from(ModelId(0));
        set.set_model(PropModel::new(ModelId(1), Arc::new(person)), walks).expect("walks");
        let view = set.model(ModelId(1)).expect("the person");
        let names: Vec<Option<String>> = view.clips().map(|c| c.name).collect();
        assert_eq!(names, ["Walk", "Run", "Idle"].map(|n| Some(n.to_owned())), "{name}");
        let walk = props_anim::gait::stride(view.model(), 0).expect("the retargeted walk strides");
        let id = set.add(ModelId(1), Affine3A::IDENTITY).expect("a person");
        let feet = set.feet_down(id).expect("walks").0.to_vec();
        let mut walker = Walker { set, id, scale: 1.0, feet, walk };
        let slides: Vec<f32> = [0.8, 1.6].iter().map(|&speed| walker.slide(speed, true, false)).collect();
        eprintln!("{name}: planted feet slide {slides:.3?} of the way as drawn near");
        assert!(slides.iter().all(|&slide| slide < 0.05), "{name}: {slides:?}");
    }
    // The windmill's skeleton walks nowhere: refused, naming the clips and why.
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    set.set_model(PropModel::new(ModelId(0), Arc::new(asset("pedestrian.glb"))), Animates::default()).expect("binds");
    let walks = Animates::default().gaits("Walk", "Run", ["Idle"]).clips_from(ModelId(0));
    let refused = set.set_model(PropModel::new(ModelId(1), Arc::new(asset("windmill.glb"))), walks.clone());
    let message = refused.expect_err("the windmill cannot walk").to_string();
    assert!(message.contains("`Walk`, `Run`, `Idle`") && message.contains("model 0"), "{message}");
    let unloaded = walks.clips_from(ModelId(7));
    let refused = set.set_model(PropModel::new(ModelId(2), Arc::new(import("vrm0_person.vrm"))), unloaded);
    assert!(refused.expect_err("no model 7").to_string().contains("not loaded"));
}

/// A model that takes clips from another ([`Animates::clips_from`]) takes them anew when that
/// model gets a new version (a modder's new walk), keeping its instances: here the pedestrian
/// again with its walk and run swapped, after which the avatar's walk lasts as long as the run.
#[test]
fn a_model_taking_clips_takes_them_from_the_new_version_of_their_source() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/pedestrian.glb");
    let bytes = std::fs::read(&path).expect("the pedestrian");
    let limits = props_gltf::Limits::default();
    let pedestrian = props_gltf::import_slice(&bytes, None, &path, &limits).expect("imports").model;
    let duration = |name: &str| pedestrian.clips()[pedestrian.find_clip(name).expect("a clip")].duration();
    let (walk, run) = (duration("Walk"), duration("Run"));
    assert!((walk - run).abs() > 0.05, "the walk ({walk} s) and the run ({run} s) last apart");
    // The same file with the two clips' names swapped.
    let (chunks, _) = props_gltf::glb::read(&bytes);
    let chunks = chunks.expect("a GLB");
    let mut json: serde_json::Value = serde_json::from_slice(chunks.json).expect("JSON");
    for animation in json["animations"].as_array_mut().expect("animations") {
        let name = match animation["name"].as_str() {
            Some("Walk") => "Run",
            Some("Run") => "Walk",
            _ => continue,
        };
        animation["name"] = name.into();
    }
    let swapped = props_gltf::glb::write(&serde_json::to_vec(&json).expect("JSON"), chunks.bin).expect("a GLB");
    let swapped = props_gltf::import_slice(&swapped, None, &path, &limits).expect("imports").model;

    let gaits = Animates::default().gaits("Walk", "Run", ["Idle"]);
    let mut set = CrowdSet::new(PosingConfig::default()).expect("a set");
    set.set_model(PropModel::new(ModelId(0), Arc::new(pedestrian.clone())), gaits.clone()).expect("walks");
    let avatar = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/humanoids/mixamo_person.glb");
    let avatar = props_gltf::import_file(&avatar, &limits).expect("imports").model;
    set.set_model(PropModel::new(ModelId(1), Arc::new(avatar)), gaits.clone().clips_from(ModelId(0))).expect("walks");
    let id = set.add(ModelId(1), Affine3A::IDENTITY).expect("an avatar");
    let taken = |set: &CrowdSet| {
        let view = set.model(ModelId(1)).expect("the avatar");
        view.clips().find(|c| c.name.as_deref() == Some("Walk")).expect("a walk").duration
    };
    assert!((taken(&set) - walk).abs() < 1e-5, "the pedestrian's walk");
    set.set_model(PropModel::new(ModelId(0), Arc::new(swapped)), gaits).expect("the new version");
    assert!((taken(&set) - run).abs() < 1e-5, "the new version's walk (the run), not {}", taken(&set));
    assert_eq!(set.model_of(id), Some(ModelId(1)), "the avatar keeps its instance");
}

/// A new version of a walker (a modder's person) without the clips walks with those of the
/// version it replaces, retargeted; a clock that goes back or is not a number moves nothing
/// and breaks nothing.
#[test]
fn a_new_version_without_clips_walks_with_the_ones_it_replaces() {
    let mut walker = Walker::new(asset("pedestrian.glb"), ("Walk", "Run", &["Idle", "Wait"]), 1.0);
    let avatar = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/humanoids/vrm0_person.vrm");
    let avatar = props_gltf::import_file(&avatar, &props_gltf::Limits::default()).expect("imports").model;
    assert!(avatar.clips().is_empty());
    let gaits = Animates::default().gaits("Walk", "Run", ["Idle", "Wait"]);
    walker.set.set_model(PropModel::new(ModelId(0), Arc::new(avatar)), gaits).expect("walks with the pedestrian's");
    let names: Vec<Option<String>> =
        walker.set.model(ModelId(0)).expect("the avatar").clips().map(|c| c.name).collect();
    assert_eq!(names, ["Walk", "Run", "Idle", "Wait"].map(|n| Some(n.to_owned())));
    let view = walker.set.model(ModelId(0)).expect("the avatar");
    walker.walk =
        props_anim::gait::stride(view.model(), view.model().find_clip("Walk").expect("a walk")).expect("strides");
    walker.feet = walker.set.feet_down(walker.id).expect("walks").0.to_vec();
    let slide = walker.slide(1.2, true, false);
    assert!(slide < 0.05, "the avatar's planted feet slide {slide:.3} of the way");

    let before = walker.set.layers(walker.id).expect("the avatar").to_vec();
    for dt in [-0.5, f32::NAN, f32::INFINITY, 0.0] {
        walker.set.advance(dt);
    }
    assert_eq!(walker.set.layers(walker.id).expect("the avatar"), &before[..], "nothing moved on");
}

/// Footsteps: a walker near the camera lists the feet it has planted and where in the world
/// they are held ([`CrowdSet::pinned_feet`]); each stays at its point while listed, the foot
/// drawn there, and a foot newly listed is a step: two a stride.
#[test]
fn a_walker_near_the_camera_tells_where_its_feet_come_down() {
    let mut walker = Walker::new(asset("pedestrian.glb"), ("Walk", "Run", &["Idle"]), 1.0);
    let (dt, speed) = (1.0 / 60.0, 1.2);
    let mut pins: Vec<(props_anim::NodeId, Vec3)> = Vec::new();
    let mut steps = 0;
    for f in 0..240 {
        let at = walker.walk.forward * speed * dt * f as f32;
        let mut instance = walker.set.get_mut(walker.id).expect("the walker");
        instance.set_placement(Affine3A::from_translation(at));
        assert!(instance.set_gait(speed, None));
        walker.set.advance(dt);
        let drawn = walker.drawn_feet(at);
        let now: Vec<(props_anim::NodeId, Vec3)> = walker.set.pinned_feet(walker.id).expect("the walker").collect();
        for &(foot, pin) in &now {
            match pins.iter().find(|(before, _)| *before == foot) {
                Some(&(_, before)) => assert_eq!(pin, before, "frame {f}: a planted foot's pin stays"),
                None => steps += 1,
            }
            let k = walker.feet.iter().position(|&f| f == foot).expect("one of its feet");
            let drawn = drawn[k] + at;
            assert!(drawn.distance(pin) < 0.01, "frame {f}: the foot is drawn {drawn} off its pin {pin}");
        }
        pins = now;
    }
    // 4 s of a 1.05 s stride (two steps each), the first from the first frame held.
    assert!((7..=9).contains(&steps), "{steps} steps in 4 s");
}
