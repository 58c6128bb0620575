//! A model walked in a straight line at a speed, as a game walks its legged props: its gait
//! clips played in place ([`super::played_in_place`]) at the rates the speed calls for, blended
//! and in phase ([`super::Gaits`]), on the general pose path, its planted feet held where they
//! came down when asked ([`super::ik::Planting`]). What `cargo xtask gait` measures and the
//! previewer's treadmill shows.

use glam::{Affine3A, Vec3};

use super::ik::{Leg, Planting};
use super::{Gaits, played_in_place};
use crate::humanoid::BoneMap;
use crate::{Layer, Model, NodeId, Pose, Spec, pose_state};

/// A model walking (see the module documentation).
#[derive(Clone, Debug)]
pub struct Walker {
    model: Model,
    gaits: Gaits,
    spec: Spec,
    /// The slowest gait's feet, and the leg above each (where the rig has one).
    feet: Vec<NodeId>,
    legs: Vec<(NodeId, Leg)>,
    /// Pins of planted feet, when they are held.
    planting: Option<Planting>,
    phase: f32,
    /// How far it has walked along its forward, model units.
    travelled: f32,
    /// Whether each foot is planted, as of the last step.
    contact: Vec<bool>,
    /// Whether each leg's foot is planted (what the pins take).
    held: Vec<bool>,
}

impl Walker {
    /// `model` about to walk with the gaits of its clips `clips` (a walk, then a run, ...),
    /// its planted feet held if `plant`, its legs those of its person's `bones` where they
    /// map them (a sidecar's or a file's table; the nodes above each foot where they do not);
    /// `None` when a clip shows no stride.
    #[must_use]
    pub fn new(model: &Model, bones: &BoneMap, clips: &[usize], plant: bool) -> Option<Self> {
        let mut clips = clips.to_vec();
        let model = played_in_place(model, &mut clips).unwrap_or_else(|| model.clone());
        let gaits = Gaits::new(&model, &clips)?;
        let feet = gaits.stride(0).feet.clone();
        let legs: Vec<(NodeId, Leg)> =
            feet.iter().filter_map(|&f| Some((f, Leg::of(model.rig(), bones, f)?))).collect();
        let spec = Spec { clips: (0..gaits.len()).map(|g| gaits.clip(g)).collect(), ..Spec::default() };
        let planting = plant.then(|| Planting::for_feet(feet.len()));
        let (contact, held) = (vec![false; feet.len()], vec![false; legs.len()]);
        Some(Self { model, gaits, spec, feet, legs, planting, phase: 0.0, travelled: 0.0, contact, held })
    }

    /// The model it walks (its gait clips in place).
    #[must_use]
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Its gaits.
    #[must_use]
    pub fn gaits(&self) -> &Gaits {
        &self.gaits
    }

    /// Its feet (the slowest gait's), in [`Walker::contact`]'s order.
    #[must_use]
    pub fn feet(&self) -> &[NodeId] {
        &self.feet
    }

    /// Whether each foot was planted at the last step.
    #[must_use]
    pub fn contact(&self) -> &[bool] {
        &self.contact
    }

    /// Walks on `dt` seconds at `speed` (model units a second) and poses `pose` there (a pose
    /// of its model's rig; `scratch` another), world matrices computed; returns where the model
    /// stands: `travelled` along its forward from where it started.
    pub fn step(&mut self, speed: f32, dt: f32, (pose, scratch): (&mut Pose, &mut Pose)) -> Affine3A {
        let layers = self.gaits.advance(&mut self.phase, speed, dt);
        if speed.is_finite() && dt.is_finite() {
            self.travelled += speed.max(0.0) * dt;
        }
        let state = layers.map(|l| Layer { weight: l.weight, ..Layer::once(l.gait as u16, l.time) });
        pose_state(&self.model, &self.spec, &state, &[], pose, scratch);
        let forward: Vec3 = self.gaits.stride(0).forward;
        let placement = Affine3A::from_translation(forward * self.travelled);
        let lead = if layers[1].weight >= 0.5 { layers[1] } else { layers[0] };
        let stride = self.gaits.stride(lead.gait);
        for (down, foot) in self.contact.iter_mut().zip(&self.feet) {
            let k = stride.feet.iter().position(|f| f == foot);
            *down = k.is_some_and(|k| stride.planted(k, lead.time / stride.duration));
        }
        if let Some(planting) = &mut self.planting {
            for (held, (foot, _)) in self.held.iter_mut().zip(&self.legs) {
                *held = self.feet.iter().position(|f| f == foot).is_some_and(|k| self.contact[k]);
            }
            planting.apply(pose, self.model.rig(), &self.legs, &self.held, (placement, dt, None));
        }
        placement
    }
}
