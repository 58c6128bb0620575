//! The renderer ids of the town's models: each prop kind's own model (by registration order),
//! the ground, and the ids handed to mods that add a model.

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

/// Renderer ids for mods that add a model: each taken until released, reused after.
#[derive(Debug)]
pub struct ModelIds {
    free: Vec<ModelId>,
    next: u32,
}

impl Default for ModelIds {
    fn default() -> Self {
        Self { free: Vec::new(), next: FIRST_MOD_ID }
    }
}

impl ModelIds {
    /// The id [`ModelIds::take`] would give.
    pub fn peek(&self) -> ModelId {
        self.free.last().copied().unwrap_or(ModelId(self.next))
    }

    /// Takes an id no mod holds.
    pub fn take(&mut self) -> ModelId {
        self.free.pop().unwrap_or_else(|| {
            self.next += 1;
            ModelId(self.next - 1)
        })
    }

    /// Gives `id` back, for another mod.
    pub fn release(&mut self, id: ModelId) {
        self.free.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_ids_are_reused_after_release_and_never_a_kind_s() {
        let mut ids = ModelIds::default();
        let (a, b) = (ids.take(), ids.take());
        assert!(a.0 > GROUND.0 && b.0 > a.0, "above every kind's id and the ground's");
        ids.release(a);
        assert_eq!((ids.peek(), ids.take(), ids.take()), (a, a, ModelId(b.0 + 1)));
    }
}
