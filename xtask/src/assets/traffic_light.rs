//! `traffic_light.glb`: a 3.6 m pole-mounted signal facing +Z; +Y up, origin at the foot of the pole.
//!
//! `pole` (root) → `housing` → `lamp_red`, `lamp_amber`, `lamp_green`, each lens of its own
//! material. Which lamps are lit is an animated material: STEP `KHR_animation_pointer` tracks
//! set a lens's `emissiveFactor` to its colour (lit) or black (dark), as a signal is read by its
//! colour, not by a moving part. At rest every lamp is dark. Clips: `cycle` (10 s loop: green
//! 0-4 s, amber 4-5 s, red 5-10 s) and the single-key `green`, `amber`, `red` that hold one
//! phase.

use anyhow::Result;

use super::shapes::{Geometry, cuboid, frustum, frustum_z};
use super::{buffers, builder, material, mesh, metal, solid_mesh};
use crate::test_models::builder::{Channel, GltfBuilder, Interp, Node, Path, channel, to_f32};

/// Node names the game looks up.
pub const NODES: &[&str] = &["pole", "housing", "lamp_red", "lamp_amber", "lamp_green"];

/// Clip names.
pub const CLIPS: &[&str] = &["cycle", "green", "amber", "red"];

/// Height of the pole's top, where the housing's bottom sits (m).
const POLE_HEIGHT: f64 = 2.6;
/// Half the housing's height (m).
const HOUSING_HALF_HEIGHT: f64 = 0.5;
/// Half the housing's depth (m): the lenses sit on its front face.
const HOUSING_HALF_DEPTH: f64 = 0.12;
/// Vertical spacing of the lamps (m).
const LAMP_SPACING: f64 = 0.3;
/// Sides of a lens.
const LENS_SIDES: usize = 12;
/// Radius of a lens (m).
const LENS_RADIUS: f64 = 0.11;

/// One lamp: name, height above the housing's centre, dull and lit colours.
struct Lamp {
    /// Colour name: the node is `lamp_<name>`.
    name: &'static str,
    /// Centre height relative to the housing's centre (m).
    height: f64,
    /// Base colour when dark.
    dull: [f32; 3],
    /// Emissive colour when lit.
    lit: [f32; 3],
}

/// The lamps, top to bottom.
const LAMPS: [Lamp; 3] = [
    Lamp { name: "red", height: LAMP_SPACING, dull: [0.22, 0.03, 0.02], lit: [1.0, 0.06, 0.03] },
    Lamp { name: "amber", height: 0.0, dull: [0.24, 0.13, 0.01], lit: [1.0, 0.5, 0.0] },
    Lamp { name: "green", height: -LAMP_SPACING, dull: [0.02, 0.17, 0.06], lit: [0.1, 1.0, 0.3] },
];

/// The phases of `cycle`: which lamp is lit and from when (s); the last entry ends the loop.
const CYCLE: [(&str, f32); 4] = [("green", 0.0), ("amber", 4.0), ("red", 5.0), ("red", 10.0)];

/// Builds the asset.
pub fn build() -> Result<GltfBuilder> {
    let mut b = builder();
    let pole = metal(&mut b, "pole_grey", [0.45, 0.47, 0.5], (0.8, 0.45));
    let black = material(&mut b, "housing_black", [0.03, 0.03, 0.03]);

    let post =
        Geometry::merge([cuboid([-0.2, 0.0, -0.2], [0.2, 0.05, 0.2]), frustum(8, 0.07, 0.06, 0.05, POLE_HEIGHT)]);
    let pole_mesh = solid_mesh(&mut b, "pole", &[(post, pole)])?;
    let housing_mesh = solid_mesh(&mut b, "housing", &[(housing(), black)])?;
    // Lenses face +Z from just inside the housing's front face.
    let lens = buffers(&mut b, &frustum_z(LENS_SIDES, LENS_RADIUS, LENS_RADIUS, -0.01, 0.03))?;

    let pole = b.node(Node::named("pole").mesh(pole_mesh));
    let housing =
        b.node(Node::named("housing").t(to_f32([0.0, POLE_HEIGHT + HOUSING_HALF_HEIGHT, 0.0])).mesh(housing_mesh));
    b.add_child(pole, housing)?;
    // Each lamp's material, whose emissive factor the clips animate.
    let mut lenses = Vec::new();
    for lamp in &LAMPS {
        let name = format!("lamp_{}", lamp.name);
        let lens_material = material(&mut b, &name, lamp.dull);
        let lens_mesh = mesh(&mut b, &name, &[(lens, lens_material)]);
        let node = b.node(Node::named(&name).t(to_f32([0.0, lamp.height, HOUSING_HALF_DEPTH])).mesh(lens_mesh));
        b.add_child(housing, node)?;
        lenses.push((lamp, format!("/materials/{lens_material}/emissiveFactor")));
    }
    let glow = |lamp: &Lamp, lit: bool| if lit { lamp.lit } else { [0.0; 3] };

    let times: Vec<f32> = CYCLE.iter().map(|&(_, t)| t).collect();
    let cycle_input = b.times(&times)?;
    let cycle: Vec<Channel> = lenses
        .iter()
        .map(|(lamp, pointer)| {
            let keys: Vec<[f32; 3]> = CYCLE.iter().map(|&(lit, _)| glow(lamp, lit == lamp.name)).collect();
            let output = b.data(&keys, false)?;
            Ok(channel(0, Path::Pointer(pointer.clone()), Interp::Step, cycle_input, output))
        })
        .collect::<Result<_>>()?;
    b.animation("cycle", &cycle);

    let hold_input = b.times(&[0.0])?;
    for held in LAMPS.iter().rev() {
        let hold: Vec<Channel> = lenses
            .iter()
            .map(|(lamp, pointer)| {
                let output = b.data(&[glow(lamp, lamp.name == held.name)], false)?;
                Ok(channel(0, Path::Pointer(pointer.clone()), Interp::Step, hold_input, output))
            })
            .collect::<Result<_>>()?;
        b.animation(held.name, &hold);
    }
    Ok(b)
}

/// The housing, centred on its node: a box with a visor over each lamp.
fn housing() -> Geometry {
    let (w, h, d) = (0.2, HOUSING_HALF_HEIGHT, HOUSING_HALF_DEPTH);
    let visors = LAMPS.iter().map(|lamp| {
        let top = lamp.height + LENS_RADIUS + 0.03;
        cuboid([-0.14, top - 0.015, d], [0.14, top, d + 0.18])
    });
    Geometry::merge(std::iter::once(cuboid([-w, -h, -d], [w, h, d])).chain(visors))
}
