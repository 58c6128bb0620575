//! Where a file's images come from ([`ImageSource`]): its buffer views and its files (the
//! bytes read from those bounded), within its limits and budget, and the size each is loaded
//! at ([`Fit`]).

use std::borrow::Cow;
use std::cell::Cell;
use std::path::Path;

use gltf::json::Root;

use crate::buffers::{Buffers, read_uri, read_uri_start};
use crate::error::{ErrorKind, ImportError};
use crate::limits::{self, Budget, Limits};

/// Where images come from.
pub(crate) struct ImageSource<'a> {
    /// The file's buffers (for images in buffer views).
    pub buffers: &'a Buffers<'a>,
    /// The model's folder (for images in files).
    pub base_dir: Option<&'a Path>,
    /// Limits.
    pub limits: &'a Limits,
    /// Decoded-bytes budget.
    pub budget: &'a Budget,
    /// How large each glTF image is loaded, to fit the budget ([`crate::image_fit::fit_to_budget`]); an image
    /// past the list is loaded whole.
    pub sides: &'a [Fit],
    /// Bytes read from image files so far (headers and whole files, each time one is read):
    /// past [`ImageSource::most_read`], no more are read.
    pub files_read: Cell<u64>,
}

impl ImageSource<'_> {
    /// The most bytes read from image files: twice what the file's buffers and its decoded
    /// data may take together (each file is read twice, its header first; its pixels take no
    /// less than its bytes). Images naming one file many times over would read it again and
    /// again: gigabytes, minutes.
    fn most_read(&self) -> u64 {
        self.limits.max_total_buffer_bytes.saturating_add(self.limits.max_decoded_bytes).saturating_mul(2)
    }

    /// Reads image `uri` (its first `most` bytes, or all) at `json_path`, unless the image
    /// files read so far took [`ImageSource::most_read`]; returns the bytes and the file's length.
    pub(crate) fn read(&self, uri: &str, json_path: &str, most: Option<u64>) -> Result<(Vec<u8>, u64), ImportError> {
        let (read, limit) = (self.files_read.get(), self.most_read());
        if read >= limit {
            return Err(limits::exceeded(read, limit, "bytes read from image files", json_path));
        }
        let (bytes, length) = match most {
            Some(most) => read_uri_start(uri, self.base_dir, self.limits, json_path, most)?,
            None => read_uri(uri, self.base_dir, self.limits, json_path).map(|bytes| {
                let length = bytes.len() as u64;
                (bytes, length)
            })?,
        };
        self.files_read.set(read.saturating_add(bytes.len() as u64));
        Ok((bytes, length))
    }
}

/// The most pixels per side a glTF image is loaded at to fit the decoded-data budget, and the
/// most it would be exported at for the file's images to load whole ([`crate::image_fit::fit_to_budget`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fit {
    /// Loaded at most this many pixels a side.
    pub load: u32,
    /// Exported at most this many pixels a side, it (and the others so exported) would load
    /// whole: no room is needed to decode a larger image before shrinking it.
    pub export: u32,
}

impl Fit {
    /// Loaded whole.
    pub(crate) const WHOLE: Self = Self { load: u32::MAX, export: u32::MAX };
}

/// The encoded bytes of glTF image `index`, from its URI or buffer view.
pub(crate) fn image_bytes<'b>(
    root: &Root,
    index: usize,
    source: &ImageSource<'b>,
) -> Result<Cow<'b, [u8]>, ImportError> {
    let path = format!("images[{index}]");
    let image = root.images.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
    Ok(match (&image.uri, image.buffer_view) {
        (Some(uri), _) => Cow::Owned(source.read(uri, &format!("{path}.uri"), None)?.0),
        (None, Some(view)) => Cow::Borrowed(source.buffers.view(root, view.value(), source.limits, source.budget)?),
        (None, None) => return Err(ImportError::at(format!("{path}.uri"), ErrorKind::MissingProperty)),
    })
}

/// How much of an image file is read for its header: a JPEG's size follows its metadata
/// (EXIF, thumbnails), which rarely pass this.
const HEADER_BYTES: u64 = 1 << 20;

/// The start of glTF image `index`'s encoded bytes (enough for its header) and their whole
/// length: a file's first [`HEADER_BYTES`], a buffer view's bytes.
pub(crate) fn image_start<'b>(
    root: &Root,
    index: usize,
    source: &ImageSource<'b>,
) -> Result<(Cow<'b, [u8]>, u64), ImportError> {
    let path = format!("images[{index}]");
    let image = root.images.get(index).ok_or_else(|| ImportError::at(&path, ErrorKind::InvalidIndex))?;
    match &image.uri {
        Some(uri) => {
            let (bytes, length) = source.read(uri, &format!("{path}.uri"), Some(HEADER_BYTES))?;
            Ok((Cow::Owned(bytes), length))
        }
        None => image_bytes(root, index, source).map(|bytes| {
            let length = bytes.len() as u64;
            (bytes, length)
        }),
    }
}
