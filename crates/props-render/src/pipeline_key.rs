//! Which pipeline a draw takes ([`PipelineKey`]): the switches of `shaders/shading.wgsl` its
//! material and primitive set, and what its vertices give its fragments.

use props_anim::material::{AlphaMode, Material, TEXTURE_SLOTS};
use props_anim::{Primitive, Topology};

use crate::entry_points::Outputs;

/// Which pipeline a draw takes: its material's blending, culling and animation, and what its
/// fragments read of the vertex (so that a pipeline interpolates only that: on a software
/// rasterizer the interpolants cost a seventh of the windmills' frame).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    /// See-through ([`Material::is_see_through`]): drawn after everything opaque, over it,
    /// without writing depth.
    pub blend: bool,
    /// Transmissive ([`Material::is_transmissive`]): what is behind it is kept by the share
    /// its fragments let through (`TRANSMISSIVE`).
    pub transmissive: bool,
    /// Clear-coated ([`Material::is_clearcoated`]): its fragments light a second specular
    /// layer (`CLEARCOAT`).
    pub clearcoat: bool,
    /// Its fibres have a sheen ([`Material::has_sheen`]): its fragments light a sheen layer
    /// (`SHEEN`).
    pub sheen: bool,
    /// Its specular lobe is stretched along a grain ([`Material::is_anisotropic`]): its
    /// fragments read tangents (`ANISOTROPIC`).
    pub anisotropic: bool,
    /// A thin film lies over it ([`Material::is_iridescent`]): its specular's Fresnel is the
    /// film's (`IRIDESCENT`).
    pub iridescent: bool,
    /// Its diffuse is rough ([`Material::has_rough_diffuse`]): Oren-Nayar's, not Lambert's
    /// (`DIFFUSE_ROUGHNESS`).
    pub rough_diffuse: bool,
    /// Alpha-masked: its fragments may be discarded (`ALPHA_MASK`); an opaque pipeline's never
    /// are, so the GPU tests depth before shading them.
    pub masked: bool,
    /// Both faces drawn (no culling).
    pub double_sided: bool,
    /// A clip animates one of its fields: its fragments read the instance's palette
    /// (`ANIMATED_MATERIAL` in `shaders/shading.wgsl`).
    pub animated: bool,
    /// The slots its material has a texture in, a bit per slot in the shader's order
    /// (`TEXTURES`): only those sample, and only a textured material's fragments read texture
    /// coordinates, and a normal-mapped one's tangents.
    pub textures: u32,
    /// Its vertices have colours (`COLOR_0`, or a merged draw's members' colours): its
    /// fragments read them (`VERTEX_COLORS`).
    pub colored: bool,
    /// Its primitive is drawn flat ([`props_anim::Primitive::flat`], `FLAT_SHADED`).
    pub flat: bool,
    /// Its material takes the instance's paint ([`props_frame::InstanceData::tint`];
    /// [`Material::is_paint`]): its fragments read the tint (`PAINTED`).
    pub painted: bool,
    /// Its primitive has morph targets: its vertices read their weights (`MORPHED`).
    pub morphed: bool,
    /// Its morph targets displace its colours too (`MORPHED_COLORS`).
    pub morphed_colors: bool,
    /// Its vertices have influences past the 8th (`EXTRA_INFLUENCES`).
    pub extra_influences: bool,
    /// A clip animates its mesh instance's visibility (`HIDEABLE`).
    pub hideable: bool,
    /// Its node mirrors it ([`crate::draw_merge::MergePlan::mirrored`]): its front faces wind
    /// clockwise (a pipeline's state, no switch of the shader).
    pub mirrored: bool,
    /// It draws a model's impostor (`IMPOSTOR`): painted by its vertices' share of paint.
    pub impostor: bool,
    /// What its indices list: triangles, or points and lines, drawn a pixel wide in their
    /// base colour, unlit (`POINTS_AND_LINES`), as three.js draws them.
    pub topology: Topology,
}

impl PipelineKey {
    /// The pipeline of `material`'s draws, `animated` fields as [`animated_fields`] says, for
    /// vertices without colours drawn smooth, with nothing past their placement
    /// ([`PipelineKey::of_draw`] and [`PipelineKey::colored`] set those).
    pub(crate) fn of(material: &Material, animated: &[[u32; 4]; 6]) -> Self {
        let textures = material.texture_slots();
        Self {
            blend: material.is_see_through(),
            transmissive: material.is_transmissive(),
            clearcoat: material.is_clearcoated(),
            sheen: material.has_sheen(),
            anisotropic: material.is_anisotropic(),
            iridescent: material.is_iridescent(),
            rough_diffuse: material.has_rough_diffuse(),
            masked: matches!(material.alpha_mode, AlphaMode::Mask { .. }),
            double_sided: material.double_sided,
            animated: animated.iter().flatten().any(|&at| at != 0),
            textures: textures.iter().enumerate().fold(0, |bits, (slot, t)| bits | u32::from(t.is_some()) << slot),
            colored: false,
            flat: false,
            painted: material.is_paint(),
            morphed: false,
            morphed_colors: false,
            extra_influences: false,
            hideable: false,
            impostor: false,
            mirrored: false,
            topology: Topology::Triangles,
        }
    }

    /// This key on a device that binds the first `bound` texture slots alone: the rest are
    /// not sampled (`materials.rs`' `SLOTS_EVERYWHERE`).
    pub(crate) fn within(self, bound: usize) -> Self {
        let bound = u32::try_from(bound).unwrap_or(u32::MAX);
        Self { textures: self.textures & 1u32.checked_shl(bound).map_or(u32::MAX, |past| past - 1), ..self }
    }

    /// This material's key for a draw of `primitive` (its colours, its flat shading, its
    /// morph targets, its influences past the 8th, its points or lines), whose visibility a
    /// clip animates or not, mirrored by its node or not.
    pub(crate) fn of_draw(self, primitive: &Primitive, (hideable, mirrored): (bool, bool)) -> Self {
        let key = Self {
            colored: !primitive.colors.is_empty(),
            flat: primitive.flat,
            morphed: !primitive.morph_targets.is_empty(),
            morphed_colors: primitive.morphs_colors(),
            extra_influences: primitive.influences.as_ref().is_some_and(|i| !i.extra.is_empty()),
            hideable,
            mirrored,
            ..self
        };
        match primitive.topology {
            Topology::Triangles => key,
            stroke => key.stroked(stroke),
        }
    }

    /// This key for points or lines (`topology`): three.js draws them in a `PointsMaterial` or
    /// `LineBasicMaterial` made from the material, which keeps its base colour, its base colour
    /// texture, its alpha and its vertex colours, and nothing lit (a transmissive material's
    /// are still drawn with the see-through, at its alpha). A stroke has no faces: no culling,
    /// no winding, no back faces drawn first.
    fn stroked(self, topology: Topology) -> Self {
        Self {
            topology,
            // The base colour's slot (the first) alone.
            textures: self.textures & 1,
            transmissive: false,
            clearcoat: false,
            sheen: false,
            anisotropic: false,
            iridescent: false,
            rough_diffuse: false,
            double_sided: false,
            mirrored: false,
            flat: false,
            ..self
        }
    }

    /// Whether its draws have faces (triangles), which cast shadows and have a winding; points
    /// and lines have none.
    pub(crate) fn faces(self) -> bool {
        self.topology == Topology::Triangles
    }

    /// This draw's key for instances whose placements mirror them (`mirrored`) or not: a
    /// mirroring placement turns the winding once more (a part mirrored by its node, placed
    /// mirrored, winds as glTF's); points and lines have none to turn.
    pub(crate) fn placed(self, mirrored: bool) -> Self {
        Self { mirrored: self.faces() && self.mirrored != mirrored, ..self }
    }

    /// This material's key for a merged draw: vertices with colours (each member's) and
    /// nothing else.
    pub(crate) fn colored(self) -> Self {
        Self { colored: true, ..self }
    }

    /// This key for a merged draw whose members are drawn flat, or not (`facets.rs`).
    pub(crate) fn flat(self, flat: bool) -> Self {
        Self { flat, ..self }
    }

    /// This material's key for a model's impostor: each face's colour and share of paint in
    /// its vertices'.
    pub(crate) fn impostor(self) -> Self {
        Self { impostor: true, ..self.colored() }
    }

    /// Every `step`th key.
    #[cfg(test)]
    pub(crate) fn every(step: usize) -> impl Iterator<Item = Self> {
        (0..1u64 << Self::BITS).step_by(step).map(Self::from_bits)
    }

    /// How many switches and texture slots a key has.
    #[cfg(test)]
    const BITS: u32 = 21 + TEXTURE_SLOTS as u32;

    /// The key whose switches and slots are the bits of `i`, a bit each (points and lines
    /// one each: with both, points).
    #[cfg(test)]
    fn from_bits(i: u64) -> Self {
        let switch = |k: u32| i & 1 << (11 + TEXTURE_SLOTS as u32 + k) != 0;
        let topology = match (i & 4 != 0, i & 2 != 0) {
            (_, true) => Topology::Points,
            (true, false) => Topology::Lines,
            (false, false) => Topology::Triangles,
        };
        Self {
            blend: switch(9),
            transmissive: switch(8),
            clearcoat: switch(7),
            sheen: switch(6),
            anisotropic: switch(5),
            iridescent: switch(4),
            rough_diffuse: switch(3),
            masked: switch(2),
            double_sided: switch(1),
            animated: switch(0),
            textures: (i >> 11 & ((1 << TEXTURE_SLOTS) - 1)) as u32,
            morphed_colors: i & 1024 != 0,
            colored: i & 512 != 0,
            flat: i & 256 != 0,
            painted: i & 128 != 0,
            morphed: i & 64 != 0,
            extra_influences: i & 32 != 0,
            hideable: i & 16 != 0,
            impostor: i & 8 != 0,
            mirrored: i & 1 != 0,
            topology,
        }
    }

    /// Its order among the keys: opaque before blended, then by the rest (draws are grouped
    /// by it, so that a model changes pipeline as few times as it can).
    pub(crate) fn index(self) -> u64 {
        let fold = |index: u64, flags: &[bool]| flags.iter().fold(index, |index, &bit| index << 1 | u64::from(bit));
        let material = [
            self.blend,
            self.transmissive,
            self.clearcoat,
            self.sheen,
            self.anisotropic,
            self.iridescent,
            self.rough_diffuse,
            self.masked,
            self.double_sided,
            self.animated,
        ];
        let index = fold(0, &material);
        let index = index << TEXTURE_SLOTS | u64::from(self.textures);
        let flags = [
            self.morphed_colors,
            self.colored,
            self.flat,
            self.painted,
            self.morphed,
            self.extra_influences,
            self.hideable,
            self.impostor,
        ];
        let topology = [self.topology == Topology::Lines, self.topology == Topology::Points];
        fold(fold(fold(index, &flags), &topology), &[self.mirrored])
    }

    /// What its draws' vertices give their fragments: all of `VertexOutput`, or only what its
    /// fragments read (`shaders/lean_outputs.wgsl`).
    pub(crate) fn outputs(self) -> Outputs {
        if self.textures != 0 || self.anisotropic {
            Outputs::All
        } else if self.painted || self.animated || self.impostor {
            Outputs::Untextured
        } else if self.flat && !self.transmissive {
            Outputs::Faceted
        } else {
            Outputs::Plain
        }
    }

    /// The pipeline-overridable constants of `shaders/shading.wgsl` it sets.
    pub(crate) fn constants(self) -> [(&'static str, f64); 18] {
        let flag = |on: bool| f64::from(u8::from(on));
        [
            ("ALPHA_MASK", flag(self.masked)),
            ("ANIMATED_MATERIAL", flag(self.animated)),
            ("TEXTURES", f64::from(self.textures)),
            ("VERTEX_COLORS", flag(self.colored)),
            ("FLAT_SHADED", flag(self.flat)),
            ("PAINTED", flag(self.painted)),
            ("MORPHED", flag(self.morphed)),
            ("MORPHED_COLORS", flag(self.morphed_colors)),
            ("EXTRA_INFLUENCES", flag(self.extra_influences)),
            ("HIDEABLE", flag(self.hideable)),
            ("IMPOSTOR", flag(self.impostor)),
            ("TRANSMISSIVE", flag(self.transmissive)),
            ("CLEARCOAT", flag(self.clearcoat)),
            ("SHEEN", flag(self.sheen)),
            ("ANISOTROPIC", flag(self.anisotropic)),
            ("IRIDESCENT", flag(self.iridescent)),
            ("DIFFUSE_ROUGHNESS", flag(self.rough_diffuse)),
            ("POINTS_AND_LINES", flag(!self.faces())),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pipeline's vertices give its fragments what they read: texture coordinates and
    /// tangents to a textured or anisotropic material's; the paint and the palette's base to a
    /// painted, animated or impostor's; the normal to all but a flat-shaded one's (save glass,
    /// whose scale rides in it); colours and the surface to every one.
    #[test]
    fn vertices_give_their_fragments_what_they_read() {
        let plain = PipelineKey::default();
        assert_eq!(plain.outputs(), Outputs::Plain);
        assert_eq!(PipelineKey { colored: true, morphed: true, ..plain }.outputs(), Outputs::Plain);
        let faceted = PipelineKey { flat: true, ..plain };
        assert_eq!(faceted.outputs(), Outputs::Faceted);
        assert_eq!(PipelineKey { transmissive: true, ..faceted }.outputs(), Outputs::Plain, "its scale in the normal");
        for untextured in
            [PipelineKey { painted: true, ..plain }, PipelineKey { animated: true, ..plain }, plain.impostor()]
        {
            assert_eq!(untextured.outputs(), Outputs::Untextured, "{untextured:?}");
        }
        for slot in 0..TEXTURE_SLOTS {
            assert_eq!(PipelineKey { textures: 1 << slot, ..plain }.outputs(), Outputs::All, "slot {slot}");
        }
        assert_eq!(PipelineKey { anisotropic: true, ..faceted }.outputs(), Outputs::All, "its grain in the tangents");
    }

    /// Every key has its own place among the keys, opaque ones first: each switch and each
    /// texture slot takes a bit of its own, and a key's place is the union of its switches'.
    #[test]
    fn every_key_has_its_own_place_opaque_first() {
        let places: Vec<u64> = (0..PipelineKey::BITS).map(|bit| PipelineKey::from_bits(1 << bit).index()).collect();
        assert!(places.iter().all(|place| place.count_ones() == 1), "{places:?}");
        assert_eq!(places.iter().fold(0, |all, place| all | place), (1 << PipelineKey::BITS) - 1, "all distinct");
        // (No key draws points and lines at once.)
        let one_topology = |i: &u64| i & 6 != 6;
        for i in
            (0..1u64 << PipelineKey::BITS).step_by(524_287).chain([(1 << PipelineKey::BITS) - 3]).filter(one_topology)
        {
            let key = PipelineKey::from_bits(i);
            let union = places.iter().enumerate().filter(|(bit, _)| i & 1 << bit != 0).fold(0, |all, (_, p)| all | p);
            assert_eq!(key.index(), union, "{key:?}");
            assert!(key.blend || key.index() < 1 << (PipelineKey::BITS - 1), "{key:?}: opaque first");
        }
    }
}
