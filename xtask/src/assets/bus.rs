//! `bus.glb`: a 12 m city bus with two doors on its right side; +Y up, +Z forward, +X to its
//! left, origin on the ground under the centre.
//!
//! `body` (root) → `steer_front_left` / `steer_front_right` (steering pivots at the front wheel
//! centres) → `wheel_front_left` / `wheel_front_right`; `body` → `wheel_rear_left` /
//! `wheel_rear_right`; `body` → `door_front` / `door_rear` (each door panel's node in the door's
//! closed place). The same node names as `car.glb`, so the game drives the wheels the same way.
//!
//! Clips: `drive` (all four wheels roll forwards, one turn per two seconds); `door_front` and
//! `door_rear` (a sliding plug door: out by 12 cm, then back along the side by 1.05 m, over
//! [`DOOR_TIME`] seconds; played forwards to open and backwards to close). Each door clip
//! animates its door node only; the game plays it on a layer masked to the door anyway, over
//! the driving pose.

use anyhow::Result;

use super::car::{Axles, PAINT, wheel, wheels_and_drive};
use super::shapes::{Geometry, X, Z, cuboid};
use super::{builder, material, metal, solid_mesh};
use crate::test_models::builder::{GltfBuilder, Interp, Node, Path, channel, to_f32};

/// Node names the game looks up beside a car's ([`super::car::NODES`]).
pub const DOORS: &[&str] = &["door_front", "door_rear"];

/// Clip names.
pub const CLIPS: &[&str] = &["drive", "door_front", "door_rear"];

/// Wheel radius (m).
const WHEEL_RADIUS: f64 = 0.5;
/// Tyre width (m).
const WHEEL_WIDTH: f64 = 0.3;
/// Distance of the wheel centres from the centre line (m).
const TRACK_HALF: f64 = 1.05;
/// Front and rear axle positions along the bus (m).
const AXLES_Z: [f64; 2] = [3.4, -3.2];
/// Half the body's width (m).
const HALF_WIDTH: f64 = 1.25;
/// Half the body's length (m).
const HALF_LENGTH: f64 = 6.0;
/// Height of the floor, the window band and the roof (m).
const FLOOR: f64 = 0.35;
const WINDOWS: [f64; 2] = [1.25, 2.55];
const ROOF: f64 = 3.0;
/// Door centres along the bus (m) and the door's half width (m).
const DOORS_Z: [f64; 2] = [4.7, 0.3];
const DOOR_HALF: f64 = 0.55;
/// Seconds a door takes to open.
pub const DOOR_TIME: f32 = 1.2;
/// Seconds per wheel turn in `drive`.
const TURN_PERIOD: f32 = 2.0;

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    let paint = metal(&mut b, "paint", [0.75, 0.32, 0.05], PAINT);
    // The window band over the dark inside: smooth dark glass, reflecting the sky.
    let glass = metal(&mut b, "glass", [0.08, 0.11, 0.15], (0.0, 0.05));
    let trim = material(&mut b, "trim", [0.15, 0.15, 0.16]);
    let door = metal(&mut b, "door", [0.55, 0.56, 0.58], (1.0, 0.35));
    let headlight = material(&mut b, "headlight", [1.0, 0.95, 0.75]);

    let body_mesh = solid_mesh(
        &mut b,
        "body",
        &[(shell(), paint), (window_band(), glass), (bumpers(), trim), (headlights(), headlight)],
    )?;
    let door_mesh = solid_mesh(&mut b, "door", &[(door_panel(), door)])?;
    let wheel_mesh = wheel(&mut b, WHEEL_RADIUS, WHEEL_WIDTH)?;
    let body = b.node(Node::named("body").mesh(body_mesh));
    let axles = Axles { wheel_radius: WHEEL_RADIUS, track_half: TRACK_HALF, front: AXLES_Z[0], rear: AXLES_Z[1] };
    wheels_and_drive(&mut b, body, wheel_mesh, axles, TURN_PERIOD)?;

    // The doors: closed flush with the right side (-X), sliding out and back.
    let times = b.times(&[0.0, DOOR_TIME * 0.3, DOOR_TIME])?;
    for (name, z) in [("door_front", DOORS_Z[0]), ("door_rear", DOORS_Z[1])] {
        let closed = [-HALF_WIDTH, 0.0, z];
        let keys = [closed, [-HALF_WIDTH - 0.12, 0.0, z], [-HALF_WIDTH - 0.12, 0.0, z - 2.0 * DOOR_HALF + 0.05]];
        let node = b.node(Node::named(name).mesh(door_mesh).t(to_f32(closed)));
        b.add_child(body, node)?;
        let output = b.data(&keys.map(to_f32), false)?;
        b.animation(name, &[channel(node, Path::Translation, Interp::Linear, times, output)]);
    }
    Ok(b)
}

/// The painted shell: the lower body, the pillars between the windows and the roof.
fn shell() -> Geometry {
    let [low, high] = WINDOWS;
    let mut parts = vec![
        cuboid([-HALF_WIDTH, FLOOR, -HALF_LENGTH], [HALF_WIDTH, low, HALF_LENGTH]),
        cuboid([-HALF_WIDTH, high, -HALF_LENGTH], [HALF_WIDTH, ROOF, HALF_LENGTH]),
    ];
    // Pillars every 2 m along both sides, a little proud of the glass.
    for k in 0..7 {
        let z = -HALF_LENGTH + 0.1 + 1.95 * f64::from(k);
        let left = cuboid([HALF_WIDTH - 0.04, low, z], [HALF_WIDTH, high, z + 0.15]);
        parts.push(left.mirrored(X));
        parts.push(left);
    }
    Geometry::merge(parts)
}

/// The glass band all round, slightly inside the shell.
fn window_band() -> Geometry {
    let [low, high] = WINDOWS;
    cuboid([-HALF_WIDTH + 0.03, low, -HALF_LENGTH + 0.03], [HALF_WIDTH - 0.03, high, HALF_LENGTH - 0.03])
}

/// Front and rear bumpers.
fn bumpers() -> Geometry {
    let front = cuboid([-HALF_WIDTH, 0.3, HALF_LENGTH - 0.05], [HALF_WIDTH, 0.6, HALF_LENGTH + 0.1]);
    Geometry::merge([front.mirrored(Z), front])
}

/// A pair of headlights on the front face.
fn headlights() -> Geometry {
    let left = cuboid([0.75, 0.75, HALF_LENGTH], [1.1, 0.95, HALF_LENGTH + 0.02]);
    Geometry::merge([left.mirrored(X), left])
}

/// A door panel around its node: 6 cm thick, outside the side (-X), floor to the window top.
fn door_panel() -> Geometry {
    cuboid([-0.06, FLOOR + 0.05, -DOOR_HALF], [0.0, WINDOWS[1], DOOR_HALF])
}
