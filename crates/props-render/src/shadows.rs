//! Sun shadows: [`CASCADES`] shadow maps (layers of one texture), each fitted every frame to
//! one slice of what the camera sees, nearest first, out to [`SHADOW_DISTANCE`] metres of
//! view depth. Each is drawn by a depth-only pass of every opaque draw through the same vertex
//! shader (so skinned and morphed props cast their posed shadows from the same palettes), and
//! the fragment shader reads the one its point's view depth falls in through a comparison
//! sampler's 2x2 percentage-closer filtering. Shadows fade out over the last
//! [`FADE`] of the distance instead of ending at a line.
//!
//! A map covers a sphere around its slice (so it does not change size as the camera turns)
//! and moves in whole texels (so shadow edges do not crawl). Its casters are the frame's
//! instances whose shadow can fall on its slice (`shadow_footprint.rs`).

use glam::{Mat4, Vec3, Vec4Swizzles};

/// Depth format of the shadow maps.
pub(crate) const SHADOW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Texels of each shadow map on a side.
pub(crate) const SHADOW_MAP_SIZE: u32 = 2048;
/// How many maps split the view: the nearest has the finest texels.
pub(crate) const CASCADES: usize = 3;
/// The view depth where each map's slice ends, metres; the last is how far shadows reach. The
/// slices grow fourfold, so texels cover about as many pixels in each (3.5 cm near the eye,
/// 12 cm at 40 m and 45 cm at 160 m, for the game's 50° view).
const SPLITS: [f32; CASCADES] = [40.0, 160.0, 640.0];
const _: () = assert!(CASCADES == 3, "shaders/shadows.wgsl and globals.wgsl hold three cascades");
/// How far shadows reach from the eye, in view depth (metres).
pub(crate) const SHADOW_DISTANCE: f32 = SPLITS[CASCADES - 1];
/// The share of the shadow distance over which shadows fade out.
pub(crate) const FADE: f32 = 0.15;
/// How far beyond a slice, towards the sun, casters are still drawn (metres).
const CASTER_MARGIN: f32 = 120.0;

/// The shadow maps and what reads them.
pub(crate) struct ShadowMap {
    /// One view per cascade, nearest first, drawn into by the shadow passes (none without
    /// shadows).
    pub(crate) layers: Vec<wgpu::TextureView>,
    /// Every cascade's map, as the fragment shader reads them (the stand-in without shadows).
    pub(crate) maps: wgpu::TextureView,
    /// A 1x1 map bound in the shadow passes' own bind groups (a map cannot be read while it
    /// is drawn), and where shadows are off. It has two layers: wgpu's OpenGL backend takes a
    /// texture of one layer for a 2D one, which a shader's array of maps cannot read.
    pub(crate) stand_in: wgpu::TextureView,
    /// The comparison sampler the fragment shader filters with.
    pub(crate) sampler: wgpu::Sampler,
}

/// A depth texture of `size` texels a side and `layers` layers.
fn depth_texture(device: &wgpu::Device, label: &str, size: u32, layers: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: layers },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: SHADOW_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    })
}

/// A view of every layer of `texture`, as an array.
fn array_view(texture: &wgpu::Texture) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor {
        dimension: Some(wgpu::TextureViewDimension::D2Array),
        ..Default::default()
    })
}

impl ShadowMap {
    /// The maps ([`CASCADES`] of [`SHADOW_MAP_SIZE`] texels a side when `enabled`, else none
    /// but the stand-in), the stand-in and the sampler.
    pub(crate) fn new(device: &wgpu::Device, enabled: bool) -> Self {
        let stand_in = array_view(&depth_texture(device, "no shadow map", 1, 2));
        let (layers, maps) = if enabled {
            let texture = depth_texture(device, "shadow maps", SHADOW_MAP_SIZE, CASCADES as u32);
            let layer = |k: u32| {
                texture.create_view(&wgpu::TextureViewDescriptor {
                    label: Some("shadow cascade"),
                    dimension: Some(wgpu::TextureViewDimension::D2),
                    base_array_layer: k,
                    array_layer_count: Some(1),
                    ..Default::default()
                })
            };
            ((0..CASCADES as u32).map(layer).collect(), array_view(&texture))
        } else {
            (Vec::new(), stand_in.clone())
        };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow map"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        Self { layers, maps, stand_in, sampler }
    }
}

/// One cascade as fitted for a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Cascade {
    /// The sun's view-projection onto this map (wgpu's 0..1 depth).
    pub(crate) view_proj: Mat4,
    /// The metres its depth range spans.
    pub(crate) depth: f32,
    /// The metres one of its texels spans.
    pub(crate) texel: f32,
    /// The radius of the sphere its map covers, metres.
    pub(crate) radius: f32,
    /// The view depth where its slice ends, metres.
    pub(crate) end: f32,
    /// The corners of its slice of the view: every point its map is read at lies in their
    /// convex hull.
    pub(crate) slice: [Vec3; 8],
}

/// The cascades fitted to what `view_projection` (a perspective view) sees, for a sun towards
/// `sun`, nearest first; `None` when the sun is at or below the horizon.
pub(crate) fn fit(view_projection: Mat4, sun: Vec3) -> Option<[Cascade; CASCADES]> {
    let sun = sun.normalize_or_zero();
    if sun.y <= 0.0 {
        return None;
    }
    let inverse = view_projection.inverse();
    let depth_row = view_projection.row(3);
    // Each edge of the view, from the near plane to the far one, with the view depths of its
    // ends: view depth (clip w) is affine along it, so a slice by view depth is the convex
    // hull of the points at its two depths on the four edges.
    let edges = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)].map(|(x, y)| {
        let near = inverse.project_point3(Vec3::new(x, y, 0.0));
        let far = inverse.project_point3(Vec3::new(x, y, 1.0));
        (near, far, depth_row.dot(near.extend(1.0)), depth_row.dot(far.extend(1.0)))
    });
    let at_depth = |(near, far, near_w, far_w): (Vec3, Vec3, f32, f32), depth: f32| {
        near + (far - near) * ((depth - near_w) / (far_w - near_w)).clamp(0.0, 1.0)
    };
    let up = if sun.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
    let mut start = edges.iter().map(|e| e.2).fold(f32::INFINITY, f32::min);
    let mut cascades = [None; CASCADES];
    for (cascade, end) in cascades.iter_mut().zip(SPLITS) {
        let mut corners = [Vec3::ZERO; 8];
        for (k, edge) in edges.into_iter().enumerate() {
            corners[2 * k] = at_depth(edge, start);
            corners[2 * k + 1] = at_depth(edge, end);
        }
        *cascade = fit_sphere(&corners, sun, up).map(|(view_proj, depth, radius)| Cascade {
            view_proj,
            depth,
            texel: 2.0 * radius / SHADOW_MAP_SIZE as f32,
            radius,
            end,
            slice: corners,
        });
        start = end;
    }
    let [Some(a), Some(b), Some(c)] = cascades else { return None };
    Some([a, b, c])
}

/// The sun's view-projection of a map covering `corners`' bounding sphere, its centre
/// snapped to whole texels, with casters up to [`CASTER_MARGIN`] beyond it towards `sun`;
/// with the metres its depth range and its radius span. `None` for corners not finite.
fn fit_sphere(corners: &[Vec3; 8], sun: Vec3, up: Vec3) -> Option<(Mat4, f32, f32)> {
    if !corners.iter().all(|c| c.is_finite()) {
        return None;
    }
    let center = corners.iter().copied().sum::<Vec3>() / 8.0;
    let radius = corners.iter().map(|c| (*c - center).length()).fold(0.0, f32::max).max(1.0);
    // Whole texels: the centre moves in steps of one texel in the sun's view.
    let view = glam::camera::rh::view::look_to_mat4(Vec3::ZERO, -sun, up);
    let texel = 2.0 * radius / SHADOW_MAP_SIZE as f32;
    let c = view.transform_point3(center);
    let snapped =
        view.inverse().transform_point3(Vec3::new((c.x / texel).round() * texel, (c.y / texel).round() * texel, c.z));
    let from = snapped + sun * (radius + CASTER_MARGIN);
    let view = glam::camera::rh::view::look_to_mat4(from, -sun, up);
    let depth = 2.0 * radius + CASTER_MARGIN;
    let projection = glam::camera::rh::proj::directx::orthographic(-radius, radius, -radius, radius, 0.0, depth);
    let fitted = projection * view;
    debug_assert!(fitted.row(3).xyz() == Vec3::ZERO, "orthographic");
    Some((fitted, depth, radius))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every point the camera sees lands in the map of the cascade its view depth selects, as
    /// the shader selects it, and so does a caster between it and the sun within the margin;
    /// the texels grow from the nearest cascade to the farthest.
    #[test]
    fn each_map_covers_its_slice_and_its_casters() {
        let eye = Vec3::new(10.0, 40.0, 90.0);
        let camera = props_frame::Camera::look_at(eye, Vec3::ZERO, 0.9, 16.0 / 9.0, (0.5, 4000.0));
        let sun = Vec3::new(0.4, 0.8, 0.45).normalize();
        let cascades = fit(camera.view_projection, sun).expect("the sun is up");
        let inverse = camera.view_projection.inverse();
        let row = camera.view_projection.row(3);
        let mut seen = [0; CASCADES];
        for i in 0..=20 {
            for j in 0..=20 {
                for depth in [0.0, 0.5, 0.9, 0.99, 0.995, 0.999, 0.9995, 0.9999] {
                    let ndc = Vec3::new(i as f32 / 10.0 - 1.0, j as f32 / 10.0 - 1.0, depth);
                    let p = inverse.project_point3(ndc);
                    let Some(k) = cascades.iter().position(|c| row.dot(p.extend(1.0)) <= c.end) else { continue };
                    seen[k] += 1;
                    let inside = |p: Vec3| {
                        let c = cascades[k].view_proj.project_point3(p);
                        c.x.abs() <= 1.0 && c.y.abs() <= 1.0 && (0.0..=1.0).contains(&c.z)
                    };
                    assert!(inside(p), "{p} seen but outside map {k}");
                    assert!(inside(p + sun * (CASTER_MARGIN - 1.0)), "a caster over {p} outside map {k}");
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 20), "every cascade tested: {seen:?}");
        assert!(cascades.windows(2).all(|w| w[0].texel < w[1].texel), "texels grow outwards");
        assert!(cascades[0].texel < 0.05, "close-ups are sharp: {} m texels", cascades[0].texel);
        assert_eq!(fit(camera.view_projection, Vec3::new(0.3, -0.1, 0.2)), None, "no sun, no shadows");
    }
}
