//! `building.glb`: a low-poly town house, 8 m x 10 m and 6 m to the eaves under a hipped roof,
//! front (door) facing +Z; +Y up, origin at the centre of its footprint. Static: one node, no
//! clips; the game stands copies of it on the blocks. The walls' material is named `paint`,
//! so each copy can be tinted.

use anyhow::Result;

use super::shapes::{Geometry, cuboid, frustum_box};
use super::{builder, material, solid_mesh};
use crate::test_models::builder::{GltfBuilder, Node};

/// Node names the game looks up.
pub const NODES: &[&str] = &["building"];

/// Clip names.
pub const CLIPS: &[&str] = &[];

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    let walls = material(&mut b, "paint", [0.78, 0.72, 0.62]);
    let roof = material(&mut b, "roof", [0.45, 0.16, 0.12]);
    let trim = material(&mut b, "windows", [0.12, 0.16, 0.22]);
    let body = cuboid([-4.0, 0.0, -5.0], [4.0, 6.0, 5.0]);
    let top = frustum_box([-4.4, 6.0, -5.4], [4.4, 8.5, 5.4], 0.25);
    // Windows and a door on the front and back, a little proud of the walls.
    let mut openings = Vec::new();
    for z in [5.0, -5.05] {
        for x in [-2.5, 2.5] {
            openings.push(cuboid([x - 0.7, 3.6, z], [x + 0.7, 4.8, z + 0.05]));
            openings.push(cuboid([x - 0.7, 1.0, z], [x + 0.7, 2.2, z + 0.05]));
        }
    }
    openings.push(cuboid([-0.6, 0.0, 5.0], [0.6, 2.2, 5.05]));
    let mesh = solid_mesh(&mut b, "building", &[(body, walls), (top, roof), (Geometry::merge(openings), trim)])?;
    b.node(Node::named("building").mesh(mesh));
    Ok(b)
}
