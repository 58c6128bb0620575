//! `KHR_materials_clearcoat`: a clear lacquer over a material (car paint), as Blender's
//! exporter writes a Principled BSDF's Coat: its factor and roughness, each with a texture, and
//! the lacquer's own normal map (the textures are material slots: `material.rs`).

use gltf::json::material::NormalTexture;
use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, finite};

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
    /// The factor in R, times it.
    pub clearcoat_texture: Option<Info>,
    /// The roughness in G, times it.
    pub clearcoat_roughness_texture: Option<Info>,
    /// The coat's own normal map, with its scale.
    pub clearcoat_normal_texture: Option<NormalTexture>,
}

impl Clearcoat {
    /// Its factor, roughness and normal map's scale as drawn, each field's JSON path
    /// `at(field)`.
    pub(crate) fn factors(&self, at: impl Fn(&str) -> String) -> Result<(f32, f32, f32), ImportError> {
        let [factor] = finite([self.clearcoat_factor], at("clearcoatFactor"))?;
        let [roughness] = finite([self.clearcoat_roughness_factor], at("clearcoatRoughnessFactor"))?;
        let scale = self.clearcoat_normal_texture.as_ref().map_or(1.0, |n| n.scale);
        let [scale] = finite([scale], at("clearcoatNormalTexture.scale"))?;
        Ok((factor.clamp(0.0, 1.0), roughness.clamp(0.0, 1.0), scale))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_coats_nothing_and_the_normal_map_keeps_its_scale() {
        let coat: Clearcoat = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!(coat.factors(str::to_owned).expect("finite"), (0.0, 0.0, 1.0));
        assert!(coat.clearcoat_texture.is_none() && coat.clearcoat_roughness_texture.is_none());
        let coat: Clearcoat =
            serde_json::from_str(r#"{"clearcoatFactor": 1, "clearcoatNormalTexture": {"index": 0, "scale": 2}}"#)
                .expect("a coat with a normal map");
        assert_eq!(coat.factors(str::to_owned).expect("finite"), (1.0, 0.0, 2.0));
    }
}
