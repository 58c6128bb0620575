//! Debug lines of the town: its lanes with the stop lines in their signals' colours, and a
//! posed prop's bones.

use glam::{Affine3A, Vec3};
use props_anim::Pose;
use props_crowd::PropModel;
use props_frame::DebugLine;

use crate::heading_yaw;
use crate::town::roads::{LANE_WIDTH, LaneKind, RoadNetwork};
use crate::town::signals::{LightState, Signals};

/// Colours of debug lines, linear RGBA.
const ROAD_COLOUR: [f32; 4] = [0.85, 0.85, 0.8, 1.0];
const CONNECTOR_COLOUR: [f32; 4] = [0.45, 0.45, 0.5, 1.0];
const SKELETON_COLOUR: [f32; 4] = [1.0, 0.9, 0.2, 1.0];
/// Height of road lines above the ground, metres (so they are not hidden in it).
const ROAD_LINE_HEIGHT: f32 = 0.05;

fn light_colour(state: LightState) -> [f32; 4] {
    match state {
        LightState::Green => [0.1, 1.0, 0.3, 1.0],
        LightState::Amber => [1.0, 0.6, 0.0, 1.0],
        LightState::Red => [1.0, 0.1, 0.05, 1.0],
    }
}

/// Adds the bones (parent to child) of one posed prop.
pub(crate) fn bones(prop: &PropModel, placement: &Affine3A, pose: &Pose, lines: &mut Vec<DebugLine>) {
    let rig = prop.model.rig();
    let at = |node| placement.transform_point3(pose.world_matrix(node).translation.into());
    for node in rig.nodes() {
        if let Some(parent) = rig.parent(node) {
            lines.push(DebugLine { from: at(parent), to: at(node), color: SKELETON_COLOUR });
        }
    }
}

/// Adds the lanes (road lanes light, connectors darker) and, across the end of every approach
/// lane, its stop line in the colour its signal shows.
pub(crate) fn roads(roads: &RoadNetwork, signals: &Signals, lines: &mut Vec<DebugLine>) {
    let lift = |p: glam::Vec2| Vec3::new(p.x, ROAD_LINE_HEIGHT, p.y);
    for lane in roads.lanes() {
        let color = match lane.kind() {
            LaneKind::Road { .. } => ROAD_COLOUR,
            LaneKind::Connector { .. } => CONNECTOR_COLOUR,
        };
        lines.extend(lane.points().windows(2).map(|w| DebugLine { from: lift(w[0]), to: lift(w[1]), color }));
        if let Some((intersection, approach)) = lane.stop_line() {
            let (end, d) = lane.sample(lane.length());
            let across = Affine3A::from_rotation_y(heading_yaw(d)).transform_vector3(Vec3::X) * (LANE_WIDTH * 0.5);
            let color = light_colour(signals.state(intersection, approach));
            lines.push(DebugLine { from: lift(end) - across, to: lift(end) + across, color });
        }
    }
}
