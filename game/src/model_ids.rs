//! The kinds of props the town shows, the base asset each one loads from, and the fixed
//! renderer ids of the town's models.

use props_frame::ModelId;

/// A model the scene drives by node and clip names (see `assets/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Windmills on the hills.
    Windmill,
    /// Cars on the roads.
    Car,
    /// Traffic lights at the intersections.
    TrafficLight,
    /// Foxes in the parks.
    Fox,
    /// Buses on the roads, stopping at bus stops (a prop kind the game registers with the
    /// scene, [`props_scene::Buses`]).
    Bus,
}

impl Role {
    /// Every role, in id order.
    pub const ALL: [Role; 5] = [Role::Windmill, Role::Car, Role::TrafficLight, Role::Fox, Role::Bus];

    /// The model's name: the file stem of its base asset, and of a mod that overrides it
    /// ([`props_scene::PROP_ASSETS`]).
    pub fn name(self) -> &'static str {
        props_scene::PROP_ASSETS[self as usize].0
    }

    /// The role a model named `name` overrides, if any (names are case-sensitive).
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.name() == name)
    }

    /// Model units to metres: Fox.glb is in centimetres ([`props_scene::PROP_ASSETS`]).
    pub fn scale(self) -> f32 {
        props_scene::PROP_ASSETS[self as usize].1
    }

    /// How much larger than life its props are drawn: traffic lights twice, so that a player
    /// can read them from the town's overview; the rest at their size.
    pub fn display_scale(self) -> f32 {
        match self {
            Role::TrafficLight => 2.0,
            Role::Windmill | Role::Car | Role::Fox | Role::Bus => 1.0,
        }
    }

    /// Where its props stand, as the `mod reloaded` log line says (`place=traffic`).
    pub fn place(self) -> &'static str {
        match self {
            Role::Windmill => "hills",
            Role::Car => "traffic",
            Role::TrafficLight => "intersections",
            Role::Fox => "parks",
            Role::Bus => "bus routes",
        }
    }

    /// The name of the scene's prop kind that shows it.
    pub fn kind(self) -> &'static str {
        match self {
            Role::Windmill => "windmills",
            Role::Car => "cars",
            Role::TrafficLight => "traffic_lights",
            Role::Fox => "foxes",
            Role::Bus => "buses",
        }
    }

    /// Whether a mod of this role not named like its base asset adds a model beside it (its
    /// props pick among the models, seeded) instead of replacing it: cars, windmills and
    /// animals; a town keeps one design of traffic light and of bus.
    pub fn takes_variants(self) -> bool {
        matches!(self, Role::Car | Role::Windmill | Role::Fox)
    }

    /// The renderer id of the role's current model.
    pub fn id(self) -> ModelId {
        ModelId(self as u32)
    }
}

/// The renderer id of the ground.
pub const GROUND: ModelId = ModelId(Role::ALL.len() as u32);

/// The renderer id of the houses on the blocks.
pub const BUILDINGS: ModelId = ModelId(GROUND.0 + 1);

/// The first renderer id handed to mods that add a model (lot models, extra car models).
pub const FIRST_MOD_ID: u32 = BUILDINGS.0 + 1;

/// Renderer ids for mods that add a model: each taken until released, reused after.
#[derive(Debug)]
pub struct ModelIds {
    free: Vec<ModelId>,
    next: u32,
}

impl Default for ModelIds {
    fn default() -> Self {
        Self { free: Vec::new(), next: FIRST_MOD_ID }
    }
}

impl ModelIds {
    /// The id [`ModelIds::take`] would give.
    pub fn peek(&self) -> ModelId {
        self.free.last().copied().unwrap_or(ModelId(self.next))
    }

    /// Takes an id no mod holds.
    pub fn take(&mut self) -> ModelId {
        self.free.pop().unwrap_or_else(|| {
            self.next += 1;
            ModelId(self.next - 1)
        })
    }

    /// Gives `id` back, for another mod.
    pub fn release(&mut self, id: ModelId) {
        self.free.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_ids_are_reused_after_release_and_never_a_role_s() {
        let mut ids = ModelIds::default();
        let (a, b) = (ids.take(), ids.take());
        assert!(a.0 > GROUND.0 && b.0 > a.0);
        ids.release(a);
        assert_eq!((ids.peek(), ids.take(), ids.take()), (a, a, ModelId(b.0 + 1)));
    }

    #[test]
    fn names_round_trip_and_ids_are_distinct() {
        for role in Role::ALL {
            assert_eq!(Role::from_name(role.name()), Some(role));
            assert!(role.id().0 < GROUND.0);
        }
        assert_eq!(Role::from_name("fox"), None, "names are case-sensitive, as mods/README.md says");
    }
}
