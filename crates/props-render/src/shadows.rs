//! Sun shadows: one shadow map, fitted each frame to what the camera sees up to
//! [`SHADOW_DISTANCE`] metres, drawn by a depth-only pass of every opaque draw through the
//! same vertex shader (so skinned and morphed props cast their posed shadows from the same
//! palettes), and read by the fragment shader through a comparison sampler's 2x2
//! percentage-closer filtering.
//!
//! The map covers a sphere around that part of the view (so it does not change size as the
//! camera turns) and moves in whole texels (so shadow edges do not crawl). Casters are the
//! frame's instances: the props in view and the ground.

use glam::{Mat4, Vec3, Vec4Swizzles};

use crate::pipelines::DEPTH_FORMAT;

/// Texels of the shadow map on a side.
pub(crate) const SHADOW_MAP_SIZE: u32 = 2048;
/// How far from the eye, along each view ray, shadows are drawn (metres).
const SHADOW_DISTANCE: f32 = 260.0;
/// How far beyond the shadowed region, towards the sun, casters are still drawn (metres).
const CASTER_MARGIN: f32 = 120.0;

/// The shadow map and what reads it.
pub(crate) struct ShadowMap {
    /// The map, drawn into by the shadow pass.
    pub(crate) target: wgpu::TextureView,
    /// A 1x1 map bound in the shadow pass's own bind group (the map cannot be read while it
    /// is drawn), and where shadows are off.
    pub(crate) stand_in: wgpu::TextureView,
    /// The comparison sampler the fragment shader filters with.
    pub(crate) sampler: wgpu::Sampler,
}

/// A depth texture of `size` texels a side.
fn depth_texture(device: &wgpu::Device, label: &str, size: u32) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}

impl ShadowMap {
    /// The map (of [`SHADOW_MAP_SIZE`] texels a side when `enabled`, else none but the
    /// stand-in), its stand-in and sampler.
    pub(crate) fn new(device: &wgpu::Device, enabled: bool) -> Self {
        let stand_in = depth_texture(device, "no shadow map", 1);
        let target = if enabled { depth_texture(device, "shadow map", SHADOW_MAP_SIZE) } else { stand_in.clone() };
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow map"),
            address_mode_u: wgpu::AddressMode::ClampToEdge,
            address_mode_v: wgpu::AddressMode::ClampToEdge,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        Self { target, stand_in, sampler }
    }
}

/// The sun's view-projection for the shadow map (wgpu's 0..1 depth), fitted to what
/// `view_projection` sees up to [`SHADOW_DISTANCE`] from `eye`, for a sun towards `sun`, and
/// the metres its depth range spans; `None` when the sun is at or below the horizon.
pub(crate) fn fit(view_projection: Mat4, eye: Vec3, sun: Vec3) -> Option<(Mat4, f32)> {
    let sun = sun.normalize_or_zero();
    if sun.y <= 0.0 {
        return None;
    }
    let inverse = view_projection.inverse();
    let mut corners = [Vec3::ZERO; 8];
    for (k, (x, y)) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)].into_iter().enumerate() {
        let near = inverse.project_point3(Vec3::new(x, y, 0.0));
        let far = inverse.project_point3(Vec3::new(x, y, 1.0));
        let ray = far - near;
        let reach = (SHADOW_DISTANCE - (near - eye).length()).max(0.0).min(ray.length());
        corners[2 * k] = near;
        corners[2 * k + 1] = near + ray.normalize_or_zero() * reach;
    }
    if !corners.iter().all(|c| c.is_finite()) {
        return None;
    }
    let center = corners.iter().copied().sum::<Vec3>() / 8.0;
    let radius = corners.iter().map(|c| (*c - center).length()).fold(0.0, f32::max).max(1.0);
    // Whole texels: the centre moves in steps of one texel in the sun's view.
    let up = if sun.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
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
    Some((fitted, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every point the camera sees within the shadow distance lands inside the map, and so
    /// does a caster between it and the sun within the margin.
    #[test]
    fn the_map_covers_the_near_view_and_its_casters() {
        let eye = Vec3::new(10.0, 40.0, 90.0);
        let camera = props_frame::Camera::look_at(eye, Vec3::ZERO, 0.9, 16.0 / 9.0, (1.0, 4000.0));
        let sun = Vec3::new(0.4, 0.8, 0.45).normalize();
        let (shadow, _) = fit(camera.view_projection, eye, sun).expect("the sun is up");
        let inverse = camera.view_projection.inverse();
        let inside = |p: Vec3| {
            let c = shadow.project_point3(p);
            c.x.abs() <= 1.0 && c.y.abs() <= 1.0 && (0.0..=1.0).contains(&c.z)
        };
        for i in 0..=10 {
            for j in 0..=10 {
                for depth in [0.0, 0.5, 0.9, 0.99, 0.999] {
                    let ndc = Vec3::new(i as f32 / 5.0 - 1.0, j as f32 / 5.0 - 1.0, depth);
                    let p = inverse.project_point3(ndc);
                    if (p - eye).length() > SHADOW_DISTANCE - 1.0 {
                        continue;
                    }
                    assert!(inside(p), "{p} seen but outside the map");
                    assert!(inside(p + sun * (CASTER_MARGIN - 1.0)), "a caster over {p} outside the map");
                }
            }
        }
        assert_eq!(fit(camera.view_projection, eye, Vec3::new(0.3, -0.1, 0.2)), None, "no sun, no shadows");
    }
}
