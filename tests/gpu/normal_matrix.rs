//! Normals carried as three.js carries them. A node scaled unequally on its axes (an object
//! stretched in Blender and exported with its scale unapplied) shades as the same mesh with the
//! scale applied to its vertices: its normals go through the node's normal matrix (the inverse
//! transpose), not the node's matrix, which tilts them towards the stretch. A double-sided
//! normal-mapped surface's back face mirrors its whole tangent frame.

use glam::{Affine3A, Quat, Vec3};
use props_anim::{Model, ModelParts, Primitive, Transform};
use props_tests::golden::compare;
use props_tests::scene;

/// The stretch.
const STRETCH: Vec3 = Vec3::new(2.0, 0.5, 1.0);

/// A cube of 8 shared corners with smooth normals (each along its corner's diagonal), its
/// corners stretched by `scale`, its normals carried as `normal` says.
fn cube(scale: Vec3, normal: impl Fn(Vec3) -> Vec3) -> Primitive {
    let corner = |i: u32| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) - 0.5;
    let faces: [[u32; 4]; 6] = [[1, 3, 7, 5], [0, 4, 6, 2], [2, 6, 7, 3], [0, 1, 5, 4], [4, 5, 7, 6], [0, 2, 3, 1]];
    let positions = (0..8).map(|i| corner(i) * scale).collect();
    let normals = (0..8).map(|i| normal(corner(i).normalize()).normalize()).collect();
    let indices = faces.iter().flat_map(|c| [c[0], c[1], c[2], c[0], c[2], c[3]]).collect();
    Primitive::triangles(positions, normals, indices, None)
}

/// `primitive` on a node turned about Y and scaled by `scale`.
fn model(primitive: Primitive, scale: Vec3) -> Model {
    let rest = Transform { rotation: Quat::from_rotation_y(0.5), scale, ..Transform::IDENTITY };
    scene::one_part(primitive, rest, ModelParts::default())
}

fn draw(gpu: &props_render::GpuContext, model: &Model) -> image::RgbaImage {
    scene::draw_alone(gpu, model, Vec3::new(2.5, 1.8, 3.5))
}

#[test]
fn an_unequally_scaled_node_shades_as_its_mesh_stretched() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    // Stretched by the node; stretched in its vertices, normals by the inverse transpose (the
    // truth); and by the stretch itself (what carrying normals by the node's matrix gives).
    let by_node = draw(&gpu, &model(cube(Vec3::ONE, |n| n), STRETCH));
    let baked = draw(&gpu, &model(cube(STRETCH, |n| n / STRETCH), Vec3::ONE));
    let tilted = draw(&gpu, &model(cube(STRETCH, |n| n * STRETCH), Vec3::ONE));
    let (as_baked, _) = compare(&by_node, &baked);
    let (as_tilted, _) = compare(&tilted, &baked);
    eprintln!("by the node against baked: {as_baked:?}; tilted normals against baked: {as_tilted:?}");
    assert!(as_baked.mean < 0.005, "the node's stretch shades as the stretched mesh: {as_baked:?}");
    assert!(as_tilted.mean > 4.0 * as_baked.mean.max(0.001), "tilted normals look otherwise: {as_tilted:?}");
}

/// A square in the XY plane, 2 across, normal-mapped with a map tilted towards its tangent
/// (+X), double-sided; or the same square turned over (its winding, normal, tangent and
/// bitangent sign reversed), which the first's back face is.
fn normal_mapped_square(turned_over: bool) -> Model {
    use glam::{Vec2, Vec4};
    use props_anim::material::{Image, Material, TextureRef};
    let positions = vec![
        Vec3::new(-1.0, -1.0, 0.0),
        Vec3::new(1.0, -1.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(-1.0, 1.0, 0.0),
    ];
    let side = if turned_over { -1.0 } else { 1.0 };
    let indices = if turned_over { vec![0, 2, 1, 0, 3, 2] } else { vec![0, 1, 2, 0, 2, 3] };
    let mut square = Primitive::triangles(positions, vec![Vec3::Z * side; 4], indices, Some(0));
    square.uv0 = vec![Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 0.0)];
    square.tangents = vec![Vec4::new(side, 0.0, 0.0, side); 4];
    // (0.5, 0, 0.87): a slope along the tangent.
    let tilted = Image { name: None, width: 4, height: 4, rgba8: [191, 128, 238, 255].repeat(16), ktx2: None };
    let material = Material { normal_texture: Some(TextureRef::new(0)), double_sided: true, ..Material::default() };
    let parts = ModelParts { materials: vec![material], images: vec![tilted], ..ModelParts::default() };
    scene::one_part(square, Transform::IDENTITY, parts)
}

/// A double-sided normal-mapped surface seen from behind shades as the same surface turned
/// over seen from the front: its whole tangent frame is mirrored, as three.js mirrors it, so
/// the map's slopes lean the same way on both sides.
#[test]
fn a_back_face_s_normal_map_leans_as_on_the_surface_turned_over() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let draw_behind = |model: &Model| scene::draw_alone(&gpu, model, Vec3::new(0.8, 0.4, -3.0));
    let back = draw_behind(&normal_mapped_square(false));
    let turned = draw_behind(&normal_mapped_square(true));
    let (difference, _) = compare(&back, &turned);
    eprintln!("the back face against the square turned over: {difference:?}");
    assert!(difference.mean < 0.005, "{difference:?}");
}

/// A node mirrored on one axis (an object mirrored in Blender, its scale exported unapplied)
/// winds its faces the other way: its front faces are still the ones drawn, lit from outside,
/// as three.js draws them (a cube mirrored across its middle is the same cube).
#[test]
fn a_mirrored_node_shows_its_front_faces() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let mirrored = draw(&gpu, &model(cube(Vec3::ONE, |n| n), Vec3::new(-1.0, 1.0, 1.0)));
    let plain = draw(&gpu, &model(cube(Vec3::ONE, |n| n), Vec3::ONE));
    let (difference, _) = compare(&mirrored, &plain);
    assert!(difference.mean < 0.005, "the mirrored cube is drawn as the plain one: {difference:?}");
}

/// A host's placement that mirrors a prop (a scale of -1 on one axis: a building's mirrored
/// twin) winds its faces the other way on screen: its front faces are still the ones drawn,
/// lit from outside, as three.js culls by each object's determinant. The cube turned 0.5 about
/// Y, placed mirrored across X, is the cube turned -0.5.
#[test]
fn a_mirroring_placement_shows_the_front_faces() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let turned = |angle: f32| {
        let rest = Transform { rotation: Quat::from_rotation_y(angle), ..Transform::IDENTITY };
        scene::one_part(cube(Vec3::ONE, |n| n), rest, ModelParts::default())
    };
    let eye = Vec3::new(2.5, 1.8, 3.5);
    let mirror = Affine3A::from_scale(Vec3::new(-1.0, 1.0, 1.0));
    let mirrored = scene::draw_placed(&gpu, &turned(0.5), mirror, eye);
    let plain = scene::draw_placed(&gpu, &turned(-0.5), Affine3A::IDENTITY, eye);
    let (difference, _) = compare(&mirrored, &plain);
    eprintln!("the cube placed mirrored against the cube turned the other way: {difference:?}");
    assert!(difference.mean < 0.005, "the mirrored cube is drawn as the cube turned the other way: {difference:?}");
}
