//! `KHR_materials_volume`: the depth of a transmissive material's glass and what light loses
//! crossing it (Beer's law: the colour white light becomes after a distance). Its thickness
//! texture is a material slot (`material.rs`).

use gltf::json::texture::Info;
use serde::Deserialize;

use crate::error::{ImportError, Warnings, finite, warn};

/// `KHR_materials_volume`'s name.
pub(crate) const NAME: &str = "KHR_materials_volume";

/// `KHR_materials_volume` as a material writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Volume {
    /// The glass's thickness behind the surface, in the mesh's units (0: thin-walled).
    #[serde(default)]
    pub thickness_factor: f32,
    /// The thickness in G, times the factor.
    pub thickness_texture: Option<Info>,
    /// The distance after which white light is the attenuation colour (none: infinite).
    pub attenuation_distance: Option<f32>,
    /// What white light becomes after the attenuation distance, linear.
    #[serde(default = "white")]
    pub attenuation_color: [f32; 3],
}

impl Volume {
    /// Its thickness, attenuation colour and distance as drawn, each field's JSON path
    /// `at(field)`: a distance of 0 or less, which the specification forbids, is none (clear
    /// glass), with a warning.
    pub(crate) fn factors(
        &self,
        at: impl Fn(&str) -> String,
        warnings: &mut Warnings,
    ) -> Result<(f32, [f32; 3], f32), ImportError> {
        let [thickness] = finite([self.thickness_factor], at("thicknessFactor"))?;
        let color = finite(self.attenuation_color, at("attenuationColor"))?;
        let distance = match self.attenuation_distance {
            Some(distance) if finite([distance], at("attenuationDistance"))?[0] > 0.0 => distance,
            Some(_) => {
                let message = "must be above 0 (the specification); the glass absorbs nothing, as if it had none";
                warn(warnings, at("attenuationDistance"), message);
                f32::INFINITY
            }
            None => f32::INFINITY,
        };
        Ok((thickness.max(0.0), color.map(|c| c.clamp(0.0, 1.0)), distance))
    }
}

/// The specification's default attenuation colour: nothing absorbed.
fn white() -> [f32; 3] {
    [1.0; 3]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_thin_walled_and_clear() {
        let volume: Volume = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!(volume.thickness_factor, 0.0);
        assert!(volume.thickness_texture.is_none() && volume.attenuation_distance.is_none());
        assert_eq!(volume.attenuation_color, [1.0; 3]);
    }
}
