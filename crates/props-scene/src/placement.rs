//! Where the town shows a model a mod brings, the one rule the game and `check-assets` follow:
//! the kind its sidecar's role names, else the kind whose base asset has its file's name, else
//! the people when the file declares a person that walks (a VRM avatar's bone table), else the
//! kind without a base asset (the mod lot); in the kind's own model's place, or beside it.

use props_anim::Model;
use props_anim::humanoid::BoneMap;
use props_crowd::Bindings;

use crate::KindAsset;
use crate::kinds::lot::LOOP;
use crate::kinds::pedestrians::ROLE as PERSON;

/// What a mod's sidecar says, as the town reads it.
#[derive(Clone, Debug, Default)]
pub struct Claim<'a> {
    /// The role it gives ([`KindAsset::role`]).
    pub role: &'a str,
    /// Metres per model unit, if given.
    pub units: Option<f32>,
    /// The clip an ambient model loops, by index.
    pub clip: Option<usize>,
    /// Its names for what the kind drives.
    pub bindings: Bindings,
}

/// Where a mod goes, and how.
#[derive(Clone, Debug)]
pub struct Placement {
    /// The kind it shows in: its number among the kinds' assets it was placed among.
    pub kind: usize,
    /// The sidecar's units, if any.
    pub units: Option<f32>,
    /// The sidecar's names (its `clip` bound as the lot's [`LOOP`] state).
    pub bindings: Bindings,
    /// Whether it adds a model to its kind instead of replacing it: a mod shown by a kind that
    /// takes variants (the lot among them), named other than the kind's base asset.
    pub adds: bool,
}

impl Placement {
    /// The placement `claim` (a sidecar's) asks for among the kinds' `assets` (by role), or the
    /// file stem `name`'s (a base asset's name, case-sensitive, replaces it); a mod neither
    /// claims goes among the people (the pedestrians' role) when its file declares a person (a
    /// VRM avatar: [`props_anim::Rig::humanoid`]) whose bones walk and carry a skinned body,
    /// else to the kind without a base asset (the lot). `None` when no kind takes it.
    #[must_use]
    pub fn of(name: &str, claim: Option<Claim<'_>>, model: &Model, assets: &[KindAsset]) -> Option<Self> {
        let adds = |kind: usize| assets[kind].variants && assets[kind].stem != Some(name);
        let Some(claim) = claim else {
            // A body not skinned to its bones cannot step (a VRM sample's panels).
            let walks =
                || model.rig().humanoid().is_some() && !model.skins().is_empty() && BoneMap::find(model.rig()).walks();
            let claimed = assets.iter().position(|a| a.stem == Some(name));
            let person = || walks().then(|| assets.iter().position(|a| a.role == PERSON)).flatten();
            let kind = claimed.or_else(person).or_else(|| assets.iter().position(|a| a.stem.is_none()))?;
            return Some(Self { kind, units: None, bindings: Bindings::default(), adds: adds(kind) });
        };
        let kind = assets.iter().position(|a| a.role == claim.role)?;
        let mut bindings = claim.bindings;
        // The sidecar's `clip` (found by name) is the lot's `loop` state.
        if let Some(clip) = claim.clip.and_then(|clip| model.clips().get(clip)?.name()) {
            bindings.clips.entry(LOOP.to_owned()).or_insert_with(|| clip.to_owned());
        }
        Some(Self { kind, units: claim.units, bindings, adds: adds(kind) })
    }
}

/// Where a kind shows a mod, as a modder is told (the game's list, `check-assets`): `sidewalks,
/// one more pedestrian model` when it `adds` a model to the kind of `asset`, `hills, as the
/// windmill` when it replaces the kind's own, `on the mod lot` on the kind without one.
#[must_use]
pub fn shown_at(asset: &KindAsset, adds: bool) -> String {
    match (asset.stem, adds) {
        (Some(stem), true) => format!("{}, one more {stem} model", asset.place),
        (Some(stem), false) => format!("{}, as the {stem}", asset.place),
        (None, _) => "on the mod lot".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds;

    /// The town's kinds' assets and a model with a named clip (a kind's stand-in).
    fn town() -> (Vec<KindAsset>, Model) {
        let kinds = kinds::town();
        let model = kinds
            .iter()
            .filter_map(|k| k.stand_in()?.ok())
            .find(|m| m.clips().iter().any(|c| c.name().is_some()))
            .expect("a stand-in with a named clip");
        (kinds.iter().map(|k| k.asset()).collect(), model)
    }

    #[test]
    fn a_name_replaces_its_base_model_a_role_adds_or_replaces_and_the_rest_goes_on_the_lot() {
        let (assets, model) = town();
        let kind = |stem: &str| assets.iter().position(|a| a.stem == Some(stem)).expect("a kind");
        let lot = assets.iter().position(|a| a.stem.is_none()).expect("the lot");
        let named = Placement::of("windmill", None, &model, &assets).expect("placed");
        assert_eq!((named.kind, named.adds), (kind("windmill"), false), "named like the base model: replaces it");
        let other = Placement::of("statue", None, &model, &assets).expect("placed");
        assert_eq!((other.kind, other.adds), (lot, true), "any other name: the lot");
        let car = Claim { role: "car", units: Some(0.01), ..Claim::default() };
        let added = Placement::of("truck", Some(car.clone()), &model, &assets).expect("placed");
        assert_eq!((added.kind, added.adds, added.units), (kind("car"), true, Some(0.01)), "cars take variants");
        let named_car = Placement::of("car", Some(car), &model, &assets).expect("placed");
        assert!(!named_car.adds, "named like the base model: replaces it");
        let bus = Claim { role: "bus", ..Claim::default() };
        let bus = Placement::of("coach", Some(bus), &model, &assets).expect("placed");
        assert_eq!((bus.kind, bus.adds), (kind("bus"), false), "one bus model: replaced");
        assert!(Placement::of("x", Some(Claim { role: "boat", ..Claim::default() }), &model, &assets).is_none());
    }

    #[test]
    fn an_ambient_clip_is_the_lot_s_loop() {
        let (assets, model) = town();
        let clip = model.clips().iter().position(|c| c.name().is_some()).expect("a named clip");
        let name = model.clips()[clip].name().expect("named");
        let ambient = Claim { role: "ambient", clip: Some(clip), ..Claim::default() };
        let placed = Placement::of("sign", Some(ambient), &model, &assets).expect("placed");
        assert_eq!(placed.bindings.clips[LOOP], name);
    }
}
