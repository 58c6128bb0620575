//! Clustered forward lighting: which point and spot lights each fragment loops over.
//!
//! The view is cut into [`TILES_X`] x [`TILES_Y`] screen tiles and [`SLICES`] depth slices
//! (exponential in view depth); on the CPU, each light goes to every cluster its sphere of
//! influence may touch, so a fragment pays for the lights near it, not for the lights of the
//! town. The lights travel in a uniform array (`shaders/lights.wgsl`); each cluster's list in
//! an integer texture: one header texel per cluster (where its list starts, how long it is),
//! then the lists, four 8-bit light indices a texel. Both are written only when a light is in
//! view.
//!
//! At most [`MAX_LIGHTS`] lights are shaded in a frame: the nearest the eye win. Lights fade
//! out towards a light distance, the distance of the nearest light past the limit (at most
//! `props_frame::LIGHT_DISTANCE`), which eases towards its new value frame after frame, so a
//! light crossing the limit dims and none pops.

use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3, Vec4};
use props_anim::light::PlacedLight;

/// The most point and spot lights a frame is shaded with (`MAX_LIGHTS` in
/// `shaders/lights.wgsl`); past it, the nearest win.
pub const MAX_LIGHTS: usize = 256;
/// Screen tiles across and down, and depth slices (as in `shaders/lights.wgsl`).
const TILES_X: u32 = 16;
const TILES_Y: u32 = 9;
const SLICES: u32 = 24;
const CLUSTERS: usize = (TILES_X * TILES_Y * SLICES) as usize;
/// Texels per row of the cluster texture (`CLUSTER_TEXTURE_WIDTH` in `shaders/lights.wgsl`):
/// the 2048 every WebGL2 device has.
const TEXTURE_WIDTH: u32 = 2048;
/// View depths, metres, where the first slice ends and the last begins: slices grow
/// exponentially in between.
const SLICE_NEAR: f32 = 2.0;
const SLICE_FAR: f32 = 1000.0;
/// The irradiance under which a light without a range is taken to light nothing: its range
/// is where its inverse-square falloff reaches this.
const IRRADIANCE_CUTOFF: f32 = 0.004;
/// The farthest any light reaches, metres.
const MAX_REACH: f32 = 5000.0;
/// The light distance when no more lights than [`MAX_LIGHTS`] are in view, metres: lights fade
/// out before it, so scenes need not list lights past it.
const ALL_LIGHTS_DISTANCE: f32 = props_frame::LIGHT_DISTANCE;
/// Fraction of the light distance over which lights fade out.
const FADE_BAND: f32 = 0.25;
/// How far the light distance moves towards its new value in a frame, as a factor: quickly in
/// (a crowd of lights came into view: the nearest are shaded meanwhile), slowly out, so a
/// light's fade changes by at most about an eighth a frame.
const EASE_IN: f32 = 0.85;
const EASE_OUT: f32 = 1.03;
/// Bits of a cluster header for its list's length (the rest hold where it starts).
const COUNT_BITS: u32 = 12;

/// A light as `shaders/lights.wgsl` reads it: 48 bytes.
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
#[repr(C)]
struct GpuLight {
    /// Position, and the range where its window ends.
    position_range: [f32; 4],
    /// Colour times intensity times its fade, and a spot's angular scale (0 for a point).
    color_scale: [f32; 4],
    /// Where a spot points, and its angular offset (1 for a point).
    direction_offset: [f32; 4],
}

/// The clusters a light touches: inclusive tile and slice ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    x: (u32, u32),
    y: (u32, u32),
    z: (u32, u32),
}

/// A light in view: its distance from the eye, its index in the frame, its reach.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    distance: f32,
    light: usize,
    reach: f32,
}

/// What the per-frame light data says to the shader and costs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LightFrame {
    /// Lights shaded (0: the shader skips them).
    pub count: u32,
    /// Bytes written to the GPU.
    pub bytes: u64,
    /// The cluster grid (target size, slice scale, first slice's end) for the globals.
    pub grid: [f32; 4],
}

/// The lights' GPU data and the CPU buffers it is built in, reused frame after frame.
pub(crate) struct LightClusters {
    lights: wgpu::Buffer,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    generation: u64,
    picker: LightPicker,
}

/// The CPU half: picks a frame's lights and lists them per cluster.
#[derive(Debug, Default)]
struct LightPicker {
    /// The light distance (see the module documentation); `None` while no frame had more
    /// lights in view than the limit.
    distance: Option<f32>,
    candidates: Vec<Candidate>,
    /// The clusters of each picked candidate.
    spans: Vec<Span>,
    gpu: Vec<GpuLight>,
    cursor: Vec<u32>,
    /// Cluster headers, then lists, a whole number of texture rows.
    texels: Vec<u32>,
}

/// A cluster texture `rows` rows high.
fn cluster_texture(device: &wgpu::Device, rows: u32) -> (wgpu::Texture, wgpu::TextureView) {
    crate::texture::data_texture(device, "light clusters", wgpu::TextureFormat::R32Uint, (TEXTURE_WIDTH, rows))
}

impl LightClusters {
    /// Room for [`MAX_LIGHTS`] lights and a first cluster texture.
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let lights = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("lights"),
            size: (MAX_LIGHTS * size_of::<GpuLight>()) as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let (texture, view) = cluster_texture(device, 2);
        Self { lights, texture, view, generation: 0, picker: LightPicker::default() }
    }

    /// The lights' uniform buffer.
    pub(crate) fn lights(&self) -> &wgpu::Buffer {
        &self.lights
    }

    /// The cluster texture's view.
    pub(crate) fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Bumped whenever the cluster texture is replaced (bind groups holding it are stale).
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// Picks, clusters and uploads `lights` as seen through `view_projection` from `eye`
    /// into a target of `size`.
    pub(crate) fn prepare(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        lights: &[PlacedLight],
        (view_projection, eye): (Mat4, Vec3),
        size: (u32, u32),
    ) -> LightFrame {
        let grid = [size.0.max(1) as f32, size.1.max(1) as f32, slice_scale(), SLICE_NEAR];
        let count = self.picker.pick(lights, view_projection, eye);
        if count == 0 {
            return LightFrame { count: 0, bytes: 0, grid };
        }
        let texels = &self.picker.texels;
        let rows = texels.len() as u32 / TEXTURE_WIDTH;
        if rows > self.texture.height() {
            (self.texture, self.view) = cluster_texture(device, rows.next_power_of_two());
            self.generation += 1;
        }
        queue.write_buffer(&self.lights, 0, bytemuck::cast_slice(&self.picker.gpu));
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            bytemuck::cast_slice(texels),
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(TEXTURE_WIDTH * 4), rows_per_image: None },
            wgpu::Extent3d { width: TEXTURE_WIDTH, height: rows, depth_or_array_layers: 1 },
        );
        let bytes = size_of_val(self.picker.gpu.as_slice()) as u64 + size_of_val(texels.as_slice()) as u64;
        LightFrame { count, bytes, grid }
    }
}

/// Depth slices per unit of the logarithm of view depth.
fn slice_scale() -> f32 {
    SLICES as f32 / (SLICE_FAR / SLICE_NEAR).ln()
}

impl LightPicker {
    /// Picks the lights of `lights` to shade, seen through `view_projection` from `eye`, into
    /// `gpu`, with their cluster lists in `texels`; returns how many.
    fn pick(&mut self, lights: &[PlacedLight], view_projection: Mat4, eye: Vec3) -> u32 {
        self.candidates.clear();
        let planes = frustum_planes(view_projection);
        for (index, light) in lights.iter().enumerate() {
            let brightest = light.color.max_element();
            // A light of no, or of no finite, brightness or place lights nothing.
            if !(brightest > 0.0 && light.color.is_finite() && light.position.is_finite()) {
                continue;
            }
            let fading = (brightest / IRRADIANCE_CUTOFF).sqrt().min(MAX_REACH);
            let reach = light.range.map_or(fading, |r| r.min(fading));
            if reach.is_nan() || reach <= 0.0 {
                continue;
            }
            let (center, radius) = bounds(light, reach);
            if planes.iter().all(|plane| plane.dot(center.extend(1.0)) >= -radius) {
                let distance = (light.position - eye).length();
                self.candidates.push(Candidate { distance, light: index, reach });
            }
        }
        // The light distance: where the nearest light past the limit stands, eased.
        let by_distance = |a: &Candidate, b: &Candidate| a.distance.total_cmp(&b.distance);
        let target = if self.candidates.len() > MAX_LIGHTS {
            self.candidates.select_nth_unstable_by(MAX_LIGHTS, by_distance).1.distance
        } else {
            ALL_LIGHTS_DISTANCE
        };
        let distance = match self.distance {
            Some(d) => target.clamp(d * EASE_IN, d * EASE_OUT),
            None => target,
        };
        self.distance = (distance < ALL_LIGHTS_DISTANCE).then_some(distance);
        self.candidates.retain(|c| c.distance < distance);
        if self.candidates.len() > MAX_LIGHTS {
            self.candidates.select_nth_unstable_by(MAX_LIGHTS, by_distance);
            self.candidates.truncate(MAX_LIGHTS);
        }
        // The finer test of the box's corners, for the few picked.
        self.spans.clear();
        let mut kept = 0;
        for i in 0..self.candidates.len() {
            let c = self.candidates[i];
            let (center, radius) = bounds(&lights[c.light], c.reach);
            if let Some(span) = span(view_projection, center, radius) {
                (self.candidates[kept], kept) = (c, kept + 1);
                self.spans.push(span);
            }
        }
        self.candidates.truncate(kept);
        self.gpu.clear();
        self.gpu.extend(self.candidates.iter().map(|c| {
            let fade = ((distance - c.distance) / (FADE_BAND * distance)).clamp(0.0, 1.0);
            gpu_light(&lights[c.light], c.reach, fade)
        }));
        if !self.gpu.is_empty() {
            self.cluster();
        }
        self.gpu.len() as u32
    }

    /// Writes the cluster texels of the candidates: per cluster its header (where its list
    /// starts, how long it is), then the lists, four indices a texel.
    fn cluster(&mut self) {
        let clusters = |span: Span| {
            (span.z.0..=span.z.1).flat_map(move |z| {
                (span.y.0..=span.y.1)
                    .flat_map(move |y| (span.x.0..=span.x.1).map(move |x| ((z * TILES_Y + y) * TILES_X + x) as usize))
            })
        };
        self.cursor.clear();
        self.cursor.resize(CLUSTERS, 0);
        for &span in &self.spans {
            for cluster in clusters(span) {
                self.cursor[cluster] += 1;
            }
        }
        let mut total = 0u32;
        self.texels.clear();
        for count in &mut self.cursor {
            self.texels.push(total << COUNT_BITS | *count);
            (total, *count) = (total + *count, total);
        }
        let rows = (CLUSTERS as u32 + total.div_ceil(4)).div_ceil(TEXTURE_WIDTH);
        self.texels.resize((rows * TEXTURE_WIDTH) as usize, 0);
        for (index, &span) in self.spans.iter().enumerate() {
            for cluster in clusters(span) {
                let slot = self.cursor[cluster];
                self.cursor[cluster] += 1;
                self.texels[CLUSTERS + slot as usize / 4] |= (index as u32) << (8 * (slot % 4));
            }
        }
    }
}

/// The view's six clip planes (x >= -w, x <= w, y >= -w, y <= w, z >= 0, z <= w) as world-space
/// planes `n.p + d`, each `n` of unit length: a sphere of radius `r` whose centre `p` has
/// `plane.p < -r` for some plane is out of view.
fn frustum_planes(view_projection: Mat4) -> [Vec4; 6] {
    let [r0, r1, r2, r3] = [0, 1, 2, 3].map(|i| view_projection.row(i));
    [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2].map(|plane| {
        let length = plane.truncate().length();
        if length > 0.0 { plane / length } else { plane }
    })
}

/// The smallest sphere around what `light` lights, reaching `reach` metres: a point light's
/// reach around it; a spot's cone of that length, capped (the sphere through its apex and
/// rim up to 45 degrees from its axis, the rim's beyond): a car's headlight 40 m long, 26
/// degrees wide, lies in one of 22 m, a fifth of the volume, and so in fewer clusters.
fn bounds(light: &PlacedLight, reach: f32) -> (Vec3, f32) {
    match light.cone {
        Some([_, outer]) if outer < std::f32::consts::FRAC_PI_2 && light.direction.is_normalized() => {
            let (sin, cos) = outer.max(0.0).sin_cos();
            let (along, radius) =
                if cos >= sin { (reach / (2.0 * cos), reach / (2.0 * cos)) } else { (reach * cos, reach * sin) };
            (light.position + light.direction * along, radius)
        }
        _ => (light.position, reach),
    }
}

/// `light` for the shader, reaching `reach` metres, at `fade` of its brightness.
fn gpu_light(light: &PlacedLight, reach: f32, fade: f32) -> GpuLight {
    let (scale, offset) = match light.cone {
        Some([inner, outer]) => {
            let scale = 1.0 / (inner.cos() - outer.cos()).max(1e-3);
            (scale, -outer.cos() * scale)
        }
        None => (0.0, 1.0),
    };
    let color = light.color * fade;
    GpuLight {
        position_range: light.position.extend(reach).to_array(),
        color_scale: color.extend(scale).to_array(),
        direction_offset: light.direction.extend(offset).to_array(),
    }
}

/// The clusters a sphere at `center` of `radius` may touch, seen through `view_projection`
/// (wgpu's 0..1 depth); `None` when it is outside the view. Conservative: from the clip
/// coordinates of its bounding box's corners.
fn span(view_projection: Mat4, center: Vec3, radius: f32) -> Option<Span> {
    let corners = (0..8).map(|k| {
        let sign = |bit: u32| if k & bit == 0 { -1.0 } else { 1.0 };
        view_projection * (center + Vec3::new(sign(1), sign(2), sign(4)) * radius).extend(1.0)
    });
    let (mut low, mut high) = (Vec4::splat(f32::INFINITY), Vec4::splat(f32::NEG_INFINITY));
    // Per clip plane (x >= -w, x <= w, y >= -w, y <= w, z >= 0, z <= w), whether some corner is
    // inside it.
    let mut inside = [false; 6];
    let mut behind = false;
    let (mut w_low, mut w_high) = (f32::INFINITY, f32::NEG_INFINITY);
    for c in corners {
        let planes = [c.x >= -c.w, c.x <= c.w, c.y >= -c.w, c.y <= c.w, c.z >= 0.0, c.z <= c.w];
        for (seen, is) in inside.iter_mut().zip(planes) {
            *seen |= is;
        }
        (w_low, w_high) = (w_low.min(c.w), w_high.max(c.w));
        if c.w <= 1e-3 {
            behind = true;
        } else {
            let ndc = c / c.w;
            (low, high) = (low.min(ndc), high.max(ndc));
        }
    }
    if inside.contains(&false) {
        return None;
    }
    let tiles = |lo: f32, hi: f32, n: u32| {
        let at = |v: f32| ((v * 0.5 + 0.5) * n as f32).floor().clamp(0.0, (n - 1) as f32) as u32;
        (at(lo), at(hi))
    };
    let (x, y) = if behind {
        ((0, TILES_X - 1), (0, TILES_Y - 1))
    } else {
        // Tiles count down from the top; clip y points up.
        let (top, bottom) = tiles(-high.y, -low.y, TILES_Y);
        (tiles(low.x, high.x, TILES_X), (top, bottom))
    };
    let slice =
        |w: f32| ((w.max(1e-6) / SLICE_NEAR).ln() * slice_scale()).floor().clamp(0.0, (SLICES - 1) as f32) as u32;
    Some(Span { x, y, z: (slice(w_low), slice(w_high)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cluster of world point `p` as `shaders/lights.wgsl` finds it.
    fn shader_cluster(view_projection: Mat4, p: Vec3) -> Option<(u32, u32, u32)> {
        let c = view_projection * p.extend(1.0);
        if c.w <= 0.0 || c.x.abs() > c.w || c.y.abs() > c.w || c.z < 0.0 || c.z > c.w {
            return None;
        }
        let frag = Vec3::new((c.x / c.w * 0.5 + 0.5) * 1280.0, (0.5 - c.y / c.w * 0.5) * 720.0, 0.0);
        let tx = ((frag.x / 1280.0 * TILES_X as f32) as u32).min(TILES_X - 1);
        let ty = ((frag.y / 720.0 * TILES_Y as f32) as u32).min(TILES_Y - 1);
        let scale = SLICES as f32 / (SLICE_FAR / SLICE_NEAR).ln();
        let slice = ((c.w.max(1e-6) / SLICE_NEAR).ln() * scale).floor().clamp(0.0, (SLICES - 1) as f32) as u32;
        Some((tx, ty, slice))
    }

    /// Numbers in 0..=1 from a xorshift generator seeded with `seed`: the same every run.
    fn uniform(mut seed: u32) -> impl FnMut() -> f32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as f32 / u32::MAX as f32
        }
    }

    fn camera() -> Mat4 {
        props_frame::Camera::look_at(Vec3::new(0.0, 20.0, 60.0), Vec3::ZERO, 0.8, 1280.0 / 720.0, (0.5, 2000.0))
            .view_projection
    }

    /// Every point within a light's reach that the camera sees lies in a cluster the light
    /// is listed in: the frustum test and the spans are conservative, in view, beside and
    /// behind the eye.
    #[test]
    fn a_light_is_listed_in_every_cluster_its_reach_touches() {
        let vp = camera();
        let mut next = uniform(12345);
        let mut checked = 0;
        for _ in 0..300 {
            let center = Vec3::new(next() * 200.0 - 100.0, next() * 30.0, next() * 200.0 - 120.0);
            let radius = 1.0 + next() * 25.0;
            let span = span(vp, center, radius);
            let kept = frustum_planes(vp).iter().all(|plane| plane.dot(center.extend(1.0)) >= -radius);
            for _ in 0..200 {
                let dir = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize_or_zero();
                let p = center + dir * radius * next();
                if let Some((x, y, z)) = shader_cluster(vp, p) {
                    assert!(kept, "a light at {center} ({radius} m) seen at {p} was culled by the planes");
                    let s = span.unwrap_or_else(|| panic!("a light at {center} ({radius} m) seen at {p} was culled"));
                    assert!(
                        (s.x.0..=s.x.1).contains(&x) && (s.y.0..=s.y.1).contains(&y) && (s.z.0..=s.z.1).contains(&z),
                        "{p} in cluster {:?} outside {s:?}",
                        (x, y, z)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "only {checked} points in view");
        // Behind the eye and far to the side: culled.
        assert_eq!(span(vp, Vec3::new(0.0, 20.0, 100.0), 5.0), None);
        assert_eq!(span(vp, Vec3::new(500.0, 0.0, 0.0), 5.0), None);
    }

    #[test]
    fn a_spots_sphere_holds_its_cone_and_is_smaller_than_its_reach() {
        let mut next = uniform(0x2545_f491);
        for _ in 0..200 {
            let outer = 0.01 + next() * 1.55;
            let direction = Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
            let light = PlacedLight {
                position: Vec3::new(next(), next(), next()) * 50.0,
                direction,
                color: Vec3::ONE,
                range: Some(10.0),
                cone: Some([0.0, outer]),
            };
            let reach = 1.0 + next() * 40.0;
            let (center, radius) = bounds(&light, reach);
            assert!(radius < reach, "a cone of {outer} rad: {radius} m of {reach}");
            for _ in 0..200 {
                // A point of the lit cone: within `outer` of the axis, within reach.
                let side = direction.any_orthonormal_vector();
                let spin = glam::Quat::from_axis_angle(direction, next() * std::f32::consts::TAU);
                let tilt = glam::Quat::from_axis_angle(spin * side, next() * outer);
                let p = light.position + tilt * direction * reach * next().sqrt();
                assert!((p - center).length() <= radius * 1.0001 + 1e-4, "{p} outside {center}, {radius} m");
            }
        }
        let headlight = PlacedLight { cone: Some([0.2, 0.45]), ..lamp(0.0) };
        assert!((bounds(&headlight, 40.0).1 - 22.2).abs() < 0.1, "the car's headlight");
        assert_eq!(bounds(&lamp(0.0), 10.0), (lamp(0.0).position, 10.0), "a point light: its reach");
    }

    /// A lamp `x` metres along the view's focus line, from where it comes into view.
    fn lamp(x: f32) -> PlacedLight {
        PlacedLight {
            position: Vec3::new(0.0, 2.0, 35.0 - x),
            direction: Vec3::NEG_Y,
            color: Vec3::splat(20.0),
            range: Some(10.0),
            cone: None,
        }
    }

    /// The brightness each lamp is shaded with (0 when left out), by its place in `lamps`.
    fn shaded(picker: &LightPicker, lamps: &[PlacedLight]) -> Vec<f32> {
        let mut out = vec![0.0; lamps.len()];
        for (c, gpu) in picker.candidates.iter().zip(&picker.gpu) {
            out[c.light] = gpu.color_scale[0] / lamps[c.light].color.x;
        }
        out
    }

    /// Past the limit the nearest win; a light near the light distance is dimmed, and as the
    /// crowd leaves the lights left come up over frames, never by a jump.
    #[test]
    fn past_the_limit_the_nearest_win_and_lights_fade_rather_than_pop() {
        let vp = camera();
        let eye = Vec3::new(0.0, 20.0, 60.0);
        let crowd: Vec<PlacedLight> = (0..2 * MAX_LIGHTS).map(|k| lamp(5.0 + k as f32 * 0.5)).collect();
        let mut picker = LightPicker::default();
        assert_eq!(picker.pick(&crowd, vp, eye) as usize, MAX_LIGHTS);
        let first = shaded(&picker, &crowd);
        assert!(first[..MAX_LIGHTS / 2].iter().all(|&b| (b - 1.0).abs() < 1e-6), "the nearest shine in full");
        assert!(first[MAX_LIGHTS..].iter().all(|&b| b == 0.0), "the farthest are left out");
        assert!(first[MAX_LIGHTS - 1] < 0.1, "the last before the limit is nearly faded: {}", first[MAX_LIGHTS - 1]);

        // The crowd thins below the limit: the lamps near it come up over frames, a little each
        // frame.
        let few = &crowd[..MAX_LIGHTS - 6];
        let mut last = first[..few.len()].to_vec();
        let mut frames = 0;
        while last.iter().any(|&b| b < 1.0) {
            assert!(picker.pick(few, vp, eye) as usize <= MAX_LIGHTS);
            let now = shaded(&picker, few);
            for (k, (&a, &b)) in last.iter().zip(&now).enumerate() {
                assert!(b >= a - 1e-6 && b - a <= 0.15, "lamp {k} jumped from {a} to {b}");
            }
            last = now;
            frames += 1;
            assert!(frames < 500, "the lamps never came up");
        }
        assert!(frames > 3, "came up in {frames} frames");
    }

    /// Lights of no finite brightness, place or reach (a file's or a clip's bad values) light
    /// nothing, and a huge one is bounded.
    #[test]
    fn bad_lights_light_nothing() {
        let vp = camera();
        let bad = [
            PlacedLight { color: Vec3::NAN, ..lamp(10.0) },
            PlacedLight { color: Vec3::splat(f32::INFINITY), ..lamp(10.0) },
            PlacedLight { position: Vec3::new(f32::NAN, 0.0, 0.0), ..lamp(10.0) },
            PlacedLight { range: Some(-3.0), ..lamp(10.0) },
            PlacedLight { color: Vec3::ZERO, ..lamp(10.0) },
        ];
        let mut picker = LightPicker::default();
        assert_eq!(picker.pick(&bad, vp, Vec3::new(0.0, 20.0, 60.0)), 0);
        let huge = PlacedLight { color: Vec3::splat(1e30), range: None, ..lamp(10.0) };
        assert_eq!(picker.pick(&[huge], vp, Vec3::new(0.0, 20.0, 60.0)), 1);
        assert!(picker.gpu[0].position_range[3] <= MAX_REACH);
    }

    /// Headers and lists agree with the spans: every light is listed in exactly the clusters
    /// its span covers.
    #[test]
    fn cluster_lists_hold_each_light_in_its_span() {
        let vp = camera();
        let lamps: Vec<PlacedLight> = (0..40).map(|k| lamp(k as f32 * 3.0)).collect();
        let mut picker = LightPicker::default();
        let count = picker.pick(&lamps, vp, Vec3::new(0.0, 20.0, 60.0));
        assert_eq!(count, 40);
        for cluster in 0..CLUSTERS {
            let header = picker.texels[cluster];
            let (first, len) = (header >> COUNT_BITS, header & ((1 << COUNT_BITS) - 1));
            let listed: Vec<u32> = (first..first + len)
                .map(|slot| (picker.texels[CLUSTERS + slot as usize / 4] >> (8 * (slot % 4))) & 0xff)
                .collect();
            let (x, y, z) =
                (cluster as u32 % TILES_X, cluster as u32 / TILES_X % TILES_Y, cluster as u32 / (TILES_X * TILES_Y));
            let expected: Vec<u32> = (0u32..)
                .zip(&picker.spans)
                .filter(|&(_, &s)| {
                    (s.x.0..=s.x.1).contains(&x) && (s.y.0..=s.y.1).contains(&y) && (s.z.0..=s.z.1).contains(&z)
                })
                .map(|(i, _)| i)
                .collect();
            assert_eq!(listed, expected, "cluster {cluster}");
        }
    }
}
