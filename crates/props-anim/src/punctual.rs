//! What a punctual light is (glTF's `KHR_lights_punctual`): its kind, colour, intensity and
//! range as the file gives them, and which node carries it.

use crate::node_id::NodeId;

/// What a light is: how its rays leave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LightKind {
    /// Parallel rays along its node's -Z axis, as from the sun; intensity in lux (lm/m²).
    Directional,
    /// Rays from its node's origin in every direction; intensity in candela (lm/sr).
    Point,
    /// Rays from its node's origin along its -Z axis, within a cone; intensity in candela.
    Spot {
        /// Angle from the axis, radians, where the falloff begins.
        inner_cone_angle: f32,
        /// Angle from the axis, radians, where the light ends (at most π/2).
        outer_cone_angle: f32,
    },
}

/// A light, however many nodes carry it.
#[derive(Clone, Debug, PartialEq)]
pub struct Light {
    /// Name, if any.
    pub name: Option<String>,
    /// Directional, point or spot.
    pub kind: LightKind,
    /// Linear RGB colour, each component 0..=1.
    pub color: [f32; 3],
    /// Brightness: lux for a directional light, candela for the others.
    pub intensity: f32,
    /// Distance past which it lights nothing; `None` for no cutoff (inverse-square falloff
    /// only).
    pub range: Option<f32>,
}

/// A light placed on a node: it moves with the node's world matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightInstance {
    /// The node carrying the light.
    pub node: NodeId,
    /// Index into [`crate::Model::lights`].
    pub light: u32,
}
