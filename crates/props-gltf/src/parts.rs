//! The parts of a model the gate can drop alone, and which parts an issue's JSON pointer
//! reaches. A part is the finest grain the game degrades at (see [`crate::rules`]).

use std::collections::BTreeSet;
use std::fmt;

use gltf::json::Root;
use serde::Serialize;

/// A part of a model that can be left out while the rest loads.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "part", rename_all = "lowercase")]
pub enum Part {
    /// glTF animation `index`: dropped, the model keeps its other clips.
    Clip {
        /// The animation's index in the file.
        index: u32,
        /// Its name, if it has one.
        name: Option<String>,
    },
    /// Primitive `primitive` of glTF mesh `mesh`: skipped, the mesh draws its other ones.
    Primitive {
        /// The mesh's index in the file.
        mesh: u32,
        /// The primitive's index in the mesh.
        primitive: u32,
    },
    /// glTF material `index`: drawn as the default material (white, untextured).
    Material {
        /// The material's index in the file.
        index: u32,
    },
    /// glTF texture `index`: the materials using it draw untextured.
    Texture {
        /// The texture's index in the file.
        index: u32,
    },
    /// glTF image `index`: the textures using it draw untextured.
    Image {
        /// The image's index in the file.
        index: u32,
    },
}

/// What the game does about the part: `drops clip 2 (`Run`)`, `skips primitive 1 of mesh 0`, ...
impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Clip { index, name: Some(name) } => write!(f, "drops clip {index} (`{name}`)"),
            Self::Clip { index, name: None } => write!(f, "drops clip {index}"),
            Self::Primitive { mesh, primitive } => write!(f, "skips primitive {primitive} of mesh {mesh}"),
            Self::Material { index } => write!(f, "draws material {index} as the default material"),
            Self::Texture { index } => write!(f, "draws without texture {index}"),
            Self::Image { index } => write!(f, "draws without image {index}"),
        }
    }
}

/// Which parts read what, for one document: finds the parts a JSON pointer reaches.
#[derive(Debug, Default)]
pub(crate) struct PartMap {
    clip_names: Vec<Option<String>>,
    /// Per accessor: the parts that read it (empty: nothing does), or `None` when something
    /// that is no part reads it (a skin's inverse bind matrices).
    accessor_readers: Vec<Option<Vec<Part>>>,
    /// The same per buffer view, through its accessors and images.
    view_readers: Vec<Option<Vec<Part>>>,
}

impl PartMap {
    /// The map of `root` (linear in the document's size).
    pub(crate) fn new(root: &Root) -> Self {
        let clip_names = root.animations.iter().map(|a| a.name.clone()).collect();
        let mut accessors: Vec<Option<Vec<Part>>> = vec![Some(Vec::new()); root.accessors.len()];
        let mut read = |accessor: usize, reader: Option<Part>| match (accessors.get_mut(accessor), reader) {
            (Some(Some(parts)), Some(part)) => parts.push(part),
            (Some(slot), None) => *slot = None,
            _ => {}
        };
        for (m, mesh) in root.meshes.iter().enumerate() {
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                let part = Part::Primitive { mesh: crate::index_u32(m), primitive: crate::index_u32(p) };
                let targets = primitive.targets.iter().flatten();
                let morphs = targets.flat_map(|t| [t.positions, t.normals, t.tangents]).flatten();
                let attributes = primitive.attributes.values().copied().chain(primitive.indices).chain(morphs);
                for accessor in attributes {
                    read(accessor.value(), Some(part.clone()));
                }
            }
        }
        for skin in &root.skins {
            if let Some(matrices) = skin.inverse_bind_matrices {
                read(matrices.value(), None);
            }
        }
        // EXT_mesh_gpu_instancing's transforms: a node reads them.
        let instancing = root.nodes.iter().filter_map(|n| n.extensions.as_ref()?.others.get("EXT_mesh_gpu_instancing"));
        let attributes = instancing.filter_map(|e| e.get("attributes")?.as_object()).flat_map(|a| a.values());
        for accessor in attributes.filter_map(|a| usize::try_from(a.as_u64()?).ok()) {
            read(accessor, None);
        }
        for (a, animation) in root.animations.iter().enumerate() {
            let part = Part::Clip { index: crate::index_u32(a), name: animation.name.clone() };
            for sampler in &animation.samplers {
                read(sampler.input.value(), Some(part.clone()));
                read(sampler.output.value(), Some(part.clone()));
            }
        }
        for parts in accessors.iter_mut().flatten() {
            parts.sort();
            parts.dedup();
        }
        let mut views: Vec<Option<Vec<Part>>> = vec![Some(Vec::new()); root.buffer_views.len()];
        let mut view_read = |view: usize, readers: Option<&Vec<Part>>| match (views.get_mut(view), readers) {
            (Some(Some(parts)), Some(readers)) => parts.extend(readers.iter().cloned()),
            (Some(slot), None) => *slot = None,
            _ => {}
        };
        for (accessor, readers) in root.accessors.iter().zip(&accessors) {
            let sparse = accessor.sparse.iter().flat_map(|s| [s.indices.buffer_view, s.values.buffer_view]);
            for view in accessor.buffer_view.into_iter().chain(sparse) {
                view_read(view.value(), readers.as_ref());
            }
        }
        for (m, mesh) in root.meshes.iter().enumerate() {
            for (p, primitive) in mesh.primitives.iter().enumerate() {
                if let Some(view) = crate::draco::view_of(primitive) {
                    let part = Part::Primitive { mesh: crate::index_u32(m), primitive: crate::index_u32(p) };
                    view_read(view, Some(&vec![part]));
                }
            }
        }
        for (i, image) in root.images.iter().enumerate() {
            if let Some(view) = image.buffer_view {
                view_read(view.value(), Some(&vec![Part::Image { index: crate::index_u32(i) }]));
            }
        }
        for parts in views.iter_mut().flatten() {
            parts.sort();
            parts.dedup();
        }
        Self { clip_names, accessor_readers: accessors, view_readers: views }
    }

    /// Whether something reads accessor `accessor` (a part, a skin or a node).
    pub(crate) fn is_read(&self, accessor: usize) -> bool {
        self.accessor_readers.get(accessor).is_some_and(|readers| readers.as_ref().is_none_or(|r| !r.is_empty()))
    }

    /// The parts an issue at `json_pointer` reaches: `None` when no droppable part holds it
    /// (a node, a skin, a buffer, the file), an empty list when nothing reads what it is in.
    pub(crate) fn parts_of(&self, json_pointer: &str) -> Option<Vec<Part>> {
        let mut segments = json_pointer.split('/').skip(1);
        let (list, index) = (segments.next()?, segments.next()?.parse::<usize>().ok()?);
        let index_u32 = crate::index_u32(index);
        Some(match list {
            "animations" => {
                let name = self.clip_names.get(index).cloned().flatten();
                vec![Part::Clip { index: index_u32, name }]
            }
            "meshes" => match (segments.next(), segments.next().and_then(|p| p.parse::<u32>().ok())) {
                // A material variant's mapping is left out alone (`materials_variants.rs`).
                (Some("primitives"), Some(_))
                    if segments.next() == Some("extensions")
                        && segments.next() == Some(crate::materials_variants::NAME) =>
                {
                    Vec::new()
                }
                (Some("primitives"), Some(primitive)) => vec![Part::Primitive { mesh: index_u32, primitive }],
                _ => return None,
            },
            "materials" => vec![Part::Material { index: index_u32 }],
            "textures" => vec![Part::Texture { index: index_u32 }],
            "images" => vec![Part::Image { index: index_u32 }],
            "accessors" => self.accessor_readers.get(index)?.clone()?,
            "bufferViews" => self.view_readers.get(index)?.clone()?,
            _ => return None,
        })
    }
}

/// The parts an import leaves out, each kind in its own set (a hostile file can have tens of
/// thousands of broken parts: every lookup is logarithmic).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Skip {
    clips: BTreeSet<u32>,
    primitives: BTreeSet<(u32, u32)>,
    materials: BTreeSet<u32>,
    textures: BTreeSet<u32>,
    images: BTreeSet<u32>,
}

impl Skip {
    /// Adds `parts`.
    pub(crate) fn extend(&mut self, parts: impl IntoIterator<Item = Part>) {
        for part in parts {
            match part {
                Part::Clip { index, .. } => self.clips.insert(index),
                Part::Primitive { mesh, primitive } => self.primitives.insert((mesh, primitive)),
                Part::Material { index } => self.materials.insert(index),
                Part::Texture { index } => self.textures.insert(index),
                Part::Image { index } => self.images.insert(index),
            };
        }
    }

    /// Whether `part` is left out.
    pub(crate) fn contains(&self, part: &Part) -> bool {
        match *part {
            Part::Clip { index, .. } => self.clips.contains(&index),
            Part::Primitive { mesh, primitive } => self.primitives.contains(&(mesh, primitive)),
            Part::Material { index } => self.materials.contains(&index),
            Part::Texture { index } => self.textures.contains(&index),
            Part::Image { index } => self.images.contains(&index),
        }
    }

    /// Whether animation `a` is left out.
    pub(crate) fn clip(&self, a: usize) -> bool {
        self.clips.contains(&crate::index_u32(a))
    }

    /// Whether primitive `p` of mesh `m` is left out.
    pub(crate) fn primitive(&self, m: usize, p: usize) -> bool {
        self.primitives.contains(&(crate::index_u32(m), crate::index_u32(p)))
    }

    /// Whether material `i` is drawn as the default material.
    pub(crate) fn material(&self, i: usize) -> bool {
        self.materials.contains(&crate::index_u32(i))
    }

    /// Whether texture `t`, or the image it shows, is left out.
    pub(crate) fn texture(&self, root: &Root, t: usize) -> bool {
        let image = crate::document::texture_image(root, t);
        self.textures.contains(&crate::index_u32(t))
            || image.is_some_and(|i| self.images.contains(&crate::index_u32(i)))
    }

    /// Whether some primitive is left out.
    pub(crate) fn has_primitives(&self) -> bool {
        !self.primitives.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn pointers_reach_the_parts_that_read_them() {
        let root: Root = serde_json::from_value(json!({"asset": {"version": "2.0"},
            "accessors": [{"componentType": 5126, "count": 1, "type": "SCALAR", "bufferView": 0},
                {"componentType": 5126, "count": 1, "type": "VEC3", "bufferView": 1},
                {"componentType": 5126, "count": 1, "type": "MAT4", "bufferView": 1},
                {"componentType": 5126, "count": 1, "type": "SCALAR"}],
            "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteLength": 64}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 1}}]}],
            "skins": [{"joints": [0], "inverseBindMatrices": 2}],
            "animations": [{"name": "Run", "samplers": [{"input": 0, "output": 0}], "channels": []}]}))
        .expect("glTF");
        let map = PartMap::new(&root);
        let run = Part::Clip { index: 0, name: Some("Run".to_owned()) };
        assert_eq!(map.parts_of("/animations/0/samplers/0/input"), Some(vec![run.clone()]));
        assert_eq!(map.parts_of("/accessors/0"), Some(vec![run.clone()]));
        assert_eq!(map.parts_of("/bufferViews/0/byteLength"), Some(vec![run]));
        let primitive = Part::Primitive { mesh: 0, primitive: 0 };
        assert_eq!(map.parts_of("/accessors/1/max/0"), Some(vec![primitive.clone()]));
        assert_eq!(map.parts_of("/meshes/0/primitives/0/attributes/POSITION"), Some(vec![primitive]));
        let mapping = "/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0/material";
        assert_eq!(map.parts_of(mapping), Some(vec![]), "a variant's mapping is left out alone");
        assert_eq!(map.parts_of("/accessors/2"), None, "inverse bind matrices: a skin reads them");
        assert_eq!(map.parts_of("/bufferViews/1"), None, "shared with the skin's matrices");
        assert_eq!(map.parts_of("/accessors/3"), Some(vec![]), "read by nothing");
        assert_eq!(map.parts_of("/meshes/0/weights"), None);
        assert_eq!(map.parts_of("/nodes/0"), None);
        assert_eq!(map.parts_of(""), None);
        assert_eq!(map.parts_of("/materials/4/pbrMetallicRoughness"), Some(vec![Part::Material { index: 4 }]));
    }

    #[test]
    fn parts_say_what_the_game_does() {
        let run = Part::Clip { index: 2, name: Some("Run".to_owned()) };
        assert_eq!(run.to_string(), "drops clip 2 (`Run`)");
        assert_eq!(Part::Primitive { mesh: 0, primitive: 1 }.to_string(), "skips primitive 1 of mesh 0");
    }
}
