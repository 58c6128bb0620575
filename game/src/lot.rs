//! The mod lot: models from `mods/` that override nothing, standing in a row at the edge of
//! the town, each looping a clip (its sidecar's, else its first) on the animation runtime (a crowd of one,
//! culled and posed like every prop of the town).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Affine3A, Vec3};
use props_anim::{Crowd, Layer, Model, PaletteBuffer, Playback, Pose, Program, Sharing, Spec, View, pose_state};
use props_frame::{DebugLine, FrameData, ModelId};

/// Smallest gap between two lot models, metres.
const GAP: f32 = 3.0;
/// Colour of the lot models' bones, linear RGBA.
const BONE_COLOR: [f32; 4] = [1.0, 0.3, 0.9, 1.0];

/// One model on the lot.
#[derive(Debug)]
struct Entry {
    id: ModelId,
    model: Arc<Model>,
    /// The clip it loops (its sidecar's, else its first), if it has clips.
    spec: Spec,
    program: Program,
    /// The one instance.
    crowd: Crowd,
    playback: Playback,
    /// Radius around its origin, in the ground plane, of the box it fills over its rest pose
    /// and clips, at its scale (metres).
    radius: f32,
    /// Metres per model unit (1, or fitted: [`props_mods::fitting`]).
    scale: f32,
    /// Where it stands in the row.
    place: Affine3A,
}

impl Entry {
    fn new(id: ModelId, model: Arc<Model>, scale: f32, clip: usize, playback: Playback) -> Self {
        let clips = if clip < model.clips().len() { vec![clip] } else { Vec::new() };
        let spec = Spec { clips, ..Spec::default() };
        let program = Program::new(&model, &spec);
        let bound = model.pose_bounds().radius * f64::from(scale);
        let mut crowd =
            Crowd::new(&program, 1, Sharing::None, if bound.is_finite() { bound as f32 } else { f32::INFINITY }, 1);
        crowd.push(Vec3::ZERO);
        let radius = ground_radius(&model) * scale;
        Self { id, radius, scale, model, spec, program, crowd, playback, place: Affine3A::IDENTITY }
    }

    /// Its pose on the general path, into `pose` (allocates its scratch).
    fn pose(&self) -> Pose {
        let rig = self.model.rig();
        let (mut pose, mut scratch) = (Pose::from_rest(rig), Pose::from_rest(rig));
        pose_state(&self.model, &self.spec, self.crowd.layers(0), &[], &mut pose, &mut scratch);
        pose
    }
}

impl Default for ModLot {
    /// An empty lot whose row starts at the origin.
    fn default() -> Self {
        Self { origin: Vec3::ZERO, entries: BTreeMap::new() }
    }
}

/// The models on the lot, keyed by their path in the mods folder (their order along the row).
#[derive(Debug)]
pub struct ModLot {
    /// Where the row starts (its first model's origin), metres; the row runs along +X.
    origin: Vec3,
    entries: BTreeMap<PathBuf, Entry>,
}

impl ModLot {
    /// Moves the row to start at `origin`.
    pub fn place_at(&mut self, origin: Vec3) {
        self.origin = origin;
        self.arrange();
    }

    /// Models on the lot.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The renderer id the model of `path` shows under, if it is on the lot.
    pub fn id_of(&self, path: &Path) -> Option<ModelId> {
        self.entries.get(path).map(|entry| entry.id)
    }

    /// Shows `model` for `path` under renderer id `id` at `scale` metres per unit, looping
    /// clip `clip`: a new entry, or the new version of an entry (same id), which keeps its
    /// clip time (restarting when the model has no clip any more).
    pub fn insert(&mut self, path: &Path, id: ModelId, model: Arc<Model>, scale: f32, clip: usize) {
        if let Some(entry) = self.entries.get_mut(path) {
            let mut playback = entry.playback;
            playback.time = match model.clips().get(clip) {
                Some(clip) => playback.mode.wrap(playback.time, clip.duration()),
                None => 0.0,
            };
            *entry = Entry::new(id, model, scale, clip, playback);
            self.arrange();
            return;
        }
        self.entries.insert(path.to_owned(), Entry::new(id, model, scale, clip, Playback::looping(0.0)));
        self.arrange();
    }

    /// Takes the model of `path` off the lot; returns its renderer id, if it was there.
    pub fn remove(&mut self, path: &Path) -> Option<ModelId> {
        let entry = self.entries.remove(path)?;
        self.arrange();
        Some(entry.id)
    }

    /// Where the model of `path` stands, if it is on the lot.
    pub fn place_of(&self, path: &Path) -> Option<Vec3> {
        self.entries.get(path).map(|entry| entry.place.translation.into())
    }

    /// Every model on the lot with its renderer id.
    pub fn models(&self) -> impl Iterator<Item = (ModelId, &Arc<Model>)> {
        self.entries.values().map(|entry| (entry.id, &entry.model))
    }

    /// Advances every model's clip by `dt` seconds.
    pub fn advance(&mut self, dt: f32) {
        for entry in self.entries.values_mut() {
            if let Some(clip) = entry.spec.clips.first().map(|&c| &entry.model.clips()[c]) {
                entry.playback.advance(dt, clip.duration());
                entry.crowd.layers_mut(0)[0] = Layer::clip(0, entry.playback.clip_time(clip.duration()));
            }
        }
    }

    /// Poses the models `view` sees (every one without a view) into `palettes`, on the
    /// animation runtime; frame number `frame`.
    pub fn animate(&mut self, view: Option<&View>, frame: u64, palettes: &mut PaletteBuffer) {
        for entry in self.entries.values_mut() {
            entry.crowd.update(&entry.program, view, frame, None, palettes);
        }
    }

    /// Appends the models the last [`ModLot::animate`] posed: one instance and batch each,
    /// in a row along +X.
    pub fn extract(&self, frame: &mut FrameData) {
        for entry in self.entries.values() {
            for (_, base) in entry.crowd.visible() {
                frame.push_shared_instance(&entry.place, base);
            }
            frame.end_batch(entry.id);
        }
    }

    /// Appends the bones of every model (posed on the general path; allocates).
    pub fn skeleton_lines(&self, lines: &mut Vec<DebugLine>) {
        for entry in self.entries.values() {
            props_render::skeleton_lines(entry.model.rig(), &entry.pose(), &entry.place, BONE_COLOR, lines);
        }
    }

    /// Stands the models in a row along +X from the origin, each `GAP` from the next.
    fn arrange(&mut self) {
        let mut x = 0.0;
        for entry in self.entries.values_mut() {
            x += entry.radius;
            let at = self.origin + Vec3::X * x;
            entry.place = Affine3A::from_scale_rotation_translation(Vec3::splat(entry.scale), glam::Quat::IDENTITY, at);
            entry.crowd.set_center(0, entry.place.translation.into());
            x += entry.radius + GAP;
        }
    }
}

/// Radius around the origin, in the ground plane, of the box a model's vertices fill over its
/// rest pose and clips (skins applied: a skinned mesh's bind-space positions can be in other
/// units than its joints), at least 0.5 and at most 1000 units.
fn ground_radius(model: &Model) -> f32 {
    let Some(extent) = model.sampled_extent(5) else { return 0.5 };
    let x = extent.min.x.abs().max(extent.max.x.abs());
    let z = extent.min.z.abs().max(extent.max.z.abs());
    x.hypot(z).clamp(0.5, 1000.0)
}

#[cfg(test)]
mod tests {
    use props_anim::JointMatrix;

    use super::*;

    /// A morph-animated mod moves on the lot: its instance's palette carries the clip's
    /// weights (three.js's oracle: 0.7233 and 0.2767 at 2.1 s, in
    /// tests/oracle/AnimatedMorphCube.anim0.json), which the GPU applies.
    #[test]
    fn the_lot_plays_morph_animation() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/models/AnimatedMorphCube/AnimatedMorphCube.gltf");
        let model = props_gltf::import_file(&path, &props_gltf::Limits::default()).expect("imports").model;
        let model = Arc::new(model);
        let mut lot = ModLot::default();
        lot.insert(&path, ModelId(9), Arc::clone(&model), 1.0, 0);
        lot.advance(2.099_998_7);
        let mut palettes = PaletteBuffer::default();
        lot.animate(None, 0, &mut palettes);
        let slots = &palettes[model.weight_slot()..model.palette_len()];
        let weights: Vec<f32> = slots.iter().flat_map(JointMatrix::to_array).take(model.morph_weight_count()).collect();
        let expected = [0.723_308_4, 0.276_691_6];
        assert!(weights.iter().zip(expected).all(|(w, e)| (w - e).abs() < 1e-5), "weights {weights:?}");
    }

    /// Models stand side by side from the lot's origin, each at its scale, and can be found.
    #[test]
    fn the_lot_places_models_in_a_row_and_finds_them() {
        let fox = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
        let model = Arc::new(props_gltf::import_file(&fox, &props_gltf::Limits::default()).expect("imports").model);
        let mut lot = ModLot::default();
        lot.place_at(Vec3::new(10.0, 0.0, -5.0));
        lot.insert(Path::new("a/fox.glb"), ModelId(9), Arc::clone(&model), 0.01, 1);
        lot.insert(Path::new("b/fox.glb"), ModelId(10), Arc::clone(&model), 0.01, 2);
        let (a, b) =
            (lot.place_of(Path::new("a/fox.glb")).expect("a"), lot.place_of(Path::new("b/fox.glb")).expect("b"));
        assert_eq!((a.y, a.z, b.z), (0.0, -5.0, -5.0));
        // The Fox at 0.01 reaches about 1 m from its origin in the ground plane.
        assert!(a.x > 10.0 && a.x < 12.0 && b.x - a.x > 3.0 && b.x - a.x < 6.0, "{a} {b}");
        assert_eq!(lot.place_of(Path::new("c.glb")), None);
    }
}
