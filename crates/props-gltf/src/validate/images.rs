//! Images: every image a file names, whatever uses it (base colour, normal map, ...) or none,
//! must be a `data:` URI, a buffer view, or a regular file inside the model's folder. Only
//! base colour textures are decoded (by the importer); the others are located and opened,
//! not read.

use std::path::Path;

use super::Check;
use crate::error::{ErrorKind, ImportError};
use crate::files;
use crate::uri::{self, Target};

/// Checks where every image's URI leads.
pub(super) fn check(check: &mut Check<'_>, base_dir: Option<&Path>) {
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
