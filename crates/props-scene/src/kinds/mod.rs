//! The town's kinds, each in its own file on the seam of [`crate::PropKind`] (its components
//! and systems, its asset, its stand-in and its default count), and the one list that
//! registers them ([`town`]). A new kind is a file here, its `mod` line, and a line in that
//! list; its asset's generator lives in `xtask`.

pub mod buses;
pub mod cars;
pub mod foxes;
pub mod houses;
mod legged;
pub mod lot;
pub mod pedestrians;
pub mod street_lamps;
pub mod traffic_lights;
pub mod windmills;

use crate::kind::PropKind;

/// The town's kinds, each with its default count, in the order they step (and draw): what
/// [`crate::Scene::new`] is given, each with the models of its [`PropKind::asset`]; the
/// scene's [`crate::SceneConfig::counts`] set other counts.
#[must_use]
pub fn town() -> Vec<Box<dyn PropKind>> {
    vec![
        Box::new(windmills::Windmills::default()),
        Box::new(cars::Cars::default()),
        Box::new(traffic_lights::TrafficLights),
        Box::new(foxes::Foxes::default()),
        Box::new(buses::Buses::default()),
        Box::new(street_lamps::StreetLamps),
        Box::new(houses::Houses),
        Box::new(pedestrians::Pedestrians::default()),
        Box::new(lot::ModLot::default()),
    ]
}
