//! Texture formats exporters write: WebP through `EXT_texture_webp` (`tests/models/webp/`, the
//! Fox's texture encoded losslessly by Google's `cwebp`: see `make.py` there) decodes to the
//! PNG's pixels; KTX2 through `KHR_texture_basisu` (`tests/models/ktx2/`, ETC1S and UASTC:
//! see `make.mjs` there) decodes as three.js's KTX2Loader transcodes it; a texture the game does
//! not decode (AVIF) draws untextured, and requiring its extension does not refuse the file.

use std::path::Path;

use props_gltf::gate::{admit_file, admit_slice};
use props_gltf::validate::{Consequence, Outcome};
use props_gltf::{Limits, Part};

use crate::real_models::models_dir;

#[test]
fn webp_textures_decode_to_the_png_s_pixels() {
    let webp = admit_file(&models_dir().join("webp/Fox_webp.gltf"), &Limits::default()).expect("admitted");
    assert!(webp.report.issues.iter().all(|i| i.code != "PROPS_UNSUPPORTED_EXTENSION"), "{}", webp.report);
    let png = admit_file(&models_dir().join("Fox.glb"), &Limits::default()).expect("the Fox");
    let ([webp_image], [png_image]) = (webp.import.model.images(), png.import.model.images()) else {
        panic!("one image each");
    };
    assert_eq!((webp_image.width, webp_image.height), (png_image.width, png_image.height));
    assert!(webp_image.rgba8 == png_image.rgba8, "lossless WebP decodes to the PNG's pixels");
    assert_eq!(webp.import.model.materials()[0].base_color_texture.map(|t| t.image), Some(0));
}

/// A quad's two WebP textures in data URIs (cwebp: lossy VP8 and lossless VP8L) decode: the
/// lossless one to the gradient `make.py` encoded, the lossy one as Google's `dwebp` decodes it
/// (`quad_webp.lossy.pam`, within 2/255: the two upsample chroma by different rounding).
#[test]
fn lossy_and_lossless_webp_decode() {
    let admitted = admit_file(&models_dir().join("webp/quad_webp.gltf"), &Limits::default()).expect("admitted");
    assert!(!admitted.report.has_errors(), "{}", admitted.report);
    let [lossy, lossless] = admitted.import.model.images() else { panic!("two images") };
    assert_eq!((lossy.width, lossy.height, lossless.width, lossless.height), (16, 16, 16, 16));
    let gradient: Vec<u8> = (0..256u32)
        .flat_map(|i| [(i % 16) * 16 % 256, (i / 16) * 16 % 256, ((i * 7) % 16) * 16 % 256, 255])
        .map(|c| c as u8)
        .collect();
    assert!(lossless.rgba8 == gradient, "lossless WebP decodes exactly");
    let pam = std::fs::read(models_dir().join("webp/quad_webp.lossy.pam")).expect("dwebp's decoding");
    let header_end = pam.windows(7).position(|w| w == b"ENDHDR\n").expect("a PAM header") + 7;
    let reference = &pam[header_end..];
    assert_eq!(reference.len(), lossy.rgba8.len());
    let worst = lossy.rgba8.iter().zip(reference).map(|(a, b)| a.abs_diff(*b)).max().unwrap_or(255);
    assert!(worst <= 2, "lossy WebP decodes as dwebp does: off by {worst}/255");
}

/// The Fox's texture as ETC1S and as Zstandard-supercompressed UASTC KTX2 files, named only
/// through `KHR_texture_basisu` (required): the largest level transcodes to exactly the pixels
/// Binomial's own transcoder gives (three.js's KTX2Loader: `<name>.rgba.png`), the right way
/// up (close to the PNG it was encoded from: the encodings are lossy).
#[test]
fn ktx2_textures_decode_as_three_js_transcodes_them() {
    let png = admit_file(&models_dir().join("Fox.glb"), &Limits::default()).expect("the Fox");
    let [original] = png.import.model.images() else { panic!("one image") };
    for (name, within) in [("Fox_etc1s", 12.0), ("Fox_uastc", 2.0)] {
        let admitted = admit_file(&models_dir().join(format!("ktx2/{name}.glb")), &Limits::default())
            .unwrap_or_else(|refused| panic!("{refused}"));
        assert!(!admitted.report.has_errors(), "{}", admitted.report);
        let [image] = admitted.import.model.images() else { panic!("{name}: one image") };
        assert_eq!(admitted.import.model.materials()[0].base_color_texture.map(|t| t.image), Some(0));
        let reference =
            image::open(models_dir().join(format!("ktx2/{name}.rgba.png"))).expect("reference").into_rgba8();
        assert_eq!((image.width, image.height), reference.dimensions(), "{name}");
        assert!(image.rgba8 == reference.as_raw().as_slice(), "{name} transcodes as Binomial's transcoder does");
        let error = image.rgba8.iter().zip(&original.rgba8).map(|(a, b)| f64::from(a.abs_diff(*b))).sum::<f64>()
            / image.rgba8.len() as f64;
        assert!(error < within, "{name}: {error:.2}/255 from the PNG on average");
    }
}

/// The Fox in UASTC split into its JSON and binary chunk, and where its KTX2 image starts in
/// the chunk.
fn fox_uastc() -> (serde_json::Value, Vec<u8>, usize) {
    fox_ktx2("Fox_uastc")
}

/// `tests/models/ktx2/<name>.glb` split into its JSON and binary chunk, and where its KTX2
/// image starts in the chunk.
fn fox_ktx2(name: &str) -> (serde_json::Value, Vec<u8>, usize) {
    let (json, bin) =
        crate::support::split_glb(&std::fs::read(models_dir().join(format!("ktx2/{name}.glb"))).expect("model"));
    let view = &json["bufferViews"][json["images"][0]["bufferView"].as_u64().expect("view") as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    (json, bin, start)
}

/// A KTX2 image whose largest level says it inflates to more than its pixels can take, or
/// that is not KTX2 at all, is left out (the texture draws untextured) before anything is
/// allocated for it.
#[test]
fn damaged_ktx2_images_draw_untextured() {
    let (json, bin, start) = fox_uastc();
    for (at, value, says) in
        [(96, u64::MAX / 2, "inflates to"), (80, u64::MAX - 4, "past the end"), (0, 0, "unrecognized format")]
    {
        let mut bin = bin.clone();
        bin[start + at..start + at + 8].copy_from_slice(&value.to_le_bytes());
        let glb = crate::support::glb(&json, &bin);
        let admitted = admit_slice(&glb, None, Path::new("Fox_uastc.glb"), &Limits::default())
            .unwrap_or_else(|refused| panic!("{refused}"));
        let outcome = admitted.report.outcome();
        assert!(
            matches!(&outcome, Outcome::Loads { dropped, .. } if dropped == &[Part::Image { index: 0 }]),
            "{outcome}"
        );
        assert!(admitted.report.to_string().contains(says), "{says}: {}", admitted.report);
        assert_eq!(admitted.import.model.materials()[0].base_color_texture.map(|t| t.image), None);
    }
}

/// A KTX2 image whose header's offset of its supercompression data leads outside the file,
/// which the Basis Universal transcoder adds to without checking (a panic), is left out: the
/// game goes on.
#[test]
fn ktx2_offsets_outside_the_file_leave_the_image_out() {
    // The header's sgdByteOffset (a u64 at 64) of an ETC1S file, which has that data.
    for offset in [u64::MAX - 15, u64::from(u32::MAX) - 7] {
        let (json, mut bin, start) = fox_ktx2("Fox_etc1s");
        bin[start + 64..start + 72].copy_from_slice(&offset.to_le_bytes());
        let glb = crate::support::glb(&json, &bin);
        let admitted = admit_slice(&glb, None, Path::new("fox.glb"), &Limits::default())
            .unwrap_or_else(|refused| panic!("{refused}"));
        let image = admitted.import.model.materials()[0].base_color_texture.map(|t| t.image);
        assert_eq!(image, None, "{offset}: {}", admitted.report);
    }
}

/// A KTX2 image keeps its file (for its levels, uploaded in a GPU block format, and drawn
/// from them once its pixels are released) only when the file holds every level: one saying it
/// holds its largest alone is decoded, and drawn from levels made from its pixels.
#[test]
fn a_ktx2_file_is_kept_only_with_every_level() {
    let (json, bin, start) = fox_uastc();
    // The header's levelCount.
    for (levels, kept) in [(None, true), (Some(1u32), false)] {
        let mut bin = bin.clone();
        if let Some(levels) = levels {
            bin[start + 40..start + 44].copy_from_slice(&levels.to_le_bytes());
        }
        let admitted =
            admit_slice(&crate::support::glb(&json, &bin), None, Path::new("Fox_uastc.glb"), &Limits::default())
                .unwrap_or_else(|refused| panic!("{refused}"));
        let [image] = admitted.import.model.images() else { panic!("one image") };
        assert_eq!((image.width, image.height, image.rgba8.len()), (1024, 1024, 1024 * 1024 * 4), "{levels:?}");
        assert_eq!(image.ktx2.is_some(), kept, "{levels:?}");
    }
}

/// The Fox with its texture named only through `EXT_texture_avif` (required, no fallback):
/// it loads, drawn untextured, and says why.
#[test]
fn undecoded_texture_formats_draw_untextured() {
    let path = models_dir().join("webp/Fox_webp.gltf");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("model")).expect("JSON");
    json["textures"][0]["extensions"] = serde_json::json!({"EXT_texture_avif": {"source": 0}});
    json["images"][0] = serde_json::json!({"uri": "Fox_webp.webp", "mimeType": "image/avif"});
    json["extensionsUsed"] = serde_json::json!(["EXT_texture_avif"]);
    json["extensionsRequired"] = serde_json::json!(["EXT_texture_avif"]);
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/webp");
    let text = json.to_string();
    let admitted = admit_slice(text.as_bytes(), Some(&folder), Path::new("Fox_avif.gltf"), &Limits::default())
        .unwrap_or_else(|refused| panic!("{refused}"));
    let outcome = admitted.report.outcome();
    assert!(
        matches!(&outcome, Outcome::Loads { dropped, .. } if dropped == &[Part::Texture { index: 0 }]),
        "{outcome}"
    );
    let issue = admitted.report.issues.iter().find(|i| !i.dropped().is_empty()).expect("why");
    assert_eq!((issue.code, issue.json_pointer.as_str()), ("PROPS_UNSUPPORTED_IMAGE", "/textures/0"));
    assert!(issue.message.contains("EXT_texture_avif"), "{}", issue.message);
    assert!(admitted.import.model.images().is_empty());
    assert_eq!(admitted.import.model.materials()[0].base_color_texture.map(|t| t.image), None);
}

/// A file whose images together pass the budget for decoded data is loaded with smaller
/// images (the largest halved first, a warning naming each image and its new size) where its
/// geometry fits and each image can be decoded whole beside the others; a file whose geometry
/// does not fit is refused.
#[test]
fn images_over_the_budget_are_loaded_smaller() {
    let dir = std::env::temp_dir().join(format!("props-images-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("folder");
    let png = |side: u32| {
        let image = image::RgbaImage::from_fn(side, side, |x, y| image::Rgba([x as u8, y as u8, 9, 255]));
        let mut bytes = Vec::new();
        image.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).expect("encodes");
        bytes
    };
    let positions: Vec<u8> =
        [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    let uvs: Vec<u8> = [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    let buffer = [positions, uvs].concat();
    std::fs::write(dir.join("tri.bin"), &buffer).expect("bin");
    let document = serde_json::json!({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}, "emissiveTexture": {"index": 1}}],
        "textures": [{"source": 0}, {"source": 1}],
        "images": [{"uri": "big.png"}, {"uri": "small.png"}],
        "buffers": [{"byteLength": buffer.len(), "uri": "tri.bin"}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}]});
    let path = dir.join("tri.gltf");
    std::fs::write(&path, document.to_string()).expect("gltf");
    let admit = |budget: u64| admit_file(&path, &Limits { max_decoded_bytes: budget, ..Limits::default() });
    // The least budget the file needs with 1x1 images: what its JSON and geometry take.
    std::fs::write(dir.join("big.png"), png(1)).expect("png");
    std::fs::write(dir.join("small.png"), png(1)).expect("png");
    let (mut low, mut high) = (0u64, 64 << 20);
    while low + 1 < high {
        let middle = (low + high) / 2;
        if admit(middle).is_ok() { high = middle } else { low = middle }
    }
    let geometry = high;
    std::fs::write(dir.join("big.png"), png(256)).expect("png");
    std::fs::write(dir.join("small.png"), png(128)).expect("png");
    let sizes = |budget: u64| {
        let admitted = admit(budget).unwrap_or_else(|refused| panic!("{budget}: {refused}"));
        let sizes: Vec<(u32, u32)> = admitted.import.model.images().iter().map(|i| (i.width, i.height)).collect();
        (sizes, admitted.report)
    };
    let loaded_at = |report: &props_gltf::validate::Report| {
        let warned = report.issues.iter().filter(|i| i.message.contains("was loaded at"));
        warned.map(|i| i.json_pointer.clone()).collect::<Vec<_>>()
    };
    // Both whole: 256² and 128² RGBA8, 327,680 bytes.
    let (whole, report) = sizes(geometry + 330_000);
    assert_eq!(whole, [(256, 256), (128, 128)], "{report}");
    assert!(loaded_at(&report).is_empty(), "{report}");
    // Short of that, the largest is halved first, then the largest again, until the images
    // fit with room to decode the big one whole (262,144 bytes) beside them: 256² to 128²
    // (131,072 + 262,144: too much), the small one to 64², the big one to 64² (294,912).
    let (halved, report) = sizes(geometry + 320_000);
    assert_eq!(halved, [(64, 64), (64, 64)], "{report}");
    assert_eq!(loaded_at(&report), ["/images/0", "/images/1"], "{report}");
    let big = report.issues.iter().find(|i| i.json_pointer == "/images/0" && i.message.contains("was loaded at"));
    assert!(big.is_some_and(|w| w.message.contains("(256x256 pixels) was loaded at 64x64")), "{report}");
    // Each warning names the size to export it at for the images to load whole, with no
    // room to shrink one held: 128 for both (the big one halved: 131,072 bytes).
    let advice = |pointer: &str| {
        report.issues.iter().any(|i| i.json_pointer == pointer && i.message.contains("(at most 128 pixels a side here"))
    };
    assert!(advice("/images/0") && advice("/images/1"), "{report}");
    // And so exported, they load whole.
    std::fs::write(dir.join("big.png"), png(128)).expect("png");
    let (exported, report) = sizes(geometry + 320_000);
    assert_eq!(exported, [(128, 128), (128, 128)], "{report}");
    assert!(loaded_at(&report).is_empty(), "{report}");
    std::fs::write(dir.join("big.png"), png(256)).expect("png");
    // Too little to decode the big one at all: the model loads without it (untextured where
    // it was read), saying so, and the small one whole, the big one's room not held for it.
    let (left, report) = sizes(geometry + 200_000);
    assert_eq!(left, [(128, 128)], "{report}");
    assert!(loaded_at(&report).is_empty(), "{report}");
    let dropped = report.issues.iter().find(|i| i.json_pointer == "/images/0").expect("the big image named");
    assert_eq!(
        (dropped.code, &dropped.consequence),
        ("PROPS_LIMIT_EXCEEDED", &Consequence::Drops(vec![Part::Image { index: 0 }]))
    );
    assert!(report.to_string().contains("/images/0: error[PROPS_LIMIT_EXCEEDED]"), "{report}");
    // The geometry alone does not fit: refused, for the budget.
    let refused = admit(geometry - 1_000).expect_err("the geometry does not fit");
    assert!(refused.to_string().contains("PROPS_LIMIT_EXCEEDED"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Images that all name one file read it once each at most until the file's image reads reach
/// what its buffers and decoded data may take together: past that, the rest are left out,
/// saying why, rather than the file read again and again (4,000 images of an 8 MiB file:
/// 32 GB).
#[test]
fn one_image_file_named_many_times_is_read_within_a_bound() {
    let folder = std::env::temp_dir().join(format!("props-gltf-one-image-{}", std::process::id()));
    std::fs::create_dir_all(&folder).expect("a folder");
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(2, 2, image::Rgba([200, 40, 40, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("a PNG");
    png.resize(256 << 10, 0);
    std::fs::write(folder.join("big.png"), &png).expect("the image");
    let positions: Vec<u8> =
        [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    let uvs: Vec<u8> = [0.0f32; 6].iter().flat_map(|f| f.to_le_bytes()).collect();
    let data = [positions, uvs].concat();
    use base64::Engine as _;
    let uri =
        format!("data:application/octet-stream;base64,{}", base64::engine::general_purpose::STANDARD.encode(&data));
    let images = 40;
    let primitive = |m: usize| serde_json::json!({"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": m});
    let document = serde_json::json!({
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": (0..images).map(primitive).collect::<Vec<_>>()}],
        "materials": (0..images).map(|i| serde_json::json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}})).collect::<Vec<_>>(),
        "textures": (0..images).map(|i| serde_json::json!({"source": i})).collect::<Vec<_>>(),
        "images": vec![serde_json::json!({"uri": "big.png"}); images],
        "buffers": [{"byteLength": data.len(), "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}
        ]
    });
    std::fs::write(folder.join("model.gltf"), document.to_string()).expect("the model");
    // 16 MiB of image reads: the 40 headers take 10 (the file is under a header's MiB), 24
    // images read whole take the rest.
    let limits = Limits { max_total_buffer_bytes: 4 << 20, max_decoded_bytes: 4 << 20, ..Limits::default() };
    let admitted = admit_file(&folder.join("model.gltf"), &limits).unwrap_or_else(|refused| panic!("{refused}"));
    let _ = std::fs::remove_dir_all(&folder);
    let model = &admitted.import.model;
    let textured = model.materials().iter().filter(|m| m.base_color_texture.is_some()).count();
    let bound = admitted.report.issues.iter().filter(|i| i.message.contains("bytes read from image files")).count();
    assert_eq!((textured, bound), (24, 16), "{}", admitted.report);
}
