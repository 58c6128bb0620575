//! Fuzzing the model gate on the stable toolchain, as `cargo xtask fuzz` runs it.
//!
//! Every input is a structure-aware mutation ([`mutate`]) of a seed ([`corpus`]: the project's
//! test models and the [`hostile`] corpus), run through [`pipeline::run`]: the gate
//! (`props_gltf::gate`: checker and importer), then posing every clip at ordinary and extreme
//! times on both evaluation paths and CPU skinning. The runner (this crate's binary) gives
//! each input a time and a memory bound in worker processes, and saves every input that
//! panics, hangs, takes too much memory or poses non-finite matrices.

pub mod corpus;
pub mod hostile;
pub mod mutate;
pub mod pipeline;
pub mod rng;
