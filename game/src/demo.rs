//! The demo's state, shared by the windowed and headless front ends: the town, its models
//! and mods, the camera, the controls' settings, and the frame data built each frame.

use std::path::Path;
use std::time::Duration;

use glam::Vec3;
use props_anim::{runtime::Quantization, runtime::UpdateRateLod};
use props_crowd::{AnimationStats, PosingConfig};
use props_frame::{Frame, FrameData, OrbitCamera};
use props_mods::ModConfig;
use props_render::{FrameStats, Renderer};
use props_scene::kinds::windmills::Windmills;
use props_scene::{FixedStep, RateMeter, Scene, SceneConfig};

use crate::cli::Args;
use crate::gpu::Gpu;
use crate::ground::Ground;
use crate::mod_list::ModList;
use crate::models::{ModMessage, ModelRegistry, TownKind};
use crate::timings::{Phase, PhaseTimings};

/// Simulation step, seconds.
const STEP: f32 = 1.0 / 60.0;
/// Most steps one frame may run at x1, and per unit of time scale above it (a slower frame
/// drops time rather than snowballing; the HUD shows the rate reached).
const MAX_STEPS: u32 = 8;
/// Real time the steps of one frame may take before the rest of the frame's steps are
/// dropped: catching up is bounded, and the reached rate says what it cost.
const STEP_BUDGET: Duration = Duration::from_millis(40);
/// Windmills added or removed per key press.
pub const WINDMILL_BATCH: usize = 100;
/// Props per model whose skeleton the skeleton view draws.
const SKELETONS_PER_MODEL: usize = 64;

/// What the player can ask for (keys in the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerAction {
    /// Stop or resume the simulation.
    TogglePause,
    /// Double the time scale.
    Faster,
    /// Halve the time scale.
    Slower,
    /// Show or hide skeletons.
    ToggleSkeletons,
    /// Add [`WINDMILL_BATCH`] windmills.
    AddWindmills,
    /// Remove [`WINDMILL_BATCH`] windmills.
    RemoveWindmills,
    /// Put the camera back where it started.
    ResetCamera,
}

/// Everything the demo shows, and how it is shown.
pub struct Demo {
    scene: Scene,
    models: ModelRegistry,
    step: FixedStep,
    /// The time scale reached lately.
    rate: RateMeter,
    /// The prop the player picked.
    selected: Option<hecs::Entity>,
    /// Whether the camera follows it.
    pub follow: bool,
    fixed_dt: Option<f32>,
    frame: FrameData,
    ground: Ground,
    /// The camera.
    pub camera: OrbitCamera,
    start_camera: OrbitCamera,
    /// Width / height of the last frame drawn (what the camera sees, for culling).
    aspect: f32,
    /// Whether the simulation is stopped.
    pub paused: bool,
    /// Simulated seconds per real second.
    pub time_scale: f32,
    /// Whether skeletons are drawn.
    pub show_skeletons: bool,
    /// Phase timings.
    pub timings: PhaseTimings,
}

impl Demo {
    /// Loads the base assets (onto `gpu`), builds the town, starts watching the mods folder
    /// and applies the mods already there.
    pub fn new(args: &Args, gpu: &mut Gpu) -> anyhow::Result<Self> {
        let posing = PosingConfig {
            sharing: (!args.no_sharing).then(Quantization::default),
            lod: if args.no_lod { UpdateRateLod::OFF } else { UpdateRateLod::default() },
            mesh_lod: (!args.no_mesh_lod).then(|| args.mesh_lod()),
            animation_budget_ms: args.anim_budget_ms,
            threads: usize::from(args.threads),
        };
        let config = SceneConfig {
            seed: args.seed,
            counts: args.kind_counts(),
            grid: args.town_size.map(usize::from),
            posing,
            time_of_day: args.time_of_day,
            day_minutes: args.day_length,
            ..SceneConfig::default()
        };
        // Images larger than the GPU takes are downscaled on import, base assets and mods alike.
        let max_texture_dimension = gpu.max_texture_dimension();
        let base_limits = props_gltf::Limits { max_texture_dimension, ..props_gltf::Limits::default() };
        let renderer = &mut gpu.renderer;
        // The town's kinds, each loading the asset it declares.
        let kinds = props_scene::kinds::town();
        let town_kinds = kinds.iter().map(|kind| TownKind::of(kind.as_ref())).collect();
        let vram = args.mods_vram_mib << 20;
        let mut models = ModelRegistry::load(town_kinds, &args.assets, &args.mods, &base_limits, vram, renderer)?;
        let with_models = kinds.into_iter().enumerate().map(|(number, kind)| (kind, models.props_of(number)));
        let mut scene = Scene::new(config, with_models.collect::<Vec<_>>())?;
        let mut mod_config = ModConfig {
            total_bytes: args.mods_ram_mib << 20,
            total_bytes_setting: "the game's --mods-ram-mib".to_owned(),
            roles: models.sidecar_roles(),
            ..ModConfig::default()
        };
        mod_config.limits.max_texture_dimension = max_texture_dimension;
        models.watch(&args.mods, mod_config, &mut scene, renderer);
        let camera = OrbitCamera::overview(scene.terrain().flat_radius());
        let mut demo = Self {
            scene,
            models,
            step: FixedStep::new(STEP, MAX_STEPS),
            rate: RateMeter::default(),
            selected: None,
            follow: false,
            fixed_dt: args.fixed_dt,
            frame: FrameData::default(),
            ground: Ground::default(),
            camera,
            start_camera: camera,
            aspect: args.size.0 as f32 / args.size.1 as f32,
            paused: false,
            time_scale: args.time_scale,
            show_skeletons: false,
            timings: PhaseTimings::default(),
        };
        demo.ground.fit(&demo.scene)?;
        demo.ground.upload(&mut gpu.renderer)?;
        demo.animate();
        demo.extract();
        Ok(demo)
    }

    /// Uploads every model again, onto a recreated GPU device.
    pub fn upload_all(&mut self, renderer: &mut Renderer) -> anyhow::Result<()> {
        self.models.upload_all(renderer);
        self.ground.rebuild(&self.scene)?;
        self.ground.upload(renderer)
    }

    /// One frame, the same for both front ends: applies mod events (uploading their models),
    /// advances the simulation by `elapsed` wall-clock seconds (or by `--fixed-dt`), poses
    /// what the camera sees and extracts it, then, given a `target` (a view of `size` pixels
    /// in the renderer's colour format; none while a window is minimized or its surface
    /// unavailable), uploads the frame and records its drawing, returning the encoder for the
    /// caller to submit. Each phase is timed under its name (see [`Phase`]).
    pub fn frame(
        &mut self,
        gpu: &mut Gpu,
        elapsed: Duration,
        target: Option<(&wgpu::TextureView, (u32, u32))>,
    ) -> anyhow::Result<Option<(wgpu::CommandEncoder, FrameStats)>> {
        let mut timings = self.timings;
        timings.record_frame(elapsed);
        timings.measure(Phase::Simulate, || self.simulate(&mut gpu.renderer, elapsed));
        if let Some((_, size)) = target {
            self.aspect = size.0 as f32 / size.1.max(1) as f32;
            self.scene.set_view_height(size.1);
        }
        timings.measure(Phase::Animate, || self.animate());
        self.scene.record_animation_time(timings.last_ms[Phase::Animate as usize] as f32);
        timings.measure(Phase::Extract, || self.extract());
        let recorded = timings.measure(Phase::Upload, || -> anyhow::Result<_> {
            self.ground.upload(&mut gpu.renderer)?;
            let Some((view, size)) = target else { return Ok(None) };
            Ok(Some(gpu.draw("frame", (view, size), &self.frame_data())))
        });
        if let Ok(Some((_, FrameStats { pass_times: Some(times), .. }))) = &recorded {
            timings.record_passes(times);
        }
        self.timings = timings;
        recorded
    }

    fn simulate(&mut self, renderer: &mut Renderer, elapsed: Duration) {
        self.models.poll(&mut self.scene, renderer);
        let seconds = self.fixed_dt.unwrap_or(elapsed.as_secs_f32());
        let scaled = if self.paused { 0.0 } else { seconds * self.time_scale };
        self.step.set_max_steps(MAX_STEPS * self.time_scale.ceil().max(1.0) as u32);
        let due = self.step.advance(scaled);
        let started = std::time::Instant::now();
        let mut steps = 0;
        // A fixed --fixed-dt run is reproducible: it never drops steps for lack of time.
        while steps < due && (self.fixed_dt.is_some() || started.elapsed() < STEP_BUDGET) {
            self.scene.step(STEP);
            steps += 1;
        }
        if !self.paused {
            self.rate.record(f64::from(seconds), f64::from(steps) * f64::from(STEP));
        }
    }

    /// The rate of simulated to real time reached lately, beside [`Demo::time_scale`] asked.
    pub fn reached_rate(&self) -> Option<f64> {
        self.rate.rate()
    }

    /// Poses what the camera sees.
    fn animate(&mut self) {
        if let Some(at) = self.selected.filter(|_| self.follow).and_then(|e| self.scene.placement_of(e)) {
            self.camera.target = at.translation.into();
        }
        self.camera.keep_within(self.ground.radius());
        let camera = self.camera.to_camera(self.aspect);
        self.scene.set_camera(Some(camera));
        self.frame.clear();
        self.scene.animate(&mut self.frame);
    }

    /// Lists what was posed, with the ground and the debug lines.
    fn extract(&mut self) {
        let frame = &mut self.frame;
        self.scene.extract(frame);
        // The ground after the props (drawn in this order): where they hide it, its fragments
        // fail the depth test before they are shaded.
        Ground::extract(frame);
        if self.show_skeletons {
            self.scene.skeleton_lines(SKELETONS_PER_MODEL, &mut frame.lines);
        }
    }

    /// The frame to draw, seen as it was posed.
    fn frame_data(&self) -> Frame<'_> {
        let daylight = self.scene.daylight();
        self.frame.to_frame(self.camera.to_camera(self.aspect), daylight.lighting(), daylight.sky_color())
    }

    /// Carries out a player's request.
    pub fn act(&mut self, action: PlayerAction) {
        match action {
            PlayerAction::TogglePause => self.paused = !self.paused,
            PlayerAction::Faster => self.time_scale = (self.time_scale * 2.0).min(16.0),
            PlayerAction::Slower => self.time_scale = (self.time_scale * 0.5).max(1.0 / 16.0),
            PlayerAction::ToggleSkeletons => self.show_skeletons = !self.show_skeletons,
            PlayerAction::AddWindmills => {
                self.scene.with_kind(|mills: &mut Windmills, world, town, props| {
                    mills.add(world, town, props, WINDMILL_BATCH)
                });
                if let Err(error) = self.ground.fit(&self.scene) {
                    tracing::error!(error = %error, "the ground could not be rebuilt");
                }
            }
            PlayerAction::RemoveWindmills => {
                self.scene
                    .with_kind(|mills: &mut Windmills, world, _, props| mills.remove(world, props, WINDMILL_BATCH));
            }
            PlayerAction::ResetCamera => self.camera = self.start_camera,
        }
        tracing::debug!(?action, paused = self.paused, time_scale = self.time_scale, "player action");
    }

    /// How many props of each kind the scene holds now (`("cars", 40)`), in its order.
    pub fn counts(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.scene.counts()
    }

    /// Props of every kind.
    pub fn prop_count(&self) -> usize {
        self.scene.instance_count()
    }

    /// How many props of the kind named `kind` the scene holds (0 for no such kind).
    pub fn count(&self, kind: &str) -> usize {
        self.scene.count(kind)
    }

    /// What the last frame's posing did.
    pub fn animation_stats(&self) -> AnimationStats {
        self.scene.animation_stats()
    }

    /// The CPU budget of posing, milliseconds per frame, if one was set.
    pub fn animation_budget_ms(&self) -> Option<f32> {
        self.scene.config().posing.animation_budget_ms
    }

    /// Simulated seconds since the start.
    pub fn sim_time(&self) -> f64 {
        self.scene.time()
    }

    /// The latest mod event.
    pub fn last_mod(&self) -> Option<&ModMessage> {
        self.models.last_message()
    }

    /// Mods showing now.
    pub fn mod_count(&self) -> usize {
        self.models.mod_count()
    }

    /// Picks the prop under `ndc` (normalized device coordinates of the last frame's view), or
    /// none; a new pick stops following.
    pub fn pick(&mut self, ndc: glam::Vec2) {
        let (eye, direction) = self.camera.ray(self.aspect, ndc);
        self.selected = self.scene.pick(eye, direction);
        self.follow = false;
        tracing::debug!(selected = ?self.selected, "picked");
    }

    /// The picked prop, what it is doing, and where it stands.
    pub fn selected(&self) -> Option<(props_scene::PropInfo, Vec3)> {
        let entity = self.selected?;
        let info = self.scene.describe(entity)?;
        Some((info, self.scene.placement_of(entity)?.translation.into()))
    }

    /// Follows the picked prop with the camera, or stops.
    pub fn set_follow(&mut self, follow: bool) {
        self.follow = follow && self.selected.is_some();
    }

    /// Forgets the picked prop.
    pub fn unpick(&mut self) {
        (self.selected, self.follow) = (None, false);
    }

    /// The traffic's figures after the last step.
    pub fn traffic(&self) -> props_scene::town::traffic::TrafficStats {
        self.scene.traffic_stats()
    }

    /// The wind at the town's centre now.
    pub fn wind(&self) -> props_scene::town::wind::Wind {
        self.scene.wind_at(glam::Vec2::ZERO)
    }

    /// The town's time of day.
    pub fn daylight(&self) -> &props_scene::town::daylight::Daylight {
        self.scene.daylight()
    }

    /// Sets the town's time of day, for the HUD's clock.
    pub fn daylight_mut(&mut self) -> &mut props_scene::town::daylight::Daylight {
        self.scene.daylight_mut()
    }

    /// Every mod seen, for the HUD's list.
    pub fn mods(&self) -> &ModList {
        self.models.list()
    }

    /// Points the camera at the mod of `path` (relative to the mods folder), from a distance
    /// that shows it whole; false when it is not showing anywhere.
    pub fn go_to_mod(&mut self, path: &Path) -> bool {
        let Some((at, size)) = self.models.location(path, &self.scene) else { return false };
        self.camera.target = at + Vec3::Y * (size * 0.5);
        self.camera.distance = (size * 4.0).max(6.0);
        true
    }
}
