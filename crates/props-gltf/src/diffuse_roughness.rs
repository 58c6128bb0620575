//! `KHR_materials_diffuse_roughness`: how rough the diffuse layer is (Oren-Nayar's model, as
//! Portsmouth et al.'s EON makes it energy-preserving): its factor, and its texture (a
//! material slot: `material.rs`).

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, finite};

/// `KHR_materials_diffuse_roughness`'s name.
pub(crate) const NAME: &str = "KHR_materials_diffuse_roughness";

/// `KHR_materials_diffuse_roughness` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiffuseRoughness {
    /// How rough, 0 (Lambert's diffuse) to 1.
    #[serde(default)]
    pub diffuse_roughness_factor: f32,
    /// The roughness in R, times the factor.
    pub diffuse_roughness_texture: Option<Info>,
}

impl DiffuseRoughness {
    /// Its factor as drawn, its JSON path `at(field)`.
    pub(crate) fn factor(&self, at: impl Fn(&str) -> String) -> Result<f32, ImportError> {
        let [factor] = finite([self.diffuse_roughness_factor], at("diffuseRoughnessFactor"))?;
        Ok(factor.clamp(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_lambert_s_diffuse() {
        let read: DiffuseRoughness = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!(read.diffuse_roughness_factor, 0.0);
        assert!(read.diffuse_roughness_texture.is_none());
    }
}
