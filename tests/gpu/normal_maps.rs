//! Khronos's NormalTangentTest (read from `../shared`): each of its fifteen cells pairs real
//! geometry (a bump, left) with a flat quad whose normal map was baked from it (right); a
//! renderer that reads normal maps as glTF defines them shades each pair alike (under glTF's
//! BRDF as written: specular anti-aliasing widens the bumps' highlights, not the quads'). The
//! file has no TANGENT: the importer makes MikkTSpace tangents. The control: without its
//! normal maps the quads are flat and every pair differs far more.

use glam::{Vec2, Vec3};
use props_anim::{Model, ModelParts};
use props_gltf::Limits;
use props_gltf::gate::admit_file;
use props_render::conventions::{self, CameraSpec, RenderSpec};

/// The cells' centres: three columns of pairs (left: geometry; right: the quad 0.32 further
/// along +X), five rows; each cell is 0.3 wide.
const COLUMNS: [f32; 3] = [-0.96, -0.16, 0.64];
const ROWS: [f32; 5] = [0.8, 0.4, 0.0, -0.4, -0.8];
const PAIR_OFFSET: f32 = 0.32;
/// Half of the part of a cell compared (its inner 80 %).
const HALF: f32 = 0.12;

/// The largest mean FLIP between a pair (measured on lavapipe: 0.075, in the middle column)
/// and the least the control must exceed.
const ALIKE: f32 = 0.1;

/// Each cell's two crops (the geometry's, the quad's) of `model`'s straight-on picture, with
/// specular anti-aliasing or without.
fn cells(
    gpu: &props_render::GpuContext,
    model: &Model,
    specular_antialiasing: bool,
) -> Vec<(image::RgbaImage, image::RgbaImage)> {
    let eye = Vec3::new(0.0, -0.125, 12.0);
    let camera = CameraSpec { placed: Some((eye, Vec3::new(0.0, -0.125, 0.0))), yfov_degrees: 11.5 };
    let spec = RenderSpec { size: (512, 512), camera, specular_antialiasing, ..RenderSpec::default() };
    let (rgba, framing) = conventions::render(gpu, model, (None, 0.0), &spec).expect("renders");
    let image = image::RgbaImage::from_raw(512, 512, rgba).expect("the image's size");
    let view_projection = framing.camera().view_projection;
    let pixel = |p: Vec3| {
        let clip = view_projection * p.extend(1.0);
        let ndc = Vec2::new(clip.x, clip.y) / clip.w;
        Vec2::new((ndc.x + 1.0) * 256.0, (1.0 - ndc.y) * 256.0)
    };
    let mut cells = Vec::new();
    for x in COLUMNS {
        for y in ROWS {
            let (low, high) = (pixel(Vec3::new(x - HALF, y + HALF, 0.0)), pixel(Vec3::new(x + HALF, y - HALF, 0.0)));
            let (width, height) = ((high.x - low.x) as u32, (high.y - low.y) as u32);
            let shift = (pixel(Vec3::new(x + PAIR_OFFSET, y, 0.0)).x - pixel(Vec3::new(x, y, 0.0)).x).round() as u32;
            let crop =
                |dx: u32| image::imageops::crop_imm(&image, low.x as u32 + dx, low.y as u32, width, height).to_image();
            cells.push((crop(0), crop(shift)));
        }
    }
    cells
}

/// Each pair's mean FLIP in `model`'s straight-on picture, shaded by glTF's BRDF as written:
/// specular anti-aliasing widens the geometry's highlights (its normals turn between pixels)
/// and not the quads' (flat), as three.js's does, so it is off here.
fn pair_differences(gpu: &props_render::GpuContext, model: &Model) -> Vec<f32> {
    let mean =
        |(geometry, quad): &(image::RgbaImage, image::RgbaImage)| props_tests::golden::compare(quad, geometry).0.mean;
    cells(gpu, model, false).iter().map(mean).collect()
}

#[test]
fn normal_mapped_quads_shade_as_the_geometry_they_were_baked_from() {
    let Some(file) = props_tests::shared::path("models/khronos/NormalTangentTest.glb") else { return };
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = admit_file(&file, &Limits::default()).expect("admitted").import.model;
    assert!(model.meshes()[0].primitives.iter().all(|p| p.tangents.len() == p.positions.len()), "tangents made");
    let alike = pair_differences(&gpu, &model);
    eprintln!("pairs, mean FLIP: {alike:.3?}");
    assert!(alike.iter().all(|&d| d < ALIKE), "a pair differs: {alike:.3?}");

    let flat: Vec<_> = model
        .materials()
        .iter()
        .map(|m| props_anim::material::Material { normal_texture: None, ..m.clone() })
        .collect();
    let parts = ModelParts {
        rig: Some(model.rig().clone()),
        meshes: model.meshes().to_vec(),
        materials: flat,
        images: model.images().to_vec(),
        instances: model.instances().to_vec(),
        ..ModelParts::default()
    };
    let control = pair_differences(&gpu, &Model::new(parts).expect("the same model"));
    eprintln!("control (no normal maps), mean FLIP: {control:.3?}");
    let (mean_alike, mean_control) =
        (alike.iter().sum::<f32>() / alike.len() as f32, control.iter().sum::<f32>() / control.len() as f32);
    assert!(mean_control > 2.0 * mean_alike, "the control ({mean_control}) differs too little from {mean_alike}");
}

/// Specular anti-aliasing widens the lobes of curved geometry only: the smooth metal column's
/// bumps change under it, the flat quads beside them (whose normal maps' detail does not count)
/// do not.
#[test]
fn specular_antialiasing_widens_curved_geometry_s_highlights_only() {
    let Some(file) = props_tests::shared::path("models/khronos/NormalTangentTest.glb") else { return };
    let Some(gpu) = props_tests::gpu::context() else { return };
    let model = admit_file(&file, &Limits::default()).expect("admitted").import.model;
    let (with, without) = (cells(&gpu, &model, true), cells(&gpu, &model, false));
    let change = |pick: fn(&(image::RgbaImage, image::RgbaImage)) -> &image::RgbaImage| -> Vec<f32> {
        with.iter().zip(&without).map(|(a, b)| props_tests::golden::compare(pick(a), pick(b)).0.mean).collect()
    };
    let (geometry, quads) = (change(|(g, _)| g), change(|(_, q)| q));
    eprintln!("with against without, mean FLIP: geometry {geometry:.3?}, quads {quads:.3?}");
    assert!(quads.iter().all(|&d| d < 0.002), "a flat quad's shading changed: {quads:.3?}");
    let metal = &geometry[2 * ROWS.len()..];
    assert!(metal.iter().all(|&d| d > 0.02), "a smooth metal bump's highlight did not widen: {metal:.3?}");
}
