//! WGSL sources, composed from the files in the workspace's `shaders/` folder.

use std::fmt::Write as _;

use crate::materials::SLOTS;
pub use crate::slot_bindings::SlotBindings;

/// How the vertex shader reads the joint palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaletteAccess {
    /// A storage buffer readable in the vertex stage (desktop and most mobile GPUs).
    StorageBuffer,
    /// An RGBA32F texture read with `textureLoad` (downlevel / WebGL2-class adapters).
    Texture,
}

/// Width in texels of the palette texture; must match `PALETTE_TEXTURE_WIDTH` in
/// `shaders/palette_texture.wgsl` (three texels per joint matrix): within the 2048 texels
/// every WebGL2 device has, its rows 96 times 256 bytes.
pub const PALETTE_TEXTURE_WIDTH: u32 = 1536;

/// Width in texels of a model's per-vertex table textures (influences past the 8th, morph
/// deltas) on the texture path; must match `VERTEX_TABLE_WIDTH` in
/// `shaders/vertex_tables_texture.wgsl`: the 2048 texels every WebGL2 device has.
pub const VERTEX_TABLE_WIDTH: u32 = 2048;

const GLOBALS: &str = include_str!("../shaders/globals.wgsl");
const PALETTE_STORAGE: &str = include_str!("../shaders/palette_storage.wgsl");
const PALETTE_TEXTURE: &str = include_str!("../shaders/palette_texture.wgsl");
const TABLES_STORAGE: &str = include_str!("../shaders/vertex_tables_storage.wgsl");
const TABLES_TEXTURE: &str = include_str!("../shaders/vertex_tables_texture.wgsl");
const SKINNED: &str = include_str!("../shaders/skinned.wgsl");
const LEAN_OUTPUTS: &str = include_str!("../shaders/lean_outputs.wgsl");
const LIGHTS: &str = include_str!("../shaders/lights.wgsl");
const SHADOWS: &str = include_str!("../shaders/shadows.wgsl");
const SHADING: &str = include_str!("../shaders/shading.wgsl");
const LINES: &str = include_str!("../shaders/lines.wgsl");
const TRANSMISSION_DUAL_SOURCE: &str = include_str!("../shaders/transmission_dual_source.wgsl");

/// The bindings of the renderer's own pipelines: the globals, the shadow maps and the ground's
/// shadow heights, and their samplers, in the frame's group.
const FRAME_BINDINGS: &str = "@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(7) var shadow_maps: texture_depth_2d_array;
@group(0) @binding(8) var shadow_sampler: sampler_comparison;
@group(0) @binding(9) var ground_shadow_heights: texture_2d<f32>;
@group(0) @binding(10) var ground_shadow_sampler: sampler;";

/// The skinned-mesh shader for a palette access mode (which also decides how a model's
/// per-vertex tables are read), with its shading, binding a material's texture slots as
/// `slots` says.
#[must_use]
pub fn skinned(access: PaletteAccess, slots: SlotBindings) -> String {
    let (palette, tables) = match access {
        PaletteAccess::StorageBuffer => (PALETTE_STORAGE, TABLES_STORAGE),
        PaletteAccess::Texture => (PALETTE_TEXTURE, TABLES_TEXTURE),
    };
    let textures = material_textures(slots);
    [GLOBALS, FRAME_BINDINGS, palette, tables, SKINNED, LEAN_OUTPUTS, LIGHTS, SHADOWS, &textures, SHADING].join("\n")
}

/// The material's texture slots in group 2 (`shaders/shading.wgsl`), bound as `bound` says:
/// each bound slot's texture, its own sampler or the one sampler its slots share, and every
/// slot's `fn sample_NAME(uv)`, which samples them, or reads white (a missing texture's texel)
/// past them.
fn material_textures(bound: SlotBindings) -> String {
    let mut wgsl = String::new();
    if bound.shares() {
        let binding = bound.sampler_binding(bound.samplers);
        let _ = writeln!(wgsl, "@group(2) @binding({binding}) var shared_sampler: sampler;");
    }
    for (slot, (name, _)) in SLOTS.iter().enumerate() {
        let sample = if slot < bound.textures {
            let texture = 1 + 2 * slot;
            let _ = writeln!(wgsl, "@group(2) @binding({texture}) var {name}_texture: texture_2d<f32>;");
            let sampler = if slot < bound.samplers {
                let binding = bound.sampler_binding(slot);
                let _ = writeln!(wgsl, "@group(2) @binding({binding}) var {name}_sampler: sampler;");
                format!("{name}_sampler")
            } else {
                "shared_sampler".to_owned()
            };
            format!("textureSample({name}_texture, {sampler}, uv)")
        } else {
            "vec4<f32>(1.0)".to_owned()
        };
        let _ = writeln!(wgsl, "fn sample_{name}(uv: vec2<f32>) -> vec4<f32> {{ return {sample}; }}");
    }
    wgsl
}

/// `skinned`'s shader (from [`skinned`]) with transmissive materials' entry point for a
/// device with dual-source blending (`wgpu::Features::DUAL_SOURCE_BLENDING`), which tints what
/// shows through glass channel by channel: `fs_transmissive`.
#[must_use]
pub fn with_dual_source_blending(skinned: &str) -> String {
    ["enable dual_source_blending;", skinned, TRANSMISSION_DUAL_SOURCE].join("\n")
}

/// The debug-line shader.
#[must_use]
pub fn lines() -> String {
    [GLOBALS, "@group(0) @binding(0) var<uniform> globals: Globals;", LINES].join("\n")
}

/// WGSL for a host's own shader that lights its surfaces as the props are lit: the struct
/// `Globals` bound as `globals` (the frame's sun: `light_direction` towards it, `light_color`;
/// `ambient`; the camera) and `fn sun_visibility(p: vec3<f32>, n: vec3<f32>) -> f32`, the share
/// of the sun reaching world point `p` of unit normal `n` past the props' shadow maps (for a
/// point the frame's camera sees: each map holds the props that can shadow its slice of that
/// view) and the ground's hills ([`crate::Renderer::set_ground_shadow`]; 1 where nothing shadows it, or
/// shadows are off). Declared in bind group `group`, which the host binds to
/// [`crate::Renderer::sun_bind_group`] (its layout: [`crate::Renderer::sun_bind_group_layout`]),
/// in the fragment stage.
#[must_use]
pub fn sun(group: u32) -> String {
    let bindings = format!(
        "@group({group}) @binding(0) var<uniform> globals: Globals;
@group({group}) @binding(1) var shadow_maps: texture_depth_2d_array;
@group({group}) @binding(2) var shadow_sampler: sampler_comparison;
@group({group}) @binding(3) var ground_shadow_heights: texture_2d<f32>;
@group({group}) @binding(4) var ground_shadow_sampler: sampler;"
    );
    [GLOBALS, &bindings, SHADOWS].join("\n")
}
