//! VRM avatars: the humanoid table of `VRMC_vrm` (VRM 1.0) or `VRM` (0.x) names a person's
//! bones whatever its nodes are called; a 0.x avatar, which faces -Z, is turned to face +Z; a
//! table that makes no skeleton is ignored with a warning that names it, and the bones are
//! found by name. The avatars are the base person (`assets/pedestrian.glb`: node 0 its
//! armature, nodes 1 to 19 its bones in [`BONES`]' order, node 20 its body) made into VRM files.

use std::path::Path;

use glam::Vec3;
use props_anim::humanoid::{BONES, Bone, BoneMap};
use props_anim::{Model, NodeId, Pose};
use props_gltf::{Import, Limits, import_slice};
use serde_json::{Value, json};

use crate::support::{glb, split_glb};

fn person() -> (Value, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/pedestrian.glb");
    split_glb(&std::fs::read(path).expect("the base person"))
}

fn import((json, bin): &(Value, Vec<u8>)) -> Import {
    import_slice(&glb(json, bin), None, Path::new("avatar.vrm"), &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The glTF node of each bone of the base person.
fn node_of(bone: Bone) -> usize {
    1 + BONES.iter().position(|&b| b == bone).expect("a bone")
}

/// Its bones named so that no convention finds them.
fn renamed(json: &mut Value) {
    for bone in BONES {
        json["nodes"][node_of(bone)]["name"] = json!(format!("joint{}", node_of(bone)));
    }
}

/// VRM 1.0's table for every bone.
fn vrm1(json: &mut Value) {
    let bones: serde_json::Map<String, Value> =
        BONES.iter().map(|&b| (b.name().to_owned(), json!({ "node": node_of(b) }))).collect();
    json["extensions"] = json!({ "VRMC_vrm": { "specVersion": "1.0", "humanoid": { "humanBones": bones } } });
    json["extensionsUsed"] = json!(["VRMC_vrm"]);
}

fn source(model: &Model, node: NodeId) -> u32 {
    model.rig().source_index(node)
}

fn walk_forward(model: &Model) -> Vec3 {
    let walk = model.clips().iter().position(|c| c.name() == Some("Walk")).expect("a walk");
    props_anim::gait::stride(model, walk).expect("a stride").forward
}

/// Each of the person's bones where the rest pose puts it, by glTF node.
fn bones_at_rest(model: &Model) -> Vec<Vec3> {
    let rig = model.rig();
    let mut pose = Pose::from_rest(rig);
    pose.compute_world(rig);
    let at = |bone: Bone| rig.from_source_index(node_of(bone) as u32).expect("the node");
    BONES.iter().map(|&b| Vec3::from(pose.world_matrix(at(b)).translation)).collect()
}

#[test]
fn a_vrm_1_table_names_the_bones() {
    let mut file = person();
    renamed(&mut file.0);
    assert_eq!(BoneMap::find(import(&file).model.rig()).matched(), 0, "no convention knows the names");
    vrm1(&mut file.0);
    let imported = import(&file);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let map = BoneMap::find(imported.model.rig());
    assert_eq!((map.convention(), map.matched()), ("VRM table", 19), "{map}");
    for bone in BONES {
        assert_eq!(source(&imported.model, map.get(bone).expect("mapped")) as usize, node_of(bone), "{bone:?}");
    }
    assert_eq!(map.to_string(), "humanoid (the file's VRM table): 19 of 19 bones");
}

#[test]
fn a_vrm_0_avatar_is_turned_to_face_plus_z() {
    let original = import(&person()).model;
    // The person turned to face -Z, as VRM 0.x avatars do, under a new root.
    let mut file = person();
    let turn = json!({ "name": "turn", "rotation": [0, 1, 0, 0], "children": [0, 20] });
    file.0["nodes"].as_array_mut().expect("nodes").push(turn);
    file.0["scenes"][0]["nodes"] = json!([21]);
    let facing_back = import(&file).model;
    assert!(walk_forward(&facing_back).z < -0.99, "the file faces -Z: {}", walk_forward(&facing_back));

    let bones: Vec<Value> = BONES.iter().map(|&b| json!({ "bone": b.name(), "node": node_of(b) })).collect();
    file.0["extensions"] = json!({ "VRM": { "specVersion": "0.0", "humanoid": { "humanBones": bones } } });
    file.0["extensionsUsed"] = json!(["VRM"]);
    let turned = import(&file);
    assert!(turned.warnings.is_empty(), "{:?}", turned.warnings);
    assert!(walk_forward(&turned.model).z > 0.99, "{}", walk_forward(&turned.model));
    for ((bone, at), was) in BONES.iter().zip(bones_at_rest(&turned.model)).zip(bones_at_rest(&original)) {
        assert!(at.abs_diff_eq(was, 1e-5), "{bone:?} at {at}, {was} in the base person");
    }
    assert_eq!(BoneMap::find(turned.model.rig()).convention(), "VRM table");

    // A 0.x table on a file that faces +Z (mislabelled) reads as the legs swapped: ignored.
    let mut wrong = person();
    wrong.0["extensions"] = file.0["extensions"].clone();
    let warnings = import(&wrong).warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].json_path, "extensions.VRM.humanoid.humanBones");
    assert!(warnings[0].message.contains("left and right are swapped"), "{}", warnings[0].message);
}

#[test]
fn a_table_that_makes_no_skeleton_is_ignored_with_why() {
    let mut file = person();
    vrm1(&mut file.0);
    let bones = &mut file.0["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"];
    bones["leftLowerLeg"]["node"] = json!(node_of(Bone::RightLowerLeg));
    bones["leftHand"]["node"] = json!(999);
    // VRM bones that no walk moves are passed over without a word.
    bones["leftThumbProximal"] = json!({ "node": node_of(Bone::LeftHand) });
    let imported = import(&file);
    let warnings: Vec<(&str, &str)> =
        imported.warnings.iter().map(|w| (w.json_path.as_str(), w.message.as_str())).collect();
    assert_eq!(
        warnings[0],
        ("extensions.VRMC_vrm.humanoid.humanBones.leftHand.node", "ignored: the file has no node 999 (it has 21)")
    );
    assert_eq!(warnings[1].0, "extensions.VRMC_vrm.humanoid.humanBones");
    let why = warnings[1].1;
    assert!(
        why.starts_with("ignored, the bones are found by their names: `leftLowerLeg` and `rightLowerLeg`"),
        "{why}"
    );
    assert_eq!(warnings.len(), 2);
    let map = BoneMap::find(imported.model.rig());
    assert_eq!((map.convention(), map.matched()), ("props", 19), "found by the nodes' names: {map}");
    assert!(imported.model.rig().humanoid().is_some(), "still declared an avatar");

    // The arms swapped are found as the legs are.
    let mut arms = person();
    renamed(&mut arms.0);
    vrm1(&mut arms.0);
    let bones = &mut arms.0["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"];
    let pairs = [
        (Bone::LeftUpperArm, Bone::RightUpperArm),
        (Bone::LeftLowerArm, Bone::RightLowerArm),
        (Bone::LeftHand, Bone::RightHand),
    ];
    for (left, right) in pairs {
        bones[left.name()]["node"] = json!(node_of(right));
        bones[right.name()]["node"] = json!(node_of(left));
    }
    let warnings = import(&arms).warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let why = &warnings[0].message;
    assert!(why.contains("`leftUpperArm` (the node `joint9`) is on the model's right"), "{why}");
}

/// Where an entry cannot be read, that bone is found by its name and the rest of the table
/// holds; what is not a table at all is said to be none, and the names count.
#[test]
fn what_cannot_be_read_of_a_table_is_said_and_the_names_fill_in() {
    let mut file = person();
    vrm1(&mut file.0);
    let bones = &mut file.0["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"];
    bones["leftFoot"]["node"] = json!("14");
    bones["head"] = json!(5);
    bones["hips"]["node"] = json!(-1);
    let imported = import(&file);
    let warnings: Vec<(&str, &str)> =
        imported.warnings.iter().map(|w| (w.json_path.as_str(), w.message.as_str())).collect();
    let at = "extensions.VRMC_vrm.humanoid.humanBones";
    let (head, hips, foot) = (format!("{at}.head"), format!("{at}.hips.node"), format!("{at}.leftFoot.node"));
    assert_eq!(
        warnings,
        [
            (head.as_str(), "ignored: a bone's entry gives its `node` (`{ \"node\": 3 }`)"),
            (hips.as_str(), "ignored: `node` is a node's index (0, 1, ...), not -1"),
            (foot.as_str(), "ignored: `node` is a node's index (0, 1, ...), not \"14\""),
        ]
    );
    let map = BoneMap::find(imported.model.rig());
    assert_eq!((map.convention(), map.matched()), ("VRM table", 19), "{map}");

    // Thousands of bad entries: a few told, the rest counted.
    let mut file = person();
    let bad: Vec<Value> = (0..5000).map(|i| json!({ "bone": "hips", "node": 100 + i })).collect();
    file.0["extensions"] = json!({ "VRM": { "humanoid": { "humanBones": bad } } });
    let warnings = import(&file).warnings;
    assert_eq!(warnings.len(), 18, "16 told, 4984 counted, and the table that names no bone");
    assert_eq!(warnings[16].message, "4984 more entries ignored as the ones above");

    for table in [json!("hips"), json!([]), json!({})] {
        let mut file = person();
        vrm1(&mut file.0);
        file.0["extensions"]["VRMC_vrm"]["humanoid"]["humanBones"] = table.clone();
        let imported = import(&file);
        assert_eq!(imported.warnings.len(), 1, "{table}: {:?}", imported.warnings);
        assert_eq!(imported.warnings[0].json_path, at);
        let map = BoneMap::find(imported.model.rig());
        assert_eq!((map.convention(), map.matched()), ("props", 19), "{table}: {map}");
    }
}
