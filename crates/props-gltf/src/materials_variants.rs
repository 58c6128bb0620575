//! `KHR_materials_variants`: the file's named material variants (a car's liveries) and the
//! materials each primitive is drawn in under them, read from the extension's JSON one entry
//! at a time, so that what cannot be read is left out with a warning (the primitive then keeps
//! its own material in that variant): a variant is never a reason to refuse a file.

use gltf::json::Root;
use gltf::json::mesh::Primitive;
use props_anim::Model;
use props_anim::material::{MaterialVariant, VariantMaterial};
use serde_json::Value;

use crate::error::{Warnings, warn};
use crate::index_u32;
use crate::uv_layout::UvLayout;

/// The extension's name.
pub(crate) const NAME: &str = "KHR_materials_variants";

/// The file's variants, named, with no materials yet ([`mappings`] fills them in). A variant
/// without a name string is named by its number; those past [`Model::MAX_MATERIAL_VARIANTS`] are
/// left out, with a warning.
pub(crate) fn variants(root: &Root, warnings: &mut Warnings) -> Vec<MaterialVariant> {
    let listed = root.extensions.as_ref().and_then(|e| e.others.get(NAME)).and_then(|e| e.get("variants"));
    let listed = listed.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    if listed.len() > Model::MAX_MATERIAL_VARIANTS {
        let message = format!(
            "the file has {} material variants; the game keeps the first {}: merge or remove the others",
            listed.len(),
            Model::MAX_MATERIAL_VARIANTS
        );
        warn(warnings, format!("extensions.{NAME}.variants[{}]", Model::MAX_MATERIAL_VARIANTS), message);
    }
    let name = |(i, variant): (usize, &Value)| match variant.get("name").and_then(Value::as_str) {
        Some(name) => name.to_owned(),
        None => {
            let message = format!("this variant has no name: it is called \"variant {i}\"; give it a \"name\"");
            warn(warnings, format!("extensions.{NAME}.variants[{i}]"), message);
            format!("variant {i}")
        }
    };
    listed
        .iter()
        .take(Model::MAX_MATERIAL_VARIANTS)
        .enumerate()
        .map(name)
        .map(|name| MaterialVariant { name, materials: Vec::new() })
        .collect()
}

/// The materials the file's primitive `primitive` (at `path`) is drawn in under the `variants`
/// kept, as (variant, material), each mapping checked: its variants exist (and each is mapped
/// once), its material exists and reads the UV sets the primitive's own material reads
/// (`layouts`: each material's; `own`: the primitive's own). Mappings that fail are left out,
/// with a warning.
pub(crate) fn mappings(
    (primitive, path): (&Primitive, &str),
    (layouts, own): (&[UvLayout], UvLayout),
    variants: usize,
    warnings: &mut Warnings,
) -> Vec<(usize, u32)> {
    let mut found = Vec::new();
    let Some(listed) = primitive.extensions.as_ref().and_then(|e| e.others.get(NAME)) else { return found };
    let listed = listed.get("mappings").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut mapped = vec![false; variants];
    for (k, mapping) in listed.iter().enumerate() {
        let at = format!("{path}.extensions.{NAME}.mappings[{k}]");
        let material = mapping.get("material").and_then(Value::as_u64).and_then(|m| usize::try_from(m).ok());
        let Some(layout) = material.and_then(|m| layouts.get(m)) else {
            warn(warnings, format!("{at}.material"), "names no material of the file: this mapping is ignored");
            continue;
        };
        if !layout.fits(&own) {
            let message = "this material reads other texture coordinate sets than the primitive's own material: \
                           the mapping is ignored; give both materials' textures the same texCoord";
            warn(warnings, format!("{at}.material"), message);
            continue;
        }
        let numbers = mapping.get("variants").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        for (j, number) in numbers.iter().enumerate() {
            let variant = number.as_u64().and_then(|v| usize::try_from(v).ok()).filter(|&v| v < variants);
            match variant {
                Some(v) if !mapped[v] => {
                    mapped[v] = true;
                    found.push((v, index_u32(material.unwrap_or_default())));
                }
                Some(_) => {
                    warn(warnings, format!("{at}.variants[{j}]"), "this variant is mapped twice: the first is kept")
                }
                None => warn(warnings, format!("{at}.variants[{j}]"), "names no variant the game keeps: ignored"),
            }
        }
    }
    found
}

/// Adds `found` ([`mappings`]) to `variants`, for primitive `primitive` of mesh `mesh` of the
/// model (meshes and primitives in order, so each variant's list stays sorted).
pub(crate) fn add(variants: &mut [MaterialVariant], (mesh, primitive): (u32, u32), found: &[(usize, u32)]) {
    for &(v, material) in found {
        variants[v].materials.push(VariantMaterial { mesh, primitive, material });
    }
}
