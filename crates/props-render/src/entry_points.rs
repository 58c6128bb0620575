//! The shaded pipelines' entry points: each has twins whose vertices give their fragments
//! less (`shaders/lean_outputs.wgsl`), one per [`Outputs`], because a software rasteriser
//! (lavapipe) stores, clips and sets up every output a vertex has, read or not: on 10,000
//! windmills in their bind pose, what they did not read cost a fifth of the floor's frame.

/// What a pipeline's vertices give its fragments (`shaders/lean_outputs.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Outputs {
    /// Everything (`VertexOutput`): a material that samples a texture.
    All,
    /// No texture coordinates or tangents (`UntexturedOutput`).
    Untextured,
    /// Only where the surface is, which way it faces and its vertices' colours
    /// (`PlainOutput`): besides no texture, no paint and no animated material value.
    Plain,
    /// A plain draw shaded flat, which lets no light through: no normal either (each pixel's
    /// is its triangle's; `FacetedOutput`).
    Faceted,
}

/// A shaded entry point and its twins, each for the draws whose fragments read no more than
/// its vertices give ([`crate::materials::PipelineKey::outputs`]).
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    all: &'static str,
    untextured: &'static str,
    plain: &'static str,
    faceted: &'static str,
}

impl Entry {
    /// The entry point whose vertices give `outputs`.
    pub(crate) fn of(self, outputs: Outputs) -> &'static str {
        match outputs {
            Outputs::All => self.all,
            Outputs::Untextured => self.untextured,
            Outputs::Plain => self.plain,
            Outputs::Faceted => self.faceted,
        }
    }
}

/// Entry point `name` and its twins, `name` followed by `_untextured`, `_plain`, `_faceted`.
macro_rules! entry {
    ($name:literal) => {
        Entry {
            all: $name,
            untextured: concat!($name, "_untextured"),
            plain: concat!($name, "_plain"),
            faceted: concat!($name, "_faceted"),
        }
    };
}

pub(crate) const VS_RIGID: Entry = entry!("vs_rigid");
pub(crate) const VS_SKINNED: Entry = entry!("vs_skinned");
pub(crate) const VS_UNSKINNED: Entry = entry!("vs_unskinned");
pub(crate) const FS_MAIN: Entry = entry!("fs_main");
pub(crate) const FS_TRANSMISSIVE: Entry = entry!("fs_transmissive");
pub(crate) const FS_LAMBERT: Entry = entry!("fs_lambert");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline_key::PipelineKey;
    use crate::shaders::{self, PaletteAccess};
    use crate::slot_bindings::SlotBindings;

    /// Every entry point a pipeline key can take is in the shader: each tier's vertex stage
    /// for every posing, and its fragment stage for every shading (glass never faceted).
    #[test]
    fn every_key_s_entry_points_are_in_the_shader() {
        let source =
            shaders::with_dual_source_blending(&shaders::skinned(PaletteAccess::StorageBuffer, SlotBindings::ALL));
        let module = naga::front::wgsl::parse_str(&source).expect("the shader parses");
        let names: Vec<&str> = module.entry_points.iter().map(|e| e.name.as_str()).collect();
        let mut taken = std::collections::HashSet::new();
        // A sample of all keys, and every key without a texture or a material switch.
        for key in PipelineKey::every(24_834).chain(PipelineKey::every(1).take(1 << 8)) {
            let outputs = key.outputs();
            taken.insert(outputs);
            let fragments = if key.transmissive { vec![FS_TRANSMISSIVE, FS_MAIN] } else { vec![FS_MAIN, FS_LAMBERT] };
            for entry in [VS_RIGID, VS_SKINNED, VS_UNSKINNED].into_iter().chain(fragments) {
                assert!(names.contains(&entry.of(outputs)), "{} for {key:?}", entry.of(outputs));
            }
        }
        assert_eq!(taken.len(), 4, "every tier taken: {taken:?}");
    }
}
