//! Integration tests of props-scene (one binary, one module per concern), on the synthetic
//! models (`props_scene::synthetic`), which carry the real assets' node and clip names.

mod animals;
mod buses;
mod crowd_set;
mod determinism;
mod extract;
mod kinds;
mod models;
mod pedestrians;
mod picking;
mod signals;
mod support;
mod traffic;
mod windmills;
