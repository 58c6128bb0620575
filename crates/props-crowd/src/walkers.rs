//! [`Walkers`]: the instances of one model of a [`crate::CrowdSet`] that walk
//! ([`crate::Animates::gaits`]): each one's gait state and the motion its host set, turned into
//! its first [`gaited::LAYERS`] layers and its planted feet as time passes
//! ([`crate::CrowdSet::advance`]), as the demo town's people and foxes are.

use props_anim::NodeId;

use crate::Ground;
use crate::gaited::{self, GaitState, GaitedModel};
use crate::model_crowd::ModelCrowd;

/// One walking instance: its gait state, and the motion its host set last.
#[derive(Clone, Debug)]
struct Walker {
    state: GaitState,
    /// World units per second.
    speed: f32,
    /// The standing clip it shows once it stops (its clip number), if it is to stop.
    stand: Option<u16>,
}

impl Default for Walker {
    fn default() -> Self {
        Self { state: GaitState::new(0.0, 0.0), speed: 0.0, stand: None }
    }
}

/// The walking instances of one model, by instance number, and the model's measured gaits.
#[derive(Clone, Debug)]
pub(crate) struct Walkers {
    model: GaitedModel,
    walkers: Vec<Walker>,
}

impl Walkers {
    /// `crowd`'s instances walking (their states kept from `before`, the model's version before,
    /// where there was one): its gaits measured, its feet held on `ground`.
    pub fn new(crowd: &mut ModelCrowd, ground: Option<&Ground>, before: Option<Self>) -> Self {
        let model = GaitedModel::holding_feet(crowd, ground);
        let mut walkers = before.map_or_else(Vec::new, |before| before.walkers);
        walkers.resize_with(crowd.len(), Walker::default);
        Self { model, walkers }
    }

    /// A new instance, standing still at its gaits' start.
    pub fn push(&mut self) {
        self.walkers.push(Walker::default());
    }

    /// Instance `i` removed, the last taking its number.
    pub fn swap_remove(&mut self, i: usize) {
        self.walkers.swap_remove(i);
    }

    /// Sets instance `i`'s motion: `speed` in world units per second, standing clip `stand`
    /// once it stops; `false` when the model has no such standing clip.
    pub fn set(&mut self, i: usize, speed: f32, stand: Option<u16>) -> bool {
        if stand.is_some_and(|clip| !self.model.can_stand(clip)) || !speed.is_finite() {
            return false;
        }
        let walker = &mut self.walkers[i];
        (walker.speed, walker.stand) = (speed.max(0.0), stand);
        true
    }

    /// The gait state of instance `i`.
    pub fn state(&self, i: usize) -> &GaitState {
        &self.walkers[i].state
    }

    /// The model's feet, and which of them instance `i` has down (bit `k`: foot `k`).
    pub fn feet_down(&self, i: usize) -> (&[NodeId], u8) {
        (self.model.feet(), self.model.planted(&self.walkers[i].state))
    }

    /// `dt` seconds have passed: every walker of `crowd` moves on at its speed (in its model's
    /// units, at its placement's scale), its layers set and its planted feet held.
    pub fn advance(&mut self, crowd: &mut ModelCrowd, dt: f32) {
        let metres_per_unit = crowd.prop().scale;
        for (i, walker) in self.walkers.iter_mut().enumerate() {
            let i = i as u32;
            let speed = walker.speed / crowd.placement_scale(i).max(f32::EPSILON) * metres_per_unit;
            let layers = &mut crowd.layers_mut(i)[..gaited::LAYERS];
            self.model.animate(&mut walker.state, (speed, walker.stand), dt, layers);
            crowd.set_planted(i, dt, || self.model.planted(&walker.state));
        }
    }
}
