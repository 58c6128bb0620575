//! Avatars with spring bones (`tests/models/humanoids/springs_vrm1.vrm` and
//! `springs_vrm0.vrm`): the pedestrian's body with a ponytail and a lock of hair from the head
//! and a tail from the hips, swung by VRM 1.0's `VRMC_springBone` and VRM 0.x's
//! `secondaryAnimation`, kept out of the head, the neck, the chest, the hips and the thighs (and
//! in VRM 1.0 behind a plane and inside a ball: `VRMC_springBone_extended_collider`).
//! The ponytail's joints swing each their own way; the lock swings in the hips' space (its
//! spring's `center`). three-vrm's swing of them is the reference (`tests/oracle/springs/`).

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::pedestrian::{self, Variant};
use super::rig_variants;
use super::strands::Strand;

/// The extended colliders' extension.
const EXTENDED: &str = "VRMC_springBone_extended_collider";
use crate::test_models::builder::Container;

/// The chains, in metres at size 1 (the head's top is 0.21 above its joint, its back 0.1
/// behind).
const STRANDS: [Strand; 3] = [
    Strand {
        name: "ponytail",
        parent: 4,
        links: &[[0.0, 0.17, -0.1], [0.0, -0.06, -0.05], [0.0, -0.09, -0.02], [0.0, -0.09, 0.0]],
    },
    Strand { name: "lock", parent: 4, links: &[[0.1, 0.12, 0.02], [0.01, -0.08, 0.0], [0.0, -0.08, 0.0]] },
    Strand { name: "tail", parent: 0, links: &[[0.0, -0.03, -0.05], [0.0, -0.05, -0.12], [0.0, -0.05, -0.12]] },
];

/// Writes the two avatars as GLB bytes: `(file name, bytes)`.
pub fn build() -> Result<Vec<(String, Vec<u8>)>> {
    let vrm1 = {
        let variant = &rig_variants::METARIG;
        let (json, bin, chains) = person(variant)?;
        let json = vrm1(json, variant, &chains)?;
        props_gltf::glb::write(json.to_string().as_bytes(), Some(&bin)).context("writing the GLB")?
    };
    let vrm0 = {
        let variant = &rig_variants::VRM0;
        let (json, bin, chains) = person(variant)?;
        let bytes = props_gltf::glb::write(json.to_string().as_bytes(), Some(&bin)).context("writing the GLB")?;
        let turned = super::vrm0(&bytes, &variant.names)?;
        let chunks = props_gltf::glb::read(&turned).0.context("not a GLB file")?;
        let json = secondary(serde_json::from_slice(chunks.json)?, variant, &chains)?;
        props_gltf::glb::write(json.to_string().as_bytes(), chunks.bin).context("writing the GLB")?
    };
    Ok(vec![("springs_vrm1.vrm".to_owned(), vrm1), ("springs_vrm0.vrm".to_owned(), vrm0)])
}

/// `variant`'s person with the strands: its JSON, its binary chunk and each strand's nodes.
fn person(variant: &Variant) -> Result<(Value, Vec<u8>, Vec<Vec<usize>>)> {
    let (builder, _, chains) = pedestrian::build_variant(variant, &STRANDS)?;
    let files = builder.finish(variant.stem, Container::Glb)?;
    let (_, bytes) = files.into_iter().next().context("one file")?;
    let chunks = props_gltf::glb::read(&bytes).0.context("not a GLB file")?;
    Ok((serde_json::from_slice(chunks.json)?, chunks.bin.context("a binary chunk")?.to_vec(), chains))
}

/// The node named `name` in `json`.
pub(super) fn node(json: &Value, name: &str) -> Result<usize> {
    let nodes = json["nodes"].as_array().context("nodes")?;
    nodes.iter().position(|n| n["name"] == name).with_context(|| format!("no node {name}"))
}

/// `variant`'s joint `j` (in the bones' order).
fn joint(json: &Value, variant: &Variant, j: usize) -> Result<usize> {
    node(json, variant.names[j])
}

/// VRM 1.0's humanoid table of `variant`'s person in `json`.
pub(super) fn human_bones(json: &Value, variant: &Variant) -> Result<Value> {
    let bones = variant
        .names
        .iter()
        .zip(props_anim::humanoid::BONES)
        .map(|(name, bone)| Ok((bone.name().to_owned(), json!({ "node": node(json, name)? }))))
        .collect::<Result<serde_json::Map<String, Value>>>()?;
    Ok(Value::Object(bones))
}

/// As VRM 1.0: the humanoid table and `VRMC_springBone`.
fn vrm1(mut json: Value, variant: &Variant, chains: &[Vec<usize>]) -> Result<Value> {
    let s = variant.size;
    let bones = human_bones(&json, variant)?;
    let [hips, chest, neck, head, thigh_l, thigh_r] = [0, 2, 3, 4, 11, 15].map(|j| joint(&json, variant, j));
    let [hips_again, chest_again] = [0, 2].map(|j| joint(&json, variant, j));
    let colliders = json!([
        { "node": head?, "shape": { "sphere": { "offset": [0.0, 0.1 * s, 0.01 * s], "radius": 0.13 * s } } },
        { "node": neck?, "shape": { "capsule": { "offset": [0.0, 0.0, 0.0], "tail": [0.0, 0.08 * s, 0.0], "radius": 0.06 * s } } },
        { "node": chest?, "shape": { "capsule": { "offset": [0.0, 0.05 * s, 0.0], "tail": [0.0, 0.2 * s, 0.0], "radius": 0.12 * s } } },
        { "node": hips.as_ref().ok(), "shape": { "sphere": { "offset": [0.0, 0.0, 0.0], "radius": 0.12 * s } } },
        { "node": thigh_l?, "shape": { "capsule": { "offset": [0.0, 0.0, 0.0], "tail": [0.0, -0.42 * s, 0.0], "radius": 0.08 * s } } },
        { "node": thigh_r?, "shape": { "capsule": { "offset": [0.0, 0.0, 0.0], "tail": [0.0, -0.42 * s, 0.0], "radius": 0.08 * s } } },
        // Extended colliders, each with the core shape a reader without them falls back to: a
        // plane behind the back the ponytail stays behind, a ball round the hips the tail stays in.
        { "node": chest_again?, "shape": { "sphere": { "offset": [0.0, 0.1 * s, -0.13 * s], "radius": 0.0 } },
          "extensions": { EXTENDED: { "specVersion": "1.0",
            "shape": { "plane": { "offset": [0.0, 0.1 * s, -0.13 * s], "normal": [0.0, 0.0, -1.0] } } } } },
        { "node": hips_again?, "shape": { "sphere": { "offset": [0.0, 0.0, 0.0], "radius": 0.3 * s } },
          "extensions": { EXTENDED: { "specVersion": "1.0",
            "shape": { "sphere": { "offset": [0.0, 0.0, 0.0], "radius": 0.3 * s, "inside": true } } } } },
    ]);
    let hips = hips?;
    let joints = |chain: &[usize], settings: &[(f64, f64, f64, f64)]| -> Value {
        chain
            .iter()
            .enumerate()
            .map(|(k, &node)| match settings.get(k) {
                Some(&(stiffness, gravity, drag, hit)) => json!({
                    "node": node, "stiffness": stiffness, "gravityPower": gravity, "gravityDir": [0.0, -1.0, 0.0],
                    "dragForce": drag, "hitRadius": hit * s
                }),
                None => json!({ "node": node }),
            })
            .collect()
    };
    json["extensions"] = json!({
        "VRMC_vrm": { "specVersion": "1.0", "humanoid": { "humanBones": bones } },
        "VRMC_springBone": {
            "specVersion": "1.0",
            "colliders": colliders,
            "colliderGroups": [
                { "name": "head", "colliders": [0, 1] },
                { "name": "body", "colliders": [2, 6] },
                { "name": "legs", "colliders": [3, 4, 5, 7] }
            ],
            "springs": [
                { "name": "ponytail", "colliderGroups": [0, 1],
                  "joints": joints(&chains[0], &[(0.6, 2.0, 0.4, 0.02), (0.5, 2.0, 0.35, 0.025), (0.4, 2.2, 0.3, 0.03)]) },
                { "name": "lock", "colliderGroups": [0], "center": hips,
                  "joints": joints(&chains[1], &[(2.0, 0.5, 0.5, 0.01), (1.5, 0.5, 0.5, 0.01)]) },
                { "name": "tail", "colliderGroups": [2],
                  "joints": joints(&chains[2], &[(0.3, 2.5, 0.2, 0.03), (0.3, 2.5, 0.2, 0.03)]) }
            ]
        }
    });
    json["extensionsUsed"] = json!(["VRMC_vrm", "VRMC_springBone", EXTENDED]);
    Ok(json)
}

/// As VRM 0.x (already turned, with its table): `secondaryAnimation`'s bone groups (each
/// strand's first node: its whole chain swings, the last bone 7 cm past its node).
fn secondary(mut json: Value, variant: &Variant, chains: &[Vec<usize>]) -> Result<Value> {
    let s = variant.size;
    let [hips, neck, head, thigh_l, thigh_r] = [0, 3, 4, 11, 15].map(|j| joint(&json, variant, j));
    let sphere =
        |x: f64, y: f64, z: f64, r: f64| json!({ "offset": { "x": x * s, "y": y * s, "z": z * s }, "radius": r * s });
    let group = |comment: &str,
                 (stiffness, gravity, drag, hit): (f64, f64, f64, f64),
                 center: i64,
                 root: usize,
                 colliders: &[usize]| {
        json!({
            "comment": comment, "stiffiness": stiffness, "gravityPower": gravity,
            "gravityDir": { "x": 0.0, "y": -1.0, "z": 0.0 }, "dragForce": drag, "center": center,
            "hitRadius": hit * s, "bones": [root], "colliderGroups": colliders
        })
    };
    let hips = hips?;
    json["extensions"]["VRM"]["secondaryAnimation"] = json!({
        "colliderGroups": [
            { "node": head?, "colliders": [sphere(0.0, 0.1, -0.01, 0.13)] },
            { "node": neck?, "colliders": [sphere(0.0, 0.04, 0.0, 0.07)] },
            { "node": hips, "colliders": [sphere(0.0, 0.0, 0.0, 0.12)] },
            { "node": thigh_l?, "colliders": [sphere(0.0, -0.1, 0.0, 0.08), sphere(0.0, -0.25, 0.0, 0.08)] },
            { "node": thigh_r?, "colliders": [sphere(0.0, -0.1, 0.0, 0.08), sphere(0.0, -0.25, 0.0, 0.08)] }
        ],
        "boneGroups": [
            group("ponytail", (0.6, 2.0, 0.4, 0.02), -1, chains[0][0], &[0, 1]),
            group("lock", (2.0, 0.5, 0.5, 0.01), i64::try_from(hips)?, chains[1][0], &[0]),
            group("tail", (0.3, 2.5, 0.2, 0.03), -1, chains[2][0], &[2, 3, 4])
        ]
    });
    Ok(json)
}
