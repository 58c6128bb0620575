//! `KHR_materials_clearcoat`: a clear lacquer over a material (car paint), as Blender's
//! exporter writes a Principled BSDF's Coat: its factor and roughness. Its three textures are
//! not drawn (the factors are, with a warning).

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, Warnings, finite, warn};

/// `KHR_materials_clearcoat`'s name.
pub(crate) const NAME: &str = "KHR_materials_clearcoat";

/// `KHR_materials_clearcoat` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Clearcoat {
    /// How much of the coat lies over the material, 0 to 1.
    #[serde(default)]
    pub clearcoat_factor: f32,
    /// Its perceptual roughness, 0 to 1.
    #[serde(default)]
    pub clearcoat_roughness_factor: f32,
    /// The factor in R, times it (not drawn).
    pub clearcoat_texture: Option<Info>,
    /// The roughness in G, times it (not drawn).
    pub clearcoat_roughness_texture: Option<Info>,
    /// The coat's own normal map (not drawn).
    pub clearcoat_normal_texture: Option<serde::de::IgnoredAny>,
}

impl Clearcoat {
    /// Its factor and roughness as drawn, each field's JSON path `at(field)`; its textures, not
    /// drawn, each with a warning.
    pub(crate) fn factors(
        &self,
        at: impl Fn(&str) -> String,
        warnings: &mut Warnings,
    ) -> Result<(f32, f32), ImportError> {
        let [factor] = finite([self.clearcoat_factor], at("clearcoatFactor"))?;
        let [roughness] = finite([self.clearcoat_roughness_factor], at("clearcoatRoughnessFactor"))?;
        for (texture, _) in self.textures().into_iter().filter(|(_, present)| *present) {
            warn(warnings, at(texture), "the clear coat's textures are not drawn; its factors are");
        }
        Ok((factor.clamp(0.0, 1.0), roughness.clamp(0.0, 1.0)))
    }

    /// Its textures' JSON names, each with whether it has it (the game draws none of them).
    pub(crate) fn textures(&self) -> [(&'static str, bool); 3] {
        [
            ("clearcoatTexture", self.clearcoat_texture.is_some()),
            ("clearcoatRoughnessTexture", self.clearcoat_roughness_texture.is_some()),
            ("clearcoatNormalTexture", self.clearcoat_normal_texture.is_some()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_coats_nothing_and_textures_are_named() {
        let coat: Clearcoat = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!((coat.clearcoat_factor, coat.clearcoat_roughness_factor), (0.0, 0.0));
        assert!(coat.textures().iter().all(|(_, present)| !present));
        let coat: Clearcoat =
            serde_json::from_str(r#"{"clearcoatFactor": 1, "clearcoatNormalTexture": {"index": 0, "scale": 2}}"#)
                .expect("a coat with a normal map");
        let present: Vec<_> =
            coat.textures().into_iter().filter(|(_, present)| *present).map(|(name, _)| name).collect();
        assert_eq!((coat.clearcoat_factor, present), (1.0, vec!["clearcoatNormalTexture"]));
    }
}
