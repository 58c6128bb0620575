//! Harness for the workspace's cross-crate integration tests (the `gpu` test binary): a GPU
//! context that skips only outside CI, posing helpers, offscreen rendering, image comparison
//! against golden images with NVIDIA's FLIP metric, and the project's shared folder.

pub mod golden;
pub mod gpu;
pub mod scene;
pub mod shared;
