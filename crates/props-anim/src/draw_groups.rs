//! A crowd's visible instances grouped as a renderer draws them: by level of detail, finest
//! first, then by draw slot (material variant, own materials first; then the same for those
//! whose placements mirror them), each group in index order, with each group's count (a
//! counting sort into a reused buffer: no allocation per frame).

use crate::reuse_buffer::reserve_total;

/// One group of a crowd's visible instances, drawn together ([`crate::runtime::Crowd::batches`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawGroup {
    /// Their level of detail: 0 in full, 1 and up the model's coarser levels.
    pub level: u8,
    /// Their material variant (`crate::Model::material_variants`; `None`: the model's own
    /// materials).
    pub material_variant: Option<u8>,
    /// Whether their placements mirror them (a negative determinant): their faces wind the
    /// other way on screen, so a renderer culls the other side (as three.js does by each
    /// object's determinant).
    pub mirrored: bool,
    /// How many.
    pub instances: u32,
}

/// The bit of an instance's draw slot that marks a mirroring placement; the bits below it are
/// its material variant slot (0: its model's own materials, `v + 1`: variant `v`).
pub(crate) const MIRRORED: u8 = 0x80;

/// The draw slot `slot` with material variant `material_variant` (`None`, or one past the
/// slots: own materials; a model has at most 32), mirrored as it was.
pub(crate) fn with_variant(slot: u8, material_variant: Option<u8>) -> u8 {
    let variant = material_variant.and_then(|v| v.checked_add(1)).filter(|v| v & MIRRORED == 0).unwrap_or(0);
    (slot & MIRRORED) | variant
}

/// The material variant of draw slot `slot`.
pub(crate) fn variant_of(slot: u8) -> Option<u8> {
    (slot & !MIRRORED).checked_sub(1)
}

/// The groups of a crowd's visible list (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct DrawGroups {
    /// Slot groups per level: one more than the highest draw slot any instance was given (1:
    /// every instance in its own materials, none mirrored).
    variant_groups: usize,
    /// Visible instances in each group this frame: level by level, variant by variant within.
    counts: Vec<u32>,
    /// Where each group's instances start in the sorted list (scratch).
    starts: Vec<u32>,
    /// The visible list sorted by group (scratch, swapped with the crowd's).
    sorted: Vec<(u32, u32)>,
}

impl Default for DrawGroups {
    fn default() -> Self {
        Self { variant_groups: 1, counts: Vec::new(), starts: Vec::new(), sorted: Vec::new() }
    }
}

impl DrawGroups {
    /// Makes room for `n` visible instances.
    pub(crate) fn reserve(&mut self, n: usize) {
        reserve_total(&mut self.sorted, n);
    }

    /// Notes that an instance is drawn in draw slot `slot` ([`MIRRORED`], [`with_variant`]),
    /// so that its group is counted.
    pub(crate) fn note_slot(&mut self, slot: u8) {
        self.variant_groups = self.variant_groups.max(usize::from(slot) + 1);
    }

    /// Sorts `visible` (instance, palette offset) by group, stably: each entry's level in
    /// `levels` (past `last_level`, the last), its instance's draw slot in `slots`; and counts
    /// each group's.
    pub(crate) fn group(&mut self, visible: &mut Vec<(u32, u32)>, levels: &[u8], slots: &[u8], last_level: usize) {
        let groups = self.variant_groups;
        self.counts.clear();
        if groups == 1 && last_level == 0 {
            self.counts.push(visible.len() as u32);
            return;
        }
        let group_of = |(i, _): (u32, u32), level: u8| {
            usize::from(level).min(last_level) * groups + usize::from(slots[i as usize])
        };
        self.counts.resize((last_level + 1) * groups, 0);
        for (&entry, &level) in visible.iter().zip(levels) {
            self.counts[group_of(entry, level)] += 1;
        }
        self.starts.clear();
        let mut start = 0;
        for &count in &self.counts {
            self.starts.push(start);
            start += count;
        }
        self.sorted.clear();
        self.sorted.resize(visible.len(), (0, 0));
        for (&entry, &level) in visible.iter().zip(levels) {
            let at = &mut self.starts[group_of(entry, level)];
            self.sorted[*at as usize] = entry;
            *at += 1;
        }
        std::mem::swap(visible, &mut self.sorted);
    }

    /// The groups of the last [`DrawGroups::group`], in order, empty ones left out.
    pub(crate) fn batches(&self) -> impl Iterator<Item = DrawGroup> + '_ {
        let groups = self.variant_groups;
        self.counts.iter().enumerate().filter(|&(_, &count)| count > 0).map(move |(g, &instances)| {
            let slot = (g % groups) as u8;
            let (material_variant, mirrored) = (variant_of(slot), slot & MIRRORED != 0);
            DrawGroup { level: (g / groups) as u8, material_variant, mirrored, instances }
        })
    }
}
