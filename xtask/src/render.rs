//! `cargo xtask render FILE --out OUT.png`: one model, one frame, drawn by the game's renderer
//! under a scene defined exactly enough for another renderer to reproduce it (see
//! `props_render::conventions`; `tests/oracle/render` holds three.js's renders under the same
//! conventions). Prints the camera used as a `--camera` string.

use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};
use clap::Args;
use props_gltf::Limits;
use props_gltf::gate::admit_file;
use props_render::GpuContext;
use props_render::conventions::{self, CameraSpec, RenderSpec, SunSpec, parse_color};

/// Options of `cargo xtask render`.
#[derive(Args)]
pub struct RenderArgs {
    /// The glTF file.
    file: PathBuf,
    /// The PNG to write.
    #[arg(long)]
    out: PathBuf,
    /// Image size, `WxH`.
    #[arg(long, default_value = "384x384")]
    size: String,
    /// `eye=X,Y,Z:target=X,Y,Z:yfov=DEG` (each part optional; without eye and target the
    /// posed model is framed).
    #[arg(long)]
    camera: Option<String>,
    /// The clip to pose, by index (the rest pose without).
    #[arg(long)]
    anim: Option<usize>,
    /// Clip time, seconds (clamped to the clip).
    #[arg(long, default_value_t = 0.0, requires = "anim")]
    time: f32,
    /// The sun: `dir=X,Y,Z:color=R,G,B:intensity=I` (shining from dir).
    #[arg(long)]
    light: Option<String>,
    /// Ambient light, linear `R,G,B`, diffuse only.
    #[arg(long)]
    ambient: Option<String>,
    /// Image-based light: `none`, or the game's `sky`.
    #[arg(long, default_value = "none", value_parser = ["none", "sky"])]
    env: String,
    /// Background, sRGB `R,G,B`.
    #[arg(long)]
    background: Option<String>,
    /// The file's own point and spot lights (`KHR_lights_punctual`): `none` (left out), or
    /// `file` (they light it).
    #[arg(long, default_value = "none", value_parser = ["none", "file"])]
    lights: String,
    /// The material variant (`KHR_materials_variants`) to draw the model in, by name; without
    /// it, its own materials.
    #[arg(long)]
    material_variant: Option<String>,
}

/// Parses the options into a scene.
fn spec(args: &RenderArgs) -> Result<RenderSpec> {
    let mut spec = RenderSpec::default();
    let (w, h) = args.size.split_once('x').context("--size is WxH")?;
    spec.size = (w.parse().context("--size width")?, h.parse().context("--size height")?);
    if spec.size.0 == 0 || spec.size.1 == 0 || spec.size.0 > 8192 || spec.size.1 > 8192 {
        bail!("--size must be between 1x1 and 8192x8192");
    }
    if let Some(camera) = &args.camera {
        spec.camera = camera.parse::<CameraSpec>().context("--camera")?;
    }
    if let Some(light) = &args.light {
        spec.sun = light.parse::<SunSpec>().context("--light")?;
    }
    if let Some(ambient) = &args.ambient {
        spec.ambient = parse_color(ambient).context("--ambient")?;
    }
    if let Some(background) = &args.background {
        spec.background = parse_color(background).context("--background")?;
    }
    spec.sky = args.env == "sky";
    spec.file_lights = args.lights == "file";
    Ok(spec)
}

/// Renders and writes the image; prints the camera.
pub fn run(args: &RenderArgs) -> Result<()> {
    let mut spec = spec(args)?;
    let admitted = admit_file(&args.file, &Limits::default()).map_err(|refused| anyhow::anyhow!("{refused}"))?;
    let model = &admitted.import.model;
    if let Some(name) = &args.material_variant {
        let names: Vec<&str> = model.material_variants().iter().map(|v| v.name.as_str()).collect();
        spec.material_variant = Some(
            model
                .material_variant(name)
                .with_context(|| format!("--material-variant {name}: the model has {names:?}"))?,
        );
    }
    if let Some(anim) = args.anim
        && anim >= model.clips().len()
    {
        bail!("--anim {anim}: the model has {} clips", model.clips().len());
    }
    let gpu = pollster::block_on(GpuContext::headless()).context("no GPU adapter (install mesa-vulkan-drivers)")?;
    let (rgba, framing) = conventions::render(&gpu, model, (args.anim, args.time), &spec)?;
    image::save_buffer(&args.out, &rgba, spec.size.0, spec.size.1, image::ExtendedColorType::Rgba8)
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("--camera {framing}");
    println!("wrote {}", args.out.display());
    Ok(())
}
