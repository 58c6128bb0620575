//! Punctual lights a model carries (glTF's `KHR_lights_punctual`): plain data for a renderer,
//! in the extension's units and conventions, and where a posed instance's lights stand this
//! frame ([`PlacedLight`]).

pub use crate::placed_light::PlacedLight;
pub use crate::punctual::{Light, LightInstance, LightKind};
