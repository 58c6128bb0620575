//! The material model read from real exports (Blender 3.4's glTF exporter,
//! `tests/models/materials/make.py`) and Khronos's TextureTransformTest: alpha modes,
//! sidedness, factors, emissive strength, the five texture slots with their samplers, UV sets
//! and transforms, and tangents, read or made with MikkTSpace.

use props_anim::material::{Filter, TextureTransform, Wrap};
use props_anim::{
    Model,
    material::{AlphaMode, Material},
};
use std::path::Path;

use props_gltf::Limits;
use props_gltf::gate::{admit_file, admit_slice};
use props_gltf::validate::Consequence;
use serde_json::Value;

use crate::real_models::models_dir;

fn import(name: &str) -> Model {
    let path = models_dir().join("materials").join(name);
    admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import.model
}

fn named<'m>(model: &'m Model, name: &str) -> &'m Material {
    model.materials().iter().find(|m| m.name.as_deref() == Some(name)).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn alpha_modes_and_sidedness() {
    let leaves = import("leaves_mask.glb");
    let leaf = named(&leaves, "LeafMask");
    assert!(matches!(leaf.alpha_mode, AlphaMode::Mask { cutoff } if (cutoff - 0.4).abs() < 1e-6));
    assert!(leaf.double_sided && leaf.base_color_texture.is_some());
    assert_eq!((named(&leaves, "Pot").alpha_mode, named(&leaves, "Pot").double_sided), (AlphaMode::Opaque, false));
    let window = import("window_blend.glb");
    assert_eq!(named(&window, "PaneFactorAlpha").alpha_mode, AlphaMode::Blend);
    assert!((named(&window, "PaneFactorAlpha").base_color_factor[3] - 0.4).abs() < 1e-6);
}

#[test]
fn factors_and_emission() {
    let metals = import("metal_rough.glb");
    let gold = named(&metals, "M1_R025");
    assert_eq!((gold.metallic_factor, gold.roughness_factor), (1.0, 0.25));
    let emissive = import("emissive.glb");
    let strong = emissive.materials().iter().find(|m| m.emissive_strength != 1.0).expect("one has a strength");
    assert_eq!(strong.emissive_strength, 3.0);
    assert!(strong.emissive_texture.is_some());
    assert_eq!(named(&emissive, "EmissiveFactor").emissive_factor, [1.0, 0.35, 0.05]);
}

#[test]
fn samplers_wrap_and_filter_as_written() {
    let model = import("samplers.glb");
    let sampler = |name| named(&model, name).base_color_texture.expect("textured").sampler;
    assert_eq!((sampler("S_Repeat").wrap_s, sampler("S_Repeat").mipmap_filter), (Wrap::Repeat, Some(Filter::Linear)));
    assert_eq!(
        (sampler("S_ClampToEdge").wrap_s, sampler("S_ClampToEdge").wrap_t),
        (Wrap::ClampToEdge, Wrap::ClampToEdge)
    );
    assert_eq!(sampler("S_MirroredRepeat").wrap_t, Wrap::MirroredRepeat);
    assert_eq!(
        (sampler("S_MirrorS_ClampT").wrap_s, sampler("S_MirrorS_ClampT").wrap_t),
        (Wrap::MirroredRepeat, Wrap::ClampToEdge)
    );
    let nearest = sampler("S_NearestRepeat");
    assert_eq!(
        (nearest.mag_filter, nearest.min_filter, nearest.mipmap_filter),
        (Filter::Nearest, Filter::Nearest, Some(Filter::Nearest))
    );
}

#[test]
fn a_second_uv_set_is_read_for_the_slots_that_ask_for_it() {
    let model = import("two_uv_sets.glb");
    let material = named(&model, "TwoUVSets");
    let channel = |t: Option<props_anim::material::TextureRef>| t.expect("textured").channel;
    assert_eq!(channel(material.base_color_texture), 0);
    assert_eq!((channel(material.occlusion_texture), channel(material.emissive_texture)), (1, 1));
    let primitive = &model.meshes()[0].primitives[0];
    assert_eq!(primitive.uv1.len(), primitive.positions.len());
    assert_ne!(primitive.uv0, primitive.uv1);
}

#[test]
fn texture_transforms_are_read() {
    let model = import("texture_transform.glb");
    let transform = |name| named(&model, name).base_color_texture.expect("textured").transform;
    assert_eq!(transform("TT_NoTransform"), TextureTransform::default());
    assert_eq!(transform("TT_Scale2"), TextureTransform { offset: [0.0, -1.0], rotation: 0.0, scale: [2.0, 2.0] });
    let rotated = transform("TT_Rotate30Offset");
    assert!((rotated.rotation - 30f32.to_radians()).abs() < 1e-6, "{rotated:?}");
}

/// Tangents made here with MikkTSpace match those Blender's exporter wrote (Blender bakes and
/// exports against MikkTSpace): the same model exported with and without TANGENT.
#[test]
fn generated_tangents_match_blender_s() {
    let (with, without) = (import("normal_map_tangents.glb"), import("normal_map_no_tangents.glb"));
    let mut compared = 0;
    for (a, b) in with.meshes().iter().zip(without.meshes()).flat_map(|(a, b)| a.primitives.iter().zip(&b.primitives)) {
        assert_eq!(a.positions, b.positions);
        assert_eq!((a.tangents.len(), b.tangents.len()), (a.positions.len(), a.positions.len()));
        for (exported, made) in a.tangents.iter().zip(&b.tangents) {
            assert_eq!(exported.w, made.w, "bitangent sign");
            let angle = exported.truncate().normalize().angle_between(made.truncate().normalize());
            assert!(angle < 2f32.to_radians(), "{exported} vs {made}");
            assert!((made.truncate().length() - 1.0).abs() < 1e-3 && made.truncate().is_finite());
            compared += 1;
        }
    }
    assert!(compared > 100, "{compared} tangents compared");
}

/// normal_map_tangents.glb with float attribute `name` of its first primitive rewritten by
/// `edit` (each element's bytes, by element), admitted.
fn tangents_model_with(name: &str, edit: impl Fn(usize, &mut [u8])) -> props_gltf::gate::Admitted {
    let path = models_dir().join("materials/normal_map_tangents.glb");
    let (json, mut bin) = crate::support::split_glb(&std::fs::read(&path).expect("the model"));
    let attributes = &json["meshes"][0]["primitives"][0]["attributes"];
    let accessor = &json["accessors"][attributes[name].as_u64().expect("the attribute") as usize];
    assert_eq!(accessor["componentType"], 5126, "float {name}");
    let width = if accessor["type"] == "VEC4" { 16 } else { 12 };
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().expect("a view") as usize];
    let at = |k: &Value| k.as_u64().unwrap_or(0) as usize;
    let (start, stride) = (at(&view["byteOffset"]) + at(&accessor["byteOffset"]), at(&view["byteStride"]).max(width));
    for element in 0..at(&accessor["count"]) {
        edit(element, &mut bin[start + element * stride..start + element * stride + width]);
    }
    admit_slice(&crate::support::glb(&json, &bin), None, Path::new("edited.glb"), &Limits::default())
        .unwrap_or_else(|refused| panic!("{refused}"))
}

/// A TANGENT whose `w` is not 1 or -1 (the bitangent's sign) is reported and read past: its
/// sign is kept, as three.js keeps it (it normalizes the bitangent `w` scales), a zero taken as
/// 1, so the normal map is read as with a valid file; the other tangents are as exported.
#[test]
fn a_tangent_sign_off_one_is_read_as_its_sign() {
    let admitted = tangents_model_with("TANGENT", |element, tangent| {
        if let Some(w) = [0.5f32, -0.25, 0.0].get(element) {
            tangent[12..].copy_from_slice(&w.to_le_bytes());
        }
    });
    let issue = admitted.report.issues.iter().find(|i| i.code == "ACCESSOR_INVALID_SIGN").expect("reported");
    assert_eq!(issue.json_pointer, "/meshes/0/primitives/0/attributes/TANGENT");
    assert_eq!(issue.consequence, Consequence::Loads);
    let read = &admitted.import.model.meshes()[0].primitives[0].tangents;
    let unbroken = import("normal_map_tangents.glb");
    let exported = &unbroken.meshes()[0].primitives[0].tangents;
    assert_eq!(read.iter().take(3).map(|t| t.w).collect::<Vec<_>>(), [1.0, -1.0, 1.0]);
    assert_eq!(
        read.iter().map(|t| t.truncate()).collect::<Vec<_>>(),
        exported.iter().map(|t| t.truncate()).collect::<Vec<_>>()
    );
    assert_eq!(read[3..], exported[3..]);
    assert!(exported.iter().all(|t| t.w.abs() == 1.0));
}

/// A zero NORMAL (Khronos: ACCESSOR_VECTOR3_NON_UNIT) is read past and made from its
/// triangles, as for a file without normals: a unit normal within a degree of the one Blender
/// exported there, where a GPU's normalize is undefined; the others are as exported.
#[test]
fn a_zero_normal_is_made_from_its_triangles() {
    let zeroed = 2;
    let admitted = tangents_model_with("NORMAL", |element, normal| {
        if element == zeroed {
            normal.fill(0);
        }
    });
    let issue = admitted.report.issues.iter().find(|i| i.code == "ACCESSOR_VECTOR3_NON_UNIT").expect("reported");
    assert_eq!(issue.consequence, Consequence::Loads);
    let read = &admitted.import.model.meshes()[0].primitives[0].normals;
    let unbroken = import("normal_map_tangents.glb");
    let exported = &unbroken.meshes()[0].primitives[0].normals;
    let made = read[zeroed];
    assert!(made.is_finite() && (made.length() - 1.0).abs() < 1e-5, "{made}");
    assert!(made.angle_between(exported[zeroed]) < 1f32.to_radians(), "{made} against {}", exported[zeroed]);
    let others = |normals: &[glam::Vec3]| {
        normals.iter().enumerate().filter(|(v, _)| *v != zeroed).map(|(_, n)| *n).collect::<Vec<_>>()
    };
    assert_eq!(others(read), others(exported));
}

/// Khronos's TextureTransformTest: every quad's transform as the test's README gives it.
#[test]
fn khronos_texture_transform_test_is_read() {
    let Some(dir) = crate::khronos::khronos_models() else { return };
    let path = dir.join("TextureTransformTest/TextureTransformTest.gltf");
    let model = admit_file(&path, &Limits::default()).expect("admitted").import.model;
    let transforms: Vec<TextureTransform> =
        model.materials().iter().filter_map(|m| m.base_color_texture).map(|t| t.transform).collect();
    assert!(transforms.iter().any(|t| (t.rotation - std::f32::consts::FRAC_PI_8).abs() < 1e-5), "{transforms:?}");
    assert!(transforms.iter().any(|t| t.scale == [1.5, 1.5]), "{transforms:?}");
    assert!(transforms.iter().any(|t| t.offset == [0.5, 0.5]), "{transforms:?}");
}

/// KHR_materials_ior and KHR_materials_specular's factors and textures
/// (`tests/models/specular/make.mjs`; drawn against three.js in `tests/gpu/references.rs`).
#[test]
fn ior_and_specular_factors_and_textures_are_read() {
    let path = models_dir().join("specular/specular_ior.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let dielectric = |name| {
        let m = named(&import.model, name);
        (m.ior, m.specular_factor, m.specular_color_factor)
    };
    assert_eq!(dielectric("default"), (1.5, 1.0, [1.0; 3]));
    assert_eq!(dielectric("ior_3"), (3.0, 1.0, [1.0; 3]));
    assert_eq!(dielectric("specular_0"), (1.5, 0.0, [1.0; 3]));
    assert_eq!(dielectric("specular_red"), (2.5, 1.0, [1.0, 0.15, 0.15]));
    let textures = |name| {
        let m = named(&import.model, name);
        (m.specular_texture.is_some(), m.specular_color_texture.is_some())
    };
    assert_eq!([textures("strength_bands"), textures("colour_bands")], [(true, false), (false, true)]);
    let ([r, g, b], strength) = named(&import.model, "gold_like").dielectric_specular();
    assert!((r - 0.996).abs() < 1e-3 && (g - 0.747).abs() < 1e-3 && (b - 0.299).abs() < 1e-3 && strength == 1.0);
}

/// KHR_materials_transmission's factor and texture (`tests/models/transmission/make.mjs`;
/// drawn against three.js in `tests/gpu/references.rs`), read without a warning, and the
/// wall behind the panes is not transmissive.
#[test]
fn transmission_factors_and_textures_are_read() {
    let path = models_dir().join("transmission/panes.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let transmission = |name| {
        let m = named(&import.model, name);
        (m.transmission_factor, m.transmission_texture.is_some(), m.is_transmissive(), m.is_see_through())
    };
    assert_eq!(transmission("clear"), (1.0, false, true, true));
    assert_eq!(transmission("half"), (0.5, false, true, true));
    assert_eq!(transmission("banded"), (1.0, true, true, true));
    assert_eq!(transmission("wall_0"), (0.0, false, false, false));
    let banded = named(&import.model, "banded").transmission_texture.expect("its texture");
    let image = &import.model.images()[banded.image as usize];
    let reds: Vec<u8> = image.rgba8.chunks(4 * image.width as usize).map(|row| row[0]).collect();
    assert_eq!(reds, [255, 0, 255, 0, 255, 0, 255, 0], "eight bands, the share in R");
}

/// KHR_materials_volume's thickness and attenuation (`tests/models/volume/make.mjs`; drawn
/// against three.js in `tests/gpu/references.rs`), read without a warning.
#[test]
fn volume_thickness_and_attenuation_are_read() {
    let path = models_dir().join("volume/slabs.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let volume = |name| {
        let m = named(&import.model, name);
        (m.thickness_factor, m.attenuation_color, m.attenuation_distance, m.is_transmissive())
    };
    assert_eq!(volume("clear"), (0.02, [1.0; 3], f32::INFINITY, true));
    assert_eq!(volume("green"), (0.02, [0.3, 0.9, 0.4], 0.02, true));
    assert_eq!(volume("amber"), (0.02, [0.95, 0.6, 0.2], 0.01, true));
    assert_eq!(volume("scaled"), (0.01, [0.4, 0.6, 0.95], 0.02, true));
    assert_eq!(volume("wall_0"), (0.0, [1.0; 3], f32::INFINITY, false));
}

/// KHR_materials_clearcoat's factors (`tests/models/clearcoat/make.mjs`; drawn against
/// three.js in `tests/gpu/references.rs`), read without a warning.
#[test]
fn clearcoat_factors_are_read() {
    let path = models_dir().join("clearcoat/clearcoat.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let coat = |name| {
        let m = named(&import.model, name);
        (m.clearcoat_factor, m.clearcoat_roughness_factor, m.is_clearcoated())
    };
    assert_eq!(coat("coat_0"), (0.0, 0.0, false));
    assert_eq!(coat("coat_half"), (0.5, 0.0, true));
    assert_eq!(coat("coat_rough_0.5"), (1.0, 0.5, true));
}

/// KHR_materials_sheen's factors and textures (`tests/models/sheen/make.mjs`; drawn against
/// three.js in `tests/gpu/references.rs`), read without a warning: the colour texture in the
/// ninth slot, the roughness texture in the tenth.
#[test]
fn sheen_factors_and_textures_are_read() {
    let path = models_dir().join("sheen/sheen.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let sheen = |name| {
        let m = named(&import.model, name);
        (m.sheen_color_factor, m.sheen_roughness_factor, m.has_sheen())
    };
    assert_eq!(sheen("sheen_none"), ([0.0; 3], 0.0, false));
    assert_eq!(sheen("sheen_white_0.3"), ([1.0; 3], 0.3, true));
    assert_eq!(sheen("sheen_pink_0.6"), ([1.0, 0.4, 0.6], 0.6, true));
    let slots = |name| named(&import.model, name).texture_slots().map(|t| t.is_some());
    let mut colour = [false; props_anim::material::TEXTURE_SLOTS];
    colour[8] = true;
    assert_eq!(slots("sheen_color_bands"), colour);
    let roughness = named(&import.model, "sheen_roughness_bands").sheen_roughness_texture;
    let image = &import.model.images()[roughness.expect("a roughness texture").image as usize];
    let alphas: Vec<u8> = image.rgba8.chunks(4).map(|p| p[3]).collect();
    assert_eq!(alphas, [255, 60, 255, 60, 255, 60, 255, 60], "eight bands, the roughness in A");
}

/// KHR_materials_anisotropy's factors and texture (`tests/models/anisotropy/make.mjs`; drawn
/// against three.js in `tests/gpu/references.rs`), read without a warning: the texture in the
/// eleventh slot, and the file's tangents kept only where a material reads them.
#[test]
fn anisotropy_factors_texture_and_tangents_are_read() {
    let path = models_dir().join("anisotropy/anisotropy.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let grain = |name| {
        let m = named(&import.model, name);
        (m.anisotropy_strength, m.anisotropy_rotation, m.is_anisotropic())
    };
    assert_eq!(grain("anisotropy_none"), (0.0, 0.0, false));
    assert_eq!(grain("anisotropy_0.5"), (0.5, 0.0, true));
    assert_eq!(grain("anisotropy_0.8_turned"), (0.8, std::f32::consts::FRAC_PI_2, true));
    let slots = |name| named(&import.model, name).texture_slots().map(|t| t.is_some());
    let mut grain_slot = [false; props_anim::material::TEXTURE_SLOTS];
    grain_slot[10] = true;
    assert_eq!(slots("anisotropy_direction_bands"), grain_slot);
    let texture = named(&import.model, "anisotropy_strength_bands").anisotropy_texture;
    let image = &import.model.images()[texture.expect("a grain texture").image as usize];
    let blues: Vec<u8> = image.rgba8.chunks(4).map(|p| p[2]).collect();
    assert_eq!(blues, [255, 51, 255, 51, 255, 51, 255, 51], "eight bands, the strength in B");
    for mesh in import.model.meshes() {
        let primitive = &mesh.primitives[0];
        let material = primitive.material.expect("a material") as usize;
        let anisotropic = import.model.materials()[material].is_anisotropic();
        let expected = if anisotropic { primitive.positions.len() } else { 0 };
        assert_eq!(primitive.tangents.len(), expected, "{:?}", mesh.name);
    }
}

/// KHR_materials_iridescence's factors (`tests/models/iridescence/make.mjs`; drawn against
/// three.js in `tests/gpu/references.rs`), read without a warning.
#[test]
fn thin_film_factors_are_read() {
    let path = models_dir().join("iridescence/iridescence.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let film = |name| {
        let m = named(&import.model, name);
        (m.iridescence_factor, m.iridescence_ior, m.iridescence_thickness, m.is_iridescent())
    };
    assert_eq!(film("film_none"), (0.0, 1.3, 400.0, false));
    assert_eq!(film("film_default"), (1.0, 1.3, 400.0, true));
    assert_eq!(film("film_800nm_ior_1.8"), (1.0, 1.8, 800.0, true));
    assert_eq!(film("film_half_over_gold"), (0.5, 1.3, 400.0, true));
    assert_eq!(film("film_no_thickness"), (1.0, 1.3, 0.0, false), "a film of no thickness is none");
}

/// KHR_materials_diffuse_roughness's factor (`tests/models/diffuse_roughness/make.mjs`; drawn
/// against three.js in `tests/gpu/references.rs`), read without a warning.
#[test]
fn diffuse_roughness_is_read() {
    let path = models_dir().join("diffuse_roughness/diffuse_roughness.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let roughness = |name| named(&import.model, name).diffuse_roughness;
    assert_eq!([roughness("white_lambert"), roughness("white_0.5"), roughness("clay_1")], [0.0, 0.5, 1.0]);
}

/// The layers' textures past the eleventh slot (`tests/models/layer_textures/make.mjs`; drawn
/// against three.js in `tests/gpu/references.rs`), read without a warning, each in its slot:
/// the clear coat's three (its normal map's scale, and the file's tangents kept for it), the
/// film's two (with its least thickness), the volume's thickness and the diffuse roughness.
#[test]
fn layer_textures_are_read_into_their_slots() {
    let path = models_dir().join("layer_textures/layer_textures.gltf");
    let import = admit_file(&path, &Limits::default()).unwrap_or_else(|refused| panic!("{refused}")).import;
    assert!(import.warnings.is_empty(), "{:?}", import.warnings);
    let slots = |name| {
        let slots = named(&import.model, name).texture_slots().map(|t| t.is_some());
        (0..props_anim::material::TEXTURE_SLOTS).filter(|&k| slots[k]).collect::<Vec<_>>()
    };
    assert_eq!(slots("coat_factor_bands"), [11]);
    assert_eq!(slots("coat_roughness_bands"), [12]);
    assert_eq!(slots("coat_normal_bands"), [2, 13], "beside a flat normal map");
    assert_eq!(slots("film_factor_bands"), [14]);
    assert_eq!(slots("film_thickness_bands"), [15]);
    assert_eq!(slots("glass_thickness_bands"), [16]);
    assert_eq!(slots("clay_roughness_bands"), [17]);
    assert_eq!(slots("coat_all_bands"), [2, 11, 12, 13]);
    let coat = named(&import.model, "coat_normal_bands");
    assert_eq!(coat.clearcoat_normal_scale, 0.8);
    assert_eq!(named(&import.model, "coat_all_bands").clearcoat_normal_scale, 1.0, "the default scale");
    let film = named(&import.model, "film_thickness_bands");
    assert_eq!((film.iridescence_thickness_minimum, film.iridescence_thickness), (100.0, 700.0));
    assert!(film.is_iridescent());
    let texture = named(&import.model, "glass_thickness_bands").thickness_texture;
    let image = &import.model.images()[texture.expect("a thickness texture").image as usize];
    let greens: Vec<u8> = image.rgba8.chunks(4).map(|p| p[1]).collect();
    assert_eq!(greens, [255, 26, 255, 26, 255, 26, 255, 26], "eight bands, the thickness in G");
    for mesh in import.model.meshes() {
        let primitive = &mesh.primitives[0];
        let material = &import.model.materials()[primitive.material.expect("a material") as usize];
        let expected = if material.clearcoat_normal_texture.is_some() { primitive.positions.len() } else { 0 };
        assert_eq!(
            primitive.tangents.len(),
            expected,
            "{:?}: tangents where the coat's normal map reads them",
            mesh.name
        );
    }
}

/// Spec/gloss materials (`tests/models/specgloss/make.mjs`: factors over a metal/rough
/// fallback, textures, the extension's defaults) read as glTF-Transform's `metalRough`
/// converts the same file: its output, imported, is the reference, texel for texel.
#[test]
fn spec_gloss_materials_read_as_gltf_transform_converts_them() {
    let dir = models_dir().join("specgloss");
    let admit = |name: &str| admit_file(&dir.join(name), &Limits::default()).unwrap_or_else(|r| panic!("{r}")).import;
    let ours = admit("specgloss.glb");
    let reference = admit("specgloss_metalrough.glb").model;
    let pixels = |model: &Model, texture: Option<props_anim::material::TextureRef>| {
        texture.map(|t| (model.images()[t.image as usize].rgba8.clone(), t.sampler, t.channel, t.transform))
    };
    for name in ["factors", "textured", "defaults"] {
        let (got, want) = (named(&ours.model, name), named(&reference, name));
        assert_eq!(
            (got.base_color_factor, got.metallic_factor),
            (want.base_color_factor, want.metallic_factor),
            "{name}"
        );
        assert!((got.roughness_factor - want.roughness_factor).abs() < 1e-6, "{name}: {got:?} against {want:?}");
        // The specular colour as KHR_materials_specular with an index of refraction of 1000.
        let dielectric = |m: &Material| (m.ior, m.specular_factor, m.specular_color_factor);
        assert_eq!(dielectric(got), dielectric(want), "{name}");
        // glTF-Transform's specular colour texture is the spec/gloss one with an opaque alpha,
        // which the colour does not read; and its strength texture that opaque alpha.
        let rgb = |t: Option<(Vec<u8>, _, _, _)>| {
            t.map(|(pixels, sampler, channel, transform)| {
                (pixels.chunks(4).map(|p| [p[0], p[1], p[2]]).collect::<Vec<_>>(), sampler, channel, transform)
            })
        };
        let (colour, converted) =
            (pixels(&ours.model, got.specular_color_texture), pixels(&reference, want.specular_color_texture));
        assert_eq!(rgb(colour), rgb(converted), "{name}: the specular colour texture");
        let strength = pixels(&reference, want.specular_texture);
        assert!(got.specular_texture.is_none(), "{name}");
        assert!(strength.is_none_or(|(pixels, ..)| pixels.chunks(4).all(|p| p[3] == 255)), "{name}: full strength");
        assert_eq!(pixels(&ours.model, got.base_color_texture), pixels(&reference, want.base_color_texture), "{name}");
        let (made, converted) =
            (pixels(&ours.model, got.metallic_roughness_texture), pixels(&reference, want.metallic_roughness_texture));
        assert_eq!(made, converted, "{name}: the roughness texture");
    }
    let textured = named(&ours.model, "textured");
    assert!(textured.base_color_texture.is_some() && textured.metallic_roughness_texture.is_some());
    let rough = &ours.model.images()[textured.metallic_roughness_texture.expect("made").image as usize];
    assert!(rough.rgba8.chunks(4).any(|p| p[1] == 255) && rough.rgba8.chunks(4).any(|p| p[1] < 60), "a ramp");
    let paths: Vec<&str> = ours.warnings.iter().map(|w| w.json_path.as_str()).collect();
    assert_eq!(
        paths,
        (0..3).map(|i| format!("materials[{i}].extensions.KHR_materials_pbrSpecularGlossiness")).collect::<Vec<_>>(),
        "each spec/gloss material says how it is drawn, and nothing else is wrong"
    );
}
