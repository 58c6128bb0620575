//! An avatar with node constraints (`tests/models/humanoids/constraints_vrm1.vrm`): the
//! pedestrian's body on the metarig's skeleton, as VRM 1.0, with bones that follow others by
//! `VRMC_node_constraint`, each a small box skinned to it:
//!
//! - roll: the left forearm's twist bone rolls with the left hand about Y (weight 0.6), the
//!   right upper arm's with the right forearm about X;
//! - rotation: a cuff turns half as the left twist bone does (a constraint reading another),
//!   the right sleeve as the right hand does;
//! - aim: the left eye looks at the right hand, the right eye at the end of the left twist bone
//!   (below a constrained node: it runs after it), and a strap from the chest hangs towards the
//!   left hand along its -Y.
//!
//! Constraints that read others come first in the file, so that a reader must order them. Its
//! clip `Wave` twists both hands, bends the elbows, raises the right arm and turns the head
//! and chest; three-vrm's constraints on the same locals are the reference
//! (`tests/oracle/constraints/`).

use anyhow::{Context, Result};
use glam::{DQuat, DVec3};
use serde_json::{Value, json};

use super::pedestrian::{self, Pose};
use super::rig_variants;
use super::spring_avatars::{human_bones, node};
use super::strands::Strand;
use crate::test_models::builder::Container;

/// The constrained bones, in metres at size 1: each strand's first node is constrained, its
/// second ends its box.
const STRANDS: [Strand; 7] = [
    Strand { name: "cuff.L", parent: 6, links: &[[0.0, -0.2, 0.04], [0.0, -0.04, 0.0]] },
    Strand { name: "eye.R", parent: 4, links: &[[-0.03, 0.07, 0.09], [0.0, 0.0, 0.03]] },
    Strand { name: "twist.L", parent: 6, links: &[[0.0, -0.1, 0.0], [0.0, -0.08, 0.0]] },
    Strand { name: "eye.L", parent: 4, links: &[[0.03, 0.07, 0.09], [0.0, 0.0, 0.03]] },
    Strand { name: "sleeve.R", parent: 9, links: &[[0.0, -0.1, 0.0], [0.0, -0.08, 0.0]] },
    Strand { name: "twist.R", parent: 8, links: &[[0.0, -0.12, 0.0], [0.0, -0.08, 0.0]] },
    Strand { name: "strap", parent: 2, links: &[[0.05, 0.15, 0.12], [0.0, -0.12, 0.0]] },
];

/// Keys of the clip, over its two seconds.
const KEYS: usize = 16;

/// Writes the avatar as GLB bytes: `(file name, bytes)`.
pub fn build() -> Result<(String, Vec<u8>)> {
    let variant = &rig_variants::METARIG;
    let (mut builder, joints, _) = pedestrian::build_variant(variant, &STRANDS)?;
    let hips = pedestrian::offsets(variant)[0].1;
    let poses: Vec<(f64, Pose)> = (0..=KEYS).map(|k| (2.0 * k as f64 / KEYS as f64, wave(hips, k))).collect();
    pedestrian::clip(&mut builder, &joints, "Wave", &poses)?;
    let files = builder.finish(variant.stem, Container::Glb)?;
    let (_, bytes) = files.into_iter().next().context("one file")?;
    let chunks = props_gltf::glb::read(&bytes).0.context("not a GLB file")?;
    let mut json: Value = serde_json::from_slice(chunks.json)?;
    let bones = human_bones(&json, variant)?;
    let joint = |j: usize| node(&json, variant.names[j]);
    let constrained = [
        ("cuff.L.0", json!({ "rotation": { "source": node(&json, "twist.L.0")?, "weight": 0.5 } })),
        ("eye.R.0", json!({ "aim": { "source": node(&json, "twist.L.1")?, "aimAxis": "PositiveZ", "weight": 0.8 } })),
        ("twist.L.0", json!({ "roll": { "source": joint(7)?, "rollAxis": "Y", "weight": 0.6 } })),
        ("eye.L.0", json!({ "aim": { "source": joint(10)?, "aimAxis": "PositiveZ" } })),
        ("sleeve.R.0", json!({ "rotation": { "source": joint(10)?, "weight": 1.0 } })),
        ("twist.R.0", json!({ "roll": { "source": joint(9)?, "rollAxis": "X" } })),
        ("strap.0", json!({ "aim": { "source": joint(7)?, "aimAxis": "NegativeY", "weight": 1.0 } })),
    ];
    for (name, constraint) in constrained {
        let n = node(&json, name)?;
        json["nodes"][n]["extensions"] =
            json!({ "VRMC_node_constraint": { "specVersion": "1.0", "constraint": constraint } });
    }
    json["extensions"] = json!({ "VRMC_vrm": { "specVersion": "1.0", "humanoid": { "humanBones": bones } } });
    json["extensionsUsed"] = json!(["VRMC_vrm", "VRMC_node_constraint"]);
    let bytes = props_gltf::glb::write(json.to_string().as_bytes(), chunks.bin).context("writing the GLB")?;
    Ok(("constraints_vrm1.vrm".to_owned(), bytes))
}

/// Key `k` of the clip: the hips at `hips`, the arms, head and chest turning (degrees below).
fn wave(hips: DVec3, k: usize) -> Pose {
    let a = std::f64::consts::TAU * k as f64 / KEYS as f64;
    let (x, y, z) = (
        |d: f64| DQuat::from_rotation_x(d.to_radians()),
        |d: f64| DQuat::from_rotation_y(d.to_radians()),
        |d: f64| DQuat::from_rotation_z(d.to_radians()),
    );
    let mut rotations = [DQuat::IDENTITY; 19];
    rotations[2] = y(15.0 * (2.0 * a).sin());
    rotations[4] = y(30.0 * a.sin()) * x(10.0 * a.cos());
    rotations[6] = x(-20.0 * (1.0 - a.cos()));
    rotations[7] = y(80.0 * a.sin()) * x(25.0 * (2.0 * a).sin());
    rotations[8] = z(-40.0 * a.sin()) * x(-30.0);
    rotations[9] = x(-35.0 * (1.0 + a.sin()));
    rotations[10] = x(50.0 * a.sin()) * y(-60.0 * a.cos()) * z(30.0 * (2.0 * a).sin());
    Pose { hips, rotations }
}
