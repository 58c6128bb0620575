//! A model's materials on the GPU: each one's uniform (`Material` in `shaders/shading.wgsl`),
//! its textures (colour ones in sRGB, data ones linear, each image uploaded once per use) with
//! the file's samplers, in as many slots as the device binds, and its bind group; which
//! pipeline its draws take is `pipeline_key.rs`'s.

use std::collections::HashMap;

use bytemuck::{Pod, Zeroable};
use props_anim::WEIGHTS_PER_SLOT;
use props_anim::material::{Filter, Sampler, Wrap};
use props_anim::property::{MaterialField, PropertyId, PropertyTarget, TextureSlot};
use props_anim::{
    Model,
    material::{AlphaMode, Material},
};
use wgpu::util::DeviceExt;

use crate::mipmaps::Mipmaps;
use crate::pipeline_key::PipelineKey;
use crate::slot_bindings::SlotBindings;
use crate::texture;

/// A material's uniform, as `shaders/shading.wgsl` reads it: 960 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct MaterialUniform {
    base_color: [f32; 4],
    emissive: [f32; 4],
    pbr: [f32; 4],
    params: [f32; 4],
    /// A dielectric's specular factors ([`Material::dielectric_specular`]): its facing
    /// reflectance (rgb), its strength (w).
    specular: [f32; 4],
    /// The layers over and through the surface: `KHR_materials_transmission`'s factor (x),
    /// `KHR_materials_clearcoat`'s factor, roughness and normal map scale (y, z, w).
    layers: [f32; 4],
    /// `KHR_materials_sheen`'s colour (rgb) and roughness (w).
    sheen: [f32; 4],
    /// What `KHR_materials_volume`'s glass absorbs per unit of its mesh's world scale (rgb:
    /// [`Material::optical_depth`]).
    volume: [f32; 4],
    /// `KHR_materials_anisotropy`'s strength (x) and its rotation's cosine and sine (y, z).
    anisotropy: [f32; 4],
    /// `KHR_materials_iridescence`'s factor, its film's index of refraction, its thickness and
    /// the thickness where its texture reads 0, nanometres (x, y, z, w).
    iridescence: [f32; 4],
    /// `KHR_materials_diffuse_roughness`'s factor (x).
    diffuse: [f32; 4],
    slots: [[f32; 4]; 2 * TEXTURE_SLOTS],
    /// Per slot a clip may animate ([`TextureSlot::ALL`]), its transform's offset and scale,
    /// and (four to a row) its rotation: what an animated transform is rebuilt from.
    raw: [[f32; 4]; ANIMATABLE_SLOTS],
    rotations: [[f32; 4]; ANIMATABLE_SLOTS.div_ceil(4)],
    /// Per animatable field ([`field_index`]), where an instance's palette holds its value, in
    /// floats from the instance's first matrix, plus 1; 0 for a field no clip animates.
    animated: [[u32; 4]; 6],
}

/// The place of an animatable material field in [`MaterialUniform::animated`] (and the
/// shader's `field`s).
fn field_index(field: MaterialField) -> usize {
    let slot = |slot: TextureSlot| TextureSlot::ALL.iter().position(|&s| s == slot).unwrap_or(0);
    match field {
        MaterialField::BaseColor => 0,
        MaterialField::Metallic => 1,
        MaterialField::Roughness => 2,
        MaterialField::Emissive => 3,
        MaterialField::EmissiveStrength => 4,
        MaterialField::AlphaCutoff => 5,
        MaterialField::NormalScale => 6,
        MaterialField::OcclusionStrength => 7,
        MaterialField::TextureOffset(s) => 8 + 3 * slot(s),
        MaterialField::TextureRotation(s) => 9 + 3 * slot(s),
        MaterialField::TextureScale(s) => 10 + 3 * slot(s),
    }
}

/// Where each animated field of material `material` of `model` lies in an instance's
/// palette (see [`MaterialUniform::animated`]).
fn animated_fields(model: &Model, material: usize) -> [[u32; 4]; 6] {
    let mut animated = [[0u32; 4]; 6];
    let table = model.rig().properties();
    let first = model.property_slot() * WEIGHTS_PER_SLOT;
    for (id, target) in (0u32..).zip(table.targets()) {
        if let PropertyTarget::Material { material: m, field } = *target
            && m as usize == material
        {
            let k = field_index(field);
            animated[k / 4][k % 4] = (first + table.range(PropertyId(id)).start + 1) as u32;
        }
    }
    animated
}

/// The animated emission fields of material `material` of `model` alone, where they lie in
/// an instance's palette (an impostor's emission follows them).
fn emission_fields(model: &Model, material: usize) -> [[u32; 4]; 6] {
    let all = animated_fields(model, material);
    let mut emission = [[0u32; 4]; 6];
    for k in [MaterialField::Emissive, MaterialField::EmissiveStrength].map(field_index) {
        emission[k / 4][k % 4] = all[k / 4][k % 4];
    }
    emission
}

/// How many texture slots a material has.
pub(crate) use props_anim::material::TEXTURE_SLOTS;

/// How many of them a clip may animate the transform of: the first ones.
const ANIMATABLE_SLOTS: usize = TextureSlot::ALL.len();

/// Each texture slot in the shader's order ([`Material::texture_slots`]): its name (its
/// bindings' and `sample_NAME`'s in `shaders/shading.wgsl`), and whether it holds colour (sRGB).
pub(crate) const SLOTS: [(&str, bool); TEXTURE_SLOTS] = [
    ("base_color", true),
    ("metallic_roughness", false),
    ("normal", false),
    ("occlusion", false),
    ("emissive", true),
    ("specular", false),
    ("specular_color", true),
    ("transmission", false),
    ("sheen_color", true),
    ("sheen_roughness", false),
    ("anisotropy", false),
    ("clearcoat", false),
    ("clearcoat_roughness", false),
    ("clearcoat_normal", false),
    ("iridescence", false),
    ("iridescence_thickness", false),
    ("thickness", false),
    ("diffuse_roughness", false),
];

impl MaterialUniform {
    /// The uniform of `material` (instances' tints paint over it where it
    /// [`Material::is_paint`]).
    pub(crate) fn of(material: &Material, animated: [[u32; 4]; 6]) -> Self {
        let paint = material.is_paint();
        let (mode, cutoff) = match material.alpha_mode {
            AlphaMode::Opaque => (0.0, 0.0),
            AlphaMode::Mask { cutoff } => (1.0, cutoff),
            AlphaMode::Blend => (2.0, 0.0),
        };
        let [r, g, b] = material.emissive_factor;
        let ([f0_r, f0_g, f0_b], strength) = material.dielectric_specular();
        let mut slot_rows = [[0.0; 4]; 2 * TEXTURE_SLOTS];
        let mut raw = [[0.0, 0.0, 1.0, 1.0]; ANIMATABLE_SLOTS];
        let mut rotations = [[0.0; 4]; ANIMATABLE_SLOTS.div_ceil(4)];
        for (k, texture) in material.texture_slots().into_iter().enumerate() {
            if let Some(t) = texture.filter(|_| k < ANIMATABLE_SLOTS) {
                let ([ox, oy], [sx, sy]) = (t.transform.offset, t.transform.scale);
                raw[k] = [ox, oy, sx, sy];
                rotations[k / 4][k % 4] = t.transform.rotation;
            }
            let (rows, channel, present) = match texture {
                Some(t) => (t.transform.rows(), t.channel as f32, 1.0),
                None => ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0.0, 0.0),
            };
            let [[a, b, c], [d, e, f]] = rows;
            slot_rows[2 * k] = [a, b, c, channel];
            slot_rows[2 * k + 1] = [d, e, f, present];
        }
        Self {
            base_color: material.base_color_factor,
            emissive: [r, g, b, material.emissive_strength],
            pbr: [
                material.metallic_factor,
                material.roughness_factor,
                material.normal_scale,
                material.occlusion_strength,
            ],
            params: [f32::from(u8::from(paint)), mode, cutoff, f32::from(u8::from(material.unlit))],
            specular: [f0_r, f0_g, f0_b, strength],
            layers: [
                material.transmission_factor,
                material.clearcoat_factor,
                material.clearcoat_roughness_factor,
                material.clearcoat_normal_scale,
            ],
            sheen: {
                let [r, g, b] = material.sheen_color_factor;
                [r, g, b, material.sheen_roughness_factor]
            },
            volume: {
                let [r, g, b] = material.optical_depth();
                [r, g, b, 0.0]
            },
            anisotropy: {
                let (sin, cos) = material.anisotropy_rotation.sin_cos();
                [material.anisotropy_strength, cos, sin, 0.0]
            },
            iridescence: [
                material.iridescence_factor,
                material.iridescence_ior,
                material.iridescence_thickness,
                material.iridescence_thickness_minimum,
            ],
            diffuse: [material.diffuse_roughness, 0.0, 0.0, 0.0],
            slots: slot_rows,
            raw,
            rotations,
            animated,
        }
    }
}

/// The distinct (image, sRGB) uploads `model`'s materials need in their first `bound` slots, in
/// order of first use: an image a material samples as colour and another as data is uploaded
/// twice.
pub(crate) fn texture_uses(model: &Model, bound: usize) -> Vec<(u32, bool)> {
    let mut uses = Vec::new();
    for material in model.materials() {
        for (texture, (_, srgb)) in material.texture_slots().into_iter().zip(SLOTS).take(bound) {
            if let Some(texture) = texture
                && !uses.contains(&(texture.image, srgb))
            {
                uses.push((texture.image, srgb));
            }
        }
    }
    uses
}

/// wgpu samplers by the file's sampler state, made once per renderer.
#[derive(Default)]
pub(crate) struct Samplers {
    made: HashMap<Sampler, wgpu::Sampler>,
}

impl Samplers {
    /// The sampler for `state`.
    pub(crate) fn get(&mut self, device: &wgpu::Device, state: Sampler) -> wgpu::Sampler {
        self.made
            .entry(state)
            .or_insert_with(|| {
                let address = |wrap| match wrap {
                    Wrap::Repeat => wgpu::AddressMode::Repeat,
                    Wrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
                    Wrap::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
                };
                let filter = |filter| match filter {
                    Filter::Nearest => wgpu::FilterMode::Nearest,
                    Filter::Linear => wgpu::FilterMode::Linear,
                };
                let mipmap_filter = match state.mipmap_filter {
                    Some(Filter::Linear) => wgpu::MipmapFilterMode::Linear,
                    _ => wgpu::MipmapFilterMode::Nearest,
                };
                device.create_sampler(&wgpu::SamplerDescriptor {
                    label: Some("material"),
                    address_mode_u: address(state.wrap_s),
                    address_mode_v: address(state.wrap_t),
                    mag_filter: filter(state.mag_filter),
                    min_filter: filter(state.min_filter),
                    mipmap_filter,
                    // Without a mipmap filter, the largest level only.
                    lod_max_clamp: if state.mipmap_filter.is_some() { 32.0 } else { 0.0 },
                    ..Default::default()
                })
            })
            .clone()
    }
}

/// What a material's texture slot binds: its image, as colour or data (none: the white
/// fallback), and its sampler state (none: the default sampler).
type SlotBinding = (Option<(u32, bool)>, Option<Sampler>);

/// What every material bind group may fall back on.
pub(crate) struct Defaults {
    /// A white texel, sRGB: missing colour textures.
    pub white_srgb: wgpu::TextureView,
    /// A white texel, linear: missing data textures.
    pub white_linear: wgpu::TextureView,
    /// The sampler of missing textures.
    pub sampler: wgpu::Sampler,
}

/// `model`'s materials as bind groups of `layout`, which binds their texture slots as `bound`
/// says, with the pipeline each takes: its own, then glTF's default material (for primitives
/// without one), then `merged` (the merged draws', then its impostor's looks', where it has
/// one: its own, then each material variant's).
pub(crate) fn bind_groups(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    (layout, bound, defaults, samplers): (&wgpu::BindGroupLayout, SlotBindings, &Defaults, &mut Samplers),
    (model, merged): (&Model, &[Material]),
    textures: (&Mipmaps, wgpu::Features),
) -> Vec<(wgpu::BindGroup, PipelineKey)> {
    let unbound: Vec<&str> = SLOTS
        .iter()
        .enumerate()
        .skip(bound.textures)
        .filter(|&(k, _)| model.materials().iter().any(|m| m.texture_slots()[k].is_some()))
        .map(|(_, (name, _))| *name)
        .collect();
    if !unbound.is_empty() {
        tracing::warn!(
            ?unbound,
            "textures not drawn: this device binds {} of a material's texture slots (request the adapter's \
             limits with the device: most Vulkan, Direct3D 12 and Metal GPUs bind all of them)",
            bound.textures
        );
    }
    // Each texture's levels drawn in a submission of their own: a frame submitted from
    // another thread meanwhile waits for one texture at most (where the driver draws them
    // during the submission, as lavapipe does).
    let views: HashMap<(u32, bool), wgpu::TextureView> = texture_uses(model, bound.textures)
        .into_iter()
        .filter_map(|(image, srgb)| {
            let data = model.images().get(image as usize)?;
            let mut encoder =
                device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("mip levels") });
            let view = texture::upload((device, queue, &mut encoder), textures, data, srgb);
            queue.submit([encoder.finish()]);
            Some(((image, srgb), view))
        })
        .collect();
    // glTF's default material: every property at its default (white, metallic, rough).
    let default_material = Material::default();
    // Then each merged draw's (`draw_merge.rs`): unnamed, never animated; then the impostor's
    // looks', whose emission follows its source's animated one.
    let materials = model.materials().iter().chain(std::iter::once(&default_material)).chain(merged);
    let impostor = model.impostor().map(|i| {
        let looks = 1 + i.material_variants.len();
        (model.materials().len() + 1 + merged.len() - looks, i.emission_of)
    });
    // Materials alike (the same values, textures and samplers: a file's duplicates, or those
    // whose textures were all left out) share one bind group.
    let mut made: HashMap<(Vec<u8>, PipelineKey, Vec<SlotBinding>), wgpu::BindGroup> = HashMap::new();
    materials
        .enumerate()
        .map(|(m, material)| {
            let animated = match impostor {
                Some((first, source)) if m >= first => {
                    source.map_or([[0; 4]; 6], |s| emission_fields(model, s as usize))
                }
                _ => animated_fields(model, m),
            };
            let key = PipelineKey::of(material, &animated).within(bound.textures);
            let uniform = MaterialUniform::of(material, animated);
            let (shared, otherwise) = bound.shared_sampler(material);
            if !otherwise.is_empty() {
                let slots: Vec<&str> = otherwise.iter().map(|&k| SLOTS[k].0).collect();
                tracing::warn!(
                    material = material.name.as_deref().unwrap_or("unnamed"),
                    ?slots,
                    "textures sampled as another slot's: this device gives {} of a material's {} texture slots \
                     their own sampler, and the rest the sampler of the first of them the material fills; give \
                     those textures one sampler in the file",
                    bound.samplers,
                    bound.textures
                );
            }
            // Each slot's image (none: the white fallback) and sampler state (none: the default).
            let slots: Vec<SlotBinding> = material
                .texture_slots()
                .into_iter()
                .zip(SLOTS)
                .take(bound.textures)
                .enumerate()
                .map(|(k, (texture, (_, srgb)))| {
                    let image = texture.map(|t| (t.image, srgb)).filter(|image| views.contains_key(image));
                    match texture.filter(|_| image.is_some()) {
                        _ if k >= bound.samplers => (image, shared),
                        Some(texture) => (image, Some(texture.sampler)),
                        None => (None, None),
                    }
                })
                .collect();
            let alike = (bytemuck::bytes_of(&uniform).to_vec(), key, slots);
            if let Some(group) = made.get(&alike) {
                return (group.clone(), key);
            }
            let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("material"),
                contents: bytemuck::bytes_of(&uniform),
                usage: wgpu::BufferUsages::UNIFORM,
            });
            let mut entries = vec![wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }];
            let sampler_of = |state: Option<Sampler>, samplers: &mut Samplers| {
                state.map_or_else(|| defaults.sampler.clone(), |state| samplers.get(device, state))
            };
            let samplers_bound: Vec<wgpu::Sampler> =
                alike.2.iter().map(|&(_, state)| sampler_of(state, samplers)).collect();
            for (k, &(image, _)) in alike.2.iter().enumerate() {
                let srgb = SLOTS[k].1;
                let fallback = if srgb { &defaults.white_srgb } else { &defaults.white_linear };
                let view = image.and_then(|image| views.get(&image)).unwrap_or(fallback);
                let binding = 1 + 2 * k as u32;
                entries.push(wgpu::BindGroupEntry { binding, resource: wgpu::BindingResource::TextureView(view) });
                // Each slot's own sampler; the first sharing slot's binding holds the shared one.
                if k > bound.samplers {
                    continue;
                }
                entries.push(wgpu::BindGroupEntry {
                    binding: bound.sampler_binding(k),
                    resource: wgpu::BindingResource::Sampler(&samplers_bound[k]),
                });
            }
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("material"),
                layout,
                entries: &entries,
            });
            made.insert(alike, group.clone());
            (group, key)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use props_anim::material::{TextureRef, TextureTransform};

    use super::*;

    #[test]
    fn the_uniform_carries_factors_modes_and_slots() {
        let mut material = Material {
            alpha_mode: AlphaMode::Mask { cutoff: 0.3 },
            emissive_factor: [1.0, 0.5, 0.25],
            emissive_strength: 2.0,
            unlit: true,
            ..Material::default()
        };
        let transform = TextureTransform { offset: [0.5, 0.0], rotation: 0.0, scale: [2.0, 3.0] };
        material.normal_texture = Some(TextureRef { channel: 1, transform, ..TextureRef::new(0) });
        let painted = Material { name: Some("Paint.001".to_owned()), ..material.clone() };
        let uniform = MaterialUniform::of(&painted, [[0; 4]; 6]);
        assert_eq!(size_of::<MaterialUniform>(), 960);
        assert_eq!(uniform.specular, [0.04, 0.04, 0.04, 1.0], "glTF's dielectric without the extensions");
        assert_eq!(uniform.emissive, [1.0, 0.5, 0.25, 2.0]);
        assert_eq!(uniform.params, [1.0, 1.0, 0.3, 1.0]);
        assert_eq!((uniform.slots[4], uniform.slots[5]), ([2.0, 0.0, 0.5, 1.0], [0.0, 3.0, 0.0, 1.0]));
        assert_eq!((uniform.slots[0], uniform.slots[1]), ([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]));
        let key = PipelineKey::of(&material, &[[0; 4]; 6]);
        assert_eq!(
            key,
            PipelineKey { masked: true, textures: 1 << 2, ..PipelineKey::default() },
            "alpha-masked, and a normal map (the third slot): textured, with tangents"
        );
        assert!(!PipelineKey::of(&Material::default(), &[[0; 4]; 6]).masked, "glTF's default: opaque");
        assert_eq!(key.colored(), PipelineKey { colored: true, ..key });
        let mut animated = [[0; 4]; 6];
        animated[5][2] = 7;
        assert!(PipelineKey::of(&material, &animated).animated);
        assert!(!key.painted && PipelineKey::of(&painted, &animated).painted, "paint by its name");
        assert_eq!(PipelineKey::of(&Material::default(), &[[0; 4]; 6]).textures, 0, "glTF's default: no texture");
        let glass = Material { transmission_factor: 0.8, transmission_texture: Some(TextureRef::new(0)), ..material };
        assert_eq!(MaterialUniform::of(&glass, [[0; 4]; 6]).layers, [0.8, 0.0, 0.0, 1.0], "no coat, its map's scale 1");
        assert_eq!(MaterialUniform::of(&glass, [[0; 4]; 6]).volume, [0.0; 4], "thin-walled");
        let deep = Material {
            thickness_factor: 0.5,
            attenuation_color: [0.25, 1.0, 1.0],
            attenuation_distance: 1.0,
            ..glass.clone()
        };
        let [r, g, b, w] = MaterialUniform::of(&deep, [[0; 4]; 6]).volume;
        assert!((r - 4f32.ln() * 0.5).abs() < 1e-6 && [g, b, w] == [0.0; 3], "half its distance: half of -ln 0.25");
        let glass = PipelineKey::of(&glass, &[[0; 4]; 6]);
        assert!(glass.blend && glass.transmissive, "drawn over what is behind it");
        assert_eq!(glass.textures, 1 << 2 | 1 << 7, "its transmission texture: the eighth slot");
        let lacquer = Material { clearcoat_factor: 0.5, clearcoat_roughness_factor: 0.25, ..Material::default() };
        assert_eq!(MaterialUniform::of(&lacquer, [[0; 4]; 6]).layers, [0.0, 0.5, 0.25, 1.0]);
        let lacquer = PipelineKey::of(&lacquer, &[[0; 4]; 6]);
        assert!(lacquer.clearcoat && !lacquer.blend, "an opaque coated material");
        let velvet = Material {
            sheen_color_factor: [0.5, 0.25, 1.0],
            sheen_roughness_factor: 0.75,
            sheen_roughness_texture: Some(TextureRef::new(0)),
            ..Material::default()
        };
        assert_eq!(MaterialUniform::of(&velvet, [[0; 4]; 6]).sheen, [0.5, 0.25, 1.0, 0.75]);
        let velvet = PipelineKey::of(&velvet, &[[0; 4]; 6]);
        assert!(velvet.sheen && !velvet.blend, "an opaque sheen");
        assert_eq!(velvet.textures, 1 << 9, "its sheen roughness texture: the tenth slot");
        let brushed = Material {
            anisotropy_strength: 0.5,
            anisotropy_rotation: std::f32::consts::FRAC_PI_2,
            anisotropy_texture: Some(TextureRef::new(0)),
            ..Material::default()
        };
        let [strength, cos, sin, w] = MaterialUniform::of(&brushed, [[0; 4]; 6]).anisotropy;
        assert!(strength == 0.5 && cos.abs() < 1e-6 && sin == 1.0 && w == 0.0, "along the bitangent");
        let brushed = PipelineKey::of(&brushed, &[[0; 4]; 6]);
        assert!(brushed.anisotropic && !brushed.blend, "an opaque grain");
        assert_eq!(brushed.textures, 1 << 10, "its anisotropy texture: the eleventh slot");
        let smooth = Material { anisotropy_strength: 0.0, ..Material::default() };
        assert!(!PipelineKey::of(&smooth, &[[0; 4]; 6]).anisotropic);
        let pearl = Material { iridescence_factor: 0.5, iridescence_ior: 1.5, ..Material::default() };
        assert_eq!(MaterialUniform::of(&pearl, [[0; 4]; 6]).iridescence, [0.5, 1.5, 400.0, 100.0]);
        assert!(PipelineKey::of(&pearl, &[[0; 4]; 6]).iridescent);
        let no_film = Material { iridescence_thickness: 0.0, ..pearl };
        assert!(!PipelineKey::of(&no_film, &[[0; 4]; 6]).iridescent, "a film of no thickness is none");
        let clay = Material { diffuse_roughness: 0.75, ..Material::default() };
        assert_eq!(MaterialUniform::of(&clay, [[0; 4]; 6]).diffuse, [0.75, 0.0, 0.0, 0.0]);
        assert!(PipelineKey::of(&clay, &[[0; 4]; 6]).rough_diffuse);
        assert!(!PipelineKey::of(&Material::default(), &[[0; 4]; 6]).rough_diffuse, "Lambert's by default");
        let flaked = Material {
            clearcoat_factor: 1.0,
            clearcoat_texture: Some(TextureRef::new(0)),
            clearcoat_normal_texture: Some(TextureRef::new(0)),
            clearcoat_normal_scale: 0.5,
            diffuse_roughness_texture: Some(TextureRef::new(0)),
            base_color_texture: Some(TextureRef::new(0)),
            ..Material::default()
        };
        assert_eq!(MaterialUniform::of(&flaked, [[0; 4]; 6]).layers[3], 0.5, "the coat's normal map's scale");
        let key = PipelineKey::of(&flaked, &[[0; 4]; 6]);
        assert_eq!(key.textures, 1 | 1 << 11 | 1 << 13 | 1 << 17, "the coat's, its normal map's, the roughness's");
        assert_eq!(key.within(TEXTURE_SLOTS), key);
        assert_eq!(key.within(11).textures, 1, "past the slots a device binds, none sampled");
    }
}
