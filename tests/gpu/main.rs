//! GPU integration tests, on whatever adapter exists (lavapipe, Vulkan, in CI), and on the
//! OpenGL backend (`opengl.rs`: llvmpipe in CI). They skip with a message only when no adapter
//! exists and `CI` is not set.

mod animated_materials;
mod blend_faces;
mod device_health;
mod flat;
mod goldens;
mod host_pass;
mod lods;
mod material_variants;
mod morph;
mod normal_maps;
mod normal_matrix;
mod opengl;
mod palette_paths;
mod pass_times;
mod references;
mod shadows;
mod skinning;
mod textures;
mod tint;
mod uploads;
mod vertex_colors;
