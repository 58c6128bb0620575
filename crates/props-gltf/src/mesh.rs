//! Meshes: vertex attributes, skinning influences, indices, topology and morph targets.

use glam::{Vec2, Vec3, Vec4};
use gltf::json::mesh::{Mode, Semantic};
use gltf::json::validation::Checked;
use gltf::json::{Index, accessor};
use props_anim::material::MaterialVariant;
use props_anim::{Influences, Mesh, MorphTarget, Primitive, Topology};

use crate::accessor::{Accessors, Component, Encoding, INDICES, JOINTS, NORMALS, QUANTIZED, WEIGHTS};
use crate::document::Document;
use crate::drops::Drops;
use crate::error::{ErrorKind, ImportError, Warnings, warn};
use crate::limits::{self, Budget, Limits};
use crate::material::uv_layouts;
use crate::morph_colors::MorphColors;
use crate::parts::Part;
use crate::rules::{self, Scope};
use crate::uv_layout::UvLayout;
use crate::{index_u32, materials_variants, normals, tangents, topology};

/// Imports every mesh of the file, in order, without the primitives left out or unreadable
/// (see [`Drops`]), and the file's material variants with the materials they draw the
/// primitives in (`materials_variants.rs`). A mesh not `drawn` (by glTF index:
/// [`crate::scene::drawn_meshes`]) keeps its place and name, without primitives.
pub(crate) fn import_meshes(
    document: &Document,
    drawn: &[bool],
    accessors: &Accessors<'_>,
    limits: &Limits,
    budget: &Budget,
    warnings: &mut Warnings,
    drops: &mut Drops<'_>,
) -> Result<(Vec<Mesh>, Vec<MaterialVariant>), ImportError> {
    let root = &document.root;
    let mut meshes = Vec::with_capacity(root.meshes.len());
    let layouts = uv_layouts(root);
    let mut file_variants = materials_variants::variants(root, warnings);
    for (m, mesh) in root.meshes.iter().enumerate() {
        if !drawn.get(m).copied().unwrap_or(false) {
            meshes.push(Mesh { name: mesh.name.clone(), primitives: Vec::new() });
            continue;
        }
        let mut primitives = Vec::with_capacity(mesh.primitives.len());
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            if drops.skip.primitive(m, p) {
                continue;
            }
            let own = primitive.material.and_then(|m| layouts.get(m.value()).copied()).unwrap_or_default();
            let path = format!("meshes[{m}].primitives[{p}]");
            // Read with the UV sets and tangents of its own material and its variants'.
            let mapped =
                materials_variants::mappings((primitive, &path), (&layouts, own), file_variants.len(), warnings);
            let uvs = mapped.iter().fold(own, |uvs, &(_, material)| uvs.with(layouts[material as usize]));
            let morph_colors = (&document.morph_colors, m, p);
            let reader = PrimitiveReader { primitive, accessors, limits, budget, uvs, morph_colors, path };
            let imported = reader.import(warnings).and_then(|imported| {
                match primitives.first().map(|f: &Primitive| f.morph_targets.len()) {
                    Some(first) if imported.morph_targets.len() != first => {
                        let kind = ErrorKind::MorphTargetCountMismatch {
                            found: imported.morph_targets.len() as u64,
                            expected: first as u64,
                        };
                        Err(ImportError::at(format!("{}.targets", reader.path), kind))
                    }
                    _ => Ok(imported),
                }
            });
            match imported {
                Ok(imported) => {
                    materials_variants::add(&mut file_variants, (index_u32(m), index_u32(primitives.len())), &mapped);
                    primitives.push(imported);
                }
                Err(error) => {
                    let part = Part::Primitive { mesh: index_u32(m), primitive: index_u32(p) };
                    drops.drop_or_refuse(part, error)?;
                }
            }
        }
        meshes.push(Mesh { name: mesh.name.clone(), primitives });
    }
    Ok((meshes, file_variants))
}

/// Reads one primitive.
struct PrimitiveReader<'a> {
    primitive: &'a gltf::json::mesh::Primitive,
    accessors: &'a Accessors<'a>,
    limits: &'a Limits,
    budget: &'a Budget,
    /// The UV sets its material reads.
    uvs: UvLayout,
    /// The file's morph colours, and the primitive's mesh and index in it.
    morph_colors: (&'a MorphColors, usize, usize),
    path: String,
}

impl PrimitiveReader<'_> {
    fn import(&self, warnings: &mut Warnings) -> Result<Primitive, ImportError> {
        let Checked::Valid(mode) = self.primitive.mode else {
            return Err(ImportError::at(format!("{}.mode", self.path), ErrorKind::InvalidValue));
        };
        self.warn_ignored_attributes(warnings);
        let position_path = self.attribute_path(&Semantic::Positions);
        let position_index = self.attribute_index(&Semantic::Positions);
        let position_index =
            position_index.ok_or_else(|| ImportError::at(&position_path, ErrorKind::MissingProperty))?;
        let vertex_count = self.accessors.count(position_index.value());
        limits::check(
            vertex_count,
            self.limits.max_vertices.min(u32::MAX.into()),
            "vertices of a primitive",
            &position_path,
        )?;
        let positions = self.accessors.read_vec3(position_index.value(), &position_path, QUANTIZED)?;
        let vertices = positions.len() as u64;
        let normals = self.per_vertex::<f32, 3>(&Semantic::Normals, NORMALS, vertices)?;
        let [set0, set1] = self.uvs.sets;
        let uv0 = self.per_vertex::<f32, 2>(&Semantic::TexCoords(set0), QUANTIZED, vertices)?;
        let uv1 = match self.uvs.used {
            2 => self.per_vertex::<f32, 2>(&Semantic::TexCoords(set1), QUANTIZED, vertices)?,
            _ => None,
        };
        let colors = self.colors(vertices)?;
        let influences = self.influences(vertices)?;
        let lists = self.indices(mode, vertices)?;
        if lists.leftover > 0 {
            let message = format!("{} trailing indices form no complete primitive and are ignored", lists.leftover);
            warn(warnings, &self.path, message);
        }
        // Triangles without normals are drawn flat (glTF's rule); their smooth normals serve
        // what needs one per vertex.
        let flat = normals.is_none() && lists.topology == Topology::Triangles;
        let normals = match normals {
            Some(normals) => self.nonzero(normals.into_iter().map(Vec3::from_array).collect(), &positions, &lists)?,
            None => {
                // Generated: a sum per vertex, then the normals.
                let bytes = 2 * vertices * size_of::<Vec3>() as u64;
                self.budget.charge(bytes, &format!("{}.attributes", self.path))?;
                if lists.topology == Topology::Triangles {
                    normals::smooth(&positions, &lists.indices)
                } else {
                    vec![normals::FALLBACK; positions.len()]
                }
            }
        };
        let uv0: Vec<Vec2> = uv0.unwrap_or_default().into_iter().map(Vec2::from_array).collect();
        let uv1: Vec<Vec2> = uv1.unwrap_or_default().into_iter().map(Vec2::from_array).collect();
        let tangents = match self.uvs.tangent_channel {
            Some(channel) => {
                let uvs = if channel == 0 { &uv0 } else { &uv1 };
                self.tangents(vertices, (&positions, &normals, uvs), &lists, warnings)?
            }
            None => Vec::new(),
        };
        let morph_targets = self.morph_targets(vertices, !colors.is_empty(), warnings)?;
        Ok(Primitive {
            topology: lists.topology,
            positions,
            normals,
            uv0,
            uv1,
            tangents,
            colors,
            influences,
            indices: lists.indices,
            morph_targets,
            material: self.primitive.material.map(|m| index_u32(m.value())),
            // Made once the skins are read (`lods.rs`).
            lods: Vec::new(),
            flat,
        })
    }

    /// Warns about attributes that are read by nobody.
    fn warn_ignored_attributes(&self, warnings: &mut Warnings) {
        let read = &self.uvs.sets[..self.uvs.used];
        for semantic in self.primitive.attributes.keys() {
            let ignored = match semantic {
                Checked::Valid(Semantic::Colors(set)) if *set > 0 => "only COLOR_0 is used",
                Checked::Valid(Semantic::TexCoords(set)) if *set > 0 && !read.contains(set) => {
                    "no texture of its material reads this set"
                }
                _ => continue,
            };
            warn(warnings, self.attribute_path_of(semantic), format!("ignored: {ignored}"));
        }
    }

    /// `normals` with each zero one (Khronos: `ACCESSOR_VECTOR3_NON_UNIT`; no GPU can
    /// normalize it, WGSL leaves the result undefined) made from its triangles, as for a
    /// primitive without normals.
    fn nonzero(
        &self,
        mut normals: Vec<Vec3>,
        positions: &[Vec3],
        lists: &topology::Lists,
    ) -> Result<Vec<Vec3>, ImportError> {
        let zero = |n: &Vec3| n.length_squared() < f32::MIN_POSITIVE;
        if !normals.iter().any(zero) {
            return Ok(normals);
        }
        let bytes = 2 * normals.len() as u64 * size_of::<Vec3>() as u64;
        self.budget.charge(bytes, &self.attribute_path(&Semantic::Normals))?;
        let made = match lists.topology {
            Topology::Triangles => normals::smooth(positions, &lists.indices),
            _ => vec![normals::FALLBACK; positions.len()],
        };
        for (normal, made) in normals.iter_mut().zip(made) {
            if zero(normal) {
                *normal = made;
            }
        }
        Ok(normals)
    }

    /// The primitive's tangents, for its normal map or its anisotropy: its `TANGENT` attribute,
    /// else generated with MikkTSpace from its positions, normals and the UVs of
    /// [`UvLayout::tangent_channel`] (a triangle list with those UVs), else none (the map is
    /// then read without them, and the lobe is not stretched). A read tangent's `w` is
    /// the bitangent's sign, 1 or -1 (`ACCESSOR_INVALID_SIGN` otherwise): its sign is kept, as
    /// three.js keeps it (it normalizes the bitangent `w` scales), and a zero is taken as 1.
    fn tangents(
        &self,
        vertices: u64,
        (positions, normals, uvs): (&[Vec3], &[Vec3], &[Vec2]),
        lists: &topology::Lists,
        warnings: &mut Warnings,
    ) -> Result<Vec<Vec4>, ImportError> {
        if let Some(read) = self.per_vertex::<f32, 4>(&Semantic::Tangents, NORMALS, vertices)? {
            let sign = |w: f32| if w < 0.0 { -1.0 } else { 1.0 };
            return Ok(read.into_iter().map(|[x, y, z, w]| Vec4::new(x, y, z, sign(w))).collect());
        }
        if lists.topology != Topology::Triangles || uvs.len() != positions.len() {
            let message = "its material's normal map or anisotropy needs TANGENT, or texture coordinates on \
                           triangles to make them from; it is drawn without the map, its specular not stretched";
            warn(warnings, &self.path, message);
            return Ok(Vec::new());
        }
        let working = (lists.indices.len() as u64 / 3).saturating_mul(tangents::WORKING_BYTES_PER_TRIANGLE);
        let bytes = vertices.saturating_mul(size_of::<Vec4>() as u64).saturating_add(working);
        self.budget.charge(bytes, &self.attribute_path(&Semantic::Tangents))?;
        let given = match tangents::triangles_to_give(positions, &lists.indices) {
            Ok(given) => given,
            Err(costly) => {
                let message = format!(
                    "its tangents are not made ({costly}: {}); it is drawn without its normal map, its specular \
                     not stretched",
                    costly.fix()
                );
                warn(warnings, &self.path, message);
                return Ok(Vec::new());
            }
        };
        let generated = tangents::mikktspace(positions, normals, uvs, &given);
        if generated.is_none() {
            let message =
                "its tangents could not be made; it is drawn without its normal map, its specular not stretched";
            warn(warnings, &self.path, message);
        }
        Ok(generated.unwrap_or_default())
    }

    fn attribute_index(&self, semantic: &Semantic) -> Option<Index<accessor::Accessor>> {
        self.primitive.attributes.get(&Checked::Valid(semantic.clone())).copied()
    }

    fn attribute_path(&self, semantic: &Semantic) -> String {
        self.attribute_path_of(&Checked::Valid(semantic.clone()))
    }

    fn attribute_path_of(&self, semantic: &Checked<Semantic>) -> String {
        let name = match semantic {
            Checked::Valid(semantic) => semantic.to_string(),
            Checked::Invalid => "?".to_owned(),
        };
        format!("{}.attributes[\"{name}\"]", self.path)
    }

    /// Reads an optional per-vertex attribute, checking that it has one element per vertex.
    fn per_vertex<T: Component, const N: usize>(
        &self,
        semantic: &Semantic,
        accepted: &[Encoding],
        vertices: u64,
    ) -> Result<Option<Vec<[T; N]>>, ImportError> {
        let Some(index) = self.attribute_index(semantic) else {
            return Ok(None);
        };
        let path = self.attribute_path(semantic);
        checked_count(self.accessors.read::<T, N>(index.value(), &path, accepted)?, vertices, &path).map(Some)
    }

    /// COLOR_0 as linear RGBA (a VEC3 gets alpha 1), dequantized; empty when absent.
    fn colors(&self, vertices: u64) -> Result<Vec<Vec4>, ImportError> {
        let semantic = Semantic::Colors(0);
        let Some(index) = self.attribute_index(&semantic) else { return Ok(Vec::new()) };
        let path = self.attribute_path(&semantic);
        self.budget.charge(vertices.saturating_mul(size_of::<Vec4>() as u64), &path)?;
        Ok(match self.accessors.components(index.value()) {
            Some(3) => self
                .per_vertex::<f32, 3>(&semantic, WEIGHTS, vertices)?
                .unwrap_or_default()
                .into_iter()
                .map(|c| Vec3::from_array(c).extend(1.0))
                .collect(),
            _ => self
                .per_vertex::<f32, 4>(&semantic, WEIGHTS, vertices)?
                .unwrap_or_default()
                .into_iter()
                .map(Vec4::from_array)
                .collect(),
        })
    }

    /// Every JOINTS_n / WEIGHTS_n set, up to [`Limits::max_influences`]: the first two sets
    /// inline, the others as per-vertex lists of their non-zero influences.
    fn influences(&self, vertices: u64) -> Result<Option<Influences>, ImportError> {
        let max_sets = self.limits.max_influences.div_ceil(4);
        let mut declared = 0;
        for semantic in self.primitive.attributes.keys() {
            if let Checked::Valid(Semantic::Joints(set) | Semantic::Weights(set)) = semantic {
                if *set >= max_sets {
                    let kind = ErrorKind::TooManyInfluences { set: *set, limit: self.limits.max_influences };
                    return Err(ImportError::at(self.attribute_path_of(semantic), kind));
                }
                declared = declared.max(set + 1);
            }
        }
        let mut sets = Vec::new();
        for set in 0..declared {
            let joints = self.per_vertex::<u32, 4>(&Semantic::Joints(set), JOINTS, vertices)?;
            let weights = self.per_vertex::<f32, 4>(&Semantic::Weights(set), WEIGHTS, vertices)?;
            let unpaired = |present: Semantic, missing: Semantic| {
                let kind = ErrorKind::UnpairedInfluences { present: present.to_string(), missing: missing.to_string() };
                Err(ImportError::at(self.attribute_path(&present), kind))
            };
            match (joints, weights) {
                (Some(joints), Some(weights)) if sets.len() == set as usize => sets.push((joints, weights)),
                (Some(_), Some(_)) => return unpaired(Semantic::Joints(set), Semantic::Joints(0)),
                (Some(_), None) => return unpaired(Semantic::Joints(set), Semantic::Weights(set)),
                (None, Some(_)) => return unpaired(Semantic::Weights(set), Semantic::Joints(set)),
                (None, None) => {}
            }
        }
        if sets.is_empty() {
            return Ok(None);
        }
        let count = usize::try_from(vertices).unwrap_or(usize::MAX);
        let extra_sets = sets.len().saturating_sub(2) as u64;
        let inline_bytes = vertices.saturating_mul((size_of::<[u16; 8]>() + size_of::<[f32; 8]>()) as u64);
        let extra_bytes = vertices
            .saturating_add(1)
            .saturating_mul(size_of::<u32>() as u64)
            .saturating_add(vertices.saturating_mul(4 * extra_sets).saturating_mul(size_of::<(u16, f32)>() as u64));
        let extra_bytes = if extra_sets == 0 { 0 } else { extra_bytes };
        self.budget.charge(inline_bytes.saturating_add(extra_bytes), &self.attribute_path(&Semantic::Joints(0)))?;
        let mut influences = Influences {
            joints: vec![[0; 8]; count],
            weights: vec![[0.0; 8]; count],
            sets: u8::try_from(sets.len()).unwrap_or(u8::MAX),
            extra_start: Vec::new(),
            extra: Vec::new(),
        };
        let mut sets = sets.into_iter();
        for (set, (joints, weights)) in sets.by_ref().take(2).enumerate() {
            let vertices =
                influences.joints.iter_mut().zip(&mut influences.weights).zip(joints.into_iter().zip(weights));
            for ((out_joints, out_weights), (joints, weights)) in vertices {
                for (k, (joint, weight)) in joints.into_iter().zip(weights).enumerate() {
                    // A joint with zero weight has no effect: point it at joint 0 so that
                    // consumers never index past the skin with it (the first is kept until
                    // the vertex is known to be bound, below).
                    let first = set == 0 && k == 0;
                    let joint = if weight == 0.0 && !first { 0 } else { u16::try_from(joint).unwrap_or(u16::MAX) };
                    if let (Some(j), Some(w)) = (out_joints.get_mut(4 * set + k), out_weights.get_mut(4 * set + k)) {
                        (*j, *w) = (joint, weight);
                    }
                }
            }
        }
        let rest: Vec<_> = sets.collect();
        if !rest.is_empty() {
            influences.extra_start.reserve_exact(count.saturating_add(1));
            influences.extra_start.push(0);
            for vertex in 0..count {
                for (joints, weights) in &rest {
                    let (Some(joints), Some(weights)) = (joints.get(vertex), weights.get(vertex)) else { continue };
                    let used = joints.iter().zip(weights).filter(|(_, w)| **w != 0.0);
                    influences.extra.extend(used.map(|(&j, &w)| (u16::try_from(j).unwrap_or(u16::MAX), w)));
                }
                influences.extra_start.push(u32::try_from(influences.extra.len()).unwrap_or(u32::MAX));
            }
        }
        // A vertex bound to no joint (its weights all zero) follows the first joint it lists
        // (`JOINTS_0.x`), as three.js's loader has it (`normalizeSkinWeights`), rather than
        // collapse to the model's origin: that joint is checked against the skin as any
        // weighted one is. Any other vertex's first joint of weight 0 points at joint 0.
        for vertex in 0..count {
            let unbound = influences.weights[vertex] == [0.0; 8] && influences.extra_of(vertex).is_empty();
            if unbound {
                influences.weights[vertex][0] = 1.0;
            } else if influences.weights[vertex][0] == 0.0 {
                influences.joints[vertex][0] = 0;
            }
        }
        Ok(Some(influences))
    }

    /// The index list (generated `0..n` when absent), every index checked, as a list topology;
    /// its type's primitive restart value restarts the primitive, as in WebGL 2.
    fn indices(&self, mode: Mode, vertices: u64) -> Result<topology::Lists, ImportError> {
        let path = format!("{}.indices", self.path);
        let (indices, restart): (Vec<u32>, _) = match self.primitive.indices {
            Some(index) => {
                let restart = self.accessors.component(index.value()).map(topology::restart_value);
                (self.accessors.read_scalars(index.value(), &path, INDICES)?, restart)
            }
            None => {
                self.budget.charge(vertices.saturating_mul(4), &path)?;
                ((0..u32::try_from(vertices).unwrap_or(u32::MAX)).collect(), None)
            }
        };
        let out_of_range = |v: u32| u64::from(v) >= vertices && Some(v) != restart;
        if let Some((position, &vertex)) = (0u64..).zip(&indices).find(|(_, v)| out_of_range(**v)) {
            return Err(ImportError::at(path, ErrorKind::VertexIndexOutOfRange { position, vertex, vertices }));
        }
        let converted = topology::list_len(mode, indices.len()) as u64;
        self.budget.charge(converted.saturating_mul(4), &path)?;
        Ok(match restart {
            Some(restart) => topology::convert_restarting(mode, indices, restart),
            None => topology::convert(mode, indices),
        })
    }

    /// Morph targets: POSITION, NORMAL and COLOR_0 displacements (TANGENT is ignored; COLOR_0
    /// where the primitive has colours of its own, `colored`).
    fn morph_targets(
        &self,
        vertices: u64,
        colored: bool,
        warnings: &mut Warnings,
    ) -> Result<Vec<MorphTarget>, ImportError> {
        let targets = self.primitive.targets.as_deref().unwrap_or_default();
        let mut out = Vec::with_capacity(targets.len());
        for (t, target) in targets.iter().enumerate() {
            let displacements = |index: Option<Index<accessor::Accessor>>, name: &str, accepted| {
                let path = format!("{}.targets[{t}].{name}", self.path);
                index.map_or(Ok(Vec::new()), |index| {
                    let read = self.accessors.read_vec3(index.value(), &path, accepted)?;
                    checked_count(read, vertices, &path)
                })
            };
            out.push(MorphTarget {
                positions: displacements(target.positions, "POSITION", QUANTIZED)?,
                normals: displacements(target.normals, "NORMAL", NORMALS)?,
                colors: self.morph_colors(t, vertices, colored, warnings)?,
            });
        }
        Ok(out)
    }

    /// Target `t`'s COLOR_0 displacements (an RGB target's alpha unmoved), or none where it
    /// has none; ignored with a warning where the primitive has no colours to displace (the
    /// Khronos validator's `MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR`) or where they cannot
    /// be read (its accessor is not an index, not a colour's, or its count is not the
    /// vertices'); a limit refuses the file, as everywhere.
    fn morph_colors(
        &self,
        t: usize,
        vertices: u64,
        colored: bool,
        warnings: &mut Warnings,
    ) -> Result<Vec<Vec4>, ImportError> {
        let (colors, mesh, primitive) = self.morph_colors;
        let Some(index) = colors.get(mesh, primitive, t) else { return Ok(Vec::new()) };
        let path = format!("{}.targets[{t}].COLOR_0", self.path);
        if !colored {
            warn(warnings, path, "ignored: the primitive has no COLOR_0 of its own for it to displace");
            return Ok(Vec::new());
        }
        let read = |index: usize| -> Result<Vec<Vec4>, ImportError> {
            self.budget.charge(vertices.saturating_mul(size_of::<Vec4>() as u64), &path)?;
            let colors: Vec<Vec4> = match self.accessors.components(index) {
                Some(3) => {
                    let read = self.accessors.read::<f32, 3>(index, &path, NORMALS)?;
                    read.into_iter().map(|c| Vec3::from_array(c).extend(0.0)).collect()
                }
                _ => self.accessors.read::<f32, 4>(index, &path, NORMALS)?.into_iter().map(Vec4::from_array).collect(),
            };
            checked_count(colors, vertices, &path)
        };
        match index.ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex)).and_then(read) {
            Ok(colors) => Ok(colors),
            Err(error) if rules::scope(crate::codes::code(&error.kind)) == Some(Scope::File) => Err(error),
            Err(error) => {
                warn(warnings, error.json_path, format!("ignored, its colours stay as they are: {}", error.kind));
                Ok(Vec::new())
            }
        }
    }
}

/// `elements`, if there is one per vertex.
fn checked_count<T>(elements: Vec<T>, vertices: u64, path: &str) -> Result<Vec<T>, ImportError> {
    let found = elements.len() as u64;
    if found != vertices {
        return Err(ImportError::at(path, ErrorKind::AttributeCountMismatch { found, expected: vertices }));
    }
    Ok(elements)
}
