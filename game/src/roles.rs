//! The four kinds of props the town needs, the base asset each one loads from, and the fixed
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
}

impl Role {
    /// Every role, in id order.
    pub const ALL: [Role; 4] = [Role::Windmill, Role::Car, Role::TrafficLight, Role::Fox];

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

    /// Where its props stand, as the `mod reloaded` log line says (`place=traffic`).
    pub fn place(self) -> &'static str {
        match self {
            Role::Windmill => "hills",
            Role::Car => "traffic",
            Role::TrafficLight => "intersections",
            Role::Fox => "parks",
        }
    }

    /// The renderer id of the role's current model.
    pub fn id(self) -> ModelId {
        ModelId(self as u32)
    }
}

/// The renderer id of the ground.
pub const GROUND: ModelId = ModelId(Role::ALL.len() as u32);

/// The first renderer id handed to mod-lot models.
pub const FIRST_LOT_ID: u32 = GROUND.0 + 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_ids_are_distinct() {
        for role in Role::ALL {
            assert_eq!(Role::from_name(role.name()), Some(role));
            assert!(role.id().0 < GROUND.0);
        }
        assert_eq!(Role::from_name("fox"), None, "names are case-sensitive, as mods/README.md says");
    }
}
