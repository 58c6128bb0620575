//! `cargo xtask gen-test-models`: small hand-built glTF 2.0 files covering what the real sample
//! models in `tests/models/` lack (cubic splines, STEP edges, quaternion sign flips, 8 to 24 influences,
//! quantized and sparse accessors, unusual hierarchies, >256 joints, ...).
//!
//! Output is deterministic (no hash maps, sorted JSON keys, shortest-`f32` number formatting), so
//! regenerating gives byte-identical files. Next to each model goes `<stem>.times`: the comma
//! separated sample times the oracle fixtures in `tests/oracle/generated/` were made with.

pub(crate) mod builder;
mod cases_anim;
mod cases_color;
mod cases_skin;
mod data;
pub(crate) mod math;
pub(crate) mod rig;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use builder::{Container, GltfBuilder};

/// One generated model.
struct Case {
    /// File stem (`<stem>.gltf` / `<stem>.glb`).
    stem: &'static str,
    /// How the binary buffer is stored.
    container: Container,
    /// Builds the asset.
    build: fn() -> Result<GltfBuilder>,
    /// Whether the sample times include `key ± 0.01` for every key (off for the huge case, whose
    /// fixture is dominated by its 300+ nodes per frame).
    near_keys: bool,
}

/// Every case, in output order.
const CASES: &[Case] = &[
    Case { stem: "cubic_spline", container: Container::Embedded, build: cases_anim::cubic_spline, near_keys: true },
    Case { stem: "step_edges", container: Container::Embedded, build: cases_anim::step_edges, near_keys: true },
    Case { stem: "quat_flips", container: Container::Embedded, build: cases_anim::quat_flips, near_keys: true },
    Case {
        stem: "eight_influences_u8_float",
        container: Container::Embedded,
        build: cases_skin::eight_influences_u8_float,
        near_keys: true,
    },
    Case {
        stem: "eight_influences_u16_unorm16",
        container: Container::Embedded,
        build: cases_skin::eight_influences_u16_unorm16,
        near_keys: true,
    },
    Case {
        stem: "eight_influences_u8_unorm8",
        container: Container::Embedded,
        build: cases_skin::eight_influences_u8_unorm8,
        near_keys: true,
    },
    Case {
        stem: "twelve_influences_u8_float",
        container: Container::Embedded,
        build: cases_skin::twelve_influences_u8_float,
        near_keys: true,
    },
    Case {
        stem: "sixteen_influences_u16_unorm16",
        container: Container::Embedded,
        build: cases_skin::sixteen_influences_u16_unorm16,
        near_keys: true,
    },
    Case {
        stem: "twenty_four_influences_u8_unorm8",
        container: Container::Embedded,
        build: cases_skin::twenty_four_influences_u8_unorm8,
        near_keys: true,
    },
    Case {
        stem: "quantized_rotation",
        container: Container::Embedded,
        build: cases_anim::quantized_rotation,
        near_keys: true,
    },
    Case { stem: "sparse", container: Container::Embedded, build: cases_anim::sparse, near_keys: true },
    Case {
        stem: "shuffled_joints",
        container: Container::ExternalBin,
        build: cases_skin::shuffled_joints,
        near_keys: true,
    },
    Case {
        stem: "skinned_child_mesh",
        container: Container::Embedded,
        build: cases_skin::skinned_child_mesh,
        near_keys: true,
    },
    Case { stem: "many_joints", container: Container::Glb, build: cases_skin::many_joints, near_keys: false },
    Case { stem: "late_keys", container: Container::Embedded, build: cases_anim::late_keys, near_keys: true },
    Case { stem: "spare_data", container: Container::Embedded, build: cases_skin::spare_data, near_keys: true },
    Case { stem: "node_weights", container: Container::Embedded, build: cases_skin::node_weights, near_keys: true },
    Case {
        stem: "no_normals_no_indices",
        container: Container::Embedded,
        build: cases_anim::no_normals_no_indices,
        near_keys: true,
    },
    Case { stem: "vertex_colors", container: Container::Embedded, build: cases_color::vertex_colors, near_keys: true },
];

/// Writes every test model (plus `.bin` and `.times` companions) into `out_dir`; returns the
/// paths written, in a fixed order.
pub fn generate(out_dir: &Path) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let mut written = Vec::new();
    for case in CASES {
        let builder = (case.build)().with_context(|| format!("building {}", case.stem))?;
        let times = sample_times(&builder.key_times(0), case.near_keys);
        let mut files = builder.finish(case.stem, case.container)?;
        files.push((format!("{}.times", case.stem), format!("{times}\n").into_bytes()));
        for (name, bytes) in files {
            let path = out_dir.join(name);
            fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Comma-separated sample times for a clip with the given key times: a negative time, 0, every
/// key (and `key ± 0.01` when `near_keys`), midpoints between consecutive keys (and between 0
/// and a late first key), the duration and the duration + 0.5.
fn sample_times(keys: &[f32], near_keys: bool) -> String {
    // Shortest decimal of each f32 key, so 1.2f32 samples at 1.2 rather than 1.2000000476837158.
    let keys: Vec<f64> = keys.iter().map(|k| k.to_string().parse().unwrap_or(f64::from(*k))).collect();
    let duration = keys.last().copied().unwrap_or(0.0);
    let mut times = vec![-0.5, 0.0, duration, duration + 0.5];
    let mut previous = 0.0;
    for &k in &keys {
        times.push(k);
        if near_keys {
            times.extend([k - 0.01, k + 0.01]);
        }
        if k > previous {
            times.push((previous + k) / 2.0);
        }
        previous = k;
    }
    let mut times: Vec<f64> = times.iter().map(|t| (t * 1e6).round() / 1e6).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    times.iter().map(f64::to_string).collect::<Vec<_>>().join(",")
}

/// Test helper: asserts that `generate` writes exactly the files committed under `committed`
/// (relative to the workspace root); `hint` says how to regenerate them.
#[cfg(test)]
pub(crate) fn assert_committed_files_are_generated(
    committed: &str,
    generate: fn(&Path) -> Result<Vec<PathBuf>>,
    hint: &str,
) {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(committed);
    let name = committed.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let out = std::env::temp_dir().join(format!("props-gen-{name}-{}", std::process::id()));
    for path in generate(&out).expect("generates") {
        let file = path.file_name().expect("file name");
        let expected = fs::read(committed.join(file)).unwrap_or_default();
        let actual = fs::read(&path).expect("generated file");
        assert!(actual == expected, "{file:?} differs from {}: {hint}", committed.display());
    }
    fs::remove_dir_all(&out).expect("temporary folder removed");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_times_cover_keys_and_edges() {
        assert_eq!(sample_times(&[0.5, 1.2], true), "-0.5,0,0.25,0.49,0.5,0.51,0.85,1.19,1.2,1.21,1.7");
        assert_eq!(sample_times(&[0.0, 1.0], false), "-0.5,0,0.5,1,1.5");
    }

    #[test]
    fn generation_is_deterministic_and_models_are_small() {
        for case in CASES {
            let first = (case.build)().and_then(|b| b.finish(case.stem, case.container)).expect("builds");
            let second = (case.build)().and_then(|b| b.finish(case.stem, case.container)).expect("builds");
            assert_eq!(first, second, "{} is not deterministic", case.stem);
            let size: usize = first.iter().map(|(_, bytes)| bytes.len()).sum();
            assert!(size < 110_000, "{} is {size} bytes", case.stem);
        }
    }

    #[test]
    fn committed_models_are_what_the_generator_writes() {
        let hint = "run `cargo xtask gen-test-models` and regenerate the oracle fixtures";
        assert_committed_files_are_generated("tests/models/generated", generate, hint);
    }
}
