//! [`ClipProgram`]: one clip on one model compiled for evaluating many instances fast, and
//! the per-thread [`Scratch`] it works in.
//!
//! Compiled once: the baked clip ([`crate::baked`]), the nodes to compute in rig order (only
//! those that move, that is animated or below an animated node, and that some palette matrix
//! needs), every constant (rest locals, world matrices of nodes that never move, palette
//! matrices that never change). Per instance only time and, for clips with uneven key times,
//! a key cursor per key group are kept; the palette is written straight into the caller's
//! buffer (the one uploaded), in [`Model::write_palettes`]'s layout. Nothing is allocated per
//! instance or per frame. [`ClipProgram::write_palettes4`] evaluates four instances at once,
//! one per SIMD lane ([`crate::rows4`]), bitwise as [`ClipProgram::write_palette`] would.

use glam::{Quat, Vec3A, Vec4};

use crate::baked::{self, BakedClip, Found, Local4, Property};
use crate::model::Model;
use crate::palette::JointMatrix;
use crate::rig::NodeId;
use crate::rows::Rows;
use crate::rows4::Rows4;
use crate::transform::Transform;

/// Where a moving node's local matrix comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Local {
    /// Animated: local transform slot, and whether its scale is not 1.
    Animated { slot: u32, scaled: bool },
    /// Fixed local matrix (below an animated node).
    Fixed(Rows),
}

/// One node computed per instance: `world[node] = world[parent] * local`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    node: u32,
    parent: Option<u32>,
    local: Local,
}

/// One clip of one model, compiled (see the module documentation). Build once per model and
/// clip (rebuild after a model reload); evaluate with [`ClipProgram::write_palette`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClipProgram {
    clip: BakedClip,
    duration: f32,
    /// Animated nodes' local transforms with their unanimated properties (rest, or a
    /// constant channel's value), by slot.
    base: Vec<Transform>,
    /// Where each track writes: `slot * 3 + property lane` in the scratch's locals.
    track_slots: Vec<u32>,
    /// World matrices of nodes that never move (identity for the others), by rig node.
    fixed_world: Vec<Rows>,
    steps: Vec<Step>,
    /// Palette matrices: `(index, node, matrix)` for moving skin joints, the palette being
    /// `world[node] * matrix` (the joint's inverse bind; for a joint with a fixed local whose
    /// world nothing else needs, `node` is its parent and `matrix` its local times its
    /// inverse bind); `(index, node)` for moving mesh nodes; the rest never change and are in
    /// `constant`.
    joints: Vec<(u32, u32, Rows)>,
    /// The matrices of `joints` in every lane, for [`ClipProgram::write_palettes4`].
    joint_matrices4: Vec<Rows4>,
    nodes: Vec<(u32, u32)>,
    constant: Vec<(u32, JointMatrix)>,
    palette_len: usize,
}

/// Per-thread working memory of a [`ClipProgram`]: local transforms, world matrices and key
/// positions. Made by [`ClipProgram::scratch`], for that program only; reused for every
/// instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Scratch {
    locals: Vec<Local4>,
    world: Vec<Rows>,
    found: Vec<Found>,
    /// For [`ClipProgram::write_palettes4`]: each lane's key positions,
    lane_found: [Vec<Found>; 4],
    /// per animated node the translation, rotation and scale of the four lanes, by component,
    lane_locals: Vec<[[Vec4; 4]; 3]>,
    /// and the four lanes' world matrices, by rig node.
    world4: Vec<Rows4>,
}

impl ClipProgram {
    /// Compiles clip `clip` of `model`.
    ///
    /// # Panics
    /// If `clip` is not a clip index of `model`.
    #[must_use]
    pub fn new(model: &Model, clip: usize) -> Self {
        let rig = model.rig();
        let source = &model.clips()[clip];
        let baked = BakedClip::new(source);
        let mut slot_of: Vec<Option<u32>> = vec![None; rig.len()];
        let mut base: Vec<Transform> = Vec::new();
        let mut scale_animated: Vec<bool> = Vec::new();
        let mut slot = |node: NodeId, base: &mut Vec<Transform>, scaled: &mut Vec<bool>| -> u32 {
            *slot_of[node.index()].get_or_insert_with(|| {
                base.push(rig.rest(node).as_trs().copied().unwrap_or_default());
                scaled.push(false);
                (base.len() - 1) as u32
            })
        };
        let slots: Vec<u32> = baked.tracks().iter().map(|t| slot(t.node, &mut base, &mut scale_animated)).collect();
        for (track, &s) in baked.tracks().iter().zip(&slots) {
            if track.property == Property::Scale {
                scale_animated[s as usize] = true;
            }
        }
        let track_slots = baked.tracks().iter().zip(&slots).map(|(t, &s)| s * 3 + t.property.lane() as u32).collect();
        // Constant channels change the node's local for the whole clip: a moving node's base,
        // or a fixed local below.
        let mut constant_locals: Vec<Option<Transform>> = vec![None; rig.len()];
        for &(node, property, value) in baked.constants() {
            let target = match slot_of[node.index()] {
                Some(s) => &mut base[s as usize],
                None => constant_locals[node.index()]
                    .get_or_insert_with(|| rig.rest(node).as_trs().copied().unwrap_or_default()),
            };
            baked::apply(target, property, value);
        }
        let local_rows = |node: NodeId| match constant_locals[node.index()] {
            Some(trs) => Rows::from_affine(&trs.to_affine()),
            None => Rows::from_affine(&rig.rest_matrix(node)),
        };

        // Which nodes the palette needs (with their ancestors), and which move.
        let joints_used = model.skins().iter().flat_map(|s| s.joints().iter().zip(s.inverse_bind_matrices()));
        let palette_nodes: Vec<NodeId> = model
            .skins()
            .iter()
            .flat_map(|s| s.joints().iter().copied())
            .chain(model.instances().iter().map(|i| i.node))
            .collect();
        let mut needed = vec![false; rig.len()];
        for &node in &palette_nodes {
            let mut at = Some(node);
            while let Some(n) = at.filter(|n| !needed[n.index()]) {
                needed[n.index()] = true;
                at = rig.parent(n);
            }
        }
        let mut moving = vec![false; rig.len()];
        let mut fixed_world = vec![Rows::IDENTITY; rig.len()];
        let mut steps = Vec::new();
        for node in rig.nodes() {
            let parent = rig.parent(node);
            moving[node.index()] = slot_of[node.index()].is_some() || parent.is_some_and(|p| moving[p.index()]);
            if !moving[node.index()] {
                let local = local_rows(node);
                fixed_world[node.index()] = match parent {
                    Some(p) => fixed_world[p.index()].mul(&local),
                    None => local,
                };
            } else if needed[node.index()] {
                let local = match slot_of[node.index()] {
                    Some(s) => {
                        let scaled = scale_animated[s as usize] || base[s as usize].scale != glam::Vec3::ONE;
                        Local::Animated { slot: s, scaled }
                    }
                    None => Local::Fixed(local_rows(node)),
                };
                steps.push(Step { node: node.0, parent: parent.map(|p| p.0), local });
            }
        }
        let (mut joints, mut nodes, mut constant) = (Vec::new(), Vec::new(), Vec::new());
        for (index, (node, inverse_bind)) in (0u32..).zip(joints_used) {
            let inverse_bind = Rows::from_affine(inverse_bind);
            if moving[node.index()] {
                joints.push((index, node.0, inverse_bind));
            } else {
                constant.push((index, fixed_world[node.index()].mul(&inverse_bind).to_joint()));
            }
        }
        for (index, instance) in (model.joint_count() as u32..).zip(model.instances()) {
            let node = instance.node;
            if moving[node.index()] {
                nodes.push((index, node.0));
            } else {
                constant.push((index, fixed_world[node.index()].to_joint()));
            }
        }
        // A joint with a fixed local whose world only its palette matrices need (no step below
        // it, no mesh on it) needs no step: its palette is its parent's world times a constant.
        let mut world_needed = vec![false; rig.len()];
        for node in steps.iter().filter_map(|step| step.parent).chain(nodes.iter().map(|&(_, node)| node)) {
            world_needed[node as usize] = true;
        }
        steps.retain(|step| match (step.local, step.parent) {
            (Local::Fixed(local), Some(parent)) if !world_needed[step.node as usize] => {
                for (_, node, matrix) in joints.iter_mut().filter(|joint| joint.1 == step.node) {
                    (*node, *matrix) = (parent, local.mul(matrix));
                }
                false
            }
            _ => true,
        });
        Self {
            clip: baked,
            duration: source.duration(),
            base,
            track_slots,
            fixed_world,
            steps,
            joint_matrices4: joints.iter().map(|(_, _, matrix)| Rows4::splat(matrix)).collect(),
            joints,
            nodes,
            constant,
            palette_len: model.palette_len(),
        }
    }

    /// Matrices per palette ([`Model::palette_len`]).
    #[must_use]
    pub fn palette_len(&self) -> usize {
        self.palette_len
    }

    /// The clip's duration, seconds.
    #[must_use]
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// Key cursors each instance keeps (one per group of channels with uneven key times; 0
    /// when every group's keys are evenly spaced, so instances keep no state but their time).
    #[must_use]
    pub fn cursor_len(&self) -> usize {
        self.clip.cursor_count()
    }

    /// World matrices computed per instance: the moving nodes whose world a palette matrix or
    /// a moving child needs (a joint with a fixed local and nothing below it needs none).
    #[must_use]
    pub fn moving_nodes(&self) -> usize {
        self.steps.len()
    }

    /// Working memory for [`ClipProgram::write_palette`] (allocates; make one per thread and
    /// keep it).
    #[must_use]
    pub fn scratch(&self) -> Scratch {
        let locals: Vec<Local4> = self.base.iter().map(baked::local4).collect();
        Scratch {
            lane_found: std::array::from_fn(|_| vec![Found::default(); self.clip.group_count()]),
            lane_locals: locals.iter().map(|local| local.map(|v| v.to_array().map(Vec4::splat))).collect(),
            locals,
            world: self.fixed_world.clone(),
            found: vec![Found::default(); self.clip.group_count()],
            world4: self.fixed_world.iter().map(Rows4::splat).collect(),
        }
    }

    /// Writes the palette of one instance at clip time `time` (already wrapped or clamped to
    /// the clip, e.g. by [`crate::PlayMode::wrap`]) into `out`, in [`Model::write_palettes`]'s
    /// layout. `cursors` are the instance's [`ClipProgram::cursor_len`] key cursors (zeros at
    /// first; any values give the same result, only slower). The same result, to float
    /// rounding, as sampling the clip into a rest [`crate::Pose`], computing world matrices
    /// and writing palettes; bitwise the same for the same inputs, whatever thread runs it.
    ///
    /// # Panics
    /// If `out` is not [`ClipProgram::palette_len`] long, `cursors` too short, or `scratch`
    /// was made by another program.
    #[inline]
    pub fn write_palette(&self, time: f32, cursors: &mut [u32], scratch: &mut Scratch, out: &mut [JointMatrix]) {
        assert_eq!(out.len(), self.palette_len, "palette length must equal ClipProgram::palette_len");
        let Scratch { locals, world, found, .. } = scratch;
        self.sample(time, cursors, found, locals);
        for step in &self.steps {
            let local = match step.local {
                Local::Animated { slot, scaled } => {
                    let [t, r, s] = locals[slot as usize];
                    Rows::from_trs(Vec3A::from_vec4(t), Quat::from_vec4(r), Vec3A::from_vec4(s), scaled)
                }
                Local::Fixed(rows) => rows,
            };
            world[step.node as usize] = match step.parent {
                Some(parent) => world[parent as usize].mul(&local),
                None => local,
            };
        }
        for &(index, node, ref matrix) in &self.joints {
            out[index as usize] = world[node as usize].mul(matrix).to_joint();
        }
        for &(index, node) in &self.nodes {
            out[index as usize] = world[node as usize].to_joint();
        }
        for &(index, matrix) in &self.constant {
            out[index as usize] = matrix;
        }
    }

    /// Samples every track at `time` into `locals` (the animated nodes' local transforms).
    #[inline]
    fn sample(&self, time: f32, cursors: &mut [u32], found: &mut [Found], locals: &mut [Local4]) {
        self.clip.find(time, cursors, found);
        let lanes = locals.as_flattened_mut();
        let mut destination = self.track_slots.iter();
        self.clip.evaluate(found, |_, value| {
            if let Some(&d) = destination.next() {
                lanes[d as usize] = value;
            }
        });
    }

    /// [`ClipProgram::write_palette`] for four instances at once, one per SIMD lane (key
    /// search per lane; sampling, hierarchy and palettes four lanes at a time): instance
    /// `instances[k]` at clip time `times[k]`, its cursors at `cursors[i * cursor_len..]` and
    /// its palette at `out[i * palette_len..]` for `i = instances[k]`. Bitwise the same
    /// palettes as four [`ClipProgram::write_palette`] calls.
    ///
    /// # Panics
    /// If an instance's palette or cursors lie outside `out` or `cursors`, or `scratch` was
    /// made by another program.
    #[inline]
    pub fn write_palettes4(
        &self,
        times: [f32; 4],
        instances: [usize; 4],
        cursors: &mut [u32],
        scratch: &mut Scratch,
        out: &mut [JointMatrix],
    ) {
        let Scratch { lane_found, lane_locals, world4, .. } = scratch;
        let cursor_len = self.cursor_len();
        for ((&time, &i), found) in times.iter().zip(&instances).zip(lane_found.iter_mut()) {
            self.clip.find(time, &mut cursors[i * cursor_len..(i + 1) * cursor_len], found);
        }
        let lanes = lane_locals.as_flattened_mut();
        let [f0, f1, f2, f3] = &*lane_found;
        let mut destination = self.track_slots.iter();
        self.clip.evaluate4([f0, f1, f2, f3], |_, values| {
            if let Some(&d) = destination.next() {
                lanes[d as usize] = values;
            }
        });
        for step in &self.steps {
            let local = match step.local {
                Local::Animated { slot, scaled } => {
                    let [t, r, s] = lane_locals[slot as usize];
                    Rows4::from_trs(t, r, s, scaled)
                }
                Local::Fixed(rows) => Rows4::splat(&rows),
            };
            world4[step.node as usize] = match step.parent {
                Some(parent) => world4[parent as usize].mul(&local),
                None => local,
            };
        }
        let [i0, i1, i2, i3] = instances;
        let [i0, i1, i2, i3] =
            [i0 * self.palette_len, i1 * self.palette_len, i2 * self.palette_len, i3 * self.palette_len];
        let at = |index: u32| {
            let index = index as usize;
            [i0 + index, i1 + index, i2 + index, i3 + index]
        };
        for (&(index, node, _), matrix) in self.joints.iter().zip(&self.joint_matrices4) {
            world4[node as usize].mul(matrix).write(at(index), out);
        }
        for &(index, node) in &self.nodes {
            world4[node as usize].write(at(index), out);
        }
        for &(index, matrix) in &self.constant {
            for at in at(index) {
                out[at] = matrix;
            }
        }
    }
}
