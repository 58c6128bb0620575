//! The mods folder's feed: the watcher's events applied to the models at a frame boundary,
//! and the latest one kept for the HUD.

use std::path::Path;
use std::time::Duration;

use props_mods::{ModConfig, ModWatcher};
use props_render::Renderer;
use props_scene::Scene;

use crate::models::{ModMessage, ModelRegistry};

/// How long the game waits at start for the mods already in the folder.
const INITIAL_MODS_TIMEOUT: Duration = Duration::from_secs(30);

/// The watcher (none when the folder cannot be watched) and the latest mod message.
pub struct ModFeed {
    watcher: Option<ModWatcher>,
    /// The latest mod event, for the HUD.
    pub last: Option<ModMessage>,
}

impl ModFeed {
    /// Starts watching `folder` and applies the mods already there (waiting for them at most
    /// [`INITIAL_MODS_TIMEOUT`]); a folder that cannot be watched turns mods off, with a
    /// message.
    pub fn start(
        folder: &Path,
        config: ModConfig,
        models: &mut ModelRegistry,
        scene: &mut Scene,
        renderer: &mut Renderer,
    ) -> Self {
        match ModWatcher::start(folder, config) {
            Ok(watcher) => {
                let mut last = None;
                for event in watcher.wait_until_ready(INITIAL_MODS_TIMEOUT) {
                    last = models.apply(event, scene, renderer).or(last);
                }
                Self { watcher: Some(watcher), last }
            }
            Err(error) => {
                tracing::error!(error = %error, "mods are off: the mods folder cannot be watched");
                Self {
                    watcher: None,
                    last: Some(ModMessage { text: format!("mods are off: {error}"), is_error: true }),
                }
            }
        }
    }

    /// Applies the events that arrived since the last call.
    pub fn poll(&mut self, models: &mut ModelRegistry, scene: &mut Scene, renderer: &mut Renderer) {
        if let Some(watcher) = &self.watcher {
            for event in watcher.poll() {
                self.last = models.apply(event, scene, renderer).or(self.last.take());
            }
        }
    }
}
