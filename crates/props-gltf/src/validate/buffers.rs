//! Buffers and buffer views: every buffer loaded as the importer loads it (URIs confined to
//! the model's folder, `byteLength` against the data and the limits), data URIs of a buffer
//! media type, every view inside its buffer, strides.

use std::borrow::Cow;
use std::path::Path;

use super::Check;
use crate::buffers::Buffers;

/// Media types a buffer's `data:` URI may declare.
const BUFFER_MEDIA_TYPES: &[&str] = &["application/octet-stream", "application/gltf-buffer"];

/// The buffers that could be loaded.
pub(super) struct Loaded<'a> {
    /// Their data (empty for those that failed).
    pub buffers: Buffers<'a>,
    /// Whether buffer `i` failed to load (already reported).
    failed: Vec<bool>,
}

impl Loaded<'_> {
    /// Whether buffer view `view` exists and lies inside a buffer that loaded.
    pub(super) fn has_view(&self, check: &Check<'_>, view: usize) -> bool {
        let Some(view) = check.root.buffer_views.get(view) else {
            return false;
        };
        let buffer = view.buffer.value();
        let end = view.byte_offset.map_or(0, |o| o.0).saturating_add(view.byte_length.0);
        let inside = check.root.buffers.get(buffer).is_some_and(|b| end <= b.byte_length.0);
        inside && !self.failed.get(buffer).copied().unwrap_or(true)
    }
}

/// Loads and checks every buffer, then checks every buffer view.
pub(super) fn check<'a>(check: &mut Check<'_>, bin: Option<Cow<'a, [u8]>>, base_dir: Option<&Path>) -> Loaded<'a> {
    let root = check.root;
    for (i, buffer) in root.buffers.iter().enumerate() {
        if let Some(media_type) = buffer.uri.as_deref().and_then(data_media_type)
            && !BUFFER_MEDIA_TYPES.contains(&media_type)
        {
            let message = format!("a buffer's data URI must be application/octet-stream, not `{media_type}`");
            check.error("BUFFER_DATA_URI_MIME_TYPE_INVALID", format!("/buffers/{i}/uri"), message);
        }
    }
    let (buffers, errors) = Buffers::load_each(root, bin, base_dir, check.limits);
    let mut failed = vec![false; root.buffers.len()];
    for (i, error) in errors {
        if let Some(flag) = failed.get_mut(i) {
            *flag = true;
        }
        check.import_error(&error);
    }
    for (v, view) in root.buffer_views.iter().enumerate() {
        let Some(buffer) = root.buffers.get(view.buffer.value()) else {
            continue;
        };
        let start = view.byte_offset.map_or(0, |o| o.0);
        let end = start.saturating_add(view.byte_length.0);
        if end > buffer.byte_length.0 {
            let message =
                format!("the view covers bytes {start}..{end}, past its buffer's {} bytes", buffer.byte_length.0);
            check.error("BUFFER_VIEW_TOO_LONG", format!("/bufferViews/{v}/byteLength"), message);
        }
        if let Some(stride) = view.byte_stride.map(|s| s.0 as u64) {
            let pointer = format!("/bufferViews/{v}/byteStride");
            if !stride.is_multiple_of(4) {
                check.error("VALUE_MULTIPLE_OF", &pointer, format!("byteStride {stride} is not a multiple of 4"));
            }
            if stride > view.byte_length.0 {
                let message = format!("byteStride {stride} is greater than byteLength {}", view.byte_length.0);
                check.error("BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", pointer, message);
            }
        }
    }
    Loaded { buffers, failed }
}

/// The media type of a `data:` URI (empty when it declares none); `None` for other URIs.
fn data_media_type(uri: &str) -> Option<&str> {
    if !uri.get(..5)?.eq_ignore_ascii_case("data:") {
        return None;
    }
    let header = uri.get(5..)?.split(',').next()?;
    header.split(';').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_of_data_uris() {
        assert_eq!(data_media_type("data:application/octet-stream;base64,AA=="), Some("application/octet-stream"));
        assert_eq!(data_media_type("DATA:text/plain;base64,AA=="), Some("text/plain"));
        assert_eq!(data_media_type("data:;base64,AA=="), Some(""));
        assert_eq!(data_media_type("a.bin"), None);
        assert_eq!(data_media_type("dat"), None);
    }
}
