//! KindProps that light up at night: a model's `night` clip, whose time is how far its lights are
//! on (0: day, dark; 1: night, lit; a glTF file animates its lamps' emissive factors or
//! visibility over that second), played at the town's lamp level
//! ([`crate::town::daylight::Daylight::lamps`]). A model without the clip stays as it is.
//!
//! The clip at time 0 is the model at rest (lights off), so by day no layer plays: a prop
//! that does nothing else costs nothing to pose, and all of them share one palette.

use props_anim::{Layer, Model, Spec};

/// The clip's name.
pub const CLIP: &str = "night";

/// The spec of a prop of `model`: its `night` clip, when it has one.
#[must_use]
pub fn spec(model: &Model) -> Spec {
    Spec { clips: model.find_clip(CLIP).into_iter().collect(), ..Spec::default() }
}

/// Clip layers a prop of `model` plays: one when it has a `night` clip.
#[must_use]
pub fn layers(model: &Model) -> usize {
    usize::from(model.find_clip(CLIP).is_some())
}

/// The night layer at lamp level `level` (0 to 1), for a prop compiled with [`spec`]: none
/// by day (the rest pose, lights off).
#[must_use]
pub fn layer(level: f32) -> Layer {
    if level > 0.0 { Layer::once(0, level.min(1.0)) } else { Layer::NONE }
}
