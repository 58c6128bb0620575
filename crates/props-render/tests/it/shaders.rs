//! Every shader the renderer can build parses and validates with naga.

use props_render::shaders;
use props_render::shaders::{PaletteAccess, SlotBindings};

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
    // Every slot; Metal's 16 samplers (the last six slots share one); wgpu's least limits
    // (eleven slots); one short of samplers (two share).
    let metal = SlotBindings { textures: 18, samplers: 12 };
    let least = SlotBindings { textures: 11, samplers: 11 };
    for slots in [SlotBindings::ALL, metal, least, SlotBindings { textures: 12, samplers: 10 }] {
        validate(
            &format!("skinned (storage buffer, {slots:?})"),
            &shaders::skinned(PaletteAccess::StorageBuffer, slots),
        );
        validate(&format!("skinned (texture, {slots:?})"), &shaders::skinned(PaletteAccess::Texture, slots));
        let dual_source = shaders::with_dual_source_blending(&shaders::skinned(PaletteAccess::StorageBuffer, slots));
        validate(&format!("skinned with dual-source blending ({slots:?})"), &dual_source);
    }
}

#[test]
fn line_shader_validates() {
    validate("lines", &shaders::lines());
}

#[test]
fn texture_width_matches_the_shader() {
    let source = shaders::skinned(PaletteAccess::Texture, SlotBindings::ALL);
    let declared = format!("const PALETTE_TEXTURE_WIDTH: u32 = {}u;", shaders::PALETTE_TEXTURE_WIDTH);
    assert!(source.contains(&declared), "shaders/palette_texture.wgsl must declare `{declared}`");
}
