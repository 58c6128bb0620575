//! Mesh primitives: attribute formats and counts, indexed semantics, unit normals and
//! tangents, float colours within 0..1, indices in range,
//! skinning influences (joints in range and not repeated, weights non-negative and summing
//! to 1, at most `Limits::max_influences` per vertex), morph targets and weights.

use std::collections::BTreeSet;

use gltf::json::accessor::{ComponentType, Type};
use gltf::json::mesh::{Primitive, Semantic};
use gltf::json::validation::Checked;

use super::accessors::Format;
use super::importer::{LIMIT_EXCEEDED, NON_FINITE, TOO_MANY_INFLUENCES};
use super::{Check, Issue};
use crate::ErrorKind;

use ComponentType::{F32, I8, I16, U8, U16, U32};
use Type::{Scalar, Vec2, Vec3, Vec4};

/// How far a normal's or tangent's length may be from 1 (Khronos's validator 2.0.0-dev.3.10:
/// measured between 0.0066, accepted, and 0.0068, refused).
const VECTOR_UNIT_TOLERANCE: f64 = 0.0067;
/// How far a vertex's weights may sum from 1, per weight summed (Khronos's validator 2.0.0-dev.3.10).
const WEIGHT_SUM_TOLERANCE: f32 = 2e-7;
/// KHR_mesh_quantization.
const QUANTIZATION: &str = "KHR_mesh_quantization";

/// Accepted accessor formats: `(type, component type, normalized)`.
type Formats = &'static [(Type, ComponentType, bool)];

/// The formats an attribute may have, without and with KHR_mesh_quantization.
fn attribute_formats(semantic: &Semantic) -> (Formats, Formats) {
    match semantic {
        Semantic::Positions => (
            &[(Vec3, F32, false)],
            &[
                (Vec3, I8, false),
                (Vec3, I8, true),
                (Vec3, U8, false),
                (Vec3, U8, true),
                (Vec3, I16, false),
                (Vec3, I16, true),
                (Vec3, U16, false),
                (Vec3, U16, true),
            ],
        ),
        Semantic::Normals => (&[(Vec3, F32, false)], &[(Vec3, I8, true), (Vec3, I16, true)]),
        Semantic::Tangents => (&[(Vec4, F32, false)], &[(Vec4, I8, true), (Vec4, I16, true)]),
        Semantic::TexCoords(_) => (
            &[(Vec2, F32, false), (Vec2, U8, true), (Vec2, U16, true)],
            &[
                (Vec2, I8, false),
                (Vec2, I8, true),
                (Vec2, U8, false),
                (Vec2, I16, false),
                (Vec2, I16, true),
                (Vec2, U16, false),
            ],
        ),
        Semantic::Colors(_) => (
            &[
                (Vec3, F32, false),
                (Vec3, U8, true),
                (Vec3, U16, true),
                (Vec4, F32, false),
                (Vec4, U8, true),
                (Vec4, U16, true),
            ],
            &[],
        ),
        Semantic::Joints(_) => (&[(Vec4, U8, false), (Vec4, U16, false)], &[]),
        Semantic::Weights(_) => (&[(Vec4, F32, false), (Vec4, U8, true), (Vec4, U16, true)], &[]),
        Semantic::Extras(_) => (&[], &[]),
    }
}

/// The number of `JOINTS_n`/`WEIGHTS_n` pairs of a primitive.
pub(super) fn joint_sets(primitive: &Primitive) -> usize {
    let weights = |n: &u32| primitive.attributes.contains_key(&Checked::Valid(Semantic::Weights(*n)));
    let joints = primitive.attributes.keys().filter_map(|s| match s {
        Checked::Valid(Semantic::Joints(n)) => Some(n),
        _ => None,
    });
    joints.filter(|n| weights(n)).count()
}

/// Checks every primitive of every mesh, and the meshes' default morph weights.
pub(super) fn check(check: &mut Check<'_>) {
    let root = check.root;
    let max_joints = max_joints(check);
    for (m, mesh) in root.meshes.iter().enumerate() {
        let max_joints = max_joints.get(m).copied().flatten();
        let first_targets = mesh.primitives.first().map(|p| p.targets.as_ref().map_or(0, Vec::len));
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let pointer = format!("/meshes/{m}/primitives/{p}");
            let targets = primitive.targets.as_ref().map_or(0, Vec::len);
            if first_targets.is_some_and(|first| first != targets) {
                let message = format!("{targets} morph targets, but primitive 0 has {}", first_targets.unwrap_or(0));
                check.error("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", &pointer, message);
            }
            texture_coordinates(check, primitive, &pointer);
            unit_vectors(check, primitive, &pointer);
            clamped_colors(check, primitive, &pointer);
            let vertices = attributes(check, primitive, &pointer);
            if let Some(vertices) = vertices {
                indices(check, primitive, vertices, &pointer);
                morph_targets(check, primitive, vertices, &pointer);
                if let Some(max_joints) = max_joints {
                    let issues = Influences::new(check, primitive, vertices, max_joints, &pointer).issues();
                    check.issues.extend(issues);
                }
            }
        }
        if let Some(weights) = &mesh.weights {
            let pointer = format!("/meshes/{m}/weights");
            let targets = first_targets.unwrap_or(0);
            if weights.len() != targets {
                let message = format!("{} default morph weights for {targets} morph targets", weights.len());
                check.error("MESH_INVALID_WEIGHTS_COUNT", &pointer, message);
            }
            if let Some(at) = weights.iter().position(|w| !w.is_finite()) {
                check.error(NON_FINITE, pointer, format!("element {at} is infinite or NaN as a 32-bit float"));
            }
        }
    }
}

/// NORMAL and TANGENT of unit length, TANGENT's w 1 or -1, as Khronos's validator checks them:
/// one issue per attribute and kind, with the first element and the count.
fn unit_vectors(check: &mut Check<'_>, primitive: &Primitive, pointer: &str) {
    let mut found = Vec::new();
    for (semantic, name, width) in [(Semantic::Normals, "NORMAL", 3), (Semantic::Tangents, "TANGENT", 4)] {
        let Some(index) = primitive.attributes.get(&Checked::Valid(semantic.clone())).map(|i| i.value()) else {
            continue;
        };
        let (Some(data), Some(format)) = (check.data(index), Format::of(check, index)) else { continue };
        if format.components() != width {
            continue; // A wrong type is reported with the attribute's format.
        }
        let vectors = data.chunks_exact(width).enumerate();
        let length = |v: &[f32]| v.iter().take(3).map(|&c| format.value(c).powi(2)).sum::<f64>().sqrt();
        let non_unit =
            vectors.clone().map(|(e, v)| (e, length(v))).filter(|(_, l)| (l - 1.0).abs() > VECTOR_UNIT_TOLERANCE);
        let bad_sign =
            vectors.filter_map(|(e, v)| v.get(3).map(|&w| (e, format.value(w)))).filter(|(_, w)| w.abs() != 1.0);
        let attribute = format!("{pointer}/attributes/{name}");
        if let Some(((first, length), count)) = first_and_count(non_unit) {
            let message = format!("element {first} has length {length}, not 1{}", in_all(count));
            found.push(("ACCESSOR_VECTOR3_NON_UNIT", attribute.clone(), message));
        }
        if let Some(((first, w), count)) = first_and_count(bad_sign) {
            let message = format!("element {first} has w = {w}, not 1 or -1 (the bitangent's sign){}", in_all(count));
            found.push(("ACCESSOR_INVALID_SIGN", attribute, message));
        }
    }
    for (code, attribute, message) in found {
        check.error(code, attribute, message);
    }
}

/// Float COLOR_n components within 0..1, as Khronos's validator checks them (integer ones are
/// normalized, so always within).
fn clamped_colors(check: &mut Check<'_>, primitive: &Primitive, pointer: &str) {
    let mut found = Vec::new();
    for (semantic, index) in &primitive.attributes {
        let Checked::Valid(Semantic::Colors(n)) = semantic else { continue };
        let (Some(data), Some(format)) = (check.data(index.value()), Format::of(check, index.value())) else {
            continue;
        };
        if format.component != F32 {
            continue;
        }
        let outside = data.iter().enumerate().filter(|(_, c)| !(0.0..=1.0).contains(*c));
        if let Some(((first, value), count)) = first_and_count(outside) {
            let message = format!("component {first} is {value}, outside 0..1{}", in_all(count));
            found.push((format!("{pointer}/attributes/COLOR_{n}"), message));
        }
    }
    for (attribute, message) in found {
        check.error("ACCESSOR_NON_CLAMPED", attribute, message);
    }
}

/// The first item and how many there are.
fn first_and_count<T>(mut items: impl Iterator<Item = T>) -> Option<(T, usize)> {
    let first = items.next()?;
    Some((first, 1 + items.count()))
}

/// " (n in all)" past one.
fn in_all(count: usize) -> String {
    if count > 1 { format!(" ({count} in all)") } else { String::new() }
}

/// Every texture of the primitive's material reads a TEXCOORD set the primitive has.
fn texture_coordinates(check: &mut Check<'_>, primitive: &Primitive, pointer: &str) {
    let Some(material_index) = primitive.material else { return };
    let Some(material) = check.root.materials.get(material_index.value()) else { return };
    let pbr = &material.pbr_metallic_roughness;
    let bindings = [
        ("pbrMetallicRoughness/baseColorTexture", pbr.base_color_texture.as_ref().map(|t| t.tex_coord)),
        ("pbrMetallicRoughness/metallicRoughnessTexture", pbr.metallic_roughness_texture.as_ref().map(|t| t.tex_coord)),
        ("normalTexture", material.normal_texture.as_ref().map(|t| t.tex_coord)),
        ("occlusionTexture", material.occlusion_texture.as_ref().map(|t| t.tex_coord)),
        ("emissiveTexture", material.emissive_texture.as_ref().map(|t| t.tex_coord)),
    ];
    for (binding, set) in bindings {
        let Some(set) = set else { continue };
        if !primitive.attributes.contains_key(&Checked::Valid(Semantic::TexCoords(set))) {
            let message = format!(
                "its material's texture /materials/{}/{binding} needs the TEXCOORD_{set} attribute, which the \
                 primitive lacks",
                material_index.value()
            );
            check.error("MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", format!("{pointer}/material"), message);
        }
    }
}

/// Per mesh, the fewest joints of the skins of the nodes that show it: its joint indices must
/// stay below that. `None` when no node shows the mesh with a skin.
fn max_joints(check: &Check<'_>) -> Vec<Option<usize>> {
    let mut max = vec![None; check.root.meshes.len()];
    for node in &check.root.nodes {
        let skin = node.skin.and_then(|s| check.root.skins.get(s.value())).map(|s| s.joints.len());
        if let (Some(slot), Some(joints)) = (node.mesh.and_then(|m| max.get_mut(m.value())), skin.filter(|&j| j > 0)) {
            *slot = Some(slot.map_or(joints, |m: usize| m.min(joints)));
        }
    }
    max
}

/// Checks the attributes of a primitive; returns its vertex count (POSITION's count) when it
/// has a POSITION accessor within the limits.
fn attributes(check: &mut Check<'_>, primitive: &Primitive, pointer: &str) -> Option<u64> {
    let root = check.root;
    let quantized = check.uses_extension(QUANTIZATION);
    let count = |index: usize| root.accessors.get(index).map(|a| a.count.0);
    let position = primitive.attributes.get(&Checked::Valid(Semantic::Positions)).and_then(|i| count(i.value()));
    let vertices = position.or_else(|| primitive.attributes.values().find_map(|i| count(i.value())));
    let mut sets: [BTreeSet<u32>; 4] = Default::default();
    for (semantic, index) in &primitive.attributes {
        let Checked::Valid(semantic) = semantic else { continue };
        let name = semantic.to_string();
        let attribute = format!("{pointer}/attributes/{name}");
        if let Some(found) = count(index.value())
            && Some(found) != vertices
        {
            let message = format!("{found} elements, but the primitive has {} vertices", vertices.unwrap_or(0));
            check.error("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", &attribute, message);
        }
        let (plain, with_quantization) = attribute_formats(semantic);
        let format = Format::of(check, index.value());
        let exists = index.value() < root.accessors.len();
        if !plain.is_empty()
            && exists
            && format.is_none_or(|f| !(f.is_one_of(plain) || (quantized && f.is_one_of(with_quantization))))
        {
            let stored = format.map_or_else(|| "an unknown type or component type".to_owned(), Format::describe);
            let message = format!("{name} cannot be {stored}");
            check.error("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", &attribute, message);
        }
        match semantic {
            Semantic::TexCoords(n) => sets[0].insert(*n),
            Semantic::Colors(n) => sets[1].insert(*n),
            Semantic::Joints(n) => sets[2].insert(*n),
            Semantic::Weights(n) => sets[3].insert(*n),
            _ => false,
        };
    }
    let [texcoords, colors, joints, weights] = &sets;
    for (name, set) in [("TEXCOORD", texcoords), ("COLOR", colors), ("JOINTS", joints), ("WEIGHTS", weights)] {
        if set.iter().zip(0..).any(|(&n, expected)| n != expected) {
            let message = format!("{name}_n attributes must be numbered 0, 1, 2, ... without gaps");
            check.error("MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", format!("{pointer}/attributes"), message);
        }
    }
    if joints.len() != weights.len() {
        let message = format!("{} JOINTS_n attributes but {} WEIGHTS_n", joints.len(), weights.len());
        check.error("MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH", format!("{pointer}/attributes"), message);
    }
    let limit = check.limits.max_influences;
    if let Some(set) = joints.iter().chain(weights).copied().filter(|&s| s >= limit.div_ceil(4)).min() {
        let name = if joints.contains(&set) { "JOINTS" } else { "WEIGHTS" };
        let kind = ErrorKind::TooManyInfluences { set, limit };
        check.error(TOO_MANY_INFLUENCES, format!("{pointer}/attributes/{name}_{set}"), kind.to_string());
    }
    let vertices = position?;
    let limit = check.limits.max_vertices.min(u32::MAX.into());
    if vertices > limit {
        let fix = crate::error::limit_fix("vertices of a primitive");
        let message = format!("{vertices} vertices, over the limit of {limit}; {fix}");
        check.error(LIMIT_EXCEEDED, format!("{pointer}/attributes/POSITION"), message);
        return None;
    }
    Some(vertices)
}

/// The index accessor: its format, no stride, every index below the vertex count and none a
/// primitive restart value.
fn indices(check: &mut Check<'_>, primitive: &Primitive, vertices: u64, pointer: &str) {
    let Some(index) = primitive.indices.map(|i| i.value()) else {
        return;
    };
    let pointer = format!("{pointer}/indices");
    let Some(format) = Format::of(check, index) else {
        if index < check.root.accessors.len() {
            let message = "indices must be SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT";
            check.error("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", pointer, message);
        }
        return;
    };
    if !format.is_one_of(&[(Scalar, U8, false), (Scalar, U16, false), (Scalar, U32, false)]) {
        let message = format!("indices cannot be {}", format.describe());
        check.error("MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", pointer, message);
        return;
    }
    let view = check.root.accessors.get(index).and_then(|a| check.root.buffer_views.get(a.buffer_view?.value()));
    if view.is_some_and(|v| v.byte_stride.is_some()) {
        let message = "the buffer view of indices cannot have a byteStride";
        check.error("MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", &pointer, message);
    }
    let restart = match format.component {
        U8 => f32::from(u8::MAX),
        U16 => f32::from(u16::MAX),
        _ => u32::MAX as f32,
    };
    let Some(data) = check.data(index) else {
        return;
    };
    let restarts = data.iter().position(|&v| v == restart);
    let out_of_range = data.iter().position(|&v| f64::from(v) >= vertices as f64);
    if let Some(at) = restarts {
        let message = format!("index {at} is the primitive restart value {restart}");
        check.error("ACCESSOR_INDEX_PRIMITIVE_RESTART", &pointer, message);
    } else if let Some(at) = out_of_range {
        let value = data.get(at).copied().unwrap_or_default();
        let message = format!("index {at} is {value}, but the primitive has {vertices} vertices");
        check.error("ACCESSOR_INDEX_OOB", pointer, message);
    }
}

/// Every morph target attribute moves an attribute the primitive has, is a VEC3 of deltas (of
/// floats, or with KHR_mesh_quantization of bytes or shorts) and has one element per vertex.
fn morph_targets(check: &mut Check<'_>, primitive: &Primitive, vertices: u64, pointer: &str) {
    let quantized = check.uses_extension(QUANTIZATION);
    let deltas: Formats = &[(Vec3, I8, false), (Vec3, I8, true), (Vec3, I16, false), (Vec3, I16, true)];
    for (t, target) in primitive.targets.iter().flatten().enumerate() {
        for (name, index) in [("POSITION", target.positions), ("NORMAL", target.normals), ("TANGENT", target.tangents)]
        {
            let Some(accessor) = index.and_then(|i| check.root.accessors.get(i.value())) else {
                continue;
            };
            let target_pointer = format!("{pointer}/targets/{t}/{name}");
            if !primitive.attributes.keys().any(|s| matches!(s, Checked::Valid(s) if s.to_string() == name)) {
                let message = format!("the target moves {name}, which the primitive does not have");
                check.error("MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", &target_pointer, message);
            }
            if let Some(format) = index.and_then(|i| Format::of(check, i.value()))
                && !format.is_one_of(&[(Vec3, F32, false)])
                && !(quantized && format.is_one_of(deltas))
            {
                let message = format!("a morph target's {name} cannot be {}", format.describe());
                check.error("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", &target_pointer, message);
            }
            if accessor.count.0 != vertices {
                let message = format!("{} elements, but the primitive has {vertices} vertices", accessor.count.0);
                check.error("MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", target_pointer, message);
            }
        }
    }
}

/// One kind of influence problem, counted over the vertices of a primitive.
struct Tally {
    code: &'static str,
    pointer: String,
    warning: bool,
    first: String,
    count: usize,
}

/// The skinning influences of one primitive, checked vertex by vertex as Khronos's validator
/// does.
struct Influences<'d> {
    /// Per set: stored joint components, stored weight components, weights' format.
    sets: Vec<(&'d [f32], &'d [f32], Format)>,
    /// Whether a weight set was quantized by Draco, so that its sums are not checked.
    quantized: bool,
    vertices: usize,
    max_joint: usize,
    pointer: String,
}

impl<'d> Influences<'d> {
    /// The influences of `primitive`, or none to check when a set's data is missing or its
    /// count is not the vertex count (reported elsewhere).
    fn new(check: &'d Check<'_>, primitive: &Primitive, vertices: u64, max_joints: usize, pointer: &str) -> Self {
        let attribute = |semantic| primitive.attributes.get(&Checked::Valid(semantic)).map(|i| i.value());
        let vertex_count = usize::try_from(vertices).unwrap_or(0);
        let mut sets = Vec::new();
        let mut quantized = false;
        for set in 0..joint_sets(primitive) {
            let set = u32::try_from(set).unwrap_or(u32::MAX);
            let (Some(joints), Some(weights)) = (attribute(Semantic::Joints(set)), attribute(Semantic::Weights(set)))
            else {
                sets.clear();
                break;
            };
            let complete = |data: &[f32]| data.len() == 4 * vertex_count;
            match (check.data(joints), check.data(weights), Format::of(check, weights)) {
                (Some(j), Some(w), Some(format)) if complete(j) && complete(w) => {
                    quantized |= check.compressed.contains(&weights);
                    sets.push((j, w, format));
                }
                _ => {
                    sets.clear();
                    break;
                }
            }
        }
        let max_joint = max_joints.saturating_sub(1);
        Self { sets, quantized, vertices: vertex_count, max_joint, pointer: pointer.to_owned() }
    }

    /// Each kind of problem once per attribute, with its first occurrence and count.
    fn issues(&self) -> Vec<Issue> {
        let mut tallies: Vec<Tally> = Vec::new();
        let mut note = |code: &'static str, attribute: String, warning: bool, message: String| {
            let pointer = format!("{}/attributes/{attribute}", self.pointer);
            match tallies.iter_mut().find(|t| t.code == code && t.pointer == pointer) {
                Some(tally) => tally.count += 1,
                None => tallies.push(Tally { code, pointer, warning, first: message, count: 1 }),
            }
        };
        let mut used = BTreeSet::new();
        for vertex in 0..self.vertices {
            let (mut sum, mut tolerance) = (0.0f32, 0.0f32);
            used.clear();
            for c in 0..4 {
                for (set, &(joints, weights, format)) in self.sets.iter().enumerate() {
                    let at = 4 * vertex + c;
                    let (Some(&joint), Some(&weight)) = (joints.get(at), weights.get(at)) else { continue };
                    let weight = format.value(weight);
                    if f64::from(joint) > self.max_joint as f64 {
                        let message =
                            format!("vertex {vertex} uses joint {joint}, past the last joint {}", self.max_joint);
                        note("ACCESSOR_JOINTS_INDEX_OOB", format!("JOINTS_{set}"), false, message);
                        continue;
                    }
                    if weight == 0.0 {
                        if joint != 0.0 {
                            let message = format!("vertex {vertex} names joint {joint} with weight 0");
                            note("ACCESSOR_JOINTS_USED_ZERO_WEIGHT", format!("JOINTS_{set}"), true, message);
                        }
                        continue;
                    }
                    let unique = used.insert(joint.to_bits());
                    if !unique {
                        let message = format!("vertex {vertex} uses joint {joint} twice");
                        note("ACCESSOR_JOINTS_INDEX_DUPLICATE", format!("JOINTS_{set}"), false, message);
                    }
                    if weight < 0.0 {
                        let message = format!("vertex {vertex} has weight {weight}");
                        note("ACCESSOR_WEIGHTS_NEGATIVE", format!("WEIGHTS_{set}"), false, message);
                    } else if unique {
                        // Within f32 precision, as Khronos's validator sums.
                        sum = (f64::from(sum) + weight) as f32;
                        tolerance += WEIGHT_SUM_TOLERANCE;
                    }
                }
            }
            if !self.quantized && (sum - 1.0).abs() > tolerance {
                for set in 0..self.sets.len() {
                    let message = format!("the weights of vertex {vertex} sum to {sum}, not 1");
                    note("ACCESSOR_WEIGHTS_NON_NORMALIZED", format!("WEIGHTS_{set}"), false, message);
                }
            }
        }
        let issue = |tally: Tally| {
            let message = match tally.count {
                1 => tally.first,
                n => format!("{} ({n} in all)", tally.first),
            };
            match tally.warning {
                true => Issue::warning(tally.code, tally.pointer, message),
                false => Issue::error(tally.code, tally.pointer, message),
            }
        };
        tallies.into_iter().map(issue).collect()
    }
}
