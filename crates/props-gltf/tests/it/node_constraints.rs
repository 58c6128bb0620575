//! Node constraints read from VRM 1.0 files (`tests/models/humanoids/constraints_vrm1.vrm`:
//! twist bones, a cuff, a sleeve, eyes and a strap following other bones): every constraint
//! as the file gives it, run in the order of what it reads, and each broken entry passed over
//! alone, with a warning at its path. How they pose is tested against three-vrm in
//! `tests/runtime/constraints.rs`.

use std::path::Path;

use props_anim::constraint::{Axis, ConstraintKind};
use props_gltf::{Import, Limits, import_slice};
use serde_json::{Value, json};

use crate::support::{glb, split_glb};

fn avatar() -> (Value, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/humanoids/constraints_vrm1.vrm");
    split_glb(&std::fs::read(path).expect("the avatar"))
}

fn import((json, bin): &(Value, Vec<u8>)) -> Import {
    import_slice(&glb(json, bin), None, Path::new("avatar.vrm"), &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn node(json: &Value, name: &str) -> usize {
    json["nodes"].as_array().expect("nodes").iter().position(|n| n["name"] == name).expect(name)
}

/// Each constraint as (node's name, source's name, kind, weight), in the order they run.
fn read(import: &Import) -> Vec<(&str, &str, ConstraintKind, f32)> {
    let rig = import.model.rig();
    let name = |n| rig.name(n).expect("named");
    rig.constraints().iter().map(|c| (name(c.node), name(c.source), c.kind, c.weight)).collect()
}

fn warned(import: &Import, path: &str, says: &str) -> bool {
    import.warnings.iter().any(|w| w.json_path == path && w.message.contains(says))
}

#[test]
fn a_file_s_constraints_are_read_as_it_gives_them_and_run_after_what_they_read() {
    let import = import(&avatar());
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let read = read(&import);
    assert_eq!(read.len(), 7);
    let of = |name: &str| read.iter().position(|c| c.0 == name).expect(name);
    assert_eq!(read[of("twist.L.0")], ("twist.L.0", "hand.L", ConstraintKind::Roll(Axis::PositiveY), 0.6));
    assert_eq!(read[of("cuff.L.0")], ("cuff.L.0", "twist.L.0", ConstraintKind::Rotation, 0.5));
    assert_eq!(read[of("eye.L.0")], ("eye.L.0", "hand.R", ConstraintKind::Aim(Axis::PositiveZ), 1.0));
    assert_eq!(read[of("strap.0")].2, ConstraintKind::Aim(Axis::NegativeY));
    assert_eq!(read[of("twist.R.0")].2, ConstraintKind::Roll(Axis::PositiveX));
    // The cuff follows the twist bone, and the right eye aims below it: both come first in
    // the file, and run after it.
    assert!(of("twist.L.0") < of("cuff.L.0") && of("twist.L.0") < of("eye.R.0"));
}

#[test]
fn broken_entries_are_passed_over_one_by_one_with_their_path() {
    let (mut json, bin) = avatar();
    let at = |json: &Value, name: &str| format!("nodes[{}].extensions.VRMC_node_constraint", node(json, name));
    let set = |json: &mut Value, name: &str, value: Value| {
        let n = node(json, name);
        json["nodes"][n]["extensions"]["VRMC_node_constraint"] = value;
    };
    let [hand_l, cuff, eye_r] = ["hand.L", "cuff.L.0", "eye.R.0"].map(|name| node(&json, name));
    let twist = node(&json, "twist.L.0");
    // No kind; a source past the nodes; an axis unknown; a weight out of range; no version;
    // and two that read each other (the cuff and the twist bone).
    set(&mut json, "strap.0", json!({ "specVersion": "1.0", "constraint": { "spin": { "source": hand_l } } }));
    set(&mut json, "eye.L.0", json!({ "specVersion": "1.0", "constraint": { "aim": { "source": 9999 } } }));
    set(
        &mut json,
        "twist.R.0",
        json!({ "specVersion": "1.0", "constraint": { "roll": { "source": hand_l, "rollAxis": "W" } } }),
    );
    set(&mut json, "sleeve.R.0", json!({ "constraint": { "rotation": { "source": hand_l, "weight": 3.0 } } }));
    set(&mut json, "twist.L.0", json!({ "specVersion": "1.0", "constraint": { "rotation": { "source": cuff } } }));
    let import = import(&(json.clone(), bin));
    let read = read(&import);

    assert!(warned(&import, &format!("{}.constraint", at(&json, "strap.0")), "a `roll`, an `aim` or a `rotation`"));
    assert!(warned(&import, &format!("{}.constraint.aim.source", at(&json, "eye.L.0")), "names no node"));
    assert!(warned(&import, &format!("{}.constraint.roll.rollAxis", at(&json, "twist.R.0")), "X instead"));
    assert!(warned(&import, &format!("{}.constraint.rotation.weight", at(&json, "sleeve.R.0")), "clamped"));
    assert!(warned(&import, &format!("{}.specVersion", at(&json, "sleeve.R.0")), "read as 1.0"));
    assert!(warned(&import, &at(&json, "cuff.L.0"), "reads what it sets"), "{:?}", import.warnings);
    assert_eq!(import.warnings.len(), 6, "{:?}", import.warnings);

    // The cycle is broken at the first in the file (the cuff); the rest are read.
    assert!(json["nodes"][cuff].is_object() && cuff < twist && eye_r < twist);
    let names: Vec<&str> = read.iter().map(|c| c.0).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    for kept in ["twist.L.0", "twist.R.0", "sleeve.R.0", "eye.R.0"] {
        assert!(names.contains(&kept), "{kept} in {names:?}");
    }
    let twist_r = read.iter().find(|c| c.0 == "twist.R.0").expect("kept");
    assert_eq!(twist_r.2, ConstraintKind::Roll(Axis::PositiveX));
    assert_eq!(read.iter().find(|c| c.0 == "sleeve.R.0").expect("kept").3, 1.0);
}
