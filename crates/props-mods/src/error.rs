//! Why the mod watcher could not start.

use std::path::PathBuf;

/// A start-up failure of [`crate::ModWatcher::start`], naming the path involved. Once
/// started, nothing fails: problems with files become [`crate::ModEvent`]s.
#[derive(Debug, thiserror::Error)]
pub enum ModError {
    /// The mods folder could not be created or opened (for instance, the path is a file).
    #[error("mods folder {}: could not create or open it: {source}", path.display())]
    Folder {
        /// The folder, as given.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The operating system's file watcher could not watch the folder.
    #[error("mods folder {}: could not watch it for changes: {source}", path.display())]
    Watch {
        /// The folder, as given.
        path: PathBuf,
        /// notify's error.
        source: notify::Error,
    },
    /// The `mod-loader` thread could not be started.
    #[error("mods folder {}: could not start the mod-loader thread: {source}", path.display())]
    Thread {
        /// The folder, as given.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}
