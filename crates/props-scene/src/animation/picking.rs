//! What a player clicked: the prop whose culling sphere (the model's pose bound, baked at
//! import over every clip, times the prop's scale) a ray from the camera enters first, and
//! what to tell about it.

use glam::Vec3;
use hecs::Entity;

use crate::animals::Gait;
use crate::scene::Scene;
use crate::signals::LightState;

/// What a picked prop is doing: the built-in kinds' in figures, any other kind's in words.
#[derive(Clone, Debug, PartialEq)]
pub enum PropInfo {
    /// A car.
    Car {
        /// Speed, m/s.
        speed: f32,
        /// Whether it stands still.
        waiting: bool,
        /// Its lane.
        lane: u32,
    },
    /// A windmill.
    Windmill {
        /// Wind speed at its site now, m/s.
        wind: f32,
        /// Rotor speed, revolutions per minute.
        rotor_rpm: f32,
    },
    /// A traffic light.
    TrafficLight {
        /// What it shows.
        state: LightState,
    },
    /// A prop of a kind the scene does not build in (a bus, a game's own), as its kind
    /// describes it.
    Other {
        /// The kind's name ([`crate::PropKind::name`]).
        kind: &'static str,
        /// What it is doing, in a few words for a player (`bus at its stop, doors open`).
        summary: String,
    },
    /// A fox.
    Fox {
        /// Speed, m/s.
        speed: f32,
        /// Its gait.
        gait: Gait,
        /// Weight of the gait's clip (below 1 while crossfading from the other).
        weight: f32,
    },
}

impl Scene {
    /// The prop a ray from `origin` along `direction` enters first, by the culling spheres of
    /// the props (their model's pose bound times their scale): the same conservative bound
    /// as culling, so a visible prop can always be picked.
    #[must_use]
    pub fn pick(&self, origin: Vec3, direction: Vec3) -> Option<Entity> {
        let direction = direction.try_normalize()?;
        let mut nearest: Option<(f32, Entity)> = None;
        for entity in self.world().iter().map(|e| e.entity()) {
            let Some((centre, radius)) = self.bound_of(entity) else { continue };
            // Entry distance of the ray into the sphere, if it meets it ahead.
            let along = (centre - origin).dot(direction);
            let off = (centre - origin - direction * along).length_squared();
            if off > radius * radius {
                continue;
            }
            let entry = along - (radius * radius - off).sqrt();
            let t = if entry >= 0.0 {
                entry
            } else if along + (radius * radius - off).sqrt() >= 0.0 {
                0.0
            } else {
                continue;
            };
            if nearest.is_none_or(|(best, _)| t < best) {
                nearest = Some((t, entity));
            }
        }
        nearest.map(|(_, entity)| entity)
    }
}
