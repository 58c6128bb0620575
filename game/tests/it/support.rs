//! Running the game binary and reading its JSON log lines.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// The models on the GPU of a game without mods: the ground's land and flat ground, and the town's
/// eight base models (the lot's houses and the pedestrian among them).
pub const BASE_GPU_MODELS: u64 = 10;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A temporary folder, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty folder named after `name` and the process.
    pub fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("props-game-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create a temporary folder");
        Self(path)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The game binary with `args`, run from the repository root (for `assets/`), quiet
/// except for the game's own info lines.
pub fn game(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_game"));
    command.current_dir(root()).args(args).env("RUST_LOG", "info,wgpu_core=warn,wgpu_hal=error,naga=warn");
    command
}

/// Whether the game can render here: an adapter exists, or we are under CI (where GPU tests
/// must run and a missing adapter is a failure, not a skip).
pub fn have_gpu() -> bool {
    if std::env::var_os("CI").is_some() {
        return true;
    }
    match pollster::block_on(props_render::GpuContext::headless()) {
        Ok(_) => true,
        Err(error) => {
            eprintln!("SKIPPED: no GPU adapter ({error}); install mesa-vulkan-drivers to run the game's tests");
            false
        }
    }
}

/// `game` run under Xvfb (`xvfb-run`, a 1024x768 screen, X11 forced), from the same folder
/// and with the same environment; `None` when it cannot run here (no GPU, or no Xvfb outside
/// CI, where its absence is a failure).
pub fn under_xvfb(game: &Command) -> Option<Command> {
    if !have_gpu() {
        return None;
    }
    if Command::new("xvfb-run").arg("--help").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "xvfb-run is missing under CI; .ci/run installs the xvfb package");
        eprintln!("SKIPPED: xvfb-run not installed (Debian: apt-get install xvfb xauth)");
        return None;
    }
    let mut command = Command::new("xvfb-run");
    command
        .args(["-a", "-s", "-screen 0 1024x768x24"])
        .arg(game.get_program())
        .args(game.get_args())
        .current_dir(game.get_current_dir().expect("the game runs from the repository root"))
        .envs(game.get_envs().filter_map(|(k, v)| Some((k, v?))))
        // Make sure winit picks X11 (Xvfb), not a Wayland compositor of the desktop.
        .env_remove("WAYLAND_DISPLAY");
    Some(command)
}

/// A running game whose stderr is read line by line as JSON (`--log-format json`).
pub struct Running {
    child: Child,
    lines: Receiver<serde_json::Value>,
    /// Every line seen so far, for failure messages.
    pub seen: Vec<serde_json::Value>,
}

impl Running {
    /// Starts `command` (which must log JSON) with stderr captured.
    pub fn start(mut command: Command) -> Self {
        let mut child = command.stderr(Stdio::piped()).stdout(Stdio::null()).spawn().expect("start the game");
        let stderr = child.stderr.take().expect("captured stderr");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let value = serde_json::from_str(&line).unwrap_or_else(|_| serde_json::json!({ "raw": line }));
                if sender.send(value).is_err() {
                    break;
                }
            }
        });
        Self { child, lines, seen: Vec::new() }
    }

    /// [`Running::headless_with_mods`] on a fresh mods folder (in a [`TempDir`] named after
    /// `name`, removed when it drops) with `subfolders` made in it first.
    pub fn with_fresh_mods(name: &str, subfolders: &[&str], seconds: u32) -> (TempDir, PathBuf, Self) {
        let dir = TempDir::new(name);
        let mods = dir.path().join("mods");
        std::fs::create_dir_all(&mods).expect("mods folder");
        for sub in subfolders {
            std::fs::create_dir_all(mods.join(sub)).expect("a mods subfolder");
        }
        let running = Self::headless_with_mods(&mods, seconds);
        (dir, mods, running)
    }

    /// Starts a small headless game (a few props, a tiny image) with JSON logs, watching
    /// `mods` for `seconds`, and waits until it renders.
    fn headless_with_mods(mods: &Path, seconds: u32) -> Self {
        let seconds = seconds.to_string();
        let mut command = game(&[
            "--headless",
            "--run-for",
            &seconds,
            "--windmills",
            "10",
            "--cars",
            "4",
            "--size",
            "64x64",
            "--log-format",
            "json",
            "--mods",
        ]);
        command.arg(mods);
        let mut running = Self::start(command);
        running.expect("rendering offscreen", Duration::from_secs(30), |_| true);
        running
    }

    /// Waits up to `timeout` for a line whose `message` is `message` and which satisfies
    /// `wanted`, and returns it.
    ///
    /// # Panics
    /// With every line seen when none comes.
    #[track_caller]
    pub fn expect(
        &mut self,
        message: &str,
        timeout: Duration,
        wanted: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = Instant::now() + timeout;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            let Ok(line) = self.lines.recv_timeout(left) else { break };
            self.seen.push(line.clone());
            if line["message"] == message && wanted(&line) {
                return line;
            }
        }
        panic!("no `{message}` line within {timeout:?}; the game logged:\n{}", self.log());
    }

    /// Asks the game to stop (SIGTERM, as a service manager would) and waits for it: see
    /// [`Self::wait`].
    pub fn stop(self, timeout: Duration) -> (bool, Vec<serde_json::Value>) {
        let status = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        assert!(status.is_ok_and(|s| s.success()), "could not signal the game");
        self.wait(timeout)
    }

    /// Waits for the game to exit and returns whether it succeeded, reading the rest of its log.
    pub fn wait(mut self, timeout: Duration) -> (bool, Vec<serde_json::Value>) {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the game") {
                // The reader thread ends at EOF; take what it read.
                std::thread::sleep(Duration::from_millis(100));
                self.seen.extend(self.lines.try_iter());
                return (status.success(), std::mem::take(&mut self.seen));
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the game did not exit within {timeout:?}; it logged:\n{}", self.log());
            }
            self.seen.extend(self.lines.try_iter());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A field of the game's `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`: its resident and
    /// peak resident memory); `None` where there is no such file.
    pub fn memory_kib(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|line| line.starts_with(&format!("{field}:")))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    fn log(&self) -> String {
        self.seen.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
