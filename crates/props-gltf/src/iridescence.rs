//! `KHR_materials_iridescence`: a thin film over the surface (soap, oil on water, a chameleon
//! paint) whose colours shift with the angle it is seen at. Its textures are not drawn (the
//! fragment stage has no texture binding left for them); its factor, its index of refraction
//! and its greatest thickness, the thickness without a texture, are.

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, Warnings, finite, warn};

/// `KHR_materials_iridescence`'s name.
pub(crate) const NAME: &str = "KHR_materials_iridescence";

/// `KHR_materials_iridescence` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Iridescence {
    /// How much of the film there is, 0 to 1 (0: none).
    #[serde(default)]
    pub iridescence_factor: f32,
    /// The factor in R (not drawn).
    pub iridescence_texture: Option<Info>,
    /// The film's index of refraction.
    #[serde(default = "film_ior")]
    pub iridescence_ior: f32,
    /// The film's thickness where its thickness texture reads 1, and without one, nanometres
    /// (`iridescenceThicknessMinimum`, where it reads 0, is not drawn).
    #[serde(default = "thickest")]
    pub iridescence_thickness_maximum: f32,
    /// The thickness between the two in G (not drawn).
    pub iridescence_thickness_texture: Option<Info>,
}

impl Iridescence {
    /// Its factor, index of refraction and thickness (its greatest) as drawn, each field's JSON
    /// path `at(field)`; its textures, not drawn, each with a warning.
    pub(crate) fn factors(
        &self,
        at: impl Fn(&str) -> String,
        warnings: &mut Warnings,
    ) -> Result<(f32, f32, f32), ImportError> {
        let [factor] = finite([self.iridescence_factor], at("iridescenceFactor"))?;
        let [ior] = finite([self.iridescence_ior], at("iridescenceIor"))?;
        let [thickness] = finite([self.iridescence_thickness_maximum], at("iridescenceThicknessMaximum"))?;
        for (texture, _) in self.textures().into_iter().filter(|(_, present)| *present) {
            let message = "the thin film's textures are not drawn; its factor and its greatest thickness are";
            warn(warnings, at(texture), message);
        }
        Ok((factor.clamp(0.0, 1.0), ior.max(1.0), thickness.max(0.0)))
    }

    /// Its textures' JSON names, each with whether it has it (the game draws neither).
    pub(crate) fn textures(&self) -> [(&'static str, bool); 2] {
        [
            ("iridescenceTexture", self.iridescence_texture.is_some()),
            ("iridescenceThicknessTexture", self.iridescence_thickness_texture.is_some()),
        ]
    }
}

/// The specification's defaults.
fn film_ior() -> f32 {
    1.3
}

fn thickest() -> f32 {
    400.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_no_film_of_the_specification_s_thickness() {
        let read: Iridescence = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!(read.iridescence_factor, 0.0);
        assert_eq!((read.iridescence_ior, read.iridescence_thickness_maximum), (1.3, 400.0));
        assert_eq!(read.textures(), [("iridescenceTexture", false), ("iridescenceThicknessTexture", false)]);
    }
}
