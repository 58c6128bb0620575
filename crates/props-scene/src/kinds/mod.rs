//! The town's prop kinds, each in its own file on the seam of [`crate::PropKind`], and the one
//! list that registers them ([`town`]). A new kind is a file here, its `mod` line, and a line in that list.

pub mod buses;
pub mod cars;
pub mod foxes;
pub mod houses;
pub mod lot;
pub mod street_lamps;
pub mod traffic_lights;
pub mod windmills;

use crate::config::SceneConfig;
use crate::kind::PropKind;

/// The town's kinds for `config`, in the order they step (and draw): what
/// [`crate::Scene::new`] is given, each with the models of its [`PropKind::asset`].
#[must_use]
pub fn town(config: &SceneConfig) -> Vec<Box<dyn PropKind>> {
    vec![
        Box::new(windmills::Windmills::new(config.windmills)),
        Box::new(cars::Cars::new(config.cars)),
        Box::new(traffic_lights::TrafficLights),
        Box::new(foxes::Foxes::new(config.foxes)),
        Box::new(buses::Buses::new(config.buses)),
        Box::new(street_lamps::StreetLamps),
        Box::new(houses::Houses),
        Box::new(lot::ModLot::default()),
    ]
}
