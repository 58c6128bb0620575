//! Images: textures' images are PNG or JPEG; every image a file names, whatever uses it (base colour, normal map, ...) or none,
//! must be a `data:` URI, a buffer view, or a regular file inside the model's folder. Only
//! base colour textures are decoded (by the importer); the others are located and opened,
//! not read.

use std::path::Path;

use super::Check;
use crate::error::{ErrorKind, ImportError};
use crate::files;
use crate::uri::{self, Target};

/// The image types glTF allows.
const MIME_TYPES: [&str; 2] = ["image/jpeg", "image/png"];

/// Checks where every image's URI leads, and that textures use images of a type glTF allows.
pub(super) fn check(check: &mut Check<'_>, base_dir: Option<&Path>) {
    for (t, texture) in check.root.textures.iter().enumerate() {
        let image = check.root.images.get(texture.source.value());
        if let Some(mime) =
            image.and_then(|image| image.mime_type.as_ref()).filter(|m| !MIME_TYPES.contains(&m.0.as_str()))
        {
            let message = format!("the image's type is {:?}; a texture's image must be one of {MIME_TYPES:?}", mime.0);
            check.error("TEXTURE_INVALID_IMAGE_MIME_TYPE", format!("/textures/{t}/source"), message);
        }
    }
    for (i, image) in check.root.images.iter().enumerate() {
        let Some(text) = &image.uri else { continue };
        let json_path = format!("images[{i}].uri");
        match uri::resolve(text, base_dir, &json_path) {
            Ok(Target::Base64(_)) => {}
            Ok(Target::File(path)) => {
                if let Err(source) = files::open_regular(&path) {
                    check.import_error(&ImportError::at(&json_path, ErrorKind::Io { path, source }));
                }
            }
            Err(error) => check.import_error(&error),
        }
    }
}
