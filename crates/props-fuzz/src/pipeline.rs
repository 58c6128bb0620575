//! What every fuzzed input goes through, as the game would take it: the gate (checker and
//! importer), then, for an admitted model, posing every clip at ordinary and extreme times on
//! the general path and the fast path, swinging its spring bones as its body moves, and CPU
//! skinning of every mesh instance. Nothing may panic; a pose that comes out non-finite from a
//! model the gate admitted is a finding too.

use std::path::Path;

use glam::{Affine3A, Quat, Vec3};
use props_anim::clip::PlayMode;
use props_anim::runtime::LaneState;
use props_anim::{JointMatrix, Layer, Model, Pose, runtime::Program, skinning};
use props_gltf::Limits;
use props_gltf::gate::admit_slice;

/// Times each clip is posed at, in clip seconds before wrapping: the start, inside, the end,
/// before the start, far beyond, and not a number.
const TIMES: [f32; 7] = [0.0, 0.37, 1.0, -1.0, 1.0e9, f32::MAX, f32::NAN];

/// What became of an input: refused, admitted and finite, or admitted with a non-finite pose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// The gate refused it, with this code.
    Refused(&'static str),
    /// The gate admitted it and every pose and skinning was finite.
    Admitted,
    /// The gate admitted it, but a pose or skinned vertex came out NaN or infinite.
    NonFinite(String),
}

/// Runs `bytes` (a `.gltf` or `.glb` file held in memory, its external files confined to
/// `base_dir`) through the gate with `limits`, then poses and skins it.
#[must_use]
pub fn run(bytes: &[u8], base_dir: Option<&Path>, limits: &Limits) -> Fate {
    match admit_slice(bytes, base_dir, Path::new("input"), limits) {
        Err(refused) => Fate::Refused(refused.fatal().next().map_or("?", |issue| issue.code)),
        Ok(admitted) => match exercise(&admitted.import.model) {
            Ok(()) => Fate::Admitted,
            Err(finding) => Fate::NonFinite(finding),
        },
    }
}

/// Poses every clip of `model` at [`TIMES`] both ways and skins every mesh instance; the
/// first non-finite result, if any.
fn exercise(model: &Model) -> Result<(), String> {
    let rig = model.rig();
    let mut pose = Pose::from_rest(rig);
    let mut palette = vec![JointMatrix::IDENTITY; model.palette_len()];
    let mut fast = vec![JointMatrix::IDENTITY; 4 * palette.len()];
    check_palette(model, &pose, &mut palette, "rest pose")?;
    swing(model, &mut pose, &mut palette)?;
    for (c, clip) in model.clips().iter().enumerate() {
        let program = Program::for_clip(model, c);
        let mut scratch = program.scratch();
        for time in TIMES.map(|t| PlayMode::Loop.wrap(t * clip.duration(), clip.duration())) {
            pose.return_to_rest(rig);
            clip.sample(time, &mut pose);
            pose.compute_world(rig);
            check_palette(model, &pose, &mut palette, &format!("clip {c} at {time} s"))?;
            // Four lanes: the clip at this time, and at its start, its end and half-way.
            let layers = [time, 0.0, clip.duration(), 0.5 * clip.duration()].map(|t| [Layer::once(0, t)]);
            let p = program.palette_len();
            let lanes = std::array::from_fn(|k| LaneState { layers: &layers[k], drivers: &[], palette: k * p });
            program.write_palettes4(lanes, &mut scratch, &mut fast);
            if let Some(at) = fast.iter().position(|m| !m.to_array().iter().all(|v| v.is_finite())) {
                return Err(format!("clip {c} at {time} s: fast-path palette matrix {at} is not finite"));
            }
        }
    }
    Ok(())
}

/// Swings `model`'s spring bones, if any, for a second at 60 Hz and then a tenth of a second
/// at once, the body moving and turning, and checks the pose it ends in.
fn swing(model: &Model, pose: &mut Pose, palette: &mut [JointMatrix]) -> Result<(), String> {
    let (rig, springs) = (model.rig(), model.springs());
    if springs.is_empty() {
        return Ok(());
    }
    let mut state = springs.state();
    for f in 0..=60u8 {
        let placement = Affine3A::from_rotation_translation(
            Quat::from_rotation_y(0.1 * f32::from(f)),
            Vec3::new(0.05 * f32::from(f), 0.0, 0.0),
        );
        pose.return_to_rest(rig);
        pose.compute_world(rig);
        springs.step(rig, pose, &placement, &mut state, if f == 60 { 0.1 } else { 1.0 / 60.0 });
    }
    check_palette(model, pose, palette, "spring bones swung")
}

/// Writes `pose`'s palette and skins every mesh instance with it.
fn check_palette(model: &Model, pose: &Pose, palette: &mut [JointMatrix], when: &str) -> Result<(), String> {
    model.write_palettes(pose, palette);
    if let Some(at) = palette.iter().position(|m| !m.to_array().iter().all(|v| v.is_finite())) {
        return Err(format!("{when}: palette matrix {at} is not finite"));
    }
    let mut positions = Vec::new();
    for instance in model.instances() {
        let weights = pose.morph_weights(instance.node);
        for primitive in &model.meshes()[instance.mesh as usize].primitives {
            match (instance.skin, &primitive.influences) {
                (Some(skin), Some(_)) => {
                    let range = model.palette_range(skin);
                    skinning::skin_positions(primitive, &palette[range], weights, &mut positions);
                }
                _ => skinning::rigid_positions(primitive, &pose.world_matrix(instance.node), weights, &mut positions),
            }
            if let Some(at) = positions.iter().position(|p| !p.is_finite()) {
                return Err(format!("{when}: vertex {at} of mesh {} is not finite", instance.mesh));
            }
        }
    }
    Ok(())
}
