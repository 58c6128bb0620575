//! WGSL sources, composed from the files in the workspace's `shaders/` folder.

/// How the vertex shader reads the joint palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteAccess {
    /// A storage buffer readable in the vertex stage (desktop and most mobile GPUs).
    StorageBuffer,
    /// An RGBA32F texture read with `textureLoad` (downlevel / WebGL2-class adapters).
    Texture,
}

/// Width in texels of the palette texture; must match `PALETTE_TEXTURE_WIDTH` in
/// `shaders/palette_texture.wgsl` (three texels per joint matrix).
pub const PALETTE_TEXTURE_WIDTH: u32 = 3072;

/// Width in texels of a model's texture of influences past the 8th; must match
/// `INFLUENCE_TEXTURE_WIDTH` in `shaders/influences_texture.wgsl` (one texel per influence).
pub const INFLUENCE_TEXTURE_WIDTH: u32 = 4096;

const GLOBALS: &str = include_str!("../../../shaders/globals.wgsl");
const PALETTE_STORAGE: &str = include_str!("../../../shaders/palette_storage.wgsl");
const PALETTE_TEXTURE: &str = include_str!("../../../shaders/palette_texture.wgsl");
const INFLUENCES_STORAGE: &str = include_str!("../../../shaders/influences_storage.wgsl");
const INFLUENCES_TEXTURE: &str = include_str!("../../../shaders/influences_texture.wgsl");
const SKINNED: &str = include_str!("../../../shaders/skinned.wgsl");
const LINES: &str = include_str!("../../../shaders/lines.wgsl");

/// The skinned-mesh shader for a palette access mode (which also decides how the influences
/// past the 8th are read).
#[must_use]
pub fn skinned(access: PaletteAccess) -> String {
    let (palette, influences) = match access {
        PaletteAccess::StorageBuffer => (PALETTE_STORAGE, INFLUENCES_STORAGE),
        PaletteAccess::Texture => (PALETTE_TEXTURE, INFLUENCES_TEXTURE),
    };
    [GLOBALS, palette, influences, SKINNED].join("\n")
}

/// The debug-line shader.
#[must_use]
pub fn lines() -> String {
    [GLOBALS, LINES].join("\n")
}
