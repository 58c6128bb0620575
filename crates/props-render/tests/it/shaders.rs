//! Every shader the renderer can build parses and validates with naga.

use props_render::shaders;
use props_render::shaders::PaletteAccess;

fn validate(name: &str, source: &str) {
    let module =
        naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::default())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
}

#[test]
fn skinned_shaders_validate() {
    validate("skinned (storage buffer)", &shaders::skinned(PaletteAccess::StorageBuffer));
    validate("skinned (texture)", &shaders::skinned(PaletteAccess::Texture));
}

#[test]
fn line_shader_validates() {
    validate("lines", &shaders::lines());
}

#[test]
fn texture_width_matches_the_shader() {
    let source = shaders::skinned(PaletteAccess::Texture);
    let declared = format!("const PALETTE_TEXTURE_WIDTH: u32 = {}u;", shaders::PALETTE_TEXTURE_WIDTH);
    assert!(source.contains(&declared), "shaders/palette_texture.wgsl must declare `{declared}`");
}
