//! The project's shared folder beside the checkout (`../shared`: Khronos's test models, which
//! tests read from there and never copy): present, or a skip outside CI and a failure under it.

use std::path::{Path, PathBuf};

/// `../shared/<relative>` beside the checkout, or `None` with a message when it is absent.
///
/// # Panics
/// When it is absent and `CI` is set.
#[must_use]
pub fn path(relative: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared").join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("CI").is_none(), "{} is missing, and CI is set", path.display());
    eprintln!("skipped: {} is absent (the project's shared folder)", path.display());
    None
}
