//! The animation runtime's fast path ([`props_anim::runtime::Program`], [`props_anim::runtime::Crowd`], pose
//! sharing) against its general pose path ([`props_anim::pose_state`]), on every test model
//! and demo asset (imported by props-gltf, hence here and not in props-anim, which reads no
//! file format) and on the benchmarks' workloads. The general path is the one proven against
//! three.js by props-gltf's oracle tests.

mod constraints;
mod program;
mod retarget;
mod sharing;
mod springs;
mod walkers;
