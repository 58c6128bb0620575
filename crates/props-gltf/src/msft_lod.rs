//! `MSFT_lod`: levels of detail a file's author made, as nodes. A node with the extension
//! draws its mesh at full detail and, coarser and coarser, the meshes of the nodes it lists
//! (`ids`); `extras.MSFT_screencoverage` gives, per level, the share of the screen below which
//! the next takes over, and last the share below which nothing is drawn (a share as Babylon.js
//! measures screen coverage for its levels: the area of the mesh's bounding sphere on screen
//! over the screen's; its glTF loader itself ignores the shares and shows the finest level).
//!
//! A level here is an index list over its primitive's own vertices ([`props_anim::Lod`]), so
//! each primitive of a level's mesh is matched to the full mesh's (the same material, else the
//! same place among them) and its vertices are appended to it; a primitive the level has no
//! match for is not drawn at that level. A level's error (what the renderer picks levels by)
//! is the one that spans a pixel at the level's coverage on a 1920x1080 screen, or, without a
//! coverage, the largest distance between its surface and the full one's, measured.
//!
//! The listed nodes are not drawn on their own, and their meshes are emptied when no drawn
//! node has them (memory follows what is drawn). What cannot be read (an id that is no node,
//! a node without a mesh or with another skin, a coverage that is not a falling list of one
//! share per level) is ignored with a warning, at the finest grain: a bad id loses its level,
//! a bad coverage its errors (they are measured instead). A primitive without file levels gets
//! the levels made at import ([`crate::lods`]).

use glam::{Vec3, Vec4};
use gltf::json::Root;
use props_anim::{Influences, Lod, Mesh, MeshInstance, Model, Primitive, Topology};

use crate::error::{ImportError, Warnings, warn};
use crate::limits::Budget;

/// The extension's name.
pub(crate) const EXTENSION: &str = "MSFT_lod";
/// The screen a coverage is turned into an error for: a level's error spans a pixel there at
/// the coverage the file gives (and on a larger screen, a little farther away).
const SCREEN_PIXELS: f32 = 1920.0 * 1080.0;
/// Most point-to-triangle distances measured per level: larger meshes measure a spread sample
/// of their vertices.
const MAX_MEASURED: usize = 4_000_000;

/// A node's levels as the file gives them.
#[derive(Clone, Debug, PartialEq)]
struct Chain {
    /// The node with the extension (glTF index).
    node: usize,
    /// The nodes of its coarser levels, finest first.
    levels: Vec<usize>,
    /// Per coarser level, the share of the screen below which it takes over; then, if the file
    /// gives one, the share below which nothing is drawn. `None`: measure the errors.
    coverage: Option<Vec<f32>>,
}

/// Every node's levels in a file.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FileLods {
    chains: Vec<Chain>,
}

impl FileLods {
    /// Reads the extension on every node, warning about what it ignores.
    pub(crate) fn read(root: &Root, warnings: &mut Warnings) -> Self {
        let chains = root.nodes.iter().enumerate().filter_map(|(n, node)| {
            let extension = node.extensions.as_ref()?.others.get(EXTENSION)?;
            let at = format!("nodes[{n}].extensions.{EXTENSION}");
            if node.mesh.is_none() {
                warn(warnings, at, "ignored: the node has no mesh to draw at coarser levels");
                return None;
            }
            let levels = read_ids(root, n, extension, &at, warnings);
            let listed = extension.get("ids").and_then(|ids| ids.as_array()).map_or(0, Vec::len);
            let mut coverage = coverage(node.extras.as_deref(), listed, n, warnings);
            if coverage.is_some() && levels.len() < listed {
                let message = "ignored, the levels' errors are measured: a level was ignored, so the shares no longer match the levels";
                warn(warnings, format!("nodes[{n}].extras.MSFT_screencoverage"), message);
                coverage = None;
            }
            (!levels.is_empty()).then_some(Chain { node: n, levels, coverage })
        });
        Self { chains: chains.collect() }
    }

    /// Whether the file gives levels of its own (then the model gets no impostor: the file
    /// says what is drawn far away, nothing included).
    pub(crate) fn any(&self) -> bool {
        !self.chains.is_empty()
    }

    /// Whether each of `nodes` glTF nodes is some node's coarser level (so is not drawn on its
    /// own), by index.
    pub(crate) fn levels_of(&self, nodes: usize) -> Vec<bool> {
        let mut level = vec![false; nodes];
        for node in self.level_nodes() {
            if let Some(flag) = level.get_mut(node) {
                *flag = true;
            }
        }
        level
    }

    /// The nodes of every chain's coarser levels (glTF indices).
    pub(crate) fn level_nodes(&self) -> impl Iterator<Item = usize> + '_ {
        self.chains.iter().flat_map(|chain| chain.levels.iter().copied())
    }

    /// Gives the primitives of each chain's mesh their file levels, appending the levels'
    /// vertices to them and charging those to `budget`; then empties the meshes only levels
    /// have (none of `instances` draws them).
    pub(crate) fn apply(
        &self,
        root: &Root,
        meshes: &mut [Mesh],
        instances: &[MeshInstance],
        budget: &Budget,
    ) -> Result<(), ImportError> {
        let mesh_of = |node: usize| root.nodes.get(node).and_then(|n| n.mesh).map(|m| m.value());
        for chain in &self.chains {
            let Some(full) = mesh_of(chain.node).filter(|&m| m < meshes.len()) else { continue };
            if meshes[full].primitives.iter().any(|p| !p.lods.is_empty()) {
                continue; // Another node with the same mesh gave its levels first.
            }
            let levels: Vec<Mesh> = chain
                .levels
                .iter()
                .map(|&n| mesh_of(n).and_then(|m| meshes.get(m)).cloned())
                .collect::<Option<_>>()
                .unwrap_or_default();
            // Each level's primitive is appended to one of the full mesh's at most: charged
            // before any is.
            let appended: usize = levels.iter().flat_map(|mesh| &mesh.primitives).map(bytes).sum();
            budget.charge(appended as u64, &format!("nodes[{}].extensions.{EXTENSION}", chain.node))?;
            let radius = radius(&meshes[full]);
            let errors = chain.coverage.as_ref().map(|coverage| coverage_errors(coverage, radius));
            for (p, primitive) in meshes[full].primitives.iter_mut().enumerate() {
                if primitive.topology == Topology::Triangles {
                    primitive.lods = chain_of(primitive, p, &levels, errors.as_deref());
                }
            }
        }
        let mut drawn = vec![false; meshes.len()];
        for instance in instances {
            if let Some(flag) = drawn.get_mut(instance.mesh as usize) {
                *flag = true;
            }
        }
        for level in self.level_nodes() {
            let Some(mesh) = mesh_of(level) else { continue };
            if !drawn.get(mesh).copied().unwrap_or(true)
                && let Some(mesh) = meshes.get_mut(mesh)
            {
                mesh.primitives.clear();
            }
        }
        Ok(())
    }
}

/// The nodes a node's extension lists that can be its levels (each a mesh's node with its
/// skin, none listed twice, at most [`Model::MAX_LOD_LEVELS`] - 1), warning of the others.
fn read_ids(root: &Root, n: usize, extension: &serde_json::Value, at: &str, warnings: &mut Warnings) -> Vec<usize> {
    let Some(ids) = extension.get("ids").and_then(|ids| ids.as_array()) else {
        warn(warnings, format!("{at}.ids"), "ignored: `ids` must be an array of node indices");
        return Vec::new();
    };
    let skin = root.nodes[n].skin.map(|s| s.value());
    let mut levels: Vec<usize> = Vec::new();
    for (k, id) in ids.iter().enumerate() {
        let at = format!("{at}.ids[{k}]");
        let node = id.as_u64().and_then(|i| usize::try_from(i).ok()).filter(|&i| i < root.nodes.len());
        let problem = match node.map(|i| &root.nodes[i]) {
            None => Some("not a node's index"),
            Some(_) if node == Some(n) || levels.contains(&node.unwrap_or(n)) => Some("listed twice"),
            Some(level) if level.mesh.is_none() => Some("the node has no mesh"),
            Some(level) if level.skin.map(|s| s.value()) != skin => {
                Some("the node is skinned otherwise than the full level's (a level must move with its joints)")
            }
            Some(_) if levels.len() + 1 >= Model::MAX_LOD_LEVELS => Some("a model draws at most eight levels"),
            Some(_) => None,
        };
        match (problem, node) {
            (None, Some(node)) => levels.push(node),
            (problem, _) => warn(warnings, at, format!("level ignored: {}", problem.unwrap_or("unreadable"))),
        }
    }
    levels
}

/// The node's `extras.MSFT_screencoverage` for `levels` coarser levels, if it is a falling
/// list of shares (one per level, and perhaps one more below which nothing is drawn).
fn coverage(
    extras: Option<&serde_json::value::RawValue>,
    levels: usize,
    n: usize,
    warnings: &mut Warnings,
) -> Option<Vec<f32>> {
    let extras: serde_json::Value = serde_json::from_str(extras?.get()).ok()?;
    let value = extras.get("MSFT_screencoverage")?;
    let shares: Option<Vec<f32>> = value.as_array()?.iter().map(|v| v.as_f64().map(|v| v as f32)).collect();
    let good = shares.as_ref().is_some_and(|shares| {
        (shares.len() == levels || shares.len() == levels + 1)
            && shares.iter().all(|s| s.is_finite() && *s >= 0.0)
            && shares.windows(2).all(|w| w[1] <= w[0])
    });
    if !good {
        let at = format!("nodes[{n}].extras.MSFT_screencoverage");
        let message = format!(
            "ignored, the levels' errors are measured: it must be {levels} or {} falling shares of the screen, one per level and the one below which nothing is drawn",
            levels + 1
        );
        warn(warnings, at, message);
        return None;
    }
    shares
}

/// Each coarser level's error for `coverage`, the mesh's bounding sphere of `radius`: the
/// sphere's radius over its radius in pixels at that coverage of a 1920x1080 screen (an error
/// that spans a pixel there). A share of 0 is never reached: the list ends before it.
fn coverage_errors(coverage: &[f32], radius: f32) -> Vec<f32> {
    let error = |share: f32| radius * (std::f32::consts::PI / (share * SCREEN_PIXELS)).sqrt();
    coverage.iter().take_while(|&&share| share > 0.0).map(|&share| error(share)).take_while(|e| e.is_finite()).collect()
}

/// Primitive `p`'s levels from `levels` (its mesh's coarser levels; their vertices appended to
/// it), with `errors` (one per level reached, and perhaps a last for the empty level below the
/// coverage where nothing is drawn) or measured ones; errors never fall from level to level.
fn chain_of(primitive: &mut Primitive, p: usize, levels: &[Mesh], errors: Option<&[f32]>) -> Vec<Lod> {
    let full = primitive.clone();
    let mut lods = Vec::new();
    let mut used: Vec<Vec<bool>> = levels.iter().map(|mesh| vec![false; mesh.primitives.len()]).collect();
    let reached = errors.map_or(levels.len(), |e| e.len().min(levels.len()));
    for (k, mesh) in levels.iter().enumerate().take(reached) {
        let matched = matching(&full, p, mesh, &used[k]);
        let (indices, measured) = match matched.and_then(|q| Some((q, append(primitive, &mesh.primitives[q])?))) {
            Some((q, offset)) => {
                used[k][q] = true;
                let level = &mesh.primitives[q];
                let measured = errors.is_none().then(|| surface_distance(&full, level));
                (level.indices.iter().map(|&i| i + offset).collect(), measured)
            }
            // Not drawn at this level: its error is its size (gone once that is a pixel).
            None => (Vec::new(), errors.is_none().then(|| crate::lods::size(&full))),
        };
        lods.push(Lod { indices, error: errors.map_or(measured.unwrap_or(0.0), |e| e[k]) });
    }
    if let Some(&cull) = errors.and_then(|e| e.get(levels.len())) {
        lods.push(Lod { indices: Vec::new(), error: cull });
    }
    let mut floor = 0.0f32;
    for lod in &mut lods {
        floor = floor.max(lod.error);
        lod.error = floor;
    }
    // A level whose error cannot be measured (a mesh spanning more than a float holds) and
    // those past it are not drawn: the finer ones are.
    let measured = lods.iter().take_while(|lod| lod.error.is_finite()).count();
    lods.truncate(measured);
    lods
}

/// The primitive of `mesh` (a level) that stands for the full mesh's primitive `p`: the first
/// not yet `used` with the same material and topology, else the one in the same place.
fn matching(full: &Primitive, p: usize, mesh: &Mesh, used: &[bool]) -> Option<usize> {
    let fits = |q: &usize| !used[*q] && mesh.primitives[*q].topology == Topology::Triangles;
    let same_material = (0..mesh.primitives.len()).filter(fits).find(|&q| mesh.primitives[q].material == full.material);
    same_material.or_else(|| Some(p).filter(|q| *q < mesh.primitives.len()).filter(fits))
}

/// Appends `level`'s vertices to `primitive` (what it lacks of `primitive`'s attributes set to
/// their defaults: no texture coordinates, white, no morph), returning where they start; `None`
/// (nothing appended) when one is skinned and the other is not.
fn append(primitive: &mut Primitive, level: &Primitive) -> Option<u32> {
    if primitive.influences.is_some() != level.influences.is_some() {
        return None;
    }
    let (offset, n) = (primitive.vertex_count(), level.vertex_count());
    let offset32 = u32::try_from(offset).ok()?;
    u32::try_from(offset + n).ok()?;
    primitive.positions.extend_from_slice(&level.positions);
    extend(&mut primitive.normals, &level.normals, n, Vec3::Y);
    extend(&mut primitive.uv0, &level.uv0, n, glam::Vec2::ZERO);
    extend(&mut primitive.uv1, &level.uv1, n, glam::Vec2::ZERO);
    extend(&mut primitive.tangents, &level.tangents, n, Vec4::new(1.0, 0.0, 0.0, 1.0));
    extend(&mut primitive.colors, &level.colors, n, Vec4::ONE);
    if let (Some(influences), Some(theirs)) = (primitive.influences.as_mut(), level.influences.as_ref()) {
        append_influences(influences, offset, theirs, n);
    }
    for (k, target) in primitive.morph_targets.iter_mut().enumerate() {
        let theirs = level.morph_targets.get(k);
        extend(&mut target.positions, theirs.map_or(&[][..], |t| &t.positions), n, Vec3::ZERO);
        extend(&mut target.normals, theirs.map_or(&[][..], |t| &t.normals), n, Vec3::ZERO);
    }
    Some(offset32)
}

/// Extends a per-vertex attribute `mine` (if the primitive has it) by `theirs` for `n`
/// vertices, or `default` where they lack it.
fn extend<T: Copy>(mine: &mut Vec<T>, theirs: &[T], n: usize, default: T) {
    if mine.is_empty() {
        return;
    }
    if theirs.len() == n {
        mine.extend_from_slice(theirs);
    } else {
        mine.extend(std::iter::repeat_n(default, n));
    }
}

/// Appends `theirs` (of `n` vertices) to `mine` (of `vertices`), extra influences included.
fn append_influences(mine: &mut Influences, vertices: usize, theirs: &Influences, n: usize) {
    mine.joints.extend_from_slice(&theirs.joints);
    mine.weights.extend_from_slice(&theirs.weights);
    mine.sets = mine.sets.max(theirs.sets);
    if mine.extra_start.is_empty() && theirs.extra_start.is_empty() {
        return;
    }
    if mine.extra_start.is_empty() {
        mine.extra_start = vec![0; vertices + 1];
    }
    let base = mine.extra.len() as u32;
    let start = |v: usize| theirs.extra_start.get(v).copied().unwrap_or(0);
    mine.extra_start.extend((1..=n).map(|v| base + start(v)));
    mine.extra.extend_from_slice(&theirs.extra);
}

/// Bytes of a primitive's vertices and indices, as charged to the import's budget.
fn bytes(primitive: &Primitive) -> usize {
    let influences = primitive.influences.as_ref().map_or(0, |i| {
        size_of_val(i.joints.as_slice())
            + size_of_val(i.weights.as_slice())
            + size_of_val(i.extra.as_slice())
            + size_of_val(i.extra_start.as_slice())
    });
    let targets: usize = primitive
        .morph_targets
        .iter()
        .map(|t| size_of_val(t.positions.as_slice()) + size_of_val(t.normals.as_slice()))
        .sum();
    size_of_val(primitive.positions.as_slice())
        + size_of_val(primitive.normals.as_slice())
        + size_of_val(primitive.uv0.as_slice())
        + size_of_val(primitive.uv1.as_slice())
        + size_of_val(primitive.tangents.as_slice())
        + size_of_val(primitive.colors.as_slice())
        + influences
        + targets
        + size_of_val(primitive.indices.as_slice())
}

/// Half the diagonal of the box around a mesh's positions.
fn radius(mesh: &Mesh) -> f32 {
    0.5 * crate::lods::diagonal(mesh.primitives.iter().flat_map(|p| &p.positions))
}

/// The largest distance between two triangle surfaces, each vertex of either to the other
/// (a spread sample of the vertices where the pairs would be more than [`MAX_MEASURED`]).
fn surface_distance(a: &Primitive, b: &Primitive) -> f32 {
    one_way(a, b).max(one_way(b, a))
}

/// The largest distance from `from`'s vertices (those its triangles use) to `to`'s triangles.
fn one_way(from: &Primitive, to: &Primitive) -> f32 {
    let triangles: Vec<[Vec3; 3]> = to
        .indices
        .chunks_exact(3)
        .filter_map(|t| {
            Some([
                *to.positions.get(t[0] as usize)?,
                *to.positions.get(t[1] as usize)?,
                *to.positions.get(t[2] as usize)?,
            ])
        })
        .collect();
    if triangles.is_empty() {
        return 0.0;
    }
    let mut used = vec![false; from.vertex_count()];
    for &i in &from.indices {
        if let Some(flag) = used.get_mut(i as usize) {
            *flag = true;
        }
    }
    let vertices: Vec<Vec3> = from.positions.iter().zip(&used).filter(|(_, used)| **used).map(|(p, _)| *p).collect();
    let step = (vertices.len() * triangles.len()).div_ceil(MAX_MEASURED).max(1);
    vertices
        .iter()
        .step_by(step)
        .map(|&p| triangles.iter().map(|t| closest_on_triangle(p, t).distance_squared(p)).fold(f32::INFINITY, f32::min))
        .fold(0.0f32, f32::max)
        .sqrt()
}

/// The point of triangle `t` closest to `p` (by the triangle's Voronoi regions).
fn closest_on_triangle(p: Vec3, [a, b, c]: &[Vec3; 3]) -> Vec3 {
    let (ab, ac, ap) = (*b - *a, *c - *a, p - *a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - *b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return *a + ab * (d1 / (d1 - d3));
    }
    let cp = p - *c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return *a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return *b + (*c - *b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denominator = va + vb + vc;
    if denominator.abs() <= f32::MIN_POSITIVE {
        return *a; // A degenerate triangle: its corner will do.
    }
    let (v, w) = (vb / denominator, vc / denominator);
    *a + ab * v + ac * w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_point_is_on_the_triangle() {
        let t = [Vec3::ZERO, Vec3::X, Vec3::Y];
        assert_eq!(closest_on_triangle(Vec3::new(0.25, 0.25, 2.0), &t), Vec3::new(0.25, 0.25, 0.0));
        assert_eq!(closest_on_triangle(Vec3::new(-1.0, -1.0, 0.0), &t), Vec3::ZERO);
        assert_eq!(closest_on_triangle(Vec3::new(2.0, -1.0, 0.0), &t), Vec3::X);
        assert_eq!(closest_on_triangle(Vec3::new(0.5, -1.0, 0.0), &t), Vec3::new(0.5, 0.0, 0.0));
        assert!(closest_on_triangle(Vec3::new(1.0, 1.0, 0.0), &t).distance(Vec3::new(0.5, 0.5, 0.0)) < 1e-6);
    }

    /// A share `c` of a 1920x1080 screen is a disc of radius sqrt(c * pixels / pi) pixels: the
    /// error is the sphere's radius over that.
    #[test]
    fn a_coverage_becomes_the_error_a_pixel_spans_there() {
        let errors = coverage_errors(&[0.5, 0.1, 0.0], 2.0);
        let pixels = |share: f32| (share * 1920.0 * 1080.0 / std::f32::consts::PI).sqrt();
        assert!((errors[0] - 2.0 / pixels(0.5)).abs() < 1e-6);
        assert!((errors[1] - 2.0 / pixels(0.1)).abs() < 1e-6);
        assert!(errors[1] > errors[0], "smaller shares, larger errors");
        assert_eq!(errors.len(), 2, "a share of 0 is never reached");
    }
}
