//! Image comparison with NVIDIA's FLIP perceptual metric (the one wgpu's own tests use), and
//! golden images under `tests/golden/`.
//!
//! Goldens are written only when `PROPS_BLESS=1` is set. On a mismatch the actual image and
//! a FLIP difference image are written beside the golden as `<name>-actual.png` and
//! `<name>-difference.png`.

use std::path::PathBuf;

use image::RgbaImage;

/// How different two images may be. FLIP values are per pixel, 0 (same) to 1.
#[derive(Clone, Copy, Debug)]
pub struct Threshold {
    /// Largest allowed mean FLIP error over the image.
    pub mean: f32,
    /// Largest allowed FLIP error of the 99th-percentile pixel.
    pub p99: f32,
}

/// What a comparison measured.
#[derive(Clone, Copy, Debug)]
pub struct Difference {
    /// Mean FLIP error.
    pub mean: f32,
    /// 99th-percentile FLIP error.
    pub p99: f32,
    /// Largest FLIP error.
    pub max: f32,
}

impl Difference {
    /// Whether this difference is within `threshold`.
    #[must_use]
    pub fn within(&self, threshold: Threshold) -> bool {
        self.mean <= threshold.mean && self.p99 <= threshold.p99
    }
}

fn rgb(image: &RgbaImage) -> nv_flip::FlipImageRgb8 {
    let data: Vec<u8> = image.pixels().flat_map(|p| [p[0], p[1], p[2]]).collect();
    nv_flip::FlipImageRgb8::with_data(image.width(), image.height(), &data)
}

/// FLIP error between two images of the same size, and the error map.
///
/// # Panics
/// If the sizes differ.
#[must_use]
pub fn compare(actual: &RgbaImage, expected: &RgbaImage) -> (Difference, nv_flip::FlipImageFloat) {
    assert_eq!(actual.dimensions(), expected.dimensions(), "image sizes differ");
    let error_map = nv_flip::flip(rgb(expected), rgb(actual), nv_flip::DEFAULT_PIXELS_PER_DEGREE);
    let mut pool = nv_flip::FlipPool::from_image(&error_map);
    let difference = Difference { mean: pool.mean(), p99: pool.get_percentile(0.99, true), max: pool.max_value() };
    (difference, error_map)
}

/// Asserts two rendered images match within `threshold`, writing both and the difference
/// image under `target/image-diffs/` when they do not (or always, with `PROPS_SAVE_IMAGES=1`).
///
/// # Panics
/// When they differ by more than `threshold`.
pub fn assert_similar(name: &str, actual: &RgbaImage, expected: &RgbaImage, threshold: Threshold) {
    let (difference, error_map) = compare(actual, expected);
    let keep = std::env::var_os("PROPS_SAVE_IMAGES").is_some_and(|v| v == "1");
    if keep || !difference.within(threshold) {
        let dir = crate::scene::data("../target/image-diffs");
        std::fs::create_dir_all(&dir).expect("create target/image-diffs");
        let save = |suffix: &str, image: &RgbaImage| image.save(dir.join(format!("{name}-{suffix}.png")));
        save("actual", actual).expect("write actual");
        save("expected", expected).expect("write expected");
        write_difference(&dir.join(format!("{name}-difference.png")), &error_map);
        assert!(
            difference.within(threshold),
            "{name}: {difference:?} exceeds {threshold:?}; images in {}",
            dir.display()
        );
        eprintln!("{name}: {difference:?}; images in {}", dir.display());
    }
}

fn write_difference(path: &std::path::Path, error_map: &nv_flip::FlipImageFloat) {
    let colored = error_map.apply_color_lut(&nv_flip::magma_lut());
    image::RgbImage::from_raw(colored.width(), colored.height(), colored.to_vec())
        .expect("difference image of the right size")
        .save(path)
        .expect("write difference image");
}

/// Path of golden image `name`.
#[must_use]
pub fn golden_path(name: &str) -> PathBuf {
    crate::scene::data(&format!("golden/{name}.png"))
}

/// Compares `actual` with golden image `name`; with `PROPS_BLESS=1` writes it instead.
///
/// # Panics
/// When the golden is missing (and not blessing) or differs by more than `threshold`.
pub fn check_golden(name: &str, actual: &RgbaImage, threshold: Threshold) {
    let path = golden_path(name);
    let sibling = |suffix: &str| path.with_file_name(format!("{name}-{suffix}.png"));
    if std::env::var_os("PROPS_BLESS").is_some_and(|v| v == "1") {
        actual.save(&path).expect("write golden");
        eprintln!("blessed {}", path.display());
        return;
    }
    let Ok(expected) = image::open(&path) else {
        actual.save(sibling("actual")).expect("write actual");
        panic!("{name}: no golden at {}; inspect {name}-actual.png and rerun with PROPS_BLESS=1", path.display());
    };
    let (difference, error_map) = compare(actual, &expected.to_rgba8());
    eprintln!("{name}: {difference:?} (threshold {threshold:?})");
    if !difference.within(threshold) {
        actual.save(sibling("actual")).expect("write actual");
        write_difference(&sibling("difference"), &error_map);
        panic!("{name}: {difference:?} exceeds {threshold:?}; see {name}-actual.png and {name}-difference.png");
    }
}
