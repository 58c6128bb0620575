//! A model's sidecar, `<name>.prop.toml` next to `<name>.glb` / `.gltf`: its role in the town,
//! its units, and which of its nodes and clips the simulation drives. Read and checked
//! against the model by the same function for the game's loader and `cargo xtask
//! check-assets`; a bad sidecar is refused like a bad model (the last good version stays).
//!
//! ```toml
//! role = "car"                   # a role the host takes: the game's kinds' and `ambient`
//! units = 0.01                   # metres per model unit (default: the role's, or fitted)
//! clip = "Idle"                  # ambient: the clip the lot loops (default: the first)
//! material_variants = ["taxi", "police"]   # the liveries its props wear (default: its own
//!                                          # materials and every variant, spread)
//!
//! [nodes]                        # parts the simulation turns
//! wheels = ["wheel_l", "wheel_r", "rear_l", "rear_r"]   # car: spin with speed
//! steer = ["pivot_l", "pivot_r"]                        # car: steer with the road
//! # windmill: nacelle = "head" (yaws into the wind), rotor = "spinner" (follows it)
//!
//! [clips]                        # clips played on simulation states
//! # traffic_light: green, amber, red; animal: walk, run, idle; car: doors (opened when it stops)
//!
//! [humanoid]                     # a person's bones, where their names are none the game knows
//! hips = "pelvis_jnt"            # VRM's bone names: hips, spine, chest, neck, head,
//! leftUpperLeg = "thigh_L_jnt"   # leftUpperArm, ..., leftUpperLeg, leftLowerLeg, leftFoot, ...
//! ```

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use props_anim::Model;
use props_anim::humanoid::{BONES, BoneMap, is_other_vrm_bone};
use props_crowd::Bindings;
use serde::Deserialize;

/// The code of every sidecar error.
pub const SIDECAR_CODE: &str = "PROPS_SIDECAR";
/// Largest sidecar read, bytes.
const MAX_BYTES: u64 = 64 * 1024;
/// Model units per metre allowed for `units`, each way.
const UNITS_RANGE: (f32, f32) = (1e-4, 1e4);

/// A role a sidecar may give its model (`role = "car"`): what shows models of that role
/// declares it (a scene's prop kinds, through the host), with the node parts and clip states
/// the simulation drives for it. The sidecar's `[nodes]` and `[clips]` may name only those.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Role {
    /// Its name in a sidecar.
    pub name: &'static str,
    /// The node parts the simulation drives, and how many nodes each takes (`None`: any
    /// number, at least one).
    pub parts: &'static [(&'static str, Option<usize>)],
    /// The clip states the simulation plays.
    pub states: &'static [&'static str],
}

/// The role of a model that stands on its own and loops a clip (the sidecar's `clip`): what a
/// host shows mods that no kind takes.
pub const AMBIENT: Role = Role { name: "ambient", parts: &[], states: &[] };

/// The state of a role whose models walk (people, animals): only theirs have bones a
/// `[humanoid]` table names.
const WALK: &str = "walk";

/// A checked sidecar: every name in it exists in its model.
#[derive(Clone, Debug, PartialEq)]
pub struct Sidecar {
    /// The model's role (one of the roles it was read against).
    pub role: &'static str,
    /// Metres per model unit, if given.
    pub units: Option<f32>,
    /// The clip an ambient model loops, by index.
    pub clip: Option<usize>,
    /// Its names for the parts (nodes) and states (clips) the host drives, its humanoid bones
    /// and its liveries (material variants), each checked against the model.
    pub bindings: Bindings,
}

/// Why a sidecar was refused: where in it (a JSON-pointer-like path of its keys) and what to
/// do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SidecarError {
    /// The sidecar file.
    pub file: String,
    /// `/nodes/wheels/1` and the like, or empty for the whole file.
    pub pointer: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl std::fmt::Display for SidecarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.file)?;
        if !self.pointer.is_empty() {
            write!(f, "{}: ", self.pointer)?;
        }
        write!(f, "error[{SIDECAR_CODE}]: {}", self.message)
    }
}

impl std::error::Error for SidecarError {}

/// One name or several, as a sidecar may write a part's nodes.
#[derive(Deserialize)]
#[serde(untagged)]
enum Names {
    One(String),
    Many(Vec<String>),
}

/// The sidecar as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    role: String,
    units: Option<f32>,
    clip: Option<String>,
    #[serde(default)]
    nodes: BTreeMap<String, Names>,
    #[serde(default)]
    clips: BTreeMap<String, String>,
    #[serde(default)]
    humanoid: BTreeMap<String, String>,
    material_variants: Option<Vec<String>>,
}

/// The keys of a sidecar outside its tables.
const TOP_LEVEL_KEYS: &[&str] = &["role", "units", "clip", "material_variants"];

/// What to say of `key`, read inside `[table]`, when it is a top-level key written after the
/// table's header (TOML puts every key below a header into that table): move it up.
fn misplaced(key: &str, table: &str) -> String {
    match TOP_LEVEL_KEYS.contains(&key) {
        true => format!(
            "; `{key}` is a top-level key written below `[{table}]`, which takes every key after it: move it above \
             the first `[table]`"
        ),
        false => String::new(),
    }
}

/// The sidecar of the model at `model_path`: `<stem>.prop.toml` beside it.
#[must_use]
pub fn path_for(model_path: &Path) -> PathBuf {
    let stem = model_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    model_path.with_file_name(format!("{stem}.prop.toml"))
}

/// Reads and checks the sidecar of the model at `model_path` (shown as `shown` in errors)
/// against `model` and the `roles` a host takes: `None` when there is none. Only a regular
/// file of at most 64 KiB is read.
///
/// # Errors
/// When the sidecar cannot be read, is not valid, or names what the model lacks.
pub fn read(model_path: &Path, shown: &Path, model: &Model, roles: &[Role]) -> Result<Option<Sidecar>, SidecarError> {
    let path = path_for(model_path);
    let shown = path_for(shown).display().to_string();
    let error = |message: String| SidecarError { file: shown.clone(), pointer: String::new(), message };
    let metadata = match std::fs::symlink_metadata(&path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(error(format!("cannot be read: {e}"))),
    };
    if !metadata.is_file() {
        return Err(error("is not a regular file; a sidecar must be a plain file beside its model".into()));
    }
    if metadata.len() > MAX_BYTES {
        return Err(error(format!("is {} bytes; a sidecar may have at most {MAX_BYTES}", metadata.len())));
    }
    let mut text = String::new();
    std::fs::File::open(&path)
        .and_then(|file| file.take(MAX_BYTES).read_to_string(&mut text))
        .map_err(|e| error(format!("cannot be read as UTF-8 text: {e}")))?;
    parse(&text, model, roles).map(Some).map_err(|(pointer, message)| SidecarError { file: shown, pointer, message })
}

/// A person's bones in `model` as a host finds them: by the file's table or their names, and
/// as its `sidecar`'s `[humanoid]` table gives them, where it has one ([`read`] it once, and
/// take its `units` too).
#[must_use]
pub fn bone_map(sidecar: Option<&Sidecar>, model: &Model) -> BoneMap {
    let table = sidecar.map(|s| s.bindings.bone_map(model.rig()));
    table.and_then(Result::ok).unwrap_or_else(|| BoneMap::find(model.rig()))
}

/// Parses and checks a sidecar's text against `model` and `roles`; errors are
/// `(pointer, message)`.
fn parse(text: &str, model: &Model, roles: &[Role]) -> Result<Sidecar, (String, String)> {
    let raw: Raw = toml::from_str(text).map_err(|e| toml_error(text, &e, roles))?;
    let Some(role) = roles.iter().find(|r| r.name == raw.role) else {
        let known: Vec<&str> = roles.iter().map(|r| r.name).collect();
        return Err(("/role".to_owned(), format!("unknown role `{}` (the roles: {})", raw.role, list(&known))));
    };
    if let Some(units) = raw.units
        && !(UNITS_RANGE.0..=UNITS_RANGE.1).contains(&units)
    {
        let message = format!("{units} metres per unit is out of range: give 1 for metres, 0.01 for centimetres");
        return Err(("/units".to_owned(), message));
    }
    let mut nodes = BTreeMap::new();
    let parts = role.parts;
    for (part, names) in raw.nodes {
        let Some(&(_, count)) = parts.iter().find(|(p, _)| *p == part) else {
            let known: Vec<&str> = parts.iter().map(|(p, _)| *p).collect();
            let message = format!(
                "a {} has no part `{part}` (its parts: {}){}",
                role.name,
                list(&known),
                misplaced(&part, "nodes")
            );
            return Err(((format!("/nodes/{part}")), message));
        };
        let names = match names {
            Names::One(name) => vec![name],
            Names::Many(names) => names,
        };
        if names.is_empty() || count.is_some_and(|c| c != names.len()) {
            let wanted = count.map_or_else(|| "at least one node".to_owned(), |c| format!("{c} nodes"));
            return Err(((format!("/nodes/{part}")), format!("`{part}` takes {wanted}, not {}", names.len())));
        }
        for (i, name) in names.iter().enumerate() {
            if model.rig().find(name).is_none() {
                let known: Vec<&str> = model.rig().nodes().filter_map(|n| model.rig().name(n)).collect();
                let message = format!("the model has no node `{name}` (its nodes: {})", list(&known));
                return Err(((format!("/nodes/{part}/{i}")), message));
            }
        }
        nodes.insert(part, names);
    }
    let clip_names: Vec<&str> = model.clips().iter().filter_map(|c| c.name()).collect();
    let missing_clip = |name: &str| format!("the model has no clip `{name}` (its clips: {})", list(&clip_names));
    let states = role.states;
    for (state, name) in &raw.clips {
        if !states.contains(&state.as_str()) {
            let message = format!(
                "a {} plays no clip on `{state}` (its states: {}){}",
                role.name,
                list(states),
                misplaced(state, "clips")
            );
            return Err(((format!("/clips/{state}")), message));
        }
        if model.find_clip(name).is_none() {
            return Err(((format!("/clips/{state}")), missing_clip(name)));
        }
    }
    let clip = match raw.clip {
        Some(_) if role.name != AMBIENT.name => {
            let message = format!(
                "`clip` is the clip an ambient model loops; a {} plays clips by state: name them under \
                 `[clips]` (its states: {})",
                role.name,
                list(states)
            );
            return Err(("/clip".to_owned(), message));
        }
        Some(name) => Some(model.find_clip(&name).ok_or_else(|| ("/clip".to_owned(), missing_clip(&name)))?),
        None => None,
    };
    // The bones are those of legs that walk: retargeted walks, planted feet.
    if !raw.humanoid.is_empty() && !states.contains(&WALK) {
        let message = format!(
            "`[humanoid]` names the bones of a walking person's legs; a {} does not walk (its states: {}): leave the \
             table out, or give the model a role that walks",
            role.name,
            list(states)
        );
        return Err(("/humanoid".to_owned(), message));
    }
    for (bone, node) in &raw.humanoid {
        if !BONES.iter().any(|b| b.name() == bone) && !is_other_vrm_bone(bone) {
            let known: Vec<&str> = BONES.iter().map(|b| b.name()).collect();
            return Err((
                format!("/humanoid/{bone}"),
                format!("no humanoid bone is named `{bone}` (the bones: {})", list(&known)),
            ));
        }
        if model.rig().find(node).is_none() {
            let known: Vec<&str> = model.rig().nodes().filter_map(|n| model.rig().name(n)).collect();
            return Err((
                format!("/humanoid/{bone}"),
                format!("the model has no node `{node}` (its nodes: {})", list(&known)),
            ));
        }
    }
    if !raw.humanoid.is_empty() {
        // Each bone its own node, in a person's order, left on the left.
        let given = raw.humanoid.iter().map(|(bone, node)| (bone.as_str(), node.as_str()));
        BoneMap::find(model.rig())
            .with_names(model.rig(), given)
            .map_err(|e| ("/humanoid".to_owned(), e.to_string()))?;
    }
    if raw.material_variants.as_ref().is_some_and(Vec::is_empty) {
        let message = "names no material variant: list at least one, or leave the line out (its own materials and every \
                       variant)";
        return Err(("/material_variants".to_owned(), message.to_owned()));
    }
    let material_variants = raw.material_variants.unwrap_or_default();
    for (i, name) in material_variants.iter().enumerate() {
        if model.material_variant(name).is_none() {
            let known: Vec<&str> = model.material_variants().iter().map(|v| v.name.as_str()).collect();
            let message = format!(
                "the model has no material variant `{name}` (its material variants, KHR_materials_variants: {}); a \
                 variant that maps no part shows the model's own materials",
                list(&known)
            );
            return Err((format!("/material_variants/{i}"), message));
        }
    }
    Ok(Sidecar {
        role: role.name,
        units: raw.units,
        clip,
        bindings: Bindings { nodes, clips: raw.clips, humanoid: raw.humanoid, material_variants },
    })
}

/// Where in `text` a TOML error is (`line 2, column 1`) and what it says, with the fix for a
/// missing `role` (the roles a sidecar may give); `(pointer, message)`.
fn toml_error(text: &str, error: &toml::de::Error, roles: &[Role]) -> (String, String) {
    // A top-level key written below a table (often `units`, appended last): that says it all.
    let tables = text.parse::<toml::Table>().ok();
    let below = tables.iter().flat_map(|t| t.iter()).find_map(|(table, value)| {
        let key = value.as_table()?.keys().find(|key| TOP_LEVEL_KEYS.contains(&key.as_str()))?;
        Some((table.clone(), key.clone()))
    });
    if let Some((table, key)) = below {
        return (format!("/{table}/{key}"), misplaced(&key, &table).trim_start_matches("; ").to_owned());
    }
    let message = error.message().trim_end();
    if message.contains("missing field `role`") {
        let known: Vec<&str> = roles.iter().map(|r| r.name).collect();
        let message = format!(
            "no `role`: a sidecar's first line gives the model's role, as `role = \"{}\"` (the roles: {})",
            known.iter().find(|&&r| r == AMBIENT.name).or(known.first()).copied().unwrap_or(AMBIENT.name),
            list(&known)
        );
        return ("/role".to_owned(), message);
    }
    let at = error.span().map(|span| {
        // A span starts on a character, but a bad one must not panic the mods loader.
        let start = (0..=span.start.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |n| n + 1)..].chars().count() + 1;
        format!("line {line}, column {column}: ")
    });
    (String::new(), format!("{}{}", at.unwrap_or_default(), message.replace('\n', " ")))
}

/// Names for a message, the first 20.
fn list(names: &[&str]) -> String {
    match names.len() {
        0 => "none".to_owned(),
        n if n > 20 => format!("{}, and {} more", names[..20].join(", "), n - 20),
        _ => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// Roles as a town's kinds declare them.
    const ROLES: [Role; 3] = [
        Role { name: "car", parts: &[("wheels", None), ("steer", Some(2))], states: &["doors"] },
        Role { name: "animal", parts: &[], states: &["walk", "run", "idle"] },
        AMBIENT,
    ];

    fn fox() -> Arc<Model> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/Fox.glb");
        Arc::new(props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the Fox").model)
    }

    #[test]
    fn a_humanoid_table_names_bones_and_nodes_that_exist() {
        let text = "role = \"animal\"\n[humanoid]\nhips = \"b_Hip_01\"\nleftUpperLeg = \"b_LeftLeg01_015\"\n";
        let sidecar = parse(text, &fox(), &ROLES).expect("valid");
        assert_eq!(sidecar.bindings.humanoid["hips"], "b_Hip_01");
        let bone =
            parse("role = \"animal\"\n[humanoid]\ntail = \"b_Hip_01\"\n", &fox(), &ROLES).expect_err("no such bone");
        assert_eq!(bone.0, "/humanoid/tail");
        let node =
            parse("role = \"animal\"\n[humanoid]\nhips = \"pelvis\"\n", &fox(), &ROLES).expect_err("no such node");
        assert!(node.1.contains("no node `pelvis`"), "{}", node.1);
        // VRM's bones that no walk moves are taken (their nodes checked) and passed over.
        let text = "role = \"animal\"\n[humanoid]\nhips = \"b_Hip_01\"\nleftShoulder = \"b_Spine01_02\"\n";
        assert!(parse(text, &fox(), &ROLES).is_ok());
        let text = "role = \"animal\"\n[humanoid]\nleftThumbProximal = \"thumb\"\n";
        assert_eq!(parse(text, &fox(), &ROLES).expect_err("no such node").0, "/humanoid/leftThumbProximal");
        let text = "role = \"animal\"\n[humanoid]\nhips = \"b_Hip_01\"\nleftUpperLeg = \"b_Hip_01\"\n";
        let shared = parse(text, &fox(), &ROLES).expect_err("one node for two bones");
        assert_eq!(shared.0, "/humanoid");
        assert!(shared.1.contains("give each bone its own node"), "{}", shared.1);
    }

    #[test]
    fn a_good_sidecar_binds_names_the_model_has() {
        let text = "role = \"animal\"\nunits = 0.01\n[clips]\nwalk = \"Run\"\nrun = \"Walk\"\n";
        let sidecar = parse(text, &fox(), &ROLES).expect("valid");
        assert_eq!(sidecar.role, "animal");
        assert_eq!(sidecar.units, Some(0.01));
        assert_eq!(sidecar.bindings.clips["walk"], "Run");
        let ambient = parse("role = \"ambient\"\nclip = \"Survey\"\n[nodes]\n", &fox(), &ROLES).expect("valid");
        assert_eq!(ambient.clip, Some(0));
    }

    #[test]
    fn errors_say_where_and_what_to_do() {
        let fox = fox();
        let cases = [
            ("role = \"truck\"", "/role", "unknown role `truck` (the roles: car, animal, ambient)"),
            ("role = \"car\"\nwheels = 4", "", "line 2, column 1: unknown field `wheels`"),
            ("units = 0.5", "/role", "as `role = \"ambient\"` (the roles: car, animal, ambient)"),
            ("role = \"car\"\nunits = \"big\"", "", "line 2, column 9: invalid type: string \"big\""),
            ("role = \"car\" # été\né = 1", "", "line 2, column 1: "),
            ("role = \"car\"\nunits = \"été\" 5", "", "line 2, column 15: "),
            ("role = \"car\"\nunits = 0", "/units", "give 1 for metres"),
            ("role = \"car\"\n[nodes]\nwheel = \"b_Tail01_012\"", "/nodes/wheel", "its parts: wheels, steer"),
            ("role = \"car\"\n[nodes]\nsteer = \"b_Tail01_012\"", "/nodes/steer", "takes 2 nodes, not 1"),
            ("role = \"car\"\n[nodes]\nwheels = [\"b_Tail01_012\", \"axle\"]", "/nodes/wheels/1", "no node `axle`"),
            ("role = \"animal\"\n[clips]\nfly = \"Run\"", "/clips/fly", "its states: walk, run, idle"),
            ("role = \"animal\"\n[clips]\nwalk = \"Trot\"", "/clips/walk", "its clips: Survey, Walk, Run"),
            ("role = \"ambient\"\nclip = \"Sleep\"", "/clip", "no clip `Sleep`"),
            ("role = \"animal\"\nclip = \"Walk\"", "/clip", "under `[clips]` (its states: walk, run, idle)"),
            ("role = \"car\"\n[humanoid]\nhips = \"b_Hip_01\"", "/humanoid", "a car does not walk (its states: doors)"),
            // A top-level key written below a table is read in it: move it up.
            (
                "role = \"car\"\n[nodes]\nmaterial_variants = [\"taxi\"]",
                "/nodes/material_variants",
                "`material_variants` is a top-level key written below `[nodes]`",
            ),
            ("role = \"ambient\"\n[clips]\nclip = \"Walk\"", "/clips/clip", "move it above the first `[table]`"),
            ("role = \"animal\"\n[clips]\nwalk = \"Walk\"\nunits = 0.01", "/clips/units", "`units` is a top-level key"),
            ("[nodes]\nrole = \"car\"", "/nodes/role", "`role` is a top-level key written below `[nodes]`"),
        ];
        for (text, pointer, says) in cases {
            let (at, message) = parse(text, &fox, &ROLES).expect_err(text);
            assert_eq!(at, pointer, "{text}: {message}");
            assert!(message.contains(says), "{text}: {message}");
        }
    }

    /// A sidecar's liveries name the model's material variants, each as often as its props
    /// should wear it.
    #[test]
    fn material_variants_name_the_model_s_own() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/material_variants/material_variants.gltf");
        let car = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the car").model;
        let text = "role = \"car\"\nmaterial_variants = [\"taxi\", \"police\", \"taxi\"]\n";
        let sidecar = parse(text, &car, &ROLES).expect("valid");
        assert_eq!(sidecar.bindings.material_variants, ["taxi", "police", "taxi"]);
        assert!(parse("role = \"car\"", &car, &ROLES).expect("valid").bindings.material_variants.is_empty());
        let (at, message) =
            parse("role = \"car\"\nmaterial_variants = [\"taxi\", \"bus\"]", &car, &ROLES).expect_err("no bus");
        assert_eq!(at, "/material_variants/1");
        assert!(
            message.contains("no material variant `bus` (its material variants, KHR_materials_variants: taxi, police)")
        );
        let (at, message) = parse("role = \"car\"\nmaterial_variants = []", &car, &ROLES).expect_err("none");
        assert_eq!(at, "/material_variants");
        assert!(message.contains("leave the line out"), "{message}");
        let (at, message) =
            parse("role = \"animal\"\nmaterial_variants = [\"taxi\"]", &fox(), &ROLES).expect_err("the fox has none");
        assert_eq!(
            (at.as_str(), message.contains("its material variants, KHR_materials_variants: none")),
            ("/material_variants/0", true)
        );
    }

    #[test]
    fn the_file_beside_the_model_is_read_and_named_in_errors() {
        let dir = std::env::temp_dir().join(format!("props-sidecar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("folder");
        let model = dir.join("fox.glb");
        assert_eq!(read(&model, Path::new("mods/fox.glb"), &fox(), &ROLES), Ok(None), "no sidecar");
        std::fs::write(dir.join("fox.prop.toml"), "role = \"car\"\n[nodes]\nsteer = [\"hub\", \"b_Tail01_012\"]\n")
            .expect("write");
        let error = read(&model, Path::new("mods/fox.glb"), &fox(), &ROLES).expect_err("no hub");
        assert_eq!(
            error.to_string().split(": ").take(3).collect::<Vec<_>>(),
            ["mods/fox.prop.toml", "/nodes/steer/0", "error[PROPS_SIDECAR]"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
