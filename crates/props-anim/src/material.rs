//! Materials as glTF 2.0 defines them (metallic-roughness PBR, alpha modes, double-sided,
//! emissive with `KHR_materials_emissive_strength`, `KHR_materials_unlit`), the textures they
//! sample (with their samplers, UV channel and `KHR_texture_transform`) and decoded images, and
//! the named variants a model's parts may be drawn in instead (`KHR_materials_variants`).

pub use crate::material_variant::{MaterialVariant, VariantMaterial};

/// How texture coordinates outside `[0, 1]` wrap, per axis (glTF sampler `wrapS` / `wrapT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// Repeat (the glTF default).
    #[default]
    Repeat,
    /// Clamp to the edge texel.
    ClampToEdge,
    /// Repeat, mirrored every other time.
    MirroredRepeat,
}

/// Texel filtering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Filter {
    /// The nearest texel.
    Nearest,
    /// Linear interpolation (the default where a file says nothing).
    #[default]
    Linear,
}

/// How a texture is sampled, as the file's sampler says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sampler {
    /// Wrapping along U.
    pub wrap_s: Wrap,
    /// Wrapping along V.
    pub wrap_t: Wrap,
    /// Magnification filter.
    pub mag_filter: Filter,
    /// Minification filter within a mip level.
    pub min_filter: Filter,
    /// Filtering between mip levels; `None` samples the largest level only (glTF's `NEAREST`
    /// and `LINEAR` minification filters).
    pub mipmap_filter: Option<Filter>,
}

/// `KHR_texture_transform`: texture coordinates scaled, then rotated, then offset
/// (`uv' = T * R * S * uv`), the rotation turning the image counter-clockwise as it appears
/// with V down: `u' = cos * u + sin * v`, `v' = -sin * u + cos * v` (what Khronos's
/// TextureTransformTest marks correct).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureTransform {
    /// Added last, in UV units.
    pub offset: [f32; 2],
    /// Counter-clockwise rotation of the UVs about the origin, radians.
    pub rotation: f32,
    /// Applied first, per axis.
    pub scale: [f32; 2],
}

impl Default for TextureTransform {
    fn default() -> Self {
        Self { offset: [0.0; 2], rotation: 0.0, scale: [1.0; 2] }
    }
}

impl TextureTransform {
    /// The transform as the two rows of a 2x3 affine matrix: `u' = r0 . (u, v, 1)`,
    /// `v' = r1 . (u, v, 1)`.
    #[must_use]
    pub fn rows(&self) -> [[f32; 3]; 2] {
        let (sin, cos) = self.rotation.sin_cos();
        let [sx, sy] = self.scale;
        let [ox, oy] = self.offset;
        [[cos * sx, sin * sy, ox], [-sin * sx, cos * sy, oy]]
    }
}

/// A material's texture: which image, how it is sampled, from which of the primitive's UV
/// channels, transformed how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureRef {
    /// Index into [`crate::Model::images`].
    pub image: u32,
    /// How it is sampled.
    pub sampler: Sampler,
    /// The UV channel it reads: 0 for [`crate::Primitive::uv0`], 1 for
    /// [`crate::Primitive::uv1`] (the importer maps the glTF `TEXCOORD_n` sets a material uses
    /// onto these two).
    pub channel: u32,
    /// `KHR_texture_transform`, identity without one.
    pub transform: TextureTransform,
}

impl TextureRef {
    /// Image `image`, sampled with the glTF defaults, from UV channel 0, untransformed.
    #[must_use]
    pub fn new(image: u32) -> Self {
        Self { image, sampler: Sampler::default(), channel: 0, transform: TextureTransform::default() }
    }
}

/// How a material's alpha is used.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum AlphaMode {
    /// Alpha is ignored: fully opaque.
    #[default]
    Opaque,
    /// Fragments with alpha below the cutoff are discarded; the rest are opaque.
    Mask {
        /// glTF `alphaCutoff` (0.5 by default).
        cutoff: f32,
    },
    /// Alpha-blended over what is behind, drawn after everything opaque.
    Blend,
}

/// How many texture slots a [`Material`] has ([`Material::texture_slots`]).
pub const TEXTURE_SLOTS: usize = 18;

/// A glTF 2.0 material: metallic-roughness PBR (the specification's Appendix B), its textures,
/// emission, alpha and sidedness, the dielectric specular of `KHR_materials_ior` and
/// `KHR_materials_specular`, the glass of `KHR_materials_transmission` (coloured by its depth
/// where `KHR_materials_volume` gives it one), the clear coat of `KHR_materials_clearcoat`, the
/// fabric's sheen of `KHR_materials_sheen`, the brushed metal of `KHR_materials_anisotropy`, the
/// thin film of `KHR_materials_iridescence` and the rough diffuse of
/// `KHR_materials_diffuse_roughness`.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name, if any.
    pub name: Option<String>,
    /// Linear RGBA factor.
    pub base_color_factor: [f32; 4],
    /// The sRGB base colour (and alpha) texture, if any.
    pub base_color_texture: Option<TextureRef>,
    /// Metalness, 0 to 1.
    pub metallic_factor: f32,
    /// Perceptual roughness, 0 to 1.
    pub roughness_factor: f32,
    /// Linear texture: roughness in G, metalness in B, multiplying the factors.
    pub metallic_roughness_texture: Option<TextureRef>,
    /// Tangent-space normal map (linear), if any.
    pub normal_texture: Option<TextureRef>,
    /// Scale of the normal map's X and Y.
    pub normal_scale: f32,
    /// Ambient occlusion in R (linear), if any.
    pub occlusion_texture: Option<TextureRef>,
    /// How much the occlusion applies, 0 to 1.
    pub occlusion_strength: f32,
    /// Linear RGB emission factor.
    pub emissive_factor: [f32; 3],
    /// `KHR_materials_emissive_strength` (1 without it): multiplies the emission.
    pub emissive_strength: f32,
    /// The sRGB emissive texture, if any.
    pub emissive_texture: Option<TextureRef>,
    /// `KHR_materials_ior`: the index of refraction (1.5, a reflectance of 4 %, without it),
    /// which sets a dielectric's reflectance facing the viewer, `((ior - 1) / (ior + 1))²`.
    pub ior: f32,
    /// `KHR_materials_specular`: the strength of a dielectric's specular, 0 to 1 (1 without it).
    pub specular_factor: f32,
    /// `KHR_materials_specular`: the strength in A (linear), multiplying the factor.
    pub specular_texture: Option<TextureRef>,
    /// `KHR_materials_specular`: the linear colour a dielectric's facing reflectance is
    /// multiplied by (white without it).
    pub specular_color_factor: [f32; 3],
    /// `KHR_materials_specular`: the colour in RGB (sRGB), multiplying the factor.
    pub specular_color_texture: Option<TextureRef>,
    /// `KHR_materials_transmission`: the share of light a dielectric lets through its surface,
    /// 0 to 1 (0 without it), in place of its diffuse light: what is behind it shows through,
    /// tinted by its base colour.
    pub transmission_factor: f32,
    /// `KHR_materials_transmission`: the share in R (linear), multiplying the factor.
    pub transmission_texture: Option<TextureRef>,
    /// `KHR_materials_volume`: how thick the glass is behind its surface, in the mesh's units
    /// (0 without it: thin-walled). Light let through travels that far through it, times the
    /// mesh's scale in the world.
    pub thickness_factor: f32,
    /// `KHR_materials_volume`: the thickness in G (linear), multiplying the factor.
    pub thickness_texture: Option<TextureRef>,
    /// `KHR_materials_volume`: the linear colour white light becomes after travelling
    /// [`Material::attenuation_distance`] through the glass (white without it).
    pub attenuation_color: [f32; 3],
    /// `KHR_materials_volume`: the distance, in world units, after which light let through is
    /// [`Material::attenuation_color`] (infinite without it: clear glass).
    pub attenuation_distance: f32,
    /// `KHR_materials_clearcoat`: how much of a clear lacquer (a dielectric of glTF's 4 %
    /// reflectance, on the surface's own normal or its own normal map's) coats the material, 0
    /// to 1 (0 without it).
    pub clearcoat_factor: f32,
    /// `KHR_materials_clearcoat`: the lacquer's perceptual roughness, 0 to 1.
    pub clearcoat_roughness_factor: f32,
    /// `KHR_materials_clearcoat`: how much of the lacquer there is in R (linear), multiplying
    /// the factor.
    pub clearcoat_texture: Option<TextureRef>,
    /// `KHR_materials_clearcoat`: the lacquer's roughness in G (linear), multiplying the factor.
    pub clearcoat_roughness_texture: Option<TextureRef>,
    /// `KHR_materials_clearcoat`: the lacquer's own tangent-space normal map (linear); without
    /// one it lies on the surface's own normal, not the material's normal map.
    pub clearcoat_normal_texture: Option<TextureRef>,
    /// Scale of the lacquer's normal map's X and Y.
    pub clearcoat_normal_scale: f32,
    /// `KHR_materials_sheen`: the linear colour of the sheen of cloth (velvet, felt, a car
    /// seat's fabric: back-scattering fibres, brightest at grazing angles), black without it.
    pub sheen_color_factor: [f32; 3],
    /// `KHR_materials_sheen`: the colour in RGB (sRGB), multiplying the factor.
    pub sheen_color_texture: Option<TextureRef>,
    /// `KHR_materials_sheen`: the sheen's perceptual roughness, 0 to 1.
    pub sheen_roughness_factor: f32,
    /// `KHR_materials_sheen`: the roughness in A (linear), multiplying the factor.
    pub sheen_roughness_texture: Option<TextureRef>,
    /// `KHR_materials_anisotropy`: how much rougher the specular lobe is along the surface's
    /// grain than across it (brushed metal, a record's grooves), 0 to 1 (0 without it).
    pub anisotropy_strength: f32,
    /// `KHR_materials_anisotropy`: the grain's angle from the tangent towards the bitangent,
    /// radians, counter-clockwise.
    pub anisotropy_rotation: f32,
    /// `KHR_materials_anisotropy`: the grain's direction in tangent space in RG (linear, from
    /// [0, 1] to [-1, 1]), turned by the rotation, and a strength multiplying the factor in B.
    pub anisotropy_texture: Option<TextureRef>,
    /// `KHR_materials_iridescence`: how much of a thin film (soap, oil on water, a chameleon
    /// paint) lies over the surface, its colours shifting with the angle seen at, 0 to 1 (0
    /// without it).
    pub iridescence_factor: f32,
    /// `KHR_materials_iridescence`: the film's index of refraction (1.3 by default).
    pub iridescence_ior: f32,
    /// `KHR_materials_iridescence`: the film's thickness, nanometres: the extension's
    /// `iridescenceThicknessMaximum` (400 by default), the thickness without a texture and
    /// where its texture reads 1.
    pub iridescence_thickness: f32,
    /// `KHR_materials_iridescence`: the film's thickness where its texture reads 0, nanometres
    /// (`iridescenceThicknessMinimum`, 100 by default).
    pub iridescence_thickness_minimum: f32,
    /// `KHR_materials_iridescence`: how much of the film there is in R (linear), multiplying
    /// the factor.
    pub iridescence_texture: Option<TextureRef>,
    /// `KHR_materials_iridescence`: the film's thickness in G (linear), from the minimum (0) to
    /// the greatest (1).
    pub iridescence_thickness_texture: Option<TextureRef>,
    /// `KHR_materials_diffuse_roughness`: how rough the diffuse layer is (clay, concrete, the
    /// moon: flatter, brighter towards the light behind the eye), 0 (Lambert's) to 1.
    pub diffuse_roughness: f32,
    /// `KHR_materials_diffuse_roughness`: the roughness in R (linear), multiplying the factor.
    pub diffuse_roughness_texture: Option<TextureRef>,
    /// How alpha is used.
    pub alpha_mode: AlphaMode,
    /// Whether back faces are drawn (lit with their normal flipped); otherwise they are culled.
    pub double_sided: bool,
    /// `KHR_materials_unlit`: the base colour as it is, no lighting.
    pub unlit: bool,
}

impl Default for Material {
    /// glTF's defaults: white, fully metallic and rough, no texture, opaque, single-sided.
    fn default() -> Self {
        Self {
            name: None,
            base_color_factor: [1.0; 4],
            base_color_texture: None,
            metallic_factor: 1.0,
            roughness_factor: 1.0,
            metallic_roughness_texture: None,
            normal_texture: None,
            normal_scale: 1.0,
            occlusion_texture: None,
            occlusion_strength: 1.0,
            emissive_factor: [0.0; 3],
            emissive_strength: 1.0,
            emissive_texture: None,
            ior: 1.5,
            specular_factor: 1.0,
            specular_texture: None,
            specular_color_factor: [1.0; 3],
            specular_color_texture: None,
            transmission_factor: 0.0,
            transmission_texture: None,
            thickness_factor: 0.0,
            thickness_texture: None,
            attenuation_color: [1.0; 3],
            attenuation_distance: f32::INFINITY,
            clearcoat_factor: 0.0,
            clearcoat_roughness_factor: 0.0,
            clearcoat_texture: None,
            clearcoat_roughness_texture: None,
            clearcoat_normal_texture: None,
            clearcoat_normal_scale: 1.0,
            sheen_color_factor: [0.0; 3],
            sheen_color_texture: None,
            sheen_roughness_factor: 0.0,
            sheen_roughness_texture: None,
            anisotropy_strength: 0.0,
            anisotropy_rotation: 0.0,
            anisotropy_texture: None,
            iridescence_factor: 0.0,
            iridescence_ior: 1.3,
            iridescence_thickness: 400.0,
            iridescence_thickness_minimum: 100.0,
            iridescence_texture: None,
            iridescence_thickness_texture: None,
            diffuse_roughness: 0.0,
            diffuse_roughness_texture: None,
            alpha_mode: AlphaMode::Opaque,
            double_sided: false,
            unlit: false,
        }
    }
}

impl Material {
    /// Whether an instance's tint paints over it: its name holds `paint`, in any case (the
    /// town's cars, buses and houses, and a modder's model, mark their paint so).
    #[must_use]
    pub fn is_paint(&self) -> bool {
        self.name.as_deref().is_some_and(|n| n.to_ascii_lowercase().contains("paint"))
    }

    /// A rough, non-metallic material of linear colour `rgba` named `name`: what built-in
    /// models (the ground, stand-ins) use.
    #[must_use]
    pub fn matte(name: &str, rgba: [f32; 4]) -> Self {
        Self {
            name: Some(name.to_owned()),
            base_color_factor: rgba,
            metallic_factor: 0.0,
            roughness_factor: 0.9,
            ..Self::default()
        }
    }

    /// A dielectric's specular factors, before its textures: the reflectance facing the
    /// viewer of its index of refraction times its specular colour, `((ior - 1) / (ior + 1))²
    /// × colour` (per channel), and its specular strength, 0 to 1; glTF's 0.04 and 1 without
    /// the extensions. As drawn, the reflectance facing the viewer is `min(colour, 1) ×
    /// strength` and at grazing angles `strength`, each factor times its texture.
    #[must_use]
    pub fn dielectric_specular(&self) -> ([f32; 3], f32) {
        // Exactly glTF's 0.04 at the default index, which the formula misses by a rounding.
        let facing = if self.ior == 1.5 { 0.04 } else { ((self.ior - 1.0) / (self.ior + 1.0)).powi(2) };
        (self.specular_color_factor.map(|c| facing * c.max(0.0)), self.specular_factor.clamp(0.0, 1.0))
    }

    /// Whether it lets light through (`KHR_materials_transmission`).
    #[must_use]
    pub fn is_transmissive(&self) -> bool {
        self.transmission_factor > 0.0
    }

    /// What its glass absorbs of light let through it (`KHR_materials_volume`), per channel, per
    /// unit of the mesh's scale in the world: Beer's law's coefficient, `-ln(colour) /
    /// distance`, over its thickness (its factor; a thickness texture's G scales it further).
    /// Light through a mesh of scale `s` is kept by `exp(-depth * s)`, as three.js keeps it. Zero for thin-walled or clear glass; a channel
    /// of colour 0 is taken as 1e-4 (all but none of it kept over the distance).
    #[must_use]
    pub fn optical_depth(&self) -> [f32; 3] {
        if self.thickness_factor <= 0.0 || !self.attenuation_distance.is_finite() {
            return [0.0; 3];
        }
        self.attenuation_color.map(|c| -c.max(1e-4).ln() / self.attenuation_distance * self.thickness_factor)
    }

    /// Whether a clear coat lies over it (`KHR_materials_clearcoat`).
    #[must_use]
    pub fn is_clearcoated(&self) -> bool {
        self.clearcoat_factor > 0.0
    }

    /// Whether its fibres have a sheen (`KHR_materials_sheen`: a colour not black).
    #[must_use]
    pub fn has_sheen(&self) -> bool {
        self.sheen_color_factor.iter().any(|&c| c > 0.0)
    }

    /// Whether its specular lobe is stretched along a grain (`KHR_materials_anisotropy`: a
    /// strength above 0). Its primitives then have tangents, as normal-mapped ones do.
    #[must_use]
    pub fn is_anisotropic(&self) -> bool {
        self.anisotropy_strength > 0.0
    }

    /// Whether a thin film lies over it (`KHR_materials_iridescence`: a factor above 0, and a
    /// film of some thickness somewhere).
    #[must_use]
    pub fn is_iridescent(&self) -> bool {
        let thinnest =
            if self.iridescence_thickness_texture.is_some() { self.iridescence_thickness_minimum } else { 0.0 };
        self.iridescence_factor > 0.0 && self.iridescence_thickness.max(thinnest) > 0.0
    }

    /// Whether its diffuse is rough (`KHR_materials_diffuse_roughness`: a factor above 0):
    /// Oren-Nayar's, not Lambert's.
    #[must_use]
    pub fn has_rough_diffuse(&self) -> bool {
        self.diffuse_roughness > 0.0
    }

    /// Whether what is behind it shows through it: it is alpha-blended or transmissive, so it
    /// is drawn after everything opaque, over it.
    #[must_use]
    pub fn is_see_through(&self) -> bool {
        self.alpha_mode == AlphaMode::Blend || self.is_transmissive()
    }

    /// Its texture slots, in order (base colour, metallic-roughness, normal, occlusion,
    /// emissive, specular, specular colour, transmission, sheen colour, sheen roughness,
    /// anisotropy; then the clear coat's, its roughness's and its normal map, the film's and its
    /// thickness's, the volume's thickness and the diffuse roughness): what a renderer binds,
    /// slot by slot.
    #[must_use]
    pub fn texture_slots(&self) -> [Option<&TextureRef>; TEXTURE_SLOTS] {
        [
            self.base_color_texture.as_ref(),
            self.metallic_roughness_texture.as_ref(),
            self.normal_texture.as_ref(),
            self.occlusion_texture.as_ref(),
            self.emissive_texture.as_ref(),
            self.specular_texture.as_ref(),
            self.specular_color_texture.as_ref(),
            self.transmission_texture.as_ref(),
            self.sheen_color_texture.as_ref(),
            self.sheen_roughness_texture.as_ref(),
            self.anisotropy_texture.as_ref(),
            self.clearcoat_texture.as_ref(),
            self.clearcoat_roughness_texture.as_ref(),
            self.clearcoat_normal_texture.as_ref(),
            self.iridescence_texture.as_ref(),
            self.iridescence_thickness_texture.as_ref(),
            self.thickness_texture.as_ref(),
            self.diffuse_roughness_texture.as_ref(),
        ]
    }

    /// Every texture the material samples, in slot order ([`Material::texture_slots`]).
    pub fn textures(&self) -> impl Iterator<Item = &TextureRef> {
        self.texture_slots().into_iter().flatten()
    }
}

/// A decoded image, 8-bit RGBA, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Name or URI, for messages.
    pub name: Option<String>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes; none once released ([`crate::Model::release_pixels`]),
    /// when the image is on the GPU alone.
    pub rgba8: Vec<u8>,
    /// The KTX2 file of Basis Universal data (`KHR_texture_basisu`) that `rgba8` is the
    /// largest level of, when the image is one: a renderer may upload the file's own mip levels
    /// in a GPU block format (BC7, ASTC, ETC2) instead of `rgba8`.
    pub ktx2: Option<Vec<u8>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dielectric_specular_is_gltf_s_without_the_extensions_and_follows_them() {
        assert_eq!(Material::default().dielectric_specular(), ([0.04; 3], 1.0));
        // ior 2: (1/3)² = 1/9; a tint, and a strength clamped to 1.
        let tinted =
            Material { ior: 2.0, specular_factor: 1.5, specular_color_factor: [0.5, 1.0, 18.0], ..Material::default() };
        let ([r, g, b], strength) = tinted.dielectric_specular();
        assert!((r - 0.5 / 9.0).abs() < 1e-7 && (g - 1.0 / 9.0).abs() < 1e-7 && (b - 2.0).abs() < 1e-6, "{r} {g} {b}");
        assert_eq!(strength, 1.0);
    }

    /// Glass as thick as its attenuation distance keeps its attenuation colour of white light
    /// (`exp(-depth)` at scale 1); twice as thick keeps its square; thin-walled or clear glass
    /// absorbs nothing, and a black channel all but all.
    #[test]
    fn the_optical_depth_keeps_the_attenuation_colour_over_its_distance() {
        let green = Material {
            transmission_factor: 1.0,
            thickness_factor: 0.1,
            attenuation_color: [0.2, 0.8, 0.0],
            attenuation_distance: 0.1,
            ..Material::default()
        };
        let kept = green.optical_depth().map(|d| (-d).exp());
        assert!((kept[0] - 0.2).abs() < 1e-6 && (kept[1] - 0.8).abs() < 1e-6 && kept[2] <= 1e-4, "{kept:?}");
        let thicker = Material { thickness_factor: 0.2, ..green.clone() }.optical_depth().map(|d| (-d).exp());
        assert!((thicker[0] - 0.04).abs() < 1e-6 && (thicker[1] - 0.64).abs() < 1e-6, "{thicker:?}");
        assert_eq!(Material { thickness_factor: 0.0, ..green.clone() }.optical_depth(), [0.0; 3]);
        assert_eq!(Material { attenuation_distance: f32::INFINITY, ..green }.optical_depth(), [0.0; 3]);
    }
}
