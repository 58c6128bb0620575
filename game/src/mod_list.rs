//! Every mod the game has seen, as the HUD lists it: where it shows, its size, clips and
//! liveries, its warnings, or why its latest version was refused (the last good one, if any, still shows).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use props_anim::Model;

/// One mod file.
#[derive(Clone, Debug, PartialEq)]
pub struct ModEntry {
    /// Its path as the user named the mods folder.
    pub shown: String,
    /// Where a version of it shows (`lot`, `traffic`, ...), if one does.
    pub place: Option<&'static str>,
    /// The number of the kind it shows in, or `None` on the lot.
    pub kind: Option<usize>,
    /// Why its latest version was refused, if it was.
    pub error: Option<String>,
    /// The showing version's warnings.
    pub warnings: Vec<String>,
    /// The showing version's height, metres, as drawn.
    pub height_m: Option<f32>,
    /// The showing version's clips, by name (or `#i`).
    pub clips: Vec<String>,
    /// The showing version's material variants (`KHR_materials_variants`: liveries), by name.
    pub liveries: Vec<String>,
}

/// The mods, by path in the mods folder.
#[derive(Debug, Default)]
pub struct ModList {
    entries: BTreeMap<PathBuf, ModEntry>,
}

impl ModList {
    /// A version of `path` shows now, in kind number `kind` (or on the lot), where its props
    /// stand being `place`.
    #[allow(clippy::too_many_arguments)] // What the HUD shows of it.
    pub fn showing(
        &mut self,
        path: &Path,
        shown: String,
        kind: Option<usize>,
        place: &'static str,
        model: &Model,
        height_m: Option<f32>,
        warnings: Vec<String>,
    ) {
        let clips =
            model.clips().iter().enumerate().map(|(i, c)| c.name().map_or_else(|| format!("#{i}"), str::to_owned));
        let liveries = model.material_variants().iter().map(|v| v.name.clone()).collect();
        let clips = clips.collect();
        let entry = ModEntry { shown, place: Some(place), kind, error: None, warnings, height_m, clips, liveries };
        self.entries.insert(path.to_owned(), entry);
    }

    /// The latest version of `path` was refused with `error`; what showed still does.
    pub fn refused(&mut self, path: &Path, shown: String, error: String) {
        let entry = self.entries.entry(path.to_owned()).or_insert_with(|| ModEntry {
            shown,
            place: None,
            kind: None,
            error: None,
            warnings: Vec::new(),
            height_m: None,
            clips: Vec::new(),
            liveries: Vec::new(),
        });
        entry.error = Some(error);
    }

    /// `path` is gone.
    pub fn removed(&mut self, path: &Path) {
        self.entries.remove(path);
    }

    /// Every mod, by path.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (&Path, &ModEntry)> {
        self.entries.iter().map(|(path, entry)| (path.as_path(), entry))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fox() -> Model {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
        props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("the Fox").model
    }

    #[test]
    fn a_refused_version_keeps_what_shows_and_says_why() {
        let mut list = ModList::default();
        let path = Path::new("pack/fox.glb");
        list.showing(path, "mods/pack/fox.glb".into(), None, "lot", &fox(), Some(1.8), vec!["w".into()]);
        list.refused(path, "mods/pack/fox.glb".into(), "broken".into());
        let (_, entry) = list.entries().next().expect("listed");
        assert_eq!((entry.place, entry.error.as_deref(), entry.height_m), (Some("lot"), Some("broken"), Some(1.8)));
        assert_eq!(entry.clips, ["Survey", "Walk", "Run"]);
        assert!(entry.liveries.is_empty(), "the fox has no material variants");
        list.showing(path, "mods/pack/fox.glb".into(), Some(3), "parks", &fox(), Some(0.8), Vec::new());
        let (_, entry) = list.entries().next().expect("listed");
        assert_eq!((entry.place, entry.error.as_deref()), (Some("parks"), None), "fixed");
        let car =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/material_variants/material_variants.gltf");
        let car = props_gltf::import_file(&car, &props_gltf::Limits::default()).expect("the car").model;
        list.showing(path, "mods/pack/fox.glb".into(), Some(1), "traffic", &car, Some(1.5), Vec::new());
        assert_eq!(list.entries().next().map(|(_, e)| e.liveries.clone()), Some(vec!["taxi".into(), "police".into()]));
        list.refused(Path::new("pack/bad.glb"), "mods/pack/bad.glb".into(), "no".into());
        assert_eq!(list.entries().len(), 2);
        list.removed(path);
        assert_eq!(list.entries().map(|(p, _)| p.to_path_buf()).collect::<Vec<_>>(), [PathBuf::from("pack/bad.glb")]);
    }
}
