//! `KHR_materials_pbrSpecularGlossiness` (archived by Khronos, still in older Sketchfab
//! downloads and in 3ds Max and Babylon.js exports), read into glTF's metal/rough model the
//! way glTF-Transform's `metalRough` converts it: the diffuse colour is the base colour, no
//! metal, roughness `1 - glossiness`, and the specular colour (factor and texture) a
//! dielectric's reflectance: an index of refraction of 1000 and `KHR_materials_specular`'s
//! colour.

use gltf::json::texture::Info;
use props_anim::material::Image;
use serde::Deserialize;

use crate::specular::{one, white};

/// The extension's name.
pub(crate) const NAME: &str = "KHR_materials_pbrSpecularGlossiness";

/// The extension as a material writes it, with the extension's defaults.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SpecularGlossiness {
    /// Linear diffuse colour and alpha.
    #[serde(default = "opaque_white")]
    pub diffuse_factor: [f32; 4],
    /// sRGB diffuse colour and alpha, multiplied by the factor.
    pub diffuse_texture: Option<Info>,
    /// Linear specular colour: the reflectance facing the viewer.
    #[serde(default = "white")]
    pub specular_factor: [f32; 3],
    /// Glossiness, 1 for a mirror; multiplies the texture's alpha.
    #[serde(default = "one")]
    pub glossiness_factor: f32,
    /// Specular colour in RGB (sRGB), glossiness in A (linear).
    pub specular_glossiness_texture: Option<Info>,
}

fn opaque_white() -> [f32; 4] {
    [1.0; 4]
}

impl SpecularGlossiness {
    /// The roughness factor: `1 - glossiness` without a texture; with one, 1 (the texture
    /// made by [`roughness_image`] holds the roughness).
    pub(crate) fn roughness_factor(&self) -> f32 {
        if self.specular_glossiness_texture.is_some() { 1.0 } else { (1.0 - self.glossiness_factor).clamp(0.0, 1.0) }
    }
}

/// The index of refraction that makes a dielectric's reflectance its specular colour, as
/// glTF-Transform's `metalRough` writes it (`((1000 - 1) / (1000 + 1))²` is 0.996).
pub(crate) const IOR: f32 = 1000.0;

/// The metal/rough image the spec/gloss image `image` stands for at `glossiness`: roughness
/// in G, `1 - glossiness x A` (in bytes, `255 - round(A x glossiness)`), no metal in B.
pub(crate) fn roughness_image(image: &Image, glossiness: f32) -> Image {
    let glossiness = f64::from(glossiness.clamp(0.0, 1.0));
    let rgba8 = image
        .rgba8
        .chunks_exact(4)
        .flat_map(|pixel| [0, 255 - (f64::from(pixel[3]) * glossiness).round() as u8, 0, 255])
        .collect();
    let name = Some(format!("{} (roughness from glossiness)", image.name.as_deref().unwrap_or("image")));
    Image { name, width: image.width, height: image.height, rgba8, ktx2: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_extensions() {
        let parsed: SpecularGlossiness = serde_json::from_str("{}").expect("an empty extension");
        assert_eq!((parsed.diffuse_factor, parsed.glossiness_factor, parsed.roughness_factor()), ([1.0; 4], 1.0, 0.0));
    }

    #[test]
    fn glossiness_in_alpha_becomes_roughness_in_green() {
        let image =
            Image { name: None, width: 3, height: 1, rgba8: vec![9, 9, 9, 0, 9, 9, 9, 128, 9, 9, 9, 255], ktx2: None };
        let rough = roughness_image(&image, 0.5);
        assert_eq!(rough.rgba8, [0, 255, 0, 255, 0, 191, 0, 255, 0, 127, 0, 255]);
        assert_eq!((rough.width, rough.height, rough.ktx2), (3, 1, None));
    }
}
