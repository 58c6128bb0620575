//! `building.glb`: a low-poly town house, 8 m x 10 m and 6 m to the eaves under a hipped roof,
//! front (door) facing +Z; +Y up, origin at the centre of its footprint. One node; clip
//! `night` lights the windows (time 0 dark, 1 lit), which the game plays with the town's
//! clock, each house at its own hour. The game stands copies of it on the blocks. The walls'
//! material is named `paint`, so each copy can be tinted.

use anyhow::Result;

use super::shapes::{Geometry, cuboid, frustum_box};
use super::{builder, material, metal, night_clip, solid_mesh};
use crate::test_models::builder::{GltfBuilder, Node};

/// Node names the game looks up.
pub const NODES: &[&str] = &["building"];

/// Clip names.
pub const CLIPS: &[&str] = &["night"];

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    let walls = material(&mut b, "paint", [0.78, 0.72, 0.62]);
    let roof = material(&mut b, "roof", [0.45, 0.16, 0.12]);
    // Smooth dark glass, reflecting the sky.
    let windows = metal(&mut b, "windows", [0.05, 0.07, 0.1], (0.0, 0.08));
    let door = material(&mut b, "door", [0.3, 0.2, 0.13]);
    let body = cuboid([-4.0, 0.0, -5.0], [4.0, 6.0, 5.0]);
    let top = frustum_box([-4.4, 6.0, -5.4], [4.4, 8.5, 5.4], 0.25);
    // Two floors of windows on every side and a door in front, a little proud of the walls.
    let mut panes = Vec::new();
    for (low, high) in [(1.0, 2.2), (3.6, 4.8)] {
        for z in [5.0, -5.05] {
            for x in [-2.5, 2.5] {
                panes.push(cuboid([x - 0.7, low, z], [x + 0.7, high, z + 0.05]));
            }
        }
        for x in [4.0, -4.05] {
            for z in [-2.8, 0.0, 2.8] {
                panes.push(cuboid([x, low, z - 0.7], [x + 0.05, high, z + 0.7]));
            }
        }
    }
    let front_door = cuboid([-0.6, 0.0, 5.0], [0.6, 2.2, 5.05]);
    let parts = [(body, walls), (top, roof), (Geometry::merge(panes), windows), (front_door, door)];
    let mesh = solid_mesh(&mut b, "building", &parts)?;
    b.node(Node::named("building").mesh(mesh));
    // Lamplight behind the glass.
    night_clip(&mut b, &[(windows, [1.0, 0.72, 0.38])], &[])?;
    Ok(b)
}
