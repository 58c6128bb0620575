//! Levels of detail made at import: each triangle primitive's chain of coarser index lists over
//! its own vertices, by meshoptimizer's attribute-aware simplifier, each with its geometric
//! error in the primitive's units ([`props_anim::Lod`]); a primitive with the file's own levels
//! ([`crate::msft_lod`]) keeps those.
//!
//! Each level aims at half the triangles of the one before, simplified from it (its error is
//! the sum of the steps', so it never understates). A heavy primitive's chain goes on past
//! [`Limits::lod_levels`] while its last level has more than [`COARSEST_TRIANGLES`], and then
//! keeps that many levels spread over it: a 300,000-triangle download halving six times kept
//! 4,700 triangles for every view until its impostor's, thirty times as far. What a collapse
//! may not break:
//! - **Borders.** Every open border stays where it is (`LockBorder`): where two primitives of a
//!   model meet, neither level opens a gap.
//! - **Seams.** A UV, normal or colour seam is a vertex split in two; the simplifier keeps
//!   such splits and collapses along them only.
//! - **Shading.** Normals weigh in the error, so a smooth surface keeps its curvature.
//! - **Skins.** Each vertex carries where its joints are (the weighted mean of their origins
//!   in the bind pose): a vertex does not collapse onto one moved by other bones.
//! - **Morph targets.** Each vertex carries its displacement by each of the first
//!   [`MORPH_SLOTS`] targets (the rest add up in the last), so a mouth stays a mouth.
//!
//! A faceted mesh (a normal per face, as low-poly props are) is all seams: where the strict
//! step cannot reduce it, a permissive one collapses across its normal seams, keeping its UV
//! seams, and where that cannot either, across every seam (a texture smears over a pixel or
//! two at the distances such a level is drawn at). The chain ends when a step removes less
//! than a quarter of the triangles (the simplifier is held up by seams, borders or the
//! attributes), when its error grows far more than its triangles fall
//! ([`MAX_ERROR_GROWTH`]), after [`Limits::lod_levels`] levels, or at [`MIN_TRIANGLES`]. A
//! primitive much smaller than the model's largest (a door, a window: at most
//! [`VANISH_SHARE`] of its size) then gets a last, empty level whose
//! error is its size: once it spans about a pixel, it is not drawn.

use std::collections::HashMap;

use ::meshopt::SimplifyVertex;
use glam::Vec3;
use props_anim::{Influences, Lod, MeshInstance, Primitive, Skin, Topology};

use crate::error::ImportError;
use crate::limits::{Budget, Limits};

/// Primitives with fewer triangles get no levels (a box has 12, and a thin one halves).
pub(crate) const MIN_TRIANGLES: usize = 8;
/// A chain whose last level has more triangles than this goes on halving, to twice its
/// levels, and then keeps every other level or so.
pub(crate) const COARSEST_TRIANGLES: usize = 64;
/// Morph targets each weighed on its own; the others add up in the last slot.
pub(crate) const MORPH_SLOTS: usize = 6;
/// A primitive at most this share of the model's largest one's size gets a last, empty level.
pub(crate) const VANISH_SHARE: f32 = 0.5;
/// A level kept must have at most this share of the triangles of the one before.
const MAX_KEPT: f32 = 0.75;
/// A level's error may grow at most this many times as much as its share of the triangles
/// before falls (a surface's error grows about as its triangles fall): past that, the
/// simplifier collapsed it across its seams into something else. A sphere exported from
/// Blender (its poles and its UV seam split) went from 200 triangles straying 0.2 to 126
/// straying 1.66, its whole radius, and the box that stands for the model then took the
/// level's error for its own.
const MAX_ERROR_GROWTH: f32 = 4.0;
/// How much a normal's change weighs against a change of position by the model's extent.
const NORMAL_WEIGHT: f32 = 0.5;
/// How much a skinned vertex's joints' move weighs against one of its position.
const SKIN_WEIGHT: f32 = 1.0;
/// How much a morph displacement's change weighs against one of position.
const MORPH_WEIGHT: f32 = 1.0;

/// Makes the levels of every triangle primitive of `meshes` placed by `instances` (a skinned
/// mesh's skin among `skins` tells where its joints are), charging their indices to `budget`.
pub(crate) fn make(
    meshes: &mut [props_anim::Mesh],
    (instances, skins): (&[MeshInstance], &[Skin]),
    limits: &Limits,
    budget: &Budget,
) -> Result<(), ImportError> {
    if limits.lod_levels == 0 {
        return Ok(());
    }
    let primitives = meshes.iter().flat_map(|m| &m.primitives).filter(|p| p.topology == Topology::Triangles);
    let largest = primitives.map(size).fold(0.0, f32::max);
    // Each mesh's first instance's skin, if any.
    let mut first: Vec<Option<&MeshInstance>> = vec![None; meshes.len()];
    for instance in instances.iter().rev() {
        if let Some(slot) = first.get_mut(instance.mesh as usize) {
            *slot = Some(instance);
        }
    }
    for (m, mesh) in meshes.iter_mut().enumerate() {
        let skin = first[m].and_then(|i| skins.get(i.skin? as usize));
        // A primitive with the file's own levels (`MSFT_lod`) keeps them.
        for (p, primitive) in mesh.primitives.iter_mut().enumerate().filter(|(_, p)| p.lods.is_empty()) {
            let mut lods = chain(primitive, skin, usize::from(limits.lod_levels));
            lods.extend(vanishing(primitive, largest, lods.last()));
            let bytes: usize = lods.iter().map(|lod| size_of_val(lod.indices.as_slice())).sum();
            budget.charge(bytes as u64, &format!("/meshes/{m}/primitives/{p}"))?;
            primitive.lods = lods;
        }
    }
    Ok(())
}

/// The chain of at most `levels` coarser levels of `primitive` (skinned by `skin`, if any).
pub(crate) fn chain(primitive: &Primitive, skin: Option<&Skin>, levels: usize) -> Vec<Lod> {
    let triangles = primitive.indices.len() / 3;
    if primitive.topology != Topology::Triangles || triangles < MIN_TRIANGLES || levels == 0 {
        return Vec::new();
    }
    let (attributes, weights) = attributes(primitive, skin);
    let positions: Vec<u8> = primitive.positions.iter().flat_map(|p| p.to_array()).flat_map(f32::to_ne_bytes).collect();
    let Ok(adapter) = ::meshopt::VertexDataAdapter::new(&positions, 12, 0) else {
        return Vec::new();
    };
    let strict = ::meshopt::SimplifyOptions::LockBorder | ::meshopt::SimplifyOptions::ErrorAbsolute;
    // meshoptimizer reads one lock entry per vertex: none locked in the strict pass (borders
    // are, by the option); the UV seams protected in the permissive one.
    let unlocked = vec![SimplifyVertex::None; primitive.vertex_count()];
    let mut seams = None;
    let mut chain: Vec<Lod> = Vec::new();
    let (mut error, floor) = (0.0, size(primitive) * 1e-3);
    // Past `levels` while the last level is heavy, to be thinned out.
    let heavy = |chain: &[Lod]| chain.last().is_some_and(|lod| lod.indices.len() / 3 > COARSEST_TRIANGLES);
    while chain.len() < levels || (chain.len() < 2 * levels && heavy(&chain)) {
        let before = chain.last().map_or(primitive.indices.as_slice(), |lod| lod.indices.as_slice());
        let simplify = |target: usize, options, locks: &[SimplifyVertex]| {
            let mut step = 0.0;
            let stride = weights.len() * size_of::<f32>();
            let indices = ::meshopt::simplify_with_attributes_and_locks(
                before,
                &adapter,
                &attributes,
                &weights,
                stride,
                locks,
                target,
                f32::MAX,
                options,
                Some(&mut step),
            );
            let kept = !indices.is_empty() && indices.len() as f32 <= MAX_KEPT * before.len() as f32;
            (kept && step.is_finite()).then_some((indices, step))
        };
        let target = (before.len() / 6) * 3;
        // A faceted mesh (a normal per face) is all seams: only collapses across them reduce
        // it, keeping its UV seams while it can, then across those too.
        let permissive = strict | ::meshopt::SimplifyOptions::Permissive;
        let made = simplify(target, strict, &unlocked)
            .or_else(|| simplify(target, permissive, seams.get_or_insert_with(|| uv_seams(primitive))))
            .or_else(|| simplify(target, permissive, &unlocked));
        // A file's extreme values can make the sum overflow: the chain ends before it does. A
        // flat surface's first levels stray next to nothing: growth counts from a thousandth
        // of the primitive's size.
        let within = |(indices, step): &(Vec<u32>, f32)| {
            let fell = before.len() as f32 / indices.len() as f32;
            (error + step).is_finite()
                && (chain.is_empty() || error + step <= MAX_ERROR_GROWTH * fell * error.max(floor))
        };
        let Some((indices, step)) = made.filter(within) else { break };
        error += step;
        chain.push(Lod { indices, error });
    }
    thinned(chain, levels)
}

/// `levels` of `chain`, the last among them, spread evenly over it (each level has about half
/// the triangles of the one before: evenly in their logarithm): a heavy model's chain steps
/// down by fours at most, and keeps its coarsest.
fn thinned(chain: Vec<Lod>, levels: usize) -> Vec<Lod> {
    let length = chain.len();
    if length <= levels {
        return chain;
    }
    let kept: Vec<usize> = (1..=levels).map(|k| (k * length).div_ceil(levels) - 1).collect();
    chain.into_iter().enumerate().filter(|(k, _)| kept.contains(k)).map(|(_, lod)| lod).collect()
}

/// A last, empty level for a primitive much smaller than the model's largest (at most
/// [`VANISH_SHARE`] of its size): once its whole size is within the error a view allows, it
/// is not drawn. Its error is its size, at least the level before's.
fn vanishing(primitive: &Primitive, largest: f32, last: Option<&Lod>) -> Option<Lod> {
    let small = primitive.topology == Topology::Triangles
        && size(primitive).is_finite()
        && size(primitive) <= VANISH_SHARE * largest;
    small.then(|| Lod { indices: Vec::new(), error: size(primitive).max(last.map_or(0.0, |lod| lod.error)) })
}

/// The diagonal of the box around a primitive's positions.
pub(crate) fn size(primitive: &Primitive) -> f32 {
    diagonal(&primitive.positions)
}

/// The diagonal of the box around `positions` (0 when there are none).
pub(crate) fn diagonal<'a>(positions: impl IntoIterator<Item = &'a Vec3>) -> f32 {
    let (min, max) = bounds(positions);
    if min.cmple(max).all() { (max - min).length() } else { 0.0 }
}

/// The vertices on a UV seam (another vertex at the same position has other UVs), protected.
fn uv_seams(primitive: &Primitive) -> Vec<SimplifyVertex> {
    let mut flags = vec![SimplifyVertex::None; primitive.vertex_count()];
    if primitive.uv0.len() != primitive.vertex_count() {
        return flags;
    }
    let mut first_at: HashMap<[u32; 3], usize> = HashMap::new();
    for (v, position) in primitive.positions.iter().enumerate() {
        let first = *first_at.entry(position.to_array().map(f32::to_bits)).or_insert(v);
        if primitive.uv0[first] != primitive.uv0[v] {
            flags[first] = SimplifyVertex::Protect;
            flags[v] = SimplifyVertex::Protect;
        }
    }
    flags
}

/// Each vertex's attributes the simplifier weighs, and their weights (at most 32): its
/// normal, where its joints are, its displacements by the morph targets.
fn attributes(primitive: &Primitive, skin: Option<&Skin>) -> (Vec<f32>, Vec<f32>) {
    let extent = extent(&primitive.positions);
    let mut weights = Vec::new();
    if primitive.normals.len() == primitive.positions.len() {
        weights.extend([NORMAL_WEIGHT; 3]);
    }
    let joints = match (&primitive.influences, skin) {
        (Some(influences), Some(skin)) => Some(joint_centres(influences, skin)),
        _ => None,
    };
    if joints.is_some() {
        weights.extend([SKIN_WEIGHT / extent; 3]);
    }
    let slots = primitive.morph_targets.len().min(MORPH_SLOTS);
    weights.extend(std::iter::repeat_n(MORPH_WEIGHT / extent, 3 * slots));
    let mut attributes = Vec::with_capacity(weights.len() * primitive.positions.len());
    for v in 0..primitive.positions.len() {
        if primitive.normals.len() == primitive.positions.len() {
            attributes.extend(primitive.normals[v].to_array());
        }
        if let Some(joints) = &joints {
            attributes.extend(joints[v].to_array());
        }
        let mut moved = [Vec3::ZERO; MORPH_SLOTS];
        for (t, target) in primitive.morph_targets.iter().enumerate() {
            let delta = target.positions.get(v).copied().unwrap_or(Vec3::ZERO);
            // The last slot adds up the rest's sizes, each component on its own.
            moved[t.min(MORPH_SLOTS - 1)] += if t < MORPH_SLOTS - 1 { delta } else { delta.abs() };
        }
        attributes.extend(moved[..slots].iter().flat_map(|d| d.to_array()));
    }
    // A value past f32's range (extreme joints, say) weighs nothing rather than poisoning the
    // simplifier's sums.
    attributes.iter_mut().filter(|a| !a.is_finite()).for_each(|a| *a = 0.0);
    (attributes, weights)
}

/// Where each vertex's joints are in the bind pose: the mean of their origins, by weight.
fn joint_centres(influences: &Influences, skin: &Skin) -> Vec<Vec3> {
    let origins: Vec<Vec3> = skin.inverse_bind_matrices().iter().map(|m| m.inverse().translation.into()).collect();
    // A joint past the skin's, or whose inverse bind matrix has no inverse, sits at the origin.
    let origin = |joint: u16| origins.get(usize::from(joint)).copied().filter(|o| o.is_finite()).unwrap_or(Vec3::ZERO);
    (0..influences.joints.len())
        .map(|v| {
            let first = influences.joints[v].iter().zip(&influences.weights[v]).map(|(&j, &w)| (j, w));
            let all = first.chain(influences.extra_of(v).iter().copied());
            let (sum, total) = all.fold((Vec3::ZERO, 0.0), |(sum, total), (j, w)| (sum + origin(j) * w, total + w));
            if total > 0.0 { sum / total } else { Vec3::ZERO }
        })
        .collect()
}

/// The longest side of the box around `positions` (at least a tiny length, so dividing by it
/// is safe).
fn extent(positions: &[Vec3]) -> f32 {
    let (min, max) = bounds(positions);
    (max - min).max_element().max(1e-6)
}

/// The corners of the box around `positions` (inverted when there are none).
fn bounds<'a>(positions: impl IntoIterator<Item = &'a Vec3>) -> (Vec3, Vec3) {
    positions.into_iter().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Affine3A;
    use props_anim::{MorphTarget, NodeId, RestTransform, Rig, SourceNode, Transform};

    /// A square of `n` x `n` cells from -1 to 1 on the XZ plane, facing up, its height
    /// `height(x, z)`.
    fn grid(n: u32, height: impl Fn(f32, f32) -> f32) -> Primitive {
        let at = |i: u32| i as f32 / n as f32 * 2.0 - 1.0;
        let mut positions = Vec::new();
        for j in 0..=n {
            for i in 0..=n {
                positions.push(Vec3::new(at(i), height(at(i), at(j)), at(j)));
            }
        }
        let mut indices = Vec::new();
        for j in 0..n {
            for i in 0..n {
                let v = j * (n + 1) + i;
                indices.extend([v, v + n + 1, v + 1, v + 1, v + n + 1, v + n + 2]);
            }
        }
        let normals = vec![Vec3::Y; positions.len()];
        Primitive::triangles(positions, normals, indices, None)
    }

    /// The triangles of `indices` with a corner left of `x = 0` and one right of it.
    fn crossings(primitive: &Primitive, indices: &[u32]) -> usize {
        let crosses = |t: &[u32]| {
            let xs = t.iter().map(|&i| primitive.positions[i as usize].x);
            xs.clone().any(|x| x < -1e-4) && xs.into_iter().any(|x| x > 1e-4)
        };
        indices.chunks_exact(3).filter(|t| crosses(t)).count()
    }

    #[test]
    fn each_level_has_at_most_three_quarters_of_the_triangles_before_and_no_smaller_error() {
        let hill = grid(24, |x, z| 0.2 * (3.0 * x).sin() * (2.0 * z).cos());
        let lods = chain(&hill, None, 4);
        // A fourth level, 94 triangles held by the locked rim's 96 edges, flattened the hill
        // (it strayed 0.37 of its 0.4 height, eleven times the level before): left out.
        assert_eq!(lods.len(), 3, "a smooth 1152-triangle hill halves three times");
        let mut before = (hill.indices.len(), 0.0);
        for lod in &lods {
            assert!(lod.indices.len() as f32 <= MAX_KEPT * before.0 as f32, "{} after {}", lod.indices.len(), before.0);
            assert!(lod.error >= before.1 && lod.error > 0.0, "{} after {}", lod.error, before.1);
            assert!(lod.indices.len() % 3 == 0 && lod.indices.iter().all(|&i| (i as usize) < hill.vertex_count()));
            before = (lod.indices.len(), lod.error);
        }
        assert!(lods[0].error < 0.01, "the hill's first level strays {} (its height is 0.4)", lods[0].error);
        assert!(chain(&hill, None, 2).len() == 2 && chain(&hill, None, 0).is_empty());
    }

    /// A closed, bumpy ball of `rings` x `2 * rings` cells (no border to lock), its vertices
    /// shared along its seam and at its poles.
    fn ball(rings: u32) -> Primitive {
        let segments = 2 * rings;
        let at = |ring: u32, segment: u32| {
            let (theta, phi) = (
                std::f32::consts::PI * ring as f32 / rings as f32,
                std::f32::consts::TAU * segment as f32 / segments as f32,
            );
            let r = 1.0 + 0.05 * (7.0 * theta).sin() * (5.0 * phi).cos();
            Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin()) * r
        };
        let mut positions = vec![at(0, 0), at(rings, 0)];
        positions.extend((1..rings).flat_map(|ring| (0..segments).map(move |segment| at(ring, segment))));
        let vertex = |ring: u32, segment: u32| match ring {
            0 => 0,
            r if r == rings => 1,
            r => 2 + (r - 1) * segments + segment % segments,
        };
        let mut indices = Vec::new();
        for ring in 0..rings {
            for s in 0..segments {
                let quad = [vertex(ring, s), vertex(ring + 1, s), vertex(ring, s + 1), vertex(ring + 1, s + 1)];
                if ring > 0 {
                    indices.extend([quad[0], quad[2], quad[1]]);
                }
                if ring + 1 < rings {
                    indices.extend([quad[2], quad[3], quad[1]]);
                }
            }
        }
        let normals = positions.iter().map(|p| p.normalize()).collect();
        Primitive::triangles(positions, normals, indices, None)
    }

    /// A heavy primitive's chain goes on halving until its last level is light, and keeps
    /// as many levels as asked, spread over it: its last comes down to a few dozen triangles.
    #[test]
    fn a_heavy_primitives_last_level_comes_down_to_a_light_one() {
        let heavy = ball(100);
        let triangles = heavy.indices.len() / 3;
        assert_eq!(triangles, 39_600);
        let lods = chain(&heavy, None, 6);
        let counts: Vec<usize> = lods.iter().map(|lod| lod.indices.len() / 3).collect();
        // Halving six times kept 619.
        assert!(counts.len() == 6 && counts[5] <= COARSEST_TRIANGLES, "{counts:?}");
        let mut before = (triangles, 0.0);
        for lod in &lods {
            let now = (lod.indices.len() / 3, lod.error);
            assert!(now.0 <= before.0 * 3 / 5 && now.1 > before.1, "{now:?} after {before:?}");
            before = (lod.indices.len() / 3, lod.error);
        }
        // Its error is the sum of ten steps' (a 39-triangle ball of radius 1 strays about 0.2).
        assert!(lods[5].error < 0.5, "the ball's last level strays {} (its size is 2)", lods[5].error);
        // A light one's (1,560 triangles) halves level by level: none is left out.
        let light: Vec<usize> = chain(&ball(20), None, 6).iter().map(|lod| lod.indices.len() / 3).collect();
        assert!(light.len() >= 4 && light.windows(2).all(|w| w[1] * 5 >= w[0] * 2), "{light:?}");
    }

    /// A bumpy sphere of `rings` x `rings` cells as Blender exports one with UVs: a vertex per
    /// cell corner, so that its UV seam and its poles are split (each pole `rings + 1`
    /// vertices at one place).
    fn uv_sphere(rings: u32) -> Primitive {
        let mut positions = Vec::new();
        for ring in 0..=rings {
            for segment in 0..=rings {
                let (theta, phi) = (
                    std::f32::consts::PI * ring as f32 / rings as f32,
                    std::f32::consts::TAU * segment as f32 / rings as f32,
                );
                let r = 1.0 + 0.05 * (7.0 * theta).sin() * (5.0 * phi).cos() + 0.02 * (23.0 * theta + 3.0 * phi).sin();
                positions.push(Vec3::new(theta.sin() * phi.cos(), theta.cos(), theta.sin() * phi.sin()) * r);
            }
        }
        let mut indices = Vec::new();
        for ring in 0..rings {
            for segment in 0..rings {
                let v = ring * (rings + 1) + segment;
                indices.extend([v, v + rings + 1, v + 1, v + 1, v + rings + 1, v + rings + 2]);
            }
        }
        let normals = positions.iter().map(|p| p.normalize()).collect();
        let mut sphere = Primitive::triangles(positions, normals, indices, None);
        sphere.uv0 = (0..=rings)
            .flat_map(|ring| (0..=rings).map(move |s| glam::Vec2::new(s as f32, ring as f32) / rings as f32))
            .collect();
        sphere
    }

    /// The chain ends before a step whose error grows far more than its triangles fall: a
    /// bumpy Blender sphere's fifth level (146 triangles) strayed 2.33, more than its radius,
    /// where the levels before it strayed at most 0.22.
    #[test]
    fn a_step_that_collapses_the_shape_ends_the_chain() {
        let sphere = uv_sphere(40);
        let lods = chain(&sphere, None, 6);
        let steps: Vec<(usize, f32)> = lods.iter().map(|lod| (lod.indices.len() / 3, lod.error)).collect();
        assert!(steps.len() >= 3 && steps.iter().all(|&(_, error)| error < 0.5), "{steps:?}");
        for pair in steps.windows(2) {
            let fell = pair[0].0 as f32 / pair[1].0 as f32;
            assert!(pair[1].1 <= MAX_ERROR_GROWTH * fell * pair[0].1, "{steps:?}");
        }
    }

    #[test]
    fn small_primitives_and_lines_get_no_levels() {
        assert!(chain(&grid(1, |_, _| 0.0), None, 4).is_empty(), "2 triangles");
        let lines = Primitive { topology: Topology::Lines, ..grid(24, |_, _| 0.0) };
        assert!(chain(&lines, None, 4).is_empty());
    }

    /// A part at most half the size of the largest vanishes at a last level, once its size is
    /// within the error a view allows; the largest never does.
    #[test]
    fn small_parts_vanish_at_their_size() {
        let small = Primitive::triangles(
            grid(1, |_, _| 0.0).positions.iter().map(|p| *p * 0.25).collect(),
            vec![Vec3::Y; 4],
            grid(1, |_, _| 0.0).indices,
            None,
        );
        let mut meshes = vec![props_anim::Mesh { name: None, primitives: vec![grid(24, |_, _| 0.0), small] }];
        let limits = Limits::default();
        make(&mut meshes, (&[], &[]), &limits, &Budget::new(limits.max_decoded_bytes)).expect("within the budget");
        let [large, small] = &meshes[0].primitives[..] else { panic!("two primitives") };
        assert!(large.lods.iter().all(|lod| !lod.indices.is_empty()), "the largest stays");
        let last = small.lods.last().expect("a last level");
        assert!(last.indices.is_empty() && (last.error - 0.5 * 2f32.sqrt()).abs() < 1e-6, "{last:?}");
        let mut fresh = vec![props_anim::Mesh { name: None, primitives: vec![grid(24, |_, _| 0.0)] }];
        let none = Limits { lod_levels: 0, ..Limits::default() };
        make(&mut fresh, (&[], &[]), &none, &Budget::new(none.max_decoded_bytes)).expect("nothing made");
        assert!(fresh[0].primitives[0].lods.is_empty(), "no levels asked, none made");
    }

    /// A primitive's border is where another primitive may meet it: every border vertex is in
    /// every level.
    #[test]
    fn every_border_vertex_stays() {
        let n = 24;
        // A wavy rim, so a collapse along it would show.
        let plate = grid(n, |x, z| if x.abs() == 1.0 || z.abs() == 1.0 { 0.1 * (9.0 * (x + z)).sin() } else { 0.0 });
        let lods = chain(&plate, None, 4);
        assert!(!lods.is_empty());
        let border = (0..plate.vertex_count() as u32).filter(|&v| {
            let (i, j) = (v % (n + 1), v / (n + 1));
            i == 0 || j == 0 || i == n || j == n
        });
        for v in border {
            assert!(lods.iter().all(|lod| lod.indices.contains(&v)), "border vertex {v} was collapsed");
        }
    }

    /// A sheet whose left half follows one joint and right half another: a triangle spanning
    /// the halves would stretch as the joints move. Until the middle line must go (its rim is
    /// locked, so the coarsest levels are little more than the rim), no level has one, where
    /// without the skin the second level does.
    #[test]
    fn a_vertex_does_not_collapse_onto_one_moved_by_other_joints() {
        let mut sheet = grid(24, |_, _| 0.0);
        let side = |p: Vec3| {
            if p.x < -1e-4 {
                [1.0, 0.0]
            } else if p.x > 1e-4 {
                [0.0, 1.0]
            } else {
                [0.5, 0.5]
            }
        };
        let weights = sheet.positions.iter().map(|&p| {
            let [a, b] = side(p);
            [a, b, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        });
        sheet.influences = Some(Influences {
            joints: vec![[0, 1, 0, 0, 0, 0, 0, 0]; sheet.vertex_count()],
            weights: weights.collect(),
            sets: 1,
            extra_start: Vec::new(),
            extra: Vec::new(),
        });
        let node = || SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let rig = Rig::from_source_nodes(&[node(), node()]).expect("two joints");
        let inverse_bind = [-1.0, 1.0].map(|x| Affine3A::from_translation(Vec3::new(x, 0.0, 0.0)).inverse());
        let skin = Skin::new(None, vec![NodeId(0), NodeId(1)], Some(inverse_bind.to_vec()), &rig).expect("a skin");
        let crossing = |lods: Vec<Lod>| lods.iter().map(|lod| crossings(&sheet, &lod.indices)).collect::<Vec<_>>();
        let (without, with) = (crossing(chain(&sheet, None, 4)), crossing(chain(&sheet, Some(&skin), 4)));
        // The fourth level, where the middle line must go, strayed 1.55 (its joints' move):
        // left out (`MAX_ERROR_GROWTH`); without the skin it halves a fourth time.
        assert_eq!((with.len(), without.len()), (3, 4));
        assert!(
            with[..2] == [0, 0] && without[1] > 0,
            "crossing triangles: {with:?} with the skin, {without:?} without"
        );
        assert!(with.iter().zip(&without).take(3).all(|(a, b)| a <= b), "{with:?} with the skin, {without:?} without");
    }

    /// The same with a morph target that lifts the right half alone: the first two levels
    /// keep the halves apart.
    #[test]
    fn a_vertex_does_not_collapse_onto_one_a_morph_target_moves_otherwise() {
        let mut sheet = grid(24, |_, _| 0.0);
        let lift = sheet.positions.iter().map(|p| if p.x > 1e-4 { Vec3::Y } else { Vec3::ZERO });
        sheet.morph_targets = vec![MorphTarget { positions: lift.collect(), ..MorphTarget::default() }];
        let lods = chain(&sheet, None, 4);
        let crossing: Vec<usize> = lods.iter().map(|lod| crossings(&sheet, &lod.indices)).collect();
        // A fourth level, crossing the line, strayed the sheet's size: left out.
        assert!(crossing.len() == 3 && crossing[..2] == [0, 0], "crossing triangles: {crossing:?}");
    }
}
