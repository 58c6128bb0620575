//! The UV sets a material reads, as the primitives drawn with it lay them out: two channels at
//! most, and the one a normal map's tangents are made with.

/// The UV sets a material reads, as primitives drawn with it lay them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UvLayout {
    /// The `TEXCOORD_n` sets of UV channels 0 and 1: the material's two lowest, else 0 and 1.
    pub sets: [u32; 2],
    /// How many of the channels it reads (1 or 2).
    pub used: usize,
    /// The channel its tangents are made with where a primitive has none, if its draws read
    /// tangents: its normal map's, else its clear coat's, else (an anisotropic material) its
    /// anisotropy texture's, else the first.
    pub tangent_channel: Option<usize>,
}

impl Default for UvLayout {
    /// `TEXCOORD_0` alone: no material.
    fn default() -> Self {
        Self { sets: [0, 1], used: 1, tangent_channel: None }
    }
}

impl UvLayout {
    /// The layout of a material whose textures read the UV sets `read` (any order, repeats
    /// allowed), whose normal map (its own, else its clear coat's) and anisotropy texture read
    /// `maps`, `anisotropic` or not.
    pub(crate) fn of(read: impl Iterator<Item = u32>, maps: (Option<u32>, Option<u32>), anisotropic: bool) -> Self {
        let (normal_map, grain) = maps;
        let mut read: Vec<u32> = read.collect();
        read.sort_unstable();
        read.dedup();
        let sets = match read[..] {
            [] => [0, 1],
            [only] => [only, if only == 0 { 1 } else { 0 }],
            [first, second, ..] => [first, second],
        };
        let mut layout = Self { sets, used: read.len().clamp(1, 2), tangent_channel: None };
        let grain = grain.map_or(0, |set| layout.channel(set) as usize);
        layout.tangent_channel = match normal_map {
            Some(set) => Some(layout.channel(set) as usize),
            None => anisotropic.then_some(grain),
        };
        layout
    }

    /// Whether a primitive laid out for `other` can be drawn in this material too: the channels
    /// both read hold the same sets.
    pub(crate) fn fits(&self, other: &UvLayout) -> bool {
        (0..self.used.min(other.used)).all(|c| self.sets[c] == other.sets[c])
    }

    /// The layout of a primitive drawn in this material and in `other`'s (which fits it): the
    /// channels either reads, and the tangents either makes (this one's first).
    pub(crate) fn with(self, other: UvLayout) -> UvLayout {
        let wider = if other.used > self.used { other } else { self };
        UvLayout { tangent_channel: self.tangent_channel.or(other.tangent_channel), ..wider }
    }

    /// The channel set `set` is read from: 1 for the second set, else 0 (a set beyond the two
    /// reads the first).
    pub(crate) fn channel(&self, set: u32) -> u32 {
        u32::from(self.sets[1] == set && self.sets[0] != set)
    }
}
