//! Material variants (`KHR_materials_variants`): instances of one model in different variants
//! in one frame, each batch drawn in its variant's materials (`tests/models/material_variants`: a
//! body's paint and window, a trim, a plain sphere), as if drawn alone; a variant the model
//! does not have draws its own materials; far off, its impostor takes each variant's look.
//! three.js's pictures of each variant are references (`references.rs`).

use glam::Vec3;
use props_anim::runtime::DrawGroup;
use props_frame::{FrameData, Lighting, ModelId, SKY};
use props_tests::scene;

/// Where each instance stands, up the y axis (one above the other).
const YS: [f32; 3] = [1.1, 0.0, -1.1];

/// The variants model, loaded once, uploaded to a renderer without shadows.
struct Stage {
    gpu: props_render::GpuContext,
    renderer: props_render::Renderer,
    model: props_anim::Model,
}

impl Stage {
    /// `None` where there is no GPU adapter.
    fn new() -> Option<Self> {
        let gpu = props_tests::gpu::context()?;
        let mut renderer = scene::renderer(&gpu, |config| config.shadows = false);
        let model = scene::load("tests/models/material_variants/material_variants.gltf");
        renderer.set_model(ModelId(0), &model).expect("the model uploads");
        Some(Self { gpu, renderer, model })
    }

    /// The model drawn at each of `placed` (y, variant), one batch each at its full detail,
    /// in order; the image and the draw calls.
    fn draw(&mut self, placed: &[(f32, Option<u8>)]) -> (image::RgbaImage, u32) {
        self.draw_at(placed, 0)
    }

    /// As [`Stage::draw`], each batch at level of detail `level`.
    fn draw_at(&mut self, placed: &[(f32, Option<u8>)], level: u8) -> (image::RgbaImage, u32) {
        let pose = scene::pose_at(&self.model, None, 0.0);
        let mut frame = FrameData::default();
        for &(y, material_variant) in placed {
            frame.push_posed(&self.model, &pose, &scene::at(Vec3::new(0.0, y, 0.0)));
            frame.add_batch(ModelId(0), DrawGroup { level, material_variant, mirrored: false, instances: 1 });
        }
        let camera = scene::camera(Vec3::new(0.0, 0.0, 7.0), Vec3::ZERO);
        let frame = frame.to_frame(camera, Lighting::default(), SKY);
        let (image, stats) = scene::render_frame(&self.gpu, &mut self.renderer, &frame);
        (image, stats.draw_calls)
    }
}

/// Pixels where `a` and `b` differ by more than one step in some channel.
fn differing(a: &image::RgbaImage, b: &image::RgbaImage) -> usize {
    a.pixels().zip(b.pixels()).filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 1)).count()
}

#[test]
fn each_batch_draws_its_variant_as_if_alone() {
    let Some(mut stage) = Stage::new() else { return };
    let (taxi, police) = (stage.model.material_variant("taxi"), stage.model.material_variant("police"));
    assert_eq!((taxi, police), (Some(0), Some(1)), "the file's two variants, in its order");
    let variants = [None, taxi, police];
    let placed: Vec<(f32, Option<u8>)> = YS.into_iter().zip(variants).collect();
    let (together, calls) = stage.draw(&placed);
    let (empty, _) = stage.draw(&[]);
    let mut alone_calls = 0;
    for (k, &(y, material_variant)) in placed.iter().enumerate() {
        let (alone, c) = stage.draw(&[(y, material_variant)]);
        alone_calls += c;
        // Where the instance drawn alone covers the sky, the three drawn together show the same.
        let covered: Vec<(u32, u32)> = (alone.enumerate_pixels())
            .filter(|&(x, y, p)| p != empty.get_pixel(x, y))
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(covered.len() > 2000, "instance {k} covers {} pixels", covered.len());
        let off = covered.iter().filter(|&&(x, y)| {
            let (a, b) = (alone.get_pixel(x, y).0, together.get_pixel(x, y).0);
            a.iter().zip(b).any(|(p, q)| p.abs_diff(q) > 1)
        });
        assert_eq!(off.count(), 0, "instance {k} ({material_variant:?}) is drawn together as alone");
        // And its variant is not its own materials.
        if material_variant.is_some() {
            let (own, _) = stage.draw(&[(y, None)]);
            let changed = differing(&own, &alone);
            assert!(
                changed > 1000,
                "instance {k} in {material_variant:?} differs from its own materials in {changed} pixels"
            );
        }
    }
    assert_eq!(calls, alone_calls, "one draw per part and batch: {calls}");
    // A variant the model does not have (a new version of it without it) draws its own.
    let (unknown, _) = stage.draw(&[(0.0, Some(7))]);
    let (own, _) = stage.draw(&[(0.0, None)]);
    assert_eq!(differing(&unknown, &own), 0, "variant 7 of two draws the model's own materials");
}

/// Far off, the model is drawn as its impostor (a box): in each variant, the box in that
/// variant's look (yellower in `taxi`, bluer in `police`), one draw as at full detail.
#[test]
fn the_impostor_is_drawn_in_each_variant_s_look() {
    let Some(mut stage) = Stage::new() else { return };
    let level = stage.model.impostor_level().expect("an impostor") as u8;
    let variants = (stage.model.material_variant("taxi"), stage.model.material_variant("police"));
    let (empty, _) = stage.draw_at(&[], level);
    // The mean colour of what covers the sky, and the draws.
    let mut look = |material_variant| {
        let (image, calls) = stage.draw_at(&[(0.0, material_variant)], level);
        let covered: Vec<[f32; 3]> = (image.enumerate_pixels())
            .filter(|&(x, y, p)| p != empty.get_pixel(x, y))
            .map(|(_, _, p)| [0, 1, 2].map(|c| f32::from(p.0[c])))
            .collect();
        assert!(covered.len() > 2000, "{material_variant:?}: the box covers {} pixels", covered.len());
        let mean = covered.iter().fold([0.0; 3], |m, p| [0, 1, 2].map(|c| m[c] + p[c] / covered.len() as f32));
        (mean, calls)
    };
    let (own, own_calls) = look(None);
    let (taxi, taxi_calls) = look(variants.0);
    let (police, _) = look(variants.1);
    assert_eq!((own_calls, taxi_calls), (1, 1), "one box a batch");
    let yellow = |c: [f32; 3]| c[0] - c[2];
    assert!(yellow(taxi) > yellow(own) + 10.0, "taxi {taxi:?} against its own look {own:?}");
    assert!(police[2] - police[0] > own[2] - own[0] + 5.0, "police {police:?} against its own look {own:?}");
}
