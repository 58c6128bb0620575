//! A double-sided see-through material is drawn back faces first, then front faces, as
//! three.js draws it: its far side shows through its near one whatever order the file lists
//! the triangles in, not the far side over the near where it comes later.

use glam::{Vec3, Vec4};
use props_anim::material::{AlphaMode, Material};
use props_anim::{Model, ModelParts, Primitive, Transform};
use props_tests::golden::compare;
use props_tests::scene;

/// A unit cube in a half-transparent double-sided material, each face its own colour, its
/// faces listed in order or reversed.
fn glass_cube(reversed: bool) -> Model {
    let corner = |i: u32| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32) - 0.5;
    // Each face's corners, counter-clockwise seen from outside, and its colour.
    let mut faces = [
        ([1, 3, 7, 5], Vec4::new(1.0, 0.0, 0.0, 1.0)),
        ([0, 4, 6, 2], Vec4::new(0.0, 1.0, 0.0, 1.0)),
        ([2, 6, 7, 3], Vec4::new(0.0, 0.0, 1.0, 1.0)),
        ([0, 1, 5, 4], Vec4::new(1.0, 1.0, 0.0, 1.0)),
        ([4, 5, 7, 6], Vec4::new(0.0, 1.0, 1.0, 1.0)),
        ([0, 2, 3, 1], Vec4::new(1.0, 0.0, 1.0, 1.0)),
    ];
    if reversed {
        faces.reverse();
    }
    let positions = faces.iter().flat_map(|(c, _)| c.map(corner)).collect();
    let normals = faces.iter().flat_map(|(c, _)| {
        let [a, b, d] = [corner(c[0]), corner(c[1]), corner(c[3])];
        [(b - a).cross(d - a).normalize(); 4]
    });
    let indices = (0..6).flat_map(|f| [0, 1, 2, 0, 2, 3].map(|k| 4 * f + k)).collect();
    let mut cube = Primitive::triangles(positions, normals.collect(), indices, Some(0));
    cube.colors = faces.iter().flat_map(|&(_, colour)| [colour; 4]).collect();
    let glass = Material {
        base_color_factor: [1.0, 1.0, 1.0, 0.5],
        alpha_mode: AlphaMode::Blend,
        double_sided: true,
        ..Material::default()
    };
    scene::one_part(cube, Transform::IDENTITY, ModelParts { materials: vec![glass], ..ModelParts::default() })
}

fn draw(gpu: &props_render::GpuContext, model: &Model) -> image::RgbaImage {
    scene::draw_alone(gpu, model, Vec3::new(1.5, 1.2, 2.5))
}

#[test]
fn a_double_sided_see_through_cube_looks_the_same_whatever_order_its_faces_are_listed_in() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let (listed, reversed) = (draw(&gpu, &glass_cube(false)), draw(&gpu, &glass_cube(true)));
    let (difference, _) = compare(&listed, &reversed);
    eprintln!("faces listed against reversed: {difference:?}");
    assert!(difference.mean < 0.002, "{difference:?}");
}
