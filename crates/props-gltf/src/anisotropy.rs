//! `KHR_materials_anisotropy`: a specular lobe stretched along the surface's grain (brushed
//! metal, a record's grooves, a wheel's turned rim), as Blender's exporter writes a Principled
//! BSDF's Anisotropic: a strength, a rotation and a direction texture.

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, finite};

/// `KHR_materials_anisotropy`'s name.
pub(crate) const NAME: &str = "KHR_materials_anisotropy";

/// `KHR_materials_anisotropy` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Anisotropy {
    /// How much rougher the lobe is along the grain than across it, 0 to 1 (0: not at all).
    #[serde(default)]
    pub anisotropy_strength: f32,
    /// The grain's angle from the tangent towards the bitangent, radians.
    #[serde(default)]
    pub anisotropy_rotation: f32,
    /// The grain's direction in RG and a strength in B.
    pub anisotropy_texture: Option<Info>,
}

impl Anisotropy {
    /// Its strength and rotation as drawn, each field's JSON path `at(field)`.
    pub(crate) fn factors(&self, at: impl Fn(&str) -> String) -> Result<(f32, f32), ImportError> {
        let [strength] = finite([self.anisotropy_strength], at("anisotropyStrength"))?;
        let [rotation] = finite([self.anisotropy_rotation], at("anisotropyRotation"))?;
        Ok((strength.clamp(0.0, 1.0), rotation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_isotropic() {
        let read: Anisotropy = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!((read.anisotropy_strength, read.anisotropy_rotation), (0.0, 0.0));
        assert!(read.anisotropy_texture.is_none());
    }
}
