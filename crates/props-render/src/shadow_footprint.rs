//! Which props can shadow a cascade's slice. A cascade's map is read only by the points of
//! its slice of the view (the shader picks the map by view depth), and a prop darkens a point
//! only along the sun's rays, each of which is one point of the map. So a prop can shadow the
//! slice only where it covers the slice's outline on the map (the convex hull of the slice's
//! corners seen from the sun), and only if some point of the slice lies beyond it from the
//! sun. The map's square, fitted to a sphere around the slice, holds far more: the nearer
//! slices' props, and, under a high camera, the whole town below a slice of air.

use glam::{Mat4, Vec2, Vec3, Vec3Swizzles, Vec4Swizzles};

use crate::shadows::Cascade;

/// Texels around a slice's outline whose casters are kept: a fragment reads its map a normal
/// offset (0.6 texel) off its surface, through a 2x2 filter, and float rounding moves it a
/// little more.
const SAMPLE_MARGIN_TEXELS: f32 = 3.0;

/// The most corners a hull of a slice's eight has.
const MAX_EDGES: usize = 8;

/// A cascade's slice as its map sees it, and the test of a caster against it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Footprint {
    view_proj: Mat4,
    /// The outline's edges, counter-clockwise: each an outward unit normal `n` and offset
    /// `d` (clip units), a point `p` lying inside when `n · p <= d` for every edge.
    edges: [(Vec2, f32); MAX_EDGES],
    count: usize,
    /// The clip depth of the slice's point farthest from the sun, with the sampling margin.
    deepest: f32,
    /// Clip units per metre across the map and along its depth.
    per_metre: Vec2,
    /// The sampling margin across the map, clip units.
    margin: f32,
}

impl Footprint {
    /// The footprint of `cascade`'s slice on its map.
    pub(crate) fn new(cascade: &Cascade) -> Self {
        let clip = cascade.slice.map(|p| cascade.view_proj.project_point3(p));
        let per_metre = Vec2::new(1.0 / cascade.radius, 1.0 / cascade.depth);
        let margin = SAMPLE_MARGIN_TEXELS * cascade.texel * per_metre;
        let (corners, n) = convex_hull(clip.map(|c| c.xy()));
        let mut edges = [(Vec2::ZERO, 0.0); MAX_EDGES];
        let mut count = 0;
        for i in 0..n {
            let (a, b) = (corners[i], corners[(i + 1) % n]);
            if let Some(normal) = Vec2::new(b.y - a.y, a.x - b.x).try_normalize() {
                edges[count] = (normal, normal.dot(a));
                count += 1;
            }
        }
        if count < 3 {
            // A slice seen edge-on from the sun (or of no extent): its map's whole square.
            let square = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y];
            count = square.len();
            for (edge, normal) in edges.iter_mut().zip(square) {
                *edge = (normal, 1.0);
            }
        }
        let deepest = clip.iter().map(|c| c.z).fold(f32::NEG_INFINITY, f32::max) + margin.y;
        Self { view_proj: cascade.view_proj, edges, count, deepest, per_metre, margin: margin.x }
    }

    /// Whether an instance placed by `transform` and reaching `reach` metres from its origin
    /// can shadow a point of the slice.
    pub(crate) fn reached_by(&self, transform: &props_anim::JointMatrix, reach: f32) -> bool {
        let [r0, r1, r2] = transform.rows.map(glam::Vec4::from_array);
        // The matrix's Frobenius norm: at least its largest scale.
        let scale = (r0.xyz().length_squared() + r1.xyz().length_squared() + r2.xyz().length_squared()).sqrt();
        let clip = self.view_proj.project_point3(transform.transform_point(Vec3::ZERO));
        let reach = reach * scale * self.per_metre;
        let across = reach.x + self.margin;
        // Not wholly before the map's near plane (clipped there), nor past the slice.
        clip.z + reach.y >= 0.0
            && clip.z - reach.y <= self.deepest
            && self.edges[..self.count].iter().all(|&(normal, offset)| normal.dot(clip.xy()) <= offset + across)
    }
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain), and how many
/// corners it has.
fn convex_hull(mut points: [Vec2; MAX_EDGES]) -> ([Vec2; MAX_EDGES], usize) {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let turn = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    // The lower chain left to right, then the upper one right to left, in one stack.
    let mut chain = [Vec2::ZERO; 2 * MAX_EDGES];
    let (mut len, mut floor) = (0, 0);
    for (i, &p) in points.iter().chain(points.iter().rev()).enumerate() {
        if i == MAX_EDGES {
            // The lower chain's last point (the rightmost) is the upper one's first.
            len -= 1;
            floor = len;
        }
        while len >= floor + 2 && turn(chain[len - 2], chain[len - 1], p) <= 0.0 {
            len -= 1;
        }
        chain[len] = p;
        len += 1;
    }
    // The upper chain's last point is the lower one's first.
    len -= 1;
    let mut hull = [Vec2::ZERO; MAX_EDGES];
    let n = len.min(MAX_EDGES);
    hull[..n].copy_from_slice(&chain[..n]);
    (hull, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shadows::{CASCADES, fit};
    use glam::{Affine3A, Quat};
    use props_frame::{Camera, InstanceData};

    fn at(p: Vec3, scale: f32) -> props_anim::JointMatrix {
        InstanceData::new(&Affine3A::from_scale_rotation_translation(Vec3::splat(scale), Quat::IDENTITY, p), 0)
            .transform
    }

    /// The points `camera` sees in each cascade's slice, as the shader picks the cascade.
    fn seen(camera: &Camera, cascades: &[Cascade; CASCADES]) -> Vec<(usize, Vec3)> {
        let inverse = camera.view_projection.inverse();
        let row = camera.view_projection.row(3);
        let mut points = Vec::new();
        for i in 0..=20 {
            for j in 0..=20 {
                for depth in [0.0, 0.5, 0.9, 0.99, 0.995, 0.999, 0.9995, 0.9999, 1.0] {
                    let ndc = Vec3::new(i as f32 / 10.0 - 1.0, j as f32 / 10.0 - 1.0, depth);
                    let p = inverse.project_point3(ndc);
                    if let Some(k) = cascades.iter().position(|c| row.dot(p.extend(1.0)) <= c.end) {
                        points.push((k, p));
                    }
                }
            }
        }
        points
    }

    #[test]
    fn the_hull_of_a_square_and_its_centre_is_the_square() {
        let square = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(x, y)| Vec2::new(x, y));
        let points = [square[2], Vec2::ZERO, square[0], square[3], square[1], Vec2::ZERO, square[0], square[2]];
        let (hull, n) = convex_hull(points);
        assert_eq!(&hull[..n], &[square[0], square[1], square[2], square[3]], "counter-clockwise from the lowest");
        let (_, n) = convex_hull([Vec2::ONE; MAX_EDGES]);
        assert!(n < 3, "one point has no area");
    }

    /// A prop anywhere between a seen point and the sun can shadow it: it is a caster of the
    /// cascade the point is shaded by, however little it reaches; and so is one over the
    /// texels the point's lookup reads around it (a texel and a half aside, or one deeper).
    #[test]
    fn every_prop_over_a_seen_point_casts_into_its_cascade() {
        let sun = Vec3::new(0.4, 0.8, 0.45).normalize();
        let aside = sun.any_orthonormal_vector();
        let steps = [Vec3::ZERO, aside, -aside, sun.cross(aside), -sun.cross(aside)];
        for eye in [Vec3::new(10.0, 40.0, 90.0), Vec3::new(0.0, 1.7, 30.0), Vec3::new(-300.0, 600.0, 900.0)] {
            let camera = Camera::look_at(eye, Vec3::ZERO, 0.9, 16.0 / 9.0, (0.5, 4000.0));
            let cascades = fit(camera.view_projection, sun).expect("the sun is up");
            let footprints = cascades.map(|c| Footprint::new(&c));
            let mut points = seen(&camera, &cascades);
            assert!(points.len() > 200, "{} points seen from {eye}", points.len());
            // The slices' own corners: the farthest points of each.
            points.extend(cascades.iter().enumerate().flat_map(|(k, c)| c.slice.map(|p| (k, p))));
            for (k, p) in points {
                let texel = cascades[k].texel;
                for step in steps {
                    for up in [0.0, 2.0, 30.0, 110.0] {
                        let caster = at(p + step * 1.5 * texel + sun * up, 1.0);
                        assert!(
                            footprints[k].reached_by(&caster, 0.01),
                            "a caster {up} m over {p} left out of map {k}"
                        );
                    }
                }
                assert!(footprints[k].reached_by(&at(p - sun * texel, 1.0), 0.01), "one under {p}, map {k}");
            }
        }
    }

    /// A prop whose shadow falls wholly outside a slice, or which lies beyond all of it from
    /// the sun, is no caster of its cascade; one that reaches into it by its size is.
    #[test]
    fn a_prop_whose_shadow_misses_the_slice_does_not_cast() {
        let sun = Vec3::new(0.4, 0.8, 0.45).normalize();
        let camera = Camera::look_at(Vec3::new(10.0, 40.0, 90.0), Vec3::ZERO, 0.9, 16.0 / 9.0, (0.5, 4000.0));
        let cascades = fit(camera.view_projection, sun).expect("the sun is up");
        let footprint = Footprint::new(&cascades[0]);
        // Beneath the nearest slice, which the eye 40 m up sees as air: nothing there is
        // between it and the sun.
        let below = at(Vec3::new(10.0, -60.0, 80.0), 1.0);
        assert!(!footprint.reached_by(&below, 1.0), "a prop under the slice");
        // Beside it: a prop whose shadow falls 30 m to the side of what the eye sees.
        let inverse = camera.view_projection.inverse();
        let edge = inverse.project_point3(Vec3::new(1.0, 0.0, 0.9));
        let side = (inverse.project_point3(Vec3::new(1.0, 0.0, 0.9))
            - inverse.project_point3(Vec3::new(-1.0, 0.0, 0.9)))
        .reject_from(sun)
        .normalize();
        assert!(!footprint.reached_by(&at(edge + side * 30.0, 1.0), 1.0), "a prop 30 m aside");
        assert!(footprint.reached_by(&at(edge + side * 30.0, 2.0), 10.0), "one reaching 34 m");
    }

    /// Seen from the city's overview (the eye hundreds of metres up), the nearer slices are air:
    /// no prop on the ground casts into them, where each map's square held hundreds.
    #[test]
    fn slices_of_air_have_no_casters() {
        let camera = props_frame::OrbitCamera::overview(1200.0).to_camera(16.0 / 9.0);
        let sun = Vec3::new(0.4, 0.8, 0.45).normalize();
        let cascades = fit(camera.view_projection, sun).expect("the sun is up");
        let footprints = cascades.map(|c| Footprint::new(&c));
        let ground: Vec<_> = (-80..80)
            .flat_map(|i| (-80..80).map(move |j| at(Vec3::new(i as f32 * 10.0, 0.0, j as f32 * 10.0), 1.0)))
            .collect();
        let square = |c: &Cascade, t: &props_anim::JointMatrix| {
            let clip = c.view_proj.project_point3(t.transform_point(Vec3::ZERO));
            clip.x.abs() <= 1.0 && clip.y.abs() <= 1.0
        };
        for k in 0..2 {
            let in_square = ground.iter().filter(|t| square(&cascades[k], t)).count();
            let casting = ground.iter().filter(|t| footprints[k].reached_by(t, 5.0)).count();
            assert!(in_square > 30, "map {k}'s square holds {in_square} props");
            assert_eq!(casting, 0, "map {k}");
        }
    }
}
