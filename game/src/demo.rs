//! The demo's state, shared by the windowed and headless front ends: the town, its models
//! and mods, the camera, the controls' settings, and the frame data built each frame.

use std::sync::Arc;
use std::time::Duration;

use glam::Vec3;
use props_anim::UpdateRateLod;
use props_frame::{Frame, FrameData, Light, SKY};
use props_mods::{ModConfig, ModWatcher};
use props_render::{FrameStats, Renderer};
use props_scene::{FixedStep, Scene, SceneConfig, SceneCounts, Viewer};

use crate::camera::OrbitCamera;
use crate::cli::Args;
use crate::lot::GpuChange;
use crate::models::{ModMessage, ModelRegistry};
use crate::roles::GROUND;
use crate::timings::{Phase, PhaseTimings};

/// Simulation step, seconds.
const STEP: f32 = 1.0 / 60.0;
/// Most steps one frame may run (a slower frame drops time rather than snowballing).
const MAX_STEPS: u32 = 8;
/// Windmills added or removed per key press.
pub const WINDMILL_BATCH: usize = 100;
/// Props per model whose skeleton the skeleton view draws.
const SKELETONS_PER_MODEL: usize = 64;
/// How long the game waits at start for the mods already in the folder.
const INITIAL_MODS_TIMEOUT: Duration = Duration::from_secs(30);

/// What the player can ask for (keys in the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
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
    watcher: Option<ModWatcher>,
    step: FixedStep,
    fixed_dt: Option<f32>,
    frame: FrameData,
    ground_radius: f32,
    ground_change: Option<GpuChange>,
    /// The camera.
    pub camera: OrbitCamera,
    start_camera: OrbitCamera,
    /// Width / height of the last frame drawn (what the camera sees, for update-rate LOD).
    aspect: f32,
    /// Update-rate LOD for the foxes, measured from the camera; `None` when off.
    lod: Option<UpdateRateLod>,
    /// Whether the simulation is stopped.
    pub paused: bool,
    /// Simulated seconds per real second.
    pub time_scale: f32,
    /// Whether skeletons are drawn.
    pub show_skeletons: bool,
    /// The latest mod event.
    pub last_mod: Option<ModMessage>,
    /// Phase timings.
    pub timings: PhaseTimings,
}

impl Demo {
    /// Loads the base assets, builds the town, starts watching the mods folder and applies
    /// the mods already there.
    pub fn new(args: &Args) -> anyhow::Result<Self> {
        let config = SceneConfig {
            seed: args.seed,
            windmills: args.windmills as usize,
            cars: args.cars as usize,
            windmill_pose_step: args.windmill_pose_step_radians(),
            ..SceneConfig::default()
        };
        let mut models = ModelRegistry::load(&args.assets, &args.mods)?;
        let mut scene = Scene::new(config, models.scene_models())?;
        // In the park block north-east of the centre, clear of the roads.
        let block = scene.config().block;
        models.lot_mut().place_at(Vec3::new(block * 0.15, 0.0, -block * 0.5));
        let mut last_mod = None;
        let watcher = match ModWatcher::start(&args.mods, ModConfig::default()) {
            Ok(watcher) => {
                for event in watcher.wait_until_ready(INITIAL_MODS_TIMEOUT) {
                    last_mod = models.apply(event, &mut scene).or(last_mod);
                }
                Some(watcher)
            }
            Err(error) => {
                tracing::error!(error = %error, "mods are off: the mods folder cannot be watched");
                last_mod = Some(ModMessage { text: format!("mods are off: {error}"), is_error: true });
                None
            }
        };
        let camera =
            OrbitCamera { distance: scene.terrain().flat_radius() * 0.8, pitch: 0.42, ..OrbitCamera::default() };
        let mut demo = Self {
            scene,
            models,
            watcher,
            step: FixedStep::new(STEP, MAX_STEPS),
            fixed_dt: args.fixed_dt,
            frame: FrameData::default(),
            ground_radius: 0.0,
            ground_change: None,
            camera,
            start_camera: camera,
            aspect: args.size.0 as f32 / args.size.1 as f32,
            lod: (!args.no_lod).then(UpdateRateLod::default),
            paused: false,
            time_scale: 1.0,
            show_skeletons: false,
            last_mod,
            timings: PhaseTimings::default(),
        };
        demo.fit_ground()?;
        demo.extract();
        Ok(demo)
    }

    /// Rebuilds the ground when the windmills have spread beyond it.
    fn fit_ground(&mut self) -> anyhow::Result<()> {
        let needed = self.scene.windmill_extent().max(self.scene.terrain().hills_radius()) + 60.0;
        if needed > self.ground_radius {
            self.ground_radius = needed * 1.25;
            let ground = crate::ground::build(&self.scene, self.ground_radius)?;
            self.ground_change = Some(GpuChange::Set(GROUND, Arc::new(ground)));
        }
        Ok(())
    }

    /// One frame: applies mod events, advances the simulation by `elapsed` wall-clock seconds
    /// (or by `--fixed-dt`), poses every prop and builds the frame data.
    pub fn update(&mut self, elapsed: Duration) {
        let mut timings = self.timings;
        timings.measure(Phase::Simulate, || self.simulate(elapsed));
        timings.measure(Phase::Animate, || self.extract());
        self.timings = timings;
    }

    fn simulate(&mut self, elapsed: Duration) {
        if let Some(watcher) = &self.watcher {
            for event in watcher.poll() {
                self.last_mod = self.models.apply(event, &mut self.scene).or(self.last_mod.take());
            }
        }
        let seconds = self.fixed_dt.unwrap_or(elapsed.as_secs_f32());
        let scaled = if self.paused { 0.0 } else { seconds * self.time_scale };
        let steps = self.step.advance(scaled);
        if let Some(lod) = self.lod {
            let view_projection = self.camera.to_camera(self.aspect).view_projection;
            self.scene.set_viewer(Some(Viewer { eye: self.camera.eye(), view_projection, lod }));
        }
        for _ in 0..steps {
            self.scene.step(STEP);
        }
        self.models.lot_mut().animate(steps as f32 * STEP);
    }

    fn extract(&mut self) {
        let frame = &mut self.frame;
        frame.clear();
        frame.push_instance(&glam::Affine3A::IDENTITY, 1);
        frame.end_batch(GROUND);
        self.scene.extract(frame);
        self.models.lot().extract(frame);
        if self.show_skeletons {
            self.scene.skeleton_lines(SKELETONS_PER_MODEL, &mut frame.lines);
            self.models.lot().skeleton_lines(&mut frame.lines);
        }
    }

    /// Applies the model uploads and removals queued by loads and mod events.
    fn sync_gpu(&mut self, renderer: &mut Renderer) {
        let changes = self.models.take_gpu_changes().into_iter().chain(self.ground_change.take());
        for change in changes {
            match change {
                GpuChange::Set(id, model) => renderer.set_model(id, &model),
                GpuChange::Remove(id) => renderer.remove_model(id),
            }
        }
    }

    /// Uploads what changed and records this frame's drawing into `target` (of `size` pixels,
    /// in the renderer's colour format); the caller submits the encoder.
    pub fn record(
        &mut self,
        renderer: &mut Renderer,
        device: &wgpu::Device,
        target: &wgpu::TextureView,
        size: (u32, u32),
    ) -> (wgpu::CommandEncoder, FrameStats) {
        let mut timings = self.timings;
        let recorded = timings.measure(Phase::Upload, || {
            self.sync_gpu(renderer);
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
            let aspect = size.0 as f32 / size.1.max(1) as f32;
            self.aspect = aspect;
            let stats = renderer.render(&mut encoder, target, size, &self.frame(aspect));
            (encoder, stats)
        });
        self.timings = timings;
        recorded
    }

    /// The frame to draw, for a target of `aspect` (width / height).
    fn frame(&self, aspect: f32) -> Frame<'_> {
        Frame {
            camera: self.camera.to_camera(aspect),
            light: Light::default(),
            clear_color: SKY,
            palettes: &self.frame.palettes,
            instances: &self.frame.instances,
            batches: &self.frame.batches,
            lines: &self.frame.lines,
        }
    }

    /// Carries out a player's request.
    pub fn act(&mut self, action: Action) {
        match action {
            Action::TogglePause => self.paused = !self.paused,
            Action::Faster => self.time_scale = (self.time_scale * 2.0).min(16.0),
            Action::Slower => self.time_scale = (self.time_scale * 0.5).max(1.0 / 16.0),
            Action::ToggleSkeletons => self.show_skeletons = !self.show_skeletons,
            Action::AddWindmills => {
                self.scene.add_windmills(WINDMILL_BATCH);
                if let Err(error) = self.fit_ground() {
                    tracing::error!(error = %error, "the ground could not be rebuilt");
                }
            }
            Action::RemoveWindmills => {
                self.scene.remove_windmills(WINDMILL_BATCH);
            }
            Action::ResetCamera => self.camera = self.start_camera,
        }
        tracing::debug!(?action, paused = self.paused, time_scale = self.time_scale, "player action");
    }

    /// What the scene holds now.
    pub fn counts(&self) -> SceneCounts {
        self.scene.counts()
    }

    /// Simulated seconds since the start.
    pub fn sim_time(&self) -> f64 {
        self.scene.time()
    }

    /// Mods showing now.
    pub fn mod_count(&self) -> usize {
        self.models.mod_count()
    }
}
