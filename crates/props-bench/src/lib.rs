//! Benchmark workloads and baselines for the animation core.
//!
//! [`workload`] builds crowds of instances (Fox.glb, a synthetic 250-joint rig) with distinct
//! phases; [`naive`] is the seed article's straightforward approach (linear key search,
//! recursive world transforms), kept as the baseline every optimization is measured against
//! in the same run; [`table`] measures them all for `cargo xtask bench`.

pub mod naive;
pub mod table;
pub mod workload;
