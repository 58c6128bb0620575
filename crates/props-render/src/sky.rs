//! The sky's image-based light, computed once from a procedural sky: its radiance projected on
//! spherical harmonics (bands 0 to 2) for diffuse irradiance, and a small cube map of its
//! radiance prefiltered with the GGX lobe for each roughness (one mip level per step), the
//! split-sum approximation's first half (its second, the lobe's directional albedo:
//! `ggx.rs`).

use glam::Vec3;
use half::f16;
use wgpu::util::DeviceExt;

use crate::ggx;

/// Texels per side of the prefiltered cube's largest level (the sky is smooth: the sun's
/// disk is the directional light, not part of it).
const CUBE_SIDE: u32 = 16;
/// GGX samples per texel of each level past the first.
const SAMPLES: u32 = 48;
/// Latitude-longitude samples of the spherical-harmonic projection (twice as many around).
const SH_ROWS: u32 = 48;

/// A procedural sky: colours at the zenith, the horizon and below it, and a glow around the
/// sun. Linear radiance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sky {
    /// Straight up.
    pub zenith: Vec3,
    /// At the horizon.
    pub horizon: Vec3,
    /// Below the horizon (the ground's bounce).
    pub ground: Vec3,
    /// Unit direction towards the sun.
    pub sun: Vec3,
    /// The glow around the sun, at its centre.
    pub glow: Vec3,
}

impl Default for Sky {
    /// A clear day's blue sky, the sun high in the south-east.
    fn default() -> Self {
        Self {
            zenith: Vec3::new(0.16, 0.27, 0.55),
            horizon: Vec3::new(0.5, 0.58, 0.68),
            ground: Vec3::new(0.16, 0.15, 0.13),
            sun: Vec3::new(0.4, 0.8, 0.45).normalize(),
            glow: Vec3::new(0.9, 0.8, 0.6),
        }
    }
}

impl Sky {
    /// The radiance arriving from unit direction `d`.
    #[must_use]
    pub fn radiance(&self, d: Vec3) -> Vec3 {
        let base = if d.y >= 0.0 {
            self.horizon.lerp(self.zenith, d.y.sqrt())
        } else {
            self.horizon.lerp(self.ground, (-d.y).sqrt().min(1.0) * 0.9 + 0.1)
        };
        base + self.glow * d.dot(self.sun).max(0.0).powi(32)
    }

    /// The radiance's spherical-harmonic coefficients (bands 0 to 2, in the order
    /// `L00, L1-1, L10, L11, L2-2, L2-1, L20, L21, L22` of Ramamoorthi and Hanrahan, on world x,
    /// y, z), integrated over a latitude-longitude grid.
    #[must_use]
    pub fn harmonics(&self) -> [Vec3; 9] {
        let mut sh = [Vec3::ZERO; 9];
        let (rows, columns) = (SH_ROWS, 2 * SH_ROWS);
        for row in 0..rows {
            let theta = (row as f32 + 0.5) / rows as f32 * std::f32::consts::PI;
            let solid_angle =
                theta.sin() * (std::f32::consts::PI / rows as f32) * (std::f32::consts::TAU / columns as f32);
            for column in 0..columns {
                let phi = (column as f32 + 0.5) / columns as f32 * std::f32::consts::TAU;
                let d = Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin());
                let radiance = self.radiance(d) * solid_angle;
                for (coefficient, basis) in sh.iter_mut().zip(basis(d)) {
                    *coefficient += radiance * basis;
                }
            }
        }
        sh
    }
}

/// The nine real spherical-harmonic basis functions at unit direction `d`.
fn basis(d: Vec3) -> [f32; 9] {
    let Vec3 { x, y, z } = d;
    [
        0.282_095,
        0.488_603 * y,
        0.488_603 * z,
        0.488_603 * x,
        1.092_548 * x * y,
        1.092_548 * y * z,
        0.315_392 * (3.0 * z * z - 1.0),
        1.092_548 * x * z,
        0.546_274 * (x * x - y * y),
    ]
}

/// The unit direction through texel centre `(u, v)` (each in -1..1) of cube face `face`, as
/// wgpu orders and orients faces (+X, -X, +Y, -Y, +Z, -Z).
fn face_direction(face: u32, u: f32, v: f32) -> Vec3 {
    match face {
        0 => Vec3::new(1.0, -v, -u),
        1 => Vec3::new(-1.0, -v, u),
        2 => Vec3::new(u, 1.0, v),
        3 => Vec3::new(u, -1.0, -v),
        4 => Vec3::new(u, -v, 1.0),
        _ => Vec3::new(-u, -v, -1.0),
    }
    .normalize()
}

/// The sky's radiance around `n` weighted by the GGX lobe of perceptual `roughness` (with
/// `n` as the view and reflected direction).
fn prefiltered(sky: &Sky, n: Vec3, roughness: f32) -> Vec3 {
    if roughness <= 0.0 {
        return sky.radiance(n);
    }
    let a = roughness * roughness;
    let up = if n.y.abs() < 0.999 { Vec3::Y } else { Vec3::X };
    let tangent = up.cross(n).normalize();
    let bitangent = n.cross(tangent);
    let (mut sum, mut weight) = (Vec3::ZERO, 0.0);
    for i in 0..SAMPLES {
        let h = ggx::half_vector(ggx::hammersley(i, SAMPLES), a);
        let h = tangent * h.x + bitangent * h.y + n * h.z;
        let l = 2.0 * n.dot(h) * h - n;
        let n_dot_l = n.dot(l);
        if n_dot_l > 0.0 {
            sum += sky.radiance(l) * n_dot_l;
            weight += n_dot_l;
        }
    }
    if weight > 0.0 { sum / weight } else { sky.radiance(n) }
}

/// Every level of the prefiltered cube, faces in order within each level, as RGBA16F texels.
fn cube_levels(sky: &Sky) -> (u32, Vec<u8>) {
    let levels = 32 - CUBE_SIDE.leading_zeros();
    let mut texels: Vec<f16> = Vec::new();
    for face in 0..6 {
        for level in 0..levels {
            let side = (CUBE_SIDE >> level).max(1);
            let roughness = level as f32 / (levels - 1).max(1) as f32;
            for y in 0..side {
                for x in 0..side {
                    let u = (x as f32 + 0.5) / side as f32 * 2.0 - 1.0;
                    let v = (y as f32 + 0.5) / side as f32 * 2.0 - 1.0;
                    let radiance = prefiltered(sky, face_direction(face, u, v), roughness);
                    texels.extend([radiance.x, radiance.y, radiance.z, 1.0].map(f16::from_f32));
                }
            }
        }
    }
    (levels, bytemuck::cast_slice(&texels).to_vec())
}

/// The sky's light on the GPU: the prefiltered cube, its harmonics and the lobe's directional
/// albedo.
pub(crate) struct SkyLight {
    /// The prefiltered radiance cube.
    pub view: wgpu::TextureView,
    /// Its sampler: linear within and between levels.
    pub sampler: wgpu::Sampler,
    /// The radiance's spherical harmonics, as `globals.sky_sh` takes them.
    pub harmonics: [[f32; 4]; 9],
    /// The split sum's second half, which the direct light's multiple scattering reads too:
    /// the specular lobe's directional albedo (`ggx.rs`), a uniform.
    pub directional_albedo: wgpu::Buffer,
}

impl SkyLight {
    /// Computes and uploads `sky`'s light.
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue, sky: &Sky) -> Self {
        let (levels, data) = cube_levels(sky);
        let texture = device.create_texture_with_data(
            queue,
            &wgpu::TextureDescriptor {
                label: Some("sky light"),
                size: wgpu::Extent3d { width: CUBE_SIDE, height: CUBE_SIDE, depth_or_array_layers: 6 },
                mip_level_count: levels,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba16Float,
                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            },
            wgpu::util::TextureDataOrder::LayerMajor,
            &data,
        );
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::Cube),
            ..Default::default()
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("sky light"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Linear,
            ..Default::default()
        });
        let harmonics = sky.harmonics().map(|c| c.extend(0.0).to_array());
        Self { view, sampler, harmonics, directional_albedo: ggx::table_buffer(device) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Irradiance from the harmonics (Ramamoorthi and Hanrahan's formula, as the shader has
    /// it) against a brute-force cosine-weighted integral of the sky, for several normals.
    #[test]
    fn harmonics_give_the_sky_s_irradiance() {
        let sky = Sky::default();
        let sh = sky.harmonics();
        let (c1, c2, c3, c4, c5) = (0.429_043, 0.511_664, 0.743_125, 0.886_227, 0.247_708);
        for n in [Vec3::Y, -Vec3::Y, Vec3::X, Vec3::new(0.3, 0.5, -0.8).normalize()] {
            let Vec3 { x, y, z } = n;
            let e = c1 * sh[8] * (x * x - y * y) + c3 * sh[6] * z * z + c4 * sh[0] - c5 * sh[6]
                + 2.0 * c1 * (sh[4] * x * y + sh[7] * x * z + sh[5] * y * z)
                + 2.0 * c2 * (sh[3] * x + sh[1] * y + sh[2] * z);
            let mut expected = Vec3::ZERO;
            let rows = 200;
            for row in 0..rows {
                let theta = (row as f32 + 0.5) / rows as f32 * std::f32::consts::PI;
                let d_omega = theta.sin() * (std::f32::consts::PI / rows as f32) * (std::f32::consts::TAU / 400.0);
                for column in 0..400 {
                    let phi = (column as f32 + 0.5) / 400.0 * std::f32::consts::TAU;
                    let d = Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin());
                    expected += sky.radiance(d) * d.dot(n).max(0.0) * d_omega;
                }
            }
            // Three bands hold a smooth sky's irradiance to a few per cent.
            let error = (e - expected).abs().max_element() / expected.max_element();
            assert!(error < 0.05, "normal {n}: {e} vs {expected}");
        }
    }

    /// Each face's centre looks along its axis, and the faces' edges meet.
    #[test]
    fn cube_faces_are_oriented_as_wgpu_samples_them() {
        let axes = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
        for (face, axis) in axes.into_iter().enumerate() {
            assert!(face_direction(face as u32, 0.0, 0.0).distance(axis) < 1e-6);
        }
        // +X's right edge (u = 1) is -Z's left edge (u = -1), at the same height.
        assert!(face_direction(0, 1.0, 0.3).distance(face_direction(5, -1.0, 0.3)) < 1e-6);
    }
}
