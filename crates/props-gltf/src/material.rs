//! Materials: glTF's metallic-roughness model with its five texture slots, a dielectric's
//! specular with two more ([`crate::specular`]) and its transmission with one
//! ([`crate::transmission`]), each slot with its sampler, UV set and `KHR_texture_transform`;
//! its glass's depth and colour with one ([`crate::volume`]); a clear coat with three
//! ([`crate::clearcoat`]); a fabric's sheen with two ([`crate::sheen`]); brushed metal's grain
//! with one ([`crate::anisotropy`]); a thin film with two ([`crate::iridescence`]); a rough
//! diffuse with one ([`crate::diffuse_roughness`]); alpha mode,
//! sidedness, `KHR_materials_emissive_strength` and `KHR_materials_unlit`. Each extension's
//! module reads its own factors. Spec/gloss materials are read into it ([`crate::spec_gloss`]).
//! Other `KHR_materials_*` extensions are warned about; the base material under them is still
//! read.

use gltf::json::Root;
use gltf::json::extensions::texture::TextureTransform as JsonTransform;
use gltf::json::material::AlphaMode as JsonAlphaMode;
use gltf::json::texture::{MagFilter, MinFilter, WrappingMode};
use gltf::json::validation::Checked;
use props_anim::material::{AlphaMode, Image, Material, TextureRef};
use props_anim::material::{Filter, Sampler, TextureTransform, Wrap};
use serde::de::DeserializeOwned;

use crate::anisotropy::{self, Anisotropy};
use crate::clearcoat::{self, Clearcoat};
use crate::diffuse_roughness::{self, DiffuseRoughness};
use crate::drops::Drops;
use crate::error::{ErrorKind, ImportError, Warnings, finite, warn};
use crate::image_source::ImageSource;
use crate::images::Images;
use crate::iridescence::{self, Film, Iridescence};
use crate::parts::{Part, Skip};
use crate::sheen::{self, Sheen};
use crate::spec_gloss::{self, SpecularGlossiness};
use crate::specular::{self, Ior, Specular};
use crate::transmission::{self, Transmission};
use crate::uv_layout::UvLayout;
use crate::volume::{self, Volume};
use crate::{document, index_u32};

/// Material extensions whose effect the renderer does not draw: the base material under them
/// is drawn, with a warning.
const UNDRAWN_EXTENSIONS: &[&str] = &["KHR_materials_dispersion", "KHR_materials_diffuse_transmission"];

/// The materials and the images they use, as the importer reads them.
pub(crate) struct Materials {
    /// Every material of the file, in order (a dropped one as the default material).
    pub materials: Vec<Material>,
    /// Every image a material samples, decoded once, in order of first use.
    pub images: Vec<Image>,
}

/// One texture slot of a material as the file writes it.
struct Slot<'a> {
    /// Its JSON path (`materials[2].normalTexture`).
    path: String,
    /// The texture.
    texture: usize,
    /// The `TEXCOORD_n` set it reads (the transform's `texCoord` override applied).
    set: u32,
    /// Its `KHR_texture_transform`, if any.
    transform: Option<&'a JsonTransform>,
}

/// What the gltf crate keeps of a material as raw JSON, parsed.
struct Raw {
    /// The `KHR_texture_transform` of the normal, occlusion and clear coat's normal slots.
    transforms: [Option<JsonTransform>; 3],
    /// Its spec/gloss model, which replaces the metal/rough one where it is given.
    spec_gloss: Option<SpecularGlossiness>,
    /// `KHR_materials_ior`.
    ior: Option<Ior>,
    /// `KHR_materials_specular`.
    specular: Option<Specular>,
    /// `KHR_materials_transmission`.
    transmission: Option<Transmission>,
    /// `KHR_materials_volume`.
    volume: Option<Volume>,
    /// `KHR_materials_clearcoat`.
    clearcoat: Option<Clearcoat>,
    /// `KHR_materials_sheen`.
    sheen: Option<Sheen>,
    /// `KHR_materials_anisotropy`.
    anisotropy: Option<Anisotropy>,
    /// `KHR_materials_iridescence`.
    iridescence: Option<Iridescence>,
    /// `KHR_materials_diffuse_roughness`.
    diffuse_roughness: Option<DiffuseRoughness>,
}

/// How many texture slots a material has.
const SLOTS: usize = props_anim::material::TEXTURE_SLOTS;
/// The metal/rough, normal, anisotropy and clear coat's normal slots, in
/// [`Material::textures`]' order.
const METAL_ROUGH: usize = 1;
const NORMAL: usize = 2;
const ANISOTROPY: usize = 10;
const CLEARCOAT_NORMAL: usize = 13;

/// The slots of `material` (number `i`), in [`Material::textures`]' order (a spec/gloss
/// material's diffuse texture in the base colour slot, and its specular-glossiness texture in
/// the metal/rough and specular colour slots).
fn slots<'a>(i: usize, material: &'a gltf::json::Material, raw: &'a Raw) -> [Option<Slot<'a>>; SLOTS] {
    let pbr = &material.pbr_metallic_roughness;
    let transforms = &raw.transforms;
    let info = |name: &str, info: &'a Option<gltf::json::texture::Info>| {
        info.as_ref().map(|info| {
            let transform = info.extensions.as_ref().and_then(|e| e.texture_transform.as_ref());
            Slot {
                path: format!("materials[{i}].{name}"),
                texture: info.index.value(),
                set: transform.and_then(|t| t.tex_coord).unwrap_or(info.tex_coord),
                transform,
            }
        })
    };
    let normal = material.normal_texture.as_ref().map(|n| (n.index.value(), n.tex_coord));
    let occlusion = material.occlusion_texture.as_ref().map(|o| (o.index.value(), o.tex_coord));
    let other = |name: &str, slot: Option<(usize, u32)>, transform: &'a Option<JsonTransform>| {
        slot.map(|(texture, tex_coord)| Slot {
            path: format!("materials[{i}].{name}"),
            texture,
            set: transform.as_ref().and_then(|t| t.tex_coord).unwrap_or(tex_coord),
            transform: transform.as_ref(),
        })
    };
    let specular = |field: &str, texture| info(&format!("extensions.{}.{field}", specular::SPECULAR), texture);
    let (coat, coat_path) = (raw.clearcoat.as_ref(), format!("extensions.{}", clearcoat::NAME));
    let coat_normal = coat.and_then(|c| c.clearcoat_normal_texture.as_ref()).map(|n| (n.index.value(), n.tex_coord));
    let (film, film_path) = (raw.iridescence.as_ref(), format!("extensions.{}", iridescence::NAME));
    let [base, metal_rough, strength, colour] = match (&raw.spec_gloss, &raw.specular) {
        (Some(sg), _) => {
            let glossy = format!("extensions.{}.specularGlossinessTexture", spec_gloss::NAME);
            [
                info(&format!("extensions.{}.diffuseTexture", spec_gloss::NAME), &sg.diffuse_texture),
                info(&glossy, &sg.specular_glossiness_texture),
                None,
                info(&glossy, &sg.specular_glossiness_texture),
            ]
        }
        (None, read) => [
            info("pbrMetallicRoughness.baseColorTexture", &pbr.base_color_texture),
            info("pbrMetallicRoughness.metallicRoughnessTexture", &pbr.metallic_roughness_texture),
            read.as_ref().and_then(|r| specular("specularTexture", &r.specular_texture)),
            read.as_ref().and_then(|r| specular("specularColorTexture", &r.specular_color_texture)),
        ],
    };
    [
        base,
        metal_rough,
        other("normalTexture", normal, &transforms[0]),
        other("occlusionTexture", occlusion, &transforms[1]),
        info("emissiveTexture", &material.emissive_texture),
        strength,
        colour,
        raw.transmission.as_ref().and_then(|t| {
            info(&format!("extensions.{}.transmissionTexture", transmission::NAME), &t.transmission_texture)
        }),
        raw.sheen
            .as_ref()
            .and_then(|s| info(&format!("extensions.{}.sheenColorTexture", sheen::NAME), &s.sheen_color_texture)),
        raw.sheen.as_ref().and_then(|s| {
            info(&format!("extensions.{}.sheenRoughnessTexture", sheen::NAME), &s.sheen_roughness_texture)
        }),
        raw.anisotropy
            .as_ref()
            .and_then(|a| info(&format!("extensions.{}.anisotropyTexture", anisotropy::NAME), &a.anisotropy_texture)),
        coat.and_then(|c| info(&format!("{}.clearcoatTexture", coat_path), &c.clearcoat_texture)),
        coat.and_then(|c| info(&format!("{}.clearcoatRoughnessTexture", coat_path), &c.clearcoat_roughness_texture)),
        other(&format!("{coat_path}.clearcoatNormalTexture"), coat_normal, &transforms[2]),
        film.and_then(|f| info(&format!("{film_path}.iridescenceTexture"), &f.iridescence_texture)),
        film.and_then(|f| info(&format!("{film_path}.iridescenceThicknessTexture"), &f.iridescence_thickness_texture)),
        raw.volume
            .as_ref()
            .and_then(|v| info(&format!("extensions.{}.thicknessTexture", volume::NAME), &v.thickness_texture)),
        raw.diffuse_roughness.as_ref().and_then(|d| {
            let path = format!("extensions.{}.diffuseRoughnessTexture", diffuse_roughness::NAME);
            info(&path, &d.diffuse_roughness_texture)
        }),
    ]
}

/// The raw JSON of material `i` the importer reads: parsed, or `None` (with a warning) where
/// it does not parse.
fn raw(i: usize, material: &gltf::json::Material, warnings: &mut Warnings) -> Raw {
    let normal = material.normal_texture.as_ref().and_then(|n| n.extensions.as_ref()).map(|e| &e.others);
    let occlusion = material.occlusion_texture.as_ref().and_then(|o| o.extensions.as_ref()).map(|e| &e.others);
    let clearcoat: Option<Clearcoat> = extension(i, material, clearcoat::NAME, "it has no clear coat", warnings);
    let coat_normal = clearcoat.as_ref().and_then(|c| c.clearcoat_normal_texture.as_ref());
    let coat_normal = coat_normal.and_then(|n| n.extensions.as_ref()).map(|e| &e.others);
    let coat_normal_slot = format!("extensions.{}.clearcoatNormalTexture", clearcoat::NAME);
    let slots = [("normalTexture", normal), ("occlusionTexture", occlusion), (coat_normal_slot.as_str(), coat_normal)];
    let transforms = slots.map(|(slot, others)| {
        let value = others?.get("KHR_texture_transform")?;
        match serde_json::from_value::<JsonTransform>(value.clone()) {
            Ok(transform) => Some(transform),
            Err(error) => {
                let path = format!("materials[{i}].{slot}.extensions.KHR_texture_transform");
                warn(warnings, path, format!("ignored: {error}; the texture is used untransformed"));
                None
            }
        }
    });
    Raw {
        transforms,
        spec_gloss: extension(i, material, spec_gloss::NAME, "the material's metal/rough model is drawn", warnings),
        ior: extension(i, material, specular::IOR, "the index of refraction is 1.5", warnings),
        specular: extension(i, material, specular::SPECULAR, "the specular is glTF's default", warnings),
        transmission: extension(i, material, transmission::NAME, "nothing shows through it", warnings),
        volume: extension(i, material, volume::NAME, "its glass is thin-walled and clear", warnings),
        clearcoat,
        sheen: extension(i, material, sheen::NAME, "it has no sheen", warnings),
        anisotropy: extension(i, material, anisotropy::NAME, "its specular is not stretched", warnings),
        iridescence: extension(i, material, iridescence::NAME, "it has no thin film", warnings),
        diffuse_roughness: extension(i, material, diffuse_roughness::NAME, "its diffuse is Lambert's", warnings),
    }
}

/// Material `i`'s extension `name`, parsed; `None` where it has none, or (with a warning
/// saying what is drawn `instead`) where it does not parse.
fn extension<T: DeserializeOwned>(
    i: usize,
    material: &gltf::json::Material,
    name: &str,
    instead: &str,
    warnings: &mut Warnings,
) -> Option<T> {
    let value = material.extensions.as_ref()?.others.get(name)?;
    match serde_json::from_value(value.clone()) {
        Ok(parsed) => Some(parsed),
        Err(error) => {
            warn(warnings, format!("materials[{i}].extensions.{name}"), format!("ignored: {error}; {instead}"));
            None
        }
    }
}

/// The UV layout of a material's `slots`, `anisotropic` or not.
fn layout_of(slots: &[Option<Slot<'_>>; SLOTS], anisotropic: bool) -> UvLayout {
    let set = |slot: usize| slots[slot].as_ref().map(|s| s.set);
    let maps = (set(NORMAL).or(set(CLEARCOAT_NORMAL)), set(ANISOTROPY));
    UvLayout::of(slots.iter().flatten().map(|s| s.set), maps, anisotropic)
}

/// The UV layout of every material of `root`, in order.
#[must_use]
pub(crate) fn uv_layouts(root: &Root) -> Vec<UvLayout> {
    let mut quiet = Vec::new();
    let layout = |material| {
        let raw = raw(0, material, &mut quiet);
        let anisotropic = raw.anisotropy.as_ref().is_some_and(|a| a.anisotropy_strength > 0.0);
        layout_of(&slots(0, material, &raw), anisotropic)
    };
    root.materials.iter().map(layout).collect()
}

/// Imports every material of the file, in order, and the images they use (each decoded once,
/// in order of first use; images no `drawn` material uses are not decoded: a white texel
/// stands for them, [`Images::of_texture`]). A material left out or unreadable is drawn as the
/// default one, a texture or image left out or unreadable as if the slot were empty (see
/// [`Drops`]).
pub(crate) fn import_materials(
    root: &Root,
    drawn: &[bool],
    source: &ImageSource<'_>,
    warnings: &mut Warnings,
    drops: &mut Drops<'_>,
) -> Result<Materials, ImportError> {
    let mut images = Images::new(root);
    let mut materials = Vec::with_capacity(root.materials.len());
    for (i, material) in root.materials.iter().enumerate() {
        let default = Material { name: material.name.clone(), ..Material::default() };
        if drops.skip.material(i) {
            materials.push(default);
            continue;
        }
        let drawn = drawn.get(i).copied().unwrap_or(false);
        match import_material((root, drawn), i, material, source, &mut images, warnings, drops) {
            Ok(imported) => materials.push(imported),
            Err(error) => {
                drops.drop_or_refuse(Part::Material { index: index_u32(i) }, error)?;
                materials.push(default);
            }
        }
    }
    Ok(Materials { materials, images: images.into_list() })
}

/// The glTF images the `drawn` materials read (those `skip` leaves in, through their
/// textures), each once, in order of first use.
pub(crate) fn images_read(root: &Root, drawn: &[bool], skip: &Skip) -> Vec<usize> {
    let mut seen = vec![false; root.images.len()];
    let mut read = Vec::new();
    let read_by = |i: usize| drawn.get(i).copied().unwrap_or(false) && !skip.material(i);
    for (i, material) in root.materials.iter().enumerate().filter(|&(i, _)| read_by(i)) {
        let raw = raw(i, material, &mut Vec::new());
        for slot in slots(i, material, &raw).iter().flatten().filter(|slot| !skip.texture(root, slot.texture)) {
            if let Some(image) = document::texture_image(root, slot.texture)
                && let Some(seen) = seen.get_mut(image).filter(|seen| !**seen)
            {
                *seen = true;
                read.push(image);
            }
        }
    }
    read
}

/// Material `i`, `drawn` or not (then its images are not decoded).
fn import_material(
    (root, drawn): (&Root, bool),
    i: usize,
    material: &gltf::json::Material,
    source: &ImageSource<'_>,
    images: &mut Images,
    warnings: &mut Warnings,
    drops: &mut Drops<'_>,
) -> Result<Material, ImportError> {
    let pbr = &material.pbr_metallic_roughness;
    let at = |field: &str| format!("materials[{i}].{field}");
    let raw = raw(i, material, warnings);
    let ([r, g, b, a], metallic, roughness) = match &raw.spec_gloss {
        Some(sg) => {
            let extension = at(&format!("extensions.{}", spec_gloss::NAME));
            let at = |field: &str| format!("{extension}.{field}");
            let diffuse = finite(sg.diffuse_factor, at("diffuseFactor"))?;
            finite([sg.glossiness_factor], at("glossinessFactor"))?;
            finite(sg.specular_factor, at("specularFactor"))?;
            let message = "drawn as metal/rough, as `gltf-transform metalrough` converts it: the diffuse colour as \
                           base colour, no metal, roughness 1 - glossiness, the specular colour as a non-metal's \
                           reflectance (Khronos archived this extension: export in the metal/rough workflow)";
            warn(warnings, extension, message);
            (diffuse, 0.0, sg.roughness_factor())
        }
        None => (
            finite(pbr.base_color_factor.0, at("pbrMetallicRoughness.baseColorFactor"))?,
            finite([pbr.metallic_factor.0], at("pbrMetallicRoughness.metallicFactor"))?[0],
            finite([pbr.roughness_factor.0], at("pbrMetallicRoughness.roughnessFactor"))?[0],
        ),
    };
    let (ior, specular_factor, specular_color_factor) = dielectric(i, &raw, warnings)?;
    let transmission_factor = match &raw.transmission {
        Some(read) => {
            let at = at(&format!("extensions.{}.transmissionFactor", transmission::NAME));
            finite([read.transmission_factor], at)?[0].clamp(0.0, 1.0)
        }
        None => 0.0,
    };
    // Each extension's fields, at `extensions.NAME.field`.
    let of = |name: &'static str| move |field: &str| at(&format!("extensions.{name}.{field}"));
    let (thickness_factor, attenuation_color, attenuation_distance) = match &raw.volume {
        Some(read) => read.factors(of(volume::NAME), warnings)?,
        None => (0.0, [1.0; 3], f32::INFINITY),
    };
    let (clearcoat_factor, clearcoat_roughness_factor, clearcoat_normal_scale) = match &raw.clearcoat {
        Some(read) => read.factors(of(clearcoat::NAME))?,
        None => (0.0, 0.0, 1.0),
    };
    let (sheen_color_factor, sheen_roughness_factor) = match &raw.sheen {
        Some(read) => read.factors(of(sheen::NAME))?,
        None => ([0.0; 3], 0.0),
    };
    let (anisotropy_strength, anisotropy_rotation) = match &raw.anisotropy {
        Some(read) => read.factors(of(anisotropy::NAME))?,
        None => (0.0, 0.0),
    };
    let film = match &raw.iridescence {
        Some(read) => read.film(of(iridescence::NAME))?,
        None => Film::default(),
    };
    let diffuse_roughness = match &raw.diffuse_roughness {
        Some(read) => read.factor(of(diffuse_roughness::NAME))?,
        None => 0.0,
    };
    let emissive = finite(material.emissive_factor.0, at("emissiveFactor"))?;
    let extensions = material.extensions.as_ref();
    let strength = extensions.and_then(|e| e.emissive_strength.as_ref()).map_or(1.0, |s| s.emissive_strength.0);
    let [strength] = finite([strength], at("extensions.KHR_materials_emissive_strength.emissiveStrength"))?;
    let normal_scale = material.normal_texture.as_ref().map_or(1.0, |n| n.scale);
    let [normal_scale] = finite([normal_scale], at("normalTexture.scale"))?;
    let occlusion_strength = material.occlusion_texture.as_ref().map_or(1.0, |o| o.strength.0);
    let [occlusion_strength] = finite([occlusion_strength], at("occlusionTexture.strength"))?;
    let alpha_mode = match material.alpha_mode {
        Checked::Valid(JsonAlphaMode::Opaque) => AlphaMode::Opaque,
        Checked::Valid(JsonAlphaMode::Mask) => {
            let cutoff = material.alpha_cutoff.map_or(0.5, |c| c.0);
            AlphaMode::Mask { cutoff: finite([cutoff], at("alphaCutoff"))?[0] }
        }
        Checked::Valid(JsonAlphaMode::Blend) => AlphaMode::Blend,
        Checked::Invalid => return Err(ImportError::at(at("alphaMode"), ErrorKind::InvalidValue)),
    };
    let others = extensions.map(|e| &e.others);
    let unlit = others.is_some_and(|o| o.contains_key("KHR_materials_unlit"));
    for name in others.into_iter().flat_map(|o| o.keys()).filter(|n| UNDRAWN_EXTENSIONS.contains(&n.as_str())) {
        let message = format!("{name} is not drawn; the material's base colour, metal and roughness are");
        warn(warnings, at(&format!("extensions.{name}")), message);
    }

    let slots = slots(i, material, &raw);
    let uvs = layout_of(&slots, anisotropy_strength > 0.0);
    let [first, second] = uvs.sets;
    for slot in slots.iter().flatten().filter(|s| !uvs.sets.contains(&s.set)) {
        let message = format!(
            "a material reads at most two UV sets (it reads TEXCOORD_{first} and TEXCOORD_{second}); this texture \
             is read from TEXCOORD_{first} instead"
        );
        warn(warnings, &slot.path, message);
    }
    let mut textures = [None; SLOTS];
    for (k, slot) in slots.iter().enumerate() {
        let Some(slot) = slot else { continue };
        let Some(mut image) = images.of_texture((root, drawn), slot.texture, &slot.path, source, warnings, drops)?
        else {
            continue;
        };
        if let (METAL_ROUGH, Some(sg)) = (k, &raw.spec_gloss) {
            let glossiness = sg.glossiness_factor;
            image = images.derived(image, glossiness.to_bits(), source.budget, &slot.path, |from| {
                spec_gloss::roughness_image(from, glossiness)
            })?;
        }
        let transform = match slot.transform {
            Some(t) => TextureTransform {
                offset: finite(t.offset.0, format!("{}.extensions.KHR_texture_transform.offset", slot.path))?,
                rotation: finite([t.rotation.0], format!("{}.extensions.KHR_texture_transform.rotation", slot.path))?
                    [0],
                scale: finite(t.scale.0, format!("{}.extensions.KHR_texture_transform.scale", slot.path))?,
            },
            None => TextureTransform::default(),
        };
        textures[k] =
            Some(TextureRef { image, sampler: sampler(root, slot.texture), channel: uvs.channel(slot.set), transform });
    }
    let [
        base_color_texture,
        metallic_roughness_texture,
        normal_texture,
        occlusion_texture,
        emissive_texture,
        specular_texture,
        specular_color_texture,
        transmission_texture,
        sheen_color_texture,
        sheen_roughness_texture,
        anisotropy_texture,
        clearcoat_texture,
        clearcoat_roughness_texture,
        clearcoat_normal_texture,
        iridescence_texture,
        iridescence_thickness_texture,
        thickness_texture,
        diffuse_roughness_texture,
    ] = textures;
    Ok(Material {
        name: material.name.clone(),
        base_color_factor: [r, g, b, a],
        base_color_texture,
        metallic_factor: metallic,
        roughness_factor: roughness,
        metallic_roughness_texture,
        normal_texture,
        normal_scale,
        occlusion_texture,
        occlusion_strength,
        emissive_factor: emissive,
        emissive_strength: strength,
        emissive_texture,
        ior,
        specular_factor,
        specular_texture,
        specular_color_factor,
        specular_color_texture,
        transmission_factor,
        transmission_texture,
        thickness_factor,
        thickness_texture,
        attenuation_color,
        attenuation_distance,
        clearcoat_factor,
        clearcoat_roughness_factor,
        clearcoat_texture,
        clearcoat_roughness_texture,
        clearcoat_normal_texture,
        clearcoat_normal_scale,
        sheen_color_factor,
        sheen_color_texture,
        sheen_roughness_factor,
        sheen_roughness_texture,
        anisotropy_strength,
        anisotropy_rotation,
        anisotropy_texture,
        iridescence_factor: film.factor,
        iridescence_ior: film.ior,
        iridescence_thickness: film.thickness,
        iridescence_thickness_minimum: film.thickness_minimum,
        iridescence_texture,
        iridescence_thickness_texture,
        diffuse_roughness,
        diffuse_roughness_texture,
        alpha_mode,
        double_sided: material.double_sided,
        unlit,
    })
}

/// Material `i`'s index of refraction and specular strength and colour factors: a spec/gloss
/// material's specular colour, or `KHR_materials_ior`'s and `KHR_materials_specular`'s
/// (glTF's defaults without them).
fn dielectric(i: usize, raw: &Raw, warnings: &mut Warnings) -> Result<(f32, f32, [f32; 3]), ImportError> {
    let default = Material::default();
    let at = |name: &str, field: &str| format!("materials[{i}].extensions.{name}.{field}");
    if let Some(sg) = &raw.spec_gloss {
        // The spec/gloss model replaces the metal/rough extensions.
        return Ok((spec_gloss::IOR, 1.0, sg.specular_factor));
    }
    let mut ior = match &raw.ior {
        Some(read) => finite([read.ior], at(specular::IOR, "ior"))?[0],
        None => default.ior,
    };
    if ior != 0.0 && ior < 1.0 {
        let message =
            format!("the index of refraction {ior} is below 1 (and not 0, an infinite one): {} is drawn", default.ior);
        warn(warnings, at(specular::IOR, "ior"), message);
        ior = default.ior;
    }
    let (factor, color) = match &raw.specular {
        Some(read) => (
            finite([read.specular_factor], at(specular::SPECULAR, "specularFactor"))?[0],
            finite(read.specular_color_factor, at(specular::SPECULAR, "specularColorFactor"))?,
        ),
        None => (default.specular_factor, default.specular_color_factor),
    };
    Ok((ior, factor, color))
}

/// The sampler of texture `t` (glTF's defaults where it has none or says nothing: repeat,
/// linear, mipmapped).
fn sampler(root: &Root, t: usize) -> Sampler {
    let Some(sampler) = root.textures.get(t).and_then(|t| t.sampler).and_then(|s| root.samplers.get(s.value())) else {
        return Sampler { mipmap_filter: Some(Filter::Linear), ..Sampler::default() };
    };
    let wrap = |mode: &Checked<WrappingMode>| match mode {
        Checked::Valid(WrappingMode::ClampToEdge) => Wrap::ClampToEdge,
        Checked::Valid(WrappingMode::MirroredRepeat) => Wrap::MirroredRepeat,
        _ => Wrap::Repeat,
    };
    let mag_filter = match sampler.mag_filter {
        Some(Checked::Valid(MagFilter::Nearest)) => Filter::Nearest,
        _ => Filter::Linear,
    };
    let (min_filter, mipmap_filter) = match sampler.min_filter {
        Some(Checked::Valid(MinFilter::Nearest)) => (Filter::Nearest, None),
        Some(Checked::Valid(MinFilter::Linear)) => (Filter::Linear, None),
        Some(Checked::Valid(MinFilter::NearestMipmapNearest)) => (Filter::Nearest, Some(Filter::Nearest)),
        Some(Checked::Valid(MinFilter::LinearMipmapNearest)) => (Filter::Linear, Some(Filter::Nearest)),
        Some(Checked::Valid(MinFilter::NearestMipmapLinear)) => (Filter::Nearest, Some(Filter::Linear)),
        _ => (Filter::Linear, Some(Filter::Linear)),
    };
    Sampler { wrap_s: wrap(&sampler.wrap_s), wrap_t: wrap(&sampler.wrap_t), mag_filter, min_filter, mipmap_filter }
}
