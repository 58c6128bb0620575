//! What a window shows: the demo town ([`Demo`]) or one model in the previewer
//! ([`crate::preview::Preview`]). The window glue (`window.rs`) owns the surface, the input
//! and the HUD's drawing; a screen draws its frames, answers keys and clicks, and lays out its
//! HUD.

use std::time::Duration;

use glam::Vec2;
use props_frame::OrbitCamera;
use props_render::{FrameStats, Renderer};

use crate::demo::{Demo, PlayerAction};
use crate::gpu::Gpu;
use crate::hud::{self, HudInput};
use crate::timings::Phase;

/// A frame drawn: the encoder to submit and the renderer's statistics.
pub type Drawn = Option<(wgpu::CommandEncoder, FrameStats)>;

/// What a window shows (see the module documentation).
pub trait Screen {
    /// The camera the mouse and the keys move.
    fn camera_mut(&mut self) -> &mut OrbitCamera;

    /// One frame, `elapsed` after the last, drawn into `target` (a view of `size` pixels in
    /// the renderer's colour format; none while the window is minimized): see [`Demo::frame`].
    fn frame(
        &mut self,
        gpu: &mut Gpu,
        elapsed: Duration,
        target: Option<(&wgpu::TextureView, (u32, u32))>,
    ) -> anyhow::Result<Drawn>;

    /// Uploads every model again, onto a recreated GPU device.
    fn upload_all(&mut self, renderer: &mut Renderer) -> anyhow::Result<()>;

    /// A key's request (pause, speed, skeletons, camera, ...).
    fn act(&mut self, action: PlayerAction);

    /// A click at `ndc` (normalized device coordinates, y up).
    fn click(&mut self, ndc: Vec2);

    /// Lays out its HUD.
    fn ui(&mut self, ctx: &egui::Context, input: &HudInput<'_>);

    /// How long the last frame took to draw (submit to present).
    fn drawn_in(&mut self, elapsed: Duration);
}

impl Screen for Demo {
    fn camera_mut(&mut self) -> &mut OrbitCamera {
        &mut self.camera
    }

    fn frame(
        &mut self,
        gpu: &mut Gpu,
        elapsed: Duration,
        target: Option<(&wgpu::TextureView, (u32, u32))>,
    ) -> anyhow::Result<Drawn> {
        Demo::frame(self, gpu, elapsed, target)
    }

    fn upload_all(&mut self, renderer: &mut Renderer) -> anyhow::Result<()> {
        Demo::upload_all(self, renderer)
    }

    fn act(&mut self, action: PlayerAction) {
        Demo::act(self, action);
    }

    fn click(&mut self, ndc: Vec2) {
        self.pick(ndc);
    }

    fn ui(&mut self, ctx: &egui::Context, input: &HudInput<'_>) {
        let actions = hud::show(ctx, self, input);
        if let Some(path) = actions.go_to {
            self.go_to_mod(&path);
        }
        if let Some(follow) = actions.follow {
            self.set_follow(follow);
        }
        if actions.unpick {
            self.unpick();
        }
        if let Some(hours) = actions.hours {
            self.daylight_mut().set_hours(hours);
        }
        if let Some(minutes) = actions.day_minutes {
            self.daylight_mut().set_day_minutes(minutes);
        }
    }

    fn drawn_in(&mut self, elapsed: Duration) {
        self.timings.record(Phase::Draw, elapsed);
    }
}
