//! The renderer ids of the town's models: each prop kind's own model (by registration order),
//! the ground, and from [`FIRST_MOD_ID`] on the ids handed to mods that add a model
//! ([`props_host::ModelIds`]).

use props_frame::ModelId;

/// Prop kinds the town may register: their own models take the ids below this.
pub const MAX_KINDS: u32 = 32;

/// The renderer id of the model of kind number `kind` (registration order) shown now: its
/// base asset, or the mod replacing it.
pub fn kind_id(kind: usize) -> ModelId {
    debug_assert!(kind < MAX_KINDS as usize, "kind {kind} beyond MAX_KINDS");
    ModelId(kind as u32)
}

/// The renderer id of the ground.
pub const GROUND: ModelId = ModelId(MAX_KINDS);

/// The first renderer id handed to mods that add a model (lot models, extra car models).
pub const FIRST_MOD_ID: u32 = GROUND.0 + 1;
