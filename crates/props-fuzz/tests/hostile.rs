//! Every hostile case reaches the gate's expected verdict under the limits the game holds mods
//! to, and never takes more heap than those limits allow.
//!
//! Its own test binary: it installs a counting allocator and measures one case at a time.

use peak_alloc::PeakAlloc;
use props_fuzz::hostile::{Verdict, cases};
use props_gltf::gate::admit_file;
use props_mods::ModConfig;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

#[test]
fn hostile_files_get_their_verdict_within_the_mod_budget() {
    let limits = ModConfig::default_limits();
    let dir = std::env::temp_dir().join(format!("props-fuzz-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut failures = Vec::new();
    for case in cases() {
        let folder = dir.join(case.name);
        case.write(&folder).expect("write the case");
        let file_bytes: usize = case.files.iter().map(|(_, bytes)| bytes.len()).sum();
        HEAP.reset_peak_usage();
        let before = HEAP.current_usage();
        let started = std::time::Instant::now();
        let verdict = admit_file(&folder.join(&case.model), &limits);
        let peak = HEAP.peak_usage().saturating_sub(before);
        let seconds = started.elapsed().as_secs_f64();
        // The file itself (read whole), the decoded-bytes budget, and a few MiB of bookkeeping.
        let bound = 2 * file_bytes + usize::try_from(limits.max_decoded_bytes).unwrap_or(usize::MAX) + (8 << 20);
        let got = match &verdict {
            Ok(admitted) => {
                let warning = admitted.report.issues.first().map(|issue| issue.code);
                Verdict::Admitted(warning)
            }
            Err(refused) => Verdict::Refused(refused.fatal().next().map_or("?", |issue| issue.code)),
        };
        eprintln!("{:28} {got:?} peak {:.1} MiB in {seconds:.2} s", case.name, peak as f64 / 1048576.0);
        if got != case.verdict {
            let detail = match &verdict {
                Ok(admitted) => admitted.report.to_string(),
                Err(refused) => refused.to_string(),
            };
            failures
                .push(format!("{} ({}): expected {:?}, got {got:?}: {detail}", case.name, case.attack, case.verdict));
        }
        if peak > bound {
            failures.push(format!("{}: peak heap {peak} bytes, over the bound of {bound}", case.name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Memory follows what is read, not what is declared: a 1 KB file whose unused sparse MAT4
/// accessor declares 15 million elements (960 MB decoded, within the base assets' limits) is
/// checked and admitted, under the limits the game's own assets get, in under 64 MiB of heap;
/// and so is one whose skin's inverse bind matrices are a sparse accessor of 16,777,216
/// matrices (1 GiB decoded) of which its one joint uses the first (the mods' limits refuse it
/// for its count, as early).
#[test]
fn what_nothing_reads_is_not_materialized() {
    use serde_json::json;
    let floats: Vec<u8> =
        [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    let mut data = floats.clone();
    data.extend(0u32.to_le_bytes());
    let identity = [1.0f32, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    data.extend(identity.iter().flat_map(|f| f.to_le_bytes()));
    use base64::Engine as _;
    let uri =
        format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&data));
    let sparse_mat4 = |count: u64| {
        json!({"componentType": 5126, "count": count, "type": "MAT4", "sparse": {"count": 1,
            "indices": {"bufferView": 1, "componentType": 5125}, "values": {"bufferView": 2}}})
    };
    let document = |nodes: serde_json::Value, skins: serde_json::Value, count: u64| {
        json!({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
            "nodes": nodes, "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "skins": skins,
            "buffers": [{"byteLength": data.len(), "uri": uri}],
            "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 4},
                {"buffer": 0, "byteOffset": 40, "byteLength": 64}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                sparse_mat4(count)]})
    };
    let unread = document(json!([{"mesh": 0}]), json!([{"joints": [0], "inverseBindMatrices": 1}]), 15_000_000);
    let mut unread = unread;
    unread.as_object_mut().expect("object").remove("skins");
    let skinned = document(
        json!([{"mesh": 0, "children": [1]}, {}]),
        json!([{"joints": [1], "inverseBindMatrices": 1}]),
        16_777_216,
    );
    let dir = std::env::temp_dir().join(format!("props-fuzz-unread-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("folder");
    let mod_limits = ModConfig::default_limits();
    for (name, document, limits) in [
        ("unread", &unread, props_gltf::Limits::default()),
        ("skin_base_limits", &skinned, props_gltf::Limits::default()),
        ("skin_mod_limits", &skinned, mod_limits),
    ] {
        let path = dir.join(format!("{name}.gltf"));
        std::fs::write(&path, document.to_string()).expect("write");
        HEAP.reset_peak_usage();
        let before = HEAP.current_usage();
        let started = std::time::Instant::now();
        let admitted = admit_file(&path, &limits);
        let peak = HEAP.peak_usage().saturating_sub(before);
        eprintln!("{name}: peak {:.1} MiB in {:.2} s", peak as f64 / 1048576.0, started.elapsed().as_secs_f64());
        assert!(peak < 64 << 20, "{name}: peak heap {} MiB", peak >> 20);
        if name == "skin_mod_limits" {
            // The mods' limit on elements refuses it before anything is read.
            let refused = admitted.expect_err("over the mods' accessor limit");
            assert!(refused.to_string().contains("/accessors/1/count: error[PROPS_LIMIT_EXCEEDED]"), "{refused}");
            continue;
        }
        let admitted = admitted.unwrap_or_else(|refused| panic!("{name}: {refused}"));
        if name == "unread" {
            assert!(admitted.report.contains("PROPS_UNREAD_ACCESSOR", "/accessors/1"), "{}", admitted.report);
        } else {
            assert_eq!(admitted.import.model.skins()[0].inverse_bind_matrices().len(), 1, "{name}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
