//! `car.glb`: a small hatchback, 4.16 m long bumper to bumper; +Y up, +Z forward, +X to its left,
//! origin on the ground under the centre.
//!
//! `body` (root) → `steer_front_left` / `steer_front_right` (steering pivots at the front wheel
//! centres; the game turns them about Y) → `wheel_front_left` / `wheel_front_right`; and `body` →
//! `wheel_rear_left` / `wheel_rear_right`. Every wheel node sits at its wheel's centre, rolls about
//! its local X and shows the same mesh (a ten-sided tyre with light hub caps crossed by a dark bar,
//! so the rotation reads). Clip `drive`: all four wheels roll forwards, one turn per second.
//!
//! Its lamps are animated materials (`KHR_animation_pointer` on their emissive factors) and
//! three `KHR_lights_punctual` lights on `body` (`headlight_left` / `headlight_right`, spots
//! lighting the road ahead, and `tail_light`, a red point light behind), dark at rest:
//! `night` (0 to 1 s: headlights and tail lights from off to on), `brake` (one key: the tail
//! lights bright), `indicate_left` / `indicate_right` (a 0.8 s loop: the amber lamps at that
//! side's corners blink). The game plays each on a layer of its own.

use anyhow::Result;

use super::shapes::{Geometry, X, Z, cuboid, frustum_box, prism_x};
use super::{
    builder, full_turn, glass, light_intensity, material, metal, point_light, rotation, solid_mesh, spot_light,
};
use crate::test_models::builder::{GltfBuilder, Interp, Node, Path, channel, to_f32};

/// Node names the game looks up.
pub const NODES: &[&str] = &[
    "body",
    "steer_front_left",
    "steer_front_right",
    "wheel_front_left",
    "wheel_front_right",
    "wheel_rear_left",
    "wheel_rear_right",
];

/// Clip names.
pub const CLIPS: &[&str] = &["drive", "night", "brake", "indicate_left", "indicate_right"];

/// Lamp colours when lit (emissive, linear): headlights, tail lights at night and braking,
/// indicators.
const HEADLIGHT: [f32; 3] = [1.0, 0.95, 0.8];
const TAIL_NIGHT: [f32; 3] = [0.45, 0.01, 0.0];
const TAIL_BRAKE: [f32; 3] = [1.0, 0.04, 0.0];
const INDICATOR: [f32; 3] = [1.0, 0.45, 0.0];
/// The lights (candela): a headlight at night, the tail light at night and braking.
const HEADLIGHT_CANDELA: f32 = 100.0;
const TAIL_NIGHT_CANDELA: f32 = 1.5;
const TAIL_BRAKE_CANDELA: f32 = 5.0;
/// How far the headlights tilt down (degrees), their cone (radians) and reach (m).
const HEADLIGHT_TILT: f64 = 6.0;
const HEADLIGHT_CONE: [f32; 2] = [0.2, 0.45];
const HEADLIGHT_RANGE: f32 = 40.0;
/// An indicator's blink: on, then off, seconds each.
const BLINK: f32 = 0.4;

/// Metallic paint: how metallic, how rough.
pub(super) const PAINT: (f32, f32) = (0.5, 0.35);

/// Wheel radius (m); the wheel centres are this high.
const WHEEL_RADIUS: f64 = 0.33;
/// Tyre width (m).
const WHEEL_WIDTH: f64 = 0.24;
/// Sides of the wheel prism.
const WHEEL_SIDES: usize = 10;
/// Distance of the wheel centres from the centre line (m).
const TRACK_HALF: f64 = 0.78;
/// Distance of the axles from the middle of the car (m).
const AXLE_Z: f64 = 1.3;
/// Half the chassis width (m).
const BODY_HALF_WIDTH: f64 = 0.85;
/// Half the chassis length, without bumpers (m).
const BODY_HALF_LENGTH: f64 = 2.0;
/// Seconds per wheel turn in `drive`.
const TURN_PERIOD: f32 = 1.0;

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    // Metallic paint (the town tints it per car), glass over a dark cabin, chrome trim.
    let paint = metal(&mut b, "paint", [0.08, 0.25, 0.7], PAINT);
    let cabin = material(&mut b, "cabin", [0.03, 0.03, 0.035]);
    let glass = glass(&mut b, "glass", [0.2, 0.25, 0.3], 0.35);
    let trim = metal(&mut b, "trim", [0.55, 0.56, 0.58], (1.0, 0.3));
    let headlight = material(&mut b, "headlight", [1.0, 0.95, 0.75]);
    let taillight = material(&mut b, "taillight", [0.7, 0.03, 0.02]);
    let indicator_left = material(&mut b, "indicator_left", [0.6, 0.35, 0.05]);
    let indicator_right = material(&mut b, "indicator_right", [0.6, 0.35, 0.05]);

    let body_mesh = solid_mesh(
        &mut b,
        "body",
        &[
            (body_paint(), paint),
            (frustum_box([-0.75, 0.85, -1.07], [0.75, 1.42, 0.67], 0.85), cabin),
            (frustum_box([-0.78, 0.85, -1.1], [0.78, 1.45, 0.7], 0.85), glass),
            (bumpers(), trim),
            (lamps(BODY_HALF_LENGTH), headlight),
            (lamps(-BODY_HALF_LENGTH - 0.02), taillight),
            (indicators(1.0), indicator_left),
            (indicators(-1.0), indicator_right),
        ],
    )?;
    let wheel_mesh = wheel(&mut b, WHEEL_RADIUS, WHEEL_WIDTH)?;
    let body = b.node(Node::named("body").mesh(body_mesh));
    let axles = Axles { wheel_radius: WHEEL_RADIUS, track_half: TRACK_HALF, front: AXLE_Z, rear: -AXLE_Z };
    wheels_and_drive(&mut b, body, wheel_mesh, axles, TURN_PERIOD)?;
    // Lights on the body: the headlights shine ahead (+Z) and a little down (a spot shines
    // along its node's -Z), the tail light behind.
    let beam = spot_light(&mut b, "headlight", [1.0, 0.95, 0.85], HEADLIGHT_CONE, HEADLIGHT_RANGE);
    let glow = point_light(&mut b, "tail", [1.0, 0.05, 0.02], 5.0);
    let ahead = rotation([1.0, 0.0, 0.0], HEADLIGHT_TILT - 180.0);
    for (name, x) in [("headlight_left", 0.6), ("headlight_right", -0.6)] {
        let node = b.node(Node::named(name).t([x, 0.62, 2.05]).r(ahead).light(beam));
        b.add_child(body, node)?;
    }
    let tail = b.node(Node::named("tail_light").t([0.0, 0.8, -2.15]).light(glow));
    b.add_child(body, tail)?;
    lights(&mut b, (headlight, taillight), [indicator_left, indicator_right], (beam, glow))?;
    Ok(b)
}

/// The lights' clips (see the module documentation): lamps `head` and `tail`, the amber
/// `indicators`, lights `beam` (both headlights) and `glow` (the tail light).
fn lights(
    b: &mut GltfBuilder,
    (head, tail): (usize, usize),
    indicators: [usize; 2],
    (beam, glow): (usize, usize),
) -> Result<()> {
    let emissive = |material: usize| Path::Pointer(format!("/materials/{material}/emissiveFactor"));
    let night_input = b.times(&[0.0, 1.0])?;
    let mut night = [(head, HEADLIGHT), (tail, TAIL_NIGHT)]
        .into_iter()
        .map(|(material, lit)| {
            Ok(channel(0, emissive(material), Interp::Linear, night_input, b.data(&[[0.0; 3], lit], false)?))
        })
        .collect::<Result<Vec<_>>>()?;
    for (light, candela) in [(beam, HEADLIGHT_CANDELA), (glow, TAIL_NIGHT_CANDELA)] {
        night.push(channel(0, light_intensity(light), Interp::Linear, night_input, b.scalars(&[0.0, candela], false)?));
    }
    b.animation("night", &night);
    let hold = b.times(&[0.0])?;
    let brake = b.data(&[TAIL_BRAKE], false)?;
    let brake_light = b.scalars(&[TAIL_BRAKE_CANDELA], false)?;
    b.animation(
        "brake",
        &[
            channel(0, emissive(tail), Interp::Step, hold, brake),
            channel(0, light_intensity(glow), Interp::Step, hold, brake_light),
        ],
    );
    let blink_input = b.times(&[0.0, BLINK, 2.0 * BLINK])?;
    let blink = b.data(&[INDICATOR, [0.0; 3], [0.0; 3]], false)?;
    for (name, material) in [("indicate_left", indicators[0]), ("indicate_right", indicators[1])] {
        b.animation(name, &[channel(0, emissive(material), Interp::Step, blink_input, blink)]);
    }
    Ok(())
}

/// The indicator lamps of one side (`side` 1: left, +X; -1: right) at the front and rear
/// corners.
fn indicators(side: f64) -> Geometry {
    let x = side * (BODY_HALF_WIDTH - 0.06);
    let front = cuboid([x - 0.06, 0.5, BODY_HALF_LENGTH], [x + 0.06, 0.58, BODY_HALF_LENGTH + 0.025]);
    let rear = cuboid([x - 0.06, 0.76, -BODY_HALF_LENGTH - 0.025], [x + 0.06, 0.84, -BODY_HALF_LENGTH]);
    Geometry::merge([front, rear])
}

/// Where a vehicle's wheels are (m): their radius (the wheel centres are this high), their
/// distance from the centre line, and the front and rear axles along the vehicle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Axles {
    pub wheel_radius: f64,
    pub track_half: f64,
    pub front: f64,
    pub rear: f64,
}

/// Adds a vehicle's wheels under `body`, all showing `wheel_mesh`: the front ones under
/// steering pivots `steer_front_left` / `steer_front_right` at their centres, the rear ones
/// directly (`wheel_{front,rear}_{left,right}`), and the clip `drive`: every wheel rolling
/// forwards, one turn per `turn_period` seconds. The car's and the bus's.
pub(super) fn wheels_and_drive(
    b: &mut GltfBuilder,
    body: usize,
    wheel_mesh: usize,
    axles: Axles,
    turn_period: f32,
) -> Result<()> {
    let mut wheels = Vec::new();
    for (end, z) in [("front", axles.front), ("rear", axles.rear)] {
        for (side, x) in [("left", axles.track_half), ("right", -axles.track_half)] {
            let centre = to_f32([x, axles.wheel_radius, z]);
            let wheel = Node::named(&format!("wheel_{end}_{side}")).mesh(wheel_mesh);
            if end == "front" {
                let pivot = b.node(Node::named(&format!("steer_{end}_{side}")).t(centre));
                b.add_child(body, pivot)?;
                let wheel = b.node(wheel);
                b.add_child(pivot, wheel)?;
                wheels.push(wheel);
            } else {
                let wheel = b.node(wheel.t(centre));
                b.add_child(body, wheel)?;
                wheels.push(wheel);
            }
        }
    }
    // Positive angles about +X carry the top of a wheel towards +Z: rolling forwards.
    let (input, output) = full_turn(b, [1.0, 0.0, 0.0], turn_period, false)?;
    let channels: Vec<_> =
        wheels.iter().map(|&wheel| channel(wheel, Path::Rotation, Interp::Linear, input, output)).collect();
    b.animation("drive", &channels);
    Ok(())
}

/// The painted shell: chassis and a roof slab on the tapered cabin.
fn body_paint() -> Geometry {
    Geometry::merge([
        cuboid([-BODY_HALF_WIDTH, 0.3, -BODY_HALF_LENGTH], [BODY_HALF_WIDTH, 0.85, BODY_HALF_LENGTH]),
        cuboid([-0.68, 1.45, -0.98], [0.68, 1.5, 0.58]),
    ])
}

/// Front and rear bumpers.
fn bumpers() -> Geometry {
    let front = cuboid([-0.87, 0.28, BODY_HALF_LENGTH - 0.05], [0.87, 0.45, BODY_HALF_LENGTH + 0.08]);
    Geometry::merge([front.mirrored(Z), front])
}

/// A pair of lamps (left and right) 2 cm deep starting at `z`, on the chassis' end face.
fn lamps(z: f64) -> Geometry {
    let left = cuboid([0.5, 0.62, z], [0.78, 0.74, z + 0.02]);
    Geometry::merge([left.mirrored(X), left])
}

/// A wheel mesh of `radius` and `width` (m), centred on its axle (local X), with its materials
/// (`tyre`, `hub_cap`): a tyre, a hub cap on each side and a dark bar across each cap (so that
/// the roll reads). The car's and the bus's.
pub(super) fn wheel(b: &mut GltfBuilder, radius: f64, width: f64) -> Result<usize> {
    let tyre = material(b, "tyre", [0.04, 0.04, 0.04]);
    let hub_cap = metal(b, "hub_cap", [0.75, 0.75, 0.78], (1.0, 0.25));
    let half = width / 2.0;
    let cap = prism_x(WHEEL_SIDES, 0.6 * radius, half, half + 0.015);
    let bar = cuboid([half + 0.015, -0.55 * radius, -0.035], [half + 0.025, 0.55 * radius, 0.035]);
    let rubber = Geometry::merge([prism_x(WHEEL_SIDES, radius, -half, half), bar.mirrored(X), bar]);
    solid_mesh(b, "wheel", &[(rubber, tyre), (Geometry::merge([cap.mirrored(X), cap]), hub_cap)])
}
