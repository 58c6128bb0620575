//! `cargo xtask gen-assets`: the demo's base models (windmill, car, traffic light, building, bus,
//! street lamp, pedestrian) as small, untextured glTF 2.0 binaries in `assets/`.
//!
//! Each model is a few flat-shaded convex solids ([`shapes`]) on named nodes, animated by whole-node
//! transforms, but for the pedestrian: its boxes are skinned to a humanoid skeleton. The game
//! finds the nodes and clips by the names each asset module lists in its `NODES` and `CLIPS`. Output is deterministic (the test-model
//! [`GltfBuilder`]: sorted JSON keys, shortest-`f32` numbers), so regenerating gives identical
//! bytes, which a test checks against the committed files.

mod building;
mod bus;
mod car;
mod constraint_avatar;
mod pedestrian;
mod rig_variants;
mod shapes;
mod spring_avatars;
mod strands;
mod street_lamp;
mod traffic_light;
mod windmill;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};

use crate::test_models::builder::{
    Container, GltfBuilder, Interp, Material, Path as Target, Primitive, channel, to_f32,
};
use crate::test_models::math::{self, Quat};
use shapes::Geometry;

/// Value of `asset.generator` in every asset.
const GENERATOR: &str = "props xtask gen-assets";

/// `roughnessFactor` of every material (all are dielectric: `metallicFactor` 0).
const ROUGHNESS: f32 = 0.8;

/// One generated asset.
struct Asset {
    /// File stem (`<stem>.glb`).
    stem: &'static str,
    /// Builds the asset.
    build: fn() -> Result<GltfBuilder>,
    /// Node names the game looks up, in lists (a bus has a car's nodes and its doors).
    nodes: &'static [&'static [&'static str]],
    /// Animation (clip) names the game plays.
    clips: &'static [&'static str],
}

/// Every asset, in output order.
const ASSETS: &[Asset] = &[
    Asset { stem: "windmill", build: windmill::build, nodes: &[windmill::NODES], clips: windmill::CLIPS },
    Asset { stem: "car", build: car::build, nodes: &[car::NODES], clips: car::CLIPS },
    Asset {
        stem: "traffic_light",
        build: traffic_light::build,
        nodes: &[traffic_light::NODES],
        clips: traffic_light::CLIPS,
    },
    Asset { stem: "building", build: building::build, nodes: &[building::NODES], clips: building::CLIPS },
    Asset { stem: "bus", build: bus::build, nodes: &[car::NODES, bus::DOORS], clips: bus::CLIPS },
    Asset { stem: "street_lamp", build: street_lamp::build, nodes: &[street_lamp::NODES], clips: street_lamp::CLIPS },
    Asset { stem: "pedestrian", build: pedestrian::build, nodes: &[pedestrian::NODES], clips: pedestrian::CLIPS },
];

/// Writes every asset as `<stem>.glb` into `out_dir`; returns the paths written, in a fixed order.
pub fn generate(out_dir: &Path) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let mut written = Vec::new();
    for asset in ASSETS {
        for (name, bytes) in glb(asset)? {
            let path = out_dir.join(name);
            fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
            written.push(path);
        }
    }
    Ok(written)
}

/// The humanoids of other rigs the retargeting is tested on (`tests/models/humanoids/`): the
/// pedestrian's body on Mixamo's, Blender's metarig's, 3ds Max's Biped's and Character
/// Creator's skeletons, other sizes, units, rest poses and hierarchies, without clips, written
/// as `<stem>.glb` into `out_dir`; and a VRM 0.x avatar
/// whose bones only its VRM table names, facing -Z as those do ([`vrm0`]), as `<stem>.vrm`;
/// and two avatars whose hair and tail swing on spring bones ([`spring_avatars`]), and one
/// whose twist bones, eyes and sleeves follow other bones ([`constraint_avatar`]).
pub fn humanoids(out_dir: &Path) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let mut written = Vec::new();
    let variants = [
        &rig_variants::MIXAMO,
        &rig_variants::METARIG,
        &rig_variants::VRM0,
        &rig_variants::BIPED,
        &rig_variants::CHARACTER_CREATOR,
    ];
    for variant in variants {
        let (builder, _, _) =
            pedestrian::build_variant(variant, &[]).with_context(|| format!("building {}", variant.stem))?;
        for (name, bytes) in builder.finish(variant.stem, Container::Glb)? {
            let (name, bytes) = match variant.stem == rig_variants::VRM0.stem {
                true => (format!("{}.vrm", variant.stem), vrm0(&bytes, &variant.names)?),
                false => (name, bytes),
            };
            let path = out_dir.join(name);
            fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
            written.push(path);
        }
    }
    for (name, bytes) in spring_avatars::build()?.into_iter().chain([constraint_avatar::build()?]) {
        let path = out_dir.join(name);
        fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// The GLB `bytes` of a person facing +Z (its joints named `names`, in the bones' order) as a
/// VRM 0.x avatar: turned half round about +Y by a new root, to face -Z as VRM 0.x's do, with
/// the extension's table naming its bones.
pub(super) fn vrm0(bytes: &[u8], names: &[&str; 19]) -> Result<Vec<u8>> {
    let chunks = props_gltf::glb::read(bytes).0.context("not a GLB file")?;
    let mut json: Value = serde_json::from_slice(chunks.json)?;
    let nodes = json["nodes"].as_array().context("nodes")?;
    let node = |name: &str| nodes.iter().position(|n| n["name"] == name).context("a joint");
    let bones = names
        .iter()
        .zip(props_anim::humanoid::BONES)
        .map(|(name, bone)| Ok(json!({ "bone": bone.name(), "node": node(name)? })))
        .collect::<Result<Vec<Value>>>()?;
    let turned =
        json!({ "name": "VRM0 facing", "rotation": [0.0, 1.0, 0.0, 0.0], "children": json["scenes"][0]["nodes"] });
    let turn = nodes.len();
    json["nodes"].as_array_mut().context("nodes")?.push(turned);
    json["scenes"][0]["nodes"] = json!([turn]);
    json["extensions"] = json!({ "VRM": { "specVersion": "0.0", "humanoid": { "humanBones": bones } } });
    json["extensionsUsed"] = json!(["VRM"]);
    props_gltf::glb::write(json.to_string().as_bytes(), chunks.bin).context("writing the GLB")
}

/// Builds `asset` and serializes it as `(file name, bytes)`, after checking that it has the
/// nodes and clips the game looks up.
fn glb(asset: &Asset) -> Result<Vec<(String, Vec<u8>)>> {
    let builder = (asset.build)().with_context(|| format!("building {}", asset.stem))?;
    let files = builder.finish(asset.stem, Container::Glb)?;
    for (name, bytes) in &files {
        check_names(asset, bytes).with_context(|| format!("checking {name}"))?;
    }
    Ok(files)
}

/// Checks that the GLB `bytes` name every node in `asset.nodes` exactly once and have exactly the
/// animations `asset.clips`, in that order.
fn check_names(asset: &Asset, bytes: &[u8]) -> Result<()> {
    let root = glb_json(bytes)?;
    let names = |key: &str| -> Vec<String> {
        let items = root.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        items.iter().filter_map(|item| item.get("name")?.as_str().map(str::to_owned)).collect()
    };
    let nodes = names("nodes");
    for wanted in asset.nodes.iter().copied().flatten() {
        let count = nodes.iter().filter(|n| n == wanted).count();
        ensure!(count == 1, "node `{wanted}` appears {count} times");
    }
    let clips = names("animations");
    ensure!(clips == asset.clips, "animations are {clips:?}, expected {:?}", asset.clips);
    Ok(())
}

/// The parsed JSON chunk of a GLB file.
fn glb_json(bytes: &[u8]) -> Result<Value> {
    let chunks = props_gltf::glb::read(bytes).0.context("not a GLB file")?;
    Ok(serde_json::from_slice(chunks.json)?)
}

/// An empty asset stamped with this generator's name.
fn builder() -> GltfBuilder {
    let mut b = GltfBuilder::new();
    b.set_generator(GENERATOR);
    b
}

/// Adds an opaque, non-metallic material of linear colour `rgb`.
fn material(b: &mut GltfBuilder, name: &str, rgb: [f32; 3]) -> usize {
    let [r, g, bl] = rgb;
    b.material(&Material::new(name, [r, g, bl, 1.0], ROUGHNESS))
}

/// Adds a metal of linear colour `rgb`, `metallic` (1: bare metal; between: metallic paint)
/// and `roughness`.
fn metal(b: &mut GltfBuilder, name: &str, rgb: [f32; 3], (metallic, roughness): (f32, f32)) -> usize {
    let [r, g, bl] = rgb;
    b.material(&Material::new(name, [r, g, bl, 1.0], roughness).metallic(metallic))
}

/// Adds glass: smooth, tinted `rgb`, blended over what is behind it at `alpha`.
fn glass(b: &mut GltfBuilder, name: &str, rgb: [f32; 3], alpha: f32) -> usize {
    let [r, g, bl] = rgb;
    b.material(&Material::new(name, [r, g, bl, 1.0], 0.05).blend(alpha))
}

/// The `night` clip (see `props_scene::night`): over its one second, the emissive factor of
/// each of `glows`' materials rises LINEARly from black (time 0, day) to its colour (time 1,
/// night), and the intensity of each of `lights`' lights from 0 to its candela, through
/// `KHR_animation_pointer`.
fn night_clip(b: &mut GltfBuilder, glows: &[(usize, [f32; 3])], lights: &[(usize, f32)]) -> Result<()> {
    let input = b.times(&[0.0, 1.0])?;
    let mut channels = glows
        .iter()
        .map(|&(material, lit)| {
            let output = b.data(&[[0.0; 3], lit], false)?;
            let pointer = Target::Pointer(format!("/materials/{material}/emissiveFactor"));
            Ok(channel(0, pointer, Interp::Linear, input, output))
        })
        .collect::<Result<Vec<_>>>()?;
    for &(light, candela) in lights {
        let output = b.scalars(&[0.0, candela], false)?;
        channels.push(channel(0, light_intensity(light), Interp::Linear, input, output));
    }
    b.animation("night", &channels);
    Ok(())
}

/// The pointer to light `light`'s intensity.
fn light_intensity(light: usize) -> Target {
    Target::Pointer(format!("/extensions/KHR_lights_punctual/lights/{light}/intensity"))
}

/// Adds a spot light of linear colour `rgb`, dark (intensity 0: a clip lights it), with its
/// cone's inner and outer angles (radians) and its range (m).
fn spot_light(b: &mut GltfBuilder, name: &str, rgb: [f32; 3], cone: [f32; 2], range: f32) -> usize {
    b.light(serde_json::json!({
        "name": name, "type": "spot", "color": rgb, "intensity": 0.0, "range": range,
        "spot": { "innerConeAngle": cone[0], "outerConeAngle": cone[1] },
    }))
}

/// Adds a point light of linear colour `rgb`, dark (intensity 0: a clip lights it), reaching
/// `range` metres.
fn point_light(b: &mut GltfBuilder, name: &str, rgb: [f32; 3], range: f32) -> usize {
    b.light(serde_json::json!({ "name": name, "type": "point", "color": rgb, "intensity": 0.0, "range": range }))
}

/// `x` with rounding noise (|x| < 1e-9, e.g. `sin(pi)`) and negative zero replaced by 0.
fn snap(x: f64) -> f64 {
    if x.abs() < 1e-9 { 0.0 } else { x }
}

/// The accessors of one [`Geometry`] written to the buffer (several meshes may share them).
#[derive(Clone, Copy, Debug)]
struct Buffers {
    /// POSITION accessor.
    position: usize,
    /// NORMAL accessor.
    normal: usize,
    /// `u16` index accessor.
    indices: usize,
}

/// Writes `g`'s positions (with `min`/`max`), normals and `u16` indices.
fn buffers(b: &mut GltfBuilder, g: &Geometry) -> Result<Buffers> {
    let positions: Vec<[f32; 3]> = g.positions.iter().map(|p| to_f32(p.map(snap))).collect();
    let normals: Vec<[f32; 3]> = g.normals.iter().map(|n| to_f32(n.map(snap))).collect();
    let indices = g.indices.iter().map(|&i| u16::try_from(i)).collect::<Result<Vec<u16>, _>>()?;
    Ok(Buffers {
        position: b.positions(&positions)?,
        normal: b.vertex(&normals, false)?,
        indices: b.indices(&indices)?,
    })
}

/// Adds a mesh with one primitive per `(geometry, material)` part.
fn mesh(b: &mut GltfBuilder, name: &str, parts: &[(Buffers, usize)]) -> usize {
    let primitives: Vec<Primitive> = parts
        .iter()
        .map(|&(buffers, material)| {
            Primitive::new(buffers.position).attr("NORMAL", buffers.normal).indices(buffers.indices).material(material)
        })
        .collect();
    b.mesh(name, &primitives, None)
}

/// Writes each part's geometry and adds a mesh of them (see [`mesh`]).
fn solid_mesh(b: &mut GltfBuilder, name: &str, parts: &[(Geometry, usize)]) -> Result<usize> {
    let parts = parts.iter().map(|(g, material)| Ok((buffers(b, g)?, *material))).collect::<Result<Vec<_>>>()?;
    Ok(mesh(b, name, &parts))
}

/// Unit quaternion of `degrees` about `axis`, as stored (rounding noise snapped to 0).
fn rotation(axis: [f64; 3], degrees: f64) -> Quat {
    math::quat_axis_angle(axis, degrees).map(snap)
}

/// Rotations for one full turn about `axis` in 5 keys, 90 degrees apart (consecutive quaternions
/// 45 degrees apart on the 4-sphere, so shortest-path slerp follows the turn); `clockwise` (seen
/// from the tip of `axis`) negates the angles. The last key is the first orientation with its sign
/// flipped (360 degrees), so a looping clip wraps seamlessly.
fn turn_keys(axis: [f64; 3], clockwise: bool) -> Vec<Quat> {
    let sign = if clockwise { -1.0 } else { 1.0 };
    (0..=4u8).map(|k| rotation(axis, sign * 90.0 * f64::from(k))).collect()
}

/// LINEAR [`turn_keys`] spread over `period` seconds, as `(input, output)` accessors.
fn full_turn(b: &mut GltfBuilder, axis: [f64; 3], period: f32, clockwise: bool) -> Result<(usize, usize)> {
    let times: Vec<f32> = (0..=4u8).map(|k| period * f32::from(k) / 4.0).collect();
    let keys: Vec<[f32; 4]> = turn_keys(axis, clockwise).into_iter().map(to_f32).collect();
    Ok((b.times(&times)?, b.data(&keys, false)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_assets_are_small() {
        for asset in ASSETS {
            let first = glb(asset).expect("builds");
            assert_eq!(first, glb(asset).expect("builds"), "{} is not deterministic", asset.stem);
            let size: usize = first.iter().map(|(_, bytes)| bytes.len()).sum();
            // The pedestrian, skinned with four clips, is the largest at about 50 kB.
            assert!(size < 64_000, "{} is {size} bytes", asset.stem);
        }
    }

    #[test]
    fn names_the_game_relies_on_are_checked() {
        for asset in ASSETS {
            let files = glb(asset).expect("builds and has the names");
            assert_eq!(glb_json(&files[0].1).expect("GLB")["asset"]["generator"], GENERATOR);
            let renamed = Asset { nodes: &[&["no_such_node"]], ..*asset };
            assert!(check_names(&renamed, &files[0].1).is_err());
            let missing_clip = Asset { clips: &["no_such_clip"], ..*asset };
            assert!(check_names(&missing_clip, &files[0].1).is_err());
            if !asset.clips.is_empty() {
                let no_clips = Asset { clips: &[], ..*asset };
                assert!(check_names(&no_clips, &files[0].1).is_err(), "{}: clips must all be listed", asset.stem);
            }
        }
    }

    #[test]
    fn full_turn_keys_are_unit_and_less_than_180_degrees_apart() {
        for clockwise in [false, true] {
            let keys = turn_keys([0.0, 0.0, 1.0], clockwise);
            for q in &keys {
                assert!((q.iter().map(|c| c * c).sum::<f64>() - 1.0).abs() < 1e-12);
            }
            for pair in keys.windows(2) {
                let dot: f64 = pair[0].iter().zip(&pair[1]).map(|(a, b)| a * b).sum();
                assert!(dot > 0.7, "{pair:?}");
            }
            assert_eq!((keys[0], keys[4]), ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, -1.0]));
        }
    }

    #[test]
    fn committed_humanoids_are_what_the_generator_writes() {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/humanoids");
        let out = std::env::temp_dir().join(format!("props-gen-humanoids-{}", std::process::id()));
        for path in humanoids(&out).expect("generates") {
            let name = path.file_name().expect("file name");
            let expected = fs::read(committed.join(name)).expect("committed humanoid");
            assert!(
                fs::read(&path).expect("generated") == expected,
                "{name:?} differs: run `cargo xtask gen-humanoids`"
            );
        }
        fs::remove_dir_all(&out).expect("temporary folder removed");
    }

    #[test]
    fn committed_assets_are_what_the_generator_writes() {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
        let out = std::env::temp_dir().join(format!("props-gen-assets-{}", std::process::id()));
        for path in generate(&out).expect("generates") {
            let name = path.file_name().expect("file name");
            let expected = fs::read(committed.join(name)).expect("committed asset");
            let actual = fs::read(&path).expect("generated asset");
            assert!(actual == expected, "{name:?} differs from assets/: run `cargo xtask gen-assets`");
        }
        fs::remove_dir_all(&out).expect("temporary folder removed");
    }

    /// `assets/README.md` gives each asset's units and size (width x height x depth, metres,
    /// to the centimetre, over its rest pose and clips): what a host scales it by.
    #[test]
    fn the_readme_gives_each_assets_units_and_size() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets");
        let readme = fs::read_to_string(root.join("README.md")).expect("assets/README.md");
        let mut checked = 0;
        for line in readme.lines().filter(|l| l.starts_with("| `") && l.contains(" x ")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let (file, units, size) = (cells[1].trim_matches('`'), cells[2], cells[3]);
            let admitted = props_gltf::gate::admit_file(&root.join(file), &props_gltf::Limits::default()).expect(file);
            let extent = admitted.import.model.sampled_extent(8).expect("vertices");
            let scale: f32 = units.split_whitespace().next().and_then(|u| u.parse().ok()).expect("units, metres");
            let measured = (extent.max - extent.min) * scale;
            let stated: Vec<f32> =
                size.trim_end_matches(" m").split(" x ").map(|s| s.parse().expect("a size")).collect();
            let close = stated.iter().zip(measured.to_array()).all(|(s, m)| (s - m).abs() <= 0.01);
            assert!(close, "{file}: README says {size} at {units}, the model is {measured:.2} m");
            checked += 1;
        }
        assert_eq!(checked, 8, "one size row per asset, the fox's included");
    }
}
