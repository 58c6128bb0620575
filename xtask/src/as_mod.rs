//! A model as the game takes a mod (for `check-assets`, `thumbnails` and `preview`): the
//! gate's report, then its sidecar checked against it, then its place among the town's kinds
//! and its binding by the kind that shows it, each refusal the game's.

use std::path::Path;
use std::sync::Arc;

use props_anim::Model;
use props_crowd::PropModel;
use props_frame::ModelId;
use props_gltf::Limits;
use props_gltf::gate::{Refused, admit_file};
use props_gltf::validate::{Issue, Report};
use props_mods::{fitting, sidecar};
use props_scene::kinds::lot;
use props_scene::{Claim, KindAsset, Placement};

/// The gate's report on `file` (the same as the game's), then what the town does with it as a
/// mod: its sidecar checked against it, placed among the town's kinds and bound by the kind
/// that shows it (with the kind's own model before it when it adds one), each refusal the
/// game's (`PROPS_SIDECAR`, `PROPS_PLACE`, `PROPS_RIG`), and the model where the game loads it.
pub(crate) fn check(file: &Path, limits: &Limits) -> Checked {
    let admitted = match admit_file(file, limits) {
        Ok(admitted) => admitted,
        Err(refused) => return Checked { report: refused.report, model: None, shown: None, sidecar: None },
    };
    let mut report = admitted.report;
    let model = Arc::new(admitted.import.model);
    let refuse = |report: &mut Report, refused: Refused| {
        report.issues.extend(refused.report.issues);
        report.refused = true;
    };
    let (mut shown, mut read) = (None, None);
    match sidecar::read(file, file, &model, &sidecar_roles()) {
        Ok(sidecar) => {
            match place_and_bind(file, sidecar.as_ref(), &model) {
                Ok((warnings, at)) => {
                    report.issues.extend(warnings);
                    shown = Some(at);
                }
                Err((code, message)) => refuse(&mut report, Refused::one(file, code, "", message)),
            }
            read = sidecar;
        }
        Err(error) => {
            let message = format!("in {}: {}", error.file, error.message);
            refuse(&mut report, Refused::one(file, sidecar::SIDECAR_CODE, &error.pointer, message));
        }
    }
    let loads = !report.is_fatal();
    Checked { report, model: loads.then_some(model), shown, sidecar: read }
}

/// What [`check`] found of a file.
pub(crate) struct Checked {
    /// The gate's report, with the town's refusals.
    pub(crate) report: Report,
    /// The model, where the game loads it.
    pub(crate) model: Option<Arc<Model>>,
    /// Where the town shows it, where it does.
    pub(crate) shown: Option<Shown>,
    /// Its sidecar, where it has one that reads.
    pub(crate) sidecar: Option<sidecar::Sidecar>,
}

/// Where the town shows a mod.
pub(crate) struct Shown {
    /// As the game's list says it ([`props_scene::shown_at`]).
    pub(crate) at: String,
    /// The role of the kind that shows it.
    pub(crate) role: &'static str,
}

/// Places `model` (`file`, with its `sidecar`) among the town's kinds and binds it as the
/// kind that shows it would: the warnings of its place (fitted to it, a single pose looped on
/// the lot), and where it shows; or the code and message the game refuses it with.
fn place_and_bind(
    file: &Path,
    sidecar: Option<&sidecar::Sidecar>,
    model: &Arc<Model>,
) -> Result<(Vec<Issue>, Shown), (&'static str, String)> {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let kinds = props_scene::kinds::town();
    let assets: Vec<KindAsset> = kinds.iter().map(|kind| kind.asset()).collect();
    let claim = sidecar.map(|s| Claim { role: s.role, units: s.units, clip: s.clip, bindings: s.bindings.clone() });
    let Some(placement) = Placement::of(&stem, claim, model, &assets) else {
        return Err((props_mods::PLACE_CODE, "no prop kind shows models of its name or role".to_owned()));
    };
    let asset = &assets[placement.kind];
    // The kind's own model: bound before a mod that adds one, and what a mod's size is
    // measured against.
    let base = asset.stem.and_then(base_asset);
    let mut models = Vec::new();
    if let (true, Some(base)) = (placement.adds, &base) {
        models.push(PropModel::new(ModelId(0), Arc::clone(base)));
    }
    models.push(PropModel::new(ModelId(1), Arc::clone(model)).with_bindings(placement.bindings.clone()));
    kinds[placement.kind].bind(&models).map_err(|error| (props_mods::RIG_CODE, error.to_string()))?;
    // As the game sizes it: to its kind's base asset, else the lot's height.
    let base_height = base.as_deref().and_then(fitting::height);
    let (_, message) = fitting::shown(model, placement.units, asset.units, asset.stem.zip(base_height));
    let shown = Shown { at: props_scene::shown_at(asset, placement.adds), role: asset.role };
    let fitted = message.map(|message| Issue::warning(fitting::FITTED, "", message));
    let on_lot = asset.role == sidecar::AMBIENT.name;
    let still = on_lot.then(|| lot::still_clip(model, &placement.bindings)).flatten();
    let still = still.map(|message| Issue::warning(lot::STILL_CLIP, "", message));
    Ok((fitted.into_iter().chain(still).collect(), shown))
}

/// The sidecar of `model` (`file`), where it has one that reads, as the game reads it.
pub(crate) fn sidecar(file: &Path, model: &Model) -> Option<sidecar::Sidecar> {
    sidecar::read(file, file, model, &sidecar_roles()).ok().flatten()
}

/// Metres per model unit the town shows `model` at as a person: its sidecar's `units`
/// (`given`), else the people's units, fitted to the base person's height when far off it.
pub(crate) fn person_units(model: &Model, given: Option<f32>) -> f32 {
    let people = kind_assets().into_iter().find(|a| a.role == props_scene::kinds::pedestrians::ROLE);
    let units = people.as_ref().map_or(1.0, |a| a.units);
    let base = people.and_then(|a| a.stem).and_then(|stem| Some((stem, fitting::height(&*base_asset(stem)?)?)));
    fitting::shown(model, given, units, base).0
}

/// The game's base asset `assets/<stem>.glb`, as the game loads it.
fn base_asset(stem: &str) -> Option<Arc<Model>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets").join(format!("{stem}.glb"));
    admit_file(&path, &Limits::default()).ok().map(|admitted| Arc::new(admitted.import.model))
}

/// The assets of the town's kinds, as the game registers them.
fn kind_assets() -> Vec<KindAsset> {
    props_scene::kinds::town().iter().map(|kind| kind.asset()).collect()
}

/// The roles a sidecar may give, as the game takes them: every kind's (the lot's `ambient`
/// among them).
fn sidecar_roles() -> Vec<sidecar::Role> {
    kind_assets().into_iter().map(|a| sidecar::Role { name: a.role, parts: a.parts, states: a.states }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Places the Fox as `mods/<name>.glb` with the sidecar `text`, if any, as the game would.
    fn place_fox(name: &str, text: Option<&str>) -> Result<Option<String>, (&'static str, String)> {
        let fox_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
        let fox = Arc::new(props_gltf::import_file(&fox_path, &Limits::default()).expect("the Fox").model);
        let sidecar = text.map(|text| {
            let dir = std::env::temp_dir().join(format!("props-size-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("folder");
            std::fs::write(dir.join(format!("{name}.prop.toml")), text).expect("sidecar");
            let read = sidecar::read(&dir.join(format!("{name}.glb")), Path::new(name), &fox, &sidecar_roles());
            let _ = std::fs::remove_dir_all(&dir);
            read.expect("valid").expect("read")
        });
        place_and_bind(Path::new(&format!("mods/{name}.glb")), sidecar.as_ref(), &fox)
            .map(|(warnings, _)| warnings.into_iter().map(|issue| issue.message).reduce(|a, b| format!("{a}\n{b}")))
    }

    /// The Fox in centimetres: fine as `Fox.glb` (its role's units are 0.01) or with a
    /// sidecar giving its units, 81 m tall (warned) on the lot or as a house.
    #[test]
    fn sizes_far_off_the_place_are_warned_as_the_game_fits_them() {
        assert_eq!(place_fox("Fox", None), Ok(None));
        let lot = place_fox("giant", None).expect("placed").expect("on the lot");
        assert!(lot.contains("81.57 m tall") && lot.contains("a lot model's 1.8 m"), "{lot}");
        let house = place_fox("barn", Some("role = \"house\"")).expect("placed").expect("as a house");
        assert!(house.contains("the building's"), "{house}");
        assert_eq!(place_fox("statue", Some("role = \"ambient\"\nunits = 0.01")), Ok(None));
        let kept = place_fox("statue", Some("role = \"ambient\"\nunits = 10")).expect("placed").expect("warned");
        assert!(kept.contains("815.75 m tall at 10 m per unit"), "{kept}");
    }

    /// The base person as a VRM 0.x avatar, with the table if `table`: its bones named as no
    /// convention names them, turned to face -Z under a new root, without its clips.
    fn avatar(table: bool) -> Arc<Model> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/pedestrian.glb");
        let bytes = std::fs::read(path).expect("the base person");
        let (chunks, _) = props_gltf::glb::read(&bytes);
        let chunks = chunks.expect("a GLB");
        let mut json: serde_json::Value = serde_json::from_slice(chunks.json).expect("JSON");
        let mut bones = Vec::new();
        for (i, bone) in props_anim::humanoid::BONES.iter().enumerate() {
            json["nodes"][i + 1]["name"] = format!("J_Bip_{i}").into();
            bones.push(serde_json::json!({ "bone": bone.name(), "node": i + 1 }));
        }
        let turn = serde_json::json!({ "rotation": [0, 1, 0, 0], "children": [0, 20] });
        json["nodes"].as_array_mut().expect("nodes").push(turn);
        json["scenes"][0]["nodes"] = serde_json::json!([21]);
        json.as_object_mut().expect("an object").remove("animations");
        if table {
            json["extensions"] = serde_json::json!({ "VRM": { "humanoid": { "humanBones": bones } } });
        }
        let glb = props_gltf::glb::write(json.to_string().as_bytes(), chunks.bin).expect("small");
        let import = props_gltf::import_slice(&glb, None, Path::new("avatar.vrm"), &Limits::default());
        Arc::new(import.expect("imports").model)
    }

    /// A VRM avatar without a sidecar joins the people, and walks with the base person's clips
    /// (retargeted by its table); without its table, nothing says it is a person: the lot.
    #[test]
    fn a_vrm_avatar_joins_the_people_and_walks_with_their_clips() {
        let assets = kind_assets();
        let kind = |model: &Model| Placement::of("avatar", None, model, &assets).expect("placed").kind;
        let people = assets.iter().position(|a| a.stem == Some("pedestrian")).expect("the people");
        assert_eq!(kind(&avatar(true)), people);
        let (warnings, shown) = place_and_bind(Path::new("mods/avatar.vrm"), None, &avatar(true)).expect("binds");
        assert!(warnings.is_empty());
        assert_eq!((shown.at.as_str(), shown.role), ("sidewalks, one more pedestrian model", "pedestrian"));
        assert_ne!(kind(&avatar(false)), people, "no table: the lot");
    }

    /// What the town's kinds drive must be there, as the game binds a mod: the Fox as a car has
    /// no wheels, and the game refuses it; as a bus it would replace the bus, and is refused too.
    #[test]
    fn a_mod_lacking_what_its_kind_drives_is_refused_as_the_game_refuses_it() {
        let (code, message) = place_fox("truck", Some("role = \"car\"")).expect_err("no wheels");
        assert_eq!(code, props_mods::RIG_CODE);
        assert!(message.contains("the car model") && message.contains("wheel"), "{message}");
        let (code, message) = place_fox("bus", None).expect_err("no doors nor wheels");
        assert_eq!(code, props_mods::RIG_CODE);
        assert!(message.contains("the bus model"), "{message}");
    }
}
