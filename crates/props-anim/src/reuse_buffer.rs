//! [`ReuseBuffer`]: a frame's items (joint matrices, instances), back to back, written over
//! last frame's; and [`reserve_total`], room made once in a frame's refilled buffers.

use std::ops::{Deref, DerefMut};

use crate::JointMatrix;

/// Makes `items` hold `n` in all without allocating, whatever it holds now (a frame's buffer,
/// refilled: `Vec::reserve` counts from its length, and last frame's would double it).
pub(crate) fn reserve_total<T>(items: &mut Vec<T>, n: usize) {
    items.reserve(n.saturating_sub(items.len()));
}

/// Items back to back (what the renderer uploads), reused frame after frame.
/// [`ReuseBuffer::clear`] forgets the length but keeps the items, and [`ReuseBuffer::grow`]
/// hands back items to overwrite: a frame is written over the last frame's in place rather
/// than into memory filled first (filling the palettes cost a sixth of posing 100k
/// windmills), and in parts at once (the items are there to split). Reads as a slice of the
/// items in use.
#[derive(Clone, Debug, Default)]
pub struct ReuseBuffer<T> {
    /// Every item held; those past `len` are left from earlier frames.
    items: Vec<T>,
    len: usize,
}

/// The frame's palettes: every posed instance's joint matrices, back to back.
pub type PaletteBuffer = ReuseBuffer<JointMatrix>;

impl<T: Copy + Default> ReuseBuffer<T> {
    /// Empties the buffer, keeping its items to be overwritten.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Items in use.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no item is in use.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Items it holds without allocating.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.items.capacity()
    }

    /// Makes room for `additional` more items than are in use, so that growing by as many
    /// does not allocate.
    pub fn reserve(&mut self, additional: usize) {
        let end = self.len.saturating_add(additional);
        if end > self.items.len() {
            self.items.resize(end, T::default());
        }
    }

    /// Appends `n` items for the caller to overwrite, and returns them: what they hold is
    /// unspecified (an earlier frame's items, or defaults).
    pub fn grow(&mut self, n: usize) -> &mut [T] {
        let start = self.len;
        self.reserve(n);
        self.len += n;
        &mut self.items[start..self.len]
    }

    /// Appends `item`.
    pub fn push(&mut self, item: T) {
        self.grow(1)[0] = item;
    }

    /// Appends copies of `items`.
    pub fn extend_from_slice(&mut self, items: &[T]) {
        self.grow(items.len()).copy_from_slice(items);
    }
}

impl<T> Deref for ReuseBuffer<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T> DerefMut for ReuseBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use glam::{Affine3A, Vec3};

    use super::*;

    fn moved(x: f32) -> JointMatrix {
        JointMatrix::from_affine(&Affine3A::from_translation(Vec3::new(x, 0.0, 0.0)))
    }

    #[test]
    fn reads_only_what_is_in_use_and_keeps_its_memory() {
        let mut buffer = PaletteBuffer::default();
        buffer.grow(3).fill(moved(1.0));
        buffer.extend_from_slice(&[moved(2.0)]);
        assert_eq!(&buffer[..], &[moved(1.0), moved(1.0), moved(1.0), moved(2.0)]);
        let capacity = buffer.capacity();
        buffer.clear();
        assert!(buffer.is_empty() && buffer.iter().next().is_none());
        // The next frame overwrites in place, without allocating.
        buffer.grow(2).fill(moved(3.0));
        buffer.push(moved(4.0));
        assert_eq!(&buffer[..], &[moved(3.0), moved(3.0), moved(4.0)]);
        assert_eq!(buffer.capacity(), capacity);
        buffer[2] = moved(5.0);
        assert_eq!(buffer.last(), Some(&moved(5.0)));
        // Growing past what was held: the new items are there to overwrite.
        buffer.reserve(10);
        assert_eq!(buffer.len(), 3);
        assert_eq!(buffer.grow(10).len(), 10);
        assert_eq!(buffer.len(), 13);
    }
}
