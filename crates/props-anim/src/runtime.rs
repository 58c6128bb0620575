//! The runtime that poses crowds fast, one flat list of its types: a model compiled for what
//! its instances animate ([`Program`], four instances per SIMD lane), the instances' states
//! posed once per frame ([`Crowd`]), pose sharing ([`Sharing`], [`Quantization`]), what the
//! camera sees, how often it is posed and at what detail it is drawn ([`View`],
//! [`UpdateRateLod`], [`AnimationBudget`], [`MeshLod`]),
//! the worker threads ([`Workers`]), and the frame's buffers it writes into ([`PaletteBuffer`]).
//! Its palettes are bitwise those of the general path,
//! [`crate::pose_state`], instance by instance (exactly, or within the quantization when
//! shared).

pub use crate::crowd::Crowd;
pub use crate::crowd_stats::CrowdStats;
pub use crate::draw_groups::DrawGroup;
pub use crate::lod::{AnimationBudget, MAX_PRESSURE, UpdateRateLod, View, Visibility};
pub use crate::mesh_lod::MeshLod;
pub use crate::program::{LaneState, Program, Scratch, signature_code};
pub use crate::reuse_buffer::{PaletteBuffer, ReuseBuffer};
pub use crate::shared::{MAX_COARSENING, Quantization, Sharing, fits};
pub use crate::workers::{Workers, WorkersError};
