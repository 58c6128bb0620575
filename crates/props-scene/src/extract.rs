//! Extraction: the scene's props as plain frame data (palettes, instances, one batch per model)
//! and debug lines (roads with their signal states, skeletons), plus counts for a HUD.

use glam::{Affine3A, Vec3};
use hecs::{Component, World};
use props_anim::{JointMatrix, Pose};
use props_frame::{DebugLine, FrameData};

use crate::animals::Fox;
use crate::models::PropModel;
use crate::roads::{LANE_WIDTH, LaneKind};
use crate::scene::Scene;
use crate::shared_windmills::SharedWindmills;
use crate::signals::{LightState, TrafficLight};
use crate::traffic::Car;
use crate::wind::{self, Windmill};
use crate::{Placement, heading_yaw};

/// How many props of each kind there are, and what they cost the renderer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SceneCounts {
    /// Windmills.
    pub windmills: usize,
    /// Cars.
    pub cars: usize,
    /// Traffic lights.
    pub traffic_lights: usize,
    /// Foxes.
    pub foxes: usize,
    /// Instances [`Scene::extract`] pushes.
    pub instances: usize,
    /// Palette matrices it writes (joints plus node slots, over every instance; the traffic
    /// lights share one palette per phase; shared windmill palettes as the last
    /// [`Scene::extract`] wrote them).
    pub palette_matrices: usize,
}

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

/// Pushes every prop carrying component `T` as an instance of `prop`, then closes the batch.
fn extract_kind<T: Component>(world: &World, prop: &PropModel, frame: &mut FrameData) {
    let model = &*prop.model;
    for (placement, pose, _) in world.query::<(&Placement, &Pose, &T)>().iter() {
        model.write_palettes(pose, frame.push_instance(&placement.0, model.palette_len()));
    }
    frame.end_batch(prop.id);
}

/// Adds the bones (parent to child) of one posed prop.
fn bones(prop: &PropModel, placement: &Placement, pose: &Pose, lines: &mut Vec<DebugLine>) {
    let rig = prop.model.rig();
    let at = |node| placement.0.transform_point3(pose.world_matrix(node).translation.into());
    for node in rig.nodes() {
        if let Some(parent) = rig.parent(node) {
            lines.push(DebugLine { from: at(parent), to: at(node), color: SKELETON_COLOUR });
        }
    }
}

/// Adds the bones of up to `limit` props carrying `T`.
fn skeletons<T: Component>(world: &World, prop: &PropModel, limit: usize, lines: &mut Vec<DebugLine>) {
    for (placement, pose, _) in world.query::<(&Placement, &Pose, &T)>().iter().take(limit) {
        bones(prop, placement, pose, lines);
    }
}

/// Palettes written for `lights` traffic lights: one per phase, if there is any light.
fn shared_light_palettes(lights: usize) -> usize {
    if lights > 0 { 3 } else { 0 }
}

fn count<T: Component>(world: &World) -> usize {
    world.query::<&T>().iter().len()
}

impl Scene {
    /// Appends every prop to `frame`: for each model (windmill, car, traffic light, fox, in
    /// that order) its instances with their palettes (`Model::write_palettes` of the pose the
    /// last step computed; for windmills the same matrices from their two angles), closed as
    /// one batch of that model's `ModelId`; windmills share palettes as
    /// [`crate::SceneConfig::windmill_pose_step`] says. Clear the frame
    /// first; nothing else should be left pushed without its `end_batch`. Allocation-free once
    /// the frame's buffers have grown.
    pub fn extract(&mut self, frame: &mut FrameData) {
        self.extract_windmills(frame);
        let r = &self.rigs;
        extract_kind::<Car>(&self.world, &r.car.prop, frame);
        self.extract_lights(frame);
        extract_kind::<Fox>(&self.world, &r.fox.prop, frame);
    }

    /// Windmills are many and move through two nodes only: their palettes come from the
    /// factored palette instead of a pose each, one per windmill or one per distinct pair of
    /// rounded angles.
    fn extract_windmills(&mut self, frame: &mut FrameData) {
        let rig = &self.rigs.windmill;
        let len = rig.palette.len();
        let mills = self.world.query_mut::<(&Placement, &Windmill)>();
        match &mut self.shared_windmills {
            None => {
                for (placement, mill) in mills {
                    let out = frame.push_instance(&placement.0, len);
                    wind::write_palette(rig, mill.yaw(), mill.rotor_angle(), out);
                }
            }
            Some(shared) => {
                shared.clear();
                for (placement, mill) in mills {
                    let angles = (mill.yaw(), mill.rotor_angle());
                    shared.push(frame, &placement.0, angles, len, |yaw, rotor, out| {
                        wind::write_palette(rig, yaw, rotor, out);
                    });
                }
            }
        }
        frame.end_batch(rig.prop.id);
    }

    /// Traffic lights share their palettes: a light's pose is a pure function of its phase,
    /// so the three phase palettes are written once and every light carries only the offset
    /// of its phase's palette (exact pose sharing; the upload does not grow with the lights).
    fn extract_lights(&self, frame: &mut FrameData) {
        let light = &self.rigs.light;
        if count::<TrafficLight>(&self.world) > 0 {
            let model = &*light.prop.model;
            let bases = light.phase_poses.each_ref().map(|pose| {
                let base = frame.palettes.len();
                frame.palettes.resize(base + model.palette_len(), JointMatrix::IDENTITY);
                model.write_palettes(pose, &mut frame.palettes[base..]);
                base as u32
            });
            for (placement, light) in self.world.query::<(&Placement, &TrafficLight)>().iter() {
                frame.push_shared_instance(&placement.0, bases[light.state().phase_index()]);
            }
        }
        frame.end_batch(light.prop.id);
    }

    /// How many props there are and how many instances and palette matrices
    /// [`Scene::extract`] produces.
    #[must_use]
    pub fn counts(&self) -> SceneCounts {
        let r = &self.rigs;
        let kinds = [
            (count::<Windmill>(&self.world), &r.windmill.prop),
            (count::<Car>(&self.world), &r.car.prop),
            (count::<TrafficLight>(&self.world), &r.light.prop),
            (count::<Fox>(&self.world), &r.fox.prop),
        ];
        // Palettes written per kind: one per prop, but shared ones.
        let palettes = [
            self.shared_windmills.as_ref().map_or(kinds[0].0, SharedWindmills::palettes),
            kinds[1].0,
            shared_light_palettes(kinds[2].0),
            kinds[3].0,
        ];
        SceneCounts {
            windmills: kinds[0].0,
            cars: kinds[1].0,
            traffic_lights: kinds[2].0,
            foxes: kinds[3].0,
            instances: kinds.iter().map(|(n, _)| n).sum(),
            palette_matrices: palettes.iter().zip(&kinds).map(|(n, (_, p))| n * p.model.palette_len()).sum(),
        }
    }

    /// Appends the bones of up to `limit_per_model` props of each model (windmills are many).
    pub fn skeleton_lines(&self, limit_per_model: usize, lines: &mut Vec<DebugLine>) {
        let r = &self.rigs;
        self.with_windmill_pose(|pose| {
            for (placement, mill) in self.world.query::<(&Placement, &Windmill)>().iter().take(limit_per_model) {
                wind::pose(&r.windmill, mill, pose);
                bones(&r.windmill.prop, placement, pose, lines);
            }
        });
        skeletons::<Car>(&self.world, &r.car.prop, limit_per_model, lines);
        skeletons::<TrafficLight>(&self.world, &r.light.prop, limit_per_model, lines);
        skeletons::<Fox>(&self.world, &r.fox.prop, limit_per_model, lines);
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
