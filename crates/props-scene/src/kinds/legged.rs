//! What the town's legged kinds (foxes, pedestrians) share beyond [`props_crowd::gaited`]: the
//! ground their feet are planted on, and their models' gaits measured crowd by crowd.

use std::sync::Arc;

use props_crowd::Ground;
use props_crowd::gaited::GaitedModel;

use crate::kind::KindProps;

/// The town's ground as a crowd plants feet on it: the terrain's height.
pub(crate) fn ground_of(town: &crate::town::Town<'_>) -> Ground {
    let terrain = *town.terrain;
    Arc::new(move |at| terrain.height(at))
}

/// Measures the gaits of every model of `props` and has each crowd hold its feet on `ground`
/// near the camera ([`GaitedModel::holding_feet`]).
pub(crate) fn measure_all(props: &mut KindProps, ground: Option<&Ground>) -> Vec<GaitedModel> {
    (0..props.crowds().len()).map(|m| GaitedModel::holding_feet(props.crowd_mut(m), ground)).collect()
}
