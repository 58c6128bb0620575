//! Bounds of a model: conservative ones over every pose it can take ([`PoseBounds`]: any clip
//! at any time, any blend of clips, procedural rotations of any node; computed once, from the
//! rest transforms, the keyframes, the skins and the meshes, with no sampling), and the box its
//! vertices fill, sampled ([`Extent`]).
//!
//! Every transform is bounded by its size: the operator norm of its linear part and the length
//! of its translation. Sizes compose along the hierarchy (`world = parent * local`:
//! `linear = p.linear * l.linear`, `translation = p.translation + p.linear * l.translation`),
//! and a node's local size is bounded over all its poses: its translation by the largest key
//! (a linear interpolation stays between its keys; a cubic spline overshoots by at most 4/27 of
//! each tangent times its key interval), its scale likewise, its rotation by the largest norm a
//! stored quaternion gives (`|1 - |q|²| + |q|²`: 1 for a unit quaternion; slerp and normalized
//! lerp stay within). A vertex's distance from the model's origin is then at most
//! `sum |w| * (linear * |p| + translation)` over its joints' palettes, with `|p|` the morphed
//! position's largest length under the largest morph weights.
//!
//! Two uses: the gate refuses a model some pose of which could overflow `f32` (so posing and
//! skinning never produce infinities or NaN), and culling needs a sphere no pose leaves.

pub use crate::extent::Extent;

use glam::{Affine3A, DVec3, DVec4, Quat, Vec3};

use crate::clip::Keyframes;
use crate::clip::interpolate::Interpolation;
use crate::model::Model;
use crate::node_id::NodeId;
use crate::transform::RestTransform;

/// A bound on an affine transform: the operator norm of its linear part and the length of its
/// translation. In `f64`, so that the bound itself cannot overflow where `f32` would.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Size {
    linear: f64,
    translation: f64,
}

impl Size {
    /// The size of `self * local`.
    fn then(self, local: Size) -> Size {
        Size { linear: self.linear * local.linear, translation: self.translation + self.linear * local.translation }
    }

    /// Bound of the distance from the origin of a point at most `radius` from it, transformed.
    fn reach(self, radius: f64) -> f64 {
        self.linear * radius + self.translation
    }

    /// The size of a fixed affine matrix (Frobenius norm of the linear part: an upper bound of
    /// the operator norm).
    fn of_affine(m: &Affine3A) -> Size {
        let linear = [m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis]
            .iter()
            .map(|&c| Vec3::from(c).as_dvec3().length_squared())
            .sum::<f64>()
            .sqrt();
        Size { linear, translation: length64(m.translation) }
    }
}

/// The operator norm bound of the rotation matrix a stored quaternion gives: glam's formula on
/// `q = s u` (unit `u`) is `(1 - s²) I + s² R(u)`.
fn rotation_norm(q: Quat) -> f64 {
    let s2 = DVec4::from_array(q.to_array().map(f64::from)).length_squared();
    (1.0 - s2).abs() + s2
}

/// The larger of two bounds, NaN if either is (`f64::max` drops a NaN, which would let a
/// vertex whose bound is not a number escape the bound).
fn max_or_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() { f64::NAN } else { a.max(b) }
}

/// A vector's length in `f64` (in `f32`, components past 1.8e19 square to infinity).
fn length64(v: impl Into<Vec3>) -> f64 {
    v.into().as_dvec3().length()
}

/// `m` applied to `p`, in `f64`.
fn transform64(m: &Affine3A, p: Vec3) -> DVec3 {
    let [x, y, z] = [m.matrix3.x_axis, m.matrix3.y_axis, m.matrix3.z_axis].map(|c| Vec3::from(c).as_dvec3());
    let p = p.as_dvec3();
    x * p.x + y * p.y + z * p.z + Vec3::from(m.translation).as_dvec3()
}

/// The largest absolute component-wise length over a node's poses of one animated property.
#[derive(Clone, Copy, Debug, Default)]
struct Local {
    translation: f64,
    scale: f64,
    rotation: f64,
}

/// `max |v|` over a channel's values and its cubic overshoot: per segment, `4/27` of each
/// tangent's length times the key interval.
fn channel_bound<T: Copy>(times: &[f32], values: &[T], interpolation: Interpolation, length: impl Fn(T) -> f64) -> f64 {
    if interpolation != Interpolation::CubicSpline {
        return values.iter().map(|&v| length(v)).fold(0.0, max_or_nan);
    }
    let key = |k: usize, part: usize| values.get(3 * k + part).map_or(0.0, |&v| length(v));
    let mut bound = (0..times.len()).map(|k| key(k, 1)).fold(0.0, max_or_nan);
    let overshoot = (0..times.len().saturating_sub(1))
        .map(|k| 4.0 / 27.0 * f64::from(times[k + 1] - times[k]) * (key(k, 2) + key(k + 1, 0)))
        .fold(0.0, max_or_nan);
    bound += overshoot;
    bound
}

/// The largest length of a scale vector's components.
fn scale_length(s: Vec3) -> f64 {
    f64::from(s.abs().max_element())
}

/// Bounds of a model over every pose it can take (any clip at any time, any blend of clips,
/// procedural rotations), from [`Model::pose_bounds`]: every transform bounded by the norm of
/// its linear part and the length of its translation, composed along the hierarchy; local
/// transforms bounded over all their keys (cubic overshoot included) and stored quaternions'
/// norms; vertices by their weights (divided by their sum where it is not 1, as the GPU
/// draws them), joints and largest morphs.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseBounds {
    /// No vertex of any mesh instance, in any pose, lies farther than this from the model's
    /// origin (model units; `f64::INFINITY` when the bound itself overflows).
    pub radius: f64,
    /// Per rig node: how far from the model's origin any point within one unit of the node
    /// can be, in any pose (the node's world size reaching one unit).
    pub node_reach: Vec<f64>,
    /// The mesh whose vertices reach farthest (the one that sets [`PoseBounds::radius`]).
    pub farthest_mesh: Option<u32>,
}

impl PoseBounds {
    /// The first node (in rig order) that can reach farther than `limit`, if any.
    #[must_use]
    pub fn first_node_beyond(&self, limit: f64) -> Option<NodeId> {
        self.node_reach.iter().position(|&r| r > limit || r.is_nan()).map(|i| NodeId(i as u32))
    }
}

impl Model {
    /// The largest absolute value each morph weight takes in any pose: its default, every
    /// clip's keys, a cubic spline's overshoot. Flat, in the order of
    /// [`crate::Pose::all_morph_weights`] (a node's at its [`crate::Rig::morph_range`]).
    #[must_use]
    pub fn largest_morph_weights(&self) -> Vec<f64> {
        let rig = self.rig();
        let mut weights: Vec<f64> = rig.morph_defaults().iter().map(|w| f64::from(w.abs())).collect();
        for channel in self.clips().iter().flat_map(|clip| clip.channels()) {
            if let Keyframes::MorphWeights { width, values } = channel.keyframes() {
                let (times, interpolation) = (channel.keys().times(), channel.keys().interpolation());
                let of_node = &mut weights[rig.morph_range(channel.node())];
                widen_weights(of_node, times, interpolation, *width, values);
            }
        }
        weights
    }

    /// Conservative bounds of every pose of the model: how the bound is taken is in
    /// [`PoseBounds`]'s documentation.
    #[must_use]
    pub fn pose_bounds(&self) -> PoseBounds {
        let rig = self.rig();
        // Local sizes: the rest transform, widened by every channel on the node.
        let mut locals: Vec<Option<Local>> = rig
            .nodes()
            .map(|node| match rig.rest(node) {
                RestTransform::Trs(trs) => Some(Local {
                    translation: length64(trs.translation),
                    scale: scale_length(trs.scale),
                    rotation: rotation_norm(trs.rotation),
                }),
                RestTransform::Matrix(_) => None,
            })
            .collect();
        let weights = self.largest_morph_weights();
        for channel in self.clips().iter().flat_map(|clip| clip.channels()) {
            let (times, interpolation) = (channel.keys().times(), channel.keys().interpolation());
            let node = channel.node().index();
            // Matrix nodes are never animated (clips are validated).
            let Some(local) = locals.get_mut(node).and_then(Option::as_mut) else { continue };
            match channel.keyframes() {
                Keyframes::Translation(v) => {
                    let bound = channel_bound(times, v, interpolation, length64);
                    local.translation = local.translation.max(bound);
                }
                Keyframes::Scale(v) => {
                    local.scale = local.scale.max(channel_bound(times, v, interpolation, scale_length));
                }
                Keyframes::Rotation(q) => {
                    // Cubic rotations are normalized after interpolation.
                    let bound = if interpolation == Interpolation::CubicSpline {
                        1.0
                    } else {
                        q.iter().map(|&q| rotation_norm(q)).fold(1.0, f64::max)
                    };
                    local.rotation = local.rotation.max(bound);
                }
                Keyframes::MorphWeights { .. } => {}
            }
        }
        let mut world: Vec<Size> = Vec::with_capacity(rig.len());
        for node in rig.nodes() {
            let local = match (&locals[node.index()], rig.rest(node)) {
                (Some(l), _) => Size { linear: l.rotation * l.scale, translation: l.translation },
                (None, rest) => Size::of_affine(&rest.to_affine()),
            };
            let size = match rig.parent(node) {
                Some(parent) => world[parent.index()].then(local),
                None => local,
            };
            world.push(size);
        }
        let node_reach = world.iter().map(|size| size.reach(1.0)).collect();
        // Per palette joint: its world size and its inverse bind matrix (applied exactly to
        // each vertex, so that a vertex near its joint counts as near).
        let joints: Vec<(Size, Affine3A)> = self
            .skins()
            .iter()
            .flat_map(|skin| skin.joints().iter().zip(skin.inverse_bind_matrices()))
            .map(|(joint, inverse_bind)| (world[joint.index()], *inverse_bind))
            .collect();
        let (mut radius, mut farthest_mesh): (f64, Option<u32>) = (0.0, None);
        for instance in self.instances() {
            let node_weights = &weights[rig.morph_range(instance.node)];
            for primitive in &self.meshes()[instance.mesh as usize].primitives {
                // How far the largest morphs can move each vertex.
                let morph = |v: usize| -> f64 {
                    let targets = primitive.morph_targets.iter().zip(node_weights);
                    targets.map(|(target, w)| w * target.positions.get(v).map_or(0.0, |&d| length64(d))).sum()
                };
                let extent = match (instance.skin, &primitive.influences) {
                    (Some(skin), Some(influences)) => {
                        let skin_joints = &joints[self.palette_range(skin)];
                        primitive
                            .positions
                            .iter()
                            .enumerate()
                            .map(|(v, &p)| {
                                let moved = morph(v);
                                let reach = influences
                                    .of_vertex(v)
                                    .map(|(j, w)| {
                                        let Some((size, inverse_bind)) = skin_joints.get(j as usize) else {
                                            return 0.0;
                                        };
                                        // The vertex in the joint's space, morphs included.
                                        let local = transform64(inverse_bind, p).length()
                                            + Size::of_affine(inverse_bind).linear * moved;
                                        f64::from(w.abs()) * size.reach(local)
                                    })
                                    .sum::<f64>();
                                // As the GPU divides by the weights' sum where it is not 1 (a
                                // file's lone 0.5 is a whole influence there).
                                let sum: f32 = influences.of_vertex(v).map(|(_, w)| w).sum();
                                if sum > 0.0 && sum != 1.0 { reach / f64::from(sum) } else { reach }
                            })
                            .fold(0.0, max_or_nan)
                    }
                    _ => {
                        let reach = (0..primitive.positions.len())
                            .map(|v| length64(primitive.positions[v]) + morph(v))
                            .fold(0.0, max_or_nan);
                        world[instance.node.index()].reach(reach)
                    }
                };
                if extent > radius || extent.is_nan() {
                    (radius, farthest_mesh) = (extent, Some(instance.mesh));
                }
            }
        }
        if radius.is_nan() {
            radius = f64::INFINITY;
        }
        PoseBounds { radius, node_reach, farthest_mesh }
    }
}

/// Widens per-target weight bounds by a weights channel (`width` weights per element).
fn widen_weights(bounds: &mut [f64], times: &[f32], interpolation: Interpolation, width: usize, values: &[f32]) {
    let width = width.max(1);
    for (target, bound) in bounds.iter_mut().enumerate() {
        let of_target: Vec<f32> = values.iter().skip(target).step_by(width).copied().collect();
        *bound = bound.max(channel_bound(times, &of_target, interpolation, |w: f32| f64::from(w.abs())));
    }
}
