//! `COLOR_0` multiplies the material's base colour (glTF 2.0, 3.9.2): a model whose quads are
//! coloured red, blue and blue by vertex colours in three encodings draws them so, the last
//! one at half the intensity of the second under its grey (0.5) material. Lit by an ambient
//! light of pi alone (diffuse only, no specular), a surface shows its diffuse colour.

use glam::{Vec3, Vec4};
use props_tests::scene::{self, IMAGE_SIZE, TestScene};

/// The quads' centres (model space, at rest: the clip starts unrotated).
const CENTRES: [Vec3; 3] = [Vec3::new(-1.2, 0.0, 0.0), Vec3::ZERO, Vec3::new(1.2, 0.0, 0.0)];

/// An sRGB-encoded channel as linear light.
fn linear(encoded: u8) -> f32 {
    let c = f32::from(encoded) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

#[test]
fn vertex_colours_multiply_the_base_colour() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = scene::load("tests/models/generated/vertex_colors.gltf");
    let primitives = &model.meshes()[0].primitives;
    assert_eq!(primitives.iter().map(|p| p.colors.len()).collect::<Vec<_>>(), [4, 4, 4], "COLOR_0 imported");
    let mut renderer = scene::renderer(&gpu, |_| {});
    let handle = props_frame::ModelId(0);
    renderer.set_model(handle, &model).expect("the model uploads");
    let pose = scene::pose_at(&model, Some(0), 0.0);
    // Straight on: every quad faces the camera, so all three are lit alike.
    let camera = scene::camera(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO);
    let instances = vec![(scene::at(Vec3::ZERO), scene::palette(&model, &pose))];
    let light = props_frame::Lighting {
        color: Vec3::ZERO,
        ambient: Vec3::splat(std::f32::consts::PI),
        sky: 0.0,
        ..Default::default()
    };
    let scene = TestScene { camera, models: vec![(handle, instances)] };
    let (image, _) = scene::render_lit(&gpu, &mut renderer, &scene, (light, &[]));
    let pixel = |centre: Vec3| {
        let clip = camera.view_projection * centre.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let x = ((ndc.x + 1.0) / 2.0 * IMAGE_SIZE.0 as f32) as u32;
        let y = ((1.0 - ndc.y) / 2.0 * IMAGE_SIZE.1 as f32) as u32;
        let [r, g, b, a] = image.get_pixel(x, y).0;
        Vec4::new(linear(r), linear(g), linear(b), f32::from(a) / 255.0)
    };
    let [red, blue, grey_blue] = CENTRES.map(pixel);
    assert!(red.x > 0.1 && red.y < 0.01 && red.z < 0.01, "red quad (VEC3 float): {red}");
    assert!(blue.z > 0.1 && blue.x < 0.01 && blue.y < 0.01, "blue quad (VEC4 unorm8): {blue}");
    assert!(grey_blue.z > 0.05 && grey_blue.x < 0.01 && grey_blue.y < 0.01, "blue quad (VEC4 unorm16): {grey_blue}");
    // The same light on both blue quads: the grey material halves the second.
    let ratio = grey_blue.z / blue.z;
    assert!((ratio - 0.5).abs() < 0.02, "blue under grey / blue under white = {ratio}, not 0.5");
}
