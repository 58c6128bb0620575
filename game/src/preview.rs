//! The model previewer, `game --preview FILE` (what `cargo xtask preview FILE` opens): one
//! model alone in the window, through the game's own gate and renderer.
//!
//! - Playback: clip list, play / pause, scrub, speed, loop (Space pauses, `+` `-` change the
//!   speed, R frames the model again).
//! - Overlays: skeleton (also K), the box the model fills over every clip, and the heat map of
//!   how many joints move each vertex; sliders that override the morph weights.
//! - A treadmill (`--walk M/S`): the model walked at a chosen speed as the town walks people,
//!   with the base person's clips when a humanoid has none ([`crate::treadmill`]); the humanoid
//!   bones found.
//! - The checker's report and the sidecar's error (placing it in the town is `check-assets`'s);
//!   on save of the file or its sidecar (settled, as the mods folder's reload policy has it)
//!   it is imported again off the window's thread; a refused version leaves the last good one.
//!
//! The model is drawn scaled to a fixed size around the origin (its real size is in the HUD), so
//! a 0.2 m soldier and a 100 m tower frame alike.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use glam::{Affine3A, Quat, Vec2, Vec3};
use props_anim::bounds::Extent;
use props_anim::gait::Stride;
use props_anim::humanoid::BoneMap;
use props_anim::runtime::{DrawGroup, MeshLod, UpdateRateLod, View};
use props_anim::spring::SpringState;
use props_anim::{Model, NodeId, Pose};
use props_frame::{FrameData, Lighting, ModelId, OrbitCamera, SKY};
use props_gltf::Limits;
use props_mods::{FileChange, FileWatch, Millis, ModConfig, ReloadPolicy, fitting, sidecar};
use props_render::{Renderer, box_lines, influence_heat_map, skeleton_lines};

use crate::cli::Args;
use crate::demo::PlayerAction;
use crate::gpu::Gpu;
use crate::hud::HudInput;
use crate::models::TownKind;
use crate::screen::{Drawn, Screen};
use crate::transport::Transport;
use crate::treadmill::{MAX_SPEED, Treadmill, gait_line};

/// Renderer ids of the model and of its heat map.
const MODEL: ModelId = ModelId(0);
const HEAT: ModelId = ModelId(1);
/// Radius the model is drawn at, metres.
const SHOWN_RADIUS: f32 = 2.0;
/// Samples per clip of the framing box.
const EXTENT_SAMPLES: usize = 9;
/// Colours of the skeleton and the box, linear RGBA.
const SKELETON: [f32; 4] = [1.0, 0.2, 0.8, 1.0];
const BOX: [f32; 4] = [1.0, 1.0, 0.0, 1.0];
/// Colour of refusals in the HUD.
const ERROR: egui::Color32 = egui::Color32::from_rgb(255, 110, 90);

/// Which overlays show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Overlays {
    skeleton: bool,
    bounds: bool,
    influences: bool,
}

/// The version of the model showing.
struct Shown {
    model: Arc<Model>,
    /// Its joint-influence heat map (same rig and palette).
    heat: Arc<Model>,
    /// The box it fills over every clip, model units.
    extent: Extent,
    /// Model to view: scaled to [`SHOWN_RADIUS`], centred on the origin.
    fit: Affine3A,
    pose: Pose,
    /// Every morph weight: its node, its index on the node, its label.
    morph_slots: Vec<(NodeId, usize, String)>,
    /// Per clip, its gait as its planted feet measure it, if it shows one.
    strides: Vec<Option<Stride>>,
    /// A second pose of its rig, for the treadmill's blends.
    scratch: Pose,
    /// A person's bones, found by name or given by its sidecar (for the HUD and the treadmill).
    bones: BoneMap,
    /// Metres per model unit its sidecar gives, if any.
    units: Option<f32>,
    /// The checker's report on this version.
    report: String,
    /// Its spring bones' tails (none without springs).
    springs: SpringState,
}

/// An import finished off the window's thread.
struct Imported {
    version: u64,
    result: Result<(Model, String), String>,
}

/// The previewer (see the module documentation).
pub struct Preview {
    path: PathBuf,
    limits: Limits,
    watch: FileWatch,
    started: Instant,
    imports: (Sender<Imported>, Receiver<Imported>),
    shown: Option<Shown>,
    /// Why the latest version was refused, while it is.
    refused: Option<String>,
    /// The clip asked for on the command line, by name or index.
    wanted_clip: Option<String>,
    /// Where the playback is.
    pub playback: Transport,
    overlays: Overlays,
    /// Morph weights set by the sliders, if they override the clip's.
    morph: Option<Vec<f32>>,
    camera: OrbitCamera,
    aspect: f32,
    /// The target's height, pixels (what mesh LOD picks the level for).
    height: u32,
    /// The treadmill's speed while it runs (m/s), and the model on it, or why it cannot walk.
    walk: Option<f32>,
    treadmill: Option<Result<Treadmill, String>>,
    /// The base person, whose clips a humanoid without a walk borrows: its file, then itself.
    base: (PathBuf, Option<Arc<Model>>),
    /// The level of detail drawn, and the one forced by the HUD, if any.
    level: (u8, Option<u8>),
    /// The material variant chosen in the HUD, by name (kept across versions that have it);
    /// `None`: the model's own materials.
    material_variant: Option<String>,
    /// Mesh LOD as the game picks levels (`--lod-error-px`).
    mesh_lod: MeshLod,
    /// Seconds each frame steps (`--fixed-dt`), instead of the wall clock's.
    fixed_dt: Option<f32>,
    frame: FrameData,
}

/// The camera's first view of the model: from its front right (a vehicle's door side).
fn start_camera() -> OrbitCamera {
    OrbitCamera { target: Vec3::ZERO, yaw: -0.6, pitch: 0.35, distance: SHOWN_RADIUS * 3.2 }
}

impl Preview {
    /// The previewer as the command line asks for it: `--preview FILE` at `--clip`, `--time`
    /// and `--walk`, stepped by `--fixed-dt` where given, at `--size`.
    pub fn open(args: &Args, renderer: &mut Renderer) -> Self {
        let file = args.preview.as_deref().unwrap_or(Path::new(""));
        let asked = (args.clip.clone(), args.time, args.walk);
        let base = args.assets.join("pedestrian.glb");
        let mut preview = Self::new(file, asked, &base, (args.size, args.mesh_lod()), renderer);
        preview.fixed_dt = args.fixed_dt;
        preview
    }

    /// Opens `file` (imported at once, through the gate with the limits of its folder:
    /// a mods folder's or the base assets'), at the clip `clip` names (name or index; the
    /// first by default), paused at `time` if given, else playing; on the treadmill at `walk`
    /// m/s if given (`base`: the base person's file). A refused file opens the window with the
    /// reason, waiting for a save that fixes it. Levels of detail are picked as `mesh_lod` says.
    fn new(
        file: &Path,
        (clip, time, walk): (Option<String>, Option<f32>, Option<f32>),
        base: &Path,
        (size, mesh_lod): ((u32, u32), MeshLod),
        renderer: &mut Renderer,
    ) -> Self {
        let mut preview = Self {
            path: file.to_path_buf(),
            limits: ModConfig::limits_for(file, false),
            watch: FileWatch::new(file, ReloadPolicy::DEFAULT_SETTLE),
            started: Instant::now(),
            imports: mpsc::channel(),
            shown: None,
            refused: None,
            wanted_clip: clip,
            playback: Transport {
                clip: None,
                time: time.unwrap_or(0.0),
                playing: time.is_none(),
                speed: 1.0,
                looping: true,
            },
            overlays: Overlays::default(),
            morph: None,
            camera: start_camera(),
            aspect: size.0 as f32 / size.1.max(1) as f32,
            height: size.1,
            walk,
            treadmill: None,
            base: (base.to_path_buf(), None),
            level: (0, None),
            material_variant: None,
            mesh_lod,
            fixed_dt: None,
            frame: FrameData::default(),
        };
        // The first version, before the first frame, so a `--frames` run shows it.
        for change in preview.watch.poll(Millis(0)) {
            if let FileChange::Load { version } = change {
                let result = import(&preview.path, &preview.limits);
                preview.take(Imported { version, result }, renderer);
            }
        }
        preview
    }

    /// Starts imports of the versions due, and shows those finished that are still current.
    fn poll_file(&mut self, renderer: &mut Renderer) {
        let now = Millis::from_duration(self.started.elapsed());
        for change in self.watch.poll(now) {
            match change {
                FileChange::Load { version } => {
                    let (path, limits, sender) = (self.path.clone(), self.limits.clone(), self.imports.0.clone());
                    std::thread::spawn(move || {
                        let result = import(&path, &limits);
                        // The previewer may have closed meanwhile.
                        let _ = sender.send(Imported { version, result });
                    });
                }
                FileChange::Gone => {
                    tracing::warn!(path = %self.path.display(), "preview: the file is gone; showing its last version");
                    self.refused = Some("the file is gone; showing its last version".to_owned());
                }
            }
        }
        while let Ok(imported) = self.imports.1.try_recv() {
            if self.watch.is_current(imported.version) {
                self.take(imported, renderer);
            }
        }
    }

    /// Shows a finished import, or keeps the last good version and says why not.
    fn take(&mut self, imported: Imported, renderer: &mut Renderer) {
        let path = self.path.display().to_string();
        // Checked in full before the GPU is touched: only a refused upload has anything to undo.
        let roles: Vec<_> = props_scene::kinds::town().iter().map(|k| TownKind::of(&**k).sidecar_role()).collect();
        let checked = imported.result.and_then(|(model, mut report)| {
            let heat = influence_heat_map(&model).map_err(|e| format!("the heat map: {e}"))?;
            // One that does not read: shown without it, why in the report (the game refuses it).
            let sidecar = sidecar::read(&self.path, &self.path, &model, &roles).unwrap_or_else(|error| {
                let gap = if report.is_empty() || report.ends_with('\n') { "" } else { "\n" };
                report.push_str(&format!("{gap}{error} (the game refuses the mod; shown without its sidecar)"));
                None
            });
            let (bones, units) = (sidecar::bone_map(sidecar.as_ref(), &model), sidecar.and_then(|s| s.units));
            Shown::new(model, heat, report, (bones, units))
        });
        let shown = checked.and_then(|shown| match shown.upload(renderer) {
            Ok(()) => Ok(shown),
            Err(refused) => {
                // The new model may have replaced the last good one under its id: put it back.
                if let Some(Err(error)) = self.shown.as_ref().map(|last| last.upload(renderer)) {
                    tracing::error!(error = %error, "restoring the previewed model failed");
                }
                Err(format!("{path}: error[PROPS_GPU]: {refused}"))
            }
        });
        match shown {
            Ok(shown) => {
                tracing::info!(path = %path, version = imported.version, "preview loaded");
                for line in shown.report.lines() {
                    tracing::info!(path = %path, issue = line, "preview: the checker's report");
                }
                self.choose_clip(&shown.model);
                self.morph = self.morph.take().filter(|m| m.len() == shown.morph_slots.len());
                self.shown = Some(shown);
                self.refused = None;
                self.treadmill = None;
            }
            Err(reason) => {
                tracing::warn!(path = %path, version = imported.version, reason = %reason, "preview refused");
                self.refused = Some(reason);
            }
        }
    }

    /// Keeps the clip playing when the new version has it (by name), else picks the one asked
    /// for on the command line, else the first.
    fn choose_clip(&mut self, model: &Model) {
        let clips = model.clips();
        let current =
            self.shown.as_ref().and_then(|s| Some(s.model.clips().get(self.playback.clip?)?.name()?.to_owned()));
        let wanted = current.or_else(|| self.wanted_clip.clone());
        let by_name = wanted.as_deref().and_then(|w| model.find_clip(w));
        let by_index = wanted.as_deref().and_then(|w| w.parse::<usize>().ok()).filter(|&i| i < clips.len());
        self.playback.clip = by_name.or(by_index).or((!clips.is_empty()).then_some(0));
        if let (Some(wanted), None) = (&wanted, by_name.or(by_index)) {
            let names: Vec<&str> = clips.iter().map(|c| c.name().unwrap_or("(unnamed)")).collect();
            let shown = if clips.is_empty() { "the rest pose".to_owned() } else { format!("`{}`", names[0]) };
            tracing::warn!(clip = %wanted, clips = %names.join(", "), shown = %shown, "preview: the model has no such clip");
        }
    }

    /// The duration of the clip playing (0 for the rest pose).
    fn duration(&self) -> f32 {
        let clip = self.shown.as_ref().zip(self.playback.clip).and_then(|(s, c)| s.model.clips().get(c));
        clip.map_or(0.0, |c| c.duration())
    }

    /// Puts the model on the treadmill at the speed asked (the base person loaded
    /// first, once); logs why it cannot walk.
    fn start_walking(&mut self) {
        let (Some(speed), Some(shown)) = (self.walk, &self.shown) else { return };
        if self.base.1.is_none() {
            self.base.1 = import(&self.base.0, &Limits::default()).ok().map(|(model, _)| Arc::new(model));
        }
        // Sized as the town shows a person: its sidecar's units, else fitted to the base person.
        let base = self
            .base
            .1
            .as_deref()
            .and_then(fitting::height)
            .map(|height| (props_scene::kinds::pedestrians::ROLE, height));
        let (units, _) = fitting::shown(&shown.model, shown.units, 1.0, base);
        let treadmill = Treadmill::new(&shown.model, &shown.bones, self.base.1.as_deref(), (speed, units));
        match &treadmill {
            Ok(t) => tracing::info!(speed, units, with = %t.with, "preview: on the treadmill"),
            Err(why) => tracing::warn!(why = %why, "preview: the model cannot walk"),
        }
        self.treadmill = Some(treadmill);
    }

    /// Poses the model (`dt` seconds on, on the treadmill) and lists it with the overlays'
    /// lines.
    fn extract(&mut self, dt: f32) {
        self.frame.clear();
        if self.walk.is_some() && self.treadmill.is_none() {
            self.start_walking();
        }
        let Some(shown) = &mut self.shown else { return };
        let (model, rig) = (&shown.model, shown.model.rig());
        shown.pose.return_to_rest(rig);
        match (&mut self.treadmill, self.walk) {
            (Some(Ok(treadmill)), Some(_)) => {
                let step = if self.playback.playing { dt } else { 0.0 };
                treadmill.step(step, (&mut shown.pose, &mut shown.scratch));
                treadmill.ground_lines((&shown.extent, &shown.fit), &mut self.frame.lines);
            }
            _ => {
                if let Some(clip) = self.playback.clip.and_then(|c| model.clips().get(c)) {
                    clip.sample(self.playback.time, &mut shown.pose);
                }
            }
        }
        if let Some(weights) = &self.morph {
            for ((node, k, _), weight) in shown.morph_slots.iter().zip(weights) {
                shown.pose.morph_weights_mut(*node)[*k] = *weight;
            }
        }
        shown.pose.compute_world(rig);
        // Its hair and clothes swing as the clip plays (in model units: a VRM file's are metres).
        let step = if self.playback.playing { dt } else { 0.0 };
        model.springs().step(rig, &mut shown.pose, &Affine3A::IDENTITY, &mut shown.springs, step);
        self.frame.push_posed(model, &shown.pose, &shown.fit);
        self.level.0 = match self.level.1 {
            Some(forced) => forced.min((model.lod_errors().len() - 1) as u8),
            None => {
                // As the game's mesh LOD would pick it, the model at the size it is shown.
                let camera = self.camera.to_camera(self.aspect);
                let view = View::new(camera.eye, camera.view_projection, UpdateRateLod::OFF, 0)
                    .with_mesh_lod(self.mesh_lod, self.height as f32);
                let scale = shown.fit.matrix3.x_axis.length();
                let errors: Vec<f32> = model.lod_errors().iter().map(|e| e * scale).collect();
                let triangles: Vec<u32> = (0..errors.len()).map(|k| model.lod_triangles(k) as u32).collect();
                view.mesh_level((&errors, &triangles), self.level.0, Vec3::ZERO, SHOWN_RADIUS)
            }
        };
        // The heat map draws no materials; a version without the chosen variant, its own.
        let material_variant = self.material_variant.as_deref().and_then(|name| model.material_variant(name));
        let (id, material_variant) = if self.overlays.influences { (HEAT, None) } else { (MODEL, material_variant) };
        self.frame.add_batch(id, DrawGroup { level: self.level.0, material_variant, mirrored: false, instances: 1 });
        if self.overlays.skeleton {
            skeleton_lines(rig, &shown.pose, &shown.fit, SKELETON, &mut self.frame.lines);
        }
        if self.overlays.bounds {
            let (min, max) =
                (shown.fit.transform_point3(shown.extent.min), shown.fit.transform_point3(shown.extent.max));
            box_lines(&Extent { min, max }, BOX, &mut self.frame.lines);
        }
    }
}

impl Shown {
    /// Puts the model and its heat map on the GPU, under their ids.
    fn upload(&self, renderer: &mut Renderer) -> Result<(), props_render::ModelRefused> {
        renderer.set_model(MODEL, &self.model)?;
        renderer.set_model(HEAT, &self.heat)?;
        Ok(())
    }

    fn new(model: Model, heat: Model, report: String, (bones, units): (BoneMap, Option<f32>)) -> Result<Self, String> {
        let extent = model.sampled_extent(EXTENT_SAMPLES).ok_or("the model has no vertices to show")?;
        let scale = SHOWN_RADIUS / extent.radius().max(1e-6);
        let fit =
            Affine3A::from_scale_rotation_translation(Vec3::splat(scale), Quat::IDENTITY, -extent.center() * scale);
        let rig = model.rig();
        let (pose, scratch) = (Pose::from_rest(rig), Pose::from_rest(rig));
        let morph_slots = rig
            .nodes()
            .flat_map(|node| {
                let name = rig.name(node).unwrap_or("node").to_owned();
                (0..pose.morph_weights(node).len()).map(move |k| (node, k, format!("{name} #{k}")))
            })
            .collect();
        let strides = (0..model.clips().len()).map(|c| props_anim::gait::stride(&model, c)).collect();

        let (model, heat) = (Arc::new(model), Arc::new(heat));
        let springs = model.springs().state();
        Ok(Self { model, heat, extent, fit, pose, scratch, morph_slots, strides, bones, units, report, springs })
    }
}

/// Imports `path` through the game's gate: the model and the checker's report, or the
/// refusal's report.
fn import(path: &Path, limits: &Limits) -> Result<(Model, String), String> {
    match props_gltf::gate::admit_file(path, limits) {
        Ok(admitted) => Ok((admitted.import.model, admitted.report.to_string())),
        Err(refused) => Err(refused.report.to_string()),
    }
}

impl Screen for Preview {
    fn camera_mut(&mut self) -> &mut OrbitCamera {
        &mut self.camera
    }

    fn frame(
        &mut self,
        gpu: &mut Gpu,
        elapsed: Duration,
        target: Option<(&wgpu::TextureView, (u32, u32))>,
    ) -> anyhow::Result<Drawn> {
        self.poll_file(&mut gpu.renderer);
        let duration = self.duration();
        let dt = self.fixed_dt.unwrap_or(elapsed.as_secs_f32());
        self.playback.advance(dt, duration);
        self.extract(dt);
        let Some((view, size)) = target else { return Ok(None) };
        self.aspect = size.0 as f32 / size.1.max(1) as f32;
        self.height = size.1;
        let frame = self.frame.to_frame(self.camera.to_camera(self.aspect), Lighting::default(), SKY);
        Ok(Some(gpu.draw("preview", (view, size), &frame)))
    }

    fn upload_all(&mut self, renderer: &mut Renderer) -> anyhow::Result<()> {
        if let Some(shown) = &self.shown {
            shown.upload(renderer)?;
        }
        Ok(())
    }

    fn act(&mut self, action: PlayerAction) {
        let p = &mut self.playback;
        match action {
            PlayerAction::TogglePause => p.playing = !p.playing,
            PlayerAction::Faster => p.speed = (p.speed * 2.0).min(16.0),
            PlayerAction::Slower => p.speed = (p.speed * 0.5).max(1.0 / 16.0),
            PlayerAction::ToggleSkeletons => self.overlays.skeleton = !self.overlays.skeleton,
            PlayerAction::ResetCamera => self.camera = start_camera(),
            PlayerAction::AddWindmills | PlayerAction::RemoveWindmills => {}
        }
    }

    fn click(&mut self, _ndc: Vec2) {}

    fn ui(&mut self, ctx: &egui::Context, input: &HudInput<'_>) {
        egui::Window::new("preview").default_pos([10.0, 10.0]).default_width(340.0).show(ctx, |ui| {
            ui.label(self.path.display().to_string());
            if let Some(reason) = &self.refused {
                ui.colored_label(ERROR, "the latest version is refused; the last good one shows:");
                egui::ScrollArea::vertical().id_salt("refusal").max_height(120.0).show(ui, |ui| {
                    ui.colored_label(ERROR, reason);
                });
            }
            let duration = self.duration();
            let Some(shown) = &self.shown else {
                ui.label("nothing to show yet: save a version the game takes");
                return;
            };
            let model = &shown.model;
            let [x, y, z] = (shown.extent.max - shown.extent.min).to_array();
            let (nodes, palette, clips) = (model.rig().len(), model.palette_len(), model.clips().len());
            let (weights, springs, constraints) =
                (shown.morph_slots.len(), model.springs().joints().len(), model.rig().constraints().len());
            ui.label(format!(
                "{x:.2} x {y:.2} x {z:.2} units; {nodes} nodes, {palette} palette matrices, {clips} clips, {weights} \
                 morph weights, {springs} spring joints, {constraints} node constraints"
            ));
            ui.separator();
            let name = |c: usize| {
                let clip = &model.clips()[c];
                format!("{c}: {} ({:.2} s)", clip.name().unwrap_or("(unnamed)"), clip.duration())
            };
            let p = &mut self.playback;
            egui::ComboBox::from_label("clip")
                .selected_text(p.clip.map_or_else(|| "rest pose".to_owned(), name))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut p.clip, None, "rest pose");
                    for c in 0..model.clips().len() {
                        ui.selectable_value(&mut p.clip, Some(c), name(c));
                    }
                });
            ui.horizontal(|ui| {
                if ui.button(if p.playing { "pause" } else { "play" }).clicked() {
                    p.playing = !p.playing;
                }
                ui.checkbox(&mut p.looping, "loop");
                ui.add(egui::Slider::new(&mut p.speed, 1.0 / 16.0..=16.0).logarithmic(true).text("speed"));
            });
            let scrub = ui.add(egui::Slider::new(&mut p.time, 0.0..=duration.max(1e-3)).text("time (s)"));
            if scrub.dragged() {
                p.playing = false;
            }
            if let Some(clip) = p.clip {
                ui.label(gait_line(shown.strides.get(clip).and_then(Option::as_ref)));
            }
            if shown.bones.is_humanoid() {
                ui.label(shown.bones.to_string());
            }
            let (mut walking, mut speed) = (self.walk.is_some(), self.walk.unwrap_or(1.4));
            ui.horizontal(|ui| {
                ui.checkbox(&mut walking, "treadmill");
                ui.add(egui::Slider::new(&mut speed, 0.0..=MAX_SPEED).text("m/s"));
            });
            match &self.treadmill {
                Some(Ok(treadmill)) if walking => ui.label(format!("walks with {}, feet held by IK", treadmill.with)),
                Some(Err(why)) if walking => ui.colored_label(ERROR, format!("cannot walk: {why}")),
                _ => ui.label(""),
            };
            // The next frame puts the model on the treadmill (`extract`) or takes it off.
            self.walk = walking.then_some(speed);
            if let Some(Ok(treadmill)) = &mut self.treadmill {
                treadmill.speed = speed;
            }
            let levels = model.lod_errors();
            ui.horizontal(|ui| {
                let impostor = model.impostor_level();
                let level = |k: u8| match impostor == Some(usize::from(k)) {
                    true => format!("level {k}: the impostor"),
                    false => format!("level {k}"),
                };
                egui::ComboBox::from_label("detail")
                    .selected_text(self.level.1.map_or_else(|| "as the game picks it".to_owned(), level))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.level.1, None, "as the game picks it");
                        for k in 0..levels.len() as u8 {
                            ui.selectable_value(&mut self.level.1, Some(k), level(k));
                        }
                    });
                let drawn = usize::from(self.level.0).min(levels.len() - 1);
                let what =
                    if impostor == Some(drawn) { " (the impostor: a box of its coverage and colour)" } else { "" };
                ui.label(format!(
                    "level {drawn} of {}{what}: {} triangles, error {:.3} model units",
                    levels.len(),
                    model.lod_triangles(drawn),
                    levels[drawn]
                ));
            });
            let variants = model.material_variants();
            if !variants.is_empty() {
                let own = "its own materials";
                egui::ComboBox::from_label("material variant")
                    .selected_text(self.material_variant.as_deref().unwrap_or(own))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.material_variant, None, own);
                        for variant in variants {
                            ui.selectable_value(&mut self.material_variant, Some(variant.name.clone()), &variant.name);
                        }
                    });
            }
            ui.horizontal(|ui| {
                ui.checkbox(&mut self.overlays.skeleton, "skeleton");
                ui.checkbox(&mut self.overlays.bounds, "bounds");
                ui.checkbox(&mut self.overlays.influences, "joint influences");
            });
            if !shown.morph_slots.is_empty() {
                let mut overriding = self.morph.is_some();
                ui.checkbox(&mut overriding, "set morph weights by hand");
                match (overriding, &mut self.morph) {
                    (true, Some(weights)) => {
                        egui::ScrollArea::vertical().id_salt("morphs").max_height(160.0).show(ui, |ui| {
                            for ((_, _, label), weight) in shown.morph_slots.iter().zip(weights.iter_mut()) {
                                ui.add(egui::Slider::new(weight, 0.0..=1.0).text(label));
                            }
                        });
                    }
                    (true, None) => self.morph = Some(shown.pose.all_morph_weights().to_vec()),
                    (false, _) => self.morph = None,
                }
            }
            egui::CollapsingHeader::new("checker").default_open(false).show(ui, |ui| {
                let report = if shown.report.trim().is_empty() { "no issues" } else { shown.report.as_str() };
                egui::ScrollArea::vertical().id_salt("report").max_height(160.0).show(ui, |ui| ui.label(report));
            });
            ui.label(format!("{}; {} draw calls", input.adapter, input.stats.draw_calls));
            ui.label("drag: orbit, right drag: pan, wheel: zoom, Space: play/pause, K: skeleton, R: reset view");
        });
    }

    fn drawn_in(&mut self, _elapsed: Duration) {}
}
