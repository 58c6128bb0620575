//! Crowds of animated instances to evaluate each frame.

use std::path::Path;

use glam::{Quat, Vec3};
use props_anim::clip::ClipCursor;
use props_anim::clip::PlayMode;
use props_anim::{
    JointMatrix, Model, ModelParts, NodeId, Pose, RestTransform, Rig, Skin, SourceNode, Transform,
    clip::interpolate::Interpolation,
    clip::{Channel, Clip, Keyframes},
};
use rand_core::{Rng as _, SeedableRng as _};
use rand_xoshiro::SplitMix64;

/// Path of the generated windmill asset (`assets/windmill.glb`: rigid nodes, clip `spin`).
#[must_use]
pub fn windmill_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/windmill.glb")
}

/// Loads the generated windmill (six rigid nodes; clip `spin` turns the hub).
///
/// # Panics
/// If the asset is missing or does not import.
#[must_use]
pub fn windmill() -> Model {
    props_gltf::import_file(&windmill_path(), &props_gltf::Limits::default()).expect("windmill.glb imports").model
}

/// `count` phases in `[0, duration)` from `seed`: SplitMix64, so a seed gives the same
/// workload on every machine.
#[must_use]
pub fn phases(count: usize, duration: f32, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::seed_from_u64(seed);
    // 24 random bits: a uniform float in [0, 1).
    (0..count).map(|_| duration * ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32)).collect()
}

/// Path of Fox.glb in the repository's test models.
#[must_use]
pub fn fox_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/Fox.glb")
}

/// Loads Fox.glb (24 joints, clips Survey / Walk / Run).
///
/// # Panics
/// If the test model is missing or does not import.
#[must_use]
pub fn fox() -> Model {
    props_gltf::import_file(&fox_path(), &props_gltf::Limits::default()).expect("Fox.glb imports").model
}

/// A synthetic rig of `joints` joints: five chains hanging from one root, every joint
/// rotating on a 30-key LINEAR clip (plus a translating root), with one skin over all joints.
///
/// # Panics
/// Never for `joints >= 1` (the construction is valid by design).
#[must_use]
pub fn synthetic(joints: usize) -> Model {
    let chains = 5;
    // Node 0 is the root; node i > 0 hangs from the root (i <= chains) or from node i - chains.
    let parent = |i: usize| i.saturating_sub(chains);
    let nodes: Vec<SourceNode> = (0..joints)
        .map(|i| {
            let children = (1..joints).filter(|&c| parent(c) == i);
            SourceNode {
                name: Some(format!("joint{i}")),
                children: children.map(|c| c as u32).collect(),
                rest: RestTransform::Trs(Transform::from_translation(Vec3::new(0.0, 0.1, 0.0))),
                morph_weights: Vec::new(),
            }
        })
        .collect();
    let rig = Rig::from_source_nodes(&nodes).expect("valid synthetic hierarchy");
    let keys = 30;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 / 30.0).collect();
    let mut channels: Vec<Channel> = rig
        .nodes()
        .map(|node| {
            let rotations =
                (0..keys).map(|k| Quat::from_rotation_x(0.3 * ((k + node.index()) as f32 * 0.4).sin())).collect();
            Channel::new(node, Interpolation::Linear, times.clone(), Keyframes::Rotation(rotations))
                .expect("valid rotation channel")
        })
        .collect();
    let root_path = (0..keys).map(|k| Vec3::new((k as f32 * 0.2).sin(), 0.0, 0.0)).collect();
    channels.push(
        Channel::new(NodeId(0), Interpolation::Linear, times, Keyframes::Translation(root_path))
            .expect("valid translation channel"),
    );
    let clip = Clip::new(Some("wave".into()), channels, &rig).expect("valid clip");
    let rest = Pose::from_rest(&rig);
    let inverse_bind = rig.nodes().map(|n| rest.world_matrix(n).inverse()).collect();
    let skin = Skin::new(None, rig.nodes().collect(), Some(inverse_bind), &rig).expect("valid skin");
    let parts = ModelParts { rig: Some(rig), skins: vec![skin], clips: vec![clip], ..ModelParts::default() };
    Model::new(parts).expect("valid synthetic model")
}

/// What a [`morph_grid`]'s clip does with its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridWeights {
    /// Every weight away from 0 (each a sine of its own phase): the worst case for GPU
    /// morphing, where every target costs every vertex.
    Breathing,
    /// Every weight at 0 (a face at rest): what its targets cost when they move nothing.
    Resting,
}

/// A grid of `side` x `side` quads (one metre, facing +Y) on one node, with `targets` morph
/// targets (each raising a bump of its own, with normal deltas) and a clip `breathe` of
/// 2 s whose weights do as `weights` says.
///
/// # Panics
/// Never for `side >= 1` (the construction is valid by design).
#[must_use]
pub fn morph_grid(side: usize, targets: usize, weights: GridWeights) -> Model {
    let n = side + 1;
    let vertex = |x: usize, z: usize| Vec3::new(x as f32 / side as f32 - 0.5, 0.0, z as f32 / side as f32 - 0.5);
    let positions: Vec<Vec3> = (0..n * n).map(|i| vertex(i % n, i / n)).collect();
    let indices: Vec<u32> = (0..side * side)
        .flat_map(|cell| {
            let (x, z) = ((cell % side) as u32, (cell / side) as u32);
            let at = |dx: u32, dz: u32| (z + dz) * n as u32 + x + dx;
            [at(0, 0), at(0, 1), at(1, 0), at(1, 0), at(0, 1), at(1, 1)]
        })
        .collect();
    let morph_targets = (0..targets)
        .map(|t| {
            let centre = vertex((t * 7) % n, (t * 13) % n);
            let bump = |p: &Vec3| (-(p.distance_squared(centre)) * 20.0).exp() * 0.2;
            props_anim::MorphTarget {
                positions: positions.iter().map(|p| Vec3::Y * bump(p)).collect(),
                normals: positions.iter().map(|p| (*p - centre).with_y(0.0) * bump(p)).collect(),
                colors: Vec::new(),
            }
        })
        .collect();
    let normals = vec![Vec3::Y; positions.len()];
    let primitive =
        props_anim::Primitive { morph_targets, ..props_anim::Primitive::triangles(positions, normals, indices, None) };
    let node = SourceNode {
        name: Some("grid".into()),
        children: Vec::new(),
        rest: RestTransform::Trs(Transform::IDENTITY),
        morph_weights: vec![0.0; targets],
    };
    let rig = Rig::from_source_nodes(&[node]).expect("valid node");
    let keys = 9;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 * 0.25).collect();
    let weight = move |k: usize, t: usize| match weights {
        GridWeights::Breathing => 0.6 + 0.4 * (k as f32 * 0.785 + t as f32).sin(),
        GridWeights::Resting => 0.0,
    };
    let values = (0..keys).flat_map(|k| (0..targets).map(move |t| weight(k, t))).collect();
    let weights = Keyframes::MorphWeights { width: targets, values };
    let channel = Channel::new(NodeId(0), Interpolation::Linear, times, weights).expect("valid weights channel");
    let clip = Clip::new(Some("breathe".into()), vec![channel], &rig).expect("valid clip");
    let mesh = props_anim::Mesh { name: Some("grid".into()), primitives: vec![primitive] };
    let instance = props_anim::MeshInstance { node: NodeId(0), mesh: 0, skin: None };
    let parts = ModelParts {
        rig: Some(rig),
        clips: vec![clip],
        meshes: vec![mesh],
        instances: vec![instance],
        ..ModelParts::default()
    };
    Model::new(parts).expect("valid morph grid")
}

/// `count` instances of one model playing one clip at distinct phases, with their poses,
/// cursors and one shared palette buffer (what a frame uploads).
pub struct ClipCrowd<'m> {
    /// The model.
    pub model: &'m Model,
    /// The clip everyone plays.
    pub clip: usize,
    /// Phase of each instance, in clip seconds.
    pub phases: Vec<f32>,
    /// One pose per instance.
    pub poses: Vec<Pose>,
    /// One cursor per instance.
    pub cursors: Vec<ClipCursor>,
    /// All palettes, instance after instance.
    pub palettes: Vec<JointMatrix>,
}

impl<'m> ClipCrowd<'m> {
    /// A crowd with phases spread evenly over the clip (deterministic).
    #[must_use]
    pub fn new(model: &'m Model, clip: usize, count: usize) -> Self {
        let duration = model.clips()[clip].duration();
        Self::with_phases(model, clip, (0..count).map(|i| duration * (i as f32 * 0.618_034).fract()).collect())
    }

    /// A crowd with one instance per phase.
    #[must_use]
    pub fn with_phases(model: &'m Model, clip: usize, phases: Vec<f32>) -> Self {
        let count = phases.len();
        Self {
            model,
            clip,
            phases,
            poses: vec![Pose::from_rest(model.rig()); count],
            cursors: vec![ClipCursor::new(&model.clips()[clip]); count],
            palettes: vec![JointMatrix::IDENTITY; count * model.palette_len()],
        }
    }

    /// Skin joints evaluated per frame (instances times the model's joint count); the node
    /// matrices of mesh instances are extra work not counted here.
    #[must_use]
    pub fn joints(&self) -> usize {
        self.poses.len() * self.model.joint_count()
    }

    /// CPU memory per instance in bytes: pose, cursor and phase (the palette, which is the
    /// upload, is not counted).
    #[must_use]
    pub fn cpu_bytes_per_instance(&self) -> usize {
        let (Some(pose), Some(cursor)) = (self.poses.first(), self.cursors.first()) else { return 0 };
        size_of::<Pose>() + pose.heap_bytes() + size_of::<ClipCursor>() + cursor.heap_bytes() + 4
    }

    /// The project's path: cursor sampling, one multiply per node, palettes written in place.
    pub fn evaluate(&mut self, time: f32) {
        let clip = &self.model.clips()[self.clip];
        let rig = self.model.rig();
        let palette_len = self.model.palette_len();
        let instances = self.poses.iter_mut().zip(&mut self.cursors).zip(&self.phases);
        for (((pose, cursor), phase), out) in instances.zip(self.palettes.chunks_exact_mut(palette_len)) {
            clip.sample_with_cursor(PlayMode::Loop.wrap(time + phase, clip.duration()), cursor, pose);
            pose.compute_world(rig);
            self.model.write_palettes(pose, out);
        }
    }
}
