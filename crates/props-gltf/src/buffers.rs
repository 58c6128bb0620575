//! Raw bytes: the GLB container, buffers (GLB binary chunk, external `.bin`, `data:` URIs)
//! and buffer views, each checked against its declared length.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::io::Read;
use std::path::Path;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use gltf::json::Root;

use crate::error::{ErrorKind, FILE, ImportError};
use crate::files::{self, Contents};
use crate::glb;
use crate::limits::{self, Budget, Limits};
use crate::meshopt::{self, Compression};
use crate::rules;
use crate::uri::{self, Target};

/// The JSON text and binary chunk of a `.gltf` or `.glb` file.
#[derive(Debug)]
pub(crate) struct Container<'a> {
    /// The glTF JSON.
    pub json: Cow<'a, [u8]>,
    /// The GLB binary chunk, if any.
    pub bin: Option<Cow<'a, [u8]>>,
}

/// Splits a GLB file into its chunks, or takes a `.gltf` file as JSON. A GLB whose framing has
/// a problem the rule table finds fatal is an error (the first such problem).
pub(crate) fn split_container(bytes: &[u8]) -> Result<Container<'_>, ImportError> {
    if !glb::is_glb(bytes) {
        return Ok(Container { json: Cow::Borrowed(bytes), bin: None });
    }
    let (chunks, problems) = glb::read(bytes);
    let invalid = |reason: String| ImportError::at(FILE, ErrorKind::InvalidGlb { reason });
    if let Some(fatal) = problems.iter().find(|problem| rules::rule(problem.code).is_some()) {
        return Err(invalid(format!("{} ({})", fatal.message, fatal.code)));
    }
    let chunks = chunks.ok_or_else(|| invalid("it has no JSON chunk".to_owned()))?;
    Ok(Container { json: Cow::Borrowed(chunks.json), bin: chunks.bin.map(Cow::Borrowed) })
}

/// The data of every buffer of a file, each exactly its declared `byteLength` long (but for
/// meshopt fallback buffers, which may be empty), and the decompressed data of the compressed
/// buffer views read so far.
#[derive(Debug)]
pub(crate) struct Buffers<'a> {
    data: Vec<Cow<'a, [u8]>>,
    /// Per buffer view, its decompressed bytes once a compressed view is read.
    decompressed: Vec<OnceCell<Vec<u8>>>,
}

impl<'a> Buffers<'a> {
    /// Loads every buffer: buffer 0 without `uri` from the GLB binary chunk, the others from
    /// confined URIs under `base_dir`.
    pub(crate) fn load(
        root: &Root,
        bin: Option<Cow<'a, [u8]>>,
        base_dir: Option<&Path>,
        limits: &Limits,
    ) -> Result<Self, ImportError> {
        let mut loader = Loader { bin, base_dir, limits, total: 0 };
        let data = (0..root.buffers.len()).map(|index| loader.load(root, index)).collect::<Result<_, _>>()?;
        Ok(Self { data, decompressed: vec![OnceCell::new(); root.buffer_views.len()] })
    }

    /// Like [`Buffers::load`], but goes on past buffers that fail: those are left empty, and
    /// their errors are returned with their indices.
    pub(crate) fn load_each(
        root: &Root,
        bin: Option<Cow<'a, [u8]>>,
        base_dir: Option<&Path>,
        limits: &Limits,
    ) -> (Self, Vec<(usize, ImportError)>) {
        let mut loader = Loader { bin, base_dir, limits, total: 0 };
        let mut errors = Vec::new();
        let mut data = Vec::with_capacity(root.buffers.len());
        for index in 0..root.buffers.len() {
            data.push(loader.load(root, index).unwrap_or_else(|error| {
                errors.push((index, error));
                Cow::Borrowed(&[])
            }));
        }
        (Self { data, decompressed: vec![OnceCell::new(); root.buffer_views.len()] }, errors)
    }

    /// The bytes of buffer view `index`, or [`ErrorKind::ViewOutOfBounds`] at its path; a
    /// compressed view is decompressed the first time it is read (its size checked against
    /// `limits` and charged to `budget` first).
    pub(crate) fn view(
        &self,
        root: &Root,
        index: usize,
        limits: &Limits,
        budget: &Budget,
    ) -> Result<&[u8], ImportError> {
        let path = format!("bufferViews[{index}]");
        let view = root.buffer_views.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
        let compression = Compression::of(view, &path).transpose()?;
        let decompressed = self.decompressed.get(index);
        if let (Some(_), Some(bytes)) = (&compression, decompressed.and_then(OnceCell::get)) {
            return Ok(bytes);
        }
        let (buffer, start, end) = match &compression {
            Some(compression) => {
                let (start, end) = compression.range();
                (compression.buffer, start, end)
            }
            None => {
                let start = view.byte_offset.map_or(0, |o| o.0);
                (view.buffer.value(), start, start.saturating_add(view.byte_length.0))
            }
        };
        let buffer = self.data.get(buffer).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
        let bounds = ErrorKind::ViewOutOfBounds { start, end, buffer_len: buffer.len() as u64 };
        let range = usize::try_from(start).ok().zip(usize::try_from(end).ok());
        let bytes =
            range.and_then(|(start, end)| buffer.get(start..end)).ok_or_else(|| ImportError::at(&path, bounds))?;
        match (compression, decompressed) {
            (Some(compression), Some(cell)) => {
                let decoded = compression.decode(bytes, limits, budget, &path)?;
                Ok(cell.get_or_init(|| decoded))
            }
            _ => Ok(bytes),
        }
    }
}

/// Loads the buffers of one file, one after the other.
struct Loader<'a, 'l> {
    /// The GLB binary chunk, until buffer 0 takes it.
    bin: Option<Cow<'a, [u8]>>,
    base_dir: Option<&'l Path>,
    limits: &'l Limits,
    /// Declared bytes of the buffers loaded so far.
    total: u64,
}

impl<'a> Loader<'a, '_> {
    /// Loads buffer `index`, exactly its `byteLength` long.
    fn load(&mut self, root: &Root, index: usize) -> Result<Cow<'a, [u8]>, ImportError> {
        let path = format!("buffers[{index}]");
        let buffer = root.buffers.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
        let declared = buffer.byte_length.0;
        if declared > self.limits.max_buffer_bytes
            && let Some(actual) = self.length_of(buffer, index).filter(|&actual| actual < declared)
        {
            // A mistyped byteLength, not a large buffer: the data and the JSON disagree.
            return Err(ImportError::at(&path, ErrorKind::BufferTooShort { declared, actual }));
        }
        limits::check(declared, self.limits.max_buffer_bytes, "buffer byteLength", &path)?;
        self.total = self.total.saturating_add(declared);
        limits::check(self.total, self.limits.max_total_buffer_bytes, "byteLength of all buffers together", &path)?;
        let bytes = match (&buffer.uri, index) {
            (Some(uri), _) => Cow::Owned(read_uri(uri, self.base_dir, self.limits, &format!("{path}.uri"))?),
            // Only compressed views refer to it; they read other buffers.
            (None, _) if meshopt::is_fallback(buffer) => return Ok(Cow::Borrowed(&[])),
            (None, 0) => self.bin.take().ok_or_else(|| ImportError::at(&path, ErrorKind::MissingBufferData))?,
            (None, _) => return Err(ImportError::at(&path, ErrorKind::MissingBufferData)),
        };
        let actual = bytes.len() as u64;
        let too_short = || ImportError::at(&path, ErrorKind::BufferTooShort { declared, actual });
        let length = usize::try_from(declared).map_err(|_| too_short())?;
        Ok(match bytes {
            Cow::Borrowed(slice) => Cow::Borrowed(slice.get(..length).ok_or_else(too_short)?),
            Cow::Owned(mut vec) if vec.len() >= length => {
                vec.truncate(length);
                Cow::Owned(vec)
            }
            Cow::Owned(_) => return Err(too_short()),
        })
    }
}

impl Loader<'_, '_> {
    /// How many bytes buffer `buffer` (number `index`) holds, if that is known without
    /// reading them: its file's length, its data URI's decoded length, the GLB's binary
    /// chunk's.
    fn length_of(&self, buffer: &gltf::json::Buffer, index: usize) -> Option<u64> {
        match (&buffer.uri, index) {
            (Some(uri), _) => match uri::resolve(uri, self.base_dir, "").ok()? {
                Target::Base64(payload) => Some(payload.trim_end_matches('=').len() as u64 * 3 / 4),
                Target::File(path) => std::fs::metadata(path).ok().map(|m| m.len()),
            },
            (None, 0) => self.bin.as_ref().map(|bin| bin.len() as u64),
            (None, _) => None,
        }
    }
}

/// The start of what `uri` names (at most `most` bytes) and its whole length: enough to read
/// an image's header without reading the image. A data URI, in the JSON already, is decoded
/// whole.
pub(crate) fn read_uri_start(
    uri: &str,
    base_dir: Option<&Path>,
    limits: &Limits,
    json_path: &str,
    most: u64,
) -> Result<(Vec<u8>, u64), ImportError> {
    let Target::File(path) = uri::resolve(uri, base_dir, json_path)? else {
        let bytes = read_uri(uri, base_dir, limits, json_path)?;
        let length = bytes.len() as u64;
        return Ok((bytes, length));
    };
    let io = |source| ImportError::at(json_path, ErrorKind::Io { path: path.clone(), source });
    let file = files::open_regular(&path).map_err(io)?;
    let length = file.metadata().map_err(io)?.len();
    let mut bytes = Vec::new();
    file.take(most).read_to_end(&mut bytes).map_err(io)?;
    Ok((bytes, length))
}

/// Reads what `uri` (found at `json_path`) refers to: the decoded payload of a base64 `data:`
/// URI or a file confined to `base_dir`, at most [`Limits::max_buffer_bytes`] long.
pub(crate) fn read_uri(
    uri: &str,
    base_dir: Option<&Path>,
    limits: &Limits,
    json_path: &str,
) -> Result<Vec<u8>, ImportError> {
    const BASE64: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let limit = limits.max_buffer_bytes;
    match uri::resolve(uri, base_dir, json_path)? {
        Target::Base64(payload) => {
            let estimate = base64::decoded_len_estimate(payload.len()) as u64;
            limits::check(estimate, limit, "decoded size of the data URI, in bytes", json_path)?;
            BASE64.decode(payload).map_err(|e| {
                ImportError::at(
                    json_path,
                    ErrorKind::InvalidDataUri { reason: e.to_string().trim_end_matches('.').to_owned() },
                )
            })
        }
        Target::File(path) => {
            let io = |source| ImportError::at(json_path, ErrorKind::Io { path: path.clone(), source });
            match files::read_regular(&path, limit).map_err(io)? {
                Contents::Bytes(bytes) => Ok(bytes),
                Contents::TooLarge(size) => {
                    Err(limits::exceeded(size, limit, "size of the referenced file, in bytes", json_path))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glb(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
        glb::write(json, bin).expect("small")
    }

    fn glb_error(bytes: &[u8]) -> String {
        match split_container(bytes) {
            Err(ImportError { kind: ErrorKind::InvalidGlb { reason }, json_path, .. }) => {
                assert_eq!(json_path, FILE);
                reason
            }
            other => panic!("expected InvalidGlb, got {other:?}"),
        }
    }

    #[test]
    fn glb_chunks_are_split() {
        let file = glb(b"{}", Some(&[1, 2, 3]));
        let container = split_container(&file).expect("valid GLB");
        assert_eq!(&*container.json, b"{}  ");
        assert_eq!(container.bin.as_deref(), Some(&[1u8, 2, 3, 0][..]));
        let json = split_container(b"{\"asset\":{}}").expect("JSON");
        assert!(json.bin.is_none());
    }

    #[test]
    fn broken_glb_headers_are_errors() {
        let file = glb(b"{}", Some(&[1, 2, 3]));
        assert!(glb_error(&file[..7]).contains("header is cut short"));
        assert!(glb_error(&file[..file.len() - 1]).contains("truncated"));
        let mut version = file.clone();
        version[4] = 1;
        assert!(glb_error(&version).contains("version 1"));
        let mut short = file.clone();
        short[8..12].copy_from_slice(&4u32.to_le_bytes());
        assert!(glb_error(&short).contains("too few for any chunk"));
        let mut chunk = file;
        chunk[12..16].copy_from_slice(&1000u32.to_le_bytes());
        glb_error(&chunk);
    }

    fn root(json: serde_json::Value) -> Root {
        serde_json::from_value(json).expect("valid root")
    }

    #[test]
    fn buffers_are_checked_against_byte_length() {
        let limits = Limits::default();
        let doc = root(serde_json::json!({"asset": {"version": "2.0"}, "buffers": [{"byteLength": 3}],
            "bufferViews": [{"buffer": 0, "byteOffset": 1, "byteLength": 2}, {"buffer": 0, "byteOffset": 2, "byteLength": 2}]}));
        let bin: &[u8] = &[1, 2, 3, 0];
        let buffers = Buffers::load(&doc, Some(Cow::Borrowed(bin)), None, &limits).expect("loads");
        let budget = Budget::new(limits.max_decoded_bytes);
        assert_eq!(buffers.view(&doc, 0, &limits, &budget).expect("view 0"), &[2, 3]);
        let error = buffers.view(&doc, 1, &limits, &budget).expect_err("view 1 is past the buffer");
        assert_eq!(error.json_path, "bufferViews[1]");
        assert!(matches!(error.kind, ErrorKind::ViewOutOfBounds { start: 2, end: 4, buffer_len: 3 }));

        let short = Buffers::load(&doc, Some(Cow::Borrowed(&bin[..2])), None, &limits).expect_err("too short");
        assert!(matches!(short.kind, ErrorKind::BufferTooShort { declared: 3, actual: 2 }));
        let missing = Buffers::load(&doc, None, None, &limits).expect_err("no BIN chunk");
        assert!(matches!(missing.kind, ErrorKind::MissingBufferData));
        let tight = Limits { max_buffer_bytes: 2, ..Limits::default() };
        let big = Buffers::load(&doc, Some(Cow::Borrowed(bin)), None, &tight).expect_err("over the limit");
        assert!(matches!(big.kind, ErrorKind::LimitExceeded { value: 3, limit: 2, .. }));

        // A byteLength mistyped far past the limit, its data short: the two disagree (not
        // "compress it"), for a GLB's chunk and for a data URI.
        let mistyped = root(serde_json::json!({"asset": {"version": "2.0"}, "buffers": [{"byteLength": 1u64 << 40}]}));
        let error = Buffers::load(&mistyped, Some(Cow::Borrowed(bin)), None, &limits).expect_err("mistyped");
        assert!(matches!(error.kind, ErrorKind::BufferTooShort { declared: 1_099_511_627_776, actual: 4 }));
        let uri = serde_json::json!({"asset": {"version": "2.0"},
            "buffers": [{"byteLength": 1u64 << 40, "uri": "data:application/octet-stream;base64,AQID"}]});
        let error = Buffers::load(&root(uri), None, None, &limits).expect_err("mistyped");
        assert!(matches!(error.kind, ErrorKind::BufferTooShort { actual: 3, .. }), "{:?}", error.kind);
    }

    #[test]
    fn data_uris_are_decoded() {
        let limits = Limits::default();
        let doc = root(serde_json::json!({"asset": {"version": "2.0"},
            "buffers": [{"byteLength": 2, "uri": "data:application/octet-stream;base64,AQID"},
                        {"byteLength": 1, "uri": "data:application/gltf-buffer;base64,AQ"}],
            "bufferViews": [{"buffer": 0, "byteLength": 2}, {"buffer": 1, "byteLength": 1}]}));
        let buffers = Buffers::load(&doc, None, None, &limits).expect("loads");
        let budget = Budget::new(limits.max_decoded_bytes);
        assert_eq!(buffers.view(&doc, 0, &limits, &budget).expect("view"), &[1, 2]);
        assert_eq!(buffers.view(&doc, 1, &limits, &budget).expect("view"), &[1]);
        let bad = root(serde_json::json!({"asset": {"version": "2.0"},
            "buffers": [{"byteLength": 1, "uri": "data:application/octet-stream;base64,A*=="}]}));
        let error = Buffers::load(&bad, None, None, &limits).expect_err("bad base64");
        assert_eq!(error.json_path, "buffers[0].uri");
        assert!(matches!(error.kind, ErrorKind::InvalidDataUri { .. }));
    }
}
