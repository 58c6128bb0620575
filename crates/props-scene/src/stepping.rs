//! One step of the systems that move the props: the traffic's vehicle following, then every
//! kind's. On one thread they run in that order (kinds in registration order); with worker
//! threads, in the groups [`crate::access::groups`] makes of what they touch: each group in
//! that order, the groups at the same time. Both give the same town, bit for bit.

use hecs::World;
use props_anim::runtime::Workers;

use crate::kind::Registered;
use crate::town::Town;
use crate::town::traffic::{self, TrafficState};

/// A system that steps with the kinds.
enum System<'a> {
    /// The traffic's vehicle following (the first system, group 0).
    Traffic(&'a mut TrafficState),
    /// A kind's systems.
    Kind(&'a mut Registered),
}

impl System<'_> {
    /// Its group, then its place in the order (the traffic's first, then the kinds').
    fn order(&self) -> (usize, usize) {
        match self {
            Self::Traffic(_) => (0, 0),
            Self::Kind(r) => (r.group, r.props.number() + 1),
        }
    }

    fn step(&mut self, world: &World, town: &Town<'_>, dt: f32) {
        match self {
            Self::Traffic(traffic) => {
                traffic::drive(world, town.roads, town.signals, &town.config.driving, traffic, dt);
            }
            Self::Kind(r) => r.kind.step(world, town, &mut r.props, dt),
        }
    }
}

/// The systems' order for stepping in groups, kept between steps (its allocation only).
#[derive(Default)]
pub(crate) struct Systems {
    order: Vec<System<'static>>,
}

/// `systems` emptied, its allocation kept for systems borrowed for another while: collecting
/// into elements of the same layout reuses the allocation in place.
fn reuse<'b>(mut systems: Vec<System<'_>>) -> Vec<System<'b>> {
    systems.clear();
    systems.into_iter().map(|_| unreachable!("emptied")).collect()
}

impl Systems {
    /// Steps the traffic and `kinds` by `dt` (see the module documentation).
    pub(crate) fn step(
        &mut self,
        world: &World,
        town: &Town<'_>,
        traffic: &mut TrafficState,
        kinds: &mut [Registered],
        workers: Option<&Workers>,
        dt: f32,
    ) {
        let Some(pool) = workers else {
            System::Traffic(traffic).step(world, town, dt);
            for r in kinds {
                System::Kind(r).step(world, town, dt);
            }
            return;
        };
        let mut order = reuse(std::mem::take(&mut self.order));
        order.push(System::Traffic(traffic));
        order.extend(kinds.iter_mut().map(System::Kind));
        order.sort_unstable_by_key(System::order);
        pool.for_each_run_mut(
            &mut order,
            |a, b| a.order().0 == b.order().0,
            |group| group.iter_mut().for_each(|system| system.step(world, town, dt)),
        );
        self.order = reuse(order);
    }
}
