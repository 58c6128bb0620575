//! Small synthetic models with the node and clip names of the real assets (see
//! `assets/README.md`): for tests, benchmarks and running a scene without the asset files.
//! Each kind builds its own ([`PropKind::stand_in`]); this gives the town's kinds theirs.

use std::sync::Arc;

use props_crowd::PropModel;
use props_frame::ModelId;

pub use crate::stand_in_kit::SyntheticError;

use crate::kind::{KindWithModels, PropKind};

/// The stand-in of `kind`'s base asset ([`PropKind::stand_in`]) as the model the renderer
/// knows as `id`, in metres; `None` for a kind without a base asset.
pub fn model_for(kind: &dyn PropKind, id: ModelId) -> Result<Option<PropModel>, SyntheticError> {
    kind.stand_in().transpose().map(|model| model.map(|model| PropModel::new(id, Arc::new(model))))
}

/// The town's kinds ([`crate::kinds::town`]), each with its stand-in, the renderer ids
/// numbered in order from 0 (windmill 0, car 1, traffic light 2, fox 3, bus 4, street lamp 5,
/// house 6, pedestrian 7): for [`crate::Scene::new`].
pub fn town() -> Result<Vec<KindWithModels>, SyntheticError> {
    with_stand_ins(crate::kinds::town())
}

/// `kinds`, each with its stand-in, the renderer ids numbered in order from 0.
pub fn with_stand_ins(kinds: Vec<Box<dyn PropKind>>) -> Result<Vec<KindWithModels>, SyntheticError> {
    kinds
        .into_iter()
        .enumerate()
        .map(|(id, kind)| {
            let model = model_for(&*kind, ModelId(id as u32))?;
            Ok((kind, model.into_iter().collect()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_town_kind_has_a_stand_in() {
        let town = town().expect("builds");
        for (kind, models) in &town {
            let expected = usize::from(kind.asset().stem.is_some());
            assert_eq!(models.len(), expected, "{}: one stand-in per kind with a base asset", kind.name());
        }
    }

    #[test]
    fn synthetic_models_have_the_asset_names_and_palettes() {
        use crate::kinds::{cars, foxes, traffic_lights, windmills};
        let (windmill, car, light, fox) = (
            windmills::stand_in().expect("builds"),
            cars::stand_in().expect("builds"),
            traffic_lights::stand_in().expect("builds"),
            foxes::stand_in().expect("builds"),
        );
        assert_eq!(windmill.palette_len(), 6);
        assert_eq!(car.palette_len(), 5);
        // Five node matrices, and one slot of the lamps' animated emissive factors (9 values).
        assert_eq!(light.palette_len(), 6);
        assert_eq!(fox.palette_len(), 8);
        for name in ["tower", "nacelle", "hub", "blade_0", "blade_1", "blade_2"] {
            assert!(windmill.rig().find(name).is_some(), "{name}");
        }
        for clip in ["cycle", "green", "amber", "red"] {
            assert!(light.find_clip(clip).is_some(), "{clip}");
        }
        for clip in ["Survey", "Walk", "Run"] {
            assert!(fox.find_clip(clip).is_some(), "{clip}");
        }
        let walk = &fox.clips()[fox.find_clip("Walk").unwrap_or_default()];
        assert!((walk.duration() - 0.7).abs() < 1e-6);
    }
}
