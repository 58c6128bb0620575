//! Spring bones read from VRM files (`tests/models/humanoids/springs_vrm*.vrm`: a ponytail and
//! a lock of hair on the head, a tail on the hips, kept out of spheres and capsules): every
//! joint, setting and collider as the file gives it, and each broken entry passed over alone,
//! with a warning at its path. How they swing is tested against three-vrm in
//! `tests/runtime/springs.rs`.

use std::path::Path;

use glam::Vec3;
use props_anim::spring::ColliderShape;
use props_gltf::{Import, Limits, import_slice};
use serde_json::{Value, json};

use crate::support::{glb, split_glb};

fn avatar(version: u8) -> (Value, Vec<u8>) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../tests/models/humanoids/springs_vrm{version}.vrm"));
    split_glb(&std::fs::read(path).expect("the avatar"))
}

fn import((json, bin): &(Value, Vec<u8>)) -> Import {
    import_slice(&glb(json, bin), None, Path::new("avatar.vrm"), &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn node(json: &Value, name: &str) -> usize {
    json["nodes"].as_array().expect("nodes").iter().position(|n| n["name"] == name).expect(name)
}

/// The joints' nodes' names, in rig order.
fn joint_names(import: &Import) -> Vec<&str> {
    let (rig, springs) = (import.model.rig(), import.model.springs());
    springs.joints().iter().map(|j| rig.name(j.node).expect("named")).collect()
}

fn warned(import: &Import, path: &str, says: &str) -> bool {
    import.warnings.iter().any(|w| w.json_path == path && w.message.contains(says))
}

#[test]
fn a_vrm_1_file_s_springs_are_read_as_it_gives_them() {
    let file = avatar(1);
    let import = import(&file);
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    // The last joint of each spring is its tail only.
    assert_eq!(
        joint_names(&import),
        ["ponytail.0", "ponytail.1", "ponytail.2", "lock.0", "lock.1", "tail.0", "tail.1"]
    );
    let (rig, springs) = (import.model.rig(), import.model.springs());
    let ponytail = &springs.joints()[1];
    let s = 1.6 / 1.77;
    assert!((ponytail.settings.stiffness - 0.5).abs() < 1e-6 && (ponytail.settings.drag - 0.35).abs() < 1e-6);
    assert!(ponytail.settings.gravity.distance(Vec3::new(0.0, -2.0, 0.0)) < 1e-6);
    assert!((ponytail.settings.hit_radius - 0.025 * s).abs() < 1e-6);
    // The tail is the next joint's rest offset.
    assert!(ponytail.tail.distance(Vec3::new(0.0, -0.09, -0.02) * s) < 1e-6, "{}", ponytail.tail);
    // Groups 0 and 1: the head's sphere, the neck's and the chest's capsules, the plane behind.
    assert_eq!(ponytail.colliders, [0, 1, 2, 6]);
    // The extended colliders' shapes, not their core fallbacks.
    assert!(matches!(springs.colliders()[6].shape, ColliderShape::Plane { normal, .. } if normal == Vec3::NEG_Z));
    assert!(matches!(springs.colliders()[7].shape, ColliderShape::Sphere { inside: true, .. }));
    assert_eq!(springs.joints()[3].center, rig.find("spine"), "the lock swings in the hips' space");
    assert_eq!(springs.joints()[0].center, None);
    let ColliderShape::Capsule { tail, radius, .. } = springs.colliders()[1].shape else {
        panic!("the neck's capsule")
    };
    assert!(tail.distance(Vec3::new(0.0, 0.08, 0.0) * s) < 1e-6 && (radius - 0.06 * s).abs() < 1e-6);
}

#[test]
fn a_vrm_0_group_swings_its_roots_whole_subtree() {
    let import = import(&avatar(0));
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let names = joint_names(&import);
    assert_eq!(names.len(), 10, "every node of the three chains: {names:?}");
    let springs = import.model.springs();
    let last =
        springs.joints().iter().find(|j| import.model.rig().name(j.node) == Some("ponytail.3")).expect("the end");
    // The last bone's tail: 7 cm along its own offset.
    let s = 1.5 / 1.77;
    let along = (Vec3::new(0.0, -0.09, 0.0) * s).normalize() * 0.07;
    assert!(last.tail.distance(along) < 1e-6, "{}", last.tail);
    assert_eq!(last.settings.stiffness, 0.6, "VRM 0.x spells it `stiffiness`");
    // VRM 0.x's collider offsets are Unity's: z turned.
    let ColliderShape::Sphere { offset, .. } = springs.colliders()[0].shape else { panic!("the head's sphere") };
    assert!(offset.distance(Vec3::new(0.0, 0.1, 0.01) * s) < 1e-6, "{offset}");
}

#[test]
fn broken_entries_are_passed_over_one_by_one_with_their_path() {
    let (mut json, bin) = avatar(1);
    let springs = &mut json["extensions"]["VRMC_springBone"];
    // The tail's spring: its second joint on no node (its first reaches to its third).
    springs["springs"][2]["joints"][1]["node"] = json!(999);
    // A collider of no shape; a group naming a collider there is not.
    springs["colliders"][2]["shape"] = json!({ "box": {} });
    springs["colliderGroups"][0]["colliders"] = json!([0, 1, 42]);
    // The lock's chain is the ponytail's second bone (swinging already), and the ponytail's
    // first drag is out of range.
    let ponytail = [node(&json, "ponytail.1"), node(&json, "ponytail.2")];
    let springs = &mut json["extensions"]["VRMC_springBone"];
    springs["springs"][1]["joints"] = json!([{ "node": ponytail[0] }, { "node": ponytail[1] }]);
    springs["springs"][0]["joints"][0]["dragForce"] = json!(3.0);
    let import = import(&(json, bin));
    let at = "extensions.VRMC_springBone";
    assert!(warned(&import, &format!("{at}.springs[2].joints[1].node"), "names no node"), "{:?}", import.warnings);
    assert!(warned(&import, &format!("{at}.colliders[2].shape"), "`sphere` or a `capsule`"));
    assert!(warned(&import, &format!("{at}.colliderGroups[0].colliders[2]"), "no collider"));
    assert!(warned(&import, &format!("{at}.springs[1].joints[0]"), "swings in a spring before"));
    assert!(warned(&import, &format!("{at}.springs[0].joints[0].dragForce"), "0.5 instead"));
    let names = joint_names(&import);
    assert_eq!(names, ["ponytail.0", "ponytail.1", "ponytail.2", "tail.0"], "the rest swings");
    let springs = import.model.springs();
    assert_eq!(springs.colliders().len(), 7, "the collider of no shape is left out");
    assert_eq!(springs.joints()[0].settings.drag, 0.5);
    let s = (1.6 / 1.77) as f32;
    let spans = Vec3::new(0.0, -0.05, -0.12) * s * 2.0;
    assert!(springs.joints()[3].tail.distance(spans) < 1e-6, "{}", springs.joints()[3].tail);
}

#[test]
fn a_chain_may_skip_nodes_between_its_joints() {
    let (mut json, bin) = avatar(1);
    // The ponytail from its first node straight to its third: one bone spanning two links.
    json["extensions"]["VRMC_springBone"]["springs"][0]["joints"].as_array_mut().expect("joints").remove(1);
    let import = import(&(json, bin));
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let springs = import.model.springs();
    let first = springs.joints().iter().find(|j| import.model.rig().name(j.node) == Some("ponytail.0")).expect("first");
    let s = (1.6 / 1.77) as f32;
    let spans = Vec3::new(0.0, -0.06, -0.05) * s + Vec3::new(0.0, -0.09, -0.02) * s;
    assert!(first.tail.distance(spans) < 1e-6, "{}", first.tail);
}

#[test]
fn an_extended_collider_of_another_version_falls_back_to_its_core_shape() {
    let (mut json, bin) = avatar(1);
    let extended = &mut json["extensions"]["VRMC_springBone"]["colliders"][6]["extensions"];
    extended["VRMC_springBone_extended_collider"]["specVersion"] = json!("2.0");
    let import = import(&(json, bin));
    let at = "extensions.VRMC_springBone.colliders[6].extensions.VRMC_springBone_extended_collider.specVersion";
    assert!(warned(&import, at, "its core shape is"), "{:?}", import.warnings);
    let shape = import.model.springs().colliders()[6].shape;
    assert!(matches!(shape, ColliderShape::Sphere { inside: false, .. }), "{shape:?}");
}

/// Joint-collider pairs are tested every step of every near prop: past 16,384 over the whole
/// model, later joints keep out of fewer colliders, with a warning. Here 70 two-joint springs
/// each kept out of 256 colliders ask 17,920.
#[test]
fn joint_collider_pairs_past_the_most_are_cut_with_a_warning() {
    let (mut json, bin) = avatar(1);
    let first = json["nodes"].as_array().expect("nodes").len();
    let chains = 70;
    let mut added = Vec::new();
    for k in 0..chains {
        let child = first + 2 * k + 1;
        added.push(json!({"name": format!("strand{k}"), "translation": [0.0, 1.0, 0.0], "children": [child]}));
        added.push(json!({"name": format!("strand{k}.tip"), "translation": [0.0, -0.1, 0.0]}));
    }
    let root = json["scenes"][0]["nodes"][0].as_u64().expect("a root") as usize;
    let children = json["nodes"][root]["children"].as_array_mut().expect("the root's children");
    children.extend((0..chains).map(|k| json!(first + 2 * k)));
    json["nodes"].as_array_mut().expect("nodes").extend(added);
    let spring = &mut json["extensions"]["VRMC_springBone"];
    let colliders = spring["colliders"].as_array().expect("colliders").len();
    for _ in 0..256 {
        spring["colliders"]
            .as_array_mut()
            .expect("colliders")
            .push(json!({"node": root, "shape": {"sphere": {"radius": 0.01}}}));
    }
    let group = spring["colliderGroups"].as_array().expect("groups").len();
    spring["colliderGroups"]
        .as_array_mut()
        .expect("groups")
        .push(json!({"colliders": (colliders..colliders + 256).collect::<Vec<_>>()}));
    for k in 0..chains {
        let joints = json!([{"node": first + 2 * k}, {"node": first + 2 * k + 1}]);
        spring["springs"].as_array_mut().expect("springs").push(json!({"joints": joints, "colliderGroups": [group]}));
    }
    let import = import(&(json, bin));
    let pairs: usize = import.model.springs().joints().iter().map(|j| j.colliders.len()).sum();
    assert_eq!(pairs, 16_384);
    assert!(warned(&import, "extensions.VRMC_springBone", "joint-collider pairs"), "{:?}", import.warnings);
}
