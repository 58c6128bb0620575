//! Every real model under `tests/models` imports, with the counts its file declares.

use std::path::{Path, PathBuf};

use props_anim::{Topology, clip::interpolate::Interpolation};
use props_gltf::{Import, Limits, import_file};

/// The workspace's real test models.
pub fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models")
}

/// Every model file under `tests/models`, with its path relative to it.
pub const MODELS: &[&str] = &[
    "Fox.glb",
    "RiggedSimple.glb",
    "SimpleSkin.gltf",
    "AnimatedTriangle.gltf",
    "BoxAnimated.gltf",
    "SimpleMorph/SimpleMorph.gltf",
    "AnimatedMorphCube/AnimatedMorphCube.gltf",
];

fn import(name: &str) -> Import {
    import_file(&models_dir().join(name), &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// (meshes, primitives of mesh 0, vertices of its primitive 0, skins, joints of skin 0,
/// clips, materials, images, nodes, scene nodes, instances)
type Counts = (usize, usize, usize, usize, usize, usize, usize, usize, usize, usize, usize);

fn counts(import: &Import) -> Counts {
    let model = &import.model;
    let mesh0 = model.meshes().first();
    (
        model.meshes().len(),
        mesh0.map_or(0, |m| m.primitives.len()),
        mesh0.and_then(|m| m.primitives.first()).map_or(0, |p| p.vertex_count()),
        model.skins().len(),
        model.skins().first().map_or(0, |s| s.joints().len()),
        model.clips().len(),
        model.materials().len(),
        model.images().len(),
        model.rig().len(),
        import.scene_nodes.len(),
        model.instances().len(),
    )
}

#[test]
fn every_real_model_imports_without_warnings() {
    for name in MODELS {
        let import = import(name);
        assert!(import.warnings.is_empty(), "{name}: {:?}", import.warnings);
        for mesh in import.model.meshes() {
            for primitive in &mesh.primitives {
                assert_eq!(primitive.topology, Topology::Triangles, "{name}");
                assert_eq!(primitive.normals.len(), primitive.vertex_count(), "{name}");
                assert!(primitive.normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-3), "{name}: unit normals");
                assert_eq!(primitive.indices.len() % 3, 0, "{name}");
            }
        }
    }
}

#[test]
fn fox() {
    let fox = import("Fox.glb");
    assert_eq!(counts(&fox), (1, 1, 1728, 1, 24, 3, 1, 1, 26, 26, 1));
    let names: Vec<_> = fox.model.clips().iter().map(|c| c.name()).collect();
    assert_eq!(names, [Some("Survey"), Some("Walk"), Some("Run")]);
    let primitive = &fox.model.meshes()[0].primitives[0];
    assert_eq!(primitive.indices, (0..1728).collect::<Vec<u32>>(), "generated indices");
    assert_eq!(primitive.uv0.len(), 1728);
    assert_eq!(primitive.influences.as_ref().map(|i| i.sets), Some(1));
    assert_eq!(fox.model.materials()[0].base_color_texture.map(|t| t.image), Some(0));
    let image = &fox.model.images()[0];
    assert_eq!(image.rgba8.len(), (image.width * image.height * 4) as usize);
    let instance = fox.model.instances()[0];
    assert_eq!((fox.model.rig().source_index(instance.node), instance.mesh, instance.skin), (1, 0, Some(0)));
}

#[test]
fn rigged_simple() {
    let rigged = import("RiggedSimple.glb");
    assert_eq!(counts(&rigged), (1, 1, 960, 1, 4, 1, 0, 0, 6, 6, 1));
    let clip = &rigged.model.clips()[0];
    let interpolations: Vec<_> = clip.channels().iter().map(|c| c.keys().interpolation()).collect();
    assert!(interpolations.contains(&Interpolation::Step) && interpolations.contains(&Interpolation::Linear));
}

#[test]
fn simple_skin() {
    let skin = import("SimpleSkin.gltf");
    assert_eq!(counts(&skin), (1, 1, 10, 1, 2, 1, 0, 0, 3, 3, 1));
}

/// Triangles without NORMAL are drawn flat (glTF: "client implementations MUST calculate flat
/// normals"); those with it are not.
#[test]
fn triangles_without_normals_are_drawn_flat() {
    let flat =
        |name: &str| import(name).model.meshes().iter().flat_map(|m| &m.primitives).map(|p| p.flat).collect::<Vec<_>>();
    assert_eq!(flat("AnimatedTriangle.gltf"), [true]);
    assert_eq!(flat("SimpleSkin.gltf"), [true]);
    assert_eq!(flat("Fox.glb"), [true], "the Fox has no normals: three.js draws it faceted too");
    assert_eq!(flat("BoxAnimated.gltf"), [false, false]);
}

#[test]
fn node_animations() {
    assert_eq!(counts(&import("AnimatedTriangle.gltf")), (1, 1, 3, 0, 0, 1, 0, 0, 1, 1, 1));
    let boxes = import("BoxAnimated.gltf");
    assert_eq!(counts(&boxes), (2, 1, 96, 0, 0, 1, 2, 0, 4, 4, 2));
    assert_eq!(boxes.model.clips()[0].channels().len(), 2);
}

#[test]
fn morph_targets() {
    let simple = import("SimpleMorph/SimpleMorph.gltf");
    assert_eq!(counts(&simple), (1, 1, 3, 0, 0, 1, 0, 0, 1, 1, 1));
    assert_eq!(simple.model.rig().morph_defaults(), [0.5, 0.5]);
    assert_eq!(simple.model.meshes()[0].morph_target_count(), 2);
    let cube = import("AnimatedMorphCube/AnimatedMorphCube.gltf");
    assert_eq!(counts(&cube), (1, 1, 24, 0, 0, 1, 1, 0, 1, 1, 1));
    assert_eq!(cube.model.clips()[0].name(), Some("Square"));
    let targets = &cube.model.meshes()[0].primitives[0].morph_targets;
    assert!(targets.iter().all(|t| t.positions.len() == 24 && t.normals.len() == 24));
}

#[test]
fn influences_past_the_eighth_become_per_vertex_lists() {
    let imported = import("generated/twenty_four_influences_u8_unorm8.gltf");
    let primitive = &imported.model.meshes()[0].primitives[0];
    let influences = primitive.influences.as_ref().expect("skinned");
    assert_eq!(influences.sets, 6);
    assert_eq!(influences.extra_start.len(), primitive.vertex_count() + 1);
    for vertex in 0..primitive.vertex_count() {
        // The generator gives every vertex 24 non-zero weights summing to exactly 255/255.
        assert_eq!(influences.extra_of(vertex).len(), 16, "vertex {vertex}");
        assert_eq!(influences.of_vertex(vertex).count(), 24, "vertex {vertex}");
        let sum: f32 = influences.of_vertex(vertex).map(|(_, w)| w).sum();
        assert!((sum - 1.0).abs() < 1e-5, "vertex {vertex}: weights sum to {sum}");
        let mut joints: Vec<u16> = influences.of_vertex(vertex).map(|(j, _)| j).collect();
        joints.sort_unstable();
        joints.dedup();
        assert_eq!(joints.len(), 24, "vertex {vertex}: 24 different joints");
    }
}

#[test]
fn vertex_colours_are_imported_in_every_encoding() {
    let imported = import("generated/vertex_colors.gltf");
    assert!(imported.warnings.is_empty(), "COLOR_0 is used, not ignored: {:?}", imported.warnings);
    let colors: Vec<Vec<glam::Vec4>> = imported.model.meshes()[0].primitives.iter().map(|p| p.colors.clone()).collect();
    // VEC3 FLOAT gets alpha 1; normalized 255 and 65535 are exactly 1.
    let (red, blue) = (glam::Vec4::new(1.0, 0.0, 0.0, 1.0), glam::Vec4::new(0.0, 0.0, 1.0, 1.0));
    assert_eq!(colors, [vec![red; 4], vec![blue; 4], vec![blue; 4]]);
}
