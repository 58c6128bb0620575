//! The mod lot: models from `mods/` that override nothing, standing in a row at the edge of
//! the town, each playing its first clip in a loop.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::{Model, Playback, Pose};
use props_frame::{DebugLine, FrameData, ModelId};

use crate::roles::FIRST_LOT_ID;

/// Smallest gap between two lot models, metres.
const GAP: f32 = 3.0;
/// Colour of the lot models' bones, linear RGBA.
const BONE_COLOR: [f32; 4] = [1.0, 0.3, 0.9, 1.0];

/// One model on the lot.
#[derive(Debug)]
struct Entry {
    id: ModelId,
    model: Arc<Model>,
    playback: Playback,
    pose: Pose,
    /// Radius of the model's rest-pose bounds around its origin, in the ground plane.
    radius: f32,
}

impl Default for ModLot {
    /// An empty lot whose row starts at the origin.
    fn default() -> Self {
        Self { origin: Vec3::ZERO, entries: BTreeMap::new(), free_ids: Vec::new(), next_id: FIRST_LOT_ID }
    }
}

/// The models on the lot, keyed by their path in the mods folder (their order along the row).
#[derive(Debug)]
pub struct ModLot {
    /// Where the row starts (its first model's origin), metres; the row runs along +X.
    origin: Vec3,
    entries: BTreeMap<PathBuf, Entry>,
    free_ids: Vec<ModelId>,
    next_id: u32,
}

impl ModLot {
    /// Moves the row to start at `origin`.
    pub fn place_at(&mut self, origin: Vec3) {
        self.origin = origin;
    }

    /// Models on the lot.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The renderer id the model of `path` shows under: its entry's, or the one
    /// [`ModLot::insert`] will give it.
    pub fn id_for(&self, path: &Path) -> ModelId {
        match self.entries.get(path) {
            Some(entry) => entry.id,
            None => self.free_ids.last().copied().unwrap_or(ModelId(self.next_id)),
        }
    }

    /// Shows `model` for `path` under [`ModLot::id_for`]: a new entry, or the new version of an
    /// entry, which keeps its id and its clip time (restarting when the model has no clip any
    /// more).
    pub fn insert(&mut self, path: &Path, model: Arc<Model>) {
        let radius = rest_radius(&model);
        let pose = Pose::from_rest(model.rig());
        if let Some(entry) = self.entries.get_mut(path) {
            entry.playback.time = match model.clips().first() {
                Some(clip) => entry.playback.mode.wrap(entry.playback.time, clip.duration()),
                None => 0.0,
            };
            *entry = Entry { model, pose, radius, ..*entry };
            return;
        }
        let id = self.free_ids.pop().unwrap_or_else(|| {
            self.next_id += 1;
            ModelId(self.next_id - 1)
        });
        let entry = Entry { id, model, playback: Playback::looping(0.0), pose, radius };
        self.entries.insert(path.to_owned(), entry);
    }

    /// Takes the model of `path` off the lot; returns its renderer id, if it was there.
    pub fn remove(&mut self, path: &Path) -> Option<ModelId> {
        let entry = self.entries.remove(path)?;
        self.free_ids.push(entry.id);
        Some(entry.id)
    }

    /// Every model on the lot with its renderer id.
    pub fn models(&self) -> impl Iterator<Item = (ModelId, &Arc<Model>)> {
        self.entries.values().map(|entry| (entry.id, &entry.model))
    }

    /// Advances every model's clip by `dt` seconds and poses it.
    pub fn animate(&mut self, dt: f32) {
        for entry in self.entries.values_mut() {
            let Entry { model, playback, pose, .. } = entry;
            if let Some(clip) = model.clips().first() {
                playback.advance(dt, clip.duration());
                clip.sample(playback.clip_time(clip.duration()), pose);
            }
            pose.compute_world(model.rig());
        }
    }

    /// Appends one instance and batch per model, in a row along +X.
    pub fn extract(&self, frame: &mut FrameData) {
        for (entry, place) in self.entries.values().zip(self.placements()) {
            let palette = frame.push_instance(&place, entry.model.palette_len());
            entry.model.write_palettes(&entry.pose, palette);
            frame.end_batch(entry.id);
        }
    }

    /// Appends the bones of every model.
    pub fn skeleton_lines(&self, lines: &mut Vec<DebugLine>) {
        for (entry, place) in self.entries.values().zip(self.placements()) {
            props_render::skeleton_lines(entry.model.rig(), &entry.pose, &place, BONE_COLOR, lines);
        }
    }

    /// Each entry's model-to-world transform, in order.
    fn placements(&self) -> impl Iterator<Item = Affine3A> + '_ {
        let mut x = 0.0;
        self.entries.values().map(move |entry| {
            x += entry.radius;
            let place = Affine3A::from_translation(self.origin + Vec3::X * x);
            x += entry.radius + GAP;
            place
        })
    }
}

/// Radius around the origin, in the ground plane, of a model's meshes in their rest pose
/// (skinned meshes in their bind pose), at least 0.5 m.
fn rest_radius(model: &Model) -> f32 {
    let pose = {
        let mut pose = Pose::from_rest(model.rig());
        pose.compute_world(model.rig());
        pose
    };
    let mut radius: f32 = 0.5;
    for instance in model.instances() {
        let world = if instance.skin.is_some() { Affine3A::IDENTITY } else { pose.world_matrix(instance.node) };
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            for p in &primitive.positions {
                let p = world.transform_point3(*p);
                radius = radius.max(p.x.hypot(p.z));
            }
        }
    }
    radius.min(1000.0)
}
