//! Animation lint: what imports but will not look right in the game, as warnings with codes,
//! on the imported model. The game loops the clips it plays (the mod lot a model's first
//! clip, the Fox its gaits), so a clip whose last pose is not its first jumps once per loop
//! (`PROPS_LOOP_SEAM`; STEP channels jump by design and are left out, and so are door clips,
//! named `door*`: the game plays them forwards to open and backwards to close, never looped;
//! one-instant clips are poses, as the traffic light's `green` / `amber` / `red`, and whether
//! the clip a model loops lasts no time is its place's to say: the mod lot's
//! `props_scene::kinds::lot::still_clip`); more than 8 influences per vertex or many
//! joints cost every instance, every frame (`PROPS_INFLUENCE_BUDGET`, `PROPS_JOINT_BUDGET`).

use glam::{Quat, Vec3};
use props_anim::{Model, Pose, clip::interpolate::Interpolation};

use super::report::Issue;

/// A clip's first and last pose differ.
pub const LOOP_SEAM: &str = "PROPS_LOOP_SEAM";
/// Vertices with more influences than the vertex holds.
pub const INFLUENCE_BUDGET: &str = "PROPS_INFLUENCE_BUDGET";
/// More joints than the budget.
pub const JOINT_BUDGET: &str = "PROPS_JOINT_BUDGET";

/// Influences a vertex holds inline; past them the GPU reads a list.
const INLINE_INFLUENCES: usize = 8;
/// Joints of a model beyond which every instance's palette (48 bytes a joint, each frame)
/// gets costly in a crowd.
const JOINT_BUDGET_COUNT: usize = 128;
/// Clips named with this prefix open and close (a car's `doors`, a bus's `door_front`): played
/// forwards and backwards, never looped.
const PLAYED_ONCE: &str = "door";
/// A rotation jump at a loop seam worth a warning, degrees.
const SEAM_DEGREES: f32 = 1.0;
/// A translation jump at a loop seam worth a warning, as a fraction of the rig's size.
const SEAM_TRANSLATION: f32 = 0.01;
/// A scale or morph weight jump at a loop seam worth a warning.
const SEAM_SCALE: f32 = 0.01;

/// The lint's warnings on an imported model.
pub(super) fn lint(model: &Model) -> Vec<Issue> {
    let mut issues = Vec::new();
    loop_seams(model, &mut issues);
    budgets(model, &mut issues);
    issues
}

/// Every clip: lasts some time, and ends where it starts.
fn loop_seams(model: &Model, issues: &mut Vec<Issue>) {
    let rig = model.rig();
    let rest = model.pose_at(None, 0.0);
    // The rig's size: how far its nodes stand from the origin at rest.
    let size = rig.nodes().map(|n| Vec3::from(rest.world_matrix(n).translation).length()).fold(0.0, f32::max);
    let (mut first, mut last) = (Pose::from_rest(rig), Pose::from_rest(rig));
    for (c, clip) in model.clips().iter().enumerate() {
        if clip.name().is_some_and(|n| n.starts_with(PLAYED_ONCE)) {
            continue;
        }
        let pointer = format!("/animations/{c}");
        let name = clip.name().map_or_else(|| format!("#{c}"), |n| format!("`{n}`"));
        // A pose, not a loop.
        if clip.duration() <= 0.0 {
            continue;
        }
        first.return_to_rest(rig);
        last.return_to_rest(rig);
        clip.sample(0.0, &mut first);
        clip.sample(clip.duration(), &mut last);
        // The channel whose jump is largest relative to its threshold.
        let mut worst: Option<(f32, String)> = None;
        for channel in clip.channels().iter().filter(|c| c.keys().interpolation() != Interpolation::Step) {
            let node = channel.node();
            let (a, b) = (first.local_transform(node), last.local_transform(node));
            let (ratio, what) = match channel.keyframes().property_name() {
                "rotation" => {
                    let degrees = rotation_degrees(a.rotation, b.rotation);
                    (degrees / SEAM_DEGREES, format!("rotation jumps {degrees:.1} degrees"))
                }
                "translation" => {
                    let distance = a.translation.distance(b.translation);
                    (distance / (SEAM_TRANSLATION * size.max(1e-6)), format!("translation jumps {distance:.4} units"))
                }
                "scale" => {
                    let change = (a.scale - b.scale).abs().max_element();
                    (change / SEAM_SCALE, format!("scale jumps {change:.3}"))
                }
                _ => {
                    let pairs = first.morph_weights(node).iter().zip(last.morph_weights(node));
                    let change = pairs.map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
                    (change / SEAM_SCALE, format!("morph weights jump {change:.3}"))
                }
            };
            if ratio > 1.0 && worst.as_ref().is_none_or(|(w, _)| ratio > *w) {
                let node_name =
                    rig.name(node).map_or_else(|| format!("#{}", rig.source_index(node)), |n| format!("`{n}`"));
                worst = Some((ratio, format!("node {node_name}'s {what}")));
            }
        }
        if let Some((_, what)) = worst {
            let message = format!(
                "clip {name} ends in another pose than it starts: {what} each time the game loops it (key the \
                 last frame like the first, or ignore this if the clip is played once)"
            );
            issues.push(Issue::warning(LOOP_SEAM, pointer, message));
        }
    }
}

/// The angle between two rotations, degrees.
fn rotation_degrees(a: Quat, b: Quat) -> f32 {
    let dot = a.normalize().dot(b.normalize()).abs().min(1.0);
    (2.0 * dot.acos()).to_degrees()
}

/// Influences per vertex and joints against what a crowd can afford.
fn budgets(model: &Model, issues: &mut Vec<Issue>) {
    for (m, mesh) in model.meshes().iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let Some(influences) = &primitive.influences else { continue };
            let most = (0..primitive.vertex_count())
                .map(|v| influences.of_vertex(v).filter(|&(_, w)| w != 0.0).count())
                .max()
                .unwrap_or(0);
            if most > INLINE_INFLUENCES {
                let message = format!(
                    "up to {most} joints move a vertex: past {INLINE_INFLUENCES} they are read from a list, slower to \
                     draw (Blender: File > Export > glTF > Data > Skinning > Bone Influences: 8)"
                );
                issues.push(Issue::warning(
                    INFLUENCE_BUDGET,
                    format!("/meshes/{m}/primitives/{p}/attributes"),
                    message,
                ));
            }
        }
    }
    let joints = model.joint_count();
    if joints > JOINT_BUDGET_COUNT {
        let message = format!(
            "{joints} joints: every instance uploads {} bytes of joint matrices per frame; a prop seen by the \
             hundred should keep to {JOINT_BUDGET_COUNT}",
            joints * 48
        );
        issues.push(Issue::warning(JOINT_BUDGET, "/skins", message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_jumps_are_measured_either_way_round() {
        let a = Quat::from_rotation_y(0.0);
        let b = Quat::from_rotation_y(10f32.to_radians());
        assert!((rotation_degrees(a, b) - 10.0).abs() < 1e-3);
        assert!((rotation_degrees(a, -b) - 10.0).abs() < 1e-3, "q and -q are the same rotation");
    }
}
