//! A primitive without normals is drawn flat, as glTF asks and three.js draws it: each
//! triangle shaded by its own normal. A cube of 8 shared corners and no normals draws as the
//! same cube split into 24 vertices with a normal per face, not as the rounded look its
//! shared corners' smooth normals give.

use glam::{Quat, Vec3};
use props_anim::{Model, ModelParts, Primitive, Transform};
use props_tests::golden::compare;
use props_tests::scene;

/// A unit cube: its 8 corners shared, or 24 vertices with a normal per face.
fn cube(split: bool) -> Primitive {
    let corner = |i: u32| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) - 0.5;
    // Each face's corners, counter-clockwise seen from outside, and its normal.
    let faces = [
        ([1, 3, 7, 5], Vec3::X),
        ([0, 4, 6, 2], Vec3::NEG_X),
        ([2, 6, 7, 3], Vec3::Y),
        ([0, 1, 5, 4], Vec3::NEG_Y),
        ([4, 5, 7, 6], Vec3::Z),
        ([0, 2, 3, 1], Vec3::NEG_Z),
    ];
    if split {
        let positions = faces.iter().flat_map(|(c, _)| c.map(corner)).collect();
        let normals = faces.iter().flat_map(|&(_, n)| [n; 4]).collect();
        let indices = (0..6).flat_map(|f| [0, 1, 2, 0, 2, 3].map(|k| 4 * f + k)).collect();
        return Primitive::triangles(positions, normals, indices, None);
    }
    let positions: Vec<Vec3> = (0..8).map(corner).collect();
    let indices = faces.iter().flat_map(|(c, _)| [c[0], c[1], c[2], c[0], c[2], c[3]]).collect();
    // What the importer makes without NORMAL: smooth normals, and the primitive drawn flat.
    let normals = positions.iter().map(|p| p.normalize()).collect();
    Primitive { flat: true, ..Primitive::triangles(positions, normals, indices, None) }
}

fn model(primitive: Primitive) -> Model {
    let rest = Transform { rotation: Quat::from_rotation_y(0.5), ..Transform::IDENTITY };
    scene::one_part(primitive, rest, ModelParts::default())
}

fn draw(gpu: &props_render::GpuContext, model: &Model) -> image::RgbaImage {
    scene::draw_alone(gpu, model, Vec3::new(1.5, 1.8, 2.5))
}

#[test]
fn a_primitive_without_normals_is_drawn_flat() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let split = draw(&gpu, &model(cube(true)));
    let flat = draw(&gpu, &model(cube(false)));
    let smooth = draw(&gpu, &model(Primitive { flat: false, ..cube(false) }));
    let (as_split, _) = compare(&flat, &split);
    let (as_smooth, _) = compare(&smooth, &split);
    eprintln!("flat against split: {as_split:?}; smooth against split: {as_smooth:?}");
    assert!(as_split.mean < 0.005, "drawn flat, the shared cube is the split one: {as_split:?}");
    assert!(as_smooth.mean > 4.0 * as_split.mean.max(0.001), "smooth normals look otherwise: {as_smooth:?}");
}
