//! `KHR_materials_variants`' references: each primitive's mapping names a material and
//! variants the file has (`UNRESOLVED_REFERENCE`, as Khronos's validator reports them). The
//! game reads past them: the importer leaves such a mapping out (`materials_variants.rs`), and
//! the primitive keeps its own material in those variants.

use serde_json::Value;

use super::Check;
use crate::materials_variants::NAME;

/// Checks every primitive's mappings against the file's materials and variants.
pub(super) fn check(check: &mut Check<'_>) {
    let root = check.root;
    let variants = root.extensions.as_ref().and_then(|e| e.others.get(NAME)).and_then(|e| e.get("variants"));
    let variants = variants.and_then(Value::as_array).map_or(0, Vec::len);
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let listed = primitive.extensions.as_ref().and_then(|e| e.others.get(NAME));
            let mappings = listed.and_then(|e| e.get("mappings")).and_then(Value::as_array);
            for (k, mapping) in mappings.into_iter().flatten().enumerate() {
                let at = format!("/meshes/{m}/primitives/{p}/extensions/{NAME}/mappings/{k}");
                let material = mapping.get("material").and_then(Value::as_u64);
                if let Some(material) = material.filter(|&i| i >= root.materials.len() as u64) {
                    let message = format!(
                        "material {material} does not exist (the file has {}): this mapping is ignored",
                        root.materials.len()
                    );
                    check.error("UNRESOLVED_REFERENCE", format!("{at}/material"), message);
                }
                let numbers = mapping.get("variants").and_then(Value::as_array);
                for (j, number) in numbers.into_iter().flatten().enumerate() {
                    if let Some(variant) = number.as_u64().filter(|&v| v >= variants as u64) {
                        let message = format!(
                            "material variant {variant} does not exist (the file has {variants}, in \
                             extensions/{NAME}/variants): the mapping is ignored in it"
                        );
                        check.error("UNRESOLVED_REFERENCE", format!("{at}/variants/{j}"), message);
                    }
                }
            }
        }
    }
}
