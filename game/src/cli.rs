//! Command-line options.

use std::path::PathBuf;

/// The animated-props demo: a mini traffic town with windmills, cars, traffic lights, foxes
/// and people, all GPU-skinned, with live-reloaded mods.
#[derive(Clone, Debug, clap::Parser)]
#[command(name = "game", version)]
pub struct Args {
    /// How many props of a kind the town starts with, `KIND=N` (`--count cars=200`), for any
    /// kind whose number the game chooses (windmills, cars, foxes, buses, pedestrians and the
    /// kinds a build adds); repeat it for several kinds. Kinds not named keep their default
    /// numbers (300 windmills, 40 cars, 12 foxes, 4 buses, 40 pedestrians).
    #[arg(long = "count", value_name = "KIND=N", value_parser = parse_count)]
    pub counts: Vec<(String, usize)>,
    /// Windmills on the hills around the town (up to 100000): `--count windmills=N`.
    #[arg(long, value_name = "N", value_parser = count_of("windmills"))]
    pub windmills: Option<usize>,
    /// Pose every prop for itself: turns off pose sharing, by which props whose animation
    /// states agree to 1/60 s of clip time, 1/32 of a blend weight and one degree of a
    /// procedural angle share one pose, evaluated once per frame.
    #[arg(long)]
    pub no_sharing: bool,
    /// Pose every visible prop every frame: turns off update-rate LOD, which poses props
    /// beyond 50 m every 2nd frame and beyond 150 m every 4th (what is out of view is never
    /// posed).
    #[arg(long)]
    pub no_lod: bool,
    /// Draw every prop in full detail: turns off mesh LOD, which draws each prop at the
    /// coarsest of its levels of detail (made when its model loads) whose error spans at most
    /// a pixel on screen (`--lod-error-px`).
    #[arg(long)]
    pub no_mesh_lod: bool,
    /// Mesh LOD's quality: the most a level's error may span on screen, in pixels of a view
    /// at least 720 lines tall (default 1). Lower draws finer levels, and more triangles
    /// (`cargo xtask lod-quality --max-error-px PX` shows what each costs in looks).
    #[arg(long, value_name = "PX", value_parser = parse_error_px)]
    pub lod_error_px: Option<f32>,
    /// CPU budget of posing, milliseconds per frame: while posing takes longer, far props are
    /// posed less often (never near ones); the HUD shows how many were deferred.
    #[arg(long, value_name = "MS", value_parser = parse_budget)]
    pub anim_budget_ms: Option<f32>,
    /// Threads posing props (0: one per core); the result is the same for any number.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,
    /// Cars on the roads (the town grows to hold them): `--count cars=N`.
    #[arg(long, value_name = "N", value_parser = count_of("cars"))]
    pub cars: Option<usize>,
    /// Foxes in the parks (up to 100000): `--count foxes=N`.
    #[arg(long, value_name = "N", value_parser = count_of("foxes"))]
    pub foxes: Option<usize>,
    /// Buses on the roads, stopping at the bus stops (fewer if the roads have no room):
    /// `--count buses=N`.
    #[arg(long, value_name = "N", value_parser = count_of("buses"))]
    pub buses: Option<usize>,
    /// Intersections per side of the road grid; by default the smallest, from 3, on which
    /// the cars take at most half the room.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(2..=64))]
    pub town_size: Option<u16>,
    /// Seed of the simulation: the same seed gives the same town and traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Advance the simulation by exactly this many seconds per rendered frame instead of
    /// following the wall clock (makes runs and screenshots repeatable).
    #[arg(long, value_name = "SECONDS", value_parser = parse_fixed_dt)]
    pub fixed_dt: Option<f32>,
    /// Simulated seconds per real second at start (the window's + and - halve and double
    /// it); the HUD and the headless status line show the rate reached.
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_time_scale)]
    pub time_scale: f32,
    /// The hour the town starts at, `HH:MM` (22:00 is night: lamps, lit windows and signals
    /// glowing in the dark).
    #[arg(long, value_name = "HH:MM", default_value = "12:00", value_parser = props_scene::town::daylight::parse_hours)]
    pub time_of_day: f64,
    /// Minutes of simulated time a whole day lasts (0 holds the hour); the HUD sets both.
    #[arg(long, value_name = "MINUTES", default_value_t = 24.0, value_parser = parse_day_length)]
    pub day_length: f64,
    /// Draw no sun shadows (each of the three shadow cascades draws every opaque prop once
    /// more).
    #[arg(long)]
    pub no_shadows: bool,
    /// Samples per pixel of the anti-aliasing: 4 (MSAA, the default) or 1 (none: for a GPU
    /// short of pixel throughput, where the samples cost more than the shading).
    #[arg(long, value_name = "1|4", default_value_t = 4, value_parser = parse_samples)]
    pub msaa: u32,
    /// Render offscreen, without a window.
    #[arg(long)]
    pub headless: bool,
    /// Open the model previewer on this glTF file instead of the town (reloads on save).
    /// `cargo xtask preview FILE` runs this. With `--headless`, its frames are drawn offscreen
    /// without the HUD (`--frames`, `--fixed-dt` and `--screenshot` as for the town).
    #[arg(long, value_name = "FILE")]
    pub preview: Option<PathBuf>,
    /// The previewer's clip, by name or index (default: the first).
    #[arg(long, value_name = "NAME|INDEX", requires = "preview")]
    pub clip: Option<String>,
    /// The previewer's clip time, seconds: starts paused there (default: playing from 0).
    #[arg(long, value_name = "SECONDS", requires = "preview")]
    pub time: Option<f32>,
    /// Start the previewer's treadmill at this speed, metres a second: the model walked as
    /// the town walks people, with the base person's clips when a humanoid has none.
    #[arg(long, value_name = "M/S", requires = "preview")]
    pub walk: Option<f32>,
    /// Exit after this many frames.
    #[arg(long)]
    pub frames: Option<u64>,
    /// Exit after this many seconds of wall-clock time.
    #[arg(long, value_name = "SECONDS")]
    pub run_for: Option<f64>,
    /// Write the last frame to this PNG file (in a window, the last of `--frames`, as shown
    /// with the HUD; F12 writes one any time, named by the time).
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// The mods folder to load and watch (`mods` in the current folder; where there is none, the
    /// `mods` of the repository the game was built in).
    #[arg(long, value_name = "DIR", default_value = "mods")]
    pub mods: PathBuf,
    /// Heap memory the mods' models may take together, MiB (a mod that would pass it is
    /// refused and the others stay); a mod's images count only while it loads: once it
    /// shows, they are on the GPU alone.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub mods_ram_mib: u64,
    /// GPU memory the mods' models may take together, MiB (a mod that would pass it is
    /// refused and the others stay).
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub mods_vram_mib: u64,
    /// Destroys the GPU device after this many frames, to exercise its recovery (testing).
    #[arg(long, value_name = "FRAMES", hide = true)]
    pub lose_device_after: Option<u64>,
    /// The folder of the base assets (`assets` in the current folder; where there is none, the
    /// `assets` of the repository the game was built in).
    #[arg(long, value_name = "DIR", default_value = "assets")]
    pub assets: PathBuf,
    /// Log lines as text or as one JSON object per line.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Image size of headless runs and screenshots, or the window's first size, `WIDTHxHEIGHT`.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
}

impl Args {
    /// The numbers of props asked for, by kind: `--count` and its aliases (`--windmills N`
    /// is `--count windmills=N`), the last of one kind winning.
    pub fn kind_counts(&self) -> std::collections::BTreeMap<String, usize> {
        let aliases =
            [("windmills", self.windmills), ("cars", self.cars), ("foxes", self.foxes), ("buses", self.buses)];
        let aliases = aliases.into_iter().filter_map(|(kind, count)| Some((kind.to_owned(), count?)));
        aliases.chain(self.counts.iter().cloned()).collect()
    }

    /// Mesh LOD as asked (`--lod-error-px`), the rest at its defaults.
    pub fn mesh_lod(&self) -> props_anim::runtime::MeshLod {
        let lod = props_anim::runtime::MeshLod::default();
        props_anim::runtime::MeshLod { max_error_px: self.lod_error_px.unwrap_or(lod.max_error_px), ..lod }
    }

    /// How the renderer draws into targets of `format`: shadows and anti-aliasing as asked,
    /// each pass timed (the HUD and the headless status lines show it).
    pub fn renderer_config(&self, format: wgpu::TextureFormat) -> props_render::RendererConfig {
        props_render::RendererConfig {
            shadows: !self.no_shadows,
            sample_count: self.msaa,
            pass_timing: true,
            ..props_render::RendererConfig::new(format)
        }
    }

    /// Resolves the default `assets` and `mods` folders when the game is started from another
    /// folder than the repository root (`cargo run` from `game/`, say): a relative default
    /// that does not exist here is taken from the repository the binary was built in.
    pub fn locate_folders(&mut self) {
        let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for (folder, default) in [(&mut self.assets, "assets"), (&mut self.mods, "mods")] {
            if folder.as_os_str() == default && !folder.exists() && repository.join(default).is_dir() {
                *folder = repository.join(default);
            }
        }
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// `LEVEL target: message key=value ...`
    Text,
    /// One JSON object per line.
    Json,
}

/// Parses `KIND=N`: the name of one of the town's kinds whose number the game chooses, and a
/// number of props it takes.
fn parse_count(text: &str) -> Result<(String, usize), String> {
    let (kind, count) = text.split_once('=').ok_or("expected KIND=N, e.g. cars=200")?;
    let count = count
        .trim()
        .parse::<usize>()
        .map_err(|_| format!("invalid count {count:?} in {text:?}: expected a whole number"))?;
    let kind = kind.trim();
    check_count(kind, count)?;
    Ok((kind.to_owned(), count))
}

/// Checks that the town has a kind named `kind` whose number the game chooses, and that it
/// takes `count` props.
fn check_count(kind: &str, count: usize) -> Result<(), String> {
    let mut kinds = props_scene::kinds::town();
    let counted: Vec<&str> = kinds.iter().filter(|k| k.count().is_some()).map(|k| k.name()).collect();
    let known = format!("the town's counted kinds are {}", counted.join(", "));
    let Some(found) = kinds.iter_mut().find(|k| k.name() == kind) else {
        return Err(format!("no kind named {kind:?}: {known}"));
    };
    found.set_count(count).map_err(|error| format!("{error} ({known})"))
}

/// The parser of `--KIND N`, an alias of `--count KIND=N`.
fn count_of(kind: &'static str) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |text| {
        let count =
            text.trim().parse::<usize>().map_err(|_| format!("invalid count {text:?}: expected a whole number"))?;
        check_count(kind, count).map(|()| count)
    }
}

/// Parses a time scale: 1/16 to 16.
fn parse_time_scale(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(scale) if (1.0 / 16.0..=16.0).contains(&scale) => Ok(scale),
        _ => Err(format!("invalid time scale {text:?}: give a number from 0.0625 to 16")),
    }
}

/// Parses a day's length in minutes: 0 (the hour holds) to a week.
fn parse_day_length(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(minutes) if (0.0..=10_080.0).contains(&minutes) => Ok(minutes),
        _ => Err(format!("invalid day length {text:?}: give minutes from 0 (the hour holds) to 10080")),
    }
}

/// Parses `WIDTHxHEIGHT`.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text.split_once('x').ok_or("expected WIDTHxHEIGHT, e.g. 1280x720")?;
    let parse = |s: &str| s.trim().parse::<u32>().ok().filter(|v| (1..=16384).contains(v));
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("invalid size {text:?}: expected WIDTHxHEIGHT with 1..=16384 each")),
    }
}

/// Parses a positive, finite number of seconds of at most one second.
fn parse_fixed_dt(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 1.0 => Ok(seconds),
        _ => Err(format!("invalid time step {text:?}: expected seconds in (0, 1], e.g. 0.016666")),
    }
}

/// Parses samples per pixel: 1 or 4 (what the renderer draws with).
fn parse_samples(text: &str) -> Result<u32, String> {
    match text.trim() {
        "1" => Ok(1),
        "4" => Ok(4),
        _ => Err(format!("invalid samples per pixel {text:?}: expected 1 (no anti-aliasing) or 4")),
    }
}

/// Parses an error on screen: a positive number of pixels, at most 100.
fn parse_error_px(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(px) if px > 0.0 && px <= 100.0 => Ok(px),
        _ => Err(format!("invalid error {text:?}: expected pixels in (0, 100], e.g. 0.5")),
    }
}

/// Parses a budget: a positive number of milliseconds, at most 1000.
fn parse_budget(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(ms) if ms > 0.0 && ms <= 1000.0 => Ok(ms),
        _ => Err(format!("invalid budget {text:?}: expected milliseconds in (0, 1000], e.g. 1.5")),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;

    #[test]
    fn the_issue_s_example_parses() {
        let args = Args::try_parse_from([
            "game",
            "--headless",
            "--frames",
            "120",
            "--screenshot",
            "out.png",
            "--fixed-dt",
            "0.0166",
        ])
        .expect("parses");
        assert!(args.headless);
        assert_eq!(args.frames, Some(120));
        assert_eq!(args.size, (1280, 720));
        assert_eq!(args.fixed_dt, Some(0.0166));
        let city = Args::try_parse_from([
            "game",
            "--windmills",
            "100000",
            "--cars",
            "10000",
            "--foxes",
            "10000",
            "--anim-budget-ms",
            "1",
            "--town-size",
            "40",
        ])
        .expect("parses");
        let counts = city.kind_counts();
        assert_eq!(
            (counts["windmills"], counts["cars"], counts["foxes"], city.town_size),
            (100_000, 10_000, 10_000, Some(40))
        );
        assert!(!counts.contains_key("buses"), "a kind not named keeps its default");
        assert_eq!(city.renderer_config(wgpu::TextureFormat::Rgba8UnormSrgb).sample_count, 4, "MSAA by default");
        let plain = Args::try_parse_from(["game", "--msaa", "1"]).expect("parses");
        assert_eq!(plain.renderer_config(wgpu::TextureFormat::Rgba8UnormSrgb).sample_count, 1);
        assert!(Args::try_parse_from(["game", "--msaa", "2"]).is_err(), "the renderer draws 1 or 4 samples");
        assert_eq!(city.anim_budget_ms, Some(1.0));
        assert_eq!(city.mesh_lod(), props_anim::runtime::MeshLod::default(), "mesh LOD at its defaults");
        let fine = Args::try_parse_from(["game", "--lod-error-px", "0.3"]).expect("parses").mesh_lod();
        assert_eq!(fine, props_anim::runtime::MeshLod { max_error_px: 0.3, ..city.mesh_lod() });
    }

    #[test]
    fn counts_name_the_counted_kinds_and_the_flags_are_their_aliases() {
        let args =
            Args::try_parse_from(["game", "--count", "foxes=7", "--cars", "5", "--count", "cars=9", "--buses=0"])
                .expect("parses");
        let counts = args.kind_counts();
        assert_eq!(
            counts.into_iter().collect::<Vec<_>>(),
            [("buses".into(), 0), ("cars".into(), 9), ("foxes".into(), 7)]
        );
        // Malformed, no such kind, a kind the town places itself, more than the kind takes.
        for bad in ["cars", "cars=", "=3", "cars=-1", "cars=x", "trams=3", "traffic_lights=2", "windmills=100001"] {
            assert!(Args::try_parse_from(["game", "--count", bad]).is_err(), "{bad} is refused");
        }
    }

    #[test]
    fn the_lod_and_sharing_help_state_the_defaults() {
        use clap::CommandFactory as _;
        let command = Args::command();
        let help = command
            .get_arguments()
            .find(|a| a.get_id() == "no_lod")
            .and_then(|a| a.get_help())
            .expect("--no-lod has help")
            .to_string();
        let lod = props_anim::runtime::UpdateRateLod::default();
        let stated =
            format!("beyond {} m every {} frame and beyond {} m every {}th", lod.near, "2nd", lod.far, lod.far_rate);
        assert_eq!(lod.mid_rate, 2, "the help says 2nd");
        assert!(help.replace('\n', " ").contains(&stated), "{help:?} does not say {stated:?}");
        let help = command.get_arguments().find(|a| a.get_id() == "no_sharing").and_then(|a| a.get_help());
        let help = help.expect("--no-sharing has help").to_string().replace('\n', " ");
        let q = props_anim::runtime::Quantization::default();
        assert_eq!((q.time, q.weight, q.angle), (1.0 / 60.0, 1.0 / 32.0, 1f32.to_radians()));
        assert!(help.contains("1/60 s of clip time, 1/32 of a blend weight and one degree"), "{help}");
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [
            &["game", "--windmills", "100001"][..],
            &["game", "--size", "0x10"],
            &["game", "--fixed-dt", "-1"],
            &["game", "--anim-budget-ms", "0"],
            &["game", "--lod-error-px", "0"],
            &["game", "--lod-error-px", "nan"],
            &["game", "--foxes", "100001"],
            &["game", "--town-size", "1"],
        ] {
            assert!(Args::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}
