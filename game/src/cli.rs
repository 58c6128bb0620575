//! Command-line options.

use std::path::PathBuf;

/// The animated-props demo: a mini traffic town with windmills, cars, traffic lights and
/// foxes, all GPU-skinned, with live-reloaded mods.
#[derive(Clone, Debug, clap::Parser)]
#[command(name = "game", version)]
pub struct Args {
    /// Windmills on the hills around the town (up to 100000).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub windmills: u32,
    /// Windmills whose nacelle yaw and rotor angle round to the same multiples of this many
    /// degrees share one pose (posed once per frame, a few bytes of upload each; a point r
    /// metres from an axis moves by at most r * step / 2 in radians); 0 poses every windmill
    /// exactly.
    #[arg(long, value_name = "DEGREES", default_value_t = 1.0, value_parser = parse_pose_step)]
    pub windmill_pose_step: f32,
    /// Pose every fox every step: turns off update-rate LOD, which poses foxes beyond 50 m
    /// every 2nd step, beyond 150 m every 4th and out of view every 8th.
    #[arg(long)]
    pub no_lod: bool,
    /// Cars on the roads.
    #[arg(long, default_value_t = 40)]
    pub cars: u32,
    /// Seed of the simulation: the same seed gives the same town and traffic.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Advance the simulation by exactly this many seconds per rendered frame instead of
    /// following the wall clock (makes runs and screenshots repeatable).
    #[arg(long, value_name = "SECONDS", value_parser = parse_fixed_dt)]
    pub fixed_dt: Option<f32>,
    /// Render offscreen, without a window.
    #[arg(long)]
    pub headless: bool,
    /// Exit after this many frames.
    #[arg(long)]
    pub frames: Option<u64>,
    /// Exit after this many seconds of wall-clock time.
    #[arg(long, value_name = "SECONDS")]
    pub run_for: Option<f64>,
    /// Write the last frame to this PNG file (headless runs).
    #[arg(long, value_name = "FILE.png", requires = "headless")]
    pub screenshot: Option<PathBuf>,
    /// The mods folder to load and watch.
    #[arg(long, value_name = "DIR", default_value = "mods")]
    pub mods: PathBuf,
    /// Heap memory the mods' models may take together, MiB (a mod that would pass it is
    /// refused and the others stay).
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub mods_ram_mib: u64,
    /// GPU memory the mods' models may take together, MiB (a mod that would pass it is
    /// refused and the others stay).
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub mods_vram_mib: u64,
    /// Destroys the GPU device after this many frames, to exercise its recovery (testing).
    #[arg(long, value_name = "FRAMES", hide = true)]
    pub lose_device_after: Option<u64>,
    /// The folder of the base assets.
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
    /// [`Args::windmill_pose_step`] as the scene takes it: radians, `None` when exact.
    pub fn windmill_pose_step_radians(&self) -> Option<f32> {
        (self.windmill_pose_step > 0.0).then(|| self.windmill_pose_step.to_radians())
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

/// Parses a pose step: 0 (exact) or 0.01 to 180 degrees.
fn parse_pose_step(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(degrees) if degrees == 0.0 || (0.01..=180.0).contains(&degrees) => Ok(degrees),
        _ => Err(format!("invalid pose step {text:?}: expected 0 (exact) or 0.01 to 180 degrees")),
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
        assert_eq!(args.windmill_pose_step_radians(), Some(1f32.to_radians()));
        let exact = Args::try_parse_from(["game", "--windmill-pose-step", "0"]).expect("parses");
        assert_eq!(exact.windmill_pose_step_radians(), None);
    }

    #[test]
    fn the_no_lod_help_states_the_default_rates() {
        use clap::CommandFactory as _;
        let command = Args::command();
        let help = command
            .get_arguments()
            .find(|a| a.get_id() == "no_lod")
            .and_then(|a| a.get_help())
            .expect("--no-lod has help")
            .to_string();
        let lod = props_anim::UpdateRateLod::default();
        let stated = format!(
            "beyond {} m every {} step, beyond {} m every {}th and out of view every {}th",
            lod.near, "2nd", lod.far, lod.far_rate, lod.hidden_rate
        );
        assert_eq!(lod.mid_rate, 2, "the help says 2nd");
        assert!(help.replace('\n', " ").contains(&stated), "{help:?} does not say {stated:?}");
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [
            &["game", "--windmills", "100001"][..],
            &["game", "--size", "0x10"],
            &["game", "--fixed-dt", "-1"],
            &["game", "--windmill-pose-step", "-1"],
            &["game", "--windmill-pose-step", "0.001"],
            &["game", "--screenshot", "a.png"],
        ] {
            assert!(Args::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}
