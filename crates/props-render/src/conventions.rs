//! The scene of a reference render, defined exactly enough for another renderer to draw the
//! same picture: how a posed model is framed, the sun, the ambient light, the sky's light and
//! the background, with their text forms (`cargo xtask render`'s options). The three.js
//! reference in `tests/oracle/render` implements the same conventions.
//!
//! - Camera: perspective, vertical field of view in degrees (40 by default), aspect W/H, +Y
//!   up. Without an eye and target, the posed model's bounding sphere (centre: the centre of
//!   its world-space box; radius: half the box's diagonal) is seen from direction
//!   normalize(1, 0.6, 1.2) at d = r / sin(min(yfov/2, hfov/2)). Near = max(d - 2r, r/1000),
//!   far = d + 2r, d being the eye's distance from the box's centre.
//! - Sun: `dir=0.4,1,0.6:color=1,1,1:intensity=3`, shining from `dir`: a Lambertian surface of
//!   albedo a facing it returns a/pi * color * intensity.
//! - Ambient: 0.6,0.6,0.6, diffuse only (a/pi * ambient, less what a dielectric's specular
//!   reflects of light from every direction, as three.js shares it); no sky light unless asked
//!   for.
//! - Background: sRGB 0.5,0.7,1.0. Output: no tone mapping, linear to sRGB, MSAA.

use std::fmt;
use std::str::FromStr;

use glam::Vec3;
use props_anim::{JointMatrix, Model};
use props_frame::{Camera, Lighting};

use crate::{GpuContext, StillError, StillRenderer};

/// Direction the default camera looks from, towards the model.
const VIEW_FROM: Vec3 = Vec3::new(1.0, 0.6, 1.2);

/// Why an option's text does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}`: {reason} (expected {expected})")]
pub struct SpecError {
    text: String,
    reason: String,
    expected: &'static str,
}

fn error(text: &str, reason: impl Into<String>, expected: &'static str) -> SpecError {
    SpecError { text: text.to_owned(), reason: reason.into(), expected }
}

/// Three comma-separated finite numbers.
fn vec3(text: &str, expected: &'static str) -> Result<Vec3, SpecError> {
    let numbers: Vec<f32> = text
        .split(',')
        .map(|n| n.trim().parse::<f32>().map_err(|e| error(text, e.to_string(), expected)))
        .collect::<Result<_, _>>()?;
    match numbers[..] {
        [x, y, z] if numbers.iter().all(|n| n.is_finite()) => Ok(Vec3::new(x, y, z)),
        _ => Err(error(text, "three finite numbers needed", expected)),
    }
}

/// `key=value` pairs separated by `:`, each key one of `keys`.
fn pairs<'a>(text: &'a str, keys: &[&str], expected: &'static str) -> Result<Vec<(&'a str, &'a str)>, SpecError> {
    text.split(':')
        .map(|pair| {
            let (key, value) =
                pair.split_once('=').ok_or_else(|| error(text, format!("`{pair}` has no `=`"), expected))?;
            if !keys.contains(&key) {
                return Err(error(text, format!("unknown key `{key}`"), expected));
            }
            Ok((key, value))
        })
        .collect()
}

/// A number of `text` with 9 significant digits, as a `--camera` string writes it.
fn digits(x: f32) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    let decimals = (8 - x.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.decimals$}");
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_owned() } else { text };
    if text == "-0" { "0".to_owned() } else { text }
}

/// Where the camera is: framed automatically, or placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraSpec {
    /// The eye and the point it looks at; `None` frames the model.
    pub placed: Option<(Vec3, Vec3)>,
    /// Vertical field of view, degrees.
    pub yfov_degrees: f32,
}

impl Default for CameraSpec {
    fn default() -> Self {
        Self { placed: None, yfov_degrees: 40.0 }
    }
}

impl FromStr for CameraSpec {
    type Err = SpecError;

    /// `eye=X,Y,Z:target=X,Y,Z:yfov=DEG`, each part optional but eye and target together.
    fn from_str(text: &str) -> Result<Self, SpecError> {
        const EXPECTED: &str = "eye=X,Y,Z:target=X,Y,Z:yfov=DEG";
        let mut spec = Self::default();
        let (mut eye, mut target) = (None, None);
        for (key, value) in pairs(text, &["eye", "target", "yfov"], EXPECTED)? {
            match key {
                "eye" => eye = Some(vec3(value, EXPECTED)?),
                "target" => target = Some(vec3(value, EXPECTED)?),
                _ => {
                    spec.yfov_degrees = value.parse().map_err(|_| error(text, "yfov is no number", EXPECTED))?;
                    if !(spec.yfov_degrees > 0.0 && spec.yfov_degrees < 180.0) {
                        return Err(error(text, "yfov must be between 0 and 180 degrees", EXPECTED));
                    }
                }
            }
        }
        spec.placed = match (eye, target) {
            (Some(eye), Some(target)) if eye != target => Some((eye, target)),
            (None, None) => None,
            _ => return Err(error(text, "give eye and target together, apart", EXPECTED)),
        };
        Ok(spec)
    }
}

/// The sun: direction towards it, colour, intensity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SunSpec {
    /// Towards the sun (normalized when used).
    pub direction: Vec3,
    /// Linear colour.
    pub color: Vec3,
    /// Intensity (irradiance on a surface facing it, times the colour).
    pub intensity: f32,
}

impl Default for SunSpec {
    fn default() -> Self {
        Self { direction: Vec3::new(0.4, 1.0, 0.6), color: Vec3::ONE, intensity: 3.0 }
    }
}

impl FromStr for SunSpec {
    type Err = SpecError;

    /// `dir=X,Y,Z:color=R,G,B:intensity=I`, each part optional.
    fn from_str(text: &str) -> Result<Self, SpecError> {
        const EXPECTED: &str = "dir=X,Y,Z:color=R,G,B:intensity=I";
        let mut spec = Self::default();
        for (key, value) in pairs(text, &["dir", "color", "intensity"], EXPECTED)? {
            match key {
                "dir" => spec.direction = vec3(value, EXPECTED)?,
                "color" => spec.color = vec3(value, EXPECTED)?,
                _ => spec.intensity = value.parse().map_err(|_| error(text, "intensity is no number", EXPECTED))?,
            }
        }
        if spec.direction.length_squared() == 0.0 || !spec.intensity.is_finite() {
            return Err(error(text, "the direction must not be zero, the intensity finite", EXPECTED));
        }
        Ok(spec)
    }
}

/// Parses `R,G,B` (an ambient light or a background colour).
///
/// # Errors
/// When it is not three finite numbers.
pub fn parse_color(text: &str) -> Result<Vec3, SpecError> {
    vec3(text, "R,G,B")
}

/// Everything a reference render is drawn under.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderSpec {
    /// Width and height, pixels.
    pub size: (u32, u32),
    /// The camera.
    pub camera: CameraSpec,
    /// The sun.
    pub sun: SunSpec,
    /// Ambient light, diffuse only.
    pub ambient: Vec3,
    /// Whether the sky's image-based light is added (`--env sky`).
    pub sky: bool,
    /// Background, sRGB.
    pub background: Vec3,
    /// Whether the file's own point and spot lights (`KHR_lights_punctual`) light it
    /// (`--lights file`); by default they are left out, as the reference removes them.
    pub file_lights: bool,
    /// Whether curved surfaces' specular lobes are widened by how far their normals turn
    /// between pixels, as three.js's are (the default; see
    /// [`crate::RendererConfig::specular_antialiasing`]).
    pub specular_antialiasing: bool,
    /// The material variant the model is drawn in (`--material-variant NAME`, by its number in
    /// `props_anim::Model::material_variants`); `None`, the default: its own materials.
    pub material_variant: Option<u8>,
}

impl Default for RenderSpec {
    fn default() -> Self {
        Self {
            size: (384, 384),
            camera: CameraSpec::default(),
            sun: SunSpec::default(),
            ambient: Vec3::splat(0.6),
            sky: false,
            background: Vec3::new(0.5, 0.7, 1.0),
            file_lights: false,
            specular_antialiasing: true,
            material_variant: None,
        }
    }
}

impl RenderSpec {
    /// The frame's light.
    #[must_use]
    pub fn lighting(&self) -> Lighting {
        Lighting {
            direction: self.sun.direction.normalize(),
            color: self.sun.color * self.sun.intensity,
            ambient: self.ambient,
            sky: if self.sky { 1.0 } else { 0.0 },
        }
    }

    /// The background as the renderer clears with it: linear RGBA, of the 8-bit sRGB value
    /// nearest the background (halves rounded up, as three.js writes them), a quarter step
    /// above it so that a target rounding or truncating stores exactly that value.
    #[must_use]
    pub fn clear_color(&self) -> [f64; 4] {
        let linear = |c: f32| {
            // 1e-4 of a step: a half given as an `f32` (0.7 is 0.69999999) still rounds up.
            let c = ((f64::from(c.clamp(0.0, 1.0)) * 255.0 + 0.5 + 1e-4).floor() + 0.25).min(255.0) / 255.0;
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        [linear(self.background.x), linear(self.background.y), linear(self.background.z), 1.0]
    }

    /// The camera for a posed model whose vertices fill the box from `min` to `max`.
    #[must_use]
    pub fn framing(&self, min: Vec3, max: Vec3) -> Framing {
        let (center, radius) = if min.cmple(max).all() && min.is_finite() && max.is_finite() {
            ((min + max) * 0.5, ((max - min).length() * 0.5).max(f32::MIN_POSITIVE))
        } else {
            (Vec3::ZERO, 1.0)
        };
        let radius = if radius > 0.0 && radius.is_finite() { radius } else { 1.0 };
        let yfov = self.camera.yfov_degrees.to_radians();
        let aspect = self.size.0.max(1) as f32 / self.size.1.max(1) as f32;
        let (eye, target) = self.camera.placed.unwrap_or_else(|| {
            let hfov = 2.0 * ((yfov * 0.5).tan() * aspect).atan();
            let distance = radius / (yfov * 0.5).min(hfov * 0.5).sin();
            (center + VIEW_FROM.normalize() * distance, center)
        });
        let distance = eye.distance(center);
        let near = (distance - 2.0 * radius).max(radius / 1000.0);
        Framing { eye, target, yfov_degrees: self.camera.yfov_degrees, aspect, near, far: distance + 2.0 * radius }
    }
}

/// A camera as a reference render places it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    /// Where it stands.
    pub eye: Vec3,
    /// What it looks at.
    pub target: Vec3,
    /// Vertical field of view, degrees.
    pub yfov_degrees: f32,
    /// Width / height.
    pub aspect: f32,
    /// Near plane distance.
    pub near: f32,
    /// Far plane distance.
    pub far: f32,
}

impl Framing {
    /// The frame's camera.
    #[must_use]
    pub fn camera(&self) -> Camera {
        Camera::look_at(self.eye, self.target, self.yfov_degrees.to_radians(), self.aspect, (self.near, self.far))
    }
}

impl fmt::Display for Framing {
    /// As a `--camera` string, 9 significant digits: a run given it draws the same picture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = |v: Vec3| format!("{},{},{}", digits(v.x), digits(v.y), digits(v.z));
        write!(f, "eye={}:target={}:yfov={}", v(self.eye), v(self.target), digits(self.yfov_degrees))
    }
}

/// A reference render of `model`: its default scene in its rest pose, or clip `clip` at
/// `time` (clamped to the clip), drawn under `spec` by this renderer. Returns the image's RGBA8
/// rows (top first) and the camera used.
///
/// # Errors
/// When the GPU refuses the model, or the image cannot be read back.
pub fn render(
    gpu: &GpuContext,
    model: &Model,
    (clip, time): (Option<usize>, f32),
    spec: &RenderSpec,
) -> Result<(Vec<u8>, Framing), StillError> {
    let duration = clip.and_then(|c| model.clips().get(c)).map_or(0.0, props_anim::clip::Clip::duration);
    let pose = model.pose_at(clip, time.clamp(0.0, duration));
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    model.write_palettes(&pose, &mut palette);
    let mut positions = Vec::new();
    props_anim::skinning::model_positions(model, &palette, &mut positions);
    let (min, max) = positions
        .iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(min, max), p| (min.min(*p), max.max(*p)));
    let framing = spec.framing(min, max);
    let mut stills = StillRenderer::with_specular_antialiasing(gpu, spec.size, spec.specular_antialiasing);
    stills.set_material_variant(spec.material_variant);
    let lights: Vec<_> =
        if spec.file_lights { model.placed_lights(&palette, &JointMatrix::IDENTITY).collect() } else { Vec::new() };
    let rgba = stills.draw_lit(
        gpu,
        model,
        &palette,
        framing.camera(),
        (spec.lighting(), spec.clear_color()),
        (&[], &lights),
    )?;
    Ok((rgba, framing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_refuse() {
        let camera: CameraSpec = "eye=1,2,3:target=0,0.5,0:yfov=30".parse().expect("parses");
        assert_eq!(camera.placed, Some((Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.0, 0.5, 0.0))));
        assert_eq!(camera.yfov_degrees, 30.0);
        assert_eq!("yfov=55".parse::<CameraSpec>().expect("parses").placed, None);
        for bad in ["eye=1,2,3", "eye=1,2:target=0,0,0", "fov=3", "yfov=200", "eye=1,1,1:target=1,1,1"] {
            assert!(bad.parse::<CameraSpec>().is_err(), "{bad}");
        }
        let sun: SunSpec = "dir=0,1,0:intensity=2".parse().expect("parses");
        assert_eq!((sun.direction, sun.color, sun.intensity), (Vec3::Y, Vec3::ONE, 2.0));
        assert!("dir=0,0,0".parse::<SunSpec>().is_err());
        assert!(parse_color("1,nan,0").is_err());
    }

    /// The default framing: the bounding sphere fits the narrower field of view exactly, seen
    /// from normalize(1, 0.6, 1.2); the printed camera gives the same framing back.
    #[test]
    fn framing_fits_the_sphere_and_prints_itself() {
        let spec = RenderSpec { size: (400, 200), ..RenderSpec::default() };
        let (min, max) = (Vec3::new(-1.0, 0.0, -2.0), Vec3::new(3.0, 2.0, 2.0));
        let framing = spec.framing(min, max);
        let (center, radius) = (Vec3::new(1.0, 1.0, 0.0), 3.0);
        let distance = framing.eye.distance(center);
        assert!((radius / distance - 20f32.to_radians().sin()).abs() < 1e-6, "the vertical half-angle is narrower");
        assert!((framing.eye - center).normalize().distance(VIEW_FROM.normalize()) < 1e-6);
        assert!((framing.near - (distance - 6.0)).abs() < 1e-4 && (framing.far - (distance + 6.0)).abs() < 1e-4);
        let again = RenderSpec { camera: framing.to_string().parse().expect("parses"), ..spec }.framing(min, max);
        assert!(again.eye.distance(framing.eye) < 1e-5 && again.target == framing.target, "{framing}");
    }

    #[test]
    fn nine_significant_digits() {
        assert_eq!(digits(1.0), "1");
        assert_eq!(digits(0.123_456_79), "0.123456791");
        assert_eq!(digits(-1234.5), "-1234.5");
        assert_eq!(digits(0.0), "0");
    }
}
