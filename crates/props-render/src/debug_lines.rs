//! Debug line helpers: skeletons, boxes and world axes.

use glam::{Affine3A, Vec3};
use props_anim::bounds::Extent;
use props_anim::{Pose, Rig};

use props_frame::DebugLine;

/// One line from every node to its parent, in world space (`transform` maps the model into
/// the world), appended to `out`.
pub fn skeleton_lines(rig: &Rig, pose: &Pose, transform: &Affine3A, color: [f32; 4], out: &mut Vec<DebugLine>) {
    for node in rig.nodes() {
        if let Some(parent) = rig.parent(node) {
            let from = transform.transform_point3(pose.world_matrix(parent).translation.into());
            let to = transform.transform_point3(pose.world_matrix(node).translation.into());
            out.push(DebugLine { from, to, color });
        }
    }
}

/// The twelve edges of `extent`, appended to `out`.
pub fn box_lines(extent: &Extent, color: [f32; 4], out: &mut Vec<DebugLine>) {
    let corner = |i: usize| {
        Vec3::new(
            if i & 1 == 0 { extent.min.x } else { extent.max.x },
            if i & 2 == 0 { extent.min.y } else { extent.max.y },
            if i & 4 == 0 { extent.min.z } else { extent.max.z },
        )
    };
    for i in 0..8 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                out.push(DebugLine { from: corner(i), to: corner(i | bit), color });
            }
        }
    }
}

/// The world axes at the origin: X red, Y green, Z blue, each `length` long.
#[must_use]
pub fn world_axes(length: f32) -> [DebugLine; 3] {
    let axis = |to: Vec3, color| DebugLine { from: Vec3::ZERO, to: to * length, color };
    [axis(Vec3::X, [1.0, 0.1, 0.1, 1.0]), axis(Vec3::Y, [0.1, 1.0, 0.1, 1.0]), axis(Vec3::Z, [0.1, 0.2, 1.0, 1.0])]
}
