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

/// Width in texels of a model's per-vertex table textures (influences past the 8th, morph
/// deltas) on the texture path; must match `VERTEX_TABLE_WIDTH` in
/// `shaders/vertex_tables_texture.wgsl`.
pub const VERTEX_TABLE_WIDTH: u32 = 4096;

const GLOBALS: &str = include_str!("../shaders/globals.wgsl");
const PALETTE_STORAGE: &str = include_str!("../shaders/palette_storage.wgsl");
const PALETTE_TEXTURE: &str = include_str!("../shaders/palette_texture.wgsl");
const TABLES_STORAGE: &str = include_str!("../shaders/vertex_tables_storage.wgsl");
const TABLES_TEXTURE: &str = include_str!("../shaders/vertex_tables_texture.wgsl");
const SKINNED: &str = include_str!("../shaders/skinned.wgsl");
const LIGHTS: &str = include_str!("../shaders/lights.wgsl");
const SHADOWS: &str = include_str!("../shaders/shadows.wgsl");
const SHADING: &str = include_str!("../shaders/shading.wgsl");
const LINES: &str = include_str!("../shaders/lines.wgsl");

/// The skinned-mesh shader for a palette access mode (which also decides how a model's
/// per-vertex tables are read), with its shading.
#[must_use]
pub fn skinned(access: PaletteAccess) -> String {
    let (palette, tables) = match access {
        PaletteAccess::StorageBuffer => (PALETTE_STORAGE, TABLES_STORAGE),
        PaletteAccess::Texture => (PALETTE_TEXTURE, TABLES_TEXTURE),
    };
    [GLOBALS, palette, tables, SKINNED, LIGHTS, SHADOWS, SHADING].join("\n")
}

/// The debug-line shader.
#[must_use]
pub fn lines() -> String {
    [GLOBALS, LINES].join("\n")
}
