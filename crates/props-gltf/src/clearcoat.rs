//! `KHR_materials_clearcoat`: a clear lacquer over a material (car paint), as Blender's
//! exporter writes a Principled BSDF's Coat: its factor and roughness. Its three textures are
//! not drawn (the factors are, with a warning).

use gltf::json::texture::Info;
use serde::Deserialize;

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
    /// The names of the textures it has, which the game does not draw.
    pub(crate) fn textures(&self) -> Vec<&'static str> {
        [
            ("clearcoatTexture", self.clearcoat_texture.is_some()),
            ("clearcoatRoughnessTexture", self.clearcoat_roughness_texture.is_some()),
            ("clearcoatNormalTexture", self.clearcoat_normal_texture.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, present)| present.then_some(name))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_coats_nothing_and_textures_are_named() {
        let coat: Clearcoat = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!((coat.clearcoat_factor, coat.clearcoat_roughness_factor), (0.0, 0.0));
        assert!(coat.textures().is_empty());
        let coat: Clearcoat =
            serde_json::from_str(r#"{"clearcoatFactor": 1, "clearcoatNormalTexture": {"index": 0, "scale": 2}}"#)
                .expect("a coat with a normal map");
        assert_eq!((coat.clearcoat_factor, coat.textures()), (1.0, vec!["clearcoatNormalTexture"]));
    }
}
