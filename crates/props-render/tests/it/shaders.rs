//! Every shader the renderer can build parses and validates with naga.

use props_anim::material::TEXTURE_SLOTS;
use props_render::shaders;
use props_render::shaders::PaletteAccess;

/// The slots every device binds (`materials.rs`' `SLOTS_EVERYWHERE`).
const SLOTS_EVERYWHERE: usize = 11;

fn validate(name: &str, source: &str) {
    let module =
        naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    let capabilities = naga::valid::Capabilities::default() | naga::valid::Capabilities::DUAL_SOURCE_BLENDING;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
}

#[test]
fn skinned_shaders_validate() {
    for slots in [TEXTURE_SLOTS, SLOTS_EVERYWHERE] {
        validate(
            &format!("skinned (storage buffer, {slots} slots)"),
            &shaders::skinned(PaletteAccess::StorageBuffer, slots),
        );
        validate(&format!("skinned (texture, {slots} slots)"), &shaders::skinned(PaletteAccess::Texture, slots));
        let dual_source = shaders::with_dual_source_blending(&shaders::skinned(PaletteAccess::StorageBuffer, slots));
        validate(&format!("skinned with dual-source blending ({slots} slots)"), &dual_source);
    }
}

#[test]
fn line_shader_validates() {
    validate("lines", &shaders::lines());
}

#[test]
fn texture_width_matches_the_shader() {
    let source = shaders::skinned(PaletteAccess::Texture, TEXTURE_SLOTS);
    let declared = format!("const PALETTE_TEXTURE_WIDTH: u32 = {}u;", shaders::PALETTE_TEXTURE_WIDTH);
    assert!(source.contains(&declared), "shaders/palette_texture.wgsl must declare `{declared}`");
}
