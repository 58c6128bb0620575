//! Accessors: alignment, sparse counts, bounds (through the importer's decoder, which also
//! applies the limits and the decoded-bytes budget), non-finite floats and `min`/`max`. The
//! decoded components are kept for the checks of meshes, skins and animations.

use gltf::json::accessor::{Accessor, ComponentType, GenericComponentType, Type};
use gltf::json::validation::Checked;

use super::Check;
use super::buffers::Loaded;
use super::importer::LIMIT_EXCEEDED;
use crate::accessor::{Accessors, component_name, type_name};
use crate::error::{ErrorKind, ImportError};

/// An accessor's encoding: type, component type, normalized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Format {
    /// SCALAR, VECn or MATn.
    pub ty: Type,
    /// Component type.
    pub component: ComponentType,
    /// `normalized`.
    pub normalized: bool,
}

impl Format {
    /// The format of accessor `index`, if it exists and has a valid type and component type.
    pub(super) fn of(check: &Check<'_>, index: usize) -> Option<Self> {
        let accessor = check.root.accessors.get(index)?;
        match (accessor.type_, accessor.component_type) {
            (Checked::Valid(ty), Checked::Valid(GenericComponentType(component))) => {
                Some(Self { ty, component, normalized: accessor.normalized })
            }
            _ => None,
        }
    }

    /// Whether it is one of `accepted` (`(type, component, normalized)`).
    pub(super) fn is_one_of(self, accepted: &[(Type, ComponentType, bool)]) -> bool {
        accepted.contains(&(self.ty, self.component, self.normalized))
    }

    /// Components per element.
    pub(super) fn components(self) -> usize {
        self.ty.multiplicity()
    }

    /// A stored component as the value it stands for, normalized integers dequantized in
    /// double precision, as Khronos's validator does before summing or measuring them.
    pub(super) fn value(self, stored: f32) -> f64 {
        let stored = f64::from(stored);
        let (scale, min) = match self.component {
            _ if !self.normalized => return stored,
            ComponentType::I8 => (127.0, -1.0),
            ComponentType::U8 => (255.0, 0.0),
            ComponentType::I16 => (32767.0, -1.0),
            ComponentType::U16 => (65535.0, 0.0),
            ComponentType::U32 | ComponentType::F32 => return stored,
        };
        f64::max(stored / scale, min)
    }

    /// Khronos's notation: `{VEC3, FLOAT}`, `{VEC4, UNSIGNED_BYTE normalized}`.
    pub(super) fn describe(self) -> String {
        let normalized = if self.normalized { " normalized" } else { "" };
        format!("{{{}, {}{normalized}}}", type_name(self.ty), component_name(self.component))
    }
}

/// The most bytes the checker decodes of an accessor that nothing reads, to check its data:
/// nothing that nothing reads is materialized beyond this (a 1 KB file may declare a 16M-element
/// accessor that costs nothing until read).
const UNREAD_DECODE_LIMIT: u64 = 16 * 1024 * 1024;

/// The code of an accessor nothing reads whose data is left unchecked.
pub const UNREAD_ACCESSOR: &str = "PROPS_UNREAD_ACCESSOR";

/// Checks every accessor and decodes those whose data is there (but for large ones that
/// nothing reads); keeps their components.
pub(super) fn check(check: &mut Check<'_>, loaded: &Loaded<'_>) {
    let root = check.root;
    let reader = Accessors::new(root, &loaded.buffers, check.limits, check.budget);
    let mut data = Vec::with_capacity(root.accessors.len());
    for (i, accessor) in root.accessors.iter().enumerate() {
        let format = Format::of(check, i);
        if let Some(format) = format {
            layout(check, i, accessor, format);
        }
        let views = [accessor.buffer_view, accessor.sparse.as_ref().map(|s| s.indices.buffer_view)]
            .into_iter()
            .flatten()
            .map(|v| v.value())
            .chain(accessor.sparse.as_ref().map(|s| s.values.buffer_view.value()));
        let decoded_bytes = accessor.count.0.saturating_mul(4 * reader.components(i).unwrap_or(1) as u64);
        if accessor.count.0 > check.limits.max_accessor_elements {
            // Over the limit whether or not anything reads it, as the importer would say.
            let message = format!(
                "accessor count is {}, over the limit of {}; {}",
                accessor.count.0,
                check.limits.max_accessor_elements,
                crate::error::limit_fix("accessor count")
            );
            check.error(LIMIT_EXCEEDED, format!("/accessors/{i}/count"), message);
            data.push(None);
            continue;
        }
        if decoded_bytes > UNREAD_DECODE_LIMIT && check.issues.parts().is_some_and(|parts| !parts.is_read(i)) {
            let message = format!(
                "nothing reads this accessor, and its {} elements would take {decoded_bytes} bytes decoded: its data is \
                 not checked (remove it from the file)",
                accessor.count.0
            );
            check.warning(UNREAD_ACCESSOR, format!("/accessors/{i}"), message);
            data.push(None);
            continue;
        }
        let decoded = match (format, views.into_iter().all(|v| loaded.has_view(check, v))) {
            (Some(format), true) => {
                let used = used_elements(root, i);
                let checked = match reader.read_raw(i, used) {
                    Ok(values) if reader.is_compressed(i) => {
                        check.compressed.insert(i);
                        if let Some(values) = &values {
                            check_finite(check, i, format, values);
                        }
                        Ok(values)
                    }
                    // All decoded: checked as kept.
                    Ok(Some(values)) if used >= accessor.count.0 => {
                        let mut scan = Scan::new(accessor, format);
                        let width = format.components().max(1);
                        (0u64..).zip(values.chunks_exact(width)).for_each(|(e, element)| scan.visit(e, element, 1));
                        scan.report(check, i, accessor, format);
                        Ok(Some(values))
                    }
                    // Partly decoded (a skin reads no more matrices than it has joints): the
                    // rest is checked streaming, never materialized.
                    Ok(values) => {
                        let mut scan = Scan::new(accessor, format);
                        reader.scan_raw(i, |e, element, repeat| scan.visit(e, element, repeat)).map(|scanned| {
                            if scanned {
                                scan.report(check, i, accessor, format);
                            }
                            values
                        })
                    }
                    Err(error) => Err(error),
                };
                checked.unwrap_or_else(|error| {
                    decode_error(check, i, &error);
                    None
                })
            }
            _ => None,
        };
        data.push(decoded);
    }
    check.data = data;
}

/// Offsets aligned to the component size, `normalized` only on small integers, sparse count
/// within the count.
fn layout(check: &mut Check<'_>, i: usize, accessor: &Accessor, format: Format) {
    let size = format.component.size() as u64;
    if format.normalized && matches!(format.component, ComponentType::F32 | ComponentType::U32) {
        let message = "only BYTE, UNSIGNED_BYTE, SHORT and UNSIGNED_SHORT accessors can be normalized";
        check.error("ACCESSOR_NORMALIZED_INVALID", format!("/accessors/{i}/normalized"), message);
    }
    if let Some(view) = accessor.buffer_view.and_then(|v| check.root.buffer_views.get(v.value())) {
        let offset = accessor.byte_offset.map_or(0, |o| o.0);
        if !offset.is_multiple_of(size) {
            let message = format!("byteOffset {offset} is not a multiple of the component size {size}");
            check.error("ACCESSOR_OFFSET_ALIGNMENT", format!("/accessors/{i}/byteOffset"), message);
        }
        let total = offset.saturating_add(view.byte_offset.map_or(0, |o| o.0));
        if !total.is_multiple_of(size) {
            let message = format!("the accessor starts at byte {total} of its buffer, not a multiple of {size}");
            check.error("ACCESSOR_TOTAL_OFFSET_ALIGNMENT", format!("/accessors/{i}"), message);
        }
    }
    if let Some(sparse) = &accessor.sparse {
        let pointer = format!("/accessors/{i}/sparse/count");
        if sparse.count.0 > accessor.count.0 {
            let message =
                format!("sparse count {} is more than the accessor's count {}", sparse.count.0, accessor.count.0);
            check.error("ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", pointer, message);
        }
    }
}

/// Reports why accessor `i` could not be decoded (where another check has not already).
fn decode_error(check: &mut Check<'_>, i: usize, error: &ImportError) {
    match error.kind {
        // Reported by the reference and buffer view checks.
        ErrorKind::InvalidIndex | ErrorKind::InvalidValue | ErrorKind::ViewOutOfBounds { .. } => {}
        ErrorKind::SparseIndexOutOfRange { .. } | ErrorKind::SparseIndexNotIncreasing { .. } => {
            let issue = super::importer::issue(error);
            check.issues.push(super::Issue { json_pointer: format!("/accessors/{i}/sparse"), ..issue });
        }
        _ => check.import_error(error),
    }
}

/// Reports the first element that is not finite, if any; whether all are finite.
fn check_finite(check: &mut Check<'_>, i: usize, format: Format, values: &[f32]) -> bool {
    let width = format.components();
    let Some(at) = values.iter().position(|v| !v.is_finite()) else { return true };
    let message = format!("element {} is {}", at / width.max(1), values.get(at).copied().unwrap_or(f32::NAN));
    check.error("ACCESSOR_INVALID_FLOAT", format!("/accessors/{i}"), message);
    false
}

/// How many elements of accessor `i` the file reads: one per joint where only skins read it
/// (their inverse bind matrices), else all.
fn used_elements(root: &gltf::json::Root, i: usize) -> u64 {
    let count = root.accessors.get(i).map_or(0, |a| a.count.0);
    let skins = root.skins.iter().filter(|s| s.inverse_bind_matrices.is_some_and(|m| m.value() == i));
    let by_skins = skins.map(|s| s.joints.len() as u64).max();
    let elsewhere = || {
        let primitives = root.meshes.iter().flat_map(|m| &m.primitives);
        let in_primitive = |p: &gltf::json::mesh::Primitive| {
            let targets = p.targets.iter().flatten().flat_map(|t| [t.positions, t.normals, t.tangents]).flatten();
            p.attributes.values().copied().chain(p.indices).chain(targets).any(|a| a.value() == i)
        };
        let samplers = root.animations.iter().flat_map(|a| &a.samplers);
        primitives.clone().any(in_primitive)
            || samplers.clone().any(|s| s.input.value() == i || s.output.value() == i)
            || root.nodes.iter().any(|n| {
                let instancing = n.extensions.as_ref().and_then(|e| e.others.get("EXT_mesh_gpu_instancing"));
                let attributes = instancing.and_then(|e| e.get("attributes")?.as_object().cloned()).unwrap_or_default();
                attributes.values().any(|a| a.as_u64() == Some(i as u64))
            })
    };
    match by_skins {
        Some(joints) if !elsewhere() => joints.min(count),
        _ => count,
    }
}

/// What one pass over an accessor's elements finds: the first element that is not finite, each
/// component's least and greatest value, and how many lie past the declared `min` and `max`.
struct Scan {
    width: usize,
    non_finite: Option<(u64, f32)>,
    least: [f32; 16],
    greatest: [f32; 16],
    /// The declared bounds, as the data's type holds them, and how many elements lie past each.
    bounds: [[Option<f64>; 16]; 2],
    past: [[u64; 16]; 2],
}

impl Scan {
    fn new(accessor: &Accessor, format: Format) -> Self {
        let declared = |bound: &Option<serde_json::Value>| {
            let mut out = [None; 16];
            for (k, value) in bound.as_ref().and_then(|v| v.as_array()).into_iter().flatten().take(16).enumerate() {
                out[k] = value
                    .as_f64()
                    .map(|d| if format.component == ComponentType::F32 { f64::from(d as f32) } else { d });
            }
            out
        };
        Self {
            width: format.components().min(16),
            non_finite: None,
            least: [f32::INFINITY; 16],
            greatest: [f32::NEG_INFINITY; 16],
            bounds: [declared(&accessor.min), declared(&accessor.max)],
            past: [[0; 16]; 2],
        }
    }

    /// Element `e`, repeated `repeat` times from there.
    fn visit(&mut self, e: u64, element: &[f32], repeat: u64) {
        for (k, &v) in element.iter().enumerate().take(self.width) {
            if !v.is_finite() {
                self.non_finite.get_or_insert((e, v));
                continue;
            }
            self.least[k] = self.least[k].min(v);
            self.greatest[k] = self.greatest[k].max(v);
            if self.bounds[0][k].is_some_and(|bound| f64::from(v) < bound) {
                self.past[0][k] += repeat;
            }
            if self.bounds[1][k].is_some_and(|bound| f64::from(v) > bound) {
                self.past[1][k] += repeat;
            }
        }
    }

    /// Floats finite; `min` and `max` equal to the data's.
    fn report(&self, check: &mut Check<'_>, i: usize, accessor: &Accessor, format: Format) {
        if let Some((at, value)) = self.non_finite {
            check.error("ACCESSOR_INVALID_FLOAT", format!("/accessors/{i}"), format!("element {at} is {value}"));
            return;
        }
        for (side, name, code, declared, actual, outside) in [
            (0, "min", "ACCESSOR_MIN_MISMATCH", &accessor.min, &self.least, "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND"),
            (1, "max", "ACCESSOR_MAX_MISMATCH", &accessor.max, &self.greatest, "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND"),
        ] {
            let Some(declared) = declared.as_ref().and_then(|v| v.as_array()) else {
                continue;
            };
            for (k, declared) in declared.iter().enumerate().take(self.width) {
                let (Some(declared), true) = (declared.as_f64(), actual[k].is_finite()) else {
                    continue;
                };
                let actual = actual[k];
                let equal = match format.component {
                    ComponentType::F32 => declared as f32 == actual,
                    _ => declared == f64::from(actual),
                };
                if !equal {
                    let message = format!("declared {name} {declared} of component {k}, but the data's is {actual}");
                    check.error(code, format!("/accessors/{i}/{name}/{k}"), message);
                    // Elements past the declared bound, not just a bound that is not tight.
                    let count = self.past[side][k];
                    if count > 0 {
                        let message =
                            format!("{count} element(s) of component {k} past the declared {name} {declared}");
                        check.error(outside, format!("/accessors/{i}/{name}/{k}"), message);
                    }
                }
            }
        }
    }
}
