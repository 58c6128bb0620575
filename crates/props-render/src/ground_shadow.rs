//! The ground's shadow: a host's height field ([`HeightField`]) shadows whatever lies under
//! the sun, its own slopes and every prop, by one lookup a pixel (`shaders/shadows.wgsl`'s
//! `ground_visibility`), so the ground need not be drawn into the shadow maps. It is the
//! largest caster a town has: its hills cover most of every cascade, and drawing them was more
//! than half the default town's shadow passes on lavapipe.
//!
//! For a sun in direction `l`, the shadow height over a ground point is the highest the
//! ground upwind of it (towards the sun) reaches once lowered along the sun's ray to it:
//! `max over t > 0 of h(p + t d) - t tan(elevation)` (`d` the sun's direction across the
//! ground). A point lower than that is in the hills' shadow. Made on the CPU whenever the sun
//! moves, a sweep of the grid in one pass ([`shadow_heights`]), and uploaded as a texture of
//! half floats above the field's lowest (filtered: one bilinear tap a pixel; a half float's
//! step is under 6 cm below 128 m of relief, under 1 m below 2 km: within the shadow's
//! edge).

use glam::{Vec2, Vec3};
use props_frame::HeightField;

use crate::texture;

/// The shadow heights' texture: half floats, filtered.
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R16Float;
const LABEL: &str = "ground shadow";

/// The cosine of how far the sun moves before its shadow heights are made again: 0.05 degrees
/// (at the town's day of 24 minutes, five times a second), which moves the tip of a 20 m hill's
/// shadow at a 15-degree sun by a quarter of a metre.
const SWEEP_AGAIN_COS: f32 = 0.999_999_6;

/// Why [`crate::Renderer::set_ground_shadow`] refused a height field.
#[derive(Debug, thiserror::Error)]
pub enum GroundShadowError {
    /// The grid has more samples a side than the device's textures may.
    #[error("a height field of {columns} x {rows} samples is larger than this GPU's textures ({max} a side)")]
    TooLarge {
        /// Samples a row.
        columns: u32,
        /// Rows.
        rows: u32,
        /// The device's largest 2D texture side.
        max: u32,
    },
}

/// The ground's height field, its shadow heights for the sun they were made for, and their
/// texture (a 1x1 stand-in without a field) and sampler.
pub(crate) struct GroundShadow {
    field: Option<HeightField>,
    texture: wgpu::Texture,
    pub(crate) view: wgpu::TextureView,
    pub(crate) sampler: wgpu::Sampler,
    /// The sun direction `heights` were made for; `None`: not made yet.
    made_for: Option<Vec3>,
    heights: Vec<f32>,
    /// `heights` as uploaded: above `base`, the field's lowest less a metre (what shadows
    /// nothing: 0).
    texels: Vec<half::f16>,
    base: f32,
    /// Counts the textures made: the bind groups over the view are made again when it moves.
    generation: u64,
}

impl GroundShadow {
    /// No ground shadow: a stand-in texture.
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let (texture, view) = texture::data_texture(device, LABEL, FORMAT, (1, 1));
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("ground shadow"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let (heights, texels) = (Vec::new(), Vec::new());
        Self { field: None, texture, view, sampler, made_for: None, heights, texels, base: 0.0, generation: 0 }
    }

    /// Shadows every surface with `field`'s hills from now on (none: no ground shadow; none
    /// too when the field is refused).
    pub(crate) fn set(&mut self, device: &wgpu::Device, field: Option<HeightField>) -> Result<(), GroundShadowError> {
        let (columns, rows) = field.as_ref().map_or((1, 1), |f| (f.columns(), f.rows()));
        let max = device.limits().max_texture_dimension_2d;
        let fits = columns <= max && rows <= max;
        let (width, height) = if fits { (columns, rows) } else { (1, 1) };
        (self.texture, self.view) = texture::data_texture(device, LABEL, FORMAT, (width, height));
        self.field = field.filter(|_| fits);
        self.made_for = None;
        self.generation += 1;
        if fits { Ok(()) } else { Err(GroundShadowError::TooLarge { columns, rows, max }) }
    }

    /// Makes and uploads the shadow heights for a sun towards `towards_sun` (unit) if they
    /// were made for one more than 0.05 degrees away.
    pub(crate) fn prepare(&mut self, queue: &wgpu::Queue, towards_sun: Vec3) {
        let Some(field) = &self.field else { return };
        if self.made_for.is_some_and(|made_for| made_for.dot(towards_sun) >= SWEEP_AGAIN_COS) {
            return;
        }
        shadow_heights(field, towards_sun, &mut self.heights);
        self.base = self.heights.iter().copied().fold(f32::INFINITY, f32::min);
        self.texels.clear();
        // A half float's largest finite value bounds the relief (65 km): a host's absurd heights
        // stay finite on the GPU.
        self.texels.extend(self.heights.iter().map(|h| half::f16::from_f32((h - self.base).min(65_000.0))));
        queue.write_texture(
            self.texture.as_image_copy(),
            bytemuck::cast_slice(&self.texels),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(2 * field.columns()),
                rows_per_image: Some(field.rows()),
            },
            self.texture.size(),
        );
        self.made_for = Some(towards_sun);
    }

    /// The globals' `ground_shadow`: the world x and z of the first sample, samples per
    /// metre (0: no ground shadow this frame), and the height the texels are above.
    pub(crate) fn uniform(&self) -> [f32; 4] {
        match (&self.field, self.made_for) {
            (Some(field), Some(_)) => [field.origin().x, field.origin().y, field.spacing().recip(), self.base],
            _ => [0.0; 4],
        }
    }

    /// Whether a height field is set.
    pub(crate) fn is_set(&self) -> bool {
        self.field.is_some()
    }

    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }
}

/// Writes into `out` the shadow height over each of `field`'s samples for a sun towards
/// `towards_sun`: the lowest a point there must be to see the sun past the ground upwind of
/// it. Where nothing upwind rises in the way (and with the sun overhead or down), a metre below
/// the field's lowest sample, which shadows nothing.
///
/// One sweep of the grid, a line of samples at a time from the sunward edge, along the axis
/// nearest the sun's direction across the ground: a sample's shadow height is its sunward
/// neighbour's top (its height or its own shadow height, the higher) lowered by the sun's
/// climb between them, the neighbour one line sunward and `f` samples along it (interpolated).
pub(crate) fn shadow_heights(field: &HeightField, towards_sun: Vec3, out: &mut Vec<f32>) {
    let heights = field.heights();
    let none = heights.iter().copied().fold(f32::INFINITY, f32::min) - 1.0;
    out.clear();
    out.resize(heights.len(), none);
    let across = Vec2::new(towards_sun.x, towards_sun.z);
    let run = across.length();
    if towards_sun.y <= 0.0 || run <= 1e-6 * towards_sun.y {
        return;
    }
    let d = across / run;
    let (columns, rows) = (field.columns() as usize, field.rows() as usize);
    let x_major = d.x.abs() >= d.y.abs();
    let (lines, along, major, minor) = if x_major { (columns, rows, d.x, d.y) } else { (rows, columns, d.y, d.x) };
    let index = |line: usize, k: usize| if x_major { k * columns + line } else { line * columns + k };
    // Samples along the next line per line sunward, and metres the sun's ray climbs meanwhile.
    let f = minor / major.abs();
    let climb = field.spacing() / major.abs() * towards_sun.y / run;
    for n in 1..lines {
        let (line, sunward) = if major > 0.0 { (lines - 1 - n, lines - n) } else { (n, n - 1) };
        for k in 0..along {
            let at = k as f32 + f;
            let (k0, w) = (at.floor(), at - at.floor());
            let top = |k: f32| {
                if k < 0.0 || k > (along - 1) as f32 {
                    return none;
                }
                let i = index(sunward, k as usize);
                heights[i].max(out[i])
            };
            let height = top(k0) * (1.0 - w) + top(k0 + 1.0) * w - climb;
            out[index(line, k)] = height.max(none);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hill: a Gaussian bump of 20 m on a 64 x 48 grid of 2 m cells.
    fn hill() -> HeightField {
        let (columns, rows) = (64, 48);
        let heights = (0..rows)
            .flat_map(|j| (0..columns).map(move |i| (i, j)))
            .map(|(i, j)| {
                let p = Vec2::new(i as f32, j as f32) * 2.0 - Vec2::new(60.0, 50.0);
                20.0 * (-p.length_squared() / (2.0 * 15.0 * 15.0)).exp()
            })
            .collect();
        HeightField::new(Vec2::new(-60.0, -50.0), 2.0, columns, heights).expect("a grid")
    }

    /// The shadow heights by marching each sample's ray to the sun in steps of 5 cm: the
    /// definition, at a thousand times the cost. The height a shadow reaches over a sample (the
    /// top: the ground's, or the shadow height above it) is within 5% of the hill's height (1
    /// m), and where the march leaves a sample lit or shadowed by more than that, so does the
    /// sweep. The sweep is exact with the sun along an axis; across, its interpolation
    /// flattens the shadow's top a little, most at the tip of a long shadow.
    #[test]
    fn the_sweep_agrees_with_marching_to_the_sun() {
        let field = hill();
        let mut swept = Vec::new();
        for (azimuth, elevation) in [(0.0f32, 20.0f32), (90.0, 30.0), (200.0, 15.0), (315.0, 25.0), (33.0, 22.0)] {
            let (a, e) = (azimuth.to_radians(), elevation.to_radians());
            let towards_sun = Vec3::new(a.cos() * e.cos(), e.sin(), a.sin() * e.cos());
            shadow_heights(&field, towards_sun, &mut swept);
            let d = Vec2::new(a.cos(), a.sin());
            let (mut worst, mut shadowed) = (0.0f32, 0);
            for (s, &swept) in swept.iter().enumerate() {
                let (i, j) = (s % field.columns() as usize, s / field.columns() as usize);
                let p = field.origin() + Vec2::new(i as f32, j as f32) * field.spacing();
                let marched = (1..)
                    .map(|n| n as f32 * 0.05)
                    .map_while(|t| field.height_at(p + d * t).map(|h| h - t * e.tan()))
                    .fold(f32::MIN, f32::max);
                let h = field.heights()[s];
                if (marched - h).abs() > 1.0 {
                    let case =
                        format!("{azimuth} {elevation}, sample {i} {j}: {swept} swept, {marched} marched, {h} high");
                    assert_eq!(swept > h, marched > h, "{case}");
                    shadowed += usize::from(marched > h);
                }
                worst = worst.max((swept.max(h) - marched.max(h)).abs());
            }
            assert!(shadowed > 40, "{azimuth} {elevation}: the hill shades {shadowed} samples");
            assert!(worst < 1.0, "{azimuth} {elevation}: the sweep's tops are {worst} m off the march's");
        }
    }

    /// The sun overhead, or below the horizon, casts no ground shadow; a sun on the hill's
    /// east side shades its west foot and leaves its east foot lit.
    #[test]
    fn the_hill_shades_the_side_away_from_the_sun() {
        let field = hill();
        let mut heights = Vec::new();
        let none = field.heights().iter().copied().fold(f32::INFINITY, f32::min) - 1.0;
        for towards_sun in [Vec3::Y, Vec3::new(1.0, -0.1, 0.0), Vec3::new(1.0, 0.0, 0.0)] {
            shadow_heights(&field, towards_sun, &mut heights);
            assert!(heights.iter().all(|&h| h == none), "{towards_sun}");
        }
        shadow_heights(&field, Vec3::new(1.0, 0.4, 0.0).normalize(), &mut heights);
        let at = |x: f32| {
            let i = ((x + 60.0) / 2.0) as usize;
            let s = 25 * field.columns() as usize + i;
            (heights[s], field.heights()[s])
        };
        let (west, ground) = at(-24.0);
        assert!(west > ground + 1.0, "the west foot: shadow height {west}, ground {ground}");
        let (east, ground) = at(24.0);
        assert!(east < ground, "the east foot: shadow height {east}, ground {ground}");
    }
}
