//! Rigid parts merged into one draw. A prop is often many small parts (a windmill's tower,
//! plinth, nacelle, hub, three blades and their tips: ten primitives of 12 to 28 triangles),
//! and every instance of every part is a draw of its own on the GPU: a few dozen vertices a
//! draw leave most of a GPU's lanes idle, and lavapipe pays a fixed cost per instance and draw
//! (about 2.6 µs, measured against the render bench's floor). Parts that differ only in their
//! base colour are one draw here: their vertices are copied, once per node that places them,
//! each carrying its node's palette slot and its material's base colour (in its vertex
//! colour, which glTF multiplies with it), and drawn with their material in white.
//!
//! What is merged: triangle primitives posed rigidly by their node (points and lines are
//! drawn alone), without morph targets or an animated visibility, of at most
//! [`MAX_MERGED_VERTICES`] vertices, whose material is opaque or masked, not animated, not
//! paint (tinted per instance) and of a base colour within 0..=1 (as a vertex colour holds
//! it); two such parts merge when their materials are equal but for their name and base
//! colour, and both are drawn flat (`facets.rs`) or neither is. A part its node mirrors at rest
//! is drawn alone (its faces wind the other way: [`MergePlan::mirrored`]). A part placed by
//! several nodes (a blade) is copied for each. Levels of detail merge level by level.

use std::collections::HashMap;

use glam::Vec4;
use props_anim::material::Material;
use props_anim::{Model, Topology};

use crate::drawn::DrawnMeshes;

/// The most vertices a part may have to be merged: a larger one is a draw worth its cost, and
/// copying it for each node would cost memory.
pub(crate) const MAX_MERGED_VERTICES: usize = 4096;

/// What the members of a merged draw share: their material in white, and whether they are
/// drawn flat.
type Shape = (Material, bool);

/// One merged draw: its members and the material they are drawn with.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Group {
    /// The members' material with a white base colour (their own is in their vertices).
    pub(crate) material: Material,
    /// Its members are drawn flat (`facets.rs`): all of them, or none.
    pub(crate) flat: bool,
    /// Each member: (mesh instance, primitive of its mesh).
    pub(crate) members: Vec<(usize, usize)>,
}

/// Which parts of a model are merged, and into which draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct MergePlan {
    /// The merged draws, each of two or more members.
    pub(crate) groups: Vec<Group>,
    /// Per mesh, per primitive: whether some mesh instance draws it on its own (its vertices
    /// are uploaded as they are).
    pub(crate) drawn_alone: Vec<Vec<bool>>,
    /// Per mesh instance: whether its node's rest matrix mirrors it (a negative scale on one
    /// axis, as Blender exports an object mirrored with its scale unapplied), so that its front
    /// faces wind clockwise on screen, as three.js finds by the determinant.
    pub(crate) mirrored: Vec<bool>,
}

/// Whether `material`'s base colour is within 0..=1, as a merged member's vertex colour carries
/// it (a file may give more: three.js reads it as given, and so does a part drawn alone).
fn within_one(material: &Material) -> bool {
    material.base_color_factor.iter().all(|c| (0.0..=1.0).contains(c))
}

/// `material` as its merged draw draws it: no name, a white base colour (its alpha kept).
fn white(material: &Material) -> Material {
    let [.., alpha] = material.base_color_factor;
    Material { name: None, base_color_factor: [1.0, 1.0, 1.0, alpha], ..material.clone() }
}

impl MergePlan {
    /// The plan for `model`, whose primitives are drawn as `drawn` (see the module
    /// documentation).
    pub(crate) fn new(model: &Model, drawn: &DrawnMeshes<'_>) -> Self {
        let default = Material::default();
        let material_of = |m: Option<u32>| {
            let index = m.map_or(model.materials().len(), |m| m as usize);
            (index, model.materials().get(index).unwrap_or(&default))
        };
        let mut candidates: Vec<(Shape, Vec<(usize, usize)>)> = Vec::new();
        // Each material (and flatness) looked up once, its shape by its debug text (floats
        // that compare equal but print otherwise, -0 and 0, merely stay apart): tens of
        // thousands of parts in as many materials are grouped in linear time.
        let mut of_material: HashMap<(usize, bool), usize> = HashMap::new();
        // Whether each material (the default last) may merge, found once: not paint, not see-
        // through, its values not animated, its base colour within 0..=1 (a member's colour is
        // carried in its vertex colour, which holds no more).
        let mut animated = vec![false; model.materials().len() + 1];
        for target in model.rig().properties().targets() {
            if let props_anim::property::PropertyTarget::Material { material, .. } = *target
                && let Some(flag) = animated.get_mut(material as usize)
            {
                *flag = true;
            }
        }
        let materials = model.materials().iter().chain([&default]);
        let may_merge: Vec<bool> = materials
            .zip(&animated)
            .map(|(m, &animated)| !animated && !m.is_paint() && !m.is_see_through() && within_one(m))
            .collect();
        let mut of_shape: HashMap<String, usize> = HashMap::new();
        let mut drawn_alone: Vec<Vec<bool>> =
            model.meshes().iter().map(|mesh| vec![false; mesh.primitives.len()]).collect();
        let rest = props_anim::Pose::from_rest(model.rig());
        let mirrored: Vec<bool> =
            model.instances().iter().map(|i| rest.world_matrix(i.node).matrix3.determinant() < 0.0).collect();
        for (slot, instance) in model.instances().iter().enumerate() {
            if model.meshes().get(instance.mesh as usize).is_none() {
                continue;
            }
            let hideable = model.visibility_value(slot).is_some();
            for (p, primitive) in drawn.mesh(instance.mesh as usize).enumerate() {
                if primitive.indices.is_empty() {
                    continue;
                }
                if primitive.topology != Topology::Triangles {
                    drawn_alone[instance.mesh as usize][p] = true;
                    continue;
                }
                let (index, material) = material_of(primitive.material);
                let rigid = instance.skin.is_none() || primitive.influences.is_none();
                // A part a material variant draws in another material is drawn alone, in each.
                let mergeable = rigid
                    && !hideable
                    && !mirrored[slot]
                    && !model.has_variant_materials(instance.mesh as usize, p)
                    && primitive.morph_targets.is_empty()
                    && primitive.vertex_count() <= MAX_MERGED_VERTICES
                    && may_merge.get(index).copied().unwrap_or(false);
                if !mergeable {
                    drawn_alone[instance.mesh as usize][p] = true;
                    continue;
                }
                let candidate = *of_material.entry((index, primitive.flat)).or_insert_with(|| {
                    let shape = (white(material), primitive.flat);
                    *of_shape.entry(format!("{shape:?}")).or_insert_with(|| {
                        candidates.push((shape, Vec::new()));
                        candidates.len() - 1
                    })
                });
                candidates[candidate].1.push((slot, p));
            }
        }
        let mut groups = Vec::new();
        for ((material, flat), members) in candidates {
            if let [(slot, p)] = members[..] {
                // Alone: drawn as it is.
                drawn_alone[model.instances()[slot].mesh as usize][p] = true;
            } else {
                groups.push(Group { material, flat, members });
            }
        }
        Self { groups, drawn_alone, mirrored }
    }

    /// Draws of one batch at the model's level `level`: each merged draw with a member there,
    /// each part drawn alone that its level keeps (twice for a double-sided see-through one:
    /// back faces first); the impostor alone at its level and past.
    pub(crate) fn draws_at(&self, model: &Model, drawn: &DrawnMeshes<'_>, level: usize) -> usize {
        if model.impostor_level().is_some_and(|at| level >= at) {
            return 1;
        }
        let kept = |(slot, p): (usize, usize)| {
            let mesh = model.instances()[slot].mesh as usize;
            let own = model.primitive_level(slot, p, level).unwrap_or(0);
            !drawn.level(mesh, p, own).is_empty()
        };
        let merged: std::collections::HashSet<(usize, usize)> =
            self.groups.iter().flat_map(|group| group.members.iter().copied()).collect();
        let parts = model.instances().iter().enumerate().flat_map(|(slot, instance)| {
            let primitives = model.meshes().get(instance.mesh as usize).map_or(0, |mesh| mesh.primitives.len());
            (0..primitives).map(move |p| (slot, p))
        });
        let twice = |(slot, p): (usize, usize)| {
            let primitive = drawn.primitive(model.instances()[slot].mesh as usize, p);
            let material = primitive.material.and_then(|m| model.materials().get(m as usize));
            let faces = primitive.topology == Topology::Triangles;
            1 + usize::from(faces && material.is_some_and(|m| m.double_sided && m.is_see_through()))
        };
        let alone: usize = parts.filter(|part| !merged.contains(part) && kept(*part)).map(twice).sum();
        alone + self.groups.iter().filter(|group| group.members.iter().any(|&member| kept(member))).count()
    }

    /// The linear base colour a member drawn by `group` carries in its vertices: its own
    /// material's (the default's for none), alpha 1 (the group's material keeps it).
    pub(crate) fn member_color(model: &Model, (slot, p): (usize, usize)) -> Vec4 {
        let mesh = &model.meshes()[model.instances()[slot].mesh as usize];
        let material = mesh.primitives[p].material.and_then(|m| model.materials().get(m as usize));
        let [r, g, b, _] = material.map_or([1.0; 4], |m| m.base_color_factor);
        Vec4::new(r, g, b, 1.0)
    }

    /// Vertices and indices the model's draws upload: those of each part drawn alone (all its
    /// levels), of each merged member's copy (its indices at each of the model's levels), and
    /// of its impostor (a copy of its vertices for each look, its own and each material
    /// variant's, over one list of its indices).
    pub(crate) fn uploaded(&self, model: &Model, drawn: &DrawnMeshes<'_>) -> (u64, u64) {
        let mut counts = (0u64, 0u64);
        for (mesh, alone) in self.drawn_alone.iter().enumerate() {
            for (primitive, _) in drawn.mesh(mesh).zip(alone).filter(|(_, alone)| **alone) {
                counts.0 += primitive.vertex_count() as u64;
                counts.1 +=
                    (primitive.indices.len() + primitive.lods.iter().map(|l| l.indices.len()).sum::<usize>()) as u64;
            }
        }
        let levels = model.lod_errors().len().min(Model::MAX_LOD_LEVELS);
        for &(slot, p) in self.groups.iter().flat_map(|group| &group.members) {
            let primitive = drawn.primitive(model.instances()[slot].mesh as usize, p);
            counts.0 += primitive.vertex_count() as u64;
            let at = |k| model.primitive_level(slot, p, k).map_or(0, |own| primitive.lod_indices(own).len() as u64);
            counts.1 += (0..levels).map(at).sum::<u64>();
        }
        if let Some(impostor) = model.impostor() {
            let looks = 1 + impostor.material_variants.len();
            counts.0 += (impostor.primitive.vertex_count() * looks) as u64;
            counts.1 += impostor.primitive.indices.len() as u64;
        }
        counts
    }
}

impl crate::Renderer {
    /// The main pass's draw calls for a batch of `model`'s instances at each of its levels of
    /// detail, finest first (per palette window: a batch too large for one repeats them),
    /// without a device: its rigid parts that differ only in their base colour one draw, each
    /// other part one, none for a part its level leaves out, the impostor one. What
    /// `check-assets` tells a modder a model costs.
    #[must_use]
    pub fn draws_per_level(model: &Model) -> Vec<usize> {
        let drawn = DrawnMeshes::new(model);
        let plan = MergePlan::new(model, &drawn);
        (0..model.lod_errors().len()).map(|level| plan.draws_at(model, &drawn, level)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use props_anim::material::AlphaMode;
    use props_anim::{Mesh, MeshInstance, ModelParts, MorphTarget, NodeId, Primitive, RestTransform, Rig, SourceNode};

    /// A triangle of material `material`.
    fn part(material: u32) -> Primitive {
        Primitive::triangles(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![Vec3::Z; 3], vec![0, 1, 2], Some(material))
    }

    /// Parts in red, white and red again (equal but for their base colour), paint, glass, a
    /// rough red, a morphing one; a blade mesh placed by two nodes.
    fn model() -> Model {
        let node = |children: Vec<u32>, weights: usize| SourceNode {
            name: None,
            children,
            rest: RestTransform::Trs(props_anim::Transform::IDENTITY),
            morph_weights: vec![0.0; weights],
        };
        let mut morphing = part(0);
        morphing.morph_targets = vec![MorphTarget { positions: vec![Vec3::X; 3], ..MorphTarget::default() }];
        let glass = Material { alpha_mode: AlphaMode::Blend, ..Material::matte("glass", [1.0, 1.0, 1.0, 0.3]) };
        let rough = Material { roughness_factor: 0.2, ..Material::matte("shiny", [1.0, 0.0, 0.0, 1.0]) };
        let nodes = [node(vec![1, 2, 3], 0), node(vec![], 0), node(vec![], 0), node(vec![], 1)];
        let rig = Rig::from_source_nodes(&nodes).expect("a rig");
        let body = Mesh { name: None, primitives: vec![part(0), part(1), part(0), part(2), part(3), part(4)] };
        let blade = Mesh { name: None, primitives: vec![part(1)] };
        let morpher = Mesh { name: None, primitives: vec![morphing] };
        Model::new(ModelParts {
            rig: Some(rig),
            meshes: vec![body, blade, morpher],
            materials: vec![
                Material::matte("red", [1.0, 0.0, 0.0, 1.0]),
                Material::matte("white", [1.0, 1.0, 1.0, 1.0]),
                Material::matte("car paint", [0.0, 0.0, 1.0, 1.0]),
                glass,
                rough,
            ],
            instances: vec![
                MeshInstance { node: NodeId(0), mesh: 0, skin: None },
                MeshInstance { node: NodeId(1), mesh: 1, skin: None },
                MeshInstance { node: NodeId(2), mesh: 1, skin: None },
                MeshInstance { node: NodeId(3), mesh: 2, skin: None },
            ],
            ..ModelParts::default()
        })
        .expect("valid")
    }

    #[test]
    fn parts_equal_but_for_their_base_colour_merge_and_the_rest_stay_alone() {
        let model = model();
        let drawn = DrawnMeshes::new(&model);
        let plan = MergePlan::new(&model, &drawn);
        assert_eq!(plan.groups.len(), 1, "{plan:?}");
        let group = &plan.groups[0];
        // The body's red, white and red parts, and the blade as each of its two nodes places it.
        assert_eq!(group.members, [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)]);
        assert_eq!(group.material.base_color_factor, [1.0; 4]);
        assert_eq!(group.material.name, None);
        // Paint (tinted per instance), glass (blended), the shiny one (alone in its kind) and
        // the morphing one are drawn as they are; the merged ones are not uploaded twice.
        assert_eq!(plan.drawn_alone, [vec![false, false, false, true, true, true], vec![false], vec![true]]);
        assert_eq!(MergePlan::member_color(&model, (0, 0)), Vec4::new(1.0, 0.0, 0.0, 1.0));
        // Four parts alone and five copies, three vertices and indices each.
        assert_eq!(plan.uploaded(&model, &drawn), (27, 27));
    }

    #[test]
    fn faceted_parts_merge_with_faceted_parts_over_their_welded_vertices() {
        let cube = crate::facets::tests::faceted_cube;
        let mut smooth = cube();
        smooth.normals = smooth.positions.iter().map(|p| p.normalize()).collect();
        let parts = vec![cube(), cube(), smooth.clone(), smooth];
        let node = SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(props_anim::Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let model = Model::new(ModelParts {
            rig: Some(Rig::from_source_nodes(&[node]).expect("a rig")),
            meshes: vec![Mesh { name: None, primitives: parts }],
            materials: vec![Material::matte("red", [1.0, 0.0, 0.0, 1.0])],
            instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
            ..ModelParts::default()
        })
        .expect("valid");
        let drawn = DrawnMeshes::new(&model);
        let plan = MergePlan::new(&model, &drawn);
        let groups: Vec<_> = plan.groups.iter().map(|g| (g.flat, g.members.clone())).collect();
        assert_eq!(groups, [(true, vec![(0, 0), (0, 1)]), (false, vec![(0, 2), (0, 3)])]);
        // Two flat cubes of 8 welded corners, two smooth ones of 24; each 36 indices and a
        // coarser level's 12.
        assert_eq!(plan.uploaded(&model, &drawn), (64, 192));
    }

    /// A base colour past 1 (three.js reads it as given) is drawn alone, where no vertex colour
    /// holds it; a double-sided see-through part is two draws, back faces first.
    #[test]
    fn bright_parts_stay_alone_and_double_sided_glass_is_two_draws() {
        let node = SourceNode {
            name: None,
            children: Vec::new(),
            rest: RestTransform::Trs(props_anim::Transform::IDENTITY),
            morph_weights: Vec::new(),
        };
        let glass = Material {
            alpha_mode: AlphaMode::Blend,
            double_sided: true,
            ..Material::matte("glass", [1.0, 1.0, 1.0, 0.3])
        };
        let model = Model::new(ModelParts {
            rig: Some(Rig::from_source_nodes(&[node]).expect("a rig")),
            meshes: vec![Mesh { name: None, primitives: vec![part(0), part(1), part(2), part(3)] }],
            materials: vec![
                Material::matte("red", [1.0, 0.0, 0.0, 1.0]),
                Material::matte("white", [1.0, 1.0, 1.0, 1.0]),
                Material::matte("glowing red", [4.0, 0.0, 0.0, 1.0]),
                glass,
            ],
            instances: vec![MeshInstance { node: NodeId(0), mesh: 0, skin: None }],
            ..ModelParts::default()
        })
        .expect("valid");
        let plan = MergePlan::new(&model, &DrawnMeshes::new(&model));
        assert_eq!(plan.groups.len(), 1);
        assert_eq!(plan.groups[0].members, [(0, 0), (0, 1)]);
        assert_eq!(plan.drawn_alone, [vec![false, false, true, true]]);
        // The merged pair, the glowing part, the glass's back and front faces.
        assert_eq!(crate::Renderer::draws_per_level(&model), [4]);
    }

    /// A part whose node is mirrored winds its faces the other way: it is drawn alone.
    #[test]
    fn a_mirrored_part_is_drawn_alone() {
        let node = |scale: Vec3, children: Vec<u32>| SourceNode {
            name: None,
            children,
            rest: RestTransform::Trs(props_anim::Transform { scale, ..props_anim::Transform::IDENTITY }),
            morph_weights: Vec::new(),
        };
        // The root mirrors its second child back (two mirrors), and its first once.
        let nodes = [
            node(Vec3::new(1.0, -1.0, 1.0), vec![1, 2]),
            node(Vec3::ONE, vec![]),
            node(-Vec3::X + Vec3::Y + Vec3::Z, vec![]),
        ];
        let instances = (0..3).map(|n| MeshInstance { node: NodeId(n), mesh: 0, skin: None }).collect();
        let model = Model::new(ModelParts {
            rig: Some(Rig::from_source_nodes(&nodes).expect("a rig")),
            meshes: vec![Mesh { name: None, primitives: vec![part(0)] }],
            materials: vec![Material::matte("red", [1.0, 0.0, 0.0, 1.0])],
            instances,
            ..ModelParts::default()
        })
        .expect("valid");
        let plan = MergePlan::new(&model, &DrawnMeshes::new(&model));
        assert_eq!(plan.mirrored, [true, true, false]);
        assert!(plan.groups.is_empty(), "the one unmirrored part has none to merge with: {plan:?}");
        assert_eq!(plan.drawn_alone, [vec![true]]);
    }
}
