//! Integration tests of props-gltf (one binary).

mod channel_mixing;
mod check_corpus;
mod draco;
mod gate;
mod import_errors;
mod impostor;
mod instancing;
mod khronos;
mod lenient;
mod lint;
mod material_errors;
mod material_variants;
mod materials;
mod morph_colors;
mod msft_lod;
mod node_constraints;
mod oracle;
mod pointers;
mod real_models;
mod springs;
mod support;
mod textures;
mod undrawn_parts;
mod vertex_cache;
mod vrm;
