//! Plain data for the test models: tube meshes, skin influences and integer quantization.

use anyhow::{Context, Result, ensure};

use super::builder::to_f32;
use super::math::{self, Quat};

/// A square-section open tube: rings of 4 vertices along an axis, sides as triangles.
#[derive(Clone, Debug, Default)]
pub struct Tube {
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Unit vertex normals (pointing away from the axis).
    pub normals: Vec<[f32; 3]>,
    /// Triangle indices (4 sides x 2 triangles per segment).
    pub indices: Vec<u16>,
    /// Per vertex: the position along the axis mapped to the caller's parameter range (used to
    /// weight the vertex to joints placed at parameter values).
    pub params: Vec<f64>,
}

/// A tube from `origin` along `axis` (its length is the tube's length) with `segments` segments,
/// half width `half`, and vertex parameters running linearly over `params`.
pub fn tube(origin: [f64; 3], axis: [f64; 3], segments: usize, half: f64, params: (f64, f64)) -> Result<Tube> {
    ensure!(segments > 0, "a tube needs a segment");
    let dir = math::normalize3(axis);
    let helper = if dir[1].abs() < 0.9 { [0.0, 1.0, 0.0] } else { [1.0, 0.0, 0.0] };
    let u = math::normalize3(math::cross(dir, helper));
    let v = math::cross(dir, u);
    let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
    let mut out = Tube::default();
    for ring in 0..=segments {
        let f = ring as f64 / segments as f64;
        let center = math::add_scaled(origin, axis, f);
        for (cu, cv) in corners {
            let offset = math::add_scaled(u.map(|c| c * cu), v, cv);
            out.positions.push(to_f32(math::add_scaled(center, offset, half)));
            out.normals.push(to_f32(math::normalize3(offset)));
            out.params.push(params.0 + (params.1 - params.0) * f);
        }
    }
    for ring in 0..segments {
        for side in 0..4 {
            let a = ring * 4 + side;
            let b = ring * 4 + (side + 1) % 4;
            let quad = [a, b, b + 4, a, b + 4, a + 4];
            for i in quad {
                out.indices.push(u16::try_from(i).context("tube too big")?);
            }
        }
    }
    Ok(out)
}

/// An axis-aligned cube of half size `half` around the origin: 8 corners and 12 triangles.
pub fn cube(half: f32) -> (Vec<[f32; 3]>, Vec<u16>) {
    let positions =
        (0..8).map(|i| [i & 1, i >> 1 & 1, i >> 2 & 1].map(|bit| if bit == 1 { half } else { -half })).collect();
    // Two triangles per face; corner index bits are (x, y, z).
    let indices = vec![
        0, 2, 3, 0, 3, 1, // -z
        4, 5, 7, 4, 7, 6, // +z
        0, 1, 5, 0, 5, 4, // -y
        2, 6, 7, 2, 7, 3, // +y
        0, 4, 6, 0, 6, 2, // -x
        1, 3, 7, 1, 7, 5, // +x
    ];
    (positions, indices)
}

/// A vertex's joint influences: `(skin joint slot, weight)`, weights summing to 1.
pub type Influences = Vec<(usize, f64)>;

/// Linear blend between the two chain joints around `param` (joint `i` sits at parameter `i`);
/// clamped to the first and last joint.
pub fn chain_blend(param: f64, joint_count: usize) -> Influences {
    let last = joint_count.saturating_sub(1) as f64;
    let p = param.clamp(0.0, last);
    let base = p.floor();
    let frac = p - base;
    let i = base as usize;
    if frac == 0.0 { vec![(i, 1.0)] } else { vec![(i, 1.0 - frac), (i + 1, frac)] }
}

/// Influences of the `count` joints nearest to `param` (joint `i` sits at `joint_params[i]`),
/// Gaussian falloff of width `sigma`, normalized to sum 1, nearest first.
pub fn nearest_joints(param: f64, joint_params: &[f64], count: usize, sigma: f64) -> Influences {
    let mut by_distance: Vec<(usize, f64)> = joint_params.iter().map(|&p| (p - param).abs()).enumerate().collect();
    by_distance.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    by_distance.truncate(count);
    let raw: Vec<(usize, f64)> = by_distance.into_iter().map(|(j, d)| (j, (-(d / sigma).powi(2)).exp())).collect();
    let total: f64 = raw.iter().map(|(_, w)| w).sum();
    raw.into_iter().map(|(j, w)| (j, w / total)).collect()
}

/// Integers proportional to `weights` (which sum to 1) that sum to exactly `max`
/// (largest-remainder rounding, ties to the lower index).
pub fn quantize_weights(weights: &[f64], max: u32) -> Vec<u32> {
    let scaled: Vec<f64> = weights.iter().map(|w| w * f64::from(max)).collect();
    let mut out: Vec<u32> = scaled.iter().map(|s| s.floor() as u32).collect();
    let mut order: Vec<usize> = (0..scaled.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (scaled[a] - scaled[a].floor(), scaled[b] - scaled[b].floor());
        rb.total_cmp(&ra).then(a.cmp(&b))
    });
    let missing = max.saturating_sub(out.iter().sum());
    for &i in order.iter().cycle().take(missing as usize) {
        out[i] += 1;
    }
    out
}

/// `f32` weights whose `f32` sum is as close to 1 as possible (the largest absorbs the rest).
pub fn float_weights(weights: &[f64]) -> Vec<f32> {
    let mut out: Vec<f32> = weights.iter().map(|&w| to_f32([w])[0]).collect();
    let largest = weights.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).map_or(0, |(i, _)| i);
    let others: f64 = out.iter().enumerate().filter(|&(i, _)| i != largest).map(|(_, &w)| f64::from(w)).sum();
    if let Some(w) = out.get_mut(largest) {
        *w = to_f32([1.0 - others])[0];
    }
    out
}

/// A unit quaternion as normalized SHORT components (`round(c * 32767)`, the spec's encoding).
pub fn snorm16_quat(q: Quat) -> [i16; 4] {
    q.map(|c| (c.clamp(-1.0, 1.0) * 32767.0).round() as i16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantized_weights_sum_exactly() {
        let w = [0.3, 0.25, 0.2, 0.1, 0.07, 0.05, 0.02, 0.01];
        assert_eq!(quantize_weights(&w, 255).iter().sum::<u32>(), 255);
        assert_eq!(quantize_weights(&w, 65535).iter().sum::<u32>(), 65535);
    }

    #[test]
    fn snorm16_quaternion_is_near_unit() {
        let q = snorm16_quat(math::quat_axis_angle([1.0, 2.0, 3.0], 50.0));
        let len = q.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt() / 32767.0;
        assert!((len - 1.0).abs() < 1e-4, "{q:?}");
    }

    #[test]
    fn blend_weights_sum_to_one() {
        for p in [-1.0, 0.0, 0.25, 1.5, 9.0] {
            let s: f64 = chain_blend(p, 3).iter().map(|(_, w)| w).sum();
            assert!((s - 1.0).abs() < 1e-12);
        }
        let s: f64 = nearest_joints(0.3, &[0.0, 1.0, 2.0], 8, 1.0).iter().map(|(_, w)| w).sum();
        assert!((s - 1.0).abs() < 1e-12);
    }
}
