//! What a path below the mods root is: a model, another file a model may use, or something to
//! ignore (hidden files, editors' and browsers' temporary files). Pure: looks at names only.

use std::path::{Component, Path};

/// Extensions of model files (compared without regard to case): glTF, and GLB, which a VRM
/// avatar (`.vrm`) is too.
pub const MODEL_EXTENSIONS: &[&str] = &["gltf", "glb", "vrm"];

/// Extensions of files that are still being written or are scratch copies (compared without
/// regard to case): downloads in progress, editors' safe-save temporaries, swap files.
const TEMP_EXTENSIONS: &[&str] = &["part", "partial", "crdownload", "download", "tmp", "temp", "swp"];

/// Whether the mods watcher takes `path` (relative to the mods folder) for a model: a glTF,
/// GLB or VRM file, not hidden, in no hidden folder, not an editor's or a download's scratch
/// copy. The checker walks a folder as the game does.
#[must_use]
pub fn is_mod_model(path: &Path) -> bool {
    classify(path) == FileClass::Model
}

/// The role of a path below the mods root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileClass {
    /// A `.gltf` / `.glb` model.
    Model,
    /// Any other file (`.bin`, textures, ...): a model in the same folder or above may use it.
    Other,
    /// Hidden or temporary, or not a plain relative path: changes to it mean nothing.
    Ignored,
}

/// Classifies `path`, relative to the mods root.
///
/// Ignored: any component starting with `.` (hidden files and folders such as `.git/`), a
/// name ending in `~`, a temporary extension ([`TEMP_EXTENSIONS`]), and paths that are empty
/// or not plainly relative (`..`, absolute).
pub(crate) fn classify(path: &Path) -> FileClass {
    let mut components = path.components().peekable();
    if components.peek().is_none() {
        return FileClass::Ignored;
    }
    for component in components {
        let Component::Normal(name) = component else {
            return FileClass::Ignored;
        };
        if name.to_string_lossy().starts_with('.') {
            return FileClass::Ignored;
        }
    }
    if path.to_string_lossy().ends_with('~') {
        return FileClass::Ignored;
    }
    let extension = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if TEMP_EXTENSIONS.contains(&extension.as_str()) {
        FileClass::Ignored
    } else if MODEL_EXTENSIONS.contains(&extension.as_str()) {
        FileClass::Model
    } else {
        FileClass::Other
    }
}

/// Whether a file in folder `file_dir` may be used by a model in folder `model_dir`: model
/// URIs resolve only inside the model's own folder, so only models in the file's folder or
/// a folder above it can reference the file.
pub(crate) fn may_reference(model_dir: &Path, file_dir: &Path) -> bool {
    file_dir.starts_with(model_dir)
}

/// The folder of a relative path (empty for files directly in the mods root).
pub(crate) fn folder(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_by_name() {
        let cases = [
            ("windmill.glb", FileClass::Model),
            ("pack/Car.GLTF", FileClass::Model),
            ("people/avatar.vrm", FileClass::Model),
            ("pack/car.bin", FileClass::Other),
            ("pack/textures/wood.png", FileClass::Other),
            ("README", FileClass::Other),
            (".hidden.glb", FileClass::Ignored),
            (".git/objects/x.glb", FileClass::Ignored),
            ("pack/car.glb~", FileClass::Ignored),
            ("pack/car.glb.part", FileClass::Ignored),
            ("pack/car.glb.crdownload", FileClass::Ignored),
            ("pack/car.TMP", FileClass::Ignored),
            ("../escape.glb", FileClass::Ignored),
            ("/abs.glb", FileClass::Ignored),
            ("", FileClass::Ignored),
        ];
        for (path, class) in cases {
            assert_eq!(classify(Path::new(path)), class, "{path}");
        }
    }

    #[test]
    fn files_are_referenced_from_their_folder_and_above() {
        assert!(may_reference(Path::new("pack"), Path::new("pack")));
        assert!(may_reference(Path::new("pack"), Path::new("pack/textures")));
        assert!(may_reference(Path::new(""), Path::new("pack")));
        assert!(!may_reference(Path::new("pack"), Path::new("")));
        assert!(!may_reference(Path::new("pack"), Path::new("pack2")));
    }
}
