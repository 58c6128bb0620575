//! A model's palette factored around a few driven nodes, for props that are many and only
//! move through those nodes (windmills: `nacelle` and `hub`).
//!
//! Every other node keeps its rest transform, so each palette matrix is a constant, or the
//! world matrix of one driven node times a constant (the rest chain below it, times the inverse
//! bind matrix for a joint). Writing a palette then costs one multiply per driven node and per
//! moving entry, instead of a full pose: no per-instance pose to store, hierarchy to walk or
//! rest transforms to rebuild. The result equals `Model::write_palettes` of the corresponding
//! pose up to float rounding (the products are associated differently).

use glam::Affine3A;
use props_anim::{JointMatrix, Model, NodeId};

/// A matrix hanging from driven node `anchor` (its world matrix times `matrix`), or fixed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    anchor: Option<usize>,
    matrix: Affine3A,
}

impl Entry {
    fn resolve(&self, driven_world: &[Affine3A]) -> Affine3A {
        match self.anchor {
            Some(k) => driven_world[k] * self.matrix,
            None => self.matrix,
        }
    }
}

/// The factored palette of a model with `N` driven nodes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FactoredPalette<const N: usize> {
    /// Driven node indices in rig order (parents first): the evaluation order.
    order: [usize; N],
    /// Per driven node: its parent's world matrix as an entry.
    parents: [Entry; N],
    /// Per palette matrix, in `Model::write_palettes` order.
    entries: Vec<Entry>,
}

impl<const N: usize> FactoredPalette<N> {
    /// Factors `model`'s palette around `driven` (distinct nodes of its rig).
    pub fn new(model: &Model, driven: [NodeId; N]) -> Self {
        let rig = model.rig();
        let mut relative: Vec<Entry> = Vec::with_capacity(rig.len());
        for node in rig.nodes() {
            let entry = match driven.iter().position(|d| *d == node) {
                Some(k) => Entry { anchor: Some(k), matrix: Affine3A::IDENTITY },
                None => {
                    let local = rig.rest_matrix(node);
                    match rig.parent(node) {
                        Some(parent) => {
                            let above = relative[parent.index()];
                            Entry { anchor: above.anchor, matrix: above.matrix * local }
                        }
                        None => Entry { anchor: None, matrix: local },
                    }
                }
            };
            relative.push(entry);
        }
        let parents = driven
            .map(|d| rig.parent(d).map_or(Entry { anchor: None, matrix: Affine3A::IDENTITY }, |p| relative[p.index()]));
        let mut order: [usize; N] = std::array::from_fn(|k| k);
        order.sort_by_key(|&k| driven[k]);
        let joints = model.skins().iter().flat_map(|skin| skin.joints().iter().zip(skin.inverse_bind_matrices()));
        let entries = joints
            .map(|(joint, inverse_bind)| {
                let e = relative[joint.index()];
                Entry { anchor: e.anchor, matrix: e.matrix * *inverse_bind }
            })
            .chain(model.instances().iter().map(|instance| relative[instance.node.index()]))
            .collect();
        Self { order, parents, entries }
    }

    /// Matrices written by [`FactoredPalette::write`] (the model's palette length).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Writes the palette for the driven nodes' local matrices `locals` into `out` (of length
    /// [`FactoredPalette::len`]).
    pub fn write(&self, locals: [Affine3A; N], out: &mut [JointMatrix]) {
        let mut world = [Affine3A::IDENTITY; N];
        for &k in &self.order {
            world[k] = self.parents[k].resolve(&world) * locals[k];
        }
        for (out, entry) in out.iter_mut().zip(&self.entries) {
            *out = JointMatrix::from_affine(&entry.resolve(&world));
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::{Quat, Vec3};
    use props_anim::{Pose, Transform};

    use super::*;

    #[test]
    fn equals_the_pose_path() {
        // The skinned synthetic fox exercises joints and inverse binds; the windmill the usual
        // rigid case.
        for model in [crate::synthetic::windmill(), crate::synthetic::fox()] {
            let model = model.expect("synthetic model");
            let rig = model.rig();
            let driven = [NodeId(2), NodeId(1)];
            let factored = FactoredPalette::new(&model, driven);
            assert_eq!(factored.len(), model.palette_len());
            let mut pose = Pose::from_rest(rig);
            let locals = [(2, Quat::from_rotation_z(0.7)), (1, Quat::from_rotation_y(-1.2))].map(|(n, q)| {
                let rest = *rig.rest(NodeId(n)).as_trs().expect("TRS node");
                let local = Transform { rotation: rest.rotation * q, ..rest };
                pose.set_local_transform(NodeId(n), local);
                local.to_affine()
            });
            pose.compute_world(rig);
            let mut expected = vec![JointMatrix::IDENTITY; model.palette_len()];
            model.write_palettes(&pose, &mut expected);
            let mut got = expected.clone();
            factored.write(locals, &mut got);
            for (e, g) in expected.iter().zip(&got) {
                let (e, g) = (e.to_affine(), g.to_affine());
                assert!(e.abs_diff_eq(g, 1e-5), "{e:?} vs {g:?}");
                assert!((e.transform_point3(Vec3::ONE) - g.transform_point3(Vec3::ONE)).length() < 1e-4);
            }
        }
    }
}
