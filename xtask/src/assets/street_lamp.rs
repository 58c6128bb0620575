//! `street_lamp.glb`: a 6 m street lamp whose arm reaches over the road ahead (+Z); +Y up,
//! origin at the foot of the pole. `pole` (root, with the arm) → `head` (the lantern under
//! the arm's end, its glass material `lamp_glass`) → `lamp_light` (a `KHR_lights_punctual`
//! spot light under the glass, pointing down). Clip `night` lights the glass and the light
//! (time 0 dark, as at rest; 1 lit); the street-lamp kind stands copies of it along the roads
//! and plays it with the town's clock.

use anyhow::Result;

use super::shapes::{Geometry, cuboid, frustum, frustum_box};
use super::{builder, material, metal, night_clip, rotation, solid_mesh, spot_light};
use crate::test_models::builder::{GltfBuilder, Node, to_f32};

/// Node names the game looks up.
pub const NODES: &[&str] = &["pole", "head"];

/// Clip names.
pub const CLIPS: &[&str] = &["night"];

/// Height of the pole's top, where the arm starts (m).
const POLE_HEIGHT: f64 = 6.0;
/// How far the arm reaches ahead of the pole (m).
const ARM_REACH: f64 = 1.6;

/// The lantern's warm glow (emissive, linear).
const GLOW: [f32; 3] = [1.0, 0.85, 0.55];
/// Its light: colour (linear), intensity at night (candela: about 1.2 lux at its foot, 6 m
/// below, where the noon sun gives 3), inner and outer cone angles (radians), range (m).
const LIGHT: [f32; 3] = [1.0, 0.78, 0.5];
const CANDELA: f32 = 45.0;
const CONE: [f32; 2] = [0.5, 1.0];
const RANGE: f32 = 16.0;

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    let pole = metal(&mut b, "pole_grey", [0.45, 0.47, 0.5], (0.8, 0.45));
    let glass = material(&mut b, "lamp_glass", [0.9, 0.88, 0.8]);
    let post = Geometry::merge([
        cuboid([-0.18, 0.0, -0.18], [0.18, 0.3, 0.18]),
        frustum(8, 0.08, 0.05, 0.3, POLE_HEIGHT),
        cuboid([-0.04, POLE_HEIGHT - 0.08, -0.04], [0.04, POLE_HEIGHT, ARM_REACH + 0.05]),
    ]);
    let pole_mesh = solid_mesh(&mut b, "pole", &[(post, pole)])?;
    // The lantern: a housing tapering down to its glass.
    let housing = frustum_box([-0.25, -0.12, -0.3], [0.25, 0.0, 0.3], 0.7);
    let glass_pane = cuboid([-0.17, -0.16, -0.22], [0.17, -0.12, 0.22]);
    let head_mesh = solid_mesh(&mut b, "head", &[(housing, pole), (glass_pane, glass)])?;
    let pole = b.node(Node::named("pole").mesh(pole_mesh));
    let head = b.node(Node::named("head").t(to_f32([0.0, POLE_HEIGHT - 0.08, ARM_REACH])).mesh(head_mesh));
    b.add_child(pole, head)?;
    let light = spot_light(&mut b, "lamp", LIGHT, CONE, RANGE);
    // A spot shines along its node's -Z: turned a quarter about X, straight down.
    let down = b.node(Node::named("lamp_light").t([0.0, -0.17, 0.0]).r(rotation([1.0, 0.0, 0.0], -90.0)).light(light));
    b.add_child(head, down)?;
    night_clip(&mut b, &[(glass, GLOW)], &[(light, CANDELA)])?;
    Ok(b)
}
