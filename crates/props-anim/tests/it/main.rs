//! Integration tests of props-anim (one binary, one module per concern).

mod bounds;
mod constraints;
mod gait;
mod heap_bytes;
mod humanoid;
mod ik;
mod interpolation;
mod keys;
mod lights;
mod lods;
mod material_variants;
mod palette;
mod playback;
mod pose;
mod release_pixels;
mod rig;
mod springs;
mod support;
mod with_clips;
