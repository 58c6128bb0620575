//! The impostor made at import: a box with the model's coverage and colour seen along each
//! axis, measured here by casting rays at the model (not by drawing it, as the importer does).

use std::path::Path;

use glam::{Vec3, Vec4};
use props_anim::{JointMatrix, Model, Topology, skinning};
use props_gltf::{Limits, import_file};

fn asset(name: &str) -> Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets").join(name);
    import_file(&path, &Limits::default()).unwrap_or_else(|e| panic!("{name}: {e}")).model
}

/// The model's triangles at rest, in its space.
fn rest_triangles(model: &Model) -> Vec<[Vec3; 3]> {
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&model.pose_at(None, 0.0), &mut palette);
    let mut positions = Vec::new();
    skinning::model_positions(model, &palette, &mut positions);
    let mut triangles = Vec::new();
    let mut first = 0;
    for instance in model.instances() {
        for p in &model.meshes()[instance.mesh as usize].primitives {
            if p.topology == Topology::Triangles {
                let at = |i: u32| positions[first + i as usize];
                triangles.extend(p.indices.chunks_exact(3).map(|t| [at(t[0]), at(t[1]), at(t[2])]));
            }
            first += p.vertex_count();
        }
    }
    triangles
}

/// Whether a ray along axis `a` through `origin` meets the triangle (Moller-Trumbore).
fn hits(origin: Vec3, direction: Vec3, [p0, p1, p2]: [Vec3; 3]) -> bool {
    let (e1, e2) = (p1 - p0, p2 - p0);
    let h = direction.cross(e2);
    let det = e1.dot(h);
    if det.abs() < 1e-12 {
        return false;
    }
    let s = origin - p0;
    let u = s.dot(h) / det;
    let q = s.cross(e1);
    let v = direction.dot(q) / det;
    (0.0..=1.0).contains(&u) && v >= 0.0 && u + v <= 1.0
}

/// The area the model covers seen along axis `a`: rays on a grid over its bounds.
fn silhouette(triangles: &[[Vec3; 3]], (min, max): (Vec3, Vec3), a: usize) -> f32 {
    const N: usize = 160;
    let (u, v) = [(1, 2), (0, 2), (0, 1)][a];
    let extent = max - min;
    let mut covered = 0;
    for j in 0..N {
        for i in 0..N {
            let mut origin = min - Vec3::AXES[a];
            origin[u] += (i as f32 + 0.37) / N as f32 * extent[u];
            origin[v] += (j as f32 + 0.61) / N as f32 * extent[v];
            covered += usize::from(triangles.iter().any(|&t| hits(origin, Vec3::AXES[a], t)));
        }
    }
    covered as f32 / (N * N) as f32 * extent[u] * extent[v]
}

/// The impostor's box in the model's space at rest: its corners' bounds.
fn impostor_box(model: &Model) -> (Vec3, Vec3) {
    let impostor = model.impostor().expect("an impostor");
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&model.pose_at(None, 0.0), &mut palette);
    let node = palette[model.node_slot(impostor.instance as usize)].to_affine();
    let corners = impostor.primitive.positions.iter().map(|&p| node.transform_point3(p));
    corners.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(p), hi.max(p)))
}

#[test]
fn the_windmill_s_impostor_covers_what_it_covers_seen_along_each_axis() {
    let model = asset("windmill.glb");
    let impostor = model.impostor().expect("a model with levels gets an impostor");
    let at = model.impostor_level().expect("drawn at a level");
    assert_eq!(at, model.lod_errors().len() - 1, "the last");
    assert_eq!((model.lod_triangles(at), impostor.primitive.indices.len()), (12, 36));
    assert!((1..at).all(|k| model.lod_triangles(k) >= 12), "coarser levels made way for it");
    let triangles = rest_triangles(&model);
    let bounds =
        triangles.iter().flatten().fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let (lo, hi) = impostor_box(&model);
    assert!(lo.cmpge(bounds.0 - 1e-3).all() && hi.cmple(bounds.1 + 1e-3).all(), "inside the model's bounds");
    let extent = hi - lo;
    for a in 0..3 {
        let (u, v) = [(1, 2), (0, 2), (0, 1)][a];
        let (boxed, model_area) = (extent[u] * extent[v], silhouette(&triangles, bounds, a));
        let ratio = boxed / model_area;
        assert!((0.9..1.1).contains(&ratio), "axis {a}: box face {boxed}, the model covers {model_area}");
    }
    // White and grey, a little red at the blades' tips; each face lit from its side.
    for (k, (normal, color)) in impostor.primitive.normals.iter().zip(&impostor.primitive.colors).enumerate() {
        let axis = Vec3::AXES[k / 8] * if (k / 4) % 2 == 0 { 1.0 } else { -1.0 };
        assert!(normal.dot(axis) > 0.0, "face {}: normal {normal} against {axis}", k / 4);
        let rgb = color.truncate();
        assert!(rgb.min_element() > 0.3 && rgb.max_element() - rgb.min_element() < 0.2, "{color}");
    }
    assert!(impostor.material.textures().next().is_none() && impostor.material.emissive_factor == [0.0; 3]);
}

/// The fox's colour is its texture's: orange, darker underneath.
#[test]
fn the_fox_s_impostor_takes_its_texture_s_colour() {
    let model = asset("Fox.glb");
    let colors = &model.impostor().expect("an impostor").primitive.colors;
    let side = colors[0];
    assert!(side.x > side.y && side.y > side.z, "orange: {side}");
    assert!(colors.iter().all(|c| c.cmple(Vec4::ONE).all()));
    assert!(colors.iter().all(|c| c.w == 0.0), "no paint: the fox's tint leaves it as it is");
}

/// A house's walls are paint: its impostor's faces carry the share of paint each side shows,
/// and its material the walls' colour, so that an instance's tint paints the box as it paints
/// the walls.
#[test]
fn a_house_s_impostor_carries_its_paint() {
    let house = asset("building.glb");
    let impostor = house.impostor().expect("an impostor");
    let walls = house.materials().iter().find(|m| m.name.as_deref() == Some("paint")).expect("the walls");
    assert!(impostor.material.is_paint(), "{:?}", impostor.material.name);
    let [r, g, b, _] = impostor.material.base_color_factor;
    let [wr, wg, wb, _] = walls.base_color_factor;
    assert!(
        (r - wr).abs() + (g - wg).abs() + (b - wb).abs() < 2e-3,
        "the walls' colour (a mean of thousands of cells): {r} {g} {b}"
    );
    // Each side (4 vertices a face: +x, -x, +y, -y, +z, -z) shows walls between its windows,
    // the roof less or none.
    let shares: Vec<f32> = impostor.primitive.colors.chunks(4).map(|face| face[0].w).collect();
    for (f, &share) in shares.iter().enumerate().filter(|&(f, _)| f / 2 != 1) {
        assert!(share > 0.3 && share < 1.0, "side {f} is mostly walls: {shares:?}");
    }
    assert!(shares[2] < shares[0], "the roof shows less paint than a side: {shares:?}");
    assert!(!asset("windmill.glb").impostor().expect("an impostor").material.is_paint());
}

/// A car's liveries (`KHR_materials_variants`) show on its impostor: the box of four spheres
/// (`tests/models/material_variants/make.mjs`) has a look for each variant, drawn in its
/// materials: yellower in `taxi` (its body yellow, from off-white), bluer in `police` (blue
/// and white bands), more metallic in both (the trim chrome, from red); a face that sees the
/// body alone (-x) is nearly the variant's paint.
#[test]
fn the_impostor_looks_as_each_material_variant_does() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/material_variants/material_variants.gltf");
    let model = import_file(&path, &Limits::default()).expect("it loads").model;
    let impostor = model.impostor().expect("an impostor");
    let [taxi, police] = &impostor.material_variants[..] else { panic!("two looks: {:?}", impostor.material_variants) };
    let faces = |colors: &[Vec4]| -> Vec<Vec3> { colors.chunks(4).map(|face| face[0].truncate()).collect() };
    let (own, taxi_faces, police_faces) =
        (faces(&impostor.primitive.colors), faces(&taxi.colors), faces(&police.colors));
    assert_eq!(taxi.colors.len(), impostor.primitive.colors.len());
    // Every face but +x (the plain sphere's end) sees the body.
    for f in 1..6 {
        let yellow = |c: Vec3| c.x - c.z;
        assert!(yellow(taxi_faces[f]) > yellow(own[f]) + 0.1, "face {f}: taxi {} own {}", taxi_faces[f], own[f]);
        assert!(
            police_faces[f].z - police_faces[f].x > own[f].z - own[f].x + 0.05,
            "face {f}: police {}",
            police_faces[f]
        );
    }
    assert_eq!(taxi_faces[0], own[0], "the plain sphere is in its own material in every variant");
    let body = |c: Vec3| (c - Vec3::new(0.9, 0.65, 0.05)).abs().max_element();
    assert!(body(taxi_faces[1]) < 0.02, "-x sees the taxi's yellow body: {}", taxi_faces[1]);
    for look in [taxi, police] {
        assert!(look.material.metallic_factor > impostor.material.metallic_factor + 0.05, "{:?}", look.material);
    }
}

/// A house whose windows a clip lights: its impostor's emission follows the windows', scaled
/// by the share of the views they cover.
#[test]
fn an_animated_emission_is_followed_by_the_share_it_covers() {
    let house = asset("building.glb");
    let impostor = house.impostor().expect("an impostor");
    let windows = house.materials().iter().position(|m| m.name.as_deref() == Some("windows"));
    assert_eq!(impostor.emission_of.map(|m| m as usize), windows);
    let share = impostor.material.emissive_strength;
    assert!(share > 0.02 && share < 0.5, "the windows are a small share of the house: {share}");
    assert!(asset("windmill.glb").impostor().is_some_and(|i| i.emission_of.is_none()));
}

/// What a box of fixed colours cannot stand in for gets none: a model whose clips light three
/// lamps, or one without levels of detail.
#[test]
fn animated_materials_and_models_without_levels_get_none() {
    assert!(asset("traffic_light.glb").impostor().is_none(), "three lamps are animated");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/windmill.glb");
    let plain = import_file(&path, &Limits { lod_levels: 0, ..Limits::default() }).expect("imports").model;
    assert_eq!((plain.impostor(), plain.lod_errors().len()), (None, 1));
}

/// A bumpy grid of 4 x 4 quads (1 m square, its bumps 0.2 m) as a GLB: node 0 at the origin;
/// node 1 (the same mesh) at x = 10, hidden by the file (`KHR_node_visibility`), when `hidden`;
/// with a morph target that lifts it 1 m, when `lift` names the largest weight a clip gives it
/// (0: no clip).
fn bumpy_grid(hidden: bool, lift: Option<f32>) -> Vec<u8> {
    let n = 4u32;
    let vertices = (n + 1) * (n + 1);
    let mut bin = Vec::new();
    for (j, i) in (0..=n).flat_map(|j| (0..=n).map(move |i| (j, i))) {
        let z = 0.2 * ((i + j) % 2) as f32;
        for c in [i as f32 / n as f32, j as f32 / n as f32, z] {
            bin.extend(c.to_le_bytes());
        }
    }
    let positions = bin.len();
    let quads = (0..n).flat_map(|j| (0..n).map(move |i| j * (n + 1) + i));
    let indices: Vec<u32> = quads.flat_map(|a| [a, a + 1, a + n + 2, a, a + n + 2, a + n + 1]).collect();
    bin.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    let mut json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": 0}],
        "bufferViews": [
            {"buffer": 0, "byteLength": positions},
            {"buffer": 0, "byteOffset": positions, "byteLength": 4 * indices.len()}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.2]},
            {"bufferView": 1, "componentType": 5125, "count": indices.len(), "type": "SCALAR"}
        ]
    });
    if hidden {
        json["extensionsUsed"] = serde_json::json!(["KHR_node_visibility"]);
        json["scenes"][0]["nodes"] = serde_json::json!([0, 1]);
        json["nodes"].as_array_mut().expect("a list").push(serde_json::json!(
            {"mesh": 0, "translation": [10.0, 0.0, 0.0], "extensions": {"KHR_node_visibility": {"visible": false}}}
        ));
    }
    if let Some(weight) = lift {
        // The target: every vertex 1 m up; the clip: its weight from 0 to `weight` in a second.
        let deltas = bin.len();
        for _ in 0..vertices {
            bin.extend([0.0f32, 0.0, 1.0].iter().flat_map(|c| c.to_le_bytes()));
        }
        let keys = bin.len();
        bin.extend([0.0f32, 1.0, 0.0, weight].iter().flat_map(|c| c.to_le_bytes()));
        json["meshes"][0]["primitives"][0]["targets"] = serde_json::json!([{"POSITION": 2}]);
        json["bufferViews"].as_array_mut().expect("a list").extend([
            serde_json::json!({"buffer": 0, "byteOffset": deltas, "byteLength": 12 * vertices}),
            serde_json::json!({"buffer": 0, "byteOffset": keys, "byteLength": 16}),
        ]);
        json["accessors"].as_array_mut().expect("a list").extend([
            serde_json::json!({"bufferView": 2, "componentType": 5126, "count": vertices, "type": "VEC3",
                "min": [0.0, 0.0, 1.0], "max": [0.0, 0.0, 1.0]}),
            serde_json::json!({"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR",
                "min": [0.0], "max": [1.0]}),
            serde_json::json!({"bufferView": 3, "byteOffset": 8, "componentType": 5126, "count": 2, "type": "SCALAR"}),
        ]);
        if weight != 0.0 {
            json["animations"] = serde_json::json!([{
                "samplers": [{"input": 3, "output": 4}],
                "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}]
            }]);
        }
    }
    json["buffers"][0]["byteLength"] = serde_json::json!(bin.len());
    crate::support::glb(&json, &bin)
}

/// A part the file hides is not drawn, so its impostor leaves it out too.
#[test]
fn a_part_the_file_hides_is_left_out_of_the_impostor() {
    let bytes = bumpy_grid(true, None);
    let import = props_gltf::import_slice(&bytes, None, Path::new("grids.glb"), &Limits::default()).expect("imports");
    let model = import.model;
    assert_eq!(model.instances().len(), 2, "both grids are placed");
    assert!(model.visibility_value(1).is_some(), "the second can be hidden");
    let (lo, hi) = impostor_box(&model);
    assert!(lo.x >= -1e-4 && hi.x <= 1.0 + 1e-4, "the box spans x {} to {}: the shown grid alone", lo.x, hi.x);
}

/// A box cannot morph: its error counts how far the morph targets can move the model, so that
/// it stands in only where that spans under a pixel. A target no pose weighs does not count.
#[test]
fn the_impostor_s_error_counts_what_morph_targets_move() {
    let error = |lift| {
        let bytes = bumpy_grid(false, lift);
        let import =
            props_gltf::import_slice(&bytes, None, Path::new("grid.glb"), &Limits::default()).expect("imports");
        let model = import.model;
        let impostor = model.impostor().expect("an impostor");
        assert_eq!(model.lod_errors().last(), Some(&impostor.error), "it is the last level's error");
        assert!(impostor.error >= impostor.morph_reach, "{impostor:?}");
        impostor.error
    };
    let still = error(None);
    assert!(still < 0.5, "unmorphed, the grid strays {still} m: its bumps' 0.2 m, simplified");
    assert_eq!(error(Some(0.0)), still, "a target at weight 0 in every pose moves nothing");
    let lifted = error(Some(1.0));
    assert!(lifted >= 1.0, "a target that lifts the grid 1 m: the box may be {lifted} m off");
    let twice = error(Some(2.0));
    assert!(twice >= 2.0, "and at weight 2, 2 m: {twice}");
}
