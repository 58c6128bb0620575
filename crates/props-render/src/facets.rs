//! Faceted primitives drawn over shared vertices. A low-poly prop gives each face its own
//! normal, so each corner of each triangle is a vertex of its own: the town's fox has 1,728
//! vertices for 576 triangles, and the vertex shader skins and lights each of them in every
//! pass. Where every vertex's normal is its triangle's (within [`FACET_COS`]), the normals say
//! nothing the triangles do not: such a primitive is drawn flat (`FLAT_SHADED`: each pixel's
//! normal is the posed triangle's, as for a primitive the file gives no normals), over its
//! vertices welded where all else they carry is equal: position, texture coordinates, colour,
//! influences. The fox is then 434 vertices, a windmill 72 of 216.
//!
//! The model itself keeps the file's vertices (poses, bounds, picking and the oracle read
//! them); only what the GPU is given changes ([`crate::drawn::DrawnMeshes`]). What is drawn
//! as it is:
//! - a primitive with a normal map (its tangents are per corner);
//! - one with morph targets: a morphed face is shaded by the file's normals and their
//!   displacements, as three.js does, which need not be the moved triangle's;
//! - one that welding would shrink by less than a quarter.

use std::collections::HashMap;

use glam::Vec3;
use props_anim::{Influences, Lod, Primitive, Topology};

/// A vertex whose unit normal is within this cosine of its triangle's (about 0.26°) carries
/// the triangle's normal: a float or 16-bit normal an exporter wrote from the face is within
/// 0.01°. A normal further off (8 bits are 0.5°) is the file's say on how the face is shaded,
/// as three.js shades it.
const FACET_COS: f32 = 0.99999;
/// Welding must leave at most this share of a primitive's vertices to change how it is drawn.
const MAX_KEPT: f32 = 0.75;

/// `primitive` drawn flat over shared vertices, where it is faceted and that saves vertices.
pub(crate) fn welded(primitive: &Primitive) -> Option<Primitive> {
    let vertices = primitive.vertex_count();
    let shaded_by_file = !primitive.tangents.is_empty() || !primitive.morph_targets.is_empty();
    if !primitive.is_whole_triangles()
        || !per_vertex(primitive)
        || shaded_by_file
        || !(primitive.flat || faceted(primitive))
    {
        return None;
    }
    let mut class_of: HashMap<Vec<u32>, u32> = HashMap::with_capacity(vertices);
    let mut firsts: Vec<usize> = Vec::new();
    let mut key = Vec::new();
    let remap: Vec<u32> = (0..vertices)
        .map(|v| {
            key.clear();
            vertex_key(primitive, v, &mut key);
            if let Some(&class) = class_of.get(&key) {
                return class;
            }
            let class = firsts.len() as u32;
            class_of.insert(key.clone(), class);
            firsts.push(v);
            class
        })
        .collect();
    if firsts.len() as f32 > MAX_KEPT * vertices as f32 {
        return None;
    }
    // A welded vertex's normal (shadow offsets read it) is the mean of its corners'.
    let mut normals = vec![Vec3::ZERO; firsts.len()];
    for (v, &class) in remap.iter().enumerate() {
        normals[class as usize] += primitive.normals.get(v).copied().unwrap_or(Vec3::ZERO);
    }
    let normals = normals
        .into_iter()
        .zip(&firsts)
        .map(|(sum, &v)| sum.try_normalize().or_else(|| primitive.normals.get(v).copied()).unwrap_or(Vec3::Y));
    let pick =
        |list: &[glam::Vec2]| if list.is_empty() { Vec::new() } else { firsts.iter().map(|&v| list[v]).collect() };
    let remapped = |indices: &[u32]| indices.iter().map(|&i| remap[i as usize]).collect::<Vec<u32>>();
    Some(Primitive {
        topology: Topology::Triangles,
        positions: firsts.iter().map(|&v| primitive.positions[v]).collect(),
        normals: normals.collect(),
        uv0: pick(&primitive.uv0),
        uv1: pick(&primitive.uv1),
        tangents: Vec::new(),
        colors: if primitive.colors.is_empty() {
            Vec::new()
        } else {
            firsts.iter().map(|&v| primitive.colors[v]).collect()
        },
        influences: primitive.influences.as_ref().map(|influences| welded_influences(influences, &firsts)),
        indices: remapped(&primitive.indices),
        morph_targets: Vec::new(),
        material: primitive.material,
        lods: primitive.lods.iter().map(|lod| Lod { indices: remapped(&lod.indices), error: lod.error }).collect(),
        flat: true,
    })
}

/// Whether each of `primitive`'s per-vertex lists has an entry for every vertex, or none.
fn per_vertex(primitive: &Primitive) -> bool {
    let n = primitive.vertex_count();
    let whole = |len: usize| len == 0 || len == n;
    let influences = primitive.influences.as_ref().is_none_or(|i| {
        i.joints.len() == n && i.weights.len() == n && (i.extra_start.is_empty() || i.extra_start.len() == n + 1)
    });
    whole(primitive.uv0.len()) && whole(primitive.uv1.len()) && whole(primitive.colors.len()) && influences
}

/// Whether every vertex of every (non-degenerate) triangle of `primitive` carries that
/// triangle's normal.
fn faceted(primitive: &Primitive) -> bool {
    if primitive.normals.len() != primitive.vertex_count() {
        return false;
    }
    primitive.indices.chunks_exact(3).all(|corners| {
        let [a, b, c] = [0, 1, 2].map(|k| primitive.positions[corners[k] as usize]);
        let Some(face) = (b - a).cross(c - a).try_normalize() else { return true };
        corners.iter().all(|&v| primitive.normals[v as usize].normalize_or_zero().dot(face) >= FACET_COS)
    })
}

/// Appends to `key` all vertex `v` of `primitive` (without morph targets) carries but its
/// normal, bit for bit.
fn vertex_key(primitive: &Primitive, v: usize, key: &mut Vec<u32>) {
    let bits = |key: &mut Vec<u32>, values: &[f32]| key.extend(values.iter().map(|x| x.to_bits()));
    bits(key, &primitive.positions[v].to_array());
    if let Some(uv) = primitive.uv0.get(v) {
        bits(key, &uv.to_array());
    }
    if let Some(uv) = primitive.uv1.get(v) {
        bits(key, &uv.to_array());
    }
    if let Some(color) = primitive.colors.get(v) {
        bits(key, &color.to_array());
    }
    if let Some(influences) = &primitive.influences {
        key.extend(influences.joints[v].map(u32::from));
        bits(key, &influences.weights[v]);
        for &(joint, weight) in influences.extra_of(v) {
            key.extend([u32::from(joint), weight.to_bits()]);
        }
        // Ends the variable-length list, so that no two lists read alike.
        key.push(u32::MAX);
    }
}

/// `influences` of the vertices `firsts`, in that order.
fn welded_influences(influences: &Influences, firsts: &[usize]) -> Influences {
    let (mut extra_start, mut extra) = (Vec::new(), Vec::new());
    if !influences.extra_start.is_empty() {
        for &v in firsts {
            extra_start.push(extra.len() as u32);
            extra.extend_from_slice(influences.extra_of(v));
        }
        extra_start.push(extra.len() as u32);
    }
    Influences {
        joints: firsts.iter().map(|&v| influences.joints[v]).collect(),
        weights: firsts.iter().map(|&v| influences.weights[v]).collect(),
        sets: influences.sets,
        extra_start,
        extra,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use glam::{Vec2, Vec4};

    /// A unit cube with a normal per face: 24 vertices, 12 triangles facing out, and a coarser
    /// level of the first two faces.
    pub(crate) fn faceted_cube() -> Primitive {
        let (mut positions, mut normals, mut indices) = (Vec::new(), Vec::new(), Vec::new());
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            for normal in [axis, -axis] {
                // Two directions across the face, so that u x v is the normal.
                let u = Vec3::new(normal.y, normal.z, normal.x);
                let v = normal.cross(u);
                let base = positions.len() as u32;
                for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                    positions.push((normal + u * a + v * b) * 0.5);
                    normals.push(normal);
                }
                indices.extend([0, 1, 2, 0, 2, 3].map(|i| base + i));
            }
        }
        let mut cube = Primitive::triangles(positions, normals, indices, None);
        cube.lods = vec![Lod { indices: cube.indices[..12].to_vec(), error: 0.5 }];
        cube
    }

    /// Each triangle's corners, as positions.
    fn corners(primitive: &Primitive, indices: &[u32]) -> Vec<[Vec3; 3]> {
        indices.chunks_exact(3).map(|t| [0, 1, 2].map(|k| primitive.positions[t[k] as usize])).collect()
    }

    #[test]
    fn a_faceted_cube_is_drawn_flat_over_its_eight_corners() {
        let cube = faceted_cube();
        let drawn = welded(&cube).expect("faceted");
        assert_eq!(drawn.vertex_count(), 8);
        assert!(drawn.flat);
        // The same triangles, corner for corner, at every level.
        assert_eq!(corners(&drawn, &drawn.indices), corners(&cube, &cube.indices));
        assert_eq!(corners(&drawn, &drawn.lods[0].indices), corners(&cube, &cube.lods[0].indices));
        assert_eq!(drawn.lods[0].error, 0.5);
        // Each corner's normal is the mean of its three faces': along its diagonal.
        for (p, n) in drawn.positions.iter().zip(&drawn.normals) {
            assert!(n.abs_diff_eq(p.normalize(), 1e-6), "{p} {n}");
        }
    }

    #[test]
    fn smooth_or_normal_mapped_primitives_are_drawn_as_they_are() {
        let mut smooth = faceted_cube();
        smooth.normals = smooth.positions.iter().map(|p| p.normalize()).collect();
        assert_eq!(welded(&smooth), None);
        // A fifth of a degree off the face: rounded, still faceted; a degree: the file's own.
        let tilted = |by: f32| {
            let mut cube = faceted_cube();
            cube.normals.iter_mut().for_each(|n| *n = (*n + Vec3::splat(by)).normalize());
            cube
        };
        assert!(welded(&tilted(0.002)).is_some());
        assert_eq!(welded(&tilted(0.015)), None);
        let mut mapped = faceted_cube();
        mapped.tangents = vec![Vec4::X; 24];
        assert_eq!(welded(&mapped), None);
        // Inside out (normals against the winding): not the triangles' normals.
        let mut inverted = faceted_cube();
        inverted.normals.iter_mut().for_each(|n| *n = -*n);
        assert_eq!(welded(&inverted), None);
    }

    #[test]
    fn only_vertices_equal_in_all_but_their_normal_are_welded() {
        // A UV island per face: nothing to weld, so nothing changes.
        let mut islands = faceted_cube();
        islands.uv0 = (0..24).map(|v| Vec2::new(v as f32, 0.0)).collect();
        assert_eq!(welded(&islands), None);
        // Two skins: the +X and -X faces' corners move with another joint than the rest.
        let mut skinned = faceted_cube();
        let joint = |v: usize| if v < 8 { 1 } else { 0 };
        skinned.influences = Some(Influences {
            joints: (0..24).map(|v| [joint(v), 0, 0, 0, 0, 0, 0, 0]).collect(),
            weights: vec![[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]; 24],
            sets: 1,
            ..Influences::default()
        });
        let drawn = welded(&skinned).expect("welds");
        // Each corner of the X faces stays apart from the Y and Z faces' at the same place.
        assert_eq!(drawn.vertex_count(), 16);
        assert_eq!(corners(&drawn, &drawn.indices), corners(&skinned, &skinned.indices));
        let joints = drawn.influences.as_ref().map(|i| i.joints.iter().map(|j| j[0]).collect::<Vec<_>>());
        assert_eq!(joints.map(|j| j.iter().filter(|&&j| j == 1).count()), Some(8));
    }

    #[test]
    fn a_morphing_primitive_is_shaded_by_the_file_s_normals() {
        let mut morphing = faceted_cube();
        let lift = morphing.positions.iter().map(|p| Vec3::Y * (p.y + 0.5)).collect();
        morphing.morph_targets =
            vec![props_anim::MorphTarget { positions: lift, normals: vec![Vec3::X; 24], ..Default::default() }];
        assert_eq!(welded(&morphing), None);
    }

    #[test]
    fn an_index_past_the_vertices_or_a_short_list_leaves_the_primitive_as_it_is() {
        let mut broken = faceted_cube();
        broken.lods[0].indices[0] = 24;
        assert_eq!(welded(&broken), None);
        let mut short = faceted_cube();
        short.uv0 = vec![Vec2::ZERO; 23];
        assert_eq!(welded(&short), None);
    }
}
