//! `KHR_materials_sheen`: the sheen of cloth (velvet, felt, a seat's fabric), as Blender's
//! exporter writes a Principled BSDF's Sheen: a colour and a roughness, each with a texture.

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, finite};

/// `KHR_materials_sheen`'s name.
pub(crate) const NAME: &str = "KHR_materials_sheen";

/// `KHR_materials_sheen` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Sheen {
    /// The sheen's linear colour (black: no sheen).
    #[serde(default)]
    pub sheen_color_factor: [f32; 3],
    /// The colour in RGB, times the factor.
    pub sheen_color_texture: Option<Info>,
    /// Its perceptual roughness, 0 to 1.
    #[serde(default)]
    pub sheen_roughness_factor: f32,
    /// The roughness in A, times the factor.
    pub sheen_roughness_texture: Option<Info>,
}

impl Sheen {
    /// Its colour and roughness as drawn, each field's JSON path `at(field)`.
    pub(crate) fn factors(&self, at: impl Fn(&str) -> String) -> Result<([f32; 3], f32), ImportError> {
        let color = finite(self.sheen_color_factor, at("sheenColorFactor"))?;
        let [roughness] = finite([self.sheen_roughness_factor], at("sheenRoughnessFactor"))?;
        Ok((color.map(|c| c.clamp(0.0, 1.0)), roughness.clamp(0.0, 1.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_has_no_sheen() {
        let sheen: Sheen = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!((sheen.sheen_color_factor, sheen.sheen_roughness_factor), ([0.0; 3], 0.0));
        assert!(sheen.sheen_color_texture.is_none() && sheen.sheen_roughness_texture.is_none());
    }
}
