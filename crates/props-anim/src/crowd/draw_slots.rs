//! How a crowd's instances are drawn apart: each one's draw slot (its material variant, and
//! whether its placement mirrors it), by which the visible ones are grouped.

use super::Crowd;
use crate::draw_groups::{self, DrawGroup, MIRRORED};

impl Crowd {
    /// Draws instance `i` in material variant `material_variant`
    /// (`crate::Model::material_variants`; `None`, or past the 32 a model may have: its model's
    /// own materials). The visible instances are grouped by it ([`Crowd::batches`]).
    pub fn set_material_variant(&mut self, i: usize, material_variant: Option<u8>) {
        self.slots[i] = draw_groups::with_variant(self.slots[i], material_variant);
        self.groups.note_slot(self.slots[i]);
    }

    /// Instance `i`'s material variant ([`Crowd::set_material_variant`]).
    #[must_use]
    pub fn material_variant(&self, i: usize) -> Option<u8> {
        draw_groups::variant_of(self.slots[i])
    }

    /// Notes whether instance `i`'s placement mirrors it (its determinant is negative): the
    /// visible instances are grouped by it ([`Crowd::batches`]), since a renderer culls the
    /// other side of a mirrored one.
    pub fn set_mirrored(&mut self, i: usize, mirrored: bool) {
        self.slots[i] = if mirrored { self.slots[i] | MIRRORED } else { self.slots[i] & !MIRRORED };
        self.groups.note_slot(self.slots[i]);
    }

    /// The groups [`Crowd::visible`] lists, in that order: each level of detail's instances,
    /// finest first (every one at level 0 when the last view had no mesh LOD), and within a
    /// level, those in their own materials, then each material variant's, then the same for
    /// those mirrored; empty groups left out.
    pub fn batches(&self) -> impl Iterator<Item = DrawGroup> + '_ {
        self.groups.batches()
    }
}
