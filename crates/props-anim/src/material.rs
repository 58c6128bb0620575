//! Materials and decoded images.

/// A simple unlit-or-lambert material: base color factor times an optional texture.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name, if any.
    pub name: Option<String>,
    /// Linear RGBA factor.
    pub base_color_factor: [f32; 4],
    /// Index into [`crate::Model::images`] of the sRGB base color texture, if any.
    pub base_color_texture: Option<u32>,
}

impl Default for Material {
    fn default() -> Self {
        Self { name: None, base_color_factor: [1.0; 4], base_color_texture: None }
    }
}

/// A decoded image, 8-bit RGBA, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Name or URI, for messages.
    pub name: Option<String>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba8: Vec<u8>,
    /// The KTX2 file of Basis Universal data (`KHR_texture_basisu`) that `rgba8` is the
    /// largest level of, when the image is one: a renderer may upload the file's own mip levels
    /// in a GPU block format (BC7, ASTC, ETC2) instead of `rgba8`.
    pub ktx2: Option<Vec<u8>>,
}
