//! Draco-compressed primitives (`KHR_draco_mesh_compression`) that cannot be decoded: the gate
//! drops the primitive, draws the others, and never lets the decoder harm the game. (Decoding
//! real files is checked against three.js in `oracle.rs`.)

use std::path::Path;

use props_gltf::gate::{Admitted, admit_slice};
use props_gltf::validate::Outcome;
use props_gltf::{Limits, Part};
use serde_json::Value;

use crate::support::{glb, split_glb};

/// `tests/models/draco/<name>`'s JSON and binary chunk.
fn model(name: &str) -> (Value, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/draco").join(name);
    split_glb(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The byte range of buffer view `view`.
fn view_range(json: &Value, view: usize) -> std::ops::Range<usize> {
    let view = &json["bufferViews"][view];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    start..start + view["byteLength"].as_u64().expect("byteLength") as usize
}

fn admit(json: &Value, bin: &[u8]) -> Result<Admitted, String> {
    admit_slice(&glb(json, bin), None, Path::new("draco.glb"), &Limits::default()).map_err(|r| r.to_string())
}

/// The parts dropped by an admitted file, and the text of its report.
fn dropped(admitted: &Admitted) -> (Vec<Part>, String) {
    let text = admitted.report.issues.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    match admitted.report.outcome() {
        Outcome::Loads { dropped, .. } => (dropped, text),
        Outcome::Refuses => panic!("admitted yet refused:\n{text}"),
    }
}

const FIRST: Part = Part::Primitive { mesh: 0, primitive: 0 };

/// `BoxAnimated_draco_seq.glb` has two meshes of one compressed primitive each (views 1 and 2).
#[test]
fn a_primitive_whose_stream_is_garbage_is_dropped_and_the_other_draws() {
    let (json, mut bin) = model("BoxAnimated_draco_seq.glb");
    let range = view_range(&json, 1);
    for byte in &mut bin[range.start + 8..range.end] {
        *byte = byte.wrapping_mul(31).wrapping_add(7);
    }
    let admitted = admit(&json, &bin).expect("the other primitive still draws");
    let (parts, report) = dropped(&admitted);
    assert_eq!(parts, [FIRST], "{report}");
    assert!(report.contains("PROPS_DECOMPRESSION"), "{report}");
    assert!(report.contains("/meshes/0/primitives/0/extensions/KHR_draco_mesh_compression"), "{report}");
    let meshes = admitted.import.model.meshes();
    assert_eq!((meshes[0].primitives.len(), meshes[1].primitives.len()), (0, 1));
    assert_eq!(
        meshes[1].primitives[0].positions.len(),
        json["accessors"][5]["count"].as_u64().expect("count") as usize
    );
}

/// Counts that disagree with the stream: the decode stops at the declared counts (it cannot
/// allocate past them) and the primitive is dropped with what disagrees.
#[test]
fn declared_counts_bound_the_decode() {
    let (json, bin) = model("BoxAnimated_draco_seq.glb");
    let primitive = &json["meshes"][0]["primitives"][0];
    let index = |value: &Value| value.as_u64().expect("accessor index") as usize;
    let attributes = vec![index(&primitive["attributes"]["POSITION"]), index(&primitive["attributes"]["NORMAL"])];
    let indices = vec![index(&primitive["indices"])];
    for (accessors, count, says) in [(&attributes, 3, "points"), (&indices, 3, "faces"), (&indices, 6000, "indices")] {
        let mut json = json.clone();
        for &accessor in accessors {
            json["accessors"][accessor]["count"] = count.into();
        }
        let admitted = admit(&json, &bin).expect("the other primitive still draws");
        let (parts, report) = dropped(&admitted);
        assert_eq!(parts, [FIRST], "count {count} of {accessors:?}: {report}");
        assert!(report.contains(says), "count {count} of {accessors:?} should speak of {says}: {report}");
    }
}

/// Any damage to a stream (bytes changed, the stream cut short) is an error of that primitive:
/// never a panic, a hang or an unbounded allocation (the decode runs under the file's limits).
#[test]
fn damaged_streams_never_hurt_the_game() {
    let (json, bin) = model("Fox_draco.glb");
    let view = json["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]["bufferView"]
        .as_u64()
        .expect("view") as usize;
    let range = view_range(&json, view);
    // Places spread over the stream by a multiplicative step (the fuzzer draws them at random:
    // `cargo xtask fuzz` damages every compressed stream of the test models).
    let place = |k: usize| (k.wrapping_mul(2_654_435_761) >> 7) % range.len();
    let (mut admitted, mut refused) = (0, 0);
    for round in 0..40 {
        let mut bin = bin.clone();
        let mut json = json.clone();
        if round % 5 == 4 {
            // Cut short: the view ends early.
            json["bufferViews"][view]["byteLength"] = place(round).into();
        } else {
            for k in 0..=(round % 4) {
                bin[range.start + place(8 * round + k)] ^= 1 << ((round + k) % 8);
            }
        }
        match admit(&json, &bin) {
            Ok(_) => admitted += 1,
            Err(refusal) => {
                assert!(refusal.contains("/meshes/0/primitives/0"), "round {round}: {refusal}");
                refused += 1;
            }
        }
    }
    // The Fox has one primitive: a stream that no longer decodes leaves nothing to draw.
    assert!(refused > 0 && admitted > 0, "{admitted} admitted, {refused} refused");
}
