//! Renderer ids for models: each taken until released, reused after, from a first id on (the
//! ids below it stay the host's own).

use props_frame::ModelId;

/// Renderer ids handed to models, from [`ModelIds::starting_at`]'s first on.
#[derive(Clone, Debug)]
pub(crate) struct ModelIds {
    free: Vec<ModelId>,
    next: u32,
}

impl ModelIds {
    /// Ids from `first` on.
    #[must_use]
    pub fn starting_at(first: u32) -> Self {
        Self { free: Vec::new(), next: first }
    }

    /// Takes an id no model holds.
    pub fn take(&mut self) -> ModelId {
        self.free.pop().unwrap_or_else(|| {
            self.next += 1;
            ModelId(self.next - 1)
        })
    }

    /// Gives `id` back, for another model.
    pub fn release(&mut self, id: ModelId) {
        self.free.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_start_where_asked_and_are_reused_after_release() {
        let mut ids = ModelIds::starting_at(33);
        let (a, b) = (ids.take(), ids.take());
        assert_eq!((a, b), (ModelId(33), ModelId(34)));
        ids.release(a);
        assert_eq!((ids.take(), ids.take()), (a, ModelId(35)));
    }
}
