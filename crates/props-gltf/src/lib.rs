//! glTF 2.0 importer for animated props: turns `.gltf` / `.glb` files into
//! [`props_anim::Model`]s.
//!
//! Models are moddable: anyone can drop a glTF file into the game's folder, so every file is
//! untrusted. Priorities, in order:
//!
//! 1. **Never panic, never over-allocate, never leave the model's folder.** Every declared
//!    count, offset, stride and length is checked against the actual data and [`Limits`]
//!    before anything is allocated; external URIs resolve only inside the model's own folder.
//! 2. **Exact glTF 2.0 semantics**: the importer's own accessor decoder (all component types,
//!    normalized integers, strides, sparse accessors), every primitive mode, skins, morph
//!    targets and all interpolations, checked against an independent oracle.
//! 3. **Errors a modder can act on**: an [`ImportError`] names the file, the JSON path of the
//!    offending object (`animations[2].samplers[0].output`) and what is wrong, with how to
//!    fix it where useful. Harmless oddities become [`ImportWarning`]s.
//!
//! [`validate`] is the checker built on the importer (Khronos glTF-Validator's rules plus the
//! game's, every problem with a JSON pointer and an issue code), used by
//! `cargo xtask check-assets`; what it passes without errors imports.
//!
//! Index mapping: `model.meshes()[i]`, `skins()[i]` and `materials()[i]` are glTF mesh, skin
//! and material `i`; `clips()` are the file's animations that could be read, in order (a
//! dropped one leaves no gap: [`Import::clip_sources`] gives each clip's animation); rig nodes
//! map to glTF nodes through [`props_anim::Rig::source_index`]. No `gltf` crate type appears
//! in this API.
//!
//! A file through the gate ([`gate::admit_file`] for a path): admitted with its report, or
//! refused with every issue's JSON pointer:
//!
//! ```
//! use std::path::Path;
//!
//! // One triangle, its three positions in a base64 buffer.
//! let triangle = r#"{
//!     "asset": {"version": "2.0"},
//!     "buffers": [{"byteLength": 36, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
//!     "bufferViews": [{"buffer": 0, "byteLength": 36}],
//!     "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
//!                    "min": [0, 0, 0], "max": [1, 1, 0]}],
//!     "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
//!     "nodes": [{"mesh": 0}],
//!     "scenes": [{"nodes": [0]}]
//! }"#;
//! let limits = props_gltf::Limits::default();
//! let admitted = props_gltf::gate::admit_slice(triangle.as_bytes(), None, Path::new("triangle.gltf"), &limits)?;
//! assert_eq!(admitted.import.model.meshes().len(), 1);
//! for issue in &admitted.report.issues {
//!     println!("{issue}"); // Warnings a modder may want to fix; none refuses the file.
//! }
//!
//! // Three positions promised, the buffer holds one: refused, naming the accessor.
//! let broken = triangle.replace(r#""count": 3"#, r#""count": 9"#);
//! let refused = props_gltf::gate::admit_slice(broken.as_bytes(), None, Path::new("broken.gltf"), &limits)
//!     .err()
//!     .expect("refused");
//! assert!(refused.to_string().contains("/accessors/0"), "{refused}");
//! # Ok::<(), props_gltf::gate::Refused>(())
//! ```

mod accessor;
mod animation;
mod animation_pointer;
mod anisotropy;
mod buffers;
mod channel_merge;
mod clearcoat;
mod codes;
mod diffuse_roughness;
mod document;
mod draco;
mod drops;
mod error;
mod files;
mod float_integers;
pub mod gate;
pub mod glb;
mod image_fit;
mod image_source;
mod images;
mod import;
mod impostor;
mod impostor_views;
mod instancing;
mod iridescence;
mod json_scan;
mod ktx2;
mod lights;
mod limits;
mod lods;
mod material;
mod materials_variants;
mod mesh;
mod meshopt;
mod mistyped;
mod morph_colors;
mod msft_lod;
mod node_constraints;
mod nodes;
mod normals;
mod parts;
mod pointer;
pub mod pose_dump;
pub mod rules;
mod scene;
mod sheen;
mod spec_gloss;
mod specular;
mod springs;
mod tangents;
mod topology;
mod transmission;
mod uri;
mod uv_layout;
pub mod validate;
mod vertex_cache;
mod volume;
mod vrm;

pub use drops::Dropped;
pub use error::{ErrorKind, ImportError, ImportWarning};
pub use import::{Import, import_file, import_slice};
pub use limits::Limits;
pub use parts::Part;

/// A glTF index (stored as `u32` by the JSON layer) back as `u32`.
fn index_u32(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}
