//! A dielectric's specular: `KHR_materials_ior` (its reflectance facing the viewer) and
//! `KHR_materials_specular` (its strength and colour, factors and textures), as Blender's
//! exporter and glTF-Transform's `metalrough` write them.

use gltf::json::texture::Info;
use serde::Deserialize;

/// `KHR_materials_ior`'s name.
pub(crate) const IOR: &str = "KHR_materials_ior";
/// `KHR_materials_specular`'s name.
pub(crate) const SPECULAR: &str = "KHR_materials_specular";

/// `KHR_materials_ior` as a material writes it.
#[derive(Debug, Deserialize)]
pub(crate) struct Ior {
    /// The index of refraction: at least 1, or 0 for an infinite one.
    #[serde(default = "default_ior")]
    pub ior: f32,
}

fn default_ior() -> f32 {
    1.5
}

/// `KHR_materials_specular` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Specular {
    /// Strength, 0 to 1.
    #[serde(default = "one")]
    pub specular_factor: f32,
    /// Strength in A, times the factor.
    pub specular_texture: Option<Info>,
    /// Linear colour of the facing reflectance.
    #[serde(default = "white")]
    pub specular_color_factor: [f32; 3],
    /// sRGB colour, times the factor.
    pub specular_color_texture: Option<Info>,
}

/// The default of a factor that defaults to 1 (serde's `default` takes a function).
pub(crate) fn one() -> f32 {
    1.0
}

/// The default of a colour factor that defaults to white.
pub(crate) fn white() -> [f32; 3] {
    [1.0; 3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_extensions() {
        let ior: Ior = serde_json::from_str("{}").expect("an empty extension");
        let specular: Specular = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!((ior.ior, specular.specular_factor, specular.specular_color_factor), (1.5, 1.0, [1.0; 3]));
        assert!(specular.specular_texture.is_none() && specular.specular_color_texture.is_none());
    }
}
