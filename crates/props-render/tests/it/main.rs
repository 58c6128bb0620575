//! Integration tests of props-render that need no GPU. (GPU tests, with image comparisons,
//! live in the workspace's `tests/` crate, which may load glTF files.)

mod shaders;
