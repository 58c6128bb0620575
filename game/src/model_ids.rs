//! The renderer ids of the town's models: the ground's, then from [`FIRST_MODEL_ID`] on those
//! the models' [`props_host::Shelf`] hands out (each kind's model, then the models mods add).

use props_frame::ModelId;

/// The renderer id of the ground.
pub const GROUND: ModelId = ModelId(0);

/// The first renderer id of the shelf's models.
pub const FIRST_MODEL_ID: u32 = GROUND.0 + 1;
