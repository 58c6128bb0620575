//! Extraction: the scene's props as plain frame data (palettes, instances, one batch per model)
//! and debug lines (roads with their signal states, skeletons), plus counts for a HUD.

use glam::{Affine3A, Vec3};
use props_anim::{Pose, Workers};
use props_frame::{DebugLine, FrameData, InstanceData};

use crate::animation::crowds::PropCrowd;
use crate::heading_yaw;
use crate::models::PropModel;
use crate::scene::Scene;
use crate::town::roads::{LANE_WIDTH, LaneKind};
use crate::town::signals::LightState;

/// Instances extracted in one part, at least: fewer are written on the calling thread.
const MIN_EXTRACT_PART: usize = 4096;
/// Parts per worker thread (several, so that a thread held up elsewhere is made up for).
const PARTS_PER_THREAD: usize = 2;

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
fn bones(prop: &PropModel, placement: &Affine3A, pose: &Pose, lines: &mut Vec<DebugLine>) {
    let rig = prop.model.rig();
    let at = |node| placement.transform_point3(pose.world_matrix(node).translation.into());
    for node in rig.nodes() {
        if let Some(parent) = rig.parent(node) {
            lines.push(DebugLine { from: at(parent), to: at(node), color: SKELETON_COLOUR });
        }
    }
}

/// Appends the instances the last posing of `crowds` saw into `frame`, with the offsets of
/// their palettes, one batch per crowd in order, and the lit lights of those within
/// [`props_frame::LIGHT_DISTANCE`] of `eye`. With `workers`, written in parts at once.
/// Allocation-free once the frame's buffers have grown.
pub(crate) fn extract<'a, I>(
    crowds: impl Fn() -> I + Sync,
    workers: Option<&Workers>,
    eye: Option<Vec3>,
    frame: &mut FrameData,
) where
    I: Iterator<Item = &'a PropCrowd>,
{
    let total: usize = crowds().map(PropCrowd::visible_len).sum();
    let out = frame.instances.grow(total);
    // The new instances from number `first` on, into `out`: every crowd's, back to back.
    let write = |first: usize, out: &mut [InstanceData]| {
        let mut at = 0;
        for crowd in crowds() {
            let len = crowd.visible_len();
            let (from, to) = (first.max(at), (first + out.len()).min(at + len));
            if from < to {
                crowd.extract_into(from - at, &mut out[from - first..to - first]);
            }
            at += len;
        }
    };
    match workers {
        Some(pool) if total >= 2 * MIN_EXTRACT_PART => {
            let part = total.div_ceil(pool.threads() * PARTS_PER_THREAD).max(MIN_EXTRACT_PART);
            pool.for_each_chunk_mut(out, part, |k, out| write(k * part, out));
        }
        _ => write(0, out),
    }
    for crowd in crowds() {
        frame.add_batch(crowd.model_id(), crowd.visible_len());
        crowd.lights_into(&frame.palettes, eye, &mut frame.lights);
    }
}

impl Scene {
    /// Appends the props the last [`Scene::animate`] posed into `frame` (call it first, with
    /// the same frame): for each model (windmill, each car model, traffic light, fox, then the
    /// game's own kinds', in registration order) its visible instances, each with the offset
    /// of its palette, closed as one batch of that model's `ModelId`. Nothing else should be
    /// left pushed without its `end_batch`. With worker threads, written in parts at once.
    /// The lit point and spot lights of the visible props within `props_frame::LIGHT_DISTANCE`
    /// of the camera are appended to the frame's lights.
    /// Allocation-free once the frame's buffers have grown.
    pub fn extract(&self, frame: &mut FrameData) {
        extract(|| self.each_crowd(), self.workers.as_ref(), self.camera_eye(), frame);
    }

    /// Appends the bones of the first `limit_per_model` props of each model, posed on the
    /// general path from their exact states (windmills are many).
    pub fn skeleton_lines(&mut self, limit_per_model: usize, lines: &mut Vec<DebugLine>) {
        for crowd in self.each_crowd_mut() {
            crowd.each_pose(limit_per_model, |prop, placement, pose| bones(prop, placement, pose, lines));
        }
    }

    /// Appends the lanes (road lanes light, connectors darker) and, across the end of every
    /// approach lane, its stop line in the colour its signal shows.
    pub fn road_lines(&self, lines: &mut Vec<DebugLine>) {
        let lift = |p: glam::Vec2| Vec3::new(p.x, ROAD_LINE_HEIGHT, p.y);
        for lane in self.roads.lanes() {
            let color = match lane.kind() {
                LaneKind::Road { .. } => ROAD_COLOUR,
                LaneKind::Connector { .. } => CONNECTOR_COLOUR,
            };
            lines.extend(lane.points().windows(2).map(|w| DebugLine { from: lift(w[0]), to: lift(w[1]), color }));
            if let Some((intersection, approach)) = lane.stop_line() {
                let (end, d) = lane.sample(lane.length());
                let across = Affine3A::from_rotation_y(heading_yaw(d)).transform_vector3(Vec3::X) * (LANE_WIDTH * 0.5);
                let color = light_colour(self.signals().state(intersection, approach));
                lines.push(DebugLine { from: lift(end) - across, to: lift(end) + across, color });
            }
        }
    }
}
