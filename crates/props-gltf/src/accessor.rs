//! The accessor decoder: typed elements out of buffer views, with every count, offset,
//! stride and sparse index checked against the actual data and the limits before anything
//! is allocated. (The gltf crate's readers are not used: they trust declared counts.)
//!
//! Over 600 lines: a third of it is the unit tests, which need the decoder's private readers;
//! the decoder itself is about 440.

use glam::Vec3;
use gltf::json::Root;
use gltf::json::accessor::{ComponentType, GenericComponentType, IndexComponentType, Type, sparse::Sparse};
use gltf::json::validation::Checked;

use crate::buffers::Buffers;
use crate::draco::DracoPrimitives;
use crate::error::{ErrorKind, ImportError};
use crate::limits::{self, Budget, Limits};

/// Whether an accepted component type must be `normalized`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Norm {
    /// Must be normalized.
    Yes,
    /// Must not be normalized.
    No,
    /// Either.
    Either,
}

/// One accepted encoding of an accessor's components.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Encoding(pub ComponentType, pub Norm);

impl Encoding {
    fn accepts(self, component: ComponentType, normalized: bool) -> bool {
        self.0 == component && (self.1 == Norm::Either || (self.1 == Norm::Yes) == normalized)
    }

    fn describe(self) -> String {
        let name = component_name(self.0);
        match self.1 {
            Norm::Yes => format!("normalized {name}"),
            Norm::No => name.to_owned(),
            Norm::Either => format!("{name} (normalized or not)"),
        }
    }
}

use ComponentType::{F32, I8, I16, U8, U16, U32};

/// Plain floats.
pub(crate) const FLOAT: &[Encoding] = &[Encoding(F32, Norm::No)];
/// Positions, texture coordinates and morph displacements (KHR_mesh_quantization).
pub(crate) const QUANTIZED: &[Encoding] = &[
    Encoding(F32, Norm::No),
    Encoding(I8, Norm::Either),
    Encoding(U8, Norm::Either),
    Encoding(I16, Norm::Either),
    Encoding(U16, Norm::Either),
];
/// Normals (KHR_mesh_quantization).
pub(crate) const NORMALS: &[Encoding] = &[Encoding(F32, Norm::No), Encoding(I8, Norm::Yes), Encoding(I16, Norm::Yes)];
/// Skinning weights, and vertex colours.
pub(crate) const WEIGHTS: &[Encoding] = &[Encoding(F32, Norm::No), Encoding(U8, Norm::Yes), Encoding(U16, Norm::Yes)];
/// Skinning joint indices.
pub(crate) const JOINTS: &[Encoding] = &[Encoding(U8, Norm::No), Encoding(U16, Norm::No)];
/// Vertex indices.
pub(crate) const INDICES: &[Encoding] = &[Encoding(U8, Norm::No), Encoding(U16, Norm::No), Encoding(U32, Norm::No)];
/// Animated rotations and morph weights.
pub(crate) const FLOAT_OR_NORMALIZED: &[Encoding] = &[
    Encoding(F32, Norm::No),
    Encoding(I8, Norm::Yes),
    Encoding(U8, Norm::Yes),
    Encoding(I16, Norm::Yes),
    Encoding(U16, Norm::Yes),
];

/// Values of `KHR_animation_pointer` float properties: floats, integers (converted), and
/// normalized integers (dequantized).
pub(crate) const POINTER_FLOAT: &[Encoding] = &[
    Encoding(F32, Norm::No),
    Encoding(I8, Norm::Either),
    Encoding(U8, Norm::Either),
    Encoding(I16, Norm::Either),
    Encoding(U16, Norm::Either),
    Encoding(U32, Norm::No),
];
/// Values of `KHR_animation_pointer` booleans: unsigned bytes as the extension requires
/// (and floats, which exporters write: 0 is false).
pub(crate) const BOOLEAN: &[Encoding] = &[Encoding(U8, Norm::No), Encoding(F32, Norm::No)];
/// A component value as the importer uses it.
pub(crate) trait Component: Copy + Default {
    /// Decodes one little-endian component of type `ty` from the start of `bytes`.
    fn decode(ty: ComponentType, normalized: bool, bytes: &[u8]) -> Self;
    /// False for NaN and infinities.
    fn is_finite(self) -> bool;
}

impl Component for f32 {
    /// Floats as stored; normalized integers dequantized exactly as the glTF spec says;
    /// other integers converted to their value (KHR_mesh_quantization).
    fn decode(ty: ComponentType, normalized: bool, bytes: &[u8]) -> Self {
        let value = match ty {
            I8 => f32::from(i8::from_le_bytes(le(bytes))),
            U8 => f32::from(u8::from_le_bytes(le(bytes))),
            I16 => f32::from(i16::from_le_bytes(le(bytes))),
            U16 => f32::from(u16::from_le_bytes(le(bytes))),
            // Not accepted by any float use, and not normalizable.
            U32 => return u32::from_le_bytes(le(bytes)) as f32,
            F32 => return f32::from_le_bytes(le(bytes)),
        };
        if normalized { dequantize(ty, value) } else { value }
    }

    fn is_finite(self) -> bool {
        f32::is_finite(self)
    }
}

/// A normalized integer component (its stored `value`) as the float it stands for, by the glTF
/// spec's formulas; FLOAT and UNSIGNED_INT values are returned as they are.
pub(crate) fn dequantize(ty: ComponentType, value: f32) -> f32 {
    let (scale, min) = match ty {
        I8 => (127.0, -1.0),
        U8 => (255.0, 0.0),
        I16 => (32767.0, -1.0),
        U16 => (65535.0, 0.0),
        U32 | F32 => return value,
    };
    f32::max(value / scale, min)
}

impl Component for u32 {
    fn decode(ty: ComponentType, _normalized: bool, bytes: &[u8]) -> Self {
        match ty {
            U8 => u8::from_le_bytes(le(bytes)).into(),
            U16 => u16::from_le_bytes(le(bytes)).into(),
            U32 => u32::from_le_bytes(le(bytes)),
            // Never accepted for integer uses (see the encoding tables).
            I8 | I16 | F32 => 0,
        }
    }

    fn is_finite(self) -> bool {
        true
    }
}

/// The first `K` bytes of `bytes` (callers pass at least `K`).
fn le<const K: usize>(bytes: &[u8]) -> [u8; K] {
    bytes.first_chunk().copied().unwrap_or([0; K])
}

/// Reads accessors of one file.
pub(crate) struct Accessors<'a> {
    root: &'a Root,
    buffers: &'a Buffers<'a>,
    limits: &'a Limits,
    budget: &'a Budget,
    /// The primitives compressed by Draco, which fill accessors that have no buffer view.
    draco: DracoPrimitives,
}

/// Where and how to read elements of one (dense or sparse) part of an accessor.
struct Region<'p> {
    offset: u64,
    stride: Option<u64>,
    /// Elements the part has (all checked to lie in the data).
    count: u64,
    /// Elements decoded: the first `take` (at most `count`).
    take: u64,
    component: ComponentType,
    normalized: bool,
    path: &'p str,
}

impl<'a> Accessors<'a> {
    /// A reader over `root`'s accessors and `buffers`, charging decoded bytes to `budget`.
    pub(crate) fn new(root: &'a Root, buffers: &'a Buffers<'a>, limits: &'a Limits, budget: &'a Budget) -> Self {
        Self { root, buffers, limits, budget, draco: DracoPrimitives::new(root) }
    }

    /// The number of components of an element of accessor `index` (1 for SCALAR, 3 for VEC3,
    /// ...), or `None` when its type is invalid or it does not exist.
    pub(crate) fn components(&self, index: usize) -> Option<usize> {
        let ty = match self.root.accessors.get(index)?.type_ {
            Checked::Valid(ty) => ty,
            Checked::Invalid => return None,
        };
        [1, 2, 3, 4, 16].into_iter().find(|&n| element_type(n) == Some(ty))
    }

    /// The component type of accessor `index`, or `None` when it is invalid or it does not
    /// exist.
    pub(crate) fn component(&self, index: usize) -> Option<ComponentType> {
        match self.root.accessors.get(index)?.component_type {
            Checked::Valid(GenericComponentType(component)) => Some(component),
            Checked::Invalid => None,
        }
    }

    /// Whether a Draco-compressed primitive fills accessor `index`.
    pub(crate) fn is_compressed(&self, index: usize) -> bool {
        self.draco.fills(index)
    }

    /// The decoded-bytes budget the reads are charged to.
    pub(crate) fn budget(&self) -> &Budget {
        self.budget
    }

    /// The number of elements of accessor `index` (as declared; checked when read).
    pub(crate) fn count(&self, index: usize) -> u64 {
        self.root.accessors.get(index).map_or(0, |a| a.count.0)
    }

    /// Reads accessor `index`, referenced at `used_at`, as elements of `N` components
    /// (1: SCALAR, 2-4: VECn, 16: MAT4) whose encoding is one of `accepted`. Sparse
    /// substitutions are applied; float elements must be finite.
    pub(crate) fn read<T: Component, const N: usize>(
        &self,
        index: usize,
        used_at: &str,
        accepted: &[Encoding],
    ) -> Result<Vec<[T; N]>, ImportError> {
        self.read_first(index, used_at, accepted, u64::MAX)
    }

    /// [`Accessors::read`] of the first `used` elements only (all of them when it has fewer):
    /// what a reader that uses no more costs, whatever the accessor declares (a skin uses one
    /// inverse bind matrix per joint). The rest is checked to lie in the data, not decoded.
    pub(crate) fn read_first<T: Component, const N: usize>(
        &self,
        index: usize,
        used_at: &str,
        accepted: &[Encoding],
        used: u64,
    ) -> Result<Vec<[T; N]>, ImportError> {
        let (ty, component) = self.format(index, used_at)?;
        let normalized = self.root.accessors.get(index).is_some_and(|a| a.normalized);
        let expected = element_type(N);
        if Some(ty) != expected || !accepted.iter().any(|e| e.accepts(component, normalized)) {
            let found = format!(
                "{}{} of {}",
                if normalized { "normalized " } else { "" },
                type_name(ty),
                component_name(component)
            );
            let encodings: Vec<String> = accepted.iter().map(|e| e.describe()).collect();
            let expected = format!("{} of {}", expected.map_or("?", type_name), encodings.join(", "));
            return Err(ImportError::at(used_at, ErrorKind::WrongAccessorFormat { found, expected }));
        }
        let elements = self.decode::<T, N>(index, component, normalized, used)?;
        if let Some(element) = elements.iter().position(|e| !e.iter().all(|c| c.is_finite())) {
            return Err(ImportError::at(used_at, ErrorKind::NonFinite { element: element as u64 }));
        }
        Ok(elements)
    }

    /// Accessor `index`'s type and component type, or why it has none.
    fn format(&self, index: usize, used_at: &str) -> Result<(Type, ComponentType), ImportError> {
        let accessor =
            self.root.accessors.get(index).ok_or_else(|| ImportError::at(used_at, ErrorKind::InvalidIndex))?;
        match (accessor.type_, accessor.component_type) {
            (Checked::Valid(ty), Checked::Valid(GenericComponentType(component))) => Ok((ty, component)),
            _ => Err(ImportError::at(format!("accessors[{index}]"), ErrorKind::InvalidValue)),
        }
    }

    /// Every component of the first `used` elements of accessor `index` as stored (integers
    /// not dequantized, floats as they are, NaN included), element after element, sparse
    /// substitutions applied; `None` for MAT2 and MAT3 accessors, whose columns may be padded.
    /// Checks bounds and limits like [`Accessors::read`], but neither the format nor the values.
    pub(crate) fn read_raw(&self, index: usize, used: u64) -> Result<Option<Vec<f32>>, ImportError> {
        let path = format!("accessors[{index}]");
        let (ty, component) = self.format(index, &path)?;
        Ok(Some(match ty {
            Type::Scalar => self.decode::<f32, 1>(index, component, false, used)?.into_flattened(),
            Type::Vec2 => self.decode::<f32, 2>(index, component, false, used)?.into_flattened(),
            Type::Vec3 => self.decode::<f32, 3>(index, component, false, used)?.into_flattened(),
            Type::Vec4 => self.decode::<f32, 4>(index, component, false, used)?.into_flattened(),
            Type::Mat4 => self.decode::<f32, 16>(index, component, false, used)?.into_flattened(),
            Type::Mat2 | Type::Mat3 => return Ok(None),
        }))
    }

    /// Calls `visit` with the index and components (as stored, like [`Accessors::read_raw`]) of
    /// every element of accessor `index` in order, and how many times it repeats from there
    /// (a sparse accessor's zeros come as one run), streaming: no more than one element and the
    /// sparse part (which the file's bytes bound) is ever held, whatever the count, so a sparse
    /// accessor of millions of zeros is checked in constant memory. `false` for MAT2 and MAT3
    /// accessors and Draco-compressed ones (read those with [`Accessors::read_raw`]).
    pub(crate) fn scan_raw(&self, index: usize, mut visit: impl FnMut(u64, &[f32], u64)) -> Result<bool, ImportError> {
        let path = format!("accessors[{index}]");
        let (ty, component) = self.format(index, &path)?;
        let width = ty.multiplicity();
        if matches!(ty, Type::Mat2 | Type::Mat3) || self.draco.fills(index) {
            return Ok(false);
        }
        let accessor = self.root.accessors.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
        let count = accessor.count.0;
        limits::check(count, self.limits.max_accessor_elements, "accessor count", &path)?;
        let size = component.size();
        let dense = match accessor.buffer_view {
            Some(view) => {
                let stride = self.root.buffer_views.get(view.value()).and_then(|v| v.byte_stride).map(|s| s.0 as u64);
                let offset = accessor.byte_offset.map_or(0, |o| o.0);
                let bytes = self.buffers.view(self.root, view.value(), self.limits, self.budget)?;
                let stride = stride.unwrap_or((size * width) as u64);
                let region =
                    Region { offset, stride: Some(stride), count, take: 0, component, normalized: false, path: &path };
                Self::elements_in::<f32, 1>(bytes, &region)?;
                Some((bytes, offset as usize, stride as usize))
            }
            None => None,
        };
        let (indices, values) = match &accessor.sparse {
            Some(sparse) => self.sparse_raw(sparse, component, width, count, &path)?,
            None => (Vec::new(), Vec::new()),
        };
        let mut element = [0.0f32; 16];
        let mut next = 0;
        let mut e = 0;
        while e < count {
            let element = &mut element[..width];
            let substituted = indices.get(next).map(|&i| u64::from(i));
            if substituted == Some(e) {
                element.copy_from_slice(&values[next * width..(next + 1) * width]);
                next += 1;
                visit(e, element, 1);
                e += 1;
            } else if let Some((bytes, offset, stride)) = dense {
                let at = offset + e as usize * stride;
                for (c, value) in element.iter_mut().enumerate() {
                    *value = f32::decode(component, false, bytes.get(at + c * size..).unwrap_or_default());
                }
                visit(e, element, 1);
                e += 1;
            } else {
                // Zeros up to the next substitution, visited at once.
                let run = substituted.unwrap_or(count) - e;
                element.fill(0.0);
                visit(e, element, run);
                e += run;
            }
        }
        Ok(true)
    }

    /// The sparse part of an accessor of `count` elements of `width` raw components: its
    /// indices (checked to increase and to lie below `count`) and values.
    fn sparse_raw(
        &self,
        sparse: &Sparse,
        component: ComponentType,
        width: usize,
        count: u64,
        path: &str,
    ) -> Result<(Vec<u32>, Vec<f32>), ImportError> {
        let (indices, values) = match width {
            1 => self.sparse_part::<f32, 1>(sparse, component, false, path).map(flatten)?,
            2 => self.sparse_part::<f32, 2>(sparse, component, false, path).map(flatten)?,
            3 => self.sparse_part::<f32, 3>(sparse, component, false, path).map(flatten)?,
            4 => self.sparse_part::<f32, 4>(sparse, component, false, path).map(flatten)?,
            _ => self.sparse_part::<f32, 16>(sparse, component, false, path).map(flatten)?,
        };
        check_sparse_indices(&indices, count, &format!("{path}.sparse.indices"))?;
        Ok((indices, values))
    }

    /// Decodes accessor `index` (of `component`s, dequantized when `normalized`) as elements of
    /// `N` components, dense part and sparse substitutions, after checking them against the
    /// data and the limits.
    fn decode<T: Component, const N: usize>(
        &self,
        index: usize,
        component: ComponentType,
        normalized: bool,
        used: u64,
    ) -> Result<Vec<[T; N]>, ImportError> {
        let path = format!("accessors[{index}]");
        let accessor = self.root.accessors.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
        let count = accessor.count.0;
        limits::check(count, self.limits.max_accessor_elements, "accessor count", &path)?;
        let take = count.min(used);
        let mut elements = match accessor.buffer_view {
            Some(view) => {
                let stride = self.root.buffer_views.get(view.value()).and_then(|v| v.byte_stride).map(|s| s.0 as u64);
                let offset = accessor.byte_offset.map_or(0, |o| o.0);
                let region = Region { offset, stride, count, take, component, normalized, path: &path };
                self.elements(view.value(), &region)?
            }
            None => {
                self.reserve::<T, N>(take, &path)?;
                match self.draco.fill(index, self.root, self.buffers, self.limits, self.budget) {
                    Some(filled) => {
                        let region =
                            Region { offset: 0, stride: None, count, take, component, normalized, path: &path };
                        Self::elements_in(&filled?, &region)?
                    }
                    None => vec![[T::default(); N]; usize::try_from(take).unwrap_or(usize::MAX)],
                }
            }
        };
        if let Some(sparse) = &accessor.sparse {
            self.apply_sparse(sparse, &mut elements, (component, normalized), count, &path)?;
        }
        Ok(elements)
    }

    /// [`Accessors::read`] for SCALAR accessors.
    pub(crate) fn read_scalars<T: Component>(
        &self,
        index: usize,
        used_at: &str,
        accepted: &[Encoding],
    ) -> Result<Vec<T>, ImportError> {
        Ok(self.read::<T, 1>(index, used_at, accepted)?.into_flattened())
    }

    /// [`Accessors::read`] for VEC3 accessors of floats.
    pub(crate) fn read_vec3(
        &self,
        index: usize,
        used_at: &str,
        accepted: &[Encoding],
    ) -> Result<Vec<Vec3>, ImportError> {
        Ok(self.read::<f32, 3>(index, used_at, accepted)?.into_iter().map(Vec3::from_array).collect())
    }

    /// Checks `count` elements against the limits and charges their decoded size.
    fn reserve<T, const N: usize>(&self, count: u64, path: &str) -> Result<(), ImportError> {
        limits::check(count, self.limits.max_accessor_elements, "accessor count", path)?;
        self.budget.charge(count.saturating_mul(size_of::<[T; N]>() as u64), path)
    }

    /// Decodes `region.count` elements from buffer view `view`, after checking that they lie
    /// inside it.
    fn elements<T: Component, const N: usize>(
        &self,
        view: usize,
        region: &Region<'_>,
    ) -> Result<Vec<[T; N]>, ImportError> {
        self.reserve::<T, N>(region.take, region.path)?;
        let bytes = self.buffers.view(self.root, view, self.limits, self.budget)?;
        Self::elements_in(bytes, region)
    }

    /// Decodes the first `region.take` elements from `bytes`, after checking that all
    /// `region.count` lie inside them.
    fn elements_in<T: Component, const N: usize>(
        bytes: &[u8],
        region: &Region<'_>,
    ) -> Result<Vec<[T; N]>, ImportError> {
        let Region { offset, stride, count, take, component, normalized, path } = *region;
        let size = component.size();
        let element = (size * N) as u64;
        let stride = stride.unwrap_or(element);
        if stride < element {
            return Err(ImportError::at(path, ErrorKind::StrideTooSmall { stride, element }));
        }
        let end = match count.checked_sub(1) {
            Some(last) => offset.saturating_add(last.saturating_mul(stride)).saturating_add(element),
            None => offset,
        };
        let out_of_bounds = || {
            ImportError::at(path, ErrorKind::AccessorOutOfBounds { start: offset, end, view_len: bytes.len() as u64 })
        };
        let start = usize::try_from(offset).map_err(|_| out_of_bounds())?;
        let end_index = usize::try_from(end).map_err(|_| out_of_bounds())?;
        let data = bytes.get(start..end_index).ok_or_else(out_of_bounds)?;
        let stride = usize::try_from(stride).map_err(|_| out_of_bounds())?;
        let take = usize::try_from(take.min(count)).map_err(|_| out_of_bounds())?;
        Ok(data
            .chunks(stride)
            .take(take)
            .map(|chunk| {
                std::array::from_fn(|c| T::decode(component, normalized, chunk.get(c * size..).unwrap_or_default()))
            })
            .collect())
    }

    /// Overwrites the elements named by a sparse substitution (of an accessor of `count`
    /// elements, of which `elements` are the first).
    fn apply_sparse<T: Component, const N: usize>(
        &self,
        sparse: &Sparse,
        elements: &mut [[T; N]],
        (component, normalized): (ComponentType, bool),
        count: u64,
        path: &str,
    ) -> Result<(), ImportError> {
        let (indices, values) = self.sparse_part::<T, N>(sparse, component, normalized, path)?;
        check_sparse_indices(&indices, count, &format!("{path}.sparse.indices"))?;
        for (index, value) in indices.into_iter().zip(values) {
            if let Some(element) = usize::try_from(index).ok().and_then(|i| elements.get_mut(i)) {
                *element = value;
            }
        }
        Ok(())
    }

    /// A sparse part's indices and values, decoded (the file's bytes bound them).
    fn sparse_part<T: Component, const N: usize>(
        &self,
        sparse: &Sparse,
        component: ComponentType,
        normalized: bool,
        path: &str,
    ) -> Result<(Vec<u32>, Vec<[T; N]>), ImportError> {
        let indices_path = format!("{path}.sparse.indices");
        let Checked::Valid(IndexComponentType(index_type)) = sparse.indices.component_type else {
            return Err(ImportError::at(indices_path, ErrorKind::InvalidValue));
        };
        let count = sparse.count.0;
        let part = |offset: u64, component, normalized, path| Region {
            offset,
            stride: None,
            count,
            take: count,
            component,
            normalized,
            path,
        };
        let indices = self.elements::<u32, 1>(
            sparse.indices.buffer_view.value(),
            &part(sparse.indices.byte_offset.0, index_type, false, &indices_path),
        )?;
        let values_path = format!("{path}.sparse.values");
        let values = self.elements::<T, N>(
            sparse.values.buffer_view.value(),
            &part(sparse.values.byte_offset.0, component, normalized, &values_path),
        )?;
        Ok((indices.into_iter().map(|[i]| i).collect(), values))
    }
}

/// Checks that sparse `indices` increase and lie below the accessor's `count`.
fn check_sparse_indices(indices: &[u32], count: u64, path: &str) -> Result<(), ImportError> {
    let mut previous = None;
    for (entry, &index) in (0u64..).zip(indices) {
        if let Some(previous) = previous.filter(|&p| index <= p) {
            return Err(ImportError::at(path, ErrorKind::SparseIndexNotIncreasing { entry, index, previous }));
        }
        if u64::from(index) >= count {
            return Err(ImportError::at(path, ErrorKind::SparseIndexOutOfRange { entry, index, count }));
        }
        previous = Some(index);
    }
    Ok(())
}

/// Sparse values of `N` components as one list of components.
fn flatten<const N: usize>((indices, values): (Vec<u32>, Vec<[f32; N]>)) -> (Vec<u32>, Vec<f32>) {
    (indices, values.into_flattened())
}

/// The accessor type of an element of `n` components (only the types the importer reads).
fn element_type(n: usize) -> Option<Type> {
    match n {
        1 => Some(Type::Scalar),
        2 => Some(Type::Vec2),
        3 => Some(Type::Vec3),
        4 => Some(Type::Vec4),
        16 => Some(Type::Mat4),
        _ => None,
    }
}

/// The glTF name of an accessor type.
pub(crate) fn type_name(ty: Type) -> &'static str {
    match ty {
        Type::Scalar => "SCALAR",
        Type::Vec2 => "VEC2",
        Type::Vec3 => "VEC3",
        Type::Vec4 => "VEC4",
        Type::Mat2 => "MAT2",
        Type::Mat3 => "MAT3",
        Type::Mat4 => "MAT4",
    }
}

/// The glTF name of a component type.
pub(crate) fn component_name(component: ComponentType) -> &'static str {
    match component {
        I8 => "BYTE",
        U8 => "UNSIGNED_BYTE",
        I16 => "SHORT",
        U16 => "UNSIGNED_SHORT",
        U32 => "UNSIGNED_INT",
        F32 => "FLOAT",
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::{Value, json};

    use super::*;

    /// A document with one buffer holding `bin`, and the given views and accessors.
    struct Fixture {
        root: Root,
        bin: Vec<u8>,
    }

    impl Fixture {
        fn new(bin: Vec<u8>, views: Value, accessors: Value) -> Self {
            let root = serde_json::from_value(json!({
                "asset": {"version": "2.0"},
                "buffers": [{"byteLength": bin.len()}],
                "bufferViews": views,
                "accessors": accessors,
            }))
            .expect("valid root");
            Self { root, bin }
        }

        fn read<T: Component, const N: usize>(
            &self,
            index: usize,
            accepted: &[Encoding],
        ) -> Result<Vec<[T; N]>, ImportError> {
            self.read_with::<T, N>(index, accepted, &Limits::default())
        }

        fn read_with<T: Component, const N: usize>(
            &self,
            index: usize,
            accepted: &[Encoding],
            limits: &Limits,
        ) -> Result<Vec<[T; N]>, ImportError> {
            let buffers = Buffers::load(&self.root, Some(Cow::Borrowed(&self.bin)), None, limits)?;
            let budget = Budget::new(limits.max_decoded_bytes);
            Accessors::new(&self.root, &buffers, limits, &budget).read::<T, N>(index, "use", accepted)
        }
    }

    fn bytes<const K: usize>(values: impl IntoIterator<Item = [u8; K]>) -> Vec<u8> {
        values.into_iter().flatten().collect()
    }

    fn scalar(component: u32, normalized: bool, count: usize) -> Value {
        json!({"bufferView": 0, "componentType": component, "type": "SCALAR", "count": count, "normalized": normalized})
    }

    fn floats<const N: usize>(result: Result<Vec<[f32; N]>, ImportError>) -> Vec<f32> {
        result.expect("decodes").into_iter().flatten().collect()
    }

    #[test]
    fn every_component_type_decodes() {
        let cases: [(u32, Vec<u8>, Vec<f32>); 6] = [
            (5120, bytes([(-128i8).to_le_bytes(), 127i8.to_le_bytes()]), vec![-128.0, 127.0]),
            (5121, vec![0, 255], vec![0.0, 255.0]),
            (5122, bytes([(-32768i16).to_le_bytes(), 1000i16.to_le_bytes()]), vec![-32768.0, 1000.0]),
            (5123, bytes([0u16.to_le_bytes(), 65535u16.to_le_bytes()]), vec![0.0, 65535.0]),
            (5125, bytes([7u32.to_le_bytes(), 4_000_000_000u32.to_le_bytes()]), vec![7.0, 4e9]),
            (5126, bytes([1.5f32.to_le_bytes(), (-2.25f32).to_le_bytes()]), vec![1.5, -2.25]),
        ];
        for (component, bin, expected) in cases {
            let len = bin.len();
            let fixture =
                Fixture::new(bin, json!([{"buffer": 0, "byteLength": len}]), json!([scalar(component, false, 2)]));
            let any = [Encoding(I8, Norm::No), Encoding(U8, Norm::No), Encoding(I16, Norm::No)];
            let any = [&any[..], &[Encoding(U16, Norm::No), Encoding(U32, Norm::No), Encoding(F32, Norm::No)]].concat();
            assert_eq!(floats(fixture.read::<f32, 1>(0, &any)), expected, "component type {component}");
        }
        let fixture = Fixture::new(
            bytes([4_000_000_000u32.to_le_bytes(), 65_536u32.to_le_bytes()]),
            json!([{"buffer": 0, "byteLength": 8}]),
            json!([scalar(5125, false, 2)]),
        );
        assert_eq!(fixture.read::<u32, 1>(0, INDICES).expect("u32"), vec![[4_000_000_000], [65_536]]);
    }

    #[test]
    fn normalized_integers_follow_the_spec_formulas() {
        let i8s: Vec<i8> = vec![-128, -127, -1, 0, 1, 127];
        let u8s: Vec<u8> = vec![0, 1, 128, 255];
        let i16s: Vec<i16> = vec![-32768, -32767, -5, 0, 5, 32767];
        let u16s: Vec<u16> = vec![0, 1, 40000, 65535];
        let cases: [(u32, Vec<u8>, Vec<f32>); 4] = [
            (
                5120,
                bytes(i8s.iter().map(|c| c.to_le_bytes())),
                i8s.iter().map(|&c| (c as f32 / 127.0).max(-1.0)).collect(),
            ),
            (5121, u8s.clone(), u8s.iter().map(|&c| c as f32 / 255.0).collect()),
            (
                5122,
                bytes(i16s.iter().map(|c| c.to_le_bytes())),
                i16s.iter().map(|&c| (c as f32 / 32767.0).max(-1.0)).collect(),
            ),
            (5123, bytes(u16s.iter().map(|c| c.to_le_bytes())), u16s.iter().map(|&c| c as f32 / 65535.0).collect()),
        ];
        for (component, bin, expected) in cases {
            let (len, count) = (bin.len(), expected.len());
            let fixture =
                Fixture::new(bin, json!([{"buffer": 0, "byteLength": len}]), json!([scalar(component, true, count)]));
            let decoded = floats(fixture.read::<f32, 1>(0, FLOAT_OR_NORMALIZED));
            assert_eq!(decoded, expected, "component type {component}");
            assert!(decoded.iter().all(|v| (-1.0..=1.0).contains(v)));
        }
        let signed =
            Fixture::new(vec![0x80, 0x81], json!([{"buffer": 0, "byteLength": 2}]), json!([scalar(5120, true, 2)]));
        assert_eq!(floats(signed.read::<f32, 1>(0, FLOAT_OR_NORMALIZED)), vec![-1.0, -1.0]);
    }

    #[test]
    fn strides_and_offsets_are_honoured() {
        // Two interleaved VEC2 of u16 at stride 8, after a 2-byte view offset and a 2-byte accessor offset.
        let bin = vec![9, 9, 9, 9, 1, 0, 2, 0, 9, 9, 9, 9, 3, 0, 4, 0];
        let fixture = Fixture::new(
            bin,
            json!([{"buffer": 0, "byteOffset": 2, "byteLength": 14, "byteStride": 8}]),
            json!([{"bufferView": 0, "byteOffset": 2, "componentType": 5123, "type": "VEC2", "count": 2}]),
        );
        assert_eq!(floats(fixture.read::<f32, 2>(0, QUANTIZED)), vec![1.0, 2.0, 3.0, 4.0]);
        let tight = Fixture::new(
            bytes([1u16, 2, 3, 4].map(u16::to_le_bytes)),
            json!([{"buffer": 0, "byteLength": 8}]),
            json!([{"bufferView": 0, "componentType": 5123, "type": "VEC2", "count": 2}]),
        );
        assert_eq!(tight.read::<u32, 2>(0, JOINTS).expect("tight"), vec![[1, 2], [3, 4]]);
    }

    fn error<T: Component + std::fmt::Debug, const N: usize>(
        fixture: &Fixture,
        accepted: &[Encoding],
    ) -> (String, ErrorKind) {
        let error = fixture.read::<T, N>(0, accepted).expect_err("must fail");
        (error.json_path, error.kind)
    }

    #[test]
    fn bounds_are_checked() {
        let floats12 = vec![0u8; 12];
        let past_view = Fixture::new(
            floats12.clone(),
            json!([{"buffer": 0, "byteLength": 12}]),
            json!([{"bufferView": 0, "byteOffset": 4, "componentType": 5126, "type": "VEC3", "count": 1}]),
        );
        let (path, kind) = error::<f32, 3>(&past_view, FLOAT);
        assert_eq!(path, "accessors[0]");
        assert!(matches!(kind, ErrorKind::AccessorOutOfBounds { start: 4, end: 16, view_len: 12 }), "{kind:?}");

        let stride = Fixture::new(
            floats12.clone(),
            json!([{"buffer": 0, "byteLength": 12, "byteStride": 4}]),
            json!([{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 1}]),
        );
        assert!(matches!(error::<f32, 3>(&stride, FLOAT).1, ErrorKind::StrideTooSmall { stride: 4, element: 12 }));

        let view = Fixture::new(
            floats12.clone(),
            json!([{"buffer": 0, "byteOffset": 8, "byteLength": 12}]),
            json!([{"bufferView": 0, "componentType": 5126, "type": "VEC3", "count": 1}]),
        );
        let (path, kind) = error::<f32, 3>(&view, FLOAT);
        assert_eq!(path, "bufferViews[0]");
        assert!(matches!(kind, ErrorKind::ViewOutOfBounds { start: 8, end: 20, buffer_len: 12 }));

        let huge = Fixture::new(
            floats12.clone(),
            json!([{"buffer": 0, "byteLength": 12}]),
            json!([{"bufferView": 0, "byteOffset": u64::MAX - 2, "componentType": 5126, "type": "VEC3", "count": u64::MAX / 2}]),
        );
        assert!(matches!(error::<f32, 3>(&huge, FLOAT).1, ErrorKind::LimitExceeded { .. }));
        let limits = Limits { max_accessor_elements: u64::MAX, max_decoded_bytes: u64::MAX, ..Limits::default() };
        let overflow = huge.read_with::<f32, 3>(0, FLOAT, &limits).expect_err("overflow");
        assert!(matches!(overflow.kind, ErrorKind::AccessorOutOfBounds { end: u64::MAX, .. }), "{:?}", overflow.kind);

        let budget = Limits { max_decoded_bytes: 8, ..Limits::default() };
        let over = past_view.read_with::<f32, 3>(0, FLOAT, &budget).expect_err("over budget");
        assert!(matches!(over.kind, ErrorKind::LimitExceeded { value: 12, limit: 8, .. }));
    }

    #[test]
    fn formats_and_finiteness_are_checked() {
        let fixture = Fixture::new(
            bytes([1.0f32, f32::NAN, 0.0].map(f32::to_le_bytes)),
            json!([{"buffer": 0, "byteLength": 12}]),
            json!([{"bufferView": 0, "componentType": 5126, "type": "SCALAR", "count": 3}]),
        );
        let (path, kind) = error::<f32, 1>(&fixture, FLOAT);
        assert_eq!(path, "use");
        assert!(matches!(kind, ErrorKind::NonFinite { element: 1 }));
        match error::<f32, 3>(&fixture, FLOAT).1 {
            ErrorKind::WrongAccessorFormat { found, expected } => {
                assert_eq!((found.as_str(), expected.as_str()), ("SCALAR of FLOAT", "VEC3 of FLOAT"));
            }
            other => panic!("{other:?}"),
        }
        match error::<u32, 1>(&fixture, JOINTS).1 {
            ErrorKind::WrongAccessorFormat { expected, .. } => {
                assert_eq!(expected, "SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Values 10, 20, 30, 40 as u16; the sparse part (indices then values) after them.
    fn sparse_fixture(dense: bool, indices: &[u8], values: &[u16]) -> Fixture {
        let mut bin = bytes([10u16, 20, 30, 40].map(u16::to_le_bytes));
        bin.extend_from_slice(indices);
        bin.resize(12, 0);
        bin.extend(bytes(values.iter().map(|v| v.to_le_bytes())));
        let values_len = 2 * values.len();
        let mut accessor = json!({"componentType": 5123, "type": "SCALAR", "count": 4, "sparse": {
            "count": indices.len(),
            "indices": {"bufferView": 1, "componentType": 5121},
            "values": {"bufferView": 2},
        }});
        if dense {
            accessor["bufferView"] = json!(0);
        }
        let views = json!([
            {"buffer": 0, "byteLength": 8},
            {"buffer": 0, "byteOffset": 8, "byteLength": indices.len()},
            {"buffer": 0, "byteOffset": 12, "byteLength": values_len},
        ]);
        Fixture::new(bin, views, json!([accessor]))
    }

    #[test]
    fn sparse_substitutions_apply() {
        let with_view = sparse_fixture(true, &[1, 3], &[7, 9]);
        assert_eq!(with_view.read::<u32, 1>(0, INDICES).expect("sparse"), vec![[10], [7], [30], [9]]);
        let zeros = sparse_fixture(false, &[0, 2], &[5, 6]);
        assert_eq!(zeros.read::<u32, 1>(0, INDICES).expect("sparse"), vec![[5], [0], [6], [0]]);
    }

    #[test]
    fn bad_sparse_indices_are_errors() {
        let (path, kind) = error::<u32, 1>(&sparse_fixture(true, &[2, 2], &[1, 1]), INDICES);
        assert_eq!(path, "accessors[0].sparse.indices");
        assert!(matches!(kind, ErrorKind::SparseIndexNotIncreasing { entry: 1, index: 2, previous: 2 }));
        let (path, kind) = error::<u32, 1>(&sparse_fixture(false, &[1, 4], &[1, 1]), INDICES);
        assert_eq!(path, "accessors[0].sparse.indices");
        assert!(matches!(kind, ErrorKind::SparseIndexOutOfRange { entry: 1, index: 4, count: 4 }));
        let (path, kind) = error::<u32, 1>(&sparse_fixture(true, &[0, 1], &[1]), INDICES);
        assert_eq!(path, "accessors[0].sparse.values");
        assert!(matches!(kind, ErrorKind::AccessorOutOfBounds { .. }));
    }
}
