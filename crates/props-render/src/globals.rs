//! The per-frame uniform every pipeline reads (`shaders/globals.wgsl`): the camera, the sun
//! and sky, the light clusters' grid, the sun's shadow maps and the ground's shadow.

use bytemuck::{Pod, Zeroable};
use glam::Mat4;
use props_frame::Frame;

use crate::light_clusters::LightFrame;
use crate::shadows::{CASCADES, Cascade, FADE, SHADOW_DISTANCE};

/// How far along its normal, and how much nearer the sun, a surface reads the shadow map, in
/// texels of its cascade (against shadow acne).
const SHADOW_NORMAL_OFFSET: f32 = 0.6;
const SHADOW_DEPTH_OFFSET: f32 = 0.75;

/// Per-frame uniform values, matching `shaders/globals.wgsl`.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C)]
pub(crate) struct Globals {
    /// The camera's view-projection (the sun's in the shadow pass).
    pub(crate) view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    light_direction: [f32; 4],
    light_color: [f32; 4],
    ambient: [f32; 4],
    sky_sh: [[f32; 4]; 9],
    clusters: [f32; 4],
    depth_row: [f32; 4],
    light_count: [u32; 4],
    shadow: [f32; 4],
    shadow_splits: [f32; 4],
    shadow_normal_offset: [f32; 4],
    shadow_depth_offset: [f32; 4],
    ground_shadow: [f32; 4],
    shadow_view_proj: [[[f32; 4]; 4]; CASCADES],
}

impl Globals {
    /// Marks the cascades whose maps are drawn this frame (bit `k`: cascade `k`); the shaders
    /// read the others as lit.
    pub(crate) fn set_drawn_cascades(&mut self, cascades: u32) {
        self.shadow[2] = cascades as f32;
    }

    /// The globals of `frame` under a sky of harmonics `sky_sh`, with its `lights`, the sun's
    /// shadow `cascades` (`None`: no shadows) and the ground's shadow (`GroundShadow::uniform`).
    pub(crate) fn new(
        frame: &Frame<'_>,
        sky_sh: [[f32; 4]; 9],
        lights: &LightFrame,
        (cascades, ground_shadow): (Option<&[Cascade; CASCADES]>, [f32; 4]),
    ) -> Self {
        let per_cascade = |f: fn(&Cascade) -> f32| {
            let mut values = [0.0; 4];
            for (value, cascade) in values.iter_mut().zip(cascades.into_iter().flatten()) {
                *value = f(cascade);
            }
            values
        };
        let (light, view_proj) = (frame.lighting, frame.camera.view_projection);
        Self {
            view_proj: view_proj.to_cols_array_2d(),
            eye: frame.camera.eye.extend(1.0).to_array(),
            light_direction: light.direction.normalize_or_zero().extend(0.0).to_array(),
            light_color: light.color.extend(1.0).to_array(),
            ambient: light.ambient.extend(light.sky).to_array(),
            sky_sh,
            clusters: lights.grid,
            depth_row: view_proj.row(3).to_array(),
            light_count: [lights.count, 0, 0, 0],
            shadow: [f32::from(u8::from(cascades.is_some())), SHADOW_DISTANCE * (1.0 - FADE), 0.0, 0.0],
            shadow_splits: per_cascade(|c| c.end),
            shadow_normal_offset: per_cascade(|c| SHADOW_NORMAL_OFFSET * c.texel),
            shadow_depth_offset: per_cascade(|c| SHADOW_DEPTH_OFFSET * c.texel / c.depth),
            ground_shadow,
            shadow_view_proj: std::array::from_fn(|k| {
                cascades.map_or(Mat4::IDENTITY, |c| c[k].view_proj).to_cols_array_2d()
            }),
        }
    }
}
