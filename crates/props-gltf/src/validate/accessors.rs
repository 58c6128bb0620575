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
                "accessor count is {}, over the limit of {}",
                accessor.count.0, check.limits.max_accessor_elements
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
            (Some(format), true) => match reader.read_raw(i) {
                Ok(values) if reader.is_compressed(i) => {
                    check.compressed.insert(i);
                    values.inspect(|values| {
                        check_finite(check, i, format, values);
                    })
                }
                Ok(values) => values.inspect(|values| check_values(check, i, accessor, format, values)),
                Err(error) => {
                    decode_error(check, i, &error);
                    None
                }
            },
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

/// Floats finite; `min` and `max` equal to the data's.
fn check_values(check: &mut Check<'_>, i: usize, accessor: &Accessor, format: Format, values: &[f32]) {
    let width = format.components();
    if !check_finite(check, i, format, values) {
        return;
    }
    let columns = |k: usize| values.iter().skip(k).step_by(width.max(1)).copied();
    for (name, code, declared, pick, outside) in [
        (
            "min",
            "ACCESSOR_MIN_MISMATCH",
            &accessor.min,
            f32::min as fn(f32, f32) -> f32,
            "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND",
        ),
        ("max", "ACCESSOR_MAX_MISMATCH", &accessor.max, f32::max, "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND"),
    ] {
        let Some(declared) = declared.as_ref().and_then(|v| v.as_array()) else {
            continue;
        };
        for (k, declared) in declared.iter().enumerate().take(width) {
            let (Some(declared), Some(actual)) = (declared.as_f64(), columns(k).reduce(pick)) else {
                continue;
            };
            let equal = match format.component {
                ComponentType::F32 => declared as f32 == actual,
                _ => declared == f64::from(actual),
            };
            if !equal {
                let message = format!("declared {name} {declared} of component {k}, but the data's is {actual}");
                check.error(code, format!("/accessors/{i}/{name}/{k}"), message);
                // Elements past the declared bound, not just a bound that is not tight.
                let bound = if format.component == ComponentType::F32 { f64::from(declared as f32) } else { declared };
                let past = |v: f32| if name == "min" { f64::from(v) < bound } else { f64::from(v) > bound };
                let count = columns(k).filter(|&v| past(v)).count();
                if count > 0 {
                    let message = format!("{count} element(s) of component {k} past the declared {name} {declared}");
                    check.error(outside, format!("/accessors/{i}/{name}/{k}"), message);
                }
            }
        }
    }
}
