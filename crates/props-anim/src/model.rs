//! A whole model: rig, skins, clips, meshes and how meshes attach to nodes.

use std::ops::Range;
use std::sync::Arc;

use crate::clip::Clip;
use crate::impostor::Impostor;
use crate::material::{Image, Material};
use crate::material_variant::MaterialVariant;
use crate::mesh::{Mesh, MeshInstance};
use crate::model_error::ModelError;
use crate::model_lods::{Lods, lods};
use crate::node_id::NodeId;
use crate::placed_light::{LightPlacements, PlacedLight};
use crate::pose::Pose;
use crate::punctual::{Light, LightInstance};
use crate::rig::Rig;
use crate::skin::Skin;
use crate::spring::SpringBones;
use crate::visibility::Visibility;
use crate::{JointMatrix, WEIGHTS_PER_SLOT};

mod memory;

/// The parts of a model, before their cross-references are checked by [`Model::new`].
#[derive(Clone, Debug, Default)]
pub struct ModelParts {
    /// Node hierarchy.
    pub rig: Option<Rig>,
    /// Skins.
    pub skins: Vec<Skin>,
    /// Animation clips.
    pub clips: Vec<Clip>,
    /// Meshes, each stored once however many nodes use it.
    pub meshes: Vec<Mesh>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Decoded images.
    pub images: Vec<Image>,
    /// Meshes placed on nodes.
    pub instances: Vec<MeshInstance>,
    /// Punctual lights.
    pub lights: Vec<Light>,
    /// Lights placed on nodes.
    pub light_instances: Vec<LightInstance>,
}

/// A model ready to animate and draw. Every cross-reference has been checked, so posing,
/// skinning and drawing it cannot fail.
#[derive(Clone, Debug)]
pub struct Model {
    rig: Rig,
    skins: Vec<Skin>,
    clips: Vec<Clip>,
    // The bulk of a model, shared by the models made from it ([`Model::with_clips`]: a person
    // retargeted, then played in place, is three models over one set of vertices and pixels).
    meshes: Arc<[Mesh]>,
    materials: Vec<Material>,
    images: Arc<[Image]>,
    instances: Vec<MeshInstance>,
    lights: Vec<Light>,
    light_instances: Vec<LightInstance>,
    palette_offsets: Vec<u32>,
    visibility: Visibility,
    light_placements: LightPlacements,
    lods: Lods,
    impostor: Option<Impostor>,
    variants: Vec<MaterialVariant>,
    springs: SpringBones,
}

impl Model {
    /// Most levels of detail a model has (the full one among them): its primitives' levels
    /// are gathered into this many at most.
    pub const MAX_LOD_LEVELS: usize = 8;

    /// The same model with `clips` added after its own (clips retargeted from another
    /// model, or its own played in place), made for its rig ([`Clip::new`] checked them
    /// against it). Its vertices and images are shared with this one, not copied: nothing
    /// else in a model depends on its clips.
    #[must_use]
    pub fn with_clips(&self, clips: impl IntoIterator<Item = Clip>) -> Self {
        let mut model = self.clone();
        model.clips.extend(clips);
        model
    }

    /// The same model drawn as `impostor` at a last, coarsest level of detail of its own (at
    /// most [`Model::MAX_LOD_LEVELS`] in all still), in place of every primitive.
    ///
    /// Its levels of fewer triangles than the impostor make way for it: below a box's
    /// triangles a level loses area that the box keeps, so it strays further in looks (the
    /// city's props a few pixels tall turn lighter), though nearer in shape. So do levels at
    /// which a part is left out (its last, empty level: its error is the part's whole size),
    /// where the box strays less than that: the box is nearer, and cheaper (a sphere of eight
    /// bands kept 7,500 triangles until its bands' size spanned a pixel, and lent the box that
    /// error, so the box showed only where the model was a pixel or two across). The impostor's
    /// error is its own, kept between the last level's kept and the first one's left out, and
    /// never under its [`Impostor::morph_reach`] (the levels morph, the box does not).
    pub fn with_impostor(mut self, mut impostor: Impostor) -> Result<Self, ModelError> {
        if let Some(problem) = impostor.problem(self.instances.len(), self.materials.len(), self.variants.len()) {
            return Err(ModelError::BadImpostor { problem });
        }
        self.lods = lods(&self.rig, &self.skins, &self.meshes, &self.instances, Self::MAX_LOD_LEVELS - 1);
        // Levels of fewer triangles than the box make way for it (they cannot keep the area),
        // and so do those leaving a part out that stray further than it.
        let triangles = impostor.primitive.indices.len() / 3;
        let kept = (1..self.lods.errors.len()).find(|&k| {
            self.lod_triangles(k) < triangles || (self.lods.errors[k] > impostor.error && self.leaves_out_a_part(k))
        });
        if let Some(kept) = kept {
            impostor.error = impostor.error.min(self.lods.errors[kept]).max(impostor.morph_reach);
            self.lods.errors.truncate(kept);
            self.lods.map.iter_mut().flatten().for_each(|levels| levels.truncate(kept));
        }
        impostor.error = impostor.error.max(self.lods.errors.last().copied().unwrap_or(0.0));
        self.lods.errors.push(impostor.error);
        self.impostor = Some(impostor);
        Ok(self)
    }

    /// Whether some triangle primitive is left out at level `level` (drawn at its last level,
    /// an empty one).
    fn leaves_out_a_part(&self, level: usize) -> bool {
        self.instances.iter().enumerate().any(|(slot, instance)| {
            let primitives = self.meshes.get(instance.mesh as usize).map_or(&[][..], |m| &m.primitives);
            primitives.iter().enumerate().any(|(p, primitive)| {
                let own = self.primitive_level(slot, p, level).unwrap_or(0);
                own > 0 && primitive.topology == crate::Topology::Triangles && primitive.lod_indices(own).is_empty()
            })
        })
    }

    /// Most material variants a model has ([`Model::with_material_variants`]).
    pub const MAX_MATERIAL_VARIANTS: usize = 32;

    /// The same model with material `variants` a host may draw each instance in
    /// (`KHR_materials_variants`; see [`MaterialVariant`]), in place of any it had.
    pub fn with_material_variants(mut self, variants: Vec<MaterialVariant>) -> Result<Self, ModelError> {
        if variants.len() > Self::MAX_MATERIAL_VARIANTS {
            return Err(ModelError::BadMaterialVariant {
                variant: Self::MAX_MATERIAL_VARIANTS,
                problem: "one past the most a model has",
            });
        }
        let primitives: Vec<usize> = self.meshes.iter().map(|m| m.primitives.len()).collect();
        let problems = variants.iter().map(|v| v.problem(&primitives, self.materials.len()));
        if let Some((variant, problem)) = problems.enumerate().find_map(|(v, problem)| Some((v, problem?))) {
            return Err(ModelError::BadMaterialVariant { variant, problem });
        }
        let looks = self.impostor.as_ref().map_or(0, |impostor| impostor.material_variants.len());
        if looks != 0 && looks != variants.len() {
            return Err(ModelError::BadImpostor {
                problem: "it has a look for other material variants than the model's",
            });
        }
        self.variants = variants;
        Ok(self)
    }

    /// Its material variants ([`Model::with_material_variants`]), numbered as hosts choose them.
    #[must_use]
    pub fn material_variants(&self) -> &[MaterialVariant] {
        &self.variants
    }

    /// The number of the material variant named `name`, if the model has one.
    #[must_use]
    pub fn material_variant(&self, name: &str) -> Option<u8> {
        self.variants.iter().position(|v| v.name == name).map(|v| v as u8)
    }

    /// The material primitive `primitive` of mesh `mesh` is drawn in, in material variant
    /// `material_variant`: the variant's, else (`None`, or a variant that gives it none) its own,
    /// [`crate::Primitive::material`] (`None` for the default material).
    #[must_use]
    pub fn primitive_material(&self, mesh: usize, primitive: usize, material_variant: Option<u8>) -> Option<u32> {
        let own = self.meshes.get(mesh).and_then(|m| m.primitives.get(primitive)).and_then(|p| p.material);
        let chosen = material_variant.and_then(|v| self.variants.get(usize::from(v)));
        chosen.and_then(|v| v.material_of(mesh as u32, primitive as u32)).or(own)
    }

    /// Whether some material variant draws primitive `primitive` of mesh `mesh` in another
    /// material than its own.
    #[must_use]
    pub fn has_variant_materials(&self, mesh: usize, primitive: usize) -> bool {
        self.variants.iter().any(|v| v.material_of(mesh as u32, primitive as u32).is_some())
    }

    /// What the model is drawn as at its last level of detail ([`Model::impostor_level`]),
    /// if it has one.
    #[must_use]
    pub fn impostor(&self) -> Option<&Impostor> {
        self.impostor.as_ref()
    }

    /// The level of detail at which the model draws its [`Model::impostor`] and no primitive:
    /// its last, if it has one.
    #[must_use]
    pub fn impostor_level(&self) -> Option<usize> {
        self.impostor.as_ref().map(|_| self.lods.errors.len() - 1)
    }

    /// Checks the parts' cross-references and builds the model.
    pub fn new(parts: ModelParts) -> Result<Self, ModelError> {
        let ModelParts { rig, skins, clips, meshes, materials, images, instances, lights, light_instances } = parts;
        let rig = rig.ok_or(ModelError::NoRig)?;
        // Largest joint used by each mesh, and by which primitive: computed once per mesh,
        // however many nodes place it.
        let max_joints: Vec<Option<(u16, usize)>> = meshes
            .iter()
            .map(|mesh| mesh.primitives.iter().enumerate().filter_map(|(i, p)| Some((p.max_joint()?, i))).max())
            .collect();
        for (instance, mi) in instances.iter().enumerate() {
            let missing = |what, index| ModelError::MissingReference { instance, what, index };
            if mi.node.index() >= rig.len() {
                return Err(missing("node", mi.node.0));
            }
            let mesh = meshes.get(mi.mesh as usize).ok_or(missing("mesh", mi.mesh))?;
            let skin = match mi.skin {
                Some(s) => Some(skins.get(s as usize).ok_or(missing("skin", s))?),
                None => None,
            };
            let weights = rig.morph_range(mi.node).len();
            if weights != mesh.morph_target_count() {
                let targets = mesh.morph_target_count();
                return Err(ModelError::MorphCount { node: mi.node.0, mesh: mi.mesh, weights, targets });
            }
            if let (Some(skin), Some((joint, primitive))) = (skin, max_joints[mi.mesh as usize])
                && joint as usize >= skin.joints().len()
            {
                let (skin_index, joints) = (mi.skin.unwrap_or_default(), skin.joints().len());
                return Err(ModelError::JointOutOfRange { mesh: mi.mesh, primitive, skin: skin_index, joint, joints });
            }
        }
        for (m, mesh) in meshes.iter().enumerate() {
            for (primitive, p) in mesh.primitives.iter().enumerate() {
                p.check_lods().map_err(|(level, problem)| ModelError::BadLod {
                    mesh: m as u32,
                    primitive,
                    level,
                    problem,
                })?;
            }
        }
        let materials_used = meshes.iter().flat_map(|m| &m.primitives).filter_map(|p| p.material);
        if let Some(index) = materials_used.into_iter().find(|&i| i as usize >= materials.len()) {
            return Err(ModelError::MissingAsset { what: "material", index });
        }
        let textures = materials.iter().flat_map(Material::textures);
        if let Some(index) = textures.map(|t| t.image).find(|&i| i as usize >= images.len()) {
            return Err(ModelError::MissingAsset { what: "image", index });
        }
        for (instance, placed) in light_instances.iter().enumerate() {
            if placed.node.index() >= rig.len() {
                return Err(ModelError::MissingLightNode { instance, node: placed.node.0 });
            }
            if placed.light as usize >= lights.len() {
                return Err(ModelError::MissingAsset { what: "light", index: placed.light });
            }
        }
        rig.properties()
            .check(rig.len(), &materials, &lights)
            .map_err(|target| ModelError::MissingPropertyTarget { target })?;
        let mut palette_offsets = vec![0u32];
        for skin in &skins {
            palette_offsets.push(palette_offsets.last().copied().unwrap_or(0) + skin.joints().len() as u32);
        }
        let visibility = Visibility::new(&rig, instances.iter().map(|i| i.node));
        let node_slot = palette_offsets.last().copied().unwrap_or(0) as usize;
        let instance_nodes: Vec<NodeId> = instances.iter().map(|i| i.node).collect();
        let light_placements = LightPlacements::new(&rig, (&instance_nodes, node_slot), &lights, &light_instances);
        let lods = lods(&rig, &skins, &meshes, &instances, Self::MAX_LOD_LEVELS);
        Ok(Self {
            rig,
            skins,
            clips,
            meshes: meshes.into(),
            materials,
            images: images.into(),
            instances,
            lights,
            light_instances,
            palette_offsets,
            visibility,
            light_placements,
            lods,
            impostor: None,
            variants: Vec::new(),
            springs: SpringBones::default(),
        })
    }

    /// Each level of detail's error, in the model's units (its root's space, at rest): the
    /// farthest any primitive drawn at that level strays from its full surface (its
    /// [`crate::Lod::error`] scaled by its node's or skin's scale at rest). Level 0 (every
    /// primitive in full) is first, at 0; a model without levels has that one alone; at most
    /// [`Model::MAX_LOD_LEVELS`]. At each, every primitive draws its coarsest level within that error
    /// ([`Model::primitive_level`]); at the last, a model with an [`Model::impostor`] draws it
    /// alone.
    #[must_use]
    pub fn lod_errors(&self) -> &[f32] {
        &self.lods.errors
    }

    /// Triangles the model draws at its level of detail `level`: every triangle primitive of
    /// every mesh instance, at its level there, or its impostor's.
    #[must_use]
    pub fn lod_triangles(&self, level: usize) -> usize {
        if let Some(impostor) = self.impostor.as_ref().filter(|_| self.impostor_level().is_some_and(|at| level >= at)) {
            return impostor.primitive.indices.len() / 3;
        }
        let mut triangles = 0;
        for (slot, instance) in self.instances.iter().enumerate() {
            let primitives = self.meshes.get(instance.mesh as usize).map_or(&[][..], |m| &m.primitives);
            for (p, primitive) in primitives.iter().enumerate() {
                if primitive.topology == crate::Topology::Triangles
                    && let Some(own) = self.primitive_level(slot, p, level)
                {
                    triangles += primitive.lod_indices(own).len() / 3;
                }
            }
        }
        triangles
    }

    /// The level of its own ([`crate::Primitive::lod_indices`]) that primitive `primitive` of
    /// mesh instance `instance` draws at the model's level `level` (past the last, the last's;
    /// 0 for a primitive that is not there); `None` at the [`Model::impostor_level`] (and past
    /// it), where the impostor is drawn instead.
    #[must_use]
    pub fn primitive_level(&self, instance: usize, primitive: usize, level: usize) -> Option<usize> {
        if self.impostor_level().is_some_and(|at| level >= at) {
            return None;
        }
        let levels = self.lods.map.get(instance).and_then(|p| p.get(primitive));
        Some(levels.and_then(|l| l.get(level.min(l.len().saturating_sub(1)))).map_or(0, |&l| usize::from(l)))
    }

    /// The node hierarchy.
    #[must_use]
    pub fn rig(&self) -> &Rig {
        &self.rig
    }

    /// Its spring bones: hair, tails and skirts that swing after the body (a VRM avatar's;
    /// none for most files).
    #[must_use]
    pub fn springs(&self) -> &SpringBones {
        &self.springs
    }

    /// The model with `springs` ([`Model::springs`]), made for its rig
    /// ([`SpringBones::new`] with [`Model::rig`]).
    pub fn with_springs(mut self, springs: SpringBones) -> Result<Self, ModelError> {
        if !springs.fits(&self.rig) {
            return Err(ModelError::SpringsOffRig { joints: springs.joints().len() });
        }
        self.springs = springs;
        Ok(self)
    }

    /// Skins.
    #[must_use]
    pub fn skins(&self) -> &[Skin] {
        &self.skins
    }

    /// Animation clips.
    #[must_use]
    pub fn clips(&self) -> &[Clip] {
        &self.clips
    }

    /// The pose of clip `clip` at clip time `time` (the rest pose for `None`), world matrices
    /// computed: a one-off pose for tools, previews and tests (the runtime's path is
    /// [`crate::program::Program`]).
    #[must_use]
    pub fn pose_at(&self, clip: Option<usize>, time: f32) -> Pose {
        let mut pose = Pose::from_rest(self.rig());
        if let Some(clip) = clip.and_then(|c| self.clips().get(c)) {
            clip.sample(time, &mut pose);
        }
        pose.compute_world(self.rig());
        pose
    }

    /// The first clip with this name.
    #[must_use]
    pub fn find_clip(&self, name: &str) -> Option<usize> {
        self.clips.iter().position(|c| c.name() == Some(name))
    }

    /// Meshes.
    #[must_use]
    pub fn meshes(&self) -> &[Mesh] {
        &self.meshes
    }

    /// Materials.
    #[must_use]
    pub fn materials(&self) -> &[Material] {
        &self.materials
    }

    /// Decoded images.
    #[must_use]
    pub fn images(&self) -> &[Image] {
        &self.images
    }

    /// The punctual lights the model carries (none for most props).
    #[must_use]
    pub fn lights(&self) -> &[Light] {
        &self.lights
    }

    /// The lights placed on nodes.
    #[must_use]
    pub fn light_instances(&self) -> &[LightInstance] {
        &self.light_instances
    }

    /// The point and spot lights of one posed instance (see [`crate::light::PlacedLight`]):
    /// `palette` is the instance's palette (of [`Model::palette_len`]), `placement` its world
    /// transform (packed as an instance's). Lights of zero intensity are left out.
    pub fn placed_lights<'a>(
        &'a self,
        palette: &'a [JointMatrix],
        placement: &'a JointMatrix,
    ) -> impl Iterator<Item = PlacedLight> + 'a {
        crate::placed_light::placed((&self.light_placements, &self.lights), (palette, self.property_slot()), placement)
    }

    /// Whether the model has point or spot lights for [`Model::placed_lights`].
    #[must_use]
    pub fn has_placed_lights(&self) -> bool {
        !self.light_placements.is_empty()
    }

    /// Meshes placed on nodes.
    #[must_use]
    pub fn instances(&self) -> &[MeshInstance] {
        &self.instances
    }

    /// Matrices in one instance's palette: every skin's joints, then one node matrix per mesh
    /// instance (see [`Model::write_palettes`]).
    #[must_use]
    pub fn palette_len(&self) -> usize {
        self.property_slot() + self.property_value_count().div_ceil(WEIGHTS_PER_SLOT)
    }

    /// Where the animated values beyond morph weights start in the palette, packed as the
    /// weights are: every animated property's values ([`crate::property::Properties`], in
    /// [`crate::property::Properties::range`] order), then one visibility (1 or 0) per mesh
    /// instance whose visibility is animated ([`Model::visibility_value`]). A model that
    /// animates none has no such slot.
    #[must_use]
    pub fn property_slot(&self) -> usize {
        self.weight_slot() + self.morph_weight_count().div_ceil(WEIGHTS_PER_SLOT)
    }

    /// Values packed from [`Model::property_slot`] on: the properties', then the visibilities.
    #[must_use]
    pub fn property_value_count(&self) -> usize {
        self.rig.properties().defaults().len() + self.visibility.len()
    }

    /// Whether mesh instance `instance` is shown in `palette` (an instance's, as
    /// [`Model::write_palettes`] writes it): not hidden by `KHR_node_visibility`.
    #[must_use]
    pub fn shown(&self, palette: &[JointMatrix], instance: usize) -> bool {
        let values = palette.get(self.property_slot()..).unwrap_or_default();
        self.visibility_value(instance).is_none_or(|v| crate::palette::read_value(values, v) != 0.0)
    }

    /// Where mesh instance `instance`'s visibility lies among the values from
    /// [`Model::property_slot`] on, when an animation can hide it (`None`: always shown).
    #[must_use]
    pub fn visibility_value(&self, instance: usize) -> Option<usize> {
        Some(self.rig.properties().defaults().len() + self.visibility.of(instance)?)
    }

    /// Which mesh instances an animation can hide.
    pub(crate) fn visibility(&self) -> &Visibility {
        &self.visibility
    }

    /// Morph weights of a pose (every node's, in rig order): what [`Model::write_palettes`]
    /// packs after the node matrices.
    #[must_use]
    pub fn morph_weight_count(&self) -> usize {
        self.rig.morph_defaults().len()
    }

    /// Where the morph weights start in the palette: after the node matrices,
    /// [`WEIGHTS_PER_SLOT`] per matrix slot, in order; a mesh
    /// instance's weights are at its node's [`Rig::morph_range`] within them.
    #[must_use]
    pub fn weight_slot(&self) -> usize {
        self.joint_count() + self.instances.len()
    }

    /// Joints of all skins together.
    #[must_use]
    pub fn joint_count(&self) -> usize {
        self.palette_offsets.last().copied().unwrap_or(0) as usize
    }

    /// Where mesh instance `instance`'s node world matrix lies in the palette: what its rigid
    /// primitives (those without joints) are drawn with, as one joint of weight 1.
    #[must_use]
    pub fn node_slot(&self, instance: usize) -> usize {
        self.joint_count() + instance
    }

    /// Where skin `skin`'s joints lie in the palette written by [`Model::write_palettes`].
    #[must_use]
    pub fn palette_range(&self, skin: u32) -> Range<usize> {
        let i = skin as usize;
        self.palette_offsets[i] as usize..self.palette_offsets[i + 1] as usize
    }

    /// Writes one instance's whole palette into `out` (of length [`Model::palette_len`]):
    /// every skin's joint matrices (world x inverse bind), skin after skin, then the world
    /// matrix of every mesh instance's node, so rigid and skinned meshes come out of the same
    /// pass, then the pose's morph weights packed in slots ([`Model::weight_slot`]), then its
    /// animated properties and visibilities ([`Model::property_slot`]). `pose`
    /// must have had [`Pose::compute_world`] called.
    ///
    /// # Panics
    /// If `out` has the wrong length.
    pub fn write_palettes(&self, pose: &Pose, out: &mut [JointMatrix]) {
        assert_eq!(out.len(), self.palette_len(), "palette length must equal Model::palette_len");
        let (joints, nodes) = out.split_at_mut(self.joint_count());
        for (skin, range) in self.skins.iter().zip(self.palette_offsets.windows(2)) {
            skin.write_palette(pose, &mut joints[range[0] as usize..range[1] as usize]);
        }
        let (nodes, weights) = nodes.split_at_mut(self.instances.len());
        for (out, instance) in nodes.iter_mut().zip(&self.instances) {
            *out = JointMatrix::from_affine(&pose.world_matrix(instance.node));
        }
        let (weights, properties) = weights.split_at_mut(self.property_slot() - self.weight_slot());
        crate::palette::write_weights(pose.all_morph_weights(), weights);
        crate::palette::write_values(self.visibility.packed(pose.all_properties()), properties);
    }

    /// Whether every morph weight in `palette` (an instance's, as [`Model::write_palettes`]
    /// wrote it) is zero: the renderer may then skip morphing it
    /// (`props_frame::InstanceData::MORPH_AT_REST`). False for a model without morph targets.
    #[must_use]
    pub fn morph_at_rest(&self, palette: &[JointMatrix]) -> bool {
        let count = self.morph_weight_count();
        // The length first: the slice is then in range.
        count > 0
            && palette.len() == self.palette_len()
            && palette[self.weight_slot()..self.property_slot()]
                .iter()
                .flat_map(JointMatrix::to_array)
                .take(count)
                .all(|w| w == 0.0)
    }
}
