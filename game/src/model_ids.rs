//! The renderer ids of the town's models: the ground's two, then from [`FIRST_MODEL_ID`] on those
//! the models' [`props_host::Shelf`] hands out (each kind's model, then the models mods add).

use props_frame::ModelId;

/// The renderer id of the ground's land (its hills shadow the town through its heights, the
/// ground shadow, not by casting).
pub const LAND: ModelId = ModelId(0);

/// The renderer id of the ground's flat ground, its grass and paving (it casts none).
pub const FLAT_GROUND: ModelId = ModelId(1);

/// The first renderer id of the shelf's models.
pub const FIRST_MODEL_ID: u32 = FLAT_GROUND.0 + 1;
