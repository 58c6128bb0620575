//! The GGX specular lobe integrated on the CPU: half vectors importance-sampled over the
//! Hammersley set (the sky's prefiltered cube takes them, `sky.rs`), and the lobe's
//! directional albedo, the split sum's second half: per perceptual roughness and n.v, the
//! scale and bias of f0 and f90 that give what glTF's specular BRDF (GGX, height-correlated
//! Smith, Schlick) reflects of light from every direction. Shading reads it as a table
//! (`shaders/shading.wgsl`'s `directional_albedo`) for the sky's specular, the diffuse
//! layer's share of it and multiple scattering, as three.js, Filament and Khronos's sample
//! viewer read theirs. The analytic fit it replaced (Karis's, made for a cheaper visibility
//! term) gave a rough lobe seen face on a third more than this and seen edge on half as much.

use std::sync::OnceLock;

use glam::{Vec2, Vec3};
use wgpu::util::DeviceExt;

/// Texels per side of the table: perceptual roughness `i / (SIDE - 1)` across, n.v
/// `j / (SIDE - 1)` down, filtered bilinearly between them.
const TABLE_SIDE: usize = 32;
/// Half vectors per texel: within 0.002 everywhere of 65,536 of the distribution's.
const SAMPLES: u32 = 1024;
/// The table as the shader's uniform holds it: per texel, in order, its (scale, bias) and its
/// neighbour's towards rougher (itself again in the last column), so that a bilinear lookup
/// reads two `vec4`s, not four texels.
type Table = [[f32; 4]; TABLE_SIDE * TABLE_SIDE];

/// Point `i` of `n` of the Hammersley set.
pub(crate) fn hammersley(i: u32, n: u32) -> Vec2 {
    Vec2::new((i as f32 + 0.5) / n as f32, i.reverse_bits() as f32 * (1.0 / 4_294_967_296.0))
}

/// The half vector of GGX of alpha `a` at Hammersley point `xi`, in the lobe's frame (z along
/// the normal), distributed as the lobe's normals weighted by their cosine.
pub(crate) fn half_vector(xi: Vec2, a: f32) -> Vec3 {
    let phi = std::f32::consts::TAU * xi.x;
    let cos_theta = ((1.0 - xi.y) / (1.0 + (a * a - 1.0) * xi.y)).sqrt();
    let sin_theta = (1.0 - cos_theta * cos_theta).max(0.0).sqrt();
    Vec3::new(sin_theta * phi.cos(), sin_theta * phi.sin(), cos_theta)
}

/// A half vector of GGX of alpha `a` seen from `v` (both in the lobe's frame), at Hammersley
/// point `xi`: distributed as the normals visible from `v` (Heitz's 2018 sampling), whose
/// estimates stay steady where a view nearly edge on makes the distribution's own spiky.
fn visible_half_vector(v: Vec3, a: f32, xi: Vec2) -> Vec3 {
    let stretched = Vec3::new(a * v.x, a * v.y, v.z).normalize();
    let length2 = stretched.x * stretched.x + stretched.y * stretched.y;
    let t1 = if length2 > 0.0 { Vec3::new(-stretched.y, stretched.x, 0.0) / length2.sqrt() } else { Vec3::X };
    let t2 = stretched.cross(t1);
    let (r, phi) = (xi.x.sqrt(), std::f32::consts::TAU * xi.y);
    let p1 = r * phi.cos();
    let s = 0.5 * (1.0 + stretched.z);
    let p2 = (1.0 - s) * (1.0 - p1 * p1).max(0.0).sqrt() + s * r * phi.sin();
    let n = t1 * p1 + t2 * p2 + stretched * (1.0 - p1 * p1 - p2 * p2).max(0.0).sqrt();
    Vec3::new(a * n.x, a * n.y, n.z.max(0.0)).normalize()
}

/// What glTF's specular lobe of perceptual `roughness` returns towards a view at `n_dot_v` of
/// unit radiance from every direction, as the scale of f0 and of f90 (x, y): the integral of
/// `(1 - Fc) f0 + Fc f90` times the lobe's distribution, visibility and cosine, `Fc` being
/// Schlick's weight `(1 - v.h)^5`, over `samples` visible half vectors.
fn directional_albedo(roughness: f32, n_dot_v: f32, samples: u32) -> Vec2 {
    let a = roughness * roughness;
    let a2 = a * a;
    let v = Vec3::new((1.0 - n_dot_v * n_dot_v).max(0.0).sqrt(), 0.0, n_dot_v);
    // Smith's masking of the view: what sampling the visible normals already weighs by.
    let masking = 2.0 * n_dot_v / (n_dot_v + (a2 + (1.0 - a2) * n_dot_v * n_dot_v).sqrt());
    let mut sum = Vec2::ZERO;
    for i in 0..samples {
        let h = visible_half_vector(v, a, hammersley(i, samples));
        let v_dot_h = v.dot(h);
        let n_dot_l = 2.0 * v_dot_h * h.z - n_dot_v;
        if n_dot_l <= 0.0 || v_dot_h <= 0.0 {
            continue;
        }
        // Height-correlated Smith (shading.wgsl's `direct_light`), as the masking and
        // shadowing G2 = 4 n.l n.v V, over the view's masking: what remains of BRDF x cosine
        // over the sampling's density.
        let visibility = 0.5
            / (n_dot_l * (n_dot_v * n_dot_v * (1.0 - a2) + a2).sqrt()
                + n_dot_v * (n_dot_l * n_dot_l * (1.0 - a2) + a2).sqrt());
        let weight = 4.0 * n_dot_l * n_dot_v * visibility / masking;
        let fc = (1.0 - v_dot_h).powi(5);
        sum += Vec2::new(1.0 - fc, fc) * weight;
    }
    sum / samples as f32
}

/// The table, computed once a process (about a million half vectors).
fn table() -> &'static Table {
    static TABLE: OnceLock<Box<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let last = (TABLE_SIDE - 1) as f32;
        let texels: Vec<Vec2> = (0..TABLE_SIDE * TABLE_SIDE)
            .map(|texel| {
                let (i, j) = (texel % TABLE_SIDE, texel / TABLE_SIDE);
                // A mirror's and an edge-on view's limits, approached (shading clamps both off
                // zero: roughness to 0.045, n.v to 1e-4).
                let roughness = (i as f32 / last).max(0.01);
                let n_dot_v = (j as f32 / last).max(1e-3);
                directional_albedo(roughness, n_dot_v, SAMPLES)
            })
            .collect();
        let mut table = Box::new([[0.0; 4]; TABLE_SIDE * TABLE_SIDE]);
        for (texel, entry) in table.iter_mut().enumerate() {
            let rougher = if texel % TABLE_SIDE == TABLE_SIDE - 1 { texel } else { texel + 1 };
            *entry = [texels[texel].x, texels[texel].y, texels[rougher].x, texels[rougher].y];
        }
        table
    })
}

/// The table in a uniform buffer (`shaders/shading.wgsl`'s `dfg_table`).
pub(crate) fn table_buffer(device: &wgpu::Device) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("directional albedo"),
        contents: bytemuck::cast_slice(table().as_slice()),
        usage: wgpu::BufferUsages::UNIFORM,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texel of the table at roughness column `i` and n.v row `j`.
    fn texel(i: usize, j: usize) -> Vec2 {
        let [scale, bias, ..] = table()[j * TABLE_SIDE + i];
        Vec2::new(scale, bias)
    }

    /// Against three.js 0.187's table (`DFGLUTData.js`: 16 x 16 texels of 4,096 samples,
    /// half floats, read at their centres), an independent integration of the same lobe:
    /// rough and smooth, face on and edge on.
    #[test]
    fn matches_three_js_s_table() {
        let three = [
            // (roughness, n.v, scale, bias)
            (0.96875, 0.96875, 0.345_215, 0.000_070_5),
            (0.96875, 0.53125, 0.461_426, 0.002_863),
            (0.96875, 0.15625, 0.683_594, 0.019_440),
            (0.53125, 0.53125, 0.821_777, 0.016_510),
            (0.53125, 0.15625, 0.759_277, 0.100_891),
            (0.28125, 0.28125, 0.792_969, 0.158_691),
            (0.78125, 0.28125, 0.690_918, 0.021_484),
        ];
        for (roughness, n_dot_v, scale, bias) in three {
            let ours = directional_albedo(roughness, n_dot_v, SAMPLES);
            let error = (ours - Vec2::new(scale, bias)).abs().max_element();
            assert!(error < 0.006, "roughness {roughness}, n.v {n_dot_v}: {ours} against three.js's ({scale}, {bias})");
        }
    }

    /// A mirror reflects all light, as Schlick shares it between f0 and f90; no lobe reflects
    /// more than all (scale + bias is the albedo in a white furnace), and a rougher one
    /// reflects less facing the viewer (more bounces between its microfacets).
    #[test]
    fn a_mirror_reflects_all_and_no_lobe_more() {
        let mirror = texel(0, TABLE_SIDE - 1);
        assert!((mirror.x + mirror.y - 1.0).abs() < 0.002, "{mirror}");
        let fc = (1.0 - 0.5f32).powi(5);
        let half = directional_albedo(0.01, 0.5, SAMPLES);
        assert!((half - Vec2::new(1.0 - fc, fc)).abs().max_element() < 0.002, "{half}");
        for j in 0..TABLE_SIDE {
            for i in 0..TABLE_SIDE {
                let t = texel(i, j);
                assert!(t.min_element() >= 0.0 && t.x + t.y <= 1.002, "texel ({i}, {j}): {t}");
            }
        }
        let facing = |i| texel(i, TABLE_SIDE - 1).x;
        for i in 1..TABLE_SIDE {
            assert!(facing(i) <= facing(i - 1) + 1e-4, "roughness column {i}: {} after {}", facing(i), facing(i - 1));
        }
        assert!(facing(TABLE_SIDE - 1) < 0.4, "{}", facing(TABLE_SIDE - 1));
    }

    /// Each entry's neighbour is the next texel towards rougher.
    #[test]
    fn each_entry_holds_its_rougher_neighbour() {
        for j in 0..TABLE_SIDE {
            for i in 0..TABLE_SIDE {
                let [.., scale, bias] = table()[j * TABLE_SIDE + i];
                assert_eq!(Vec2::new(scale, bias), texel((i + 1).min(TABLE_SIDE - 1), j));
            }
        }
    }

    /// Seen nearly edge on, where the estimate varies most, 1,024 visible half vectors give
    /// what 16,384 do.
    #[test]
    fn the_estimate_has_converged_edge_on() {
        for (roughness, n_dot_v) in [(0.15, 1e-3), (0.3, 1e-3), (0.6, 0.03), (1.0, 1e-3)] {
            let (ours, finer) =
                (directional_albedo(roughness, n_dot_v, SAMPLES), directional_albedo(roughness, n_dot_v, 16_384));
            assert!(
                (ours - finer).abs().max_element() < 0.002,
                "roughness {roughness}, n.v {n_dot_v}: {ours} against {finer}"
            );
        }
    }

    /// The shader reads the table as it is laid out here.
    #[test]
    fn the_shader_reads_the_table_s_layout() {
        let shader = include_str!("../shaders/shading.wgsl");
        assert!(shader.contains(&format!("const DFG_SIDE: u32 = {TABLE_SIDE}u;")));
        let uniform = format!("var<uniform> dfg_table: array<vec4<f32>, {}>;", TABLE_SIDE * TABLE_SIDE);
        assert!(shader.contains(&uniform), "{uniform}");
    }

    /// The sampled half vectors are GGX's normals weighted by their cosine: over the
    /// hemisphere they average what that density gives, `2/3` of z for a = 1 (the cosine
    /// lobe's).
    #[test]
    fn half_vectors_follow_the_lobe() {
        let n = 4096;
        let mean: f32 = (0..n).map(|i| half_vector(hammersley(i, n), 1.0).z).sum::<f32>() / n as f32;
        assert!((mean - 2.0 / 3.0).abs() < 1e-3, "{mean}");
    }
}
