//! Primitives compressed by Draco (`KHR_draco_mesh_compression`: Blender's "Compression" export
//! option, glTF-Transform's and gltf-pipeline's `draco`), decoded by `draco-core`, a pure-Rust
//! port of Google's decoder. A primitive is decoded when one of its accessors is first read,
//! with the points, faces and bytes the stream may produce capped first (by the accessors'
//! declared counts and the budget), and what it produced charged to the budget.
//!
//! Such a primitive keeps its accessors, without buffer views: their type, component type,
//! `normalized` and count say what each decoded attribute (named by its Draco unique id) and
//! the decoded triangles become, converted as Google's decoder converts them for three.js.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use draco_core::{DataType, DecodeLimits, DecoderBuffer, MeshDecoder};
use gltf::json::accessor::{Accessor, ComponentType, GenericComponentType};
use gltf::json::mesh::Primitive;
use gltf::json::validation::Checked;
use gltf::json::{Root, accessor};
use serde::Deserialize;

use crate::buffers::Buffers;
use crate::error::{ErrorKind, ImportError};
use crate::limits::{self, Budget, Limits};

/// The extension's name.
const EXTENSION: &str = "KHR_draco_mesh_compression";

/// A primitive's extension, as the file writes it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Extension {
    buffer_view: usize,
    /// Per glTF attribute name, the unique id of the Draco attribute that fills it.
    attributes: BTreeMap<String, u32>,
}

/// The buffer view holding `primitive`'s compressed data, if it is compressed.
pub(crate) fn view_of(primitive: &Primitive) -> Option<usize> {
    let value = primitive.extensions.as_ref()?.others.get(EXTENSION)?;
    usize::try_from(value.get("bufferView")?.as_u64()?).ok()
}

/// What of a compressed primitive fills an accessor.
#[derive(Clone, Copy, Debug)]
enum Fill {
    /// The Draco attribute of this unique id.
    Attribute(u32),
    /// The triangles.
    Indices,
}

/// One compressed primitive, decoded once something reads it.
#[derive(Debug)]
struct Compressed {
    /// `meshes[m].primitives[p].extensions.KHR_draco_mesh_compression`.
    path: String,
    /// The extension, or why it cannot be read.
    extension: Result<Extension, String>,
    /// The declared counts the decode may not pass: the points (of its attribute accessors),
    /// the faces (of its index accessor; `None` without one, when the accessor limit caps them).
    points: u64,
    faces: Option<u64>,
    decoded: OnceCell<draco_core::Mesh>,
    /// Why the decoder failed on the stream, once it has (not tried again for the next accessor).
    failure: OnceCell<String>,
}

/// The compressed primitives of a file, and the accessors they fill.
#[derive(Debug, Default)]
pub(crate) struct DracoPrimitives {
    /// Per accessor that a compressed primitive fills: that primitive (in `primitives`) and what.
    fills: BTreeMap<usize, (usize, Fill)>,
    primitives: Vec<Compressed>,
}

impl DracoPrimitives {
    /// The compressed primitives of `root` (none, cheaply, in a file without the extension).
    pub(crate) fn new(root: &Root) -> Self {
        let mut out = Self::default();
        if !root.extensions_used.iter().any(|e| e == EXTENSION) {
            return out;
        }
        let count = |index: Option<usize>| index.and_then(|i| root.accessors.get(i)).map_or(0, |a| a.count.0);
        for (m, mesh) in root.meshes.iter().enumerate() {
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let Some(value) = primitive.extensions.as_ref().and_then(|e| e.others.get(EXTENSION)) else {
                    continue;
                };
                let slot = out.primitives.len();
                let extension = Extension::deserialize(value).map_err(|e| e.to_string());
                let filled: Vec<(usize, Fill)> = primitive
                    .attributes
                    .iter()
                    .filter_map(|(semantic, index)| {
                        let Checked::Valid(semantic) = semantic else { return None };
                        let id = extension.as_ref().ok()?.attributes.get(&semantic.to_string())?;
                        Some((index.value(), Fill::Attribute(*id)))
                    })
                    .chain(primitive.indices.map(|i| (i.value(), Fill::Indices)))
                    .collect();
                let points =
                    filled.iter().filter(|(_, f)| matches!(f, Fill::Attribute(_))).map(|(a, _)| count(Some(*a)));
                let compressed = Compressed {
                    path: format!("meshes[{m}].primitives[{p}].extensions.{EXTENSION}"),
                    extension,
                    points: points.max().unwrap_or(0),
                    faces: primitive.indices.map(|i| count(Some(i.value())) / 3),
                    decoded: OnceCell::new(),
                    failure: OnceCell::new(),
                };
                out.primitives.push(compressed);
                for (accessor, fill) in filled {
                    out.fills.entry(accessor).or_insert((slot, fill));
                }
            }
        }
        out
    }

    /// Whether a compressed primitive fills accessor `index`.
    pub(crate) fn fills(&self, index: usize) -> bool {
        self.fills.contains_key(&index)
    }

    /// The data of accessor `index` when a compressed primitive fills it: its elements in its
    /// own component type, tightly packed, the primitive decoded first if it is not yet.
    /// `None` when no compressed primitive fills it.
    pub(crate) fn fill(
        &self,
        index: usize,
        root: &Root,
        buffers: &Buffers<'_>,
        limits: &Limits,
        budget: &Budget,
    ) -> Option<Result<Vec<u8>, ImportError>> {
        let (slot, fill) = *self.fills.get(&index)?;
        let compressed = self.primitives.get(slot)?;
        let accessor = root.accessors.get(index)?;
        Some(compressed.decode(root, buffers, limits, budget).and_then(|mesh| {
            let path = &compressed.path;
            let packed = match fill {
                Fill::Attribute(id) => attribute(mesh, id, accessor, path)?,
                Fill::Indices => indices(mesh, accessor, path)?,
            };
            budget.charge(packed.len() as u64, path)?;
            Ok(packed)
        }))
    }
}

impl Compressed {
    /// The decoded mesh, decoded now if it is not yet.
    fn decode(
        &self,
        root: &Root,
        buffers: &Buffers<'_>,
        limits: &Limits,
        budget: &Budget,
    ) -> Result<&draco_core::Mesh, ImportError> {
        let path = &self.path;
        if let Some(mesh) = self.decoded.get() {
            return Ok(mesh);
        }
        if let Some(reason) = self.failure.get() {
            return Err(failed(path, reason.clone()));
        }
        let extension = self.extension.as_ref().map_err(|reason| failed(path, format!("the extension: {reason}")))?;
        limits::check(self.points, limits.max_vertices, "vertices of a primitive", path)?;
        let stream = buffers.view(root, extension.buffer_view, limits, budget)?;
        let caps = DecodeLimits::default()
            .with_max_points(self.points)
            .with_max_faces(self.faces.unwrap_or(limits.max_accessor_elements / 3))
            .with_max_decoded_bytes(budget.remaining());
        let mut buffer = DecoderBuffer::new(stream).with_limits(caps);
        let mut mesh = draco_core::Mesh::new();
        // The decoder reports malformed streams as errors; should it still panic on one,
        // that primitive is dropped rather than the game brought down.
        let reason = match catch_unwind(AssertUnwindSafe(|| MeshDecoder::new().decode(&mut buffer, &mut mesh))) {
            Ok(Ok(())) => None,
            Ok(Err(error)) => Some(format!("Draco could not decode it ({error})")),
            Err(_) => Some("the Draco decoder failed on it".to_owned()),
        };
        if let Some(reason) = reason {
            return Err(failed(path, self.failure.get_or_init(|| reason).clone()));
        }
        let attributes = (0..mesh.num_attributes()).filter_map(|i| mesh.try_attribute(i).ok());
        let bytes = attributes.map(|a| a.buffer().data().len() as u64).sum::<u64>();
        budget.charge(bytes.saturating_add(mesh.num_faces() as u64 * 12), path)?;
        Ok(self.decoded.get_or_init(|| mesh))
    }
}

fn failed(path: &str, reason: String) -> ImportError {
    ImportError::at(path, ErrorKind::Decompression { reason })
}

/// The accessor's component type and number of components, or why it has none.
fn format(accessor: &Accessor, path: &str) -> Result<(ComponentType, usize), ImportError> {
    let components = match accessor.type_ {
        Checked::Valid(accessor::Type::Scalar) => 1,
        Checked::Valid(accessor::Type::Vec2) => 2,
        Checked::Valid(accessor::Type::Vec3) => 3,
        Checked::Valid(accessor::Type::Vec4) => 4,
        _ => return Err(failed(path, "it fills an accessor that is not a SCALAR or a vector".to_owned())),
    };
    match accessor.component_type {
        Checked::Valid(GenericComponentType(component)) => Ok((component, components)),
        Checked::Invalid => Err(failed(path, "it fills an accessor of an invalid component type".to_owned())),
    }
}

/// The values of Draco attribute `id`, as elements of `accessor`.
fn attribute(mesh: &draco_core::Mesh, id: u32, accessor: &Accessor, path: &str) -> Result<Vec<u8>, ImportError> {
    let attribute =
        mesh.attribute_by_unique_id(id).ok_or_else(|| failed(path, format!("it has no attribute of id {id}")))?;
    let (component, components) = format(accessor, path)?;
    if usize::from(attribute.num_components()) != components {
        let reason =
            format!("attribute {id} has {} components, but its accessor {components}", attribute.num_components());
        return Err(failed(path, reason));
    }
    let points = mesh.num_points();
    if points as u64 != accessor.count.0 {
        let reason = format!("it decodes to {points} points, but the accessor's count is {}", accessor.count.0);
        return Err(failed(path, reason));
    }
    // Floats stored for a normalized integer accessor are scaled to its range, as Draco does.
    let float = matches!(attribute.data_type(), DataType::Float32 | DataType::Float64);
    let quantize = float && accessor.normalized;
    let mut packed = Vec::with_capacity(points.saturating_mul(components).saturating_mul(component.size()));
    for value in attribute.read_f32s(points, components) {
        push_component(&mut packed, component, quantize, value);
    }
    Ok(packed)
}

/// Appends `value` as a little-endian `component` (scaled to its range when `quantize`).
fn push_component(out: &mut Vec<u8>, component: ComponentType, quantize: bool, value: f32) {
    let scaled = |max: f32| if quantize { (value * max).round() } else { value };
    // `as` saturates: a value outside the type is clamped to it, as in Draco's conversion.
    match component {
        ComponentType::I8 => out.extend_from_slice(&(scaled(127.0) as i8).to_le_bytes()),
        ComponentType::U8 => out.extend_from_slice(&(scaled(255.0) as u8).to_le_bytes()),
        ComponentType::I16 => out.extend_from_slice(&(scaled(32767.0) as i16).to_le_bytes()),
        ComponentType::U16 => out.extend_from_slice(&(scaled(65535.0) as u16).to_le_bytes()),
        ComponentType::U32 => out.extend_from_slice(&(value as u32).to_le_bytes()),
        ComponentType::F32 => out.extend_from_slice(&value.to_le_bytes()),
    }
}

/// The decoded triangles, as elements of the index `accessor`.
fn indices(mesh: &draco_core::Mesh, accessor: &Accessor, path: &str) -> Result<Vec<u8>, ImportError> {
    let (component, _) = format(accessor, path)?;
    let count = (mesh.num_faces() as u64).saturating_mul(3);
    if count != accessor.count.0 {
        let reason = format!("it decodes to {count} indices, but the index accessor's count is {}", accessor.count.0);
        return Err(failed(path, reason));
    }
    let max = match component {
        ComponentType::U8 => u32::from(u8::MAX),
        ComponentType::U16 => u32::from(u16::MAX),
        _ => u32::MAX,
    };
    let mut packed = Vec::with_capacity(usize::try_from(count).unwrap_or(0).saturating_mul(component.size()));
    for point in mesh.faces().iter().flatten() {
        let index = point.0;
        if index > max {
            return Err(failed(path, format!("index {index} does not fit the index accessor's component type")));
        }
        match component {
            ComponentType::U8 => packed.push(index as u8),
            ComponentType::U16 => packed.extend_from_slice(&(index as u16).to_le_bytes()),
            _ => packed.extend_from_slice(&index.to_le_bytes()),
        }
    }
    Ok(packed)
}
