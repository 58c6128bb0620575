//! Texture formats exporters write: WebP through `EXT_texture_webp` (`tests/models/webp/`, the
//! Fox's texture encoded losslessly by Google's `cwebp`: see `make.py` there) decodes to the
//! PNG's pixels; a texture the game does not decode (KTX2) draws untextured, and requiring its
//! extension does not refuse the file.

use std::path::Path;

use props_gltf::gate::{admit_file, admit_slice};
use props_gltf::validate::Outcome;
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
    assert_eq!(webp.import.model.materials()[0].base_color_texture, Some(0));
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

/// The Fox with its texture named only through `KHR_texture_basisu` (required, no fallback):
/// it loads, drawn untextured, and says why.
#[test]
fn undecoded_texture_formats_draw_untextured() {
    let path = models_dir().join("webp/Fox_webp.gltf");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("model")).expect("JSON");
    json["textures"][0]["extensions"] = serde_json::json!({"KHR_texture_basisu": {"source": 0}});
    json["images"][0] = serde_json::json!({"uri": "Fox_webp.webp", "mimeType": "image/ktx2"});
    json["extensionsUsed"] = serde_json::json!(["KHR_texture_basisu"]);
    json["extensionsRequired"] = serde_json::json!(["KHR_texture_basisu"]);
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/models/webp");
    let text = json.to_string();
    let admitted = admit_slice(text.as_bytes(), Some(&folder), Path::new("Fox_ktx2.gltf"), &Limits::default())
        .unwrap_or_else(|refused| panic!("{refused}"));
    let outcome = admitted.report.outcome();
    assert!(
        matches!(&outcome, Outcome::Loads { dropped, .. } if dropped == &[Part::Texture { index: 0 }]),
        "{outcome}"
    );
    let issue = admitted.report.issues.iter().find(|i| !i.dropped().is_empty()).expect("why");
    assert_eq!((issue.code, issue.json_pointer.as_str()), ("PROPS_UNSUPPORTED_IMAGE", "/textures/0"));
    assert!(issue.message.contains("KHR_texture_basisu"), "{}", issue.message);
    assert!(admitted.import.model.images().is_empty());
    assert_eq!(admitted.import.model.materials()[0].base_color_texture, None);
}
