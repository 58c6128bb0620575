//! What the scene makes of its kinds' props each frame, the same for every kind: their crowds
//! on the animation runtime, posing what the camera sees, extraction into frame data, and
//! picking.

pub(crate) mod crowds;
pub(crate) mod extract;
pub(crate) mod picking;
pub(crate) mod posing;
