//! [`Tails`]: the spring tails of a crowd's instances posed close up, one
//! [`SpringState`] each, from a pool that grows to the most instances ever near at once and is
//! reused as instances come near and go. The memory follows the near instances, not the crowd:
//! a town of ten thousand avatars keeps tails for the few dozen near the camera, and a crowd
//! only ever seen from afar keeps none. After the pool has grown, nothing is allocated.

use glam::Vec3;
use props_anim::spring::SpringState;

/// No slot.
const NONE: u32 = u32::MAX;

/// One instance's tails while it is near.
#[derive(Clone, Debug)]
struct Slot {
    state: SpringState,
    /// Where the instance stood when its tails last swung.
    stood: Vec3,
    /// The instance holding it.
    owner: u32,
    /// The frame it was last used in.
    frame: u64,
}

/// The tails of a crowd's near instances (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Tails {
    /// A slot's state before its first swing (the model's [`props_anim::spring::SpringBones::state`]).
    fresh: SpringState,
    slots: Vec<Slot>,
    /// Per instance: its slot, if it held one.
    slot_of: Vec<u32>,
}

impl Tails {
    /// No tails yet for `instances` instances of a model whose springs' tails start as `fresh`.
    pub(crate) fn new(fresh: SpringState, instances: usize) -> Self {
        Self { fresh, slots: Vec::new(), slot_of: vec![NONE; instances] }
    }

    /// A slot's state before its first swing.
    pub(crate) fn fresh(&self) -> &SpringState {
        &self.fresh
    }

    /// Makes room for one more instance.
    pub(crate) fn push(&mut self) {
        self.slot_of.push(NONE);
    }

    /// Forgets the last instance.
    pub(crate) fn pop(&mut self) {
        if let Some(slot) = self.slot_of.pop() {
            self.free(slot);
        }
    }

    /// Forgets instance `i`, the last taking its place.
    pub(crate) fn swap_remove(&mut self, i: usize) {
        if i >= self.slot_of.len() {
            return;
        }
        self.free(self.slot_of[i]);
        self.slot_of.swap_remove(i);
        if let Some(&moved) = self.slot_of.get(i)
            && let Some(slot) = self.slots.get_mut(moved as usize)
        {
            slot.owner = i as u32;
        }
    }

    /// Frees `slot` (none: nothing).
    fn free(&mut self, slot: u32) {
        if let Some(slot) = self.slots.get_mut(slot as usize) {
            (slot.owner, slot.frame) = (NONE, 0);
        }
    }

    /// Keeps for frame `frame` the slots of the `near` instances that held theirs the frame
    /// before; the others' are free this frame. Call before [`Tails::get`] in a frame.
    pub(crate) fn keep(&mut self, near: &[u32], frame: u64) {
        for &i in near {
            let Some(&s) = self.slot_of.get(i as usize) else { continue };
            if let Some(slot) = self.slots.get_mut(s as usize)
                && slot.owner == i
                && slot.frame.wrapping_add(1) == frame
            {
                slot.frame = frame;
            }
        }
    }

    /// Instance `i`'s tails in frame `frame`, and where it stood when they last swung; `true`
    /// when they are new to it (taken from the pool, or the pool grown by one), to reset.
    pub(crate) fn get(&mut self, i: usize, frame: u64) -> (&mut SpringState, &mut Vec3, bool) {
        let held = self.slot_of[i] as usize;
        let kept = self.slots.get(held).is_some_and(|slot| slot.owner == i as u32 && slot.frame == frame);
        let s = if kept {
            held
        } else {
            let free = self.slots.iter().position(|slot| slot.frame != frame);
            let s = free.unwrap_or_else(|| {
                let state = self.fresh.clone();
                self.slots.push(Slot { state, stood: Vec3::ZERO, owner: NONE, frame: 0 });
                self.slots.len() - 1
            });
            let before = self.slots[s].owner as usize;
            if self.slot_of.get(before) == Some(&(s as u32)) {
                self.slot_of[before] = NONE;
            }
            (self.slots[s].owner, self.slots[s].frame) = (i as u32, frame);
            self.slot_of[i] = s as u32;
            s
        };
        let slot = &mut self.slots[s];
        (&mut slot.state, &mut slot.stood, !kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Near sets of three out of a thousand instances, changing every frame and overlapping:
    /// the pool holds three slots, an instance near two frames running keeps its own, and one
    /// coming near gets one anew.
    #[test]
    fn the_pool_holds_as_many_as_are_near() {
        let mut tails = Tails::new(SpringState::default(), 1000);
        let mut last: Vec<u32> = Vec::new();
        for frame in 1..200u64 {
            let near: Vec<u32> = (0..3).map(|k| ((frame / 2 + k * 7) % 1000) as u32).collect();
            tails.keep(&near, frame);
            for &i in &near {
                let stayed = last.contains(&i);
                let (_, stood, new) = tails.get(i as usize, frame);
                assert_eq!(new, !stayed, "frame {frame}: instance {i}");
                if !new {
                    assert_eq!(*stood, Vec3::splat(i as f32), "its own tails");
                }
                *stood = Vec3::splat(i as f32);
            }
            last = near;
        }
        assert_eq!(tails.slots.len(), 3);
        // Removing instances frees their slots and moves the last one's.
        tails.swap_remove(last[0] as usize);
        tails.pop();
        assert!(tails.slots.iter().filter(|s| s.owner != NONE).count() <= 2);
        for (i, &s) in tails.slot_of.iter().enumerate() {
            if s != NONE {
                assert_eq!(tails.slots[s as usize].owner, i as u32);
            }
        }
    }
}
