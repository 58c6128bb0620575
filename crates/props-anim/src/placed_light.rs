//! A model's punctual lights placed for one posed instance: where each light stands and how
//! bright it is this frame, in world space, as plain data a renderer shades with.
//!
//! A light rides the nearest node at or above its own that carries a mesh (the palette holds
//! that node's posed world matrix), so a lamp on an animated part moves with it; animation of
//! nodes between that one and the light's is not followed. Its colour, intensity, range and
//! cones are the palette's animated values where a clip animates them, else the file's.
//! Directional lights are left out: a prop does not bring its own sun.

use glam::{Affine3A, Vec3};

use crate::JointMatrix;
use crate::node_id::NodeId;
use crate::property::{LightField, Properties, PropertyTarget};
use crate::punctual::{Light, LightInstance, LightKind};
use crate::rig::Rig;

/// A light of one instance, this frame, in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedLight {
    /// Where it stands.
    pub position: Vec3,
    /// Unit vector where a spot light points (its node's -Z axis); straight down for a point
    /// light.
    pub direction: Vec3,
    /// Linear colour times intensity (candela).
    pub color: Vec3,
    /// Distance past which it lights nothing, metres; `None` for none (inverse-square
    /// falloff only).
    pub range: Option<f32>,
    /// A spot light's inner and outer cone angles from its axis, radians; `None` for a point
    /// light.
    pub cone: Option<[f32; 2]>,
}

/// How one light instance is placed and valued (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
struct LightPlacement {
    /// Where the palette holds the world matrix of the node the light rides, if any.
    anchor: Option<usize>,
    /// The light's rest position, and the way it points (its node's -Z), relative to that
    /// node (to the model's root without one).
    offset: (Vec3, Vec3),
    /// Index into the model's lights.
    light: usize,
    /// Where each animated field's values lie among the palette's property values, by
    /// [`FIELDS`].
    animated: [Option<u32>; 5],
}

/// The animatable light fields, in [`LightPlacement::animated`]'s order.
const FIELDS: [LightField; 5] = [
    LightField::Color,
    LightField::Intensity,
    LightField::Range,
    LightField::InnerConeAngle,
    LightField::OuterConeAngle,
];

/// Every point and spot light instance of a model, placed as the module documentation says.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct LightPlacements {
    placements: Vec<LightPlacement>,
}

impl LightPlacements {
    /// The placements of `light_instances` on `rig`, whose mesh instances are on
    /// `instance_nodes`, their node matrices in the palette from `node_slot` on.
    pub(crate) fn new(
        rig: &Rig,
        (instance_nodes, node_slot): (&[NodeId], usize),
        lights: &[Light],
        light_instances: &[LightInstance],
    ) -> Self {
        let mut rest_world: Vec<Affine3A> = Vec::with_capacity(rig.len());
        for node in rig.nodes() {
            let local = rig.rest_matrix(node);
            let world = rig.parent(node).map_or(local, |p| rest_world[p.index()] * local);
            rest_world.push(world);
        }
        let properties = rig.properties();
        let placements = light_instances
            .iter()
            .filter(|placed| !matches!(lights[placed.light as usize].kind, LightKind::Directional))
            .map(|placed| {
                let mut at = Some(placed.node);
                let anchor = loop {
                    let Some(node) = at else { break None };
                    if let Some(i) = instance_nodes.iter().position(|&n| n == node) {
                        break Some(i);
                    }
                    at = rig.parent(node);
                };
                let light_world = rest_world[placed.node.index()];
                let offset = match anchor {
                    Some(i) => rest_world[instance_nodes[i].index()].inverse() * light_world,
                    None => light_world,
                };
                let offset = (offset.translation.into(), offset.transform_vector3(Vec3::NEG_Z));
                let animated = FIELDS.map(|field| value_of(properties, placed.light, field));
                LightPlacement { anchor: anchor.map(|i| node_slot + i), offset, light: placed.light as usize, animated }
            })
            .collect();
        Self { placements }
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.placements.is_empty()
    }
}

/// Where the values of `field` of light `light` lie among a pose's property values, when a
/// clip animates it.
fn value_of(properties: &Properties, light: u32, field: LightField) -> Option<u32> {
    let id = properties.find(PropertyTarget::Light { light, field })?;
    Some(properties.range(id).start as u32)
}

/// One instance's lights: `palette` is its palette (of [`crate::Model::palette_len`]), whose
/// node matrices are placed by `placement`; `property_slot` is
/// [`crate::Model::property_slot`]. Lights of zero intensity are left out.
pub(crate) fn placed<'a>(
    (placements, lights): (&'a LightPlacements, &'a [Light]),
    (palette, property_slot): (&'a [JointMatrix], usize),
    placement: &'a JointMatrix,
) -> impl Iterator<Item = PlacedLight> + 'a {
    let values = palette.get(property_slot..).unwrap_or_default();
    let value = move |at: u32| crate::palette::read_value(values, at as usize);
    placements.placements.iter().filter_map(move |p| {
        let light = &lights[p.light];
        let animated = |field: usize, rest: f32, c: u32| p.animated[field].map_or(rest, |at| value(at + c));
        let intensity = animated(1, light.intensity, 0);
        if intensity <= 0.0 {
            return None;
        }
        let color =
            Vec3::new(animated(0, light.color[0], 0), animated(0, light.color[1], 1), animated(0, light.color[2], 2));
        let range = animated(2, light.range.unwrap_or(0.0), 0);
        let cone = match light.kind {
            LightKind::Spot { inner_cone_angle, outer_cone_angle } => {
                Some([animated(3, inner_cone_angle, 0), animated(4, outer_cone_angle, 0)])
            }
            _ => None,
        };
        let (position, direction) = match p.anchor {
            Some(i) => (palette[i].transform_point(p.offset.0), palette[i].transform_vector(p.offset.1)),
            None => p.offset,
        };
        let direction = match cone {
            Some(_) => placement.transform_vector(direction).normalize_or_zero(),
            None => Vec3::NEG_Y,
        };
        Some(PlacedLight {
            position: placement.transform_point(position),
            direction,
            color: color * intensity,
            range: (range > 0.0).then_some(range),
            cone,
        })
    })
}
