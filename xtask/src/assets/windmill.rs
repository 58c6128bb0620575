//! `windmill.glb`: a three-bladed wind turbine, about 20.7 m to the top blade tip; +Y up, origin at
//! the centre of the base, rotor facing +Z.
//!
//! `tower` (root, static) → `nacelle` (on top; the game yaws it about Y) → `hub` (at the front;
//! spins about its local Z) → `blade_0`..`blade_2` (120 degrees apart). Clip `spin`: the hub turns
//! once every 4 s, clockwise seen from the front.

use anyhow::Result;

use super::shapes::{Geometry, cuboid, frustum, frustum_box, frustum_z};
use super::{builder, full_turn, material, rotation, solid_mesh};
use crate::test_models::builder::{GltfBuilder, Interp, Node, Path, channel, to_f32};

/// Node names the game looks up.
pub const NODES: &[&str] = &["tower", "nacelle", "hub", "blade_0", "blade_1", "blade_2"];

/// Clip names.
pub const CLIPS: &[&str] = &["spin"];

/// Tower height (m): where the nacelle sits.
const TOWER_HEIGHT: f64 = 14.0;
/// Height of the rotor axis above the nacelle's origin (m).
const HUB_HEIGHT: f64 = 0.7;
/// Front face of the nacelle (m along +Z): where the hub sits.
const NACELLE_FRONT: f64 = 1.0;
/// Distance of the blades' plane in front of the hub's origin (m).
const BLADE_OFFSET: f64 = 0.3;
/// Blade root and tip distance from the rotor axis (m).
const BLADE_SPAN: (f64, f64) = (0.35, 6.0);
/// Blade chord (width, m) at the root and at the tip.
const BLADE_CHORD: (f64, f64) = (0.6, 0.24);
/// Blade thickness at the root (m); it tapers like the chord.
const BLADE_THICKNESS: f64 = 0.14;
/// Where the red tip stripe starts (m from the rotor axis).
const STRIPE_START: f64 = 5.2;
/// Seconds per turn of the rotor.
const SPIN_PERIOD: f32 = 4.0;

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    let white = material(&mut b, "white", [0.9, 0.9, 0.88]);
    let grey = material(&mut b, "grey", [0.4, 0.42, 0.45]);
    let concrete = material(&mut b, "concrete", [0.55, 0.54, 0.5]);
    let red = material(&mut b, "red", [0.75, 0.06, 0.05]);

    let shaft = frustum(8, 0.8, 0.4, 0.0, TOWER_HEIGHT);
    let plinth = frustum(8, 1.4, 1.4, 0.0, 0.3);
    let tower_mesh = solid_mesh(&mut b, "tower", &[(shaft, white), (plinth, concrete)])?;
    let nacelle_body = cuboid([-0.6, -0.05, -2.2], [0.6, 1.35, NACELLE_FRONT]);
    let nacelle_mesh = solid_mesh(&mut b, "nacelle", &[(nacelle_body, grey)])?;
    let nose = frustum_z(8, 0.45, 0.12, 0.0, 0.9);
    let hub_mesh = solid_mesh(&mut b, "hub", &[(nose, white)])?;
    let blade_mesh = solid_mesh(
        &mut b,
        "blade",
        &[(blade_section(BLADE_SPAN.0, STRIPE_START), white), (blade_section(STRIPE_START, BLADE_SPAN.1), red)],
    )?;

    let tower = b.node(Node::named("tower").mesh(tower_mesh));
    let nacelle = b.node(Node::named("nacelle").t(to_f32([0.0, TOWER_HEIGHT, 0.0])).mesh(nacelle_mesh));
    b.add_child(tower, nacelle)?;
    let hub = b.node(Node::named("hub").t(to_f32([0.0, HUB_HEIGHT, NACELLE_FRONT])).mesh(hub_mesh));
    b.add_child(nacelle, hub)?;
    for k in 0..3u8 {
        let blade = b.node(
            Node::named(&format!("blade_{k}"))
                .t(to_f32([0.0, 0.0, BLADE_OFFSET]))
                .r(rotation([0.0, 0.0, 1.0], 120.0 * f64::from(k)))
                .mesh(blade_mesh),
        );
        b.add_child(hub, blade)?;
    }

    let (input, output) = full_turn(&mut b, [0.0, 0.0, 1.0], SPIN_PERIOD, true)?;
    b.animation("spin", &[channel(hub, Path::Rotation, Interp::Linear, input, output)]);
    Ok(b)
}

/// The part of a blade from `r0` to `r1` along +Y: a box whose chord and thickness taper linearly
/// from root to tip, centred in the blade's XY plane.
fn blade_section(r0: f64, r1: f64) -> Geometry {
    let (root, tip) = BLADE_SPAN;
    let chord = |r: f64| BLADE_CHORD.0 + (BLADE_CHORD.1 - BLADE_CHORD.0) * (r - root) / (tip - root);
    let (w, t) = (chord(r0) / 2.0, BLADE_THICKNESS * chord(r0) / BLADE_CHORD.0 / 2.0);
    frustum_box([-w, r0, -t], [w, r1, t], chord(r1) / chord(r0))
}
