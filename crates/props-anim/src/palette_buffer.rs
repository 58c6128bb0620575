//! [`PaletteBuffer`]: the frame's joint matrices, back to back, written over last frame's.

use std::ops::Deref;

use crate::palette::JointMatrix;

/// Many palettes back to back (what the renderer uploads), reused frame after frame.
/// [`PaletteBuffer::clear`] forgets the length but keeps the matrices, and
/// [`PaletteBuffer::grow`] hands back matrices to overwrite: a frame's palettes are written
/// over the last frame's in place rather than into memory filled first (filling them cost a
/// sixth of posing 100k windmills). Reads as a slice of the matrices in use.
#[derive(Clone, Debug, Default)]
pub struct PaletteBuffer {
    /// Every matrix held; those past `len` are left from earlier frames.
    matrices: Vec<JointMatrix>,
    len: usize,
}

impl PaletteBuffer {
    /// Empties the buffer, keeping its matrices to be overwritten.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Matrices in use.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no matrix is in use.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Matrices it holds without allocating.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.matrices.capacity()
    }

    /// Makes room for `additional` more matrices than are in use, so that growing by as many
    /// does not allocate.
    pub fn reserve(&mut self, additional: usize) {
        let end = self.len.saturating_add(additional);
        if end > self.matrices.len() {
            self.matrices.resize(end, JointMatrix::IDENTITY);
        }
    }

    /// Appends `n` matrices for the caller to overwrite, and returns them: what they hold is
    /// unspecified (an earlier frame's matrices, or identities).
    pub fn grow(&mut self, n: usize) -> &mut [JointMatrix] {
        let start = self.len;
        self.reserve(n);
        self.len += n;
        &mut self.matrices[start..self.len]
    }

    /// Appends copies of `matrices`.
    pub fn extend_from_slice(&mut self, matrices: &[JointMatrix]) {
        self.grow(matrices.len()).copy_from_slice(matrices);
    }
}

impl Deref for PaletteBuffer {
    type Target = [JointMatrix];

    fn deref(&self) -> &[JointMatrix] {
        &self.matrices[..self.len]
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
        assert_eq!(&buffer[..], &[moved(3.0), moved(3.0)]);
        assert_eq!(buffer.capacity(), capacity);
        // Growing past what was held: the new matrices are there to overwrite.
        buffer.reserve(10);
        assert_eq!(buffer.len(), 2);
        assert_eq!(buffer.grow(10).len(), 10);
        assert_eq!(buffer.len(), 12);
    }
}
