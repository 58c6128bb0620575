//! KTX2 textures (`KHR_texture_basisu`) on the GPU: uploaded with the file's own levels in a
//! block format where the device takes one (BC7 on lavapipe and desktop GPUs), they take a
//! quarter of the memory of RGBA8 and draw as the same levels decoded to RGBA8 draw (the
//! renderer's path on devices without block formats).

use glam::Vec3;
use props_frame::ModelId;
use props_tests::golden::{Threshold, assert_similar};
use props_tests::scene::{self, TestScene};

/// ETC1S transcoded to BC7 is lossy: Binomial's transcoder (which `basisu` matches bit for
/// bit) maps its blocks with errors of up to 64/255 in a channel (mean 0.2/255 on the largest
/// level, 4/255 on the 64x64 one), as three.js's KTX2Loader also draws ETC1S on desktop GPUs.
/// Measured on lavapipe: FLIP mean 0.0046, p99 0.24.
const ETC1S_AS_BC7: Threshold = Threshold { mean: 0.01, p99: 0.35 };
/// UASTC transcodes to BC7 within 6/255 of its RGBA8 decoding.
const UASTC_AS_BC7: Threshold = Threshold { mean: 0.002, p99: 0.05 };

/// The Fox in its Run at 0.3 s, framed.
fn render(
    gpu: &props_render::GpuContext,
    renderer: &mut props_render::Renderer,
    model: &props_anim::Model,
) -> (image::RgbaImage, props_render::GpuFootprint) {
    let handle = ModelId(0);
    let footprint = renderer.set_model(handle, model).expect("the model uploads");
    let pose = scene::pose_at(model, model.find_clip("Run"), 0.3);
    let instances = vec![(scene::at(Vec3::ZERO), scene::palette(model, &pose))];
    let camera = scene::framing_camera(model);
    (scene::render(gpu, renderer, &TestScene { camera, models: vec![(handle, instances)] }).0, footprint)
}

#[test]
fn ktx2_textures_draw_in_a_block_format_as_their_rgba8_draws() {
    let Some(gpu) = props_tests::gpu::context() else { return };
    let blocks = gpu.device.features().intersects(
        wgpu::Features::TEXTURE_COMPRESSION_BC
            | wgpu::Features::TEXTURE_COMPRESSION_ASTC
            | wgpu::Features::TEXTURE_COMPRESSION_ETC2,
    );
    assert!(blocks || std::env::var_os("CI").is_none(), "lavapipe takes BC formats: the block path must run under CI");
    let mut compressed = scene::renderer(&gpu, |_| {});
    let mut plain = scene::renderer(&gpu, |c| c.block_compression = false);
    for (name, threshold) in [("Fox_etc1s", ETC1S_AS_BC7), ("Fox_uastc", UASTC_AS_BC7)] {
        let fox = scene::load(&format!("tests/models/ktx2/{name}.glb"));
        let (expected, rgba8) = render(&gpu, &mut plain, &fox);
        // What check-assets tells a modder without a device is what the upload takes, its
        // textures uncompressed; only the draws' uniforms follow the device's alignment.
        let estimate = props_render::GpuFootprint::estimate(&fox).expect("a desktop GPU takes the Fox");
        assert_eq!(props_render::GpuFootprint { uniform_bytes: rgba8.uniform_bytes, ..estimate }, rgba8);
        let (actual, footprint) = render(&gpu, &mut compressed, &fox);
        eprintln!(
            "{name}: textures take {} bytes in a block format, {} as RGBA8",
            footprint.texture_bytes, rgba8.texture_bytes
        );
        if blocks {
            // 16 bytes per 4x4 block against 4 per texel (the levels below 4x4 take a whole block).
            let quarter = rgba8.texture_bytes / 4;
            assert!(footprint.texture_bytes.abs_diff(quarter) < 64, "{name}: {footprint:?} against {rgba8:?}");
        }
        let difference = props_tests::golden::compare(&actual, &expected).0;
        eprintln!("{name}: block format against RGBA8 levels: {difference:?}");
        assert_similar(&format!("ktx2-{name}"), &actual, &expected, threshold);
    }
}
