//! The ground the town stands on, as two static models the renderer draws like any other
//! ([`GroundModels`]): the land (the scene's height field meshed as a grass-coloured grid with
//! a skirt to the horizon, where it rises above its lowest) and the flat ground (the grass at
//! the lowest, and the paving on it: asphalt strips along every road lane and over the
//! intersections, centre lines, sidewalks, and the bus stops' yellow markings); and the land's
//! heights, which shadow the town ([`height_field`]). Data only: the game uploads it, and
//! builds it again when the windmills spread beyond it ([`radius_needed`]).

use glam::{Vec2, Vec3};
use props_anim::{
    Mesh, MeshInstance, Model, ModelParts, NodeId, Primitive, RestTransform, Rig, SourceNode, Transform,
    material::Material,
};
use props_frame::HeightField;

use crate::error::SceneError;
use crate::kinds::windmills::Windmills;
use crate::scene::Scene;
use crate::town::bus_stops::STOP_LENGTH;
use crate::town::crossings::{CORNER_PAVED_FROM, KERB, ROAD_LIFT, SIDEWALK_WIDTH};
use crate::town::roads::{BOX_HALF, LANE_WIDTH, LaneKind};

/// Grid cells per side of the terrain mesh.
const CELLS: u32 = 160;
/// Grass, linear RGBA.
const GRASS: [f32; 4] = [0.18, 0.36, 0.12, 1.0];
/// Asphalt, linear RGBA.
const ASPHALT: [f32; 4] = [0.06, 0.06, 0.07, 1.0];
/// Road paint, linear RGBA.
const PAINT: [f32; 4] = [0.75, 0.75, 0.72, 1.0];
/// Bus-stop yellow, linear RGBA.
const BUS_STOP: [f32; 4] = [0.85, 0.62, 0.02, 1.0];
/// A bus stop's kerbside line: width, and how far it reaches beyond a stopped bus at each end,
/// metres.
const STOP_LINE: (f32, f32) = (0.3, 1.0);
/// A bus stop's waiting pad on the sidewalk, at the bus's front door: length along the kerb,
/// metres (as wide as the sidewalk).
const STOP_PAD: f32 = 4.0;
/// Pavement, linear RGBA.
const PAVEMENT: [f32; 4] = [0.42, 0.41, 0.39, 1.0];

/// Centre-line dashes: length, gap and width, metres.
const DASH: (f32, f32, f32) = (3.0, 6.0, 0.15);
/// Metres of ground beyond the farthest windmill or hill.
const MARGIN: f32 = 60.0;
/// How far the grass skirt around the terrain reaches, metres: past the camera's far plane at
/// its farthest, so the ground meets the sky at the horizon.
const SKIRT: f32 = 30_000.0;

/// Half-side of the square of ground `scene` needs, metres: past its farthest windmill or
/// hill by a margin.
#[must_use]
pub fn radius_needed(scene: &Scene) -> f32 {
    let windmills = scene.kind::<Windmills>().map_or(0.0, |mills| mills.extent(scene.world()));
    windmills.max(scene.terrain().hills_radius()) + MARGIN
}

/// The ground as two static models: the land, whose hills shadow the town (the game does it
/// through their heights, [`height_field`], rather than drawing them into the shadow maps),
/// and the flat ground, which can shadow nothing worth drawing: its grass lies at the land's
/// lowest, so nothing lies below it, and its paving a few centimetres above that.
#[derive(Clone, Debug)]
pub struct GroundModels {
    /// The height field where it rises above its lowest (the hills), and the grass skirt to
    /// the horizon.
    pub land: Model,
    /// Roads, centre lines, sidewalks and bus stops, then the grass at the land's lowest.
    pub flat: Model,
}

/// The ground of `scene`, covering a square of half-side `radius` metres (at least
/// [`radius_needed`]): each model one mesh of one primitive per material.
///
/// # Errors
/// Never for a scene built by [`Scene::new`]; [`SceneError::Ground`] names what could not be
/// built otherwise.
pub fn models(scene: &Scene, radius: f32) -> Result<GroundModels, SceneError> {
    let material = Material::matte;
    let [hills, lowest] = terrain(scene, radius);
    // A ground within the flat town has no hills (and one all hills, no flat grass).
    let land = vec![hills, skirt(scene, radius)].into_iter().filter(|p| !p.indices.is_empty()).collect();
    let land = one_mesh("land", land, vec![material("grass", GRASS)])?;
    let flat = one_mesh(
        "flat ground",
        [roads(scene), markings(scene), sidewalks(scene), bus_stops(scene), lowest]
            .into_iter()
            .filter(|p| !p.indices.is_empty())
            .collect(),
        vec![
            material("asphalt", ASPHALT),
            material("marking", PAINT),
            material("pavement", PAVEMENT),
            material("bus stop", BUS_STOP),
            material("grass", GRASS),
        ],
    )?;
    Ok(GroundModels { land, flat })
}

/// The land's heights on the grid its mesh is made of ([`models`]' land, half-side `radius`
/// metres): what shadows the town from the hills (`props_render::Renderer::set_ground_shadow`),
/// so the land need not be drawn into the shadow maps.
///
/// # Errors
/// [`SceneError::Ground`] for a radius that is not a positive finite number.
pub fn height_field(scene: &Scene, radius: f32) -> Result<HeightField, SceneError> {
    let terrain = scene.terrain();
    let step = 2.0 * radius / CELLS as f32;
    let heights = (0..=CELLS)
        .flat_map(|j| (0..=CELLS).map(move |i| Vec2::new(-radius + i as f32 * step, -radius + j as f32 * step)))
        .map(|p| terrain.height(p))
        .collect();
    HeightField::new(Vec2::splat(-radius), step, CELLS + 1, heights).map_err(|e| SceneError::Ground(e.to_string()))
}

/// A model of one node carrying one mesh of `primitives`, named `name`.
fn one_mesh(name: &str, primitives: Vec<Primitive>, materials: Vec<Material>) -> Result<Model, SceneError> {
    let rig = Rig::from_source_nodes(&[SourceNode {
        name: Some(name.to_owned()),
        children: Vec::new(),
        rest: RestTransform::Trs(Transform::IDENTITY),
        morph_weights: Vec::new(),
    }])
    .map_err(|e| SceneError::Ground(e.to_string()))?;
    Model::new(ModelParts {
        rig: Some(rig),
        meshes: vec![Mesh { name: Some(name.to_owned()), primitives }],
        materials,
        instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
        ..ModelParts::default()
    })
    .map_err(|e| SceneError::Ground(e.to_string()))
}

/// The height field as a `CELLS` x `CELLS` grid with normals from central differences, in two
/// parts: the triangles with a corner above the field's lowest (material 0), and those lying
/// at it (material 4, the flat ground's grass).
fn terrain(scene: &Scene, radius: f32) -> [Primitive; 2] {
    let terrain = scene.terrain();
    let step = 2.0 * radius / CELLS as f32;
    let at = |i: u32, j: u32| Vec2::new(-radius + i as f32 * step, -radius + j as f32 * step);
    let mut positions = Vec::with_capacity(((CELLS + 1) * (CELLS + 1)) as usize);
    let mut normals = Vec::with_capacity(positions.capacity());
    for j in 0..=CELLS {
        for i in 0..=CELLS {
            let p = at(i, j);
            positions.push(Vec3::new(p.x, terrain.height(p), p.y));
            let dx = terrain.height(p + Vec2::X * step) - terrain.height(p - Vec2::X * step);
            let dz = terrain.height(p + Vec2::Y * step) - terrain.height(p - Vec2::Y * step);
            normals.push(Vec3::new(-dx, 2.0 * step, -dz).normalize());
        }
    }
    let row = CELLS + 1;
    let lowest = positions.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    let (mut above, mut at_lowest) = (Vec::new(), Vec::new());
    for j in 0..CELLS {
        for i in 0..CELLS {
            let a = j * row + i;
            // Counter-clockwise seen from above (+Y).
            for triangle in [[a, a + row, a + 1], [a + 1, a + row, a + row + 1]] {
                let flat = triangle.iter().all(|&v| positions[v as usize].y <= lowest);
                let part = if flat { &mut at_lowest } else { &mut above };
                part.extend_from_slice(&triangle);
            }
        }
    }
    [(above, 0), (at_lowest, 4)].map(|(indices, material)| {
        // Each part keeps only the vertices its triangles use.
        let mut index_of = vec![u32::MAX; positions.len()];
        let (mut part_positions, mut part_normals) = (Vec::new(), Vec::new());
        let indices = indices
            .iter()
            .map(|&v| {
                if index_of[v as usize] == u32::MAX {
                    index_of[v as usize] = part_positions.len() as u32;
                    part_positions.push(positions[v as usize]);
                    part_normals.push(normals[v as usize]);
                }
                index_of[v as usize]
            })
            .collect();
        primitive(part_positions, part_normals, indices, material)
    })
}

/// Grass from the terrain's edge out to [`SKIRT`]: each edge vertex carried outwards along
/// its direction from the centre at its height, so the ring joins the terrain without a gap.
fn skirt(scene: &Scene, radius: f32) -> Primitive {
    let terrain = scene.terrain();
    let step = 2.0 * radius / CELLS as f32;
    // The terrain's edge, counter-clockwise seen from above: bottom, right, top, left sides.
    let edge: Vec<Vec2> = (0..4 * CELLS)
        .map(|k| {
            let (side, i) = (k / CELLS, (k % CELLS) as f32 * step);
            match side {
                0 => Vec2::new(-radius + i, -radius),
                1 => Vec2::new(radius, -radius + i),
                2 => Vec2::new(radius - i, radius),
                _ => Vec2::new(-radius, radius - i),
            }
        })
        .collect();
    let (mut positions, mut indices) = (Vec::with_capacity(edge.len() * 2), Vec::with_capacity(edge.len() * 6));
    for p in &edge {
        let height = terrain.height(*p);
        positions.push(Vec3::new(p.x, height, p.y));
        let far = *p * (SKIRT / p.length().max(1.0));
        positions.push(Vec3::new(far.x, height, far.y));
    }
    let count = edge.len() as u32;
    for k in 0..count {
        let (a, b) = (2 * k, 2 * ((k + 1) % count));
        // Inner a, b; outer a + 1, b + 1; counter-clockwise seen from above.
        indices.extend_from_slice(&[a, b, a + 1, a + 1, b, b + 1]);
    }
    let normals = vec![Vec3::Y; positions.len()];
    primitive(positions, normals, indices, 0)
}

/// Sidewalks along the outer edge of every road lane: a raised strip with its kerb face towards
/// the road, reaching on into the box at each end (where the lanes end) to pave the block's
/// corner where people turn it ([`crate::town::crossings`]).
fn sidewalks(scene: &Scene) -> Primitive {
    let (mut positions, mut normals, mut indices) = (Vec::new(), Vec::new(), Vec::new());
    let at = |p: Vec2, y: f32| Vec3::new(p.x, y, p.y);
    let into_box = BOX_HALF - CORNER_PAVED_FROM;
    for lane in scene.roads().lanes().iter().filter(|l| matches!(l.kind(), LaneKind::Road { .. })) {
        let points = lane.points();
        let last = points.len().saturating_sub(2);
        for (k, pair) in points.windows(2).enumerate() {
            let (mut a, mut b) = (pair[0], pair[1]);
            let Some(direction) = (b - a).try_normalize() else { continue };
            a -= direction * if k == 0 { into_box } else { 0.0 };
            b += direction * if k == last { into_box } else { 0.0 };
            // The lane's outer side (away from the lane the other way).
            let out = direction.perp();
            let (inner, outer) = (out * (LANE_WIDTH * 0.5), out * (LANE_WIDTH * 0.5 + SIDEWALK_WIDTH));
            let base = positions.len() as u32;
            positions.extend([at(a + inner, KERB), at(a + outer, KERB), at(b + inner, KERB), at(b + outer, KERB)]);
            normals.extend([Vec3::Y; 4]);
            positions.extend([
                at(a + inner, ROAD_LIFT),
                at(a + inner, KERB),
                at(b + inner, ROAD_LIFT),
                at(b + inner, KERB),
            ]);
            let face = -Vec3::new(out.x, 0.0, out.y);
            normals.extend([face; 4]);
            quad_facing(&positions, base, Vec3::Y, &mut indices);
            quad_facing(&positions, base + 4, face, &mut indices);
        }
    }
    primitive(positions, normals, indices, 2)
}

/// Every bus stop ([`crate::town::bus_stops`]): a yellow line along the kerb where a stopped bus stands,
/// a little above the asphalt, and a yellow waiting pad on the sidewalk at its front door.
fn bus_stops(scene: &Scene) -> Primitive {
    let (mut positions, mut indices) = (Vec::new(), Vec::new());
    let (width, beyond) = STOP_LINE;
    let kerb = KERB + ROAD_LIFT;
    let mut quad = |corners: [Vec3; 4]| {
        let base = positions.len() as u32;
        positions.extend(corners);
        quad_facing(&positions, base, Vec3::Y, &mut indices);
    };
    for (lane, front) in scene.bus_stops().iter() {
        let lane = scene.roads().lane(lane);
        let ((a, direction), (b, _)) = (lane.sample(front - STOP_LENGTH - beyond), lane.sample(front + beyond));
        let out = direction.perp();
        let (edge, inside) = (out * (LANE_WIDTH * 0.5), out * (LANE_WIDTH * 0.5 - width));
        let on_road = |p: Vec2| Vec3::new(p.x, ROAD_LIFT * 2.0, p.y);
        quad([a + inside, a + edge, b + inside, b + edge].map(on_road));
        let (c, _) = lane.sample(front - STOP_PAD);
        let pad = out * (LANE_WIDTH * 0.5 + SIDEWALK_WIDTH);
        let on_pavement = |p: Vec2| Vec3::new(p.x, kerb + 0.01, p.y);
        quad([c + edge, c + pad, b + edge, b + pad].map(on_pavement));
    }
    let normals = vec![Vec3::Y; positions.len()];
    primitive(positions, normals, indices, 3)
}

/// Dashed centre lines: along the left edge of every road lane (where the lane the other way
/// begins), a little above the asphalt.
fn markings(scene: &Scene) -> Primitive {
    let (mut positions, mut indices) = (Vec::new(), Vec::new());
    let (dash, gap, width) = DASH;
    let lift = |p: Vec2| Vec3::new(p.x, ROAD_LIFT * 2.0, p.y);
    for lane in scene.roads().lanes().iter().filter(|l| matches!(l.kind(), LaneKind::Road { .. })) {
        let mut along = gap * 0.5;
        while along + dash <= lane.length() {
            let ((a, direction), (b, _)) = (lane.sample(along), lane.sample(along + dash));
            let left = -direction.perp() * (LANE_WIDTH * 0.5);
            let side = direction.perp() * (width * 0.5);
            let base = positions.len() as u32;
            positions.extend([a + left - side, a + left + side, b + left - side, b + left + side].map(lift));
            quad_facing(&positions, base, Vec3::Y, &mut indices);
            along += dash + gap;
        }
    }
    let normals = vec![Vec3::Y; positions.len()];
    primitive(positions, normals, indices, 1)
}

/// A flat strip `LANE_WIDTH` wide along every lane's polyline, and a square over every
/// intersection (its turning lanes alone leave grass between their curves).
fn roads(scene: &Scene) -> Primitive {
    let (mut positions, mut indices) = (Vec::new(), Vec::new());
    let lift = |p: Vec2| Vec3::new(p.x, ROAD_LIFT, p.y);
    for intersection in scene.roads().intersections() {
        let centre = intersection.centre();
        // Half its side: where its approach lanes end (their stop lines), plus half a lane.
        let ends = intersection.approaches().iter().flatten().filter_map(|&l| scene.roads().lane(l).points().last());
        let half = ends.map(|end| (*end - centre).abs().max_element()).fold(0.0, f32::max) + LANE_WIDTH * 0.5;
        let base = positions.len() as u32;
        positions.extend(
            [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)].map(|(x, z)| lift(centre + Vec2::new(x, z) * half)),
        );
        indices.extend_from_slice(&[base, base + 2, base + 1, base + 1, base + 2, base + 3]);
    }
    for lane in scene.roads().lanes() {
        for pair in lane.points().windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let Some(direction) = (b - a).try_normalize() else { continue };
            let side = direction.perp() * (LANE_WIDTH * 0.5);
            let base = positions.len() as u32;
            positions.extend([lift(a - side), lift(a + side), lift(b - side), lift(b + side)]);
            quad_facing(&positions, base, Vec3::Y, &mut indices);
        }
    }
    let normals = vec![Vec3::Y; positions.len()];
    primitive(positions, normals, indices, 0)
}

/// The two triangles of the quad of `positions` from `base` on (corners 0, 1, 2, 3: 0 and 3
/// opposite), wound to face `towards` (one winding: a back face is culled, whichever way the
/// lane the quad follows runs).
fn quad_facing(positions: &[Vec3], base: u32, towards: Vec3, indices: &mut Vec<u32>) {
    let corner = |k: u32| positions[(base + k) as usize];
    let normal = (corner(1) - corner(0)).cross(corner(2) - corner(0));
    if normal.dot(towards) >= 0.0 {
        indices.extend_from_slice(&[base, base + 1, base + 2, base + 2, base + 1, base + 3]);
    } else {
        indices.extend_from_slice(&[base, base + 2, base + 1, base + 2, base + 3, base + 1]);
    }
}

fn primitive(positions: Vec<Vec3>, normals: Vec<Vec3>, indices: Vec<u32>, material: u32) -> Primitive {
    Primitive::triangles(positions, normals, indices, Some(material))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ground_follows_the_terrain_and_has_roads() {
        let config = crate::SceneConfig::default().with_count("windmills", 10);
        let scene = Scene::new(config, crate::synthetic::town().expect("synthetic models")).expect("scene");
        let ground = models(&scene, 500.0).expect("ground builds");
        let (mesh, flat) = (&ground.land.meshes()[0], &ground.flat.meshes()[0]);
        // The height field in two parts: the hills in the land, the grass at the lowest (the
        // town's level) in the flat ground; every cell's two triangles in one or the other.
        let (hills, lowest) = (&mesh.primitives[0], &flat.primitives[4]);
        assert_eq!(hills.indices.len() + lowest.indices.len(), (CELLS * CELLS * 6) as usize);
        for terrain in [hills, lowest] {
            for p in &terrain.positions {
                assert_eq!(p.y, scene.terrain().height(Vec2::new(p.x, p.z)));
            }
            assert!(terrain.normals.iter().all(|n| n.y > 0.0 && n.is_normalized()));
            assert!(!terrain.indices.is_empty());
        }
        assert!(lowest.positions.iter().all(|p| p.y == 0.0), "the town is flat, at the field's lowest");
        // The heights that shadow the town are the mesh's own: a sample under each vertex.
        let field = height_field(&scene, 500.0).expect("the heights");
        assert_eq!((field.columns(), field.rows(), field.origin()), (CELLS + 1, CELLS + 1, Vec2::splat(-500.0)));
        for p in hills.positions.iter().chain(&lowest.positions) {
            let at = (Vec2::new(p.x, p.z) - field.origin()) / field.spacing();
            let sample = at.round().as_uvec2();
            assert!((at - sample.as_vec2()).abs().max_element() < 1e-3, "{p} lies on a sample");
            assert_eq!(field.heights()[(sample.y * field.columns() + sample.x) as usize], p.y, "{p}");
        }
        let small = models(&scene, 50.0).expect("a ground within the flat town builds");
        assert_eq!(small.land.meshes()[0].primitives.len(), 1, "no hills: the skirt alone");
        for t in hills.indices.chunks_exact(3) {
            assert!(t.iter().any(|&v| hills.positions[v as usize].y > 0.0), "each hill triangle rises");
        }
        assert!(!flat.primitives[0].indices.is_empty(), "the road network has lanes");
        // The skirt starts on the terrain's edge, at its height, and reaches the horizon.
        let skirt = &mesh.primitives[1];
        for pair in skirt.positions.chunks_exact(2) {
            let (inner, outer) = (pair[0], pair[1]);
            assert!((inner.x.abs().max(inner.z.abs()) - 500.0).abs() < 1e-2, "{inner} on the edge");
            assert_eq!(inner.y, scene.terrain().height(Vec2::new(inner.x, inner.z)));
            assert!(Vec2::new(outer.x, outer.z).length() > 25_000.0 && outer.y == inner.y);
        }
        assert_eq!((ground.land.palette_len(), ground.flat.palette_len()), (1, 1));
        // The flat ground faces up, one winding a quad (the kerbs face the road).
        for primitive in &flat.primitives {
            for t in primitive.indices.chunks_exact(3) {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| primitive.positions[i as usize]);
                let normal = (b - a).cross(c - a);
                assert!(normal.y > 0.0 || normal.y.abs() < 1e-6, "a triangle faces down: {normal}");
            }
        }
    }

    /// Whether the asphalt triangles cover `point` (x, z).
    fn covered(roads: &Primitive, point: Vec2) -> bool {
        roads.indices.chunks_exact(3).any(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| {
                let p = roads.positions[i as usize];
                Vec2::new(p.x, p.z)
            });
            let side = |p: Vec2, q: Vec2| (q - p).perp_dot(point - p);
            let (d1, d2, d3) = (side(a, b), side(b, c), side(c, a));
            !((d1 < 0.0 || d2 < 0.0 || d3 < 0.0) && (d1 > 0.0 || d2 > 0.0 || d3 > 0.0))
        })
    }

    /// No grass shows through an intersection: every point of every intersection's box (to a
    /// quarter metre) lies on asphalt, as do the lanes' centre lines.
    #[test]
    fn intersections_and_lanes_are_covered_with_asphalt() {
        let config = crate::SceneConfig::default().with_count("windmills", 0);
        let scene = Scene::new(config, crate::synthetic::town().expect("synthetic models")).expect("scene");
        let paving = models(&scene, 500.0).expect("ground builds").flat;
        let roads = &paving.meshes()[0].primitives[0];
        let mut checked = 0;
        for intersection in scene.roads().intersections() {
            let centre = intersection.centre();
            let ends =
                intersection.approaches().iter().flatten().filter_map(|&l| scene.roads().lane(l).points().last());
            let half = ends.map(|end| (*end - centre).abs().max_element()).fold(0.0, f32::max);
            assert!(half > LANE_WIDTH, "an intersection is wider than a lane");
            for i in -8..=8 {
                for j in -8..=8 {
                    let point = centre + Vec2::new(i as f32, j as f32) * (half / 8.0);
                    assert!(covered(roads, point), "grass at {point} in the intersection at {centre}");
                    checked += 1;
                }
            }
        }
        for lane in scene.roads().lanes() {
            for point in lane.points() {
                assert!(covered(roads, *point), "grass under the lane at {point}");
            }
        }
        assert!(checked > 1000, "{checked} points");
        // The centre-line dashes lie on the asphalt, one every 9 m of road.
        let markings = &paving.meshes()[0].primitives[1];
        assert!(markings.positions.iter().all(|p| covered(roads, Vec2::new(p.x, p.z))), "paint off the road");
        let road_length: f32 = scene
            .roads()
            .lanes()
            .iter()
            .filter(|l| matches!(l.kind(), LaneKind::Road { .. }))
            .map(|l| l.length())
            .sum();
        let dashes = markings.positions.len() / 4;
        // Sidewalks run beside the lanes, never over one, and do not cross the intersections.
        let sidewalks = &paving.meshes()[0].primitives[2];
        assert!(!sidewalks.indices.is_empty());
        for p in &sidewalks.positions {
            let p = Vec2::new(p.x, p.z);
            for lane in scene.roads().lanes().iter().filter(|l| matches!(l.kind(), LaneKind::Road { .. })) {
                for point in lane.points() {
                    assert!(point.distance(p) >= LANE_WIDTH * 0.5 - 1e-3, "a sidewalk over the lane at {point}");
                }
            }
        }
        assert!((dashes as f32 - road_length / 9.0).abs() < road_length / 9.0 * 0.1 + 10.0, "{dashes} dashes");
    }

    /// Every bus stop is marked: a kerbside line on the asphalt, and a pad beside the lane.
    #[test]
    fn bus_stops_are_marked_on_the_kerb_side() {
        let config = crate::SceneConfig::default().with_count("windmills", 0).with_count("buses", 1);
        let scene = Scene::new(config, crate::synthetic::town().expect("synthetic models")).expect("scene");
        let paving = models(&scene, 500.0).expect("ground builds").flat;
        let (roads, stops) = (&paving.meshes()[0].primitives[0], &paving.meshes()[0].primitives[3]);
        let count = scene.bus_stops().iter().count();
        assert!(count > 0);
        assert_eq!(stops.positions.len(), count * 8, "a line and a pad per stop");
        for marking in stops.positions.chunks_exact(8) {
            let (line, pad) = marking.split_at(4);
            assert!(line.iter().all(|p| covered(roads, Vec2::new(p.x, p.z))), "a stop line off the road");
            assert!(pad.iter().all(|p| p.y > KERB), "the pad lies on the sidewalk");
        }
    }
}
