//! `KHR_materials_transmission`: thin-walled glass, the share of light a dielectric lets
//! through its surface (a factor and a texture's R), as Blender's exporter writes a Principled
//! BSDF's Transmission.

use gltf::json::texture::Info;
use serde::Deserialize;

/// `KHR_materials_transmission`'s name.
pub(crate) const NAME: &str = "KHR_materials_transmission";

/// `KHR_materials_transmission` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Transmission {
    /// The share let through, 0 to 1.
    #[serde(default)]
    pub transmission_factor: f32,
    /// The share in R, times the factor.
    pub transmission_texture: Option<Info>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_lets_nothing_through() {
        let transmission: Transmission = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!(transmission.transmission_factor, 0.0);
        assert!(transmission.transmission_texture.is_none());
    }
}
