//! The previewer's treadmill: the model walked at a chosen speed as the town walks its people
//! ([`props_anim::gait::Walker`]: its gaits at the rates the speed calls for, blended in phase,
//! its planted feet held by IK), with its own `Walk` and `Run`, or, for a humanoid without a
//! walk, the base person's clips retargeted to its skeleton. It stays where it is; the lines
//! of the ground pass under it.

use glam::{Affine3A, Vec3};
use props_anim::bounds::Extent;
use props_anim::gait::{Stride, Walker};
use props_anim::humanoid::{BoneMap, with_clips_from};
use props_anim::{Model, Pose};
use props_frame::DebugLine;

/// Most metres a second the treadmill runs at.
pub const MAX_SPEED: f32 = 4.0;
/// Lines across the treadmill, and their colour (linear RGBA).
const GROUND_LINES: i32 = 12;
const GROUND: [f32; 4] = [0.35, 0.35, 0.38, 1.0];

/// The model on the treadmill.
pub struct Treadmill {
    walker: Walker,
    /// Metres a second.
    pub speed: f32,
    /// Metres per model unit, as the town shows the model.
    units: f32,
    /// What it walks with, for the HUD.
    pub with: String,
    /// How far the ground has passed under it, model units.
    pub travelled: f32,
}

impl Treadmill {
    /// `model` on the treadmill at `speed` m/s (at `units` metres per model unit, as the town
    /// shows it) with its own `Walk` (and `Run`), or with `base`'s (the base person)
    /// retargeted to its `bones` when it has no walk and is a humanoid; the reason why not.
    pub fn new(
        model: &Model,
        bones: &BoneMap,
        base: Option<&Model>,
        (speed, units): (f32, f32),
    ) -> Result<Self, String> {
        let own = |name| model.find_clip(name);
        let (walker, with) = match own("Walk") {
            Some(walk) => {
                let clips: Vec<usize> = std::iter::once(walk).chain(own("Run")).collect();
                (Walker::new(model, bones, &clips, true), "its own clips".to_owned())
            }
            None => {
                let base =
                    base.ok_or("it has no clip `Walk`, and the base person (assets/pedestrian.glb) is not loaded")?;
                let (map, base_map) = (bones, &BoneMap::find(base.rig()));
                if !map.walks() {
                    return Err(format!("it has no clip `Walk`, and its skeleton cannot walk: {map}"));
                }
                let clips: Vec<usize> = ["Walk", "Run"].into_iter().filter_map(|name| base.find_clip(name)).collect();
                let (retargeted, added) =
                    with_clips_from((model, map), (base, base_map), &clips).map_err(|e| e.to_string())?;
                let with = format!("the base person's clips, retargeted ({})", map.source());
                (Walker::new(&retargeted, map, &added, true), with)
            }
        };
        let walker = walker.ok_or("its walk shows no stride: no foot is planted and moves")?;
        Ok(Self { walker, speed, units: units.max(f32::MIN_POSITIVE), with, travelled: 0.0 })
    }

    /// Walks on `dt` seconds and poses `pose` (and `scratch`, poses of the model's rig) there,
    /// world matrices computed, the model where it started.
    pub fn step(&mut self, dt: f32, (pose, scratch): (&mut Pose, &mut Pose)) {
        let placement = self.walker.step(self.speed / self.units, dt, (pose, scratch));
        self.travelled = placement.translation.length();
    }

    /// Lines across the ground under the model (its `extent` at rest, drawn through `fit`), a
    /// quarter of its height apart, passing backwards as it walks.
    pub fn ground_lines(&self, (extent, fit): (&Extent, &Affine3A), out: &mut Vec<DebugLine>) {
        let forward = self.walker.gaits().stride(0).forward;
        let across = Vec3::Y.cross(forward).normalize_or_zero() * extent.radius();
        let spacing = ((extent.max.y - extent.min.y) * 0.25).max(1e-3);
        let under = Vec3::new(extent.center().x, extent.min.y, extent.center().z);
        let offset = self.travelled.rem_euclid(spacing);
        for k in -GROUND_LINES / 2..=GROUND_LINES / 2 {
            let at = under + forward * (k as f32 * spacing - offset);
            let (from, to) = (fit.transform_point3(at - across), fit.transform_point3(at + across));
            out.push(DebugLine { from, to, color: GROUND });
        }
    }
}

/// What a clip's gait is, as its planted feet measure it.
pub fn gait_line(stride: Option<&Stride>) -> String {
    match stride {
        Some(s) => format!(
            "gait: {:.3} units/s at rate 1, {:.3} a cycle, {} feet, {}",
            s.speed,
            s.length(),
            s.feet.len(),
            if s.moves_root() { "moves its root (played in place)" } else { "in place" }
        ),
        None => "gait: none (no foot is planted and moves)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The Fox's clips say their gaits: its walk measured, its survey none.
    #[test]
    fn clips_show_their_gait() {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/Fox.glb");
        let model = props_gltf::import_file(&file, &props_gltf::Limits::default()).expect("the Fox").model;
        let walk = props_anim::gait::stride(&model, model.find_clip("Walk").expect("Walk"));
        assert!(gait_line(walk.as_ref()).starts_with("gait: 103."), "{}", gait_line(walk.as_ref()));
        let survey = props_anim::gait::stride(&model, model.find_clip("Survey").expect("Survey"));
        assert_eq!(gait_line(survey.as_ref()), "gait: none (no foot is planted and moves)");
    }

    fn load(path: &str) -> Model {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
        props_gltf::import_file(&file, &props_gltf::Limits::default()).expect(path).model
    }

    /// The base person walks with its own clips; a humanoid without clips with the base
    /// person's; a model that is neither says why.
    #[test]
    fn the_treadmill_walks_a_humanoid_with_its_own_clips_or_the_base_person_s() {
        let base = load("assets/pedestrian.glb");
        let own = Treadmill::new(&base, &BoneMap::find(base.rig()), None, (1.4, 1.0)).expect("walks");
        assert_eq!(own.with, "its own clips");
        let mixamo = load("tests/models/humanoids/mixamo_person.glb");
        let mut treadmill = Treadmill::new(&mixamo, &BoneMap::find(mixamo.rig()), Some(&base), (1.4, 0.5))
            .expect("walks with the base clips");
        assert_eq!(treadmill.with, "the base person's clips, retargeted (Mixamo names)");
        let (mut pose, mut scratch) = (Pose::from_rest(mixamo.rig()), Pose::from_rest(mixamo.rig()));
        for _ in 0..60 {
            treadmill.step(1.0 / 60.0, (&mut pose, &mut scratch));
        }
        // At half a metre per model unit: 2.8 units a second.
        assert!((treadmill.travelled - 2.8).abs() < 1e-3, "a second at 1.4 m/s: {}", treadmill.travelled);
        let car = load("assets/car.glb");
        let why = Treadmill::new(&car, &BoneMap::find(car.rig()), Some(&base), (1.4, 1.0))
            .err()
            .expect("a car does not walk");
        assert!(why.contains("no clip `Walk`") && why.contains("leftUpperLeg"), "{why}");
    }
}
