//! Integration tests of props-gltf (one binary).

mod import_errors;
mod oracle;
mod real_models;
mod robustness;
