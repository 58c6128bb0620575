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

const GLOBALS: &str = include_str!("../../../shaders/globals.wgsl");
const PALETTE_STORAGE: &str = include_str!("../../../shaders/palette_storage.wgsl");
const PALETTE_TEXTURE: &str = include_str!("../../../shaders/palette_texture.wgsl");
const SKINNED: &str = include_str!("../../../shaders/skinned.wgsl");
const LINES: &str = include_str!("../../../shaders/lines.wgsl");

/// The skinned-mesh shader for a palette access mode.
#[must_use]
pub fn skinned(access: PaletteAccess) -> String {
    let palette = match access {
        PaletteAccess::StorageBuffer => PALETTE_STORAGE,
        PaletteAccess::Texture => PALETTE_TEXTURE,
    };
    [GLOBALS, palette, SKINNED].join("\n")
}

/// The debug-line shader.
#[must_use]
pub fn lines() -> String {
    [GLOBALS, LINES].join("\n")
}
