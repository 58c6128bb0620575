//! `KHR_materials_iridescence`: a thin film over the surface (soap, oil on water, a chameleon
//! paint) whose colours shift with the angle it is seen at: its factor, its index of
//! refraction and its thickness, the factor and the thickness each with a texture (material
//! slots: `material.rs`).

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, finite};

/// `KHR_materials_iridescence`'s name.
pub(crate) const NAME: &str = "KHR_materials_iridescence";

/// `KHR_materials_iridescence` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Iridescence {
    /// How much of the film there is, 0 to 1 (0: none).
    #[serde(default)]
    pub iridescence_factor: f32,
    /// The factor in R, times it.
    pub iridescence_texture: Option<Info>,
    /// The film's index of refraction.
    #[serde(default = "film_ior")]
    pub iridescence_ior: f32,
    /// The film's thickness where its thickness texture reads 0, nanometres.
    #[serde(default = "thinnest")]
    pub iridescence_thickness_minimum: f32,
    /// The film's thickness where its thickness texture reads 1, and without one, nanometres.
    #[serde(default = "thickest")]
    pub iridescence_thickness_maximum: f32,
    /// The thickness between the two in G.
    pub iridescence_thickness_texture: Option<Info>,
}

/// The film as drawn: its factor, index of refraction, and thickness without a texture (and
/// where it reads 1) and where its texture reads 0, nanometres.
pub(crate) struct Film {
    pub factor: f32,
    pub ior: f32,
    pub thickness: f32,
    pub thickness_minimum: f32,
}

impl Iridescence {
    /// The film as drawn, each field's JSON path `at(field)`.
    pub(crate) fn film(&self, at: impl Fn(&str) -> String) -> Result<Film, ImportError> {
        let [factor] = finite([self.iridescence_factor], at("iridescenceFactor"))?;
        let [ior] = finite([self.iridescence_ior], at("iridescenceIor"))?;
        let [minimum] = finite([self.iridescence_thickness_minimum], at("iridescenceThicknessMinimum"))?;
        let [thickness] = finite([self.iridescence_thickness_maximum], at("iridescenceThicknessMaximum"))?;
        Ok(Film {
            factor: factor.clamp(0.0, 1.0),
            ior: ior.max(1.0),
            thickness: thickness.max(0.0),
            thickness_minimum: minimum.max(0.0),
        })
    }
}

impl Default for Film {
    /// The film of a material without the extension: none, of the specification's defaults.
    fn default() -> Self {
        Self { factor: 0.0, ior: film_ior(), thickness: thickest(), thickness_minimum: thinnest() }
    }
}

/// The specification's defaults.
fn film_ior() -> f32 {
    1.3
}

fn thinnest() -> f32 {
    100.0
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
        assert_eq!(read.iridescence_thickness_minimum, 100.0);
        assert!(read.iridescence_texture.is_none() && read.iridescence_thickness_texture.is_none());
    }
}
